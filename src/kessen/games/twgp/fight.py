"""The record of a TWGP fight, read from log entries: its steps, its outcome and its basis.

A fight starts with a declaration (``assault``, ``boost`` or ``direct``), goes through the
defender's answers (an intercept, a counter drive, weapons, a surge payment, ...) and ends with
the ``result`` entry, the discards it causes (their cards go to the surge first) and the vital
loss it inflicts. :func:`fight_record` groups the entries of the last fight whose result is in
the log into steps a page can play one by one: ``declare``, one step per answer (``intercept``,
``counter`` or ``answer``), ``compare``, ``discard``, ``vital`` and ``surge``; each step says how
many log entries it reveals (``log_until``).

The record reads the entries as the viewer's log shows them (:func:`seen_entries`: the public
part of each event, with the private part for its own reader), so no card hidden from the
viewer is ever in it; the outcome uses public fields only, the basis may name the viewer's own
face-down card. The same function reads the log of a simulated copy for a preview
(:mod:`.preview`), so a preview's ``predict`` and ``basis`` have the shape of the record's
``outcome`` and ``basis``.

>>> entries = [
...     {"kind": "direct", "seat": 0, "attacker": 1, "attack": 4},
...     {"kind": "accept", "seat": 1},
...     {"kind": "result", "type": "direct", "outcome": "hit", "attack": 4, "defence": 1},
...     {"kind": "vital_lost", "seat": 1, "squares": [2], "cards": ["h9"], "effect": "h9"},
... ]
>>> record = fight_record(entries)
>>> [s["step"] for s in record["steps"]], record["outcome"]["vitals"]
(['declare', 'compare', 'vital'], [0, 1])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kessen.engine.contract import Json
from kessen.engine.log import Event

Entry = Mapping[str, Any]

DECLARATIONS = frozenset({"assault", "boost", "direct"})
"""The log kinds that open a fight."""

_COSTS = frozenset({"download", "refill", "recharge"})
"""Entries that follow a declaration as the attacker's cost (a boost's downloads)."""
_PREFIX = frozenset({"download", "refill"})
"""Entries logged before the answer they belong to (a charge drive downloads first)."""
_STARTERS = frozenset(
    {
        "charge_drive",
        "unstealth",
        "attach",
        "power_drive",
        "counter_drive",
        "stealth",
        "surge_pay",
        "grid_blast",
        "accept",
        "download",
        "refill",
    }
)
"""Entries that begin a new answer of the defender."""
_TAIL = frozenset(
    {"discard", "log_out", "cache", "vital_lost", "damage_ignored", "game_over", "wipe"}
)
"""Entries that can follow a fight's result as part of it (its discards, their order and
weapon caches, the vital loss and what the loss itself ends)."""
_FIGHT_DISCARDS = frozenset({"assault", "tie", "boost"})
"""The ``why`` of a discard that the result caused."""

_BASIS_KEYS = (
    "seat",
    "attacker",
    "target",
    "surge",
    "downloads",
    "attack",
    "square",
    "face",
    "card",
    "k",
    "materials",
    "grid_materials",
    "hand_materials",
    "power",
)
"""The fields an answer contributes to a basis (never the cards a G-blast revealed)."""
_BASIS_SKIP = frozenset({"download", "refill", "recharge", "weapons_over_cap", "log_out", "cache"})
"""Entries of the answers that change nothing in the fight's basis (costs, bookkeeping)."""


def seen_entries(
    events: Sequence[Event], viewer: int | None, start: int = 0
) -> list[dict[str, Any]]:
    """Log events ``start`` on as ``viewer`` sees them (view log entries without their text)."""
    return [e.visible(viewer) for e in events[start:]]


def last_fight(entries: Sequence[Entry], start: int = 0) -> tuple[int, int] | None:
    """``(declaration, result)`` indexes of the last fight whose result is logged, or ``None``."""
    result = -1
    for i in range(len(entries) - 1, start - 1, -1):
        kind = entries[i]["kind"]
        if kind == "result" and result < 0:
            result = i
        elif kind in DECLARATIONS and result >= 0:
            return i, result
    return None


def _groups(entries: Sequence[Entry], begin: int, result: int) -> list[tuple[int, int]]:
    """The declaration's group, then one ``(first, end)`` group per answer, before ``result``."""
    seat = entries[begin].get("seat")
    end = begin + 1
    while end < result and entries[end]["kind"] in _COSTS and entries[end].get("seat") == seat:
        end += 1
    groups = [(begin, end)]
    first = end
    prefix_only = True
    for i in range(end, result):
        kind = entries[i]["kind"]
        if i > first and kind in _STARTERS and not prefix_only:
            groups.append((first, i))
            first = i
            prefix_only = True
        if kind not in _PREFIX:
            prefix_only = False
    if first < result:
        groups.append((first, result))
    return groups


def _answer_step(entries: Sequence[Entry], first: int, end: int) -> Json:
    kinds = [entries[i]["kind"] for i in range(first, end)]
    if "interrupt" in kinds:
        step = "intercept"
    elif "counter_drive" in kinds:
        step = "counter"
    elif kinds == ["accept"]:
        step = "accept"
    else:
        step = "answer"
    main = next(
        (entries[i] for i in range(first, end) if entries[i]["kind"] not in _PREFIX),
        entries[first],
    )
    return {"step": step, "from": first, "log_until": end, "kind": main["kind"]}


def _basis(entries: Sequence[Entry], begin: int, result: int) -> Json:
    """What the fight's outcome rests on: the declaration and each answer, as seen."""
    declared = entries[begin]
    answers: list[Json] = []
    for i in range(begin + 1, result):
        entry = entries[i]
        if entry["kind"] in _BASIS_SKIP:
            continue
        answers.append({"kind": entry["kind"], **{k: entry[k] for k in _BASIS_KEYS if k in entry}})
    return {
        "declared": {
            "kind": declared["kind"],
            **{k: declared[k] for k in _BASIS_KEYS if k in declared},
        },
        "answers": answers,
    }


def _tail_end(entries: Sequence[Entry], result: int) -> int:
    end = result + 1
    while end < len(entries) and entries[end]["kind"] in _TAIL:
        end += 1
    return end


def fight_record(
    entries: Sequence[Entry], start: int = 0, loss_pending: bool = False
) -> Json | None:
    """The record of the last fight with a result in ``entries`` (from index ``start`` on).

    ``loss_pending`` tells that the vital loss the fight inflicts is still to be carried out
    (a player picks the vitals): the record is then not ``complete``. Returns ``None`` before
    any fight has a result. ``outcome``: ``result`` (the result entry's outcome), ``attack``
    and ``defence`` (``None`` when there was no comparison), ``lost`` (the ``[seat, square]``
    of each stack the result discarded), ``surge`` (per seat, the cards those discards put in
    the surge), ``vitals`` (per seat, the vitals lost), ``ignored`` (the seat whose damage was
    ignored, or ``None``) and ``winner`` (the game's winner when the fight ended it, -1 for a
    draw, else ``None``).
    """
    found = last_fight(entries, start)
    if found is None:
        return None
    begin, result = found
    declared = entries[begin]
    res = entries[result]
    end = _tail_end(entries, result)
    steps: list[Json] = []
    groups = _groups(entries, begin, result)
    first, until = groups[0]
    steps.append({"step": "declare", "from": first, "log_until": until, "kind": declared["kind"]})
    steps += [_answer_step(entries, a, b) for a, b in groups[1:]]
    steps = [s for s in steps if s["step"] != "accept"]
    steps.append(
        {
            "step": "compare",
            "from": steps[-1]["log_until"],
            "log_until": result + 1,
            "result": res.get("outcome"),
            "attack": res.get("attack"),
            "defence": res.get("defence"),
        }
    )
    lost: list[list[int]] = []
    surge = [0, 0]
    vitals = [0, 0]
    ignored: int | None = None
    winner: int | None = None
    discard_until = vital_until = -1
    for i in range(result + 1, end):
        entry = entries[i]
        kind = entry["kind"]
        if kind == "discard" and entry.get("why") in _FIGHT_DISCARDS and vital_until < 0:
            seat = int(entry["seat"])
            lost.append([seat, int(entry["square"])])
            surge[seat] += int(entry.get("surge", 0))
            discard_until = i + 1
        elif kind in ("log_out", "cache") and vital_until < 0:
            discard_until = i + 1
        elif kind == "vital_lost" and vital_until < 0:
            vitals[int(entry["seat"])] += len(entry["squares"])
            vital_until = i + 1
        elif kind == "damage_ignored" and vital_until < 0:
            ignored = int(entry["seat"])
            vital_until = i + 1
        elif kind == "game_over":
            winner = int(entry["winner"])
            vital_until = i + 1
    if discard_until > 0:
        steps.append(
            {"step": "discard", "from": result + 1, "log_until": discard_until, "lost": lost}
        )
    if vital_until > 0:
        steps.append(
            {
                "step": "vital",
                "from": max(discard_until, result + 1),
                "log_until": vital_until,
                "vitals": vitals,
                "ignored": ignored,
                "winner": winner,
            }
        )
    if any(surge):
        last = steps[-1]["log_until"]
        steps.append({"step": "surge", "from": last, "log_until": last, "surge": surge})
    outcome: Json = {
        "result": res.get("outcome"),
        "attack": res.get("attack"),
        "defence": res.get("defence"),
        "lost": lost,
        "surge": surge,
        "vitals": vitals,
        "ignored": ignored,
        "winner": winner,
    }
    return {
        "key": f"twgp-fight-{begin}",
        "log_index": begin,
        "result_index": result,
        "end": max(end, steps[-1]["log_until"]),
        "type": declared["kind"],
        "seat": declared.get("seat"),
        "attacker": declared.get("attacker"),
        "target": declared.get("target"),
        "steps": steps,
        "outcome": outcome,
        "basis": _basis(entries, begin, result),
        "complete": not loss_pending,
    }

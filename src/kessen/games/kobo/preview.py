"""The exchange on the board as data: the preview of the open chain and the record of a resolution.

:func:`chain_preview` answers "what would happen if the chain closed now?": it resolves the
open chain of a copy of the state last-first with the ruleset's own frames (``resolve``, then
``result`` and the sweep, through :func:`kessen.games.kobo.flow.run_until`), and reports the
attacking side's total against the defending side's Lv at the attack result, each participant's
Lv, the result and every step of the resolution. Nothing is re-implemented here: the numbers
are the copy's, the steps are the events the copy's rules wrote.

What the preview may read: every link of a chain is face up (an activated trap is turned face
up, a tactic is played face up) and its target was announced; Lv, the battle areas and the
counts of cards are public. The chain verbs (:data:`PUBLIC_VERBS`) read nothing else. A chain
holding a card with another verb, or a face-down card, would make the preview depend on what
a seat may not know: it is then not computed (``exact`` false, outcome ``unknown``). So the
preview is the same for both seats and observers, and two true states that look the same to a
seat give it the same preview.

:func:`resolution_record` groups the log events of the last closed chain (``resolve``, ``lv``,
``retreat``, ``target_changed``, ``attack_negated``, ``link_negated``, ``result``,
``tie_choice``, ``base_zero``, ``game_end``) per link, in resolution order, for the browser to
step through. Its events are public; it reads only what the viewer's log shows. The record
also states its ``outcome`` (:func:`record_outcome`: the result's code and totals) and its
``basis`` (:func:`exchange_basis`: the declaration and every link, as the log lists them): the
shape the option previews of :mod:`kessen.games.kobo.option_preview` predict and assume.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kessen.engine.contract import Json
from kessen.games.kobo import text
from kessen.games.kobo.cards import CHAIN_VERBS
from kessen.games.kobo.flow import run_until
from kessen.games.kobo.state import EMPTY, KoboState

PUBLIC_VERBS = CHAIN_VERBS
"""Verbs whose resolution reads only public data (Lv, battle areas, the chain, card counts)."""

_TO_RESULT = frozenset({"result", "game"})
_TO_CLEANUP = frozenset({"cleanup", "game"})
_LINK_EFFECTS = frozenset({"lv", "retreat", "target_changed", "attack_negated", "link_negated"})
_AFTER_RESULT = frozenset({"retreat", "tie_choice", "base_zero"})


def _effect(event: Mapping[str, Any]) -> Json:
    """One log event of a resolution as a board step (names as in the view: slug, slot)."""
    kind = event["kind"]
    if kind == "lv":
        return {
            "kind": "lv",
            "seat": event["seat"],
            "slot": event["slot"],
            "slug": event["char"],
            "amount": event["amount"],
            "permanent": event["permanent"],
            "base": event["base"],
            "lv": event["lv"],
        }
    if kind in ("target_changed", "tie_choice"):
        return {"kind": kind, "seat": event["seat"], "slot": event["slot"], "slug": event["char"]}
    if kind == "link_negated":
        return {"kind": kind, "link": event["link"], "slug": event["card"]}
    if kind == "attack_negated":
        return {"kind": kind, "slug": event["card"]}
    return {"kind": kind, "seat": event["seat"], "slot": event["slot"], "slug": event["card"]}


def summarize(events: Sequence[Mapping[str, Any]], seats: Mapping[int, int]) -> Json:
    """Group the events of one resolution (from its first ``resolve`` on) for the board.

    ``seats`` maps a link number to the seat that activated it (for a surprise-zone link, the
    seat that flipped it: its owner). Returns ``links`` (in resolution order, each with its
    ``effects``), ``result`` (``outcome``, ``attack``, ``defence``; ``None`` before the result
    or when the game ended first), ``after`` (the result's retreats, the tie choice, the
    sweep), ``game_end`` (``winner``, ``reason``) and
    ``cleared`` (the activated cards the clean-up moved to the retreat areas, in order;
    ``None`` before the clean-up).
    """
    links: list[Json] = []
    result: Json | None = None
    after: list[Json] = []
    game_end: Json | None = None
    cleared: list[str] | None = None
    for event in events:
        kind = event["kind"]
        if kind == "resolve":
            link = int(event["link"])
            links.append(
                {
                    "link": link,
                    "seat": seats.get(link),
                    "slug": event["card"],
                    "negated": bool(event["negated"]),
                    "effects": [],
                }
            )
        elif kind == "result":
            result = {
                "outcome": event["outcome"],
                "attack": event.get("attack"),
                "defence": event.get("defence"),
            }
        elif kind == "game_end":
            game_end = {"winner": event["winner"], "reason": event["reason"]}
            break
        elif kind == "cleanup":
            cleared = list(event["cards"])
            break
        elif result is None and links and kind in _LINK_EFFECTS:
            links[-1]["effects"].append(_effect(event))
        elif result is not None and kind in _AFTER_RESULT:
            after.append(_effect(event))
    return {
        "links": links,
        "result": result,
        "after": after,
        "game_end": game_end,
        "cleared": cleared,
    }


_BASIS_END = frozenset({"result", "game_end", "cleanup"})
_SCORED = frozenset({"attacker_wins", "defender_wins", "tie_single", "tie_multi"})


def exchange_basis(log: Sequence[Mapping[str, Any]], at: int | None = None) -> Json | None:
    """What decided the last exchange of ``log`` declared at or before index ``at`` (default:
    the end): its declaration and its links, up to its attack result (``None`` if there is no
    declaration since the game's start).

    ``{"attackers": [slot, …], "target": slot, "links": [[link, seat, slug, target], …]}``,
    ``target`` being ``[seat, slot]`` for a card that chose a character, else ``None``; a
    flipped surprise ability is a link too (its ``link`` is 0 when it resolved at once).
    Two exchanges with the same basis, from the same board, resolve the same way: every link
    and every character it reads is public.
    """
    start = EMPTY
    for i in range(len(log) - 1 if at is None else at, -1, -1):
        kind = log[i]["kind"]
        if kind == "declare":
            start = i
            break
        if kind == "game_start":
            return None
    if start == EMPTY:
        return None
    links: list[list[Any]] = []
    for entry in log[start + 1 :]:
        kind = entry["kind"]
        if kind in _BASIS_END:
            break
        if kind == "activate":
            target = entry.get("target_slot")
            chosen = None if target is None else [entry["target_seat"], target]
            links.append([entry["link"], entry["seat"], entry["card"], chosen])
        elif kind == "surprise_flip":
            links.append([entry["link"], entry["seat"], entry["card"], None])
    declared = log[start]
    return {"attackers": list(declared["attackers"]), "target": declared["target"], "links": links}


def record_outcome(record: Mapping[str, Any]) -> Json | None:
    """A resolution's outcome as a preview predicts it: ``{"outcome", "attack", "defence"}``
    (the result's code and totals; ``outcome`` "game_end" with no totals when the game ended
    before the attack result; ``None`` while neither has happened)."""
    result = record.get("result")
    if result is not None:
        return {
            "outcome": result["outcome"],
            "attack": result.get("attack"),
            "defence": result.get("defence"),
        }
    if record.get("game_end") is not None:
        return {"outcome": "game_end", "attack": None, "defence": None}
    return None


def preview_outcome(preview: Mapping[str, Any]) -> Json:
    """The outcome a :func:`chain_preview` (an exact one) predicts, in the shape of
    :func:`record_outcome`."""
    outcome = str(preview["outcome"])
    scored = outcome in _SCORED
    return {
        "outcome": outcome,
        "attack": preview.get("attack") if scored else None,
        "defence": preview.get("defence") if scored else None,
    }


def _resolve_frame(state: KoboState) -> int:
    """The stack index of the pending ``resolve`` frame, or ``EMPTY`` once it has run."""
    for i in range(len(state.stack) - 1, -1, -1):
        if state.stack[i][0] == "resolve":
            return i
    return EMPTY


def _participant(state: KoboState, world: KoboState, card: int) -> Json:
    """A participant now (``lv_now``) and at the simulated result (``lv``; ``None`` if gone)."""
    seat = state.owner[card]
    gone = not world.on_field(card)
    return {
        "seat": seat,
        "slot": state.slot_of(card) + 1,
        "slug": state.defs[card].slug,
        "lv_now": state.lv(card),
        "lv": None if gone else world.lv(card),
        "base": world.base[card],
    }


def chain_preview(state: KoboState, seat: int | None, lang: str = "ja") -> Json | None:
    """What the open chain would give if both players passed now, as ``seat`` may know it.

    ``None`` outside an exchange or once its chain has resolved (the result is then on the
    board and in the log). See the module docstring for the fields' sources.
    """
    if not state.attackers:
        return None
    index = _resolve_frame(state)
    if index == EMPTY:
        return None
    attackers = [a for a in state.attackers if state.on_field(a)]
    target = state.target
    now_attack = sum(state.lv(a) for a in attackers)
    now_defence = state.lv(target) if state.on_field(target) else 0
    out: Json = {
        "links": len(state.chain),
        "attacker_seat": state.attacker_seat,
        "defender_seat": 1 - state.attacker_seat,
        "now": {"attack": now_attack, "defence": now_defence},
        "now_text": text.score_text(now_attack, now_defence, lang),
    }
    exact = all(
        state.faceup[link[0]] and state.defs[link[0]].verbs <= PUBLIC_VERBS for link in state.chain
    )
    if not exact:
        out.update(exact=False, outcome="unknown", outcome_text=text.outcome_text("unknown", lang))
        return out
    world = state.clone()
    del world.stack[index + 1 :]
    world.log = []
    world.quiet = False
    world.legal = None
    run_until(world, _TO_RESULT)
    at_result = bool(world.stack) and world.stack[-1][0] == "result"
    standing = [a for a in world.attackers if world.on_field(a)] if at_result else []
    final_target = world.target if at_result else target
    attack: int | None = None
    defence: int | None = None
    if at_result:
        attack = sum(world.lv(a) for a in standing)
        defence = world.lv(final_target) if world.on_field(final_target) else 0
    participants = {
        "attackers": [_participant(state, world, a) for a in state.attackers],
        "target": _participant(state, world, final_target) if final_target != EMPTY else None,
        "target_changed": final_target != target,
        "attack": attack,
        "defence": defence,
        "score_text": None if attack is None else text.score_text(attack, defence or 0, lang),
    }
    run_until(world, _TO_CLEANUP)
    events = [e.visible(seat) for e in world.log]
    seats = {i + 1: link[1] for i, link in enumerate(state.chain)}
    record = summarize(events, seats)
    result = record["result"]
    outcome = "game_end" if result is None else str(result["outcome"])
    retreats = [
        {"seat": state.owner[c], "slot": state.slot_of(c) + 1, "slug": state.defs[c].slug}
        for c in state.battle
        if c != EMPTY and not world.on_field(c)
    ]
    out.update(
        participants,
        exact=True,
        outcome=outcome,
        outcome_text=text.outcome_text(outcome, lang),
        retreats=retreats,
        tie_choice_pending=bool(world.stack) and world.stack[-1][0] == "tie_pick",
        steps=record["links"],
        after=record["after"],
        game_end=record["game_end"],
    )
    return out


def resolution_record(
    log: Sequence[Mapping[str, Any]], lang: str = "ja", start: int = 0
) -> Json | None:
    """The resolution of the last closed chain, from a view's log (entries ``start`` on).

    ``None`` before any chain has closed, or while a newer exchange is open. The record of an
    exchange that ended a game stays until the next declaration, in the next game.
    ``log_index`` is the index of the ``chain_closed`` entry (one record per exchange: the
    browser plays a record once). ``declared``: the declaration's attacker slots, target slot
    and the Lv totals then. ``done`` says whether the exchange's clean-up has happened.
    """
    closed = EMPTY
    for i in range(len(log) - 1, start - 1, -1):
        kind = log[i]["kind"]
        if kind == "chain_closed":
            closed = i
            break
        if kind == "declare":
            return None
    if closed == EMPTY:
        return None
    seats: dict[int, int] = {}
    attacker_seat: int | None = None
    declared: Json | None = None
    for i in range(closed - 1, start - 1, -1):
        entry = log[i]
        if entry["kind"] == "activate" or (
            entry["kind"] == "surprise_flip" and entry.get("link")
        ):  # a flipped surprise ability is a link of its owner's (link 0: resolved at once)
            seats.setdefault(int(entry["link"]), int(entry["seat"]))
        elif entry["kind"] == "declare":
            attacker_seat = int(entry["seat"])
            declared = {k: entry[k] for k in ("attackers", "target", "attack", "defence")}
            break
    tail = log[closed + 1 :]
    record = summarize(tail, seats)
    basis = exchange_basis(log, closed)
    result = record["result"]
    if result is not None:
        result["text"] = text.outcome_text(str(result["outcome"]), lang)
        if result["attack"] is not None:
            result["score_text"] = text.score_text(result["attack"], result["defence"], lang)
    return {
        "log_index": closed,
        "attacker_seat": attacker_seat,
        "declared": declared,
        **record,
        "outcome": record_outcome(record),
        "basis": basis,
        "done": any(e["kind"] in ("cleanup", "game_end") for e in tail),
    }

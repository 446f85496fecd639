"""Option previews for TWGP: what a fight gives if an option is taken and nothing more is added.

For each legal action of the pending decision that starts a fight (an assault, a surge
assault, a charge boost, a direct) or that is taken while a fight is open (the defender's
intercepts, counter drives, weapons, surge payments, G-blasts, ``accept``; the attacker's
re-charges), :func:`option_previews` takes the action on a copy of the state and lets the
rules run on with nothing added: the defender accepts at once, and the small decisions a
resolution asks for (the order of a discarded stack, keeping weapons, which vitals flip) take
their first option, none of which changes the outcome's numbers. The copy's own log then
gives the fight's record (:func:`kessen.games.twgp.fight.fight_record`): its ``outcome`` is
the preview's ``predict`` and its ``basis`` (the declaration and every answer) is what the
prediction assumes.

Nothing is re-implemented: the numbers are those the copy's rules (attacks.py, drives.py,
vitals.py) wrote. The record reads the log entries as the seat sees them, and a fight reads
public facts only (the units in it are face up, surge and vitals are counted), so the
previews are a function of what the seat's view shows: two worlds that look the same to the
seat give it the same previews (tests/twgp/test_preview.py checks this with
``resample_hidden``).
"""

from __future__ import annotations

from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.twgp.fight import DECLARATIONS, fight_record, seen_entries
from kessen.games.twgp.fightwords import names_of, verdict
from kessen.games.twgp.state import TwgpState

DECLARE_VERBS = frozenset({"assault", "surge-assault", "boost", "direct"})
"""The verbs that start a fight."""
_FIRST_OPTION = frozenset({"recharge", "order", "cache", "vital", "effect"})
"""Decisions of a resolution whose choice leaves the outcome's numbers as they are."""
ACCEPT = Action.of("accept")
_STEPS = 400
"""More decisions than any fight asks for (a guard against a loop)."""

_ASSUMES = {
    "attacker": {
        "ja": "相手がこれ以上応答しなければ（そのまま応戦したら）",
        "en": "if the opponent adds nothing more (accepts at once)",
    },
    "defender": {
        "ja": "このあとすぐ応戦し、相手もこれ以上何もしなければ",
        "en": "if you accept right after this and the opponent adds nothing more",
    },
}


def run_out(world: TwgpState) -> None:
    """Let the open fight of ``world`` resolve with nothing added (see the module docstring)."""
    for _ in range(_STEPS):
        pending = world.pending
        if pending is None:
            return
        if pending.prompt == "response":
            world.apply(ACCEPT)
        elif pending.prompt in _FIRST_OPTION:
            world.apply(world.legal_actions()[0])
        else:
            return
    raise AssertionError("a fight that does not end")


def _declaration_index(state: TwgpState) -> int:
    """Where the open fight's declaration is in the log (the log's end when none is open)."""
    if state.attack is None:
        return len(state.log)
    for i in range(len(state.log) - 1, -1, -1):
        if state.log[i].kind in DECLARATIONS:
            return i
    return len(state.log)


def simulate(state: TwgpState, action: Action, seat: int) -> Json | None:
    """The record of the fight ``action`` leads to with nothing more added, as ``seat`` sees
    it (``None`` if the action leads to no fight result)."""
    begin = _declaration_index(state)
    world = state.clone()
    world.apply(action)
    run_out(world)
    entries = seen_entries(world.log, seat, begin)
    if not entries or entries[0]["kind"] not in DECLARATIONS:
        return None
    record = fight_record(entries)
    if record is None or record["log_index"] != 0:
        return None
    record["names"] = names_of(entries)
    return record


def previewed(state: TwgpState, action: Action) -> bool:
    """Whether ``action`` of the pending decision gets a preview."""
    return state.attack is not None or action.verb in DECLARE_VERBS


def option_previews(state: TwgpState, seat: int, lang: str = "ja") -> dict[str, Json] | None:
    """``{action text: preview}`` for the seat's pending decision (``None`` when the decision
    is not the seat's or no option leads to a fight)."""
    prompt = state.prompt
    if prompt is None or prompt[0] != seat or state.outcome is not None:
        return None
    out: dict[str, Json] = {}
    for action in state.legal_actions():
        if not previewed(state, action):
            continue
        record = simulate(state, action, seat)
        if record is None:
            continue
        role = "attacker" if record["seat"] == seat else "defender"
        words = verdict(record["outcome"], record["basis"], seat, lang, record["names"])
        out[str(action)] = {
            "title": words["title"],
            "lines": words["lines"],
            "assumes": _ASSUMES[role]["ja" if lang == "ja" else "en"],
            "tone": words["tone"],
            "predict": record["outcome"],
            "basis": record["basis"],
        }
    return out or None

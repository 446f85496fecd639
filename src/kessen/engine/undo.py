"""The rule of undo for every ruleset: a seat takes back only what it decided since it last
learned something new.

Undo must never be an oracle. A player who could draw, take the draw back and draw again would
read its deck's order; one who could take back a decision after seeing the opponent's answer
would steer it (a COM's choice can depend on its hidden cards or on its own randomness). So a
seat may take back a run of its own decisions only while none of them taught it anything:

- no decision of another seat came in between;
- no random outcome happened (the state's :meth:`~GameState.chance_marker` did not move);
- no hidden card of another seat was shown (a log event that ``reveals`` it);
- nothing hidden from the seat showed in its own view: replayed in other worlds consistent with
  what the seat knew before (:meth:`~GameState.resample_hidden`), the decision gives the seat
  the same view. A card drawn from a deck whose order the seat does not know fails this test;
  a card the seat set face down from its own hand passes it.

The last test is what makes the rule game-agnostic: a ruleset only has to redeal correctly what
a seat cannot see, which its search players and its leak tests already demand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from kessen.engine.action import Action
from kessen.engine.contract import GameState, RulesError
from kessen.engine.log import NOBODY

WORLDS: Final = 3
"""How many other worlds a decision is replayed in to see whether it taught its seat anything."""

BlockCode = Literal["nothing", "over", "opponent", "learned"]


@dataclass(frozen=True, slots=True)
class UndoPoint:
    """Where one more 一つ戻る would take ``seat``: the index of the state before its last
    decision, or why there is none (``code`` for the UI, ``reason`` in English for messages).

    ``earliest`` is the first state that repeated undos could reach (the log before it can no
    longer be taken back).
    """

    index: int | None
    code: BlockCode | None
    reason: str | None
    earliest: int


REASONS: Final[dict[BlockCode, str]] = {
    "nothing": "nothing to undo yet",
    "over": "the match is over: nothing can be undone; open its record to replay or branch it",
    "opponent": "cannot undo past the opponent's decision",
    "learned": "cannot undo past a moment when you learned something new "
    "(a card drawn or shown, or a random outcome)",
}


def teaches(before: GameState, action: Action, after: GameState, seat: int) -> bool:
    """Whether ``seat`` learned something new when its own ``action`` took ``before`` to
    ``after`` (see the module docstring). Deterministic: the worlds are seeded by the step."""
    if before.chance_marker() != after.chance_marker():
        return True
    for event in after.log_events()[len(before.log_events()) :]:
        if event.reveals not in (NOBODY, seat):
            return True
    seen = after.view(seat)
    step = len(before.log_events())
    for world_seed in range(WORLDS):
        world = before.resample_hidden(seat, 7919 * step + world_seed + 1)
        try:
            world.apply(action)
        except RulesError:
            return True  # the decision depended on something hidden: it says something
        if world.view(seat) != seen:
            return True
    return False


class UndoRule:
    """The undo rule over a session's history, with each decision's verdict remembered.

    ``states[i + 1]`` is ``states[i]`` after ``actions[i]`` (a ``(seat, action)`` pair); the
    history may shrink (undo) and grow again, so verdicts are kept per state object.
    """

    def __init__(self) -> None:
        self._verdicts: dict[tuple[int, int], bool] = {}

    def _teaches(
        self, states: Sequence[GameState], actions: Sequence[tuple[int, Action]], i: int
    ) -> bool:
        key = (id(states[i]), id(states[i + 1]))
        verdict = self._verdicts.get(key)
        if verdict is None:
            seat, action = actions[i]
            verdict = teaches(states[i], action, states[i + 1], seat)
            self._verdicts[key] = verdict
        return verdict

    def forget_after(self, states: Sequence[GameState]) -> None:
        """Drop the verdicts of transitions no longer in ``states`` (after an undo)."""
        alive = {id(state) for state in states}
        self._verdicts = {k: v for k, v in self._verdicts.items() if k[1] in alive}

    def point(
        self,
        states: Sequence[GameState],
        actions: Sequence[tuple[int, Action]],
        seat: int,
        floor: int = 0,
    ) -> UndoPoint:
        """Where undo would take ``seat`` now (never before state ``floor``)."""
        last = len(actions)
        if states[-1].pending is None:
            return UndoPoint(None, "over", REASONS["over"], last)
        earliest = last
        blocked: BlockCode | None = None
        for i in range(last - 1, floor - 1, -1):
            who = actions[i][0]
            if who != seat:
                blocked = "opponent"
                break
            if self._teaches(states, actions, i):
                blocked = "learned"
                break
            earliest = i
        if earliest == last:
            code: BlockCode = blocked or "nothing"
            return UndoPoint(None, code, REASONS[code], last)
        return UndoPoint(last - 1, None, None, earliest)  # every decision since is seat's

"""The rule of undo for every ruleset: a seat takes back only what it decided since it last
learned something new.

Undo must never be an oracle. A player who could draw, take the draw back and draw again would
read its deck's order; one who could take back a decision after seeing the opponent's answer
would steer it (a COM's choice can depend on its hidden cards or on its own randomness). So a
seat may take back a run of its own decisions only while none of them taught it anything:

- no decision of another seat came in between;
- no random outcome happened (the state's :meth:`~GameState.chance_marker` did not move);
- no hidden card of another seat was shown (a log event that ``reveals`` it);
- no card hidden from the seat showed in its own view. The test compares the cards whose
  identity the seat's view shows before and after the decision
  (:meth:`~GameState.known_cards`): a card that joins them (drawn from a deck whose order the
  seat does not know, an opponent's card turned up) taught the seat something, however few
  cards it could have been; a card the seat already saw that only moves (set face down from
  its own hand, played, discarded) did not.

That is the whole test, and it is exact: no world is replayed. It holds because every ruleset
keeps one promise, which its leak tests and :file:`tests/test_undo_property.py` check: what a
seat sees besides card identities (counts, the prompt and its legal actions, whose turn it is)
follows from what it saw before and what it decided, unless a random outcome, a reveal or a
card joining its view came in between. A ruleset that does not list the cards its view shows
(:meth:`~GameState.known_cards` is ``None``) gets the sampled check instead: the decision
replayed in :data:`WORLDS` other worlds consistent with what the seat knew before
(:meth:`~GameState.resample_hidden`), whole views compared (a draw from ``k`` distinct cards
escapes it with probability ``(1/k)**WORLDS``).

The rule stays game-agnostic (a ruleset lists what its view shows), and its verdict costs two
lists of seen cards, tens of microseconds (:file:`bench/undo_bench.py`): the server asks it
after every decision of a person.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json, RulesError
from kessen.engine.log import NOBODY

WORLDS: Final = 3
"""How many other worlds a decision is replayed in when its ruleset does not list the cards a
seat sees (:meth:`~GameState.known_cards` is ``None``): the sampled check."""

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


def shows_new_card(before: GameState, after: GameState, seat: int) -> bool | None:
    """Whether ``after`` shows ``seat`` the identity of a card that ``before`` hid from it, by
    the cards each lists as seen (:meth:`~GameState.known_cards`); ``None`` when the ruleset
    does not list them."""
    known = before.known_cards(seat)
    if known is None:
        return None
    now = after.known_cards(seat)
    if now is None:
        return None
    return not now.keys() <= known.keys()


def differs_in_worlds(
    before: GameState, action: Action, after: GameState, seat: int, worlds: int
) -> bool:
    """Whether ``action`` gives ``seat`` another view in one of ``worlds`` worlds redealt from
    ``before`` as ``seat`` saw it (or is illegal there) than it did in the game: the sampled
    check of a ruleset that does not list the cards a seat sees. Deterministic: the worlds are
    seeded by the step."""
    if worlds <= 0:
        return False
    seen: Json = after.view(seat)
    step = len(before.log_events())
    for world_seed in range(worlds):
        world = before.resample_hidden(seat, 7919 * step + world_seed + 1)
        try:
            world.apply(action)
        except RulesError:
            return True  # the decision depended on something hidden: it says something
        if world.view(seat) != seen:
            return True
    return False


def teaches(before: GameState, action: Action, after: GameState, seat: int) -> bool:
    """Whether ``seat`` learned something new when its own ``action`` took ``before`` to
    ``after`` (see the module docstring): a random outcome, a reveal, or a card joining the
    ones its view shows. Deterministic (a ruleset without :meth:`~GameState.known_cards`: its
    sampled worlds are seeded by the step)."""
    if before.chance_marker() != after.chance_marker():
        return True
    for event in after.log_events()[len(before.log_events()) :]:
        if event.reveals not in (NOBODY, seat):
            return True
    shown = shows_new_card(before, after, seat)
    if shown is None:  # the ruleset does not list what its view shows: sample only
        return differs_in_worlds(before, action, after, seat, WORLDS)
    return shown


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

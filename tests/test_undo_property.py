"""The undo rule without resampled worlds decides as the rule that replayed them, in random
play of all three rulesets.

The rule before (kept here as the oracle) asked, behind the random outcome, the reveals and the
exact test of the cards a seat's view shows, whether the decision gave the seat the same
decision view in one world redealt from what it knew (and, with no list of seen cards, the same
whole view in three). The rule now stops at the exact test. Hypothesis draws the ruleset, the
deal and the players' random choices; on every decision of either seat the two verdicts must
agree, and so must where 一つ戻る would take each seat. A second, stronger oracle replays each
decision in more worlds, whole views compared: what a seat sees besides card identities never
depends on what it cannot see (the promise the rule now rests on).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kessen.engine import registry, undo
from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json, RulesError
from kessen.engine.log import NOBODY
from kessen.engine.undo import UndoPoint, UndoRule, shows_new_card, teaches

CONFIGS: dict[str, dict[str, Any]] = {
    "kobo": {"decks": ["vanguard", "tempo"], "best_of": 1},
    "twgp": {},
    "maken": {},
}
Verdict = Callable[[GameState, Action, GameState, int], bool]


def replayed_differs(
    before: GameState,
    action: Action,
    after: GameState,
    seat: int,
    seeds: Sequence[int],
    look: Callable[[GameState, int], Json],
) -> bool:
    """Whether ``action`` replayed in the worlds of ``seeds`` redealt from ``before`` as
    ``seat`` saw it gives it another ``look`` than it got in the game (or is refused there)."""
    seen = look(after, seat)
    for seed in seeds:
        world = before.resample_hidden(seat, seed)
        try:
            world.apply(action)
        except RulesError:
            return True
        if look(world, seat) != seen:
            return True
    return False


def _view(state: GameState, seat: int) -> Json:
    """``state.view(seat)``: the state's own view (``GameState.view`` is the abstract one)."""
    return state.view(seat)


def _decision_view(state: GameState, seat: int) -> Json:
    """``state.decision_view(seat)``, the state's own."""
    return state.decision_view(seat)


def learned_plainly(before: GameState, after: GameState, seat: int) -> bool | None:
    """The tests both rules share: a random outcome, a reveal; then the exact test."""
    if before.chance_marker() != after.chance_marker():
        return True
    if any(e.reveals not in (NOBODY, seat) for e in after.log_events()[len(before.log_events()) :]):
        return True
    return shows_new_card(before, after, seat)


def old_teaches(before: GameState, action: Action, after: GameState, seat: int) -> bool:
    """The rule before: the exact test, then one world redealt, decision views compared."""
    plain = learned_plainly(before, after, seat)
    if plain is None:
        step = len(before.log_events())
        seeds = [7919 * step + w + 1 for w in range(3)]
        return replayed_differs(before, action, after, seat, seeds, _view)
    if plain:
        return True
    seeds = [7919 * len(before.log_events()) + 1]
    return replayed_differs(before, action, after, seat, seeds, _decision_view)


def strong_teaches(before: GameState, action: Action, after: GameState, seat: int) -> bool:
    """A stronger oracle: the exact test, then four other worlds, whole views compared."""
    plain = learned_plainly(before, after, seat)
    if plain:
        return True
    seeds = [104_729 * len(before.log_events()) + w for w in (11, 12, 13, 14)]
    return replayed_differs(before, action, after, seat, seeds, _view)


def point_by(
    verdict: Verdict, states: list[GameState], actions: list[tuple[int, Action]], seat: int
) -> UndoPoint:
    """Where undo would take ``seat``, the rule's verdict being ``verdict``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(undo, "teaches", verdict)
        return UndoRule().point(states, actions, seat)


History = tuple[list[GameState], list[tuple[int, Action]]]


def random_play(ruleset: str, deal: int, choices: int, limit: int) -> Iterator[History]:
    """A game of ``deal`` played by uniformly random choices (seeded by ``choices``): after
    each decision, the history so far (every state, and each decision as ``(seat, action)``;
    the same two lists, growing)."""
    rules = registry.get(ruleset)
    state = rules.new_game({**rules.default_config, **CONFIGS[ruleset]}, deal)
    rng = random.Random(choices)
    states: list[GameState] = [state]
    actions: list[tuple[int, Action]] = []
    for _ in range(limit):
        pending = state.pending
        if pending is None:
            return
        action = rng.choice(state.legal_actions())
        state = state.clone()
        state.apply(action)
        states.append(state)
        actions.append((pending.seat, action))
        yield states, actions


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    ruleset=st.sampled_from(sorted(CONFIGS)),
    deal=st.integers(min_value=1, max_value=10**6),
    choices=st.integers(min_value=0, max_value=10**6),
)
def test_the_rule_without_worlds_decides_as_the_rule_with_them(
    ruleset: str, deal: int, choices: int
) -> None:
    learned = agreed = 0
    for states, actions in random_play(ruleset, deal, choices, limit=400):
        before, after = states[-2], states[-1]
        seat, action = actions[-1]
        now = teaches(before, action, after, seat)
        assert now == old_teaches(before, action, after, seat), (ruleset, len(actions), action)
        agreed += 1
        learned += now
        if len(actions) % 7 == 0:  # where 一つ戻る would take each seat, now and then
            for who in (0, 1):
                old = point_by(old_teaches, states, actions, who)
                assert UndoRule().point(states, actions, who) == old, (ruleset, len(actions))
    assert agreed > 10 and learned  # the game went on, and some decisions taught something


@pytest.mark.parametrize("ruleset", sorted(CONFIGS))
def test_what_a_seat_sees_besides_cards_follows_from_its_own_decision(ruleset: str) -> None:
    """The promise behind the rule: a decision the exact test lets through gives its seat the
    same whole view in four other worlds (two seeded games per ruleset, every decision)."""
    checked = 0
    for deal in (21, 22):
        for states, actions in random_play(ruleset, deal, deal, limit=300):
            seat, action = actions[-1]
            now = teaches(states[-2], action, states[-1], seat)
            assert now == strong_teaches(states[-2], action, states[-1], seat), (
                ruleset,
                deal,
                len(actions),
                action,
            )
            checked += not now
    assert checked > 50

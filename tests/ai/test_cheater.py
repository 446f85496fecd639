"""The honesty controls: the cheater reads the true state, the peeker all of it but the draws."""

from __future__ import annotations

import dataclasses
import random

import pytest

from kessen.ai import tournament
from kessen.ai.cheater import CheatingPlayer
from kessen.ai.ismcts import Budget, SearchConfig, hooks_for
from kessen.engine import registry
from kessen.engine.contract import GameState
from kessen.games.kobo.resample import redeal_unseen
from kessen.games.kobo.state import MAIN_DECK, REVEAL, TDECK, THAND, KoboState
from tests.ai.test_search import _mid_game

DECKS = (MAIN_DECK, TDECK)


def _random_decisions(seed: int, ruleset: str = "kobo") -> list[GameState]:
    """Every decision of one seeded random game of ``ruleset`` (copies)."""
    rules = registry.get(ruleset)
    chooser = random.Random(seed)
    state = rules.new_game(rules.default_config, seed)
    seen = []
    while state.pending is not None:
        seen.append(state.clone())
        legal = state.legal_actions()
        state.apply(legal[chooser.randrange(len(legal))])
    return seen


@pytest.mark.parametrize("ruleset", ["kobo", "twgp"])
@pytest.mark.parametrize("seed", range(3))
def test_redeal_unseen_changes_nothing_any_seat_sees(ruleset: str, seed: int) -> None:
    """At every decision of random games, the ruleset's redeal keeps both views, the legal
    actions and the state's invariants, changes the truth somewhere, and reads what the
    redealt zones hold, not their order (redealing a redealt copy with the same seed gives
    the same copy)."""
    redeal = hooks_for(ruleset).redeal_unseen
    assert redeal is not None
    changed = 0
    for index, state in enumerate(_random_decisions(seed, ruleset)):
        copy = redeal(state, 100 * seed + index)
        copy.audit()
        for seat in (0, 1):
            assert copy.view(seat) == state.view(seat)
        assert copy.legal_actions() == state.legal_actions()
        assert redeal(copy, 100 * seed + index).state_hash() == copy.state_hash()
        changed += copy.state_hash() != state.state_hash()
    assert changed > 0


def test_redeal_unseen_keeps_the_cards_and_redeals_the_decks_order() -> None:
    """In Kōbō the redeal keeps both hands, the strategy area and what every deck holds."""
    for index, state in enumerate(_random_decisions(4)):
        assert isinstance(state, KoboState)
        copy = redeal_unseen(state, index)
        assert copy.strategy == state.strategy
        for seat in (0, 1):
            assert copy.zone(seat, THAND) == state.zone(seat, THAND)
            for zone in DECKS:
                assert sorted(copy.zone(seat, zone)) == sorted(state.zone(seat, zone))


def test_redeal_unseen_reads_what_decks_hold_not_their_order() -> None:
    """Two states that differ only in what no seat can see give the same copy for a seed."""
    state = _mid_game(3)
    other = redeal_unseen(state, 1)
    assert other.state_hash() != state.state_hash()
    assert redeal_unseen(state, 7).state_hash() == redeal_unseen(other, 7).state_hash()
    assert redeal_unseen(state, 7).state_hash() != redeal_unseen(state, 8).state_hash()


def test_redeal_unseen_shuffles_a_blind_pick() -> None:
    """At a blind pick the face-down cards' order is redealt: nobody knows it."""
    for seed in range(400):
        blind = [s for s in _random_decisions(seed) if s.pending and s.pending.prompt == "blind"]
        if blind:
            break
    else:
        pytest.fail("no blind pick in 400 random games")
    state = blind[0]
    assert isinstance(state, KoboState)
    owner = state.stack[-1][1]
    orders = {tuple(redeal_unseen(state, s).zone(owner, REVEAL)) for s in range(12)}
    assert len(orders) > 1
    assert {tuple(sorted(order)) for order in orders} == {tuple(sorted(state.zone(owner, REVEAL)))}


def _control(knows_draws: bool) -> CheatingPlayer:
    config = SearchConfig(Budget(60), 0.25, 0.3)
    hooks = hooks_for("kobo", deep=True)
    return CheatingPlayer("control", hooks, config, 4, knows_draws=knows_draws)


def test_the_peeker_sees_the_hidden_cards_and_no_draw_to_come() -> None:
    """The peeker's worlds hold the opponent's true hand and traps, with the decks' order
    redealt; the cheater's worlds are the true state itself."""
    state = _mid_game(2)
    peeker, cheater = _control(False), _control(True)
    peeker.bind(state)
    cheater.bind(state)
    orders = set()
    for index in range(6):
        world = peeker._true_worlds(5)(index)
        assert isinstance(world, KoboState)
        assert world.strategy == state.strategy
        for seat in (0, 1):
            assert world.zone(seat, THAND) == state.zone(seat, THAND)
            for zone in DECKS:
                assert sorted(world.zone(seat, zone)) == sorted(state.zone(seat, zone))
        orders.add(tuple(world.zone(0, MAIN_DECK) + world.zone(1, TDECK)))
        truth = cheater._true_worlds(5)(index)
        assert isinstance(truth, KoboState)
        assert all(truth.zone(s, z) == state.zone(s, z) for s in (0, 1) for z in DECKS)
    assert len(orders) > 1


@pytest.mark.parametrize("seed", range(3))
def test_the_peeker_decides_the_same_whatever_the_decks_order(seed: int) -> None:
    """Two true states that differ only in the decks' order make the peeker decide
    identically (same seed): the draws to come never reach its decisions."""
    a = _mid_game(seed)
    b = redeal_unseen(a, 50 + seed)
    assert b.state_hash() != a.state_hash()
    choices: list[object] = []  # each truth's action, then its candidates
    for truth in (a, b):
        assert truth.pending is not None
        peeker = _control(False)
        peeker.bind(truth)
        choices.append(peeker.choose(truth.view(truth.pending.seat), truth.legal_actions()))
        assert peeker.last_result is not None
        choices.append(peeker.last_result.candidates)
    assert choices[:2] == choices[2:]


def test_the_tournament_names_both_controls() -> None:
    """``cheater-<level>`` knows the draws, ``peeker-<level>`` does not (for either ruleset);
    hooks without a redeal of what no seat sees get a clear refusal, not a silent cheater."""
    for ruleset in ("kobo", "twgp"):
        cheater = tournament._build("cheater-ismcts-strong", ruleset, 1, 0.0)
        peeker = tournament._build("peeker-ismcts-strong", ruleset, 1, 0.0)
        assert isinstance(cheater, CheatingPlayer) and cheater.knows_draws
        assert isinstance(peeker, CheatingPlayer) and not peeker.knows_draws
    assert "peeker-ismcts-strong:heuristic@200" in tournament.SUITES["honesty"]
    bare = dataclasses.replace(hooks_for("kobo"), redeal_unseen=None)
    with pytest.raises(ValueError, match="no redeal_unseen"):
        CheatingPlayer("peeker", bare, SearchConfig(), 1, knows_draws=False)

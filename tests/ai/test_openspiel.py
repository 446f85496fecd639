"""Kōbō as an OpenSpiel game: OpenSpiel's own random simulation test, views, resampling."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("kessen.interop.openspiel")


def test_openspiel_random_sim_test() -> None:
    game = pyspiel.load_game(openspiel.GAME_NAME, {"best_of": 1})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_actions_strings_and_resampling_follow_our_engine() -> None:
    game = pyspiel.load_game(openspiel.GAME_NAME)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert abs(sum(p for _, p in state.chance_outcomes()) - 1.0) < 1e-9
    state.apply_action(17)
    table = openspiel.action_table()
    chooser = random.Random(0)
    for _ in range(120):
        if state.is_terminal():
            break
        player = state.current_player()
        inner = state.inner
        assert [table[a] for a in state.legal_actions()] == sorted(
            inner.legal_actions(), key=openspiel.action_ids().__getitem__
        )
        info = state.information_state_string(player)
        other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert other.information_state_string(player) == info
        assert other.observation_string(player) == state.observation_string(player)
        assert other.legal_actions() == state.legal_actions()
        state.apply_action(chooser.choice(state.legal_actions()))


def test_openspiel_ismcts_bot_plays_a_move_through_the_wrapper() -> None:
    from kessen.engine import registry
    from kessen.games.kobo.state import KoboState

    rules = registry.get("kobo")
    truth = rules.new_game(rules.default_config, 4)
    assert isinstance(truth, KoboState)
    chooser = random.Random(1)
    while truth.pending is not None and truth.turn < 2:
        legal = truth.legal_actions()
        truth.apply(legal[chooser.randrange(len(legal))])
    assert truth.pending is not None
    peer = openspiel.OpenSpielISMCTSPlayer(seed=3, seconds=0.2)
    peer.bind(truth)
    seat = truth.pending.seat
    action = peer.choose(truth.view(seat), truth.legal_actions())
    assert action in truth.legal_actions()

"""The OpenSpiel game ``python_kessen_maken``: complete random games through pyspiel, every
legal action in the table, and resampling from an information state."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")


def test_openspiel_random_games() -> None:
    """Three random games end with zero-sum returns; info states differ per seat."""
    from kessen.games.maken import spiel

    game = pyspiel.load_game(spiel.GAME_NAME, {"decks": "RI+MI"})
    chooser = random.Random(0)
    for _ in range(3):
        state = game.new_initial_state()
        state.apply_action(chooser.randrange(game.max_chance_outcomes()))
        steps = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal
            if steps % 40 == 0:
                player = state.current_player()
                twin = state.resample_from_infostate(player, chooser.random)
                assert twin.information_state_string(player) == state.information_state_string(
                    player
                )
            state.apply_action(chooser.choice(legal))
            steps += 1
        assert sum(state.returns()) == 0.0
    assert len(set(spiel.action_table())) == len(spiel.action_table())

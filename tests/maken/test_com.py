"""The COM players on Maken: the heuristic beats random, the search levels play from their own
view, and ``redeal_unseen`` keeps every seat's view."""

from __future__ import annotations

import random

from kessen.engine import registry
from kessen.engine.contract import GameState
from kessen.games.maken.resample import redeal_unseen


def _play(names: tuple[str, str], seed: int) -> GameState:
    rules = registry.get("maken")
    state = rules.new_game({"decks": ["RI", "MI"]}, seed)
    players = [rules.players[n](seed + i) for i, n in enumerate(names)]
    while state.pending is not None:
        seat = state.pending.seat
        state.apply(players[seat].choose(state.view(seat), state.legal_actions()))
    return state


def test_heuristic_beats_random() -> None:
    """Eight games, seats alternating: the heuristic wins at least seven."""
    wins = 0
    for seed in range(8):
        names = ("heuristic", "random") if seed % 2 == 0 else ("random", "heuristic")
        outcome = _play(names, seed).outcome
        assert outcome is not None
        wins += outcome.winner == seed % 2
    assert wins >= 7


def test_search_level_plays_a_game() -> None:
    """ismcts-easy plays a whole game against random from its own view."""
    outcome = _play(("ismcts-easy", "random"), 1).outcome
    assert outcome is not None and outcome.reason == "lp"


def test_redeal_unseen_keeps_every_view() -> None:
    """Redealing what nobody sees leaves both seats' and the observer's views unchanged."""
    rules = registry.get("maken")
    state = rules.new_game({}, 5)
    chooser = random.Random(5)
    while state.pending is not None:
        if chooser.random() < 0.2:
            other = redeal_unseen(state, chooser.randrange(2**32))
            other.audit()
            for viewer in (0, 1, None):
                assert other.view(viewer) == state.view(viewer)
        legal = state.legal_actions()
        state.apply(legal[chooser.randrange(len(legal))])

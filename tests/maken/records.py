"""Recorded Maken games for the tests of what reads records (text board, HTML replay)."""

from __future__ import annotations

import json

from kessen.engine import registry
from kessen.engine.contract import GameState, Json
from kessen.engine.players import RandomPlayer, play_out
from kessen.engine.replay import Replay


def random_record(decks: list[str], seed: int) -> Replay:
    """One whole game of two random players between ``decks``, recorded step by step."""
    config: Json = {"decks": decks}
    state = registry.get("maken").new_game(config, seed)
    replay = Replay.start(state, config, seed)
    play_out(
        state,
        {0: RandomPlayer(seed), 1: RandomPlayer(seed + 1)},
        on_step=lambda after, _seat, action: replay.record(action, after),
    )
    return replay


def unseen_names(state: GameState, viewer: int, lang: str) -> set[str]:
    """Names of the other seat's hand and face-down support cards that ``viewer`` sees
    nowhere in its own view of ``state`` right now."""
    truth = state.view_all(lang)["players"][1 - viewer]
    secret = [c["name"] for c in truth["hand"]["cards"]]
    secret += [c["name"] for c in truth["support"] if c.get("face") == "down"]
    shown = json.dumps(state.view(viewer, lang), ensure_ascii=False)
    return {name for name in secret if name not in shown}

"""Shared helpers of the store tests: play a seeded COM match while recording it."""

from __future__ import annotations

from typing import Any

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.store import MatchStore, Recorder

DECKS = ("swarm", "tempo")


def config(best_of: int = 1) -> Json:
    """A small config."""
    return {"decks": list(DECKS), "best_of": best_of}


def com_action(state: GameState, seed: int, level: str = "heuristic") -> Action:
    """The COM's choice for the pending decision, seeded like a server session (game seed and
    prompt id), so a game resumed from its record continues exactly as it would have."""
    pending = state.pending
    assert pending is not None
    player = registry.get(state.ruleset).players[level](seed * 1_000_003 + pending.prompt_id)
    return player.choose(state.view(pending.seat), state.legal_actions())


def play_recorded(
    store: MatchStore, seed: int, best_of: int = 1, **kwargs: Any
) -> tuple[int, GameState, list[list[Json]]]:
    """Play and record one COM match; returns its id, final state and each step's events."""
    rules = registry.get("kobo")
    cfg = config(best_of)
    state = rules.new_game(cfg, seed)
    recorder = Recorder.start(
        store, state, cfg, seed, players={0: "heuristic", 1: "heuristic"}, **kwargs
    )
    events = [[e.visible(None, True) for e in state.log_events()]]
    while state.pending is not None:
        seen = len(state.log_events())
        action = com_action(state, seed)
        state.apply(action)
        recorder.record(action, state)
        events.append([e.visible(None, True) for e in state.log_events()[seen:]])
    return recorder.match_id, state, events


def play_plain(seed: int, best_of: int = 1) -> tuple[list[str], GameState]:
    """The same match without a store: its action texts and final state."""
    state = registry.get("kobo").new_game(config(best_of), seed)
    actions = []
    while state.pending is not None:
        action = com_action(state, seed)
        state.apply(action)
        actions.append(str(action))
    return actions, state


def play_twgp_recorded(store: MatchStore, seed: int, config: Json | None = None) -> int:
    """Play and record one TWGP heuristic-vs-heuristic game; returns its match id."""
    rules = registry.get("twgp")
    cfg = dict(config or {})
    state = rules.new_game(cfg, seed)
    recorder = Recorder.start(
        store, state, cfg, seed, players={0: "heuristic", 1: "heuristic"}, source="sim"
    )
    players = {s: rules.players["heuristic"](seed * 2 + s) for s in (0, 1)}
    while (pending := state.pending) is not None:
        action = players[pending.seat].choose(state.view(pending.seat), state.legal_actions())
        state.apply(action)
        recorder.record(action, state)
    return recorder.match_id

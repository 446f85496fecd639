"""Players and the loop that drives them; a player only ever receives its own view.

A player answers a decision from ``view`` (what its seat may see, as JSON data) and the list of
legal actions. No code path here hands the game state itself to a player.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json


class Player(Protocol):
    """Something that picks one of the legal actions from its seat's view."""

    name: str

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        """Return one element of ``legal``."""
        ...


class RandomPlayer:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        """A uniformly random legal action."""
        return legal[self._random.randrange(len(legal))]


StepHook = Callable[[GameState, int, Action], None]


def play_out(
    state: GameState,
    players: Mapping[int, Player],
    on_step: StepHook | None = None,
    max_steps: int = 1_000_000,
) -> GameState:
    """Drive ``state`` to its end, each seat's player deciding from ``state.view(seat)``.

    ``on_step(state, seat, action)`` runs after each applied action.
    """
    for _ in range(max_steps):
        pending = state.pending
        if pending is None:
            return state
        legal = state.legal_actions()
        action = players[pending.seat].choose(state.decision_view(pending.seat), legal)
        state.apply(action)
        if on_step is not None:
            on_step(state, pending.seat, action)
    raise RuntimeError(f"game did not end within {max_steps} steps")

"""Creating Maken games: from a config and a seed, at their first decision."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kessen.games.maken.flow import setup
from kessen.games.maken.state import MakenState


def new_game(config: Mapping[str, Any], seed: int) -> MakenState:
    """A new game (see :mod:`.config`), at the first mulligan prompt.

    >>> s = new_game({"firstPlayer": 0}, 1)
    >>> s.pending.prompt, s.pending.seat, len(s.hand[0]), len(s.stamina[1])
    ('mulligan', 0, 5, 42)
    """
    state = MakenState(config, seed)
    setup(state)
    return state

"""Creating TWGP games: from a config and a seed, at their first decision."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kessen.games.twgp.config import TwgpConfig, parse_config
from kessen.games.twgp.flow import advance
from kessen.games.twgp.state import TwgpState


def new_game(config: Mapping[str, Any], seed: int) -> TwgpState:
    """A new game from a config (see :mod:`.config`) and a seed, at its first decision.

    >>> s = new_game({"quickStart": True, "firstPlayer": 0}, 1)
    >>> s.pending.seat, s.turn
    (0, 1)
    """
    return start(parse_config(config), seed)


def start(config: TwgpConfig, seed: int) -> TwgpState:
    """A game of a validated config: both builds (seat 0 first), then the deal."""
    state = TwgpState.blank(config, seed)
    state.stack += [("deal",), ("build", 1), ("build", 0)]
    advance(state)
    return state

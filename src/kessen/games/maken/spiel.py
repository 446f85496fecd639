"""Project Maken as an OpenSpiel Python game (``python_kessen_maken``); importing this module
registers it with ``pyspiel`` through the game-agnostic wrapper :mod:`kessen.interop.spiel_game`
(chance draws the game seed; actions are numbered by Maken's fixed table,
:func:`kessen.interop.encoding.maken_action_table`; observations are the seat's own view;
resampling is :meth:`MakenState.resample_hidden`). This module holds Maken's one parameter,
``decks`` (two starter decks joined by ``+``).
"""

from __future__ import annotations

from typing import Any

from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.maken.cards import DECKS
from kessen.interop.encoding import maken_action_table
from kessen.interop.spiel_game import SpielSpec, register

GAME_NAME = "python_kessen_maken"


def action_table() -> tuple[Action, ...]:
    """Every action Maken can offer, in a fixed order (its index is the OpenSpiel id)."""
    return maken_action_table()


def _config(params: dict[str, Any]) -> Json:
    """Maken's config of the game parameter ``decks``."""
    decks = str(params["decks"]).split("+")
    if len(decks) != 2 or set(decks) - set(DECKS):
        raise ValueError(f"decks: two of {', '.join(DECKS)} joined by '+'")
    return {"decks": decks}


MakenGame = register(
    SpielSpec(
        short_name=GAME_NAME,
        long_name="Kessen Project Maken (プロジェクト魔剣), one game",
        ruleset="maken",
        parameters={"decks": "SO+GA"},
        config_of=_config,
    )
)
"""The OpenSpiel game: one Maken game between two starter decks (``decks=SO+GA``)."""

"""The game-agnostic rules kernel: actions, the state contract, logs, RNG, replays, players."""

from kessen.engine.action import Action, ActionParseError
from kessen.engine.contract import (
    GameOver,
    GameState,
    IllegalAction,
    NotYourDecision,
    Outcome,
    Pending,
    RulesError,
    StalePrompt,
)

__all__ = [
    "Action",
    "ActionParseError",
    "GameOver",
    "GameState",
    "IllegalAction",
    "NotYourDecision",
    "Outcome",
    "Pending",
    "RulesError",
    "StalePrompt",
]

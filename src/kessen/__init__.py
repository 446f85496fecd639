"""Kessen (決戦): a game-agnostic card-battle rules kernel, its rulesets, players and tools."""

__version__ = "0.1.0"

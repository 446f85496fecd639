"""Project Maken (プロジェクト魔剣): the third ruleset, registered with the kernel as ``maken``.

Supplement rules on a reconstructed base (maken.md): the 17-step bet procedure, double and
triple attacks, instant gauge with キャンセル, helpers, RV and the four principles.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kessen.ai.levels import player_factories
from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.engine.glossary import packaged_glossary
from kessen.engine.players import Player, RandomPlayer
from kessen.games.maken.cards import DATA_HASH
from kessen.games.maken.catalog import catalog, icon_credits
from kessen.games.maken.config import default_config, departures
from kessen.games.maken.game import new_game
from kessen.games.maken.state import MakenState

__version__ = "0.1.0"
"""The Maken rules version, recorded with every match (``Replay.version``)."""

SECRET_VERBS = frozenset({"set"})
"""Verbs whose card argument the other seat may not see: setting a support card face-down."""


def secret_action(action: Action) -> bool:
    """Whether other seats may not read ``action``'s text (see :data:`SECRET_VERBS`)."""
    return action.verb in SECRET_VERBS


def fixed_deal(config: Mapping[str, Any]) -> list[str]:
    """The switches of ``config`` that fix the deal: ``firstPlayer`` sets who starts (the TP),
    which chance decides."""
    return registry.chosen_first(config, "firstPlayer")


def _heuristic(seed: int) -> Player:
    from kessen.games.maken.heuristic import HeuristicPlayer

    return HeuristicPlayer(seed)


def _describe(entry: Json, lang: str, viewer: int | None) -> str:
    from kessen.games.maken.logtext import describe

    return describe(entry, lang, viewer)


registry.register(
    registry.Ruleset(
        name="maken",
        version=__version__,
        new_game=new_game,
        from_json=MakenState.from_json,
        default_config=default_config(),
        data_hash=DATA_HASH,
        players={  # the search levels decide from their own view only (games/maken/worlds.py)
            "random": RandomPlayer,
            "heuristic": _heuristic,
            **player_factories("maken"),
        },
        describe=_describe,
        catalog=catalog,
        public_prompts=frozenset({"mulligan", "draw", "pay"}),
        secret_action=secret_action,
        fixed_deal=fixed_deal,
        departures=departures,
        rules_document=registry.packaged_rules(__name__),
        credits=icon_credits,
        glossary=packaged_glossary(__name__),
    )
)

__all__ = ["MakenState", "new_game"]

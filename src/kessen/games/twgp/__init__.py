"""TWGP トランプ版 (half battle): the second ruleset, registered with the kernel as ``twgp``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kessen.ai.levels import player_factories
from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.engine.glossary import packaged_glossary
from kessen.engine.players import Player, RandomPlayer
from kessen.games.twgp.build_book import TWGP_BUILDS
from kessen.games.twgp.cards import DATA_HASH
from kessen.games.twgp.catalog import catalog
from kessen.games.twgp.config import default_config, departures
from kessen.games.twgp.game import new_game
from kessen.games.twgp.state import TwgpState

__version__ = "0.2.0"
"""The TWGP rules version, recorded with every match (``Replay.version``). Raised whenever a
ruling changes how a recorded game plays back, so that ``kessen store check`` can name an older
record as recorded under an earlier rules version. 0.2.0: set-up once at the build phase's
start (twgp-trump.md §2.9 #27) and the owner's order of a discarded stack (§2.3)."""


def _heuristic(seed: int) -> Player:
    from kessen.games.twgp.heuristic import HeuristicPlayer

    return HeuristicPlayer(seed)


SECRET_VERBS = frozenset(
    {"vital", "aside", "hand", "stealth-drive", "recharge", "reload", "reload-bottom"}
)
"""Verbs whose card argument the other seat may not see: the secret build (vitals, cards set
aside, the starting hand), a face-down (stealth) summon, a hand card re-charged face down or
put on the pile's bottom (reloads)."""


def secret_action(action: Action) -> bool:
    """Whether other seats may not read ``action``'s text (see :data:`SECRET_VERBS`)."""
    return action.verb in SECRET_VERBS


def fixed_deal(config: Mapping[str, Any]) -> list[str]:
    """The switches of ``config`` that fix the deal: ``firstPlayer`` sets who starts, which
    chance decides; a fixed build's ``pile`` stacks that seat's pile in the listed order
    instead of shuffling it."""
    reasons = registry.chosen_first(config, "firstPlayer")
    builds = config.get("builds")
    if isinstance(builds, list):
        reasons += [
            f"builds[{seat}].pile: seat {seat}'s pile is stacked in the listed order, not shuffled"
            for seat, build in enumerate(builds)
            if isinstance(build, dict) and build.get("pile") is not None
        ]
    return reasons


def _describe(entry: Json, lang: str, viewer: int | None) -> str:
    from kessen.games.twgp.logtext import describe

    return describe(entry, lang, viewer)


registry.register(
    registry.Ruleset(
        name="twgp",
        version=__version__,
        new_game=new_game,
        from_json=TwgpState.from_json,
        default_config=default_config(),
        data_hash=DATA_HASH,
        players={  # the search levels decide from their own view only (games/twgp/worlds.py)
            "random": RandomPlayer,
            "heuristic": _heuristic,
            **player_factories("twgp"),
        },
        describe=_describe,
        catalog=catalog,
        secret_action=secret_action,
        rules_document=registry.packaged_rules(__name__),
        glossary=packaged_glossary(__name__),
        decks=TWGP_BUILDS,
        fixed_deal=fixed_deal,
        departures=departures,
    )
)

__all__ = ["TwgpState", "new_game"]

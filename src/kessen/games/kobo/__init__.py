"""Kōbō (攻防): the first ruleset, registered with the kernel under the name ``kobo``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.engine.glossary import packaged_glossary
from kessen.engine.players import Player, RandomPlayer
from kessen.games.kobo.card_versions import record_config
from kessen.games.kobo.catalog import catalog
from kessen.games.kobo.config import default_config, departures
from kessen.games.kobo.deck_book import KOBO_DECKS
from kessen.games.kobo.game import new_game
from kessen.games.kobo.schema import load_pool
from kessen.games.kobo.state import KoboState

__version__ = "0.2.0"
"""The Kōbō rules version, recorded with every match (``Replay.version``). Raised whenever a
ruling changes how a recorded game plays back, so that ``kessen store check`` can name an older
record as recorded under an earlier rules version. 0.2.0: each wipe-out check stands alone
(kobo-rules.md §6)."""


def _heuristic(seed: int) -> Player:
    from kessen.games.kobo.heuristic import HeuristicPlayer

    return HeuristicPlayer(seed)


def _tutorial(seed: int) -> Player:
    from kessen.games.kobo.tutorial import TutorialPlayer

    return TutorialPlayer(seed)


class _SearchLevel:
    """A search COM level (imported on first use, so the ruleset loads without the search)."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __call__(self, seed: int) -> Player:
        from kessen.ai.levels import make_player

        return make_player("kobo", self.key, seed)


SECRET_VERBS = frozenset({"take", "name", "surprise-set"})
"""Verbs whose argument is a card taken from, or named out of, a hidden deck or hand (a
surprise Set names the card it puts face down)."""


def secret_action(action: Action) -> bool:
    """Whether other seats may not read ``action``'s text: a card taken or named, or a card
    picked by name (a penalty pick from the hidden tactics hand); a blind pick by number is
    public."""
    if action.verb in SECRET_VERBS:
        return True
    return action.verb == "pick" and bool(action.args) and isinstance(action.args[0], str)


def fixed_deal(config: Mapping[str, Any]) -> list[str]:
    """The switches of ``config`` that fix the deal: ``shuffle: false`` deals both decks in
    their listed order; ``first_player`` sets who starts, which chance decides."""
    reasons = registry.chosen_first(config, "first_player")
    if config.get("shuffle", True) is not True:
        reasons.append("shuffle: the decks are dealt in their listed order, which their lists show")
    return reasons


def _describe(entry: Json, lang: str, viewer: int | None) -> str:
    from kessen.games.kobo.logtext import describe

    return describe(entry, lang, viewer)


def _credits() -> list[Json]:
    from kessen.games.kobo.icons import load_icons

    return [load_icons().credits()]


registry.register(
    registry.Ruleset(
        name="kobo",
        version=__version__,
        new_game=new_game,
        from_json=KoboState.from_json,
        default_config=default_config(),
        data_hash=load_pool().data_hash,
        players={  # weakest first, as measured (docs/com-levels.md)
            "random": RandomPlayer,
            "ismcts-easy": _SearchLevel("ismcts-easy"),
            "heuristic": _heuristic,
            "ismcts-normal": _SearchLevel("ismcts-normal"),
            "ismcts-strong": _SearchLevel("ismcts-strong"),
            "tutorial": _tutorial,  # the guided match's scripted COM (games/kobo/tutorial.py)
        },
        describe=_describe,
        catalog=catalog,
        public_prompts=frozenset(
            {"turn", "declare", "tie", "blind", "place", "set", "deploy", "deploy_target", "target"}
        ),
        secret_action=secret_action,
        rules_document=registry.packaged_rules(__name__),
        glossary=packaged_glossary(__name__),
        credits=_credits,
        record_config=record_config,
        fixed_deal=fixed_deal,
        departures=departures,
        decks=KOBO_DECKS,
    )
)

__all__ = ["KoboState", "new_game"]

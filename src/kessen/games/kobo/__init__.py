"""Kōbō (攻防): the first ruleset, registered with the kernel under the name ``kobo``."""

from kessen import __version__
from kessen.engine import registry
from kessen.games.kobo.config import default_config
from kessen.games.kobo.game import new_game
from kessen.games.kobo.schema import load_pool
from kessen.games.kobo.state import KoboState

registry.register(
    registry.Ruleset(
        name="kobo",
        version=__version__,
        new_game=new_game,
        from_json=KoboState.from_json,
        default_config=default_config(),
        data_hash=load_pool().data_hash,
    )
)

__all__ = ["KoboState", "new_game"]

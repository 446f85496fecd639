"""The public card and rule catalogue of Maken for clients: cards, decks, switches, characters."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from kessen.engine.contract import Json
from kessen.games.maken.cards import (
    CARD,
    CHARACTER_NAMES,
    DATA_HASH,
    DECKS,
    card_text,
    distance_text,
)
from kessen.games.maken.config import SWITCHES
from kessen.games.maken.rules import DA_OPTIONS, OPTION_JA, TA_OPTIONS


def catalog(lang: str, config: Mapping[str, Any] | None = None) -> Json:
    """Every card with its generated text in ``lang``, the starter decks, the §14 switches and
    the 図7/図8 options (the data never changes with ``config``).

    >>> catalog("en")["cards"]["SO01"]["distance"]
    '0'
    """
    return _catalog(lang)


@cache
def _catalog(lang: str) -> Json:
    cards = {
        c.id: {
            "card": c.id,
            "slug": c.slug,
            "name": c.name(lang),
            "character": c.character,
            "kind": c.kind,
            "data": dict(zip(("spd", "front", "back", "atk", "cost", "gain"), c.data, strict=True)),
            "distance": distance_text(c.front, c.back),
            "labels": list(c.labels),
            "tags": list(c.tags),
            "duration": c.duration,
            "text": card_text(c, lang),
        }
        for c in CARD.values()
    }
    switches = {
        s.key: {
            "key": s.key,
            "default": s.default,
            "alternatives": list(s.alternatives),
            "text": s.ja if lang == "ja" else s.en,
        }
        for s in SWITCHES
    }
    options = {
        name: {"copies": n, "name": OPTION_JA[name] if lang == "ja" else name}
        for n, table in ((2, DA_OPTIONS), (3, TA_OPTIONS))
        for name in table
    }
    return {
        "cards": cards,
        "decks": {k: d.model_dump() for k, d in DECKS.items()},
        "characters": {k: (ja if lang == "ja" else en) for k, (ja, en) in CHARACTER_NAMES.items()},
        "switches": switches,
        "options": options,
        "data_hash": DATA_HASH,
    }

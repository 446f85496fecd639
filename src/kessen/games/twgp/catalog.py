"""The public card and rule catalogue of TWGP for clients: the pack, the switches, the actions."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from kessen.engine.contract import Json
from kessen.games.twgp.cards import CARDS, DATA_HASH, JOKER_IDS, card_text
from kessen.games.twgp.config import SWITCHES


def catalog(lang: str, config: Mapping[str, Any] | None = None) -> Json:
    """Every card with its generated text in ``lang``, and every rule switch with its default
    (the pack never changes, so ``config`` changes nothing).

    >>> catalog("en")["cards"]["s3"]["text"]
    'Unit, base power 03. Can be charge-driven and can stealth.'
    """
    return _catalog(lang)


@cache
def _catalog(lang: str) -> Json:
    cards = {
        c.slug: {
            "slug": c.slug,
            "label": c.label,
            "name": c.name(lang),
            "suit": c.suit,
            "rank": c.rank,
            "kind": c.kind,
            "base": c.base,
            "seat": c.seat,
            "joker": c.id in JOKER_IDS,
            "text": card_text(c, lang),
        }
        for c in CARDS
    }
    switches = {
        s.key: {
            "key": s.key,
            "default": s.default,
            "alternative": s.alternative,
            "name": s.name(lang),
            "text": s.text(lang),
        }
        for s in SWITCHES
    }
    return {"cards": cards, "switches": switches, "decks": {}, "data_hash": DATA_HASH}

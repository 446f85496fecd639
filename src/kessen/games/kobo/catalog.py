"""The public card and deck catalogue of Kōbō for clients: names, kinds, Lv and generated text."""

from __future__ import annotations

from functools import cache

from kessen.engine.contract import Json
from kessen.games.kobo.decks import starter_decks
from kessen.games.kobo.icons import load_icons
from kessen.games.kobo.schema import load_pool
from kessen.games.kobo.text import card_text, kind_label


@cache
def catalog(lang: str) -> Json:
    """Every card (with its text in ``lang``), its pictogram, and every starter deck list.

    ``icons`` maps each icon name a card uses to its standalone SVG (drawn in currentColor).
    """
    pool = load_pool()
    icons = load_icons()
    cards = {
        c.slug: {
            "slug": c.slug,
            "name": c.name(lang),
            "kind": c.kind.value,
            "kind_label": kind_label(c.kind, lang),
            "lv": c.lv,
            "limited": c.limited,
            "chain_again": c.chain_again,
            "text": card_text(c, lang),
            "icon": c.icon,
        }
        for c in pool.cards.values()
    }
    decks = {
        d.slug: {
            "slug": d.slug,
            "name": d.name(lang),
            "style": d.style(lang),
            "main": [list(e) for e in d.main],
            "tactics": [list(e) for e in d.tactics],
        }
        for d in starter_decks().values()
    }
    used = sorted({c.icon for c in pool.cards.values() if c.icon})
    return {
        "cards": cards,
        "decks": decks,
        "icons": {name: icons.svg(name) for name in used},
        "data_hash": pool.data_hash,
    }

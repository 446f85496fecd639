"""The public card and deck catalogue of Kōbō for clients: names, kinds, Lv and generated text."""

from __future__ import annotations

from functools import cache

from kessen.engine.contract import Json
from kessen.games.kobo.decks import starter_decks
from kessen.games.kobo.schema import load_pool
from kessen.games.kobo.text import card_text, kind_label


@cache
def catalog(lang: str) -> Json:
    """Every card (with its text in ``lang``) and every starter deck list (public)."""
    pool = load_pool()
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
    return {"cards": cards, "decks": decks, "data_hash": pool.data_hash}

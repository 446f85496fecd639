"""The public card and deck catalogue of Kōbō for clients: names, kinds, Lv and generated text."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from kessen.engine.contract import Json
from kessen.games.kobo.card_sets import set_data
from kessen.games.kobo.card_versions import current_version, pool_for
from kessen.games.kobo.config import OPTIONS
from kessen.games.kobo.decks import Deck, option_decks, starter_decks
from kessen.games.kobo.icons import load_icons
from kessen.games.kobo.opening import SWITCHES as OPENING_SWITCHES
from kessen.games.kobo.schema import CardPool
from kessen.games.kobo.text import card_text, kind_label


def catalog(lang: str, config: Mapping[str, Any] | None = None) -> Json:
    """Every card (with its text in ``lang``), its pictogram, and every starter deck list.

    The cards are those of the card data ``config`` names (a record's, pinned by
    ``record_config``, or a designer's ``card_set``), the current data by default. ``icons``
    maps each icon name a card uses to its standalone SVG (drawn in currentColor); a card of
    earlier data that had no icon shows the icon its slug has now.
    """
    designed = (config or {}).get("card_set")
    if isinstance(designed, str) and designed:
        return _set_catalog(lang, designed)
    version = (config or {}).get("card_data", current_version())
    return _catalog(lang, version if isinstance(version, int) else current_version())


@lru_cache(maxsize=16)
def _set_catalog(lang: str, ref: str) -> Json:
    """The catalogue of a designer's card set: its cards and its starter decks."""
    found = set_data(ref)
    plain = {s: d for s, d in found.decks.items() if not d.requires}
    optional = {s: d for s, d in found.decks.items() if d.requires}
    out = _build(lang, found.pool, plain, optional)
    out["card_set"] = str(found.ref)
    return out


@cache
def _catalog(lang: str, version: int) -> Json:
    return _build(lang, pool_for(version), starter_decks(), option_decks())


def _build(
    lang: str, pool: CardPool, starters: Mapping[str, Deck], optional: Mapping[str, Deck]
) -> Json:
    current = pool_for(current_version())
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
            "icon": c.icon or (current.cards[c.slug].icon if c.slug in current else ""),
        }
        for c in pool.cards.values()
    }

    def deck_entry(d: Deck) -> Json:
        out: Json = {
            "slug": d.slug,
            "name": d.name(lang),
            "style": d.style(lang),
            "main": [list(e) for e in d.main],
            "tactics": [list(e) for e in d.tactics],
        }
        if d.requires:
            out["requires"] = list(d.requires)
        return out

    decks = {d.slug: deck_entry(d) for d in starters.values()}
    # Decks that need a match option are listed apart, so a start screen offers them only
    # with the option on (a config naming one without it is refused).
    option_deck_entries = {d.slug: deck_entry(d) for d in optional.values()}
    options = {
        name: {
            "name": name,
            "default": spec["default"],
            "label": spec[f"label_{lang}"],
            "help": spec[f"help_{lang}"],
        }
        for name, spec in OPTIONS.items()
    }
    used = sorted({str(card["icon"]) for card in cards.values() if card["icon"]})
    return {
        "cards": cards,
        "decks": decks,
        "option_decks": option_deck_entries,
        "options": options,
        # The opening switches for designers (advanced settings; the standard values first
        # marked as the seed's by the start screen).
        "opening": [s.to_json(lang) for s in OPENING_SWITCHES],
        "icons": {name: icons.svg(name) for name in used},
        "data_hash": pool.data_hash,
        "card_data": pool.version,
    }

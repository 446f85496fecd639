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


_STAT_WORDS = {
    "spd": ("速度", "speed"),
    "front": ("先間合", "front distance"),
    "atk": ("攻撃値", "attack"),
    "cost": ("ゲージ消費", "gauge cost"),
    "gain": ("ゲージ増加", "gauge gain"),
}


def option_effect(name: str, lang: str) -> str:
    """What a 図7/図8 option does, in ``lang`` (§8.2's table).

    >>> option_effect("dash", "ja"), option_effect("powerfulya", "en")
    ('速度+2、ダッシュコスト1', 'both extras stay face-down')
    """
    stat, change, dash = (DA_OPTIONS | TA_OPTIONS)[name]
    ja = lang == "ja"
    if stat is None:
        if name == "powerful":
            return "追加の1枚を裏向きで残す" if ja else "the extra copy stays face-down"
        return "追加の2枚を裏向きで残す" if ja else "both extras stay face-down"
    word = _STAT_WORDS[stat][0 if ja else 1]
    text = f"{word}{change:+d}" if ja else f"{word} {change:+d}"
    if dash:
        text += f"、ダッシュコスト{dash}" if ja else f", dash cost {dash}"
    return text


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
        name: {
            "copies": n,
            "name": OPTION_JA[name] if lang == "ja" else name,
            "effect": option_effect(name, lang),
        }
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

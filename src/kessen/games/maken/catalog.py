"""The public card and rule catalogue of Maken for clients: cards, decks, switches, characters.

Besides the rules' data it carries what the board and the start screen draw with: each
character's pictogram, style and short description (``data/character_cards.toml``) with its starter
deck's averages, and the pictograms of ``data/icons.json``: a subset of the game-icons set
(https://game-icons.net, CC BY 3.0) vendored the way Kōbō's is (see
``kessen.games.kobo.icons``, whose loader and ``vendor`` it reuses), its licence and each
icon's author inside. To change the subset, edit :data:`ICON_NAMES` and rerun ``vendor`` with
the npm package ``@iconify-json/game-icons``, the set repository's file list and its
``license.txt``, as that module's docstring shows.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from kessen.engine.contract import Json
from kessen.games.kobo.icons import IconSet, load_icons
from kessen.games.maken.card_sets import set_data
from kessen.games.maken.cards import (
    CHARACTER_NAMES,
    SHIPPED_POOL,
    Card,
    MakenPool,
    ability_text,
    card_text,
    distance_text,
    raw_text,
    tag_name,
)
from kessen.games.maken.config import SWITCHES
from kessen.games.maken.rules import DA_OPTIONS, TA_OPTIONS, option_name


def catalog(lang: str, config: Mapping[str, Any] | None = None) -> Json:
    """Every card with its generated text in ``lang``, the starter decks, the §14 switches and
    the 図7/図8 options: the shipped cards, or those of the designer's set ``config`` names
    (``card_set``).

    >>> catalog("en")["cards"]["SO01"]["distance"]
    '0'
    """
    designed = (config or {}).get("card_set")
    if isinstance(designed, str) and designed:
        found = set_data(designed)
        return {**_catalog(lang, found.pool), "card_set": str(found.ref)}
    return _catalog(lang, SHIPPED_POOL)


ICONS_PATH = Path(__file__).parent / "data" / "icons.json"
"""Maken's vendored pictograms, with the set's licence and each icon's author."""

ICON_NAMES = (
    # the card data and the counts of the board
    "sprint",  # 速度
    "horizontal-flip",  # 間合
    "crossed-swords",  # 攻撃値
    "battery-pack",  # ゲージ, a card's cost and gain
    "bleeding-wound",  # ダメージ
    "hearts",  # LP
    "lungs",  # スタミナ
    "poker-hand",  # 手札
    "card-discard",  # ダスト
    "shaking-hands",  # 助っ人
    "flying-flag",  # TP
    "on-target",  # a hit
    "rune-sword",  # a card's back
    # the situation (§7)
    "sword-clash",  # 拮抗
    "checked-shield",  # ガードしている
    "mailed-fist",  # ガードさせている
    "broken-shield",  # 無防備
    # support cards' duration
    "hourglass",  # ターン
    "anchor",  # 持続
    # the characters (character_cards.toml's icon)
    "katana",
    "high-kick",
    "scroll-unfurled",
    "wolf-head",
    "yin-yang",
)
"""The icons Maken uses (the board names them; character_cards.toml names the characters')."""


def maken_icons() -> IconSet:
    """The vendored icon subset (checked: no active SVG content)."""
    return load_icons(ICONS_PATH)


def icon_credits() -> list[Json]:
    """The licence and authors of Maken's pictograms, for the credits screen.

    >>> icon_credits()[0]["license"]["spdx"]
    'CC-BY-3.0'
    """
    return [maken_icons().credits()]


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


def _deck_style(code: str, pool: MakenPool = SHIPPED_POOL) -> Json:
    """The starter deck of ``code`` in numbers: its attack, support and helper cards and the
    mean speed, front distance and attack of its attack cards (one decimal)."""
    deck = pool.decks[code]
    counted = [(pool.card[cid], n) for cid, n in deck.cards.items()]
    attacks = [(c, n) for c, n in counted if c.kind == "attack"]
    n_attack = sum(n for _, n in attacks)

    def mean(values: list[tuple[int, int]]) -> float:
        return round(sum(v * n for v, n in values) / max(1, n_attack), 1)

    return {
        "cards": sum(n for _, n in counted),
        "attack": n_attack,
        "support": sum(n for c, n in counted if c.kind != "attack"),
        "helpers": sum(n for c, n in counted if c.character not in (code, "GE")),
        "spd": mean([(c.spd, n) for c, n in attacks]),
        "front": mean([(c.front, n) for c, n in attacks]),
        "atk": mean([(c.atk, n) for c, n in attacks]),
    }


@cache
def _character_data() -> dict[str, dict[str, Any]]:
    """Each character's names (characters.toml, part of the card data's hash) with how the
    picker shows it (character_cards.toml, presentation only: not hashed)."""
    names: dict[str, dict[str, Any]] = tomllib.loads(raw_text("characters.toml"))["character"]
    shown: dict[str, dict[str, Any]] = tomllib.loads(raw_text("character_cards.toml"))["character"]
    return {code: {**shown.get(code, {}), **entry} for code, entry in names.items()}


def character_info(lang: str, pool: MakenPool = SHIPPED_POOL) -> Json:
    """Each character for the picker and the board: name, pictogram, style, description, its
    signature card and (a character with a starter deck) that deck's style in numbers.

    >>> info = character_info("en")
    >>> info["RI"]["style"], info["RI"]["deck"]["spd"] > info["GA"]["deck"]["spd"]
    ('Speed', True)
    """
    suffix = "ja" if lang == "ja" else "en"
    names = maken_icons().names
    out: dict[str, Json] = {}
    for code, raw in _character_data().items():
        icon = str(raw.get("icon", ""))
        signature = str(raw.get("signature", ""))
        out[code] = {
            "code": code,
            "name": CHARACTER_NAMES[code][0 if lang == "ja" else 1],
            "icon": icon if icon in names else "",
            "style": str(raw.get(f"style_{suffix}", "")),
            "about": str(raw.get(f"about_{suffix}", "")),
            "signature": signature if signature in pool.card else "",
            "signature_name": pool.card[signature].name(lang) if signature in pool.card else "",
            "deck": _deck_style(code, pool) if code in pool.decks else None,
        }
    return out


def _effect_text(card: Card, lang: str) -> str:
    """A card's abilities in words (its text without the data line and labels): what the
    card face prints under its numbers."""
    return ("　" if lang == "ja" else " ").join(ability_text(a, lang) for a in card.abilities)


@cache
def _catalog(lang: str, pool: MakenPool) -> Json:
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
            "tags": [tag_name(t, lang) for t in c.tags],
            "duration": c.duration,
            "text": card_text(c, lang),
            "effect": _effect_text(c, lang),
        }
        for c in pool.card.values()
    }
    switches = {
        s.key: {
            "key": s.key,
            "default": s.default,
            "alternatives": list(s.alternatives),
            "name": s.name(lang),
            "text": s.text(lang),
            "value_names": s.value_names(lang),
        }
        for s in SWITCHES
    }
    icons = maken_icons()
    options = {
        name: {
            "copies": n,
            "name": option_name(name, lang),
            "effect": option_effect(name, lang),
        }
        for n, table in ((2, DA_OPTIONS), (3, TA_OPTIONS))
        for name in table
    }
    return {
        "cards": cards,
        "decks": {k: d.model_dump() for k, d in pool.decks.items()},
        "characters": {k: (ja if lang == "ja" else en) for k, (ja, en) in CHARACTER_NAMES.items()},
        "character_info": character_info(lang, pool),
        "icons": {name: icons.svg(name) for name in ICON_NAMES if name in icons.names},
        "switches": switches,
        "options": options,
        "data_hash": pool.data_hash,
    }

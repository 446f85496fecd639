"""The TWGP playing-card pack as data: 52 cards and two jokers, with generated names and text.

Card ids are fixed for every game: ``suit * 13 + rank - 1`` for the pack (suits in the order
♠ ♣ ♥ ♦ of ``data/pack.toml``) and 52, 53 for the black and the red joker. Seat 0 owns ♠♣ and
the black joker, seat 1 ♥♦ and the red joker (twgp-trump.md §2.1).

>>> by_slug("s3").base, by_slug("hq").kind
(3, 'weapon')
>>> by_slug("dk").name("en")
'King of Diamonds'
>>> card_text(by_slug("sa"), "en")
'Unit, base power 01. Can be charge-driven and can stealth.'
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
UNIT = "unit"
WEAPON = "weapon"
JOKER_IDS = (52, 53)
CHARGE_DRIVE_MAX = 3
"""Units of base power up to 03 can be charge-driven and can stealth."""
SURGE_MIN = 6
"""Units of base power 06 or more may pay surge for a surge-direct."""


@dataclass(frozen=True, slots=True)
class CardDef:
    """One printed card: its slug, suit, rank number, kind and base power (``None``: weapon)."""

    id: int
    slug: str
    suit: str
    rank: int
    kind: str
    base: int | None
    label: str
    name_ja: str
    name_en: str
    seat: int

    @property
    def is_unit(self) -> bool:
        """True for units (A–10 and the jokers)."""
        return self.kind == UNIT

    def name(self, lang: str) -> str:
        """The card's name in ``lang`` (``ja`` or ``en``)."""
        return self.name_ja if lang == "ja" else self.name_en


def _load() -> tuple[tuple[CardDef, ...], str]:
    raw = (DATA / "pack.toml").read_bytes()
    data: dict[str, Any] = tomllib.loads(raw.decode())
    cards: list[CardDef] = []
    for suit_index, suit in enumerate(data["suit"]):
        for rank in data["rank"]:
            cid = suit_index * 13 + rank["rank"] - 1
            label = suit["symbol"] + rank["label"]
            cards.append(
                CardDef(
                    id=cid,
                    slug=suit["key"] + rank["key"],
                    suit=suit["key"],
                    rank=rank["rank"],
                    kind=rank["kind"],
                    base=rank.get("base"),
                    label=label,
                    name_ja=f"{suit['name_ja']}の{rank['label']}",
                    name_en=f"{rank['name_en']} of {suit['name_en']}",
                    seat=suit["seat"],
                )
            )
    for offset, joker in enumerate(data["joker"]):
        cards.append(
            CardDef(
                id=52 + offset,
                slug=joker["slug"],
                suit="",
                rank=joker["rank"],
                kind=UNIT,
                base=joker["base"],
                label=joker["label"],
                name_ja=joker["name_ja"],
                name_en=joker["name_en"],
                seat=joker["seat"],
            )
        )
    cards.sort(key=lambda c: c.id)
    if [c.id for c in cards] != list(range(54)):
        raise ValueError("pack.toml must describe 4 suits of 13 ranks and 2 jokers")
    return tuple(cards), hashlib.blake2b(raw, digest_size=8).hexdigest()


_CARDS, DATA_HASH = _load()
CARDS: tuple[CardDef, ...] = _CARDS
"""Every card by id."""
_BY_SLUG = {c.slug: c for c in CARDS}
UNIT_BASE: tuple[int | None, ...] = tuple((c.base or 0) if c.is_unit else None for c in CARDS)
"""Each card's base power by id if it is a unit, ``None`` for a weapon (for the hot loops that
list legal actions)."""


def card(cid: int) -> CardDef:
    """The card with id ``cid``."""
    return CARDS[cid]


def by_slug(slug: str) -> CardDef:
    """The card called ``slug``; raises ``KeyError`` naming it if there is none."""
    try:
        return _BY_SLUG[slug]
    except KeyError:
        raise KeyError(f"no card {slug!r} in the pack") from None


def is_slug(slug: object) -> bool:
    """True if ``slug`` names a card of the pack."""
    return isinstance(slug, str) and slug in _BY_SLUG


@cache
def pool(seat: int, jokers: bool) -> tuple[int, ...]:
    """The ids of ``seat``'s pool: its two suits (26 cards), plus its joker if ``jokers``."""
    ids = [c.id for c in CARDS if c.seat == seat and (jokers or c.id not in JOKER_IDS)]
    return tuple(ids)


def base_of(cid: int) -> int:
    """The base power of a unit card (0 for a weapon, which has none)."""
    base = CARDS[cid].base
    return base if base is not None else 0


def card_text(cdef: CardDef, lang: str) -> str:
    """The card's rules text in ``lang``, generated from its kind and base power."""
    ja = lang == "ja"
    if not cdef.is_unit:
        if ja:
            return "ウェポン。敷いたユニットの算定パワー＋1（基本パワー00のユニットには敷けない）。"
        return "Weapon. +1 computed power to the unit it lies under (not on a base-00 unit)."
    base = cdef.base or 0
    if ja:
        parts = [f"ユニット。基本パワー{base:02d}。"]
        if base <= CHARGE_DRIVE_MAX:
            parts.append("チャージ召喚と潜伏ができる。")
        else:
            parts.append("パワー召喚かカウンター召喚でのみ場に出る。")
        if base >= SURGE_MIN:
            parts.append("サージ・ダイレクトを行える。")
        if base == 0:
            parts.append(
                "00制限：アサルトは必ず引き分け。ウェポン、チャージ・ブースト、Gブラスト、"
                "ダイレクトはできない。"
            )
        return "".join(parts)
    parts = [f"Unit, base power {base:02d}."]
    if base <= CHARGE_DRIVE_MAX:
        parts.append("Can be charge-driven and can stealth.")
    else:
        parts.append("Enters only by power drive or counter drive.")
    if base >= SURGE_MIN:
        parts.append("May pay surge for a surge-direct.")
    if base == 0:
        parts.append(
            "00 restriction: its assaults always tie; no weapons, charge boost, G-blast or direct."
        )
    return " ".join(parts)

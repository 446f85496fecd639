"""Power conversion from other TCGs (twgp-trump.md §1.9): the seed's table as data and functions.

A TWGP power is 00-99. Each source game has a rule over one or more printed fields, kept in
``data/power.toml`` with the seed's examples:

>>> convert("pokemon", [120])
12
>>> convert("dragon-quest", [481])
4
>>> convert("live-on", [2, 1])
3
>>> convert("yugioh", [4, 1800, 0])
0
>>> label(convert("weiss-schwarz", [2500]))
'02'
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data" / "power.toml"
MAX_POWER = 99
RULES = ("digits", "value", "count", "stars")


class PowerError(ValueError):
    """A game or a field value the table cannot convert; the message says why."""


@dataclass(frozen=True, slots=True)
class SourceGame:
    """One row of the table: the game, its fields, its rule and the seed's examples."""

    slug: str
    aliases: tuple[str, ...]
    name_ja: str
    name_en: str
    fields: tuple[str, ...]
    rule: str
    unit: int
    examples: tuple[tuple[tuple[int, ...], int], ...]

    def name(self, lang: str) -> str:
        """The game's name in ``lang``."""
        return self.name_ja if lang == "ja" else self.name_en


def _game(raw: dict[str, Any]) -> SourceGame:
    rule = raw["rule"]
    if rule not in RULES:
        raise ValueError(f"power.toml: unknown rule {rule!r} for {raw['slug']}")
    return SourceGame(
        slug=raw["slug"],
        aliases=tuple(raw.get("aliases", ())),
        name_ja=raw["name_ja"],
        name_en=raw["name_en"],
        fields=tuple(raw["fields"]),
        rule=rule,
        unit=int(raw.get("unit", 1)),
        examples=tuple((tuple(e["fields"]), int(e["power"])) for e in raw.get("examples", ())),
    )


@cache
def games() -> dict[str, SourceGame]:
    """Every source game of the table by slug (in table order)."""
    data = tomllib.loads(DATA.read_text(encoding="utf-8"))
    return {g.slug: g for g in (_game(raw) for raw in data["game"])}


def find(name: str) -> SourceGame:
    """The game called ``name`` (slug or alias, any case); :class:`PowerError` if unknown."""
    key = name.strip().lower()
    for game in games().values():
        if key == game.slug or key in game.aliases:
            return game
    known = ", ".join(games())
    raise PowerError(f"unknown game {name!r}; known: {known}")


def convert(name: str, values: Sequence[int]) -> int:
    """The TWGP power (0-99) of a card of game ``name`` with the printed ``values``.

    Values above what two digits hold are capped at 99, the top of the power scale.
    """
    game = find(name)
    if not values:
        raise PowerError(f"{game.slug}: give {', '.join(game.fields)}")
    if any(v < 0 for v in values):
        raise PowerError(f"{game.slug}: printed values cannot be negative")
    if game.rule == "count":
        return min(sum(values), MAX_POWER)
    if game.rule == "stars":
        if len(values) != 3:
            raise PowerError(f"{game.slug}: give the stars, ATK and DEF")
        stars, atk, dfn = values
        return 0 if atk == 0 or dfn == 0 else min(stars, MAX_POWER)
    if len(values) != 1:
        raise PowerError(f"{game.slug}: give one value ({game.fields[0]})")
    value = values[0] // game.unit if game.rule == "digits" else values[0]
    return min(value, MAX_POWER)


def label(power: int) -> str:
    """A power written as the seed writes it, with two digits (``02``)."""
    return f"{power:02d}"

"""Kōbō decks as data: the deck record, its TOML/JSON forms, the §2 deck rules, starter decks.

A deck file names the deck and lists its two decks as ``slug = count`` tables, in order::

    slug = "vanguard"
    name_ja = "先鋒突撃"
    name_en = "Vanguard Assault"
    style_ja = "高Lvのキャラを強化し、正面から押し切る。"
    style_en = "Buff high-Lv characters and break through head-on."

    [main]
    oni-warlord = 2
    ...

    [tactics]
    power-surge = 2
    ...

Loading checks the shape and that every slug exists; :func:`validate_deck` checks the deck rules
(sizes, kinds, copies) and reports every violation at once.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from kessen.games.kobo.deck_rules import (
    MAIN_DECK_SIZE,
    close_slugs,
    deck_problems,
)
from kessen.games.kobo.schema import (
    DATA_DIR,
    SLUG_RE,
    CardDataError,
    CardPool,
    format_path,
    load_pool,
    parse_toml,
    raise_if_any,
    validation_lines,
)

DECKS_DIR = DATA_DIR / "decks"
"""Where the starter decks live, one ``<slug>.toml`` each."""
OPTION_DECKS_DIR = DECKS_DIR / "options"
"""Where the starter decks that need a match option live (each names it in ``requires``)."""
MAX_ENTRY_COPIES = MAIN_DECK_SIZE
"""Hard cap on one entry's count, checked with the shape (before any deck is expanded) and so
even when the deck rules are not: no deck, legal or not, holds more copies of one card than a
whole main deck."""
MAX_ENTRIES = 64
"""Hard cap on the entries of one section (``main`` or ``tactics``), checked with the shape."""


Entries = tuple[tuple[str, int], ...]
"""A deck list: (slug, copies) pairs in file order."""


@dataclass(frozen=True)
class Deck:
    """A player's deck pair: the 20-card main deck and the 15-card tactics deck.

    >>> d = Deck("t", "試", "Test", "", "", main=(("a", 2), ("b", 1)), tactics=(("c", 1),))
    >>> d.main_slugs()
    ['a', 'a', 'b']
    """

    slug: str
    name_ja: str
    name_en: str
    style_ja: str
    style_en: str
    main: Entries
    tactics: Entries
    #: Match options the deck needs (e.g. ``("surprise",)``): offered only when they are on.
    requires: tuple[str, ...] = ()

    def main_slugs(self) -> list[str]:
        """The main deck card by card (each slug repeated by its count), in file order."""
        return _expand(self.main)

    def tactics_slugs(self) -> list[str]:
        """The tactics deck card by card, in file order."""
        return _expand(self.tactics)

    def name(self, lang: str) -> str:
        """The deck's name in ``lang`` ("ja" or "en")."""
        return self.name_ja if lang == "ja" else self.name_en

    def style(self, lang: str) -> str:
        """The one-line style description in ``lang`` ("ja" or "en")."""
        return self.style_ja if lang == "ja" else self.style_en


@functools.lru_cache(maxsize=512)
def deck_cards(deck: Deck) -> tuple[str, ...]:
    """The deck card by card, main deck then tactics, each in file order (remembered: every
    new game lays out its two decks, most often the same starters)."""
    return (*_expand(deck.main), *_expand(deck.tactics))


def _expand(entries: Entries) -> list[str]:
    """``(("a", 2),)`` → ``["a", "a"]``."""
    return [slug for slug, count in entries for _ in range(max(count, 0))]


# --------------------------------------------------------------------------------------------
# Shape (TOML file or JSON object)
# --------------------------------------------------------------------------------------------

_Text = Annotated[StrictStr, Field(min_length=1)]
_Count = Annotated[StrictInt, Field(ge=1, le=MAX_ENTRY_COPIES)]


class DeckModel(BaseModel):
    """The shape of a deck file or deck JSON object."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    slug: Annotated[StrictStr, Field(pattern=rf"^{SLUG_RE.pattern}$")]
    name_ja: _Text
    name_en: _Text
    style_ja: _Text
    style_en: _Text
    main: Annotated[dict[StrictStr, _Count], Field(max_length=MAX_ENTRIES)]
    tactics: Annotated[dict[StrictStr, _Count], Field(max_length=MAX_ENTRIES)]
    requires: tuple[Literal["surprise"], ...] = ()

    def to_deck(self) -> Deck:
        """The deck record (entries keep their file order)."""
        return Deck(
            slug=self.slug,
            name_ja=self.name_ja,
            name_en=self.name_en,
            style_ja=self.style_ja,
            style_en=self.style_en,
            main=tuple(self.main.items()),
            tactics=tuple(self.tactics.items()),
            requires=tuple(self.requires),
        )


def _shape(raw: Mapping[str, Any], source: str, pool: CardPool | None) -> Deck:
    """Validate a raw deck mapping; with a pool, also refuse unknown slugs. All errors at once."""
    lines: list[str] = []
    deck: Deck | None = None
    try:
        deck = DeckModel.model_validate(raw).to_deck()
    except ValidationError as err:
        lines += validation_lines(source, err, format_path)
    if pool is not None:
        lines += _unknown_slug_lines(raw, source, pool)
    raise_if_any(lines)
    assert deck is not None
    return deck


def _unknown_slug_lines(raw: Mapping[str, Any], source: str, pool: CardPool) -> list[str]:
    """One line per slug of ``main``/``tactics`` that the pool does not hold."""
    lines: list[str] = []
    for section in ("main", "tactics"):
        entries = raw.get(section)
        if not isinstance(entries, Mapping):
            continue
        for slug in entries:
            if slug not in pool:
                path = format_path((section, str(slug)))
                lines.append(f"{source}: {path}: unknown card slug {slug!r}{_hint(slug, pool)}")
    return lines


def _hint(slug: object, pool: CardPool) -> str:
    """``; did you mean ...?`` for a near miss, else nothing."""
    close = close_slugs(slug, pool)
    return f"; did you mean {' or '.join(close)}?" if close else ""


def parse_deck(data: bytes, source: str, pool: CardPool) -> Deck:
    """A deck from TOML bytes (a deck file's content); errors name ``source``, field and line."""
    return _shape(parse_toml(data, source), source, pool)


def deck_to_toml(deck: Deck) -> str:
    """The deck as a deck file (the format of ``data/decks/*.toml``), entries in their order.

    >>> print(deck_to_toml(starter_decks()["swarm"]).splitlines()[1])
    name_ja = "百鬼夜行"
    """

    def text(value: str) -> str:
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string

    lines = [f"slug = {text(deck.slug)}"]
    for key in ("name_ja", "name_en", "style_ja", "style_en"):
        lines.append(f"{key} = {text(getattr(deck, key))}")
    if deck.requires:
        lines.append(f"requires = [{', '.join(text(r) for r in deck.requires)}]")
    for section, entries in (("main", deck.main), ("tactics", deck.tactics)):
        lines += ["", f"[{section}]"]
        lines += [f"{slug} = {count}" for slug, count in _merged(entries).items()]
    return "\n".join(lines) + "\n"


def load_deck(path: Path, pool: CardPool) -> Deck:
    """Load a deck TOML file; :class:`CardDataError` names the file, field and reason.

    Checks the shape and that every slug is in ``pool``; the deck rules are
    :func:`validate_deck`'s job.
    """
    source = str(path)
    return _shape(parse_toml(path.read_bytes(), source), source, pool)


def deck_to_json(deck: Deck) -> dict[str, Any]:
    """The deck as a JSON-ready object (the deck file's shape), e.g. to embed in a game config.

    ``requires`` is written only when the deck has one (every older record keeps its hash).
    """
    out: dict[str, Any] = {
        "slug": deck.slug,
        "name_ja": deck.name_ja,
        "name_en": deck.name_en,
        "style_ja": deck.style_ja,
        "style_en": deck.style_en,
        "main": _merged(deck.main),
        "tactics": _merged(deck.tactics),
    }
    if deck.requires:
        out["requires"] = list(deck.requires)
    return out


def _merged(entries: Entries) -> dict[str, int]:
    """Entries as ``{slug: count}``, adding up repeated slugs."""
    out: dict[str, int] = {}
    for slug, count in entries:
        out[slug] = out.get(slug, 0) + count
    return out


def deck_from_json(data: Mapping[str, Any], source: str = "deck JSON") -> Deck:
    """Rebuild a deck from :func:`deck_to_json`'s form; shape errors raise CardDataError.

    Unknown slugs and deck rules are left to :func:`validate_deck`.
    """
    if not isinstance(data, Mapping):
        raise CardDataError(f"{source}: expected an object, got {type(data).__name__}")
    return _shape(data, source, None)


# --------------------------------------------------------------------------------------------
# The deck rules (kobo-rules.md §2)
# --------------------------------------------------------------------------------------------


def validate_deck(deck: Deck, pool: CardPool) -> list[str]:
    """Every deck rule ``deck`` breaks, one English message each; empty if the deck is legal
    (:func:`~kessen.games.kobo.deck_rules.deck_problems` gives them as structured problems).

    >>> validate_deck(starter_decks()["vanguard"], load_pool())
    []
    """
    return list(_deck_messages(deck, pool))


@functools.lru_cache(maxsize=512)
def _deck_messages(deck: Deck, pool: CardPool) -> tuple[str, ...]:
    """:func:`validate_deck`'s messages, remembered: every new game checks its two decks, most
    often the same starters against the same pool (both are immutable and hashable)."""
    return tuple(problem.text("en") for problem in deck_problems(deck.main, deck.tactics, pool))


# --------------------------------------------------------------------------------------------
# Starter decks
# --------------------------------------------------------------------------------------------


def starter_decks(
    pool: CardPool | None = None, options: frozenset[str] | set[str] = frozenset()
) -> dict[str, Deck]:
    """The shipped starter decks by slug (sorted), loaded against ``pool`` (default: shipped).

    A deck whose file says ``requires = [...]`` is included only when every option it names is
    in ``options``: without options the four original decks are exactly what everyone gets (the
    simulator's default deck list, the balance matrix, the tournaments).

    >>> sorted(starter_decks())[:2]
    ['fortress', 'swarm']
    >>> "ambush" in starter_decks(), "ambush" in starter_decks(options={"surprise"})
    (False, True)
    """
    decks = _default_starters() if pool is None else _load_starters(pool)
    return {slug: d for slug, d in decks.items() if set(d.requires) <= set(options)}


def starter_folder(folder: Path, pool: CardPool) -> dict[str, Deck]:
    """The starter decks kept in ``folder`` (an earlier card data version's), over ``pool``."""
    decks: dict[str, Deck] = {}
    lines: list[str] = []
    for path in sorted(folder.glob("*.toml")):
        try:
            decks[path.stem] = load_deck(path, pool)
        except CardDataError as err:
            lines.append(str(err))
    raise_if_any(lines)
    return decks


def option_decks() -> dict[str, Deck]:
    """The shipped starter decks that need a match option, by slug."""
    return {slug: d for slug, d in _default_starters().items() if d.requires}


@functools.cache
def _default_starters() -> dict[str, Deck]:
    """Starter decks over the shipped pool, loaded once per process."""
    return _load_starters(load_pool())


def _load_starters(pool: CardPool) -> dict[str, Deck]:
    """Load every ``data/decks/*.toml`` and, over the shipped pool, ``data/decks/options/*.toml``
    (the decks that need a match option); the file stem must equal the deck slug."""
    decks: dict[str, Deck] = {}
    lines: list[str] = []
    optional = sorted(OPTION_DECKS_DIR.glob("*.toml")) if pool is load_pool() else []
    for path in sorted(DECKS_DIR.glob("*.toml")) + optional:
        try:
            deck = load_deck(path, pool)
        except CardDataError as err:
            lines.append(str(err))
            continue
        if deck.slug != path.stem:
            lines.append(f"{path}: slug: {deck.slug!r} must match the file name {path.stem!r}")
        if bool(deck.requires) != (path.parent == OPTION_DECKS_DIR):
            lines.append(
                f"{path}: requires: a deck needs match options exactly when it lies in "
                f"{OPTION_DECKS_DIR.name}/"
            )
        decks[deck.slug] = deck
    raise_if_any(lines)
    return dict(sorted(decks.items()))

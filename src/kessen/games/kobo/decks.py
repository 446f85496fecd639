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

import difflib
import functools
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from kessen.games.kobo.cards import CardDef, CardKind
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
MAIN_DECK_SIZE = 20
MIN_CHARACTERS = 8
TACTICS_DECK_SIZE = 15
MAX_COPIES = 2
MAX_LIMITED_COPIES = 1
MAX_ENTRY_COPIES = MAIN_DECK_SIZE
"""Hard cap on one entry's count, checked with the shape (before any deck is expanded) and so
even when the deck rules are not: no deck, legal or not, holds more copies of one card than a
whole main deck."""
MAX_ENTRIES = 64
"""Hard cap on the entries of one section (``main`` or ``tactics``), checked with the shape."""

_MAIN_KINDS = frozenset({CardKind.CHARACTER, CardKind.DEPLOY, CardKind.TRAP})
_TACTICS_KINDS = frozenset({CardKind.TACTIC})
_KIND_WORD = {
    CardKind.CHARACTER: "a character",
    CardKind.DEPLOY: "a deploy card",
    CardKind.TRAP: "a trap",
    CardKind.TACTIC: "a tactic",
}

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


def _expand(entries: Entries) -> list[str]:
    """``(("a", 2),)`` → ``["a", "a"]``."""
    return [slug for slug, count in entries for _ in range(max(count, 0))]


# --------------------------------------------------------------------------------------------
# Shape (TOML file or JSON object)
# --------------------------------------------------------------------------------------------

_Text = Annotated[StrictStr, Field(min_length=1)]
_Count = Annotated[StrictInt, Field(ge=1, le=MAX_ENTRY_COPIES)]


class _DeckModel(BaseModel):
    """The shape of a deck file or deck JSON object."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    slug: Annotated[StrictStr, Field(pattern=rf"^{SLUG_RE.pattern}$")]
    name_ja: _Text
    name_en: _Text
    style_ja: _Text
    style_en: _Text
    main: Annotated[dict[StrictStr, _Count], Field(max_length=MAX_ENTRIES)]
    tactics: Annotated[dict[StrictStr, _Count], Field(max_length=MAX_ENTRIES)]

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
        )


def _shape(raw: Mapping[str, Any], source: str, pool: CardPool | None) -> Deck:
    """Validate a raw deck mapping; with a pool, also refuse unknown slugs. All errors at once."""
    lines: list[str] = []
    deck: Deck | None = None
    try:
        deck = _DeckModel.model_validate(raw).to_deck()
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
    close = difflib.get_close_matches(str(slug), list(pool.cards), n=2)
    return f"; did you mean {' or '.join(close)}?" if close else ""


def load_deck(path: Path, pool: CardPool) -> Deck:
    """Load a deck TOML file; :class:`CardDataError` names the file, field and reason.

    Checks the shape and that every slug is in ``pool``; the deck rules are
    :func:`validate_deck`'s job.
    """
    source = str(path)
    return _shape(parse_toml(path.read_bytes(), source), source, pool)


def deck_to_json(deck: Deck) -> dict[str, Any]:
    """The deck as a JSON-ready object (the deck file's shape), e.g. to embed in a game config."""
    return {
        "slug": deck.slug,
        "name_ja": deck.name_ja,
        "name_en": deck.name_en,
        "style_ja": deck.style_ja,
        "style_en": deck.style_en,
        "main": _merged(deck.main),
        "tactics": _merged(deck.tactics),
    }


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
    """Every deck rule ``deck`` breaks, one English message each; empty if the deck is legal.

    >>> validate_deck(starter_decks()["vanguard"], load_pool())
    []
    """
    main = _counts(deck.main)
    tactics = _counts(deck.tactics)
    problems = _size_problem("main deck", main, MAIN_DECK_SIZE)
    characters = sum(n for slug, n in main.items() if slug in pool and pool.get(slug).is_character)
    if characters < MIN_CHARACTERS:
        problems.append(
            f"main deck has {characters} character{_s(characters)}; "
            f"it needs at least {MIN_CHARACTERS}"
        )
    problems += _card_problems("main deck", main, pool, _MAIN_KINDS)
    problems += _size_problem("tactics deck", tactics, TACTICS_DECK_SIZE)
    problems += _card_problems("tactics deck", tactics, pool, _TACTICS_KINDS)
    return problems


def _counts(entries: Iterable[tuple[str, int]]) -> dict[str, int]:
    """Total copies per slug (a slug may be listed twice in a hand-built deck)."""
    counts: Counter[str] = Counter()
    for slug, count in entries:
        counts[slug] += count
    return dict(counts)


def _size_problem(label: str, counts: Mapping[str, int], size: int) -> list[str]:
    """The deck must hold exactly ``size`` cards."""
    total = sum(counts.values())
    if total == size:
        return []
    return [f"{label} has {total} card{_s(total)}; it must hold exactly {size}"]


def _card_problems(
    label: str, counts: Mapping[str, int], pool: CardPool, kinds: frozenset[CardKind]
) -> list[str]:
    """Per card: known, of an allowed kind, a positive count within the copy limits."""
    problems: list[str] = []
    for slug, count in counts.items():
        if slug not in pool:
            problems.append(f"{label}: unknown card {slug!r}{_hint(slug, pool)}")
            continue
        card = pool.get(slug)
        if card.kind not in kinds:
            problems.append(f"{label}: {_show(card)} is {_KIND_WORD[card.kind]}; {_allowed(label)}")
        if count < 1:
            problems.append(f"{label}: {_show(card)} has count {count}; counts must be at least 1")
        elif card.limited and count > MAX_LIMITED_COPIES:
            problems.append(
                f"{label}: {count} copies of {_show(card)}, which is limited; "
                f"at most {MAX_LIMITED_COPIES} per deck"
            )
        elif count > MAX_COPIES:
            problems.append(
                f"{label}: {count} copies of {_show(card)}; at most {MAX_COPIES} per deck"
            )
    return problems


def _allowed(label: str) -> str:
    """What a deck section may hold."""
    if label == "main deck":
        return "the main deck holds only characters, deploy cards and traps"
    return "the tactics deck holds only tactics"


def _show(card: CardDef) -> str:
    """``'rally-banner' (Rally Banner / 鼓舞の旗)``."""
    return f"{card.slug!r} ({card.name_en} / {card.name_ja})"


def _s(n: int) -> str:
    """Plural suffix."""
    return "" if n == 1 else "s"


# --------------------------------------------------------------------------------------------
# Starter decks
# --------------------------------------------------------------------------------------------


def starter_decks(pool: CardPool | None = None) -> dict[str, Deck]:
    """The shipped starter decks by slug (sorted), loaded against ``pool`` (default: shipped).

    >>> sorted(starter_decks())[:2]
    ['fortress', 'swarm']
    """
    if pool is None:
        return dict(_default_starters())
    return _load_starters(pool)


@functools.cache
def _default_starters() -> dict[str, Deck]:
    """Starter decks over the shipped pool, loaded once per process."""
    return _load_starters(load_pool())


def _load_starters(pool: CardPool) -> dict[str, Deck]:
    """Load every ``data/decks/*.toml``; the file stem must equal the deck slug."""
    decks: dict[str, Deck] = {}
    lines: list[str] = []
    for path in sorted(DECKS_DIR.glob("*.toml")):
        try:
            deck = load_deck(path, pool)
        except CardDataError as err:
            lines.append(str(err))
            continue
        if deck.slug != path.stem:
            lines.append(f"{path}: slug: {deck.slug!r} must match the file name {path.stem!r}")
        decks[deck.slug] = deck
    raise_if_any(lines)
    return dict(sorted(decks.items()))

"""Kōbō's card sets: a designer's cards and starter decks, checked by Kōbō's own rules.

A set's TOML is the shape of the shipped files in one document: the ``version`` and the
``[[card]]`` tables of ``data/cards.toml``, then one ``[[deck]]`` table per starter deck with
the fields of a ``data/decks/*.toml`` file (its ``[deck.main]`` and ``[deck.tactics]`` lists)::

    version = 3

    [[card]]
    slug = "ashigaru-recruit"
    kind = "character"
    ...

    [[deck]]
    slug = "fortress"
    name_ja = "鉄壁の籠城"
    ...

    [deck.main]
    iron-castellan = 2

Its JSON form (the design API's) is ``{"version": 3, "cards": [...], "decks": [...]}``, every
card and deck an object with the same fields; a ``null`` field counts as left out. The checks
are the shipped pool's (:mod:`kessen.games.kobo.schema`) and the deck rules
(:mod:`kessen.games.kobo.deck_rules`), each problem by field: ``cards[12].lv``,
``decks[0].main.oni-warlord``.

A config plays a set with ``{"card_set": "NAME@HASH", "decks": [...]}`` (instead of
``card_data``): :func:`set_data` gives the set's pool and starter decks. The rule-based COM
and the search read card definitions by slug; :func:`activate` points them at the pool of the
match they decide for (a view names its set), :func:`active_pool` is what they read.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from pydantic import ValidationError

from kessen.engine.card_sets import (
    CardSetError,
    FieldProblem,
    Said,
    SetProblems,
    SetRef,
    parse_ref,
    problem,
    pydantic_problems,
    require_text,
)
from kessen.engine.contract import Json
from kessen.engine.set_data import read_toml, set_shape, toml_key, toml_pairs
from kessen.games.kobo.deck_rules import deck_problems
from kessen.games.kobo.decks import DECKS_DIR, OPTION_DECKS_DIR, Deck, DeckModel
from kessen.games.kobo.schema import (
    CARDS_PATH,
    DATA_DIR,
    CardPool,
    card_def_of,
    card_field_problems,
    load_pool,
)

RULESET: Final = "kobo"
CARD_FIELDS: Final = (
    "slug",
    "kind",
    "name_ja",
    "name_en",
    "icon",
    "lv",
    "limited",
    "chain_again",
    "when",
    "target",
    "steps",
    "surprise",
)
"""A card's fields in the order the shipped file writes them."""
DECK_FIELDS: Final = ("slug", "name_ja", "name_en", "style_ja", "style_en", "requires")
"""A starter deck's fields (before its two lists), in the order a deck file writes them."""
MAX_CARDS: Final = 400
"""The most cards one set holds (the shipped pool has about 60)."""
MAX_DECKS: Final = 40
"""The most starter decks one set holds."""
_TOP: Final = ("version", "cards", "decks")


@dataclass(frozen=True)
class KoboSet:
    """A checked set: its reference, its card pool and its starter decks (by slug)."""

    ref: SetRef
    pool: CardPool
    decks: dict[str, Deck]

    def starters(self, options: frozenset[str] | set[str] = frozenset()) -> dict[str, Deck]:
        """The starter decks a config of the set may name with ``options`` switched on."""
        return {s: d for s, d in self.decks.items() if set(d.requires) <= set(options)}


# --------------------------------------------------------------------------------------------
# TOML and JSON forms
# --------------------------------------------------------------------------------------------


def from_toml(text: str, source: str = "card set") -> Json:
    """The JSON form of a set's TOML text; :class:`SetProblems` for text that is not TOML or
    not shaped like a set (its top-level fields)."""
    raw = read_toml(text, source)
    problems = [
        problem(
            toml_key(key),
            Said(
                "unknown top-level field (a set holds version, [[card]] and [[deck]] tables)",
                "知らない項目です（セットにあるのは version と [[card]] と [[deck]] です）",
            ),
        )
        for key in raw
        if key not in ("version", "card", "deck")
    ]
    if problems:
        raise SetProblems(problems)
    out: Json = {}
    if "version" in raw:
        out["version"] = raw["version"]
    out["cards"] = raw.get("card", [])
    out["decks"] = raw.get("deck", [])
    return out


def to_toml(data: Json) -> str:
    """The canonical TOML text of (valid, normalized) set data."""
    lines: list[str] = []
    if "version" in data:
        lines += [*toml_pairs({"version": data["version"]}), ""]
    for card in data.get("cards", []):
        lines += ["[[card]]", *toml_pairs(card, CARD_FIELDS), ""]
    for deck in data.get("decks", []):
        head = {k: v for k, v in deck.items() if k not in ("main", "tactics")}
        lines += ["[[deck]]", *toml_pairs(head, DECK_FIELDS), ""]
        for section in ("main", "tactics"):
            entries = deck.get(section) or {}  # in the deck's order: it is the deal's
            lines += [f"[deck.{section}]", *toml_pairs(entries, list(entries)), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def normalize(data: Json) -> Json:
    """The JSON form as the checks read it: ``null`` fields of cards and decks left out."""
    out: Json = {k: v for k, v in data.items() if v is not None}
    for key in ("cards", "decks"):
        items = out.get(key)
        if isinstance(items, list):
            out[key] = [
                {k: v for k, v in item.items() if v is not None}
                if isinstance(item, Mapping)
                else item
                for item in items
            ]
    return out


# --------------------------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------------------------


def validate(data: Any) -> list[FieldProblem]:
    """Every problem of a set's JSON form, by field (empty when Kōbō can play it)."""
    form, problems = set_shape(data, _TOP, normalize)
    if form is None:
        return problems
    data = form
    version = data.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        problems.append(
            problem(
                "version",
                Said("expected a whole number from 1", "1以上の整数にしてください"),
            )
        )
    cards = data.get("cards")
    pool: CardPool | None = None
    raw_slugs: set[str] = set()
    if not isinstance(cards, list) or not cards:
        problems.append(
            problem(
                "cards",
                Said("expected a list of one or more cards", "カードを1枚以上並べてください"),
            )
        )
    elif len(cards) > MAX_CARDS:
        problems.append(
            problem(
                "cards",
                Said(f"at most {MAX_CARDS} cards", f"カードは{MAX_CARDS}枚までです"),
            )
        )
    else:
        defs, card_problems = card_field_problems(cards)
        problems += card_problems
        pool = CardPool({c.slug: c for c in defs}, "", "card set")
        raw_slugs = {str(c["slug"]) for c in cards if isinstance(c, Mapping) and "slug" in c}
    problems += _deck_problems(data.get("decks"), pool, raw_slugs)
    return problems


def _deck_problems(decks: Any, pool: CardPool | None, raw_slugs: set[str]) -> list[FieldProblem]:
    """The starter decks: their shape, their cards (known to the set) and the deck rules."""
    if not isinstance(decks, list) or not decks:
        return [
            problem(
                "decks",
                Said(
                    "expected a list of one or more starter decks",
                    "スターターデッキを1つ以上並べてください",
                ),
            )
        ]
    if len(decks) > MAX_DECKS:
        return [
            problem("decks", Said(f"at most {MAX_DECKS} decks", f"デッキは{MAX_DECKS}個までです"))
        ]
    problems: list[FieldProblem] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(decks):
        where = f"decks[{i}]"
        if not isinstance(raw, Mapping):
            problems.append(
                problem(
                    where,
                    Said("expected a deck table", "デッキは表（オブジェクト）にしてください"),
                )
            )
            continue
        try:
            deck = DeckModel.model_validate(dict(raw)).to_deck()
        except ValidationError as err:
            problems += pydantic_problems(err.errors(), where)
            continue
        earlier = seen.setdefault(deck.slug, i)
        if earlier != i:
            problems.append(
                problem(
                    f"{where}.slug",
                    Said(
                        f"duplicate deck slug {deck.slug!r} (already used by decks[{earlier}])",
                        f"デッキのslug「{deck.slug}」は decks[{earlier}] と重なっています",
                    ),
                )
            )
        if pool is None:
            continue
        for found in deck_problems(deck.main, deck.tactics, pool):
            if found.code == "unknown" and found.slug in raw_slugs:
                continue  # the card is there with problems of its own
            path = f"{where}.{found.section}"
            if found.slug:
                path += f".{toml_key(found.slug)}"
            problems.append(FieldProblem(path, found.text("en"), found.text("ja")))
    return problems


def build(data: Json, ref: SetRef) -> KoboSet:
    """The pool and starter decks of checked set data (:class:`SetProblems` if it fails)."""
    problems = validate(data)
    if problems:
        raise SetProblems(problems)
    data = normalize(data)
    cards, _ = card_field_problems(data["cards"])
    pool = CardPool(
        {c.slug: c for c in cards}, ref.hash, f"card set {ref.name}", data.get("version", 1)
    )
    decks = {}
    for raw in data["decks"]:
        deck = DeckModel.model_validate(raw).to_deck()
        decks[deck.slug] = deck
    return KoboSet(ref, pool, dict(sorted(decks.items())))


# --------------------------------------------------------------------------------------------
# Shipped versions (the parents a set derives from)
# --------------------------------------------------------------------------------------------


def parents() -> list[str]:
    """The shipped card data versions, newest first: ``v3``, ``v2``, ``v1``."""
    from kessen.games.kobo.card_versions import known_versions

    return [f"v{v}" for v in sorted(known_versions(), reverse=True)]


def shipped(label: str) -> Json:
    """The JSON form of shipped version ``label`` (``v3``): its cards and starter decks as the
    package keeps them; ``KeyError`` for a version it does not keep."""
    from kessen.games.kobo.card_versions import current_version

    if label not in parents():
        raise KeyError(f"no shipped Kōbō card data {label!r}; known: {', '.join(parents())}")
    version = int(label[1:])
    if version == current_version():
        path, folders = CARDS_PATH, [DECKS_DIR, OPTION_DECKS_DIR]
    else:
        kept = DATA_DIR / f"decks-v{version}"
        path, folders = DATA_DIR / f"cards-v{version}.toml", [kept, kept / "options"]
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    decks = [_deck_file(p) for folder in folders for p in sorted(folder.glob("*.toml"))]
    return {
        "version": raw.get("version", 1),
        "cards": raw["card"],
        "decks": sorted(decks, key=lambda d: str(d.get("slug"))),
    }


def _deck_file(path: Path) -> Json:
    return tomllib.loads(path.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------------------------
# Sets a config names
# --------------------------------------------------------------------------------------------


def set_data(value: Any) -> KoboSet:
    """The set a config's ``card_set`` names (:class:`CardSetError` saying why not)."""
    if isinstance(value, str):
        return _load(value)
    raise CardSetError(str(parse_ref(value)))  # parse_ref raises, naming what is expected


@functools.lru_cache(maxsize=64)
def _load(text_ref: str) -> KoboSet:
    ref = parse_ref(text_ref)
    text = require_text(RULESET, ref)
    try:
        return build(from_toml(text, f"card set {ref.name}"), ref)
    except SetProblems as err:
        raise CardSetError(
            f"card_set: {ref.short}… does not pass Kōbō's checks any more: {err}"
        ) from None


_ACTIVE: ContextVar[CardPool | None] = ContextVar("kobo_card_pool", default=None)


def activate(value: Any) -> None:
    """Let the COM's card lookups of this thread or task read the pool of the set ``value``
    names (a view's ``card_set``), or the shipped pool when it names none."""
    pool = set_data(value).pool if isinstance(value, str) and value else None
    if _ACTIVE.get() is not pool:
        _ACTIVE.set(pool)


def active_pool() -> CardPool:
    """The pool the COM's card lookups read (:func:`activate`): the shipped one by default."""
    pool = _ACTIVE.get()
    return load_pool() if pool is None else pool


def active_set_pool() -> CardPool | None:
    """The pool of the set :func:`activate` named, ``None`` for the shipped cards (a fast
    test for the lookups that keep a cache of the shipped cards by slug alone)."""
    return _ACTIVE.get()


# --------------------------------------------------------------------------------------------
# The format the engine and the design tools use
# --------------------------------------------------------------------------------------------


def card_preview(card: Any) -> Json:
    """A draft card's generated text and name in both languages, or its problems."""
    from kessen.games.kobo.text import card_text, kind_label

    if not isinstance(card, Mapping):
        return {
            "problems": [
                problem("", Said("a card is an object", "カードは表（オブジェクト）です")).to_json()
            ],
            "text": None,
            "name": None,
        }
    cdef, problems = card_def_of({k: v for k, v in card.items() if v is not None})
    name = {"ja": card.get("name_ja"), "en": card.get("name_en")}
    if cdef is None:
        return {"problems": [p.to_json() for p in problems], "text": None, "name": name}
    return {
        "problems": [],
        "text": {lang: card_text(cdef, lang) for lang in ("ja", "en")},
        "kind": {lang: kind_label(cdef.kind, lang) for lang in ("ja", "en")},
        "name": name,
    }


class KoboSetFormat:
    """Kōbō's :class:`~kessen.engine.card_sets.SetFormat`."""

    ruleset = RULESET
    card_key = "slug"

    def parents(self) -> list[str]:
        """The shipped versions, newest first."""
        return parents()

    def shipped(self, label: str) -> Json:
        """The JSON form of a shipped version."""
        return shipped(label)

    def from_toml(self, text: str, source: str) -> Json:
        """The JSON form of TOML text."""
        return from_toml(text, source)

    def to_toml(self, data: Json) -> str:
        """The canonical TOML text."""
        return to_toml(data)

    def validate(self, data: Any) -> list[FieldProblem]:
        """Every problem, by field."""
        return validate(data)

    def normalize(self, data: Json) -> Json:
        """``null`` fields left out."""
        return normalize(data)

    def card_preview(self, card: Any) -> Json:
        """A draft card's text or problems."""
        return card_preview(card)


FORMAT: Final = KoboSetFormat()
"""Kōbō's card set format (:func:`kessen.engine.card_sets.format_for`)."""


__all__ = [
    "FORMAT",
    "CardSetError",
    "KoboSet",
    "activate",
    "active_pool",
    "build",
    "from_toml",
    "set_data",
    "shipped",
    "to_toml",
    "validate",
]

"""Project Maken's card sets: a designer's cards and starter decks, checked by Maken's rules.

A set's TOML is the shipped ``data/cards.toml`` and ``data/decks.toml`` in one document: the
``[[card]]`` tables (maken.md §4 data, §11 abilities), then one ``[deck.NAME]`` table per
starter deck (its character and its 50 cards)::

    [[card]]
    id = "SO01"
    name_ja = "霜月斬"
    ...

    [deck.SO]
    character = "SO"
    cards = { SO01 = 2, SO02 = 3, ... }

Its JSON form (the design API's) is ``{"cards": [...], "decks": {"SO": {...}, ...}}``; a
``null`` field of a card counts as left out. The checks are the shipped data's (the card
schema of :mod:`kessen.games.maken.cards` and §5's deck rules), each problem by field
(``cards[3].atk``, ``decks.SO``) in Japanese and English.

A config plays a set with ``{"card_set": "NAME@HASH"}``: :func:`set_data` gives its pool
(:class:`~kessen.games.maken.cards.MakenPool`), which the game state carries.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Final

from pydantic import ValidationError

from kessen.engine.card_sets import (
    CardSetError,
    FieldProblem,
    Said,
    SetProblems,
    SetRef,
    japanese,
    parse_ref,
    problem,
    pydantic_problems,
    require_text,
)
from kessen.engine.contract import Json
from kessen.engine.set_data import read_toml, set_shape, toml_key, toml_pairs
from kessen.games.maken.cards import (
    DATA,
    Card,
    Deck,
    MakenPool,
    card_text,
    character_name,
    check_deck,
)

RULESET: Final = "maken"
CARD_FIELDS: Final = (
    "id",
    "name_ja",
    "name_en",
    "character",
    "kind",
    "spd",
    "front",
    "back",
    "atk",
    "cost",
    "gain",
    "labels",
    "tags",
    "duration",
    "abilities",
)
"""A card's fields in the order the shipped file writes them."""
MAX_CARDS: Final = 400
"""The most cards one set holds (the shipped data has 56)."""
MAX_DECKS: Final = 40
"""The most starter decks one set holds."""
_DECK_NAME: Final = re.compile(r"[A-Za-z0-9_-]{1,20}")


@dataclass(frozen=True)
class MakenSet:
    """A checked set: its reference and its pool (cards and starter decks)."""

    ref: SetRef
    pool: MakenPool


def from_toml(text: str, source: str = "card set") -> Json:
    """The JSON form of a set's TOML text; :class:`SetProblems` for text that is not TOML or
    not shaped like a set."""
    raw = read_toml(text, source)
    unknown = [
        problem(
            toml_key(key),
            Said(
                "unknown top-level field (a set holds [[card]] and [deck.NAME] tables)",
                "知らない項目です（セットにあるのは [[card]] と [deck.NAME] です）",
            ),
        )
        for key in raw
        if key not in ("card", "deck")
    ]
    if unknown:
        raise SetProblems(unknown)
    return {"cards": raw.get("card", []), "decks": raw.get("deck", {})}


def to_toml(data: Json) -> str:
    """The canonical TOML text of (valid, normalized) set data."""
    lines: list[str] = []
    for card in data.get("cards", []):
        lines += ["[[card]]", *toml_pairs(card, CARD_FIELDS), ""]
    for name, deck in data.get("decks", {}).items():
        cards = deck.get("cards") or {}  # in the list's order
        lines += [
            f"[deck.{toml_key(name)}]",
            *toml_pairs({"character": deck.get("character")}),
            *([f"cards = {{ {', '.join(toml_pairs(cards, list(cards)))} }}"] if cards else []),
            "",
        ]
    return "\n".join(lines).rstrip("\n") + "\n"


def normalize(data: Json) -> Json:
    """The JSON form as the checks read it: ``null`` fields of cards left out."""
    out: Json = {k: v for k, v in data.items() if v is not None}
    cards = out.get("cards")
    if isinstance(cards, list):
        out["cards"] = [
            {k: v for k, v in c.items() if v is not None} if isinstance(c, Mapping) else c
            for c in cards
        ]
    return out


def validate(data: Any) -> list[FieldProblem]:
    """Every problem of a set's JSON form, by field (empty when Maken can play it)."""
    form, problems = set_shape(data, ("cards", "decks"), normalize)
    if form is None:
        return problems
    data = form
    cards, card_problems = _cards(data.get("cards"))
    problems += card_problems
    raw = data.get("cards")
    ids = (
        {str(c["id"]) for c in raw if isinstance(c, Mapping) and "id" in c}
        if isinstance(raw, list)
        else set()
    )
    problems += _decks(data.get("decks"), cards, ids)
    return problems


def _cards(raw: Any) -> tuple[dict[str, Card] | None, list[FieldProblem]]:
    if not isinstance(raw, list) or not raw:
        return None, [
            problem(
                "cards",
                Said("expected a list of one or more cards", "カードを1枚以上並べてください"),
            )
        ]
    if len(raw) > MAX_CARDS:
        return None, [
            problem("cards", Said(f"at most {MAX_CARDS} cards", f"カードは{MAX_CARDS}枚までです"))
        ]
    cards: dict[str, Card] = {}
    problems: list[FieldProblem] = []
    for i, item in enumerate(raw):
        where = f"cards[{i}]"
        if not isinstance(item, Mapping):
            problems.append(
                problem(where, Said("expected a card table", "カードは表（オブジェクト）です"))
            )
            continue
        try:
            card = Card.model_validate(dict(item))
        except ValidationError as err:
            problems += pydantic_problems(err.errors(), where)
            continue
        if card.id in cards:
            problems.append(
                problem(
                    f"{where}.id",
                    Said(
                        f"duplicate card id {card.id!r}", f"カードid「{card.id}」が重なっています"
                    ),
                )
            )
            continue
        cards[card.id] = card
    return cards, problems


def _decks(raw: Any, cards: dict[str, Card] | None, ids: set[str]) -> list[FieldProblem]:
    """The starter decks: their names and §5's deck rules over the set's cards (a card that
    is there with problems of its own is not also called unknown)."""
    if not isinstance(raw, Mapping) or not raw:
        return [
            problem(
                "decks",
                Said(
                    "expected one or more starter decks, [deck.NAME] tables",
                    "スターターデッキ（[deck.NAME]）を1つ以上置いてください",
                ),
            )
        ]
    if len(raw) > MAX_DECKS:
        return [
            problem("decks", Said(f"at most {MAX_DECKS} decks", f"デッキは{MAX_DECKS}個までです"))
        ]
    problems: list[FieldProblem] = []
    for name, deck in raw.items():
        where = f"decks.{toml_key(str(name))}"
        if not _DECK_NAME.fullmatch(str(name)):
            problems.append(
                problem(
                    where,
                    Said(
                        "a deck's name is 1 to 20 letters, digits, - or _",
                        "デッキ名は英数字と - _ で1〜20文字です",
                    ),
                )
            )
            continue
        if cards is None:
            continue
        problems += [
            FieldProblem(where, str(line), japanese(line))
            for line in check_deck(deck, cards)
            if str(line).removeprefix("unknown card ") not in ids
        ]
    return problems


def build(data: Json, ref: SetRef) -> MakenSet:
    """The pool of checked set data (:class:`SetProblems` if it fails)."""
    problems = validate(data)
    if problems:
        raise SetProblems(problems)
    data = normalize(data)
    cards = {c.id: c for c in (Card.model_validate(raw) for raw in data["cards"])}
    decks = {str(k): Deck.model_validate(v) for k, v in data["decks"].items()}
    return MakenSet(ref, MakenPool.of(cards, decks, ref.hash))


def shipped(label: str = "shipped") -> Json:
    """The JSON form of the shipped cards and starter decks (``KeyError`` for another label:
    Maken ships one version)."""
    if label != "shipped":
        raise KeyError(f"no shipped Maken card data {label!r}; known: shipped")
    cards = tomllib.loads((DATA / "cards.toml").read_text(encoding="utf-8"))
    decks = tomllib.loads((DATA / "decks.toml").read_text(encoding="utf-8"))
    return {"cards": cards["card"], "decks": decks["deck"]}


def set_data(value: Any) -> MakenSet:
    """The set a config's ``card_set`` names (:class:`CardSetError` saying why not)."""
    if isinstance(value, str):
        return _load(value)
    raise CardSetError(str(parse_ref(value)))  # parse_ref raises, naming what is expected


@functools.lru_cache(maxsize=64)
def _load(text_ref: str) -> MakenSet:
    ref = parse_ref(text_ref)
    text = require_text(RULESET, ref)
    try:
        return build(from_toml(text, f"card set {ref.name}"), ref)
    except SetProblems as err:
        raise CardSetError(
            f"card_set: {ref.short}… does not pass Maken's checks any more: {err}"
        ) from None


def card_preview(card: Any) -> Json:
    """A draft card's generated text and name in both languages, or its problems."""
    if not isinstance(card, Mapping):
        return {
            "problems": [
                problem("", Said("a card is an object", "カードは表（オブジェクト）です")).to_json()
            ],
            "text": None,
            "name": None,
        }
    name = {"ja": card.get("name_ja"), "en": card.get("name_en")}
    try:
        parsed = Card.model_validate({k: v for k, v in card.items() if v is not None})
    except ValidationError as err:
        found = pydantic_problems(err.errors(), "")
        return {"problems": [p.to_json() for p in found], "text": None, "name": name}
    return {
        "problems": [],
        "text": {lang: card_text(parsed, lang) for lang in ("ja", "en")},
        "character": {lang: character_name(parsed.character, lang) for lang in ("ja", "en")},
        "name": name,
    }


class MakenSetFormat:
    """Maken's :class:`~kessen.engine.card_sets.SetFormat`."""

    ruleset = RULESET
    card_key = "id"

    def parents(self) -> list[str]:
        """Maken ships one version."""
        return ["shipped"]

    def shipped(self, label: str) -> Json:
        """The JSON form of the shipped data."""
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


FORMAT: Final = MakenSetFormat()
"""Maken's card set format (:func:`kessen.engine.card_sets.format_for`)."""


_ACTIVE: ContextVar[MakenSet | None] = ContextVar("maken_card_set", default=None)


def activate(value: Any) -> None:
    """Let the log's card names in this thread or task read the set ``value`` names (a
    config's ``card_set``), or the shipped cards when it names none."""
    found = set_data(value) if isinstance(value, str) and value else None
    if _ACTIVE.get() is not found:
        _ACTIVE.set(found)


def active_card(cid: str) -> Card | None:
    """The card ``cid`` of the active set (:func:`activate`), ``None`` when no set is active
    or it has no such card."""
    found = _ACTIVE.get()
    return None if found is None else found.pool.card.get(cid)

"""Kōbō's decks for the deck builder: check a deck list, read and write the deck file format.

The server's deck endpoints are game-agnostic; they reach Kōbō's deck rules through
:data:`KOBO_DECKS` (``Ruleset.decks``). A check never raises on a client's deck: a malformed
one comes back as problems of code ``shape``, with the same messages ``kessen decks validate``
prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kessen.engine.contract import Json
from kessen.engine.registry import DeckCheck, DeckFormat
from kessen.games.kobo.deck_rules import deck_problems
from kessen.games.kobo.decks import deck_from_json, deck_to_json, deck_to_toml, parse_deck
from kessen.games.kobo.schema import CardDataError, load_pool


def check(deck: Mapping[str, Any], lang: str) -> DeckCheck:
    """The deck normalised (``None`` if its shape is wrong) and every problem, in ``lang``."""
    try:
        parsed = deck_from_json(deck, "deck")
    except CardDataError as err:
        return DeckCheck(None, [_shape(line) for line in str(err).splitlines()])
    problems = deck_problems(parsed.main, parsed.tactics, load_pool())
    return DeckCheck(deck_to_json(parsed), [problem.to_json(lang) for problem in problems])


def from_toml(text: str) -> Json:
    """A deck file's deck as JSON; :class:`ValueError` names the line or field that is wrong."""
    return deck_to_json(parse_deck(text.encode("utf-8"), "deck file", load_pool()))


def to_toml(deck: Mapping[str, Any]) -> str:
    """The deck as a deck file; :class:`ValueError` if its shape is wrong."""
    return deck_to_toml(deck_from_json(deck, "deck"))


def _shape(line: str) -> Json:
    return {"code": "shape", "section": "", "slug": "", "params": {}, "text": line}


KOBO_DECKS = DeckFormat(check=check, from_toml=from_toml, to_toml=to_toml, extension="toml")
"""What the deck builder needs of Kōbō."""

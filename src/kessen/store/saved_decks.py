"""The player's own decks in the match store: save, list, rename, copy, replace and delete.

A saved deck is the ruleset's deck JSON (for Kōbō the shape of ``data/decks/*.toml``) under a
name the player chose. This module keeps them; whether a deck is legal is the ruleset's
question, asked by the server before a deck is saved or played.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kessen.engine.contract import Json

if TYPE_CHECKING:
    from kessen.store.backend import Conn

MAX_NAME = 60
"""The longest deck name, in characters."""
MAX_DECKS = 500
"""The most decks one store keeps per ruleset (a bound on what a page can make it write)."""

Transaction = Callable[[], contextlib.AbstractContextManager["Conn"]]
Query = Callable[[str, Sequence[Any]], list[Any]]


class DeckStoreError(ValueError):
    """A request the deck store refuses (unknown id, bad name, too many decks)."""


@dataclass(frozen=True)
class SavedDeck:
    """One saved deck."""

    id: int
    ruleset: str
    name: str
    deck: Json
    created: float
    updated: float

    def to_json(self) -> Json:
        """The saved deck for a client."""
        return {
            "id": self.id,
            "ruleset": self.ruleset,
            "name": self.name,
            "deck": self.deck,
            "created": self.created,
            "updated": self.updated,
        }


def clean_name(name: str) -> str:
    """The name as stored: trimmed, one line, 1 to :data:`MAX_NAME` characters."""
    cleaned = " ".join(str(name).split())
    if not cleaned:
        raise DeckStoreError("a deck needs a name")
    if len(cleaned) > MAX_NAME:
        raise DeckStoreError(f"a deck name has at most {MAX_NAME} characters")
    return cleaned


class SavedDecks:
    """The saved decks of one match store (see :meth:`MatchStore.saved_decks`)."""

    def __init__(self, transaction: Transaction, query: Query) -> None:
        self._tx = transaction
        self._query = query

    def list(self, ruleset: str) -> list[SavedDeck]:
        """Every saved deck of ``ruleset``, by name."""
        rows = self._query(
            "SELECT id, ruleset, name, deck, created, updated FROM saved_decks "
            "WHERE ruleset = ? ORDER BY name, id",
            (ruleset,),
        )
        return [_row(row) for row in rows]

    def get(self, deck_id: int) -> SavedDeck:
        """The saved deck ``deck_id``; :class:`DeckStoreError` if there is none."""
        rows = self._query(
            "SELECT id, ruleset, name, deck, created, updated FROM saved_decks WHERE id = ?",
            (deck_id,),
        )
        if not rows:
            raise DeckStoreError(f"no saved deck {deck_id}")
        return _row(rows[0])

    def save(self, ruleset: str, name: str, deck: Json) -> int:
        """Keep a new deck; returns its id."""
        name = clean_name(name)
        now = time.time()
        with self._tx() as conn:
            conn.lock(f"saved_decks:{ruleset}")  # the count and the insert as one step
            (count,) = conn.execute(
                "SELECT COUNT(*) FROM saved_decks WHERE ruleset = ?", (ruleset,)
            ).fetchone()
            if count >= MAX_DECKS:
                raise DeckStoreError(f"at most {MAX_DECKS} saved decks; delete one first")
            return conn.insert(
                "INSERT INTO saved_decks (ruleset, name, deck, created, updated) "
                "VALUES (?, ?, ?, ?, ?)",
                (ruleset, name, _dumps(deck), now, now),
            )

    def update(self, deck_id: int, *, name: str | None = None, deck: Json | None = None) -> None:
        """Rename and/or replace the list of deck ``deck_id``."""
        self.get(deck_id)
        sets: list[str] = ["updated = ?"]
        params: list[Any] = [time.time()]
        if name is not None:
            sets.append("name = ?")
            params.append(clean_name(name))
        if deck is not None:
            sets.append("deck = ?")
            params.append(_dumps(deck))
        with self._tx() as conn:
            conn.execute(
                f"UPDATE saved_decks SET {', '.join(sets)} WHERE id = ?", [*params, deck_id]
            )

    def copy(self, deck_id: int, name: str) -> int:
        """A new deck with the list of ``deck_id`` under ``name``; returns its id."""
        original = self.get(deck_id)
        return self.save(original.ruleset, name, original.deck)

    def delete(self, deck_id: int) -> None:
        """Forget deck ``deck_id``."""
        self.get(deck_id)
        with self._tx() as conn:
            conn.execute("DELETE FROM saved_decks WHERE id = ?", (deck_id,))


def _dumps(deck: Json) -> str:
    return json.dumps(deck, ensure_ascii=False, separators=(",", ":"))


def _row(row: Sequence[Any]) -> SavedDeck:
    return SavedDeck(int(row[0]), str(row[1]), str(row[2]), json.loads(row[3]), row[4], row[5])

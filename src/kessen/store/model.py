"""The match store's record types: a match as listed, as stored, as inserted whole; its errors.

These are plain values (frozen data classes with their JSON forms), read and written by
:class:`~kessen.store.match_store.MatchStore`; nothing here touches the database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from kessen.engine.contract import Json, Outcome
from kessen.engine.replay import Replay
from kessen.store.integrity import recorded_event_digests

NO_RESULT: Final = "none"
"""The ``result`` filter value for finished matches without a winner."""

STATES: Final = ("live", "abandoned", "finished")
"""A listed match's states: played now by a server, left unfinished for good (or finished as
abandoned), ended otherwise."""


class StoreError(RuntimeError):
    """A request the store refuses (unknown match, gap in the actions, finished match...)."""


class StoreFault(StoreError):
    """The store's file failed under a request (damaged pages, a dropped table, a file made
    read-only, a lock held too long): the message names the file, what is wrong and what the
    user can do. Nothing was written."""


def deck_labels(config: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """The two deck names of a config: a starter's name as given, or a deck object's name as
    its player named it (a saved deck's ``name_ja``, else its ``name``, else its slug)."""
    decks = config.get("decks")
    out: list[str | None] = [None, None]
    if isinstance(decks, list | tuple):
        for seat, deck in enumerate(decks[:2]):
            if isinstance(deck, str):
                out[seat] = deck
            elif isinstance(deck, Mapping):
                label = deck.get("name_ja") or deck.get("name") or deck.get("slug")
                out[seat] = str(label) if label is not None else None
    return out[0], out[1]


@dataclass(frozen=True)
class ActionRow:
    """One stored action: its step (1-based), text, state hash (some steps) and event digest."""

    step: int
    action: str
    state_hash: str | None = None
    events: int | None = None


@dataclass(frozen=True)
class MatchInfo:
    """A match as listed: who, what, when, how it ended."""

    id: int
    ruleset: str
    seed: int
    decks: tuple[str | None, str | None]
    players: dict[str, str]
    source: str
    created: float
    finished: float | None
    winner: int | None
    reason: str | None
    steps: int
    parent: tuple[int, int] | None
    engine_version: str
    data_hash: str

    @property
    def is_finished(self) -> bool:
        """True once :meth:`MatchStore.finish_match` was called."""
        return self.finished is not None

    def to_json(self) -> Json:
        """JSON form (times as ISO 8601 strings)."""
        return {
            "id": self.id,
            "ruleset": self.ruleset,
            "seed": self.seed,
            "decks": list(self.decks),
            "players": self.players,
            "source": self.source,
            "created": datetime.fromtimestamp(self.created).isoformat(timespec="seconds"),
            "finished": None
            if self.finished is None
            else datetime.fromtimestamp(self.finished).isoformat(timespec="seconds"),
            "winner": self.winner,
            "reason": self.reason,
            "steps": self.steps,
            "parent": list(self.parent) if self.parent else None,
            "engine_version": self.engine_version,
            "data_hash": self.data_hash,
        }


@dataclass(frozen=True)
class MatchRecord:
    """Everything stored about one match."""

    info: MatchInfo
    config: Json
    decks: Any
    results: list[list[Any]] | None
    hash0: str | None
    events0: int | None
    meta: Json
    actions: list[ActionRow] = field(default_factory=list)

    def replay(self) -> Replay:
        """The engine's replay record of this match."""
        hashes = {row.step: row.state_hash for row in self.actions if row.state_hash}
        if self.hash0:
            hashes[0] = self.hash0
        return Replay(
            ruleset=self.info.ruleset,
            config=self.config,
            seed=self.info.seed,
            actions=[row.action for row in self.actions],
            version=self.info.engine_version,
            data_hash=self.info.data_hash,
            hashes=dict(sorted(hashes.items())),
        )

    @property
    def event_digests(self) -> dict[int, int] | None:
        """Step → digest of the events that step produced (``None`` if not recorded)."""
        return recorded_event_digests(self.events0, [row.events for row in self.actions])


@dataclass
class NewMatch:
    """A whole match to insert at once (simulations, imports, branches)."""

    replay: Replay
    players: Json = field(default_factory=dict)
    source: str = "sim"
    outcome: Outcome | None = None
    results: Sequence[Sequence[Any]] | None = None
    events0: int | None = None
    events: Sequence[int | None] = ()
    decks: Any = None
    meta: Json = field(default_factory=dict)
    created: float | None = None
    finished: float | None = None
    parent: tuple[int, int] | None = None
    cards: Mapping[str, Json] | None = None
    card_set: tuple[str, str] | None = None
    """The data of the card set the match was played with, ``(ruleset, canonical TOML)``,
    kept with it when the store does not hold it yet (an import)."""

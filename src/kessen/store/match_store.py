"""The match store's queries: :class:`MatchStore`, every match in one database.

The database is an SQLite file (the default) or a PostgreSQL database (a ``postgresql://``
URL); the queries are the same on both (:mod:`kessen.store.backend`). Each
:meth:`MatchStore.append_action` is one committed transaction, so a process killed at any
moment loses at most the action it was writing and never corrupts the store;
:meth:`MatchStore.unfinished` then lists the matches to resume and :meth:`MatchStore.resume`
rebuilds their live state, verifying every recorded hash on the way.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Collection, Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from kessen.engine import registry
from kessen.engine.contract import GameState, Json, Outcome
from kessen.engine.replay import Replay, ReplayDivergence
from kessen.store import db
from kessen.store.backend import Backend, Conn, open_backend
from kessen.store.card_sets import CardSetError, CardSets
from kessen.store.card_sets import attach as attach_card_sets
from kessen.store.encoding import (
    blob,
    dumps,
    dumps_sorted,
    pack,
    players_json,
    timestamp,
    unpack,
)
from kessen.store.integrity import Divergence, card_facts, diagnose, events_digest
from kessen.store.leases import LEASE_SECONDS, LeaseTable
from kessen.store.model import (
    NO_RESULT,
    STATES,
    ActionRow,
    MatchInfo,
    MatchRecord,
    NewMatch,
    StoreError,
    deck_labels,
)
from kessen.store.saved_decks import SavedDecks


def _named_divergence(record: MatchRecord, err: ReplayDivergence) -> ReplayDivergence:
    """``err``, or for a match an older store version recorded with a reordered custom deck,
    a divergence that says so (:data:`~kessen.store.db.REORDERED_MESSAGE`)."""
    if record.meta.get(db.REORDERED_KEY):
        return ReplayDivergence(err.step, f"match {record.info.id} was {db.REORDERED_MESSAGE}")
    return err


_INFO_COLUMNS = (
    "m.id, m.ruleset, m.seed, m.deck0, m.deck1, m.players, m.source, m.created, m.finished, "
    "m.winner, m.reason, "
    "COALESCE((SELECT MAX(a.step) FROM actions a WHERE a.match_id = m.id), 0), "
    "m.parent_id, m.parent_step, m.engine_version, m.data_hash"
)


def _info(row: Sequence[Any]) -> MatchInfo:
    parent = (int(row[12]), int(row[13])) if row[12] is not None else None
    return MatchInfo(
        id=int(row[0]),
        ruleset=row[1],
        seed=int(row[2]),
        decks=(row[3], row[4]),
        players=json.loads(row[5]),
        source=row[6],
        created=float(row[7]),
        finished=None if row[8] is None else float(row[8]),
        winner=None if row[9] is None else int(row[9]),
        reason=row[10],
        steps=int(row[11]),
        parent=parent,
        engine_version=row[14],
        data_hash=row[15],
    )


class MatchStore:
    """The match store: one SQLite file (WAL) or one PostgreSQL database, safe to share
    between threads and processes.

    ``path`` is a file, ``":memory:"`` (everything in memory) or a ``postgresql://`` URL; it
    defaults to ``$KESSEN_DB`` or ``matches.sqlite3`` in the user's data directory. Opening a
    store upgrades its schema; one that is not a Kessen store, is damaged (``verify`` reads
    every page of a file) or cannot be written is refused before a byte of it changes
    (:func:`kessen.store.db.inspect`, :mod:`kessen.store.postgres`). ``exclusive`` (a server)
    also holds the store until :meth:`close` (:mod:`kessen.store.lock`). :attr:`path` names
    the store in messages: the file's path, or the URL without its password.
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        synchronous: db.Synchronous = "NORMAL",
        verify: bool = False,
        exclusive: bool = False,
    ) -> None:
        self.synchronous = synchronous
        self._db: Backend = open_backend(
            path, synchronous=synchronous, verify=verify, exclusive=exclusive
        )
        self.path = self._db.label
        # One connection shared by this process's threads; correctness between processes
        # rests on the database's transactions (kessen.store.backend), never on this lock.
        self._lock = threading.RLock()
        self._cards_known: set[tuple[str, str]] = set()
        # The kernel reads the card sets this store keeps (a record played with one replays).
        self._detach_sets = attach_card_sets(self)
        self.fence: LeaseTable | None = None
        """A server sharing the store with others (:mod:`kessen.store.leases`): every action,
        undo and end is written only while this lease table's owner holds the match."""

    # --- plumbing -----------------------------------------------------------------------

    def close(self) -> None:
        """Close the connection (pending work is already committed) and let go of the
        server's hold if this store had it."""
        with self._lock:
            self._detach_sets()
            self._db.close()

    @property
    def database(self) -> Backend:
        """The database under the store (:class:`~kessen.store.backend.Backend`): its kind
        (``sqlite`` or ``postgresql``), connection and transactions."""
        return self._db

    @property
    def _conn(self) -> Conn:
        return self._db.conn

    def __enter__(self) -> MatchStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        """Hold the lock; turn a database failure into a :class:`StoreFault` naming the store."""
        with self._lock:
            try:
                self._db.ensure()
                yield
            except self._db.errors as err:
                raise self._db.fault(err) from None

    @contextlib.contextmanager
    def _tx(self) -> Iterator[Conn]:
        """One write transaction, committed on success (SQLite: ``BEGIN IMMEDIATE``)."""
        with self._guard(), self._db.transaction() as conn:
            yield conn

    def saved_decks(self) -> SavedDecks:
        """The player's saved decks, kept in this store."""
        return SavedDecks(self._tx, self._query)

    def card_sets(self) -> CardSets:
        """The designers' card sets, kept in this store."""
        return CardSets(self._tx, self._query)

    def leases(self, owner: str, seconds: float = LEASE_SECONDS) -> LeaseTable:
        """The leases on live matches as the server process ``owner`` sees them."""
        kind, for_update = self._db.kind, self._db.for_update
        return LeaseTable(self._tx, self._query, kind, for_update, owner, seconds)

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._guard():
            return self._conn.execute(sql, params).fetchall()

    @property
    def schema_version(self) -> int:
        """The schema version of the open store."""
        with self._guard():
            return self._db.version()

    # --- card snapshots -----------------------------------------------------------------

    def _snapshot_cards(
        self, conn: Conn, ruleset: str, data_hash: str, cards: Mapping[str, Json]
    ) -> None:
        """Keep ``cards`` as the definitions of ``data_hash`` (merged into what is there)."""
        added = conn.execute(
            "INSERT INTO card_data (ruleset, data_hash, cards) VALUES (?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            (ruleset, data_hash, dumps(dict(cards))),
        ).rowcount
        if added == 1:
            return
        row = conn.execute(
            "SELECT cards FROM card_data WHERE ruleset = ? AND data_hash = ?" + self._db.for_update,
            (ruleset, data_hash),
        ).fetchone()
        existing = json.loads(row[0])
        merged = {**cards, **existing}
        if merged != existing:
            conn.execute(
                "UPDATE card_data SET cards = ? WHERE ruleset = ? AND data_hash = ?",
                (dumps(merged), ruleset, data_hash),
            )

    def _ensure_cards(self, conn: Conn, ruleset: str, data_hash: str) -> None:
        """Snapshot the current cards of ``ruleset`` once per process and data hash."""
        key = (ruleset, data_hash)
        if key in self._cards_known:
            return
        if registry.get(ruleset).data_hash == data_hash:
            self._snapshot_cards(conn, ruleset, data_hash, card_facts(ruleset))
        self._cards_known.add(key)

    def recorded_cards(self, ruleset: str, data_hash: str) -> dict[str, Json] | None:
        """The card definitions snapshotted when matches with ``data_hash`` were recorded."""
        rows = self._query(
            "SELECT cards FROM card_data WHERE ruleset = ? AND data_hash = ?", (ruleset, data_hash)
        )
        return json.loads(rows[0][0]) if rows else None

    # --- writing a match as it is played ------------------------------------------------

    def create_match(
        self,
        ruleset: str,
        config: Json,
        seed: int,
        *,
        players: Mapping[int, str] | Mapping[str, str] | Sequence[str] = (),
        source: str = "play",
        state: GameState | None = None,
        meta: Json | None = None,
        parent: tuple[int, int] | None = None,
        created: float | datetime | None = None,
    ) -> int:
        """Register a new match (no action yet) and return its id.

        ``players`` names each seat's player (a COM level name, or ``"human"``); ``state`` is
        the freshly created game (built from ``config`` and ``seed`` if not given) whose hash,
        initial events and resolved decks are kept.
        """
        rules = registry.get(ruleset)
        if state is None:
            state = rules.new_game(config, seed)
        snapshot = state.to_json()
        decks = snapshot.get("config", {}).get("decks") if isinstance(snapshot, dict) else None
        deck0, deck1 = deck_labels(config)
        with self._tx() as conn:
            self._ensure_cards(conn, ruleset, rules.data_hash)
            match_id = conn.insert(
                "INSERT INTO matches (ruleset, config, seed, engine_version, data_hash, deck0, "
                "deck1, decks, players, source, hash0, events0, created, parent_id, parent_step, "
                "meta) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    ruleset,
                    dumps(config),
                    seed,
                    rules.version,
                    rules.data_hash,
                    deck0,
                    deck1,
                    blob(conn, decks),
                    dumps(players_json(players)),
                    source,
                    state.state_hash(),
                    events_digest(state.log_events()),
                    timestamp(created) or time.time(),
                    parent[0] if parent else None,
                    parent[1] if parent else None,
                    dumps(meta or {}),
                ),
            )
        return match_id

    def append_action(
        self,
        match_id: int,
        step: int,
        action_text: str,
        state_hash: str | None = None,
        *,
        events: int | None = None,
    ) -> None:
        """Store action ``step`` (1-based) of an unfinished match, in its own transaction.

        Steps must follow one another; re-sending an already stored step with the same text
        is a no-op (a client retrying after a crash), any other mismatch raises
        :class:`StoreError`.
        """
        with self._tx() as conn:
            if self._db.for_update:  # PostgreSQL: one writer per match (SQLite: per file)
                conn.execute(
                    "SELECT id FROM matches WHERE id = ?" + self._db.for_update, (match_id,)
                )
            if self.fence is not None:
                self.fence.fence(conn, match_id)
            cursor = conn.execute(
                "INSERT INTO actions (match_id, step, action, state_hash, events) "
                "SELECT CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), "
                "CAST(? AS BIGINT) "
                "WHERE ? = 1 + COALESCE((SELECT MAX(step) FROM actions WHERE match_id = ?), 0) "
                "AND EXISTS (SELECT 1 FROM matches WHERE id = ? AND finished IS NULL)",
                (match_id, step, action_text, state_hash, events, step, match_id, match_id),
            )
            if cursor.rowcount == 1:
                return
            self._refuse_append(conn, match_id, step, action_text)

    def _refuse_append(self, conn: Conn, match_id: int, step: int, action_text: str) -> None:
        stored = conn.execute(
            "SELECT action FROM actions WHERE match_id = ? AND step = ?", (match_id, step)
        ).fetchone()
        if stored is not None and stored[0] == action_text:
            return
        row = conn.execute(
            "SELECT finished, COALESCE((SELECT MAX(step) FROM actions WHERE match_id = ?), 0) "
            "FROM matches WHERE id = ?",
            (match_id, match_id),
        ).fetchone()
        if row is None:
            raise StoreError(f"no match {match_id}")
        if stored is not None:
            raise StoreError(
                f"match {match_id}: step {step} is stored as {stored[0]!r}, not {action_text!r}"
            )
        if row[0] is not None:
            raise StoreError(f"match {match_id} is finished; no more actions")
        raise StoreError(f"match {match_id}: step {step} does not follow step {row[1]}")

    def truncate(self, match_id: int, step: int) -> int:
        """Forget the actions after ``step`` of an unfinished match (undo); return how many."""
        with self._tx() as conn:
            row = conn.execute(
                "SELECT finished FROM matches WHERE id = ?" + self._db.for_update, (match_id,)
            ).fetchone()
            if row is None:
                raise StoreError(f"no match {match_id}")
            if row[0] is not None:
                raise StoreError(f"match {match_id} is finished; its actions are final")
            if self.fence is not None:
                self.fence.fence(conn, match_id)
            cursor = conn.execute(
                "DELETE FROM actions WHERE match_id = ? AND step > ?", (match_id, step)
            )
            return cursor.rowcount

    def finish_match(
        self,
        match_id: int,
        outcome: Outcome | None,
        results: Sequence[Sequence[Any]] = (),
    ) -> None:
        """Mark a match finished with its outcome (``None``: abandoned) and per-game results."""
        winner = outcome.winner if outcome is not None else None
        reason = outcome.reason if outcome is not None else "abandoned"
        with self._tx() as conn:
            cursor = conn.execute(
                "UPDATE matches SET finished = ?, winner = ?, reason = ?, results = ? WHERE id = ?",
                (time.time(), winner, reason, dumps([list(r) for r in results]), match_id),
            )
            if cursor.rowcount != 1:
                raise StoreError(f"no match {match_id}")
            if self.fence is not None:  # after the update: the match's row is locked
                self.fence.fence(conn, match_id)

    # --- writing whole matches ----------------------------------------------------------

    def _insert(self, conn: Conn, new: NewMatch) -> int:
        replay = new.replay
        if new.card_set is not None:
            try:
                CardSets.keep_in(conn, *new.card_set)
            except CardSetError as err:
                raise StoreError(f"the card set the match carries cannot be kept: {err}") from None
        if new.cards is not None:
            self._snapshot_cards(conn, replay.ruleset, replay.data_hash, new.cards)
        else:
            self._ensure_cards(conn, replay.ruleset, replay.data_hash)
        deck0, deck1 = deck_labels(replay.config)
        finished = new.finished
        if finished is None and new.outcome is not None:
            finished = time.time()
        match_id = conn.insert(
            "INSERT INTO matches (ruleset, config, seed, engine_version, data_hash, deck0, deck1, "
            "decks, players, source, hash0, events0, created, finished, winner, reason, results, "
            "parent_id, parent_step, meta) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                replay.ruleset,
                dumps(replay.config),
                replay.seed,
                replay.version,
                replay.data_hash,
                deck0,
                deck1,
                blob(conn, new.decks),
                dumps(new.players),
                new.source,
                replay.hashes.get(0),
                new.events0,
                new.created if new.created is not None else time.time(),
                finished,
                new.outcome.winner if new.outcome is not None else None,
                new.outcome.reason if new.outcome is not None else None,
                None if new.results is None else dumps([list(r) for r in new.results]),
                new.parent[0] if new.parent else None,
                new.parent[1] if new.parent else None,
                dumps(new.meta),
            ),
        )
        events = list(new.events)
        conn.executemany(
            "INSERT INTO actions (match_id, step, action, state_hash, events) "
            "VALUES (?, ?, ?, ?, ?)",
            [
                (
                    match_id,
                    step,
                    text,
                    replay.hashes.get(step),
                    events[step - 1] if step <= len(events) else None,
                )
                for step, text in enumerate(replay.actions, start=1)
            ],
        )
        return match_id

    def add_match(self, new: NewMatch) -> int:
        """Insert a whole match (actions, hashes, result) in one transaction; return its id."""
        with self._tx() as conn:
            return self._insert(conn, new)

    def delete_match(self, match_id: int) -> None:
        """Delete a match and its actions (branches keep their copy, their parent set NULL)."""
        with self._tx() as conn:
            conn.execute("DELETE FROM matches WHERE id = ?", (match_id,))

    def delete_matches(self, match_ids: Collection[int]) -> list[int]:
        """Delete every match of ``match_ids`` that exists, in one transaction (all or none);
        returns the ids deleted, in ascending order."""
        ids = sorted(set(match_ids))
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        with self._tx() as conn:
            found = [
                row[0]
                for row in conn.execute(
                    f"SELECT id FROM matches WHERE id IN ({marks}) ORDER BY id", ids
                )
            ]
            conn.execute(f"DELETE FROM matches WHERE id IN ({marks})", ids)
        return found

    # --- reading ------------------------------------------------------------------------

    def get(self, match_id: int) -> MatchRecord:
        """Everything stored about a match; :class:`StoreError` if there is none."""
        with self._guard():
            row = self._conn.execute(
                f"SELECT {_INFO_COLUMNS}, m.config, b.data, m.results, m.hash0, m.events0, "
                "m.meta FROM matches m LEFT JOIN blobs b ON b.hash = m.decks WHERE m.id = ?",
                (match_id,),
            ).fetchone()
            if row is None:
                raise StoreError(f"no match {match_id}")
            actions = [
                ActionRow(int(r[0]), r[1], r[2], None if r[3] is None else int(r[3]))
                for r in self._conn.execute(
                    "SELECT step, action, state_hash, events FROM actions WHERE match_id = ? "
                    "ORDER BY step",
                    (match_id,),
                )
            ]
        n = 16  # the columns of _INFO_COLUMNS
        return MatchRecord(
            info=_info(row[:n]),
            config=json.loads(row[n]),
            decks=None if row[n + 1] is None else json.loads(row[n + 1]),
            results=None if row[n + 2] is None else json.loads(row[n + 2]),
            hash0=row[n + 3],
            events0=None if row[n + 4] is None else int(row[n + 4]),
            meta=json.loads(row[n + 5]),
            actions=actions,
        )

    def info(self, match_id: int) -> MatchInfo:
        """The listing entry of one match."""
        rows = self._query(f"SELECT {_INFO_COLUMNS} FROM matches m WHERE m.id = ?", (match_id,))
        if not rows:
            raise StoreError(f"no match {match_id}")
        return _info(rows[0])

    def metas(self, match_ids: Sequence[int]) -> dict[int, Json]:
        """The stored ``meta`` of each of ``match_ids`` that exists (one query; a listing
        reads which seat a browser played from it)."""
        ids = [int(i) for i in match_ids][:1000]
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self._query(f"SELECT id, meta FROM matches WHERE id IN ({marks})", ids)
        return {int(r[0]): json.loads(r[1]) for r in rows}

    def configs(self, match_ids: Sequence[int]) -> dict[int, Json]:
        """The stored config of each of ``match_ids`` that exists (one query; a listing says
        from it how a match departs from the standard rules)."""
        ids = [int(i) for i in match_ids][:1000]
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self._query(f"SELECT id, config FROM matches WHERE id IN ({marks})", ids)
        return {int(r[0]): json.loads(r[1]) for r in rows}

    def update_meta(self, match_id: int, changes: Json) -> None:
        """Merge ``changes`` into match ``match_id``'s ``meta`` (a key set to ``None`` is
        removed); :class:`StoreError` if there is no such match. No schema change: ``meta`` is
        the JSON column every version has."""
        with self._tx() as conn:
            row = conn.execute(
                "SELECT meta FROM matches WHERE id = ?" + self._db.for_update, (match_id,)
            ).fetchone()
            if row is None:
                raise StoreError(f"no match {match_id}")
            meta = {**json.loads(row[0]), **changes}
            meta = {k: v for k, v in meta.items() if v is not None}
            conn.execute("UPDATE matches SET meta = ? WHERE id = ?", (dumps(meta), match_id))

    def load_replay(self, match_id: int) -> Replay:
        """The replay record of a match (finished or not)."""
        return self.get(match_id).replay()

    def list_matches(
        self,
        *,
        deck: str | None = None,
        result: int | str | None = None,
        since: float | datetime | None = None,
        until: float | datetime | None = None,
        ruleset: str | None = None,
        finished: bool | None = None,
        source: str | None = None,
        player: str | None = None,
        state: str | None = None,
        live: Collection[int] = (),
        limit: int | None = None,
        offset: int = 0,
    ) -> list[MatchInfo]:
        """Matches, newest first, filtered by any of:

        ``deck`` (either seat's), ``result`` (the winning seat, or ``"none"`` for a finished
        match without winner), creation time in ``[since, until)``, ``ruleset``, ``finished``,
        ``source`` (``play``, ``sim``, ``server``, ``import``, ``branch``...), ``player`` (a
        seat's player name), ``state`` (:data:`STATES`: ``live``, an unfinished match whose id
        is in ``live`` (the matches a server is playing now); ``abandoned``, one finished as
        abandoned or unfinished and not in ``live``; ``finished``, one that ended otherwise).
        """
        where: list[str] = []
        params: list[Any] = []
        if state is not None:
            if state not in STATES:
                raise StoreError(f"state: {state!r} is none of {', '.join(STATES)}")
            marks = ",".join("?" * len(live))
            playing = f"m.id IN ({marks})" if live else "(1 = 0)"
            if state == "live":
                where.append(f"m.finished IS NULL AND {playing}")
                params += list(live)
            elif state == "abandoned":
                where.append(
                    f"((m.finished IS NOT NULL AND m.reason = 'abandoned')"
                    f" OR (m.finished IS NULL AND NOT {playing}))"
                )
                params += list(live)
            else:
                where.append(
                    "m.finished IS NOT NULL AND (m.reason IS NULL OR m.reason != 'abandoned')"
                )
        if deck is not None:
            where.append("(m.deck0 = ? OR m.deck1 = ?)")
            params += [deck, deck]
        if result is not None:
            if result == NO_RESULT:
                where.append("m.finished IS NOT NULL AND m.winner IS NULL")
            else:
                where.append("m.winner = ?")
                params.append(int(result))
        if since is not None:
            where.append("m.created >= ?")
            params.append(timestamp(since))
        if until is not None:
            where.append("m.created < ?")
            params.append(timestamp(until))
        if ruleset is not None:
            where.append("m.ruleset = ?")
            params.append(ruleset)
        if finished is not None:
            where.append("m.finished IS NOT NULL" if finished else "m.finished IS NULL")
        if source is not None:
            where.append("m.source = ?")
            params.append(source)
        if player is not None:
            where.append(self._db.player_match)
            params.append(player)
        sql = f"SELECT {_INFO_COLUMNS} FROM matches m"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY m.created DESC, m.id DESC"
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        elif offset:
            sql += f" {self._db.no_limit} OFFSET ?"
            params.append(offset)
        return [_info(row) for row in self._query(sql, params)]

    def unfinished(
        self, *, ruleset: str | None = None, source: str | None = None
    ) -> list[MatchInfo]:
        """Matches not finished yet (e.g. vs-COM games to resume after a server restart)."""
        return self.list_matches(finished=False, ruleset=ruleset, source=source)

    def count(self) -> int:
        """The number of stored matches."""
        return int(self._query("SELECT COUNT(*) FROM matches")[0][0])

    # --- resuming, branching, checking --------------------------------------------------

    def resume(self, match_id: int) -> tuple[Replay, GameState]:
        """The record and the live state of a match, every stored hash verified on the way.

        Raises :class:`~kessen.engine.replay.ReplayDivergence` if the rules changed since.
        """
        record = self.get(match_id)
        replay = record.replay()
        try:
            return replay, replay.final_state(verify=True)
        except ReplayDivergence as err:
            raise _named_divergence(record, err) from None

    def branch(self, match_id: int, step: int, *, source: str = "branch") -> int:
        """A new unfinished match that continues ``match_id`` from after its ``step`` actions.

        The first ``step`` actions are copied (verified by replaying), the new record's parent
        is ``(match_id, step)``; the new id is returned.
        """
        record = self.get(match_id)
        if not 0 <= step <= len(record.actions):
            raise StoreError(f"match {match_id} has {len(record.actions)} steps, not {step}")
        replay = record.replay()
        replay.actions = replay.actions[:step]
        replay.hashes = {k: v for k, v in replay.hashes.items() if k <= step}
        try:
            state = replay.final_state(verify=True)
        except ReplayDivergence as err:
            raise _named_divergence(record, err) from None
        replay.hashes[step] = state.state_hash()
        new = NewMatch(
            replay=replay,
            players=dict(record.info.players),
            source=source,
            events0=record.events0,
            events=[row.events for row in record.actions[:step]],
            decks=record.decks,
            meta=dict(record.meta),
            parent=(match_id, step),
        )
        return self.add_match(new)

    def check(self, match_id: int) -> Divergence | None:
        """``None`` if the match replays exactly under the current rules and cards; else where
        it diverges and which cards are involved (see :mod:`kessen.store.integrity`)."""
        record = self.get(match_id)
        found = diagnose(
            record.replay(),
            event_digests=record.event_digests,
            recorded_cards=self.recorded_cards(record.info.ruleset, record.info.data_hash),
        )
        if found is not None and record.meta.get(db.REORDERED_KEY):
            return Divergence(
                step=found.step, reason=db.REORDERED_MESSAGE, checkpoint=-1, lost=True
            )
        return found

    # --- exchange -----------------------------------------------------------------------

    def export_match(self, match_id: int) -> Json:
        """The match as one JSON document (see :mod:`kessen.store.exchange`)."""
        from kessen.store import exchange

        return exchange.export_match(self, match_id)

    def import_match(self, document: Json, *, check: bool = True) -> int:
        """Add an exported match, its hashes verified by replaying it unless ``check`` is
        false; return its new id (see :mod:`kessen.store.exchange`)."""
        from kessen.store import exchange

        return exchange.import_match(self, document, check=check)

    # --- the simulator's journal --------------------------------------------------------

    def sim_run(self, name: str, spec: Json) -> int:
        """The id of simulation run ``name``, created with ``spec`` if new.

        An existing run must have the same spec (else :class:`StoreError`): resuming a run
        with other settings would mix two tournaments.
        """
        text = dumps(spec)
        with self._tx() as conn:
            conn.lock(f"sim_run:{name}")  # two processes starting the same run: one creates it
            row = conn.execute("SELECT id, spec FROM sim_runs WHERE name = ?", (name,)).fetchone()
            if row is not None:
                if row[1] not in (text, dumps_sorted(spec)):  # sorted: older versions
                    raise StoreError(
                        f"simulation run {name!r} exists with other settings; pick another name"
                    )
                return int(row[0])
            return conn.insert(
                "INSERT INTO sim_runs (name, spec, created) VALUES (?, ?, ?)",
                (name, text, time.time()),
            )

    def sim_done(self, run_id: int) -> dict[int, tuple[int | None, Json]]:
        """Game index → (match id, summary) of the games a run has finished."""
        rows = self._query(
            "SELECT game_index, match_id, summary FROM sim_games WHERE run_id = ?", (run_id,)
        )
        return {int(r[0]): (r[1], unpack(r[2])) for r in rows}

    def record_sim_game(
        self, run_id: int, index: int, summary: Json, match: NewMatch | None
    ) -> int | None:
        """Store one finished game of a run: its match record and its journal entry, in one
        transaction (a killed run never has one without the other)."""
        with self._tx() as conn:
            match_id = self._insert(conn, match) if match is not None else None
            conn.execute(
                "INSERT INTO sim_games (run_id, game_index, match_id, summary) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (run_id, game_index) DO UPDATE SET "
                "match_id = excluded.match_id, summary = excluded.summary",
                (run_id, index, match_id, pack(summary)),
            )
            return match_id

    def finish_sim_run(self, run_id: int) -> None:
        """Mark a simulation run complete."""
        with self._tx() as conn:
            conn.execute("UPDATE sim_runs SET finished = ? WHERE id = ?", (time.time(), run_id))

    def sim_runs(self) -> list[Json]:
        """Every simulation run: id, name, spec, created, finished, games done."""
        rows = self._query(
            "SELECT r.id, r.name, r.spec, r.created, r.finished, "
            "(SELECT COUNT(*) FROM sim_games g WHERE g.run_id = r.id) FROM sim_runs r "
            "ORDER BY r.id"
        )
        return [
            {
                "id": r[0],
                "name": r[1],
                "spec": json.loads(r[2]),
                "created": r[3],
                "finished": r[4],
                "games": r[5],
            }
            for r in rows
        ]

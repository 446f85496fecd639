"""A program's hold on its match store: one server per SQLite file (and, for a program that
must be alone on one, per PostgreSQL store).

Why a hold: a server on an SQLite file resumes every unfinished match of its store when it
starts and plays them from memory; two servers on one file would both resume the same matches
and write actions to them from two processes (each refused by the store's step check, the
players of one of them stuck). So ``kessen play`` holds its SQLite file
(``MatchStore(..., exclusive=True)``) for its whole life, and a second server on the same file
is refused, naming the first. Other commands (``kessen sim``, ``kessen store``) share a store
freely and take no hold. On PostgreSQL, ``kessen play`` takes no hold: several servers share
the store, each serving the matches it holds a lease on (:mod:`kessen.store.leases`).

What the hold is *not*: a lock on the data. Every write is a database transaction (SQLite's
``BEGIN IMMEDIATE``; PostgreSQL's row and advisory locks, see :mod:`kessen.store.backend`), so
several processes writing one store at once stay correct on either database; the hold only
keeps two servers from playing the same matches.

**SQLite** (:class:`StoreLock`): ``<database>.lock``, a file beside the database, locked with
``flock``. The kernel releases it when the process dies, even by ``kill -9``, so a stale lock
never blocks a restart; the file keeps the holder's process id for the message the next server
prints. It only works for processes of one machine, which is all an SQLite file allows anyway.

**PostgreSQL** (:class:`AdvisoryLock`): a session-level advisory lock of the database, keyed by
the store's schema, held by the server's connection. The database server releases it when that
session ends: the process exits or is killed (its socket closes), or its machine vanishes (the
TCP keepalives the store asks for on its session notice within about a minute). It works for
processes on any machine, and the message names the holder by its connection's
``application_name`` (``kessen PID@HOST``). ``kessen play`` no longer takes it: its servers
share a PostgreSQL store by leases, one per match (:mod:`kessen.server.leases`).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import IO, TYPE_CHECKING, Final

from kessen.store.db import APPLICATION_ID, MEMORY, SchemaError

if TYPE_CHECKING:
    import psycopg

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks; the server runs unlocked
    fcntl = None  # type: ignore[assignment]


class StoreLockedError(SchemaError):
    """Another live process (a server) holds the store's lock."""


def lock_path(database: str) -> Path:
    """The lock file of ``database``: ``<database>.lock`` beside it."""
    return Path(f"{database}.lock")


class StoreLock:
    """An exclusive, non-blocking lock on an SQLite database, held until :meth:`release`."""

    def __init__(self, database: str) -> None:
        self.database = database
        self.path = lock_path(database)
        self._file: IO[str] | None = None

    def acquire(self) -> StoreLock:
        """Take the lock, or raise :class:`StoreLockedError` naming the holder's pid."""
        if self.database == MEMORY or fcntl is None or self._file is not None:
            return self
        try:
            handle = self.path.open("a+", encoding="utf-8")
        except OSError as err:
            raise SchemaError(f"{self.path}: cannot create the lock file: {err}") from None
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip()
            handle.close()
            who = f" (pid {holder})" if holder.isdigit() else ""
            raise StoreLockedError(
                f"{self.database}: another Kessen server{who} is using this match store; "
                "stop it first, or give this one another file with --db"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._file = handle
        return self

    def release(self) -> None:
        """Let the lock go (the file stays; an unlocked file blocks nobody)."""
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.seek(0)
                self._file.truncate()
            self._file.close()
            self._file = None

    @property
    def held(self) -> bool:
        """True while this object holds the lock."""
        return self._file is not None


SERVER_CLASS: Final = APPLICATION_ID
"""The first key of a PostgreSQL server's hold (``pg_try_advisory_lock(int, int)``); the
second is ``hashtext`` of the store's schema, so stores in two schemas of one database are two
stores."""
_HOLDER_SQL: Final = (
    "SELECT a.application_name, host(a.client_addr) FROM pg_locks l "
    "JOIN pg_stat_activity a ON a.pid = l.pid "
    "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 "
    "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
    "AND l.classid = %s::bigint::oid "
    "AND l.objid = (hashtext(current_schema())::bigint & 4294967295)::oid "
    "AND l.pid <> pg_backend_pid()"
)


class AdvisoryLock:
    """A server's hold on a PostgreSQL store: a session-level advisory lock taken on the
    store's connection (the session's end releases it; see the module's text)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.held = False

    def acquire(self, conn: psycopg.Connection[tuple[object, ...]]) -> AdvisoryLock:
        """Take the hold on ``conn``'s session, or raise :class:`StoreLockedError` naming the
        holder (its ``application_name`` and address, when the database shows them)."""
        row = conn.execute(
            "SELECT pg_try_advisory_lock(%s, hashtext(current_schema()))", (SERVER_CLASS,)
        ).fetchone()
        if row is not None and row[0]:
            self.held = True
            return self
        holder = conn.execute(_HOLDER_SQL, (SERVER_CLASS,)).fetchone()
        who = ""
        if holder is not None and holder[0]:
            where = f" from {holder[1]}" if holder[1] else ""
            who = f" ({holder[0]}{where})"
        raise StoreLockedError(
            f"{self.label}: another Kessen server{who} is using this match store; stop it "
            "first, or give this one another database or schema with --db"
        )

    def release(self, conn: psycopg.Connection[tuple[object, ...]] | None) -> None:
        """Let the hold go (closing the connection does too)."""
        if self.held and conn is not None and not conn.closed:
            with contextlib.suppress(Exception):
                conn.execute(
                    "SELECT pg_advisory_unlock(%s, hashtext(current_schema()))", (SERVER_CLASS,)
                )
        self.held = False

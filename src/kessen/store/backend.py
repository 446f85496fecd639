"""The store's two databases behind one interface: an SQLite file (embedded) or PostgreSQL.

:func:`open_backend` reads the target given to :class:`~kessen.store.match_store.MatchStore`
(``--db``): a ``postgresql://`` (or ``postgres://``) URL opens :class:`~kessen.store.postgres.
PostgresBackend`, anything else the SQLite file of :class:`SqliteBackend`. The queries of the
store are written once, with ``?`` placeholders and SQL both databases run; what differs (how a
new row's id is read, row locks, the player filter's JSON function, "no limit") is asked of the
backend (:class:`Conn`, :class:`Backend`).

Concurrency: SQLite serializes every write transaction (``BEGIN IMMEDIATE`` takes the file's
write lock), so a read followed by a write inside one transaction can never interleave with
another writer. PostgreSQL runs transactions concurrently (``READ COMMITTED``); the store's
read-then-write transactions lock what they read (``SELECT ... FOR UPDATE`` on a match's row,
:meth:`Conn.lock` for rows that do not exist yet), so both give the same results to several
processes writing at once. No process-local lock is needed for correctness on either: the
store's ``threading.RLock`` only shares one connection between the threads of one process.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final, Protocol

from kessen.store import db
from kessen.store.lock import StoreLock
from kessen.store.model import StoreFault

URL_SCHEMES: Final = ("postgresql://", "postgres://")
"""The prefixes of a PostgreSQL target (libpq connection URIs)."""
_LOOKS_LIKE_URL: Final = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:/")
"""A target with a scheme (``postgresql:/x``, ``mysql://x``) that is no PostgreSQL URL."""


def is_postgres(target: str | os.PathLike[str] | None) -> bool:
    """True if ``target`` names a PostgreSQL database (a ``postgresql://`` URL)."""
    return target is not None and str(target).startswith(URL_SCHEMES)


def resolve(target: str | os.PathLike[str] | None) -> str:
    """The store to open: ``target`` if given, else ``$KESSEN_DB``, else the default file.

    A PostgreSQL URL is returned as given; a file path is expanded and its directory created
    (:func:`kessen.store.db.resolve_path`).
    """
    if target is None:
        env = os.environ.get(db.ENV_VAR)
        if env and is_postgres(env):
            return env
        target = env or None
    if is_postgres(target):
        return str(target)
    if target is not None and _LOOKS_LIKE_URL.match(str(target)):
        raise db.SchemaError(
            f"{target}: neither a file name nor a PostgreSQL URL "
            "(postgresql://USER@HOST[:PORT]/DATABASE)"
        )
    return db.resolve_path(target)


def describe(target: str | os.PathLike[str] | None) -> str:
    """How the store ``target`` is shown to people: the file's path, or the URL without its
    password (:func:`kessen.store.postgres.redact`)."""
    chosen = resolve(target)
    if is_postgres(chosen):
        from kessen.store.postgres import redact

        return redact(chosen)
    return chosen


class Cursor(Protocol):
    """What a statement gives back (the DB-API cursor both drivers return)."""

    @property
    def rowcount(self) -> int:
        """The rows the statement changed."""
        ...

    def fetchone(self) -> Any:
        """The next row, or ``None``."""
        ...

    def fetchall(self) -> list[Any]:
        """Every remaining row."""
        ...

    def __iter__(self) -> Iterator[Any]: ...


class Conn(Protocol):
    """A connection as the store's queries use it: ``?`` placeholders on both databases."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        """Run one statement."""
        ...

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        ...

    def insert(self, sql: str, params: Sequence[Any]) -> int:
        """Run an ``INSERT`` into a table with an ``id`` key; return the new row's id."""
        ...

    def lock(self, key: str) -> None:
        """Serialize the rest of this transaction with every other one that locks ``key``
        (until it commits or rolls back), for a read-then-write on rows that may not exist
        yet. SQLite's write transactions are serialized already."""
        ...


class SqliteConn:
    """:class:`Conn` over an :class:`sqlite3.Connection` (``raw``)."""

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        """Run one statement."""
        return self.raw.execute(sql, params)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        self.raw.executemany(sql, rows)

    def insert(self, sql: str, params: Sequence[Any]) -> int:
        """Run an ``INSERT``; the new row's id is SQLite's ``lastrowid``."""
        cursor = self.raw.execute(sql, params)
        assert cursor.lastrowid is not None
        return int(cursor.lastrowid)

    def lock(self, key: str) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` holds the file's only write lock."""


class Backend(ABC):
    """One open store database: its connection, transactions, dialect and error messages.

    Subclasses set the dialect attributes and implement the abstract methods.
    """

    kind: str = ""
    """``"sqlite"`` or ``"postgresql"``."""
    label: str = ""
    """How the store is named in messages and listings (a path, or a URL without password)."""
    for_update: str = ""
    """Appended to a ``SELECT`` of one match's row to lock it until the transaction ends."""
    no_limit: str = ""
    """The ``LIMIT`` clause meaning "all rows" before an ``OFFSET``."""
    player_match: str = ""
    """An SQL condition true when a seat of ``m.players`` (a JSON object) is named ``?``."""
    errors: tuple[type[BaseException], ...] = ()
    """The driver's exceptions, turned into :class:`StoreFault` by :meth:`fault`."""

    @property
    @abstractmethod
    def conn(self) -> Conn:
        """The connection (statements outside a transaction commit by themselves)."""

    def ensure(self) -> None:  # noqa: B027 (a default: SQLite has nothing to do)
        """Make sure the connection is usable (PostgreSQL reconnects after losing it)."""

    @abstractmethod
    def transaction(self) -> contextlib.AbstractContextManager[Conn]:
        """One write transaction, committed when the block ends, rolled back on an error."""

    @abstractmethod
    def snapshot(self) -> contextlib.AbstractContextManager[Conn]:
        """One read-only transaction: every query in it sees the same committed state."""

    @abstractmethod
    def migrate(self) -> int:
        """Bring the schema to the current version; return it."""

    @abstractmethod
    def version(self) -> int:
        """The schema version of the open store."""

    def reset_ids(self) -> None:  # noqa: B027 (a default: SQLite follows by itself)
        """After rows were inserted with explicit ids (``kessen store copy``), make the next
        generated ids follow the largest one (inside the caller's transaction)."""

    @abstractmethod
    def fault(self, err: BaseException) -> StoreFault:
        """The one-line :class:`StoreFault` for a driver error: the store, what is wrong,
        what the user can do."""

    @abstractmethod
    def close(self) -> None:
        """Close the connection and let go of the server's hold on the store."""


class SqliteBackend(Backend):
    """The embedded store: one SQLite file in WAL mode (:mod:`kessen.store.db`).

    Refuses a file that is not a Kessen store, a damaged one (``verify``: every page read) or
    one that cannot be written before a byte of it changes; ``exclusive`` (a server) holds
    ``<path>.lock`` (:mod:`kessen.store.lock`) until :meth:`close`.
    """

    kind = "sqlite"
    for_update = ""
    no_limit = "LIMIT -1"
    player_match = "EXISTS (SELECT 1 FROM json_each(m.players) j WHERE j.value = ?)"
    errors = (sqlite3.Error,)

    def __init__(
        self,
        path: str,
        *,
        synchronous: db.Synchronous = "NORMAL",
        verify: bool = False,
        exclusive: bool = False,
    ) -> None:
        self.path = path
        self.label = path
        # Before any write (even the switch to WAL mode): refuse a file that is not a Kessen
        # store, a damaged one (``verify``: read every page) or one that cannot be written.
        db.inspect(path, deep=verify)
        self._hold = StoreLock(path)
        if exclusive:  # a server: one per database (see kessen.store.lock)
            self._hold.acquire()
        try:
            try:
                self.raw = db.connect(path, synchronous)
            except sqlite3.Error as err:
                raise self.fault(err) from None
        except BaseException:
            self._hold.release()
            raise
        self._conn = SqliteConn(self.raw)

    @property
    def conn(self) -> Conn:
        """The connection (autocommit outside :meth:`transaction`)."""
        return self._conn

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Conn]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` (the file's write lock for the whole block)."""
        self.raw.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self.raw.execute("ROLLBACK")
            raise
        self.raw.execute("COMMIT")

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[Conn]:
        """A deferred transaction: in WAL mode its reads see one state while others write."""
        self.raw.execute("BEGIN")
        try:
            yield self._conn
        finally:
            with contextlib.suppress(sqlite3.Error):
                self.raw.execute("COMMIT")

    def migrate(self) -> int:
        """Run the missing :data:`kessen.store.db.MIGRATIONS`."""
        return db.migrate(self.raw)

    def version(self) -> int:
        """The file's schema version."""
        return db.current_version(self.raw)

    def fault(self, err: BaseException) -> StoreFault:
        """The message for an SQLite error on this file."""
        text = str(err)
        lowered = text.lower()
        if "readonly" in lowered or "read-only" in lowered:
            return StoreFault(
                f"{self.path}: the match store cannot be written ({text}); make the file and its "
                "directory writable, then restart"
            )
        if "locked" in lowered or "busy" in lowered:
            return StoreFault(
                f"{self.path}: the match store is busy ({text}); another program holds it, "
                "try again"
            )
        if isinstance(err, sqlite3.DatabaseError) and not isinstance(err, sqlite3.IntegrityError):
            return StoreFault(str(db.damaged(self.path, text)))
        return StoreFault(f"{self.path}: database error: {text}")

    def close(self) -> None:
        """Close the file and release its lock file."""
        try:
            self.raw.close()
        finally:
            self._hold.release()


def open_backend(
    target: str | Path | None,
    *,
    synchronous: db.Synchronous = "NORMAL",
    verify: bool = False,
    exclusive: bool = False,
) -> Backend:
    """Open the store ``target`` (see :func:`resolve`) and bring its schema up to date.

    ``synchronous`` is SQLite's setting (PostgreSQL commits durably, see
    :mod:`kessen.store.postgres`); ``verify`` reads every page of an SQLite file before use;
    ``exclusive`` is a server's hold on the store (one server per store).
    """
    chosen = resolve(target)
    backend: Backend
    if is_postgres(chosen):
        from kessen.store.postgres import PostgresBackend

        backend = PostgresBackend(chosen, exclusive=exclusive)
    else:
        backend = SqliteBackend(chosen, synchronous=synchronous, verify=verify, exclusive=exclusive)
    try:
        try:
            backend.migrate()
        except backend.errors as err:
            raise backend.fault(err) from None
    except BaseException:
        backend.close()
        raise
    return backend

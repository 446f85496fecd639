"""The match store's SQLite file: where it lives, how it is opened, its versioned schema.

The schema carries its version in the one-row table ``schema_version``. :data:`MIGRATIONS` is
the ordered list of steps from an empty file to the current schema; :func:`migrate` applies the
missing ones, each in its own transaction together with the version bump, so a file is always
at exactly one version (a process killed during an upgrade leaves the previous version).

The file runs in WAL mode: a writer never blocks readers, every committed transaction survives
the death of the process, and a crash never corrupts the file. ``synchronous=NORMAL`` (the
default) may lose the last transactions on a power cut or an OS crash, never on a killed
process; ``FULL`` also syncs the WAL on every commit (measured in ``bench/sim_bench.py``).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Final, Literal

ENV_VAR: Final = "KESSEN_DB"
"""The environment variable that overrides the default database path."""
FILE_NAME: Final = "matches.sqlite3"
MEMORY: Final = ":memory:"

Synchronous = Literal["OFF", "NORMAL", "FULL", "EXTRA"]
BUSY_TIMEOUT_MS: Final = 30_000


class SchemaError(RuntimeError):
    """The file is not a match store this code can use (e.g. written by a newer version)."""


def default_path() -> Path:
    """``$KESSEN_DB`` if set, else ``matches.sqlite3`` in the user's data directory."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return platformdirs.user_data_path("kessen", appauthor=False) / FILE_NAME


def resolve_path(path: str | os.PathLike[str] | None) -> str:
    """The database path to open: ``path`` if given, else :func:`default_path`.

    The parent directory is created; ``":memory:"`` stays an in-memory database.
    """
    if path is not None and str(path) == MEMORY:
        return MEMORY
    chosen = Path(path).expanduser() if path is not None else default_path()
    chosen.parent.mkdir(parents=True, exist_ok=True)
    return str(chosen)


def connect(path: str, synchronous: Synchronous = "NORMAL") -> sqlite3.Connection:
    """Open ``path`` in autocommit mode with WAL, the given ``synchronous``, foreign keys on.

    Transactions are explicit (``BEGIN IMMEDIATE`` ... ``COMMIT``); a single statement outside
    one commits by itself.
    """
    if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
    conn = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
    )
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    if path != MEMORY:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            conn.close()
            raise SchemaError(f"{path}: cannot switch the database to WAL mode (got {mode})")
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


# --------------------------------------------------------------------------------------------
# Migrations
# --------------------------------------------------------------------------------------------

Migration = Callable[[sqlite3.Connection], None]


def _run(conn: sqlite3.Connection, script: str) -> None:
    """Run ``;``-separated statements one by one, inside the caller's transaction.

    (``executescript`` would commit the pending transaction first.)
    """
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


def _v1_initial(conn: sqlite3.Connection) -> None:
    """Matches and their actions."""
    _run(
        conn,
        """
        CREATE TABLE matches (
            id             INTEGER PRIMARY KEY,
            ruleset        TEXT    NOT NULL,
            config         TEXT    NOT NULL,
            seed           INTEGER NOT NULL,
            engine_version TEXT    NOT NULL,
            data_hash      TEXT    NOT NULL,
            deck0          TEXT,
            deck1          TEXT,
            decks          TEXT,
            players        TEXT    NOT NULL DEFAULT '{}',
            source         TEXT    NOT NULL DEFAULT 'play',
            hash0          TEXT,
            created        REAL    NOT NULL,
            finished       REAL,
            winner         INTEGER,
            reason         TEXT,
            results        TEXT,
            parent_id      INTEGER REFERENCES matches(id) ON DELETE SET NULL,
            parent_step    INTEGER,
            meta           TEXT    NOT NULL DEFAULT '{}'
        );
        CREATE TABLE actions (
            match_id   INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
            step       INTEGER NOT NULL,
            action     TEXT    NOT NULL,
            state_hash TEXT,
            PRIMARY KEY (match_id, step)
        ) WITHOUT ROWID;
        CREATE INDEX matches_created ON matches(created);
        """,
    )


def blob_key(text: str) -> str:
    """The key of a shared JSON text in the ``blobs`` table (a content hash)."""
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


def _v2_integrity_and_sim(conn: sqlite3.Connection) -> None:
    """Event digests per action, card-data snapshots, shared deck lists, the simulator's
    journal, filter indexes."""
    _run(
        conn,
        """
        ALTER TABLE actions ADD COLUMN events INTEGER;
        ALTER TABLE matches ADD COLUMN events0 INTEGER;
        CREATE TABLE blobs (
            hash TEXT PRIMARY KEY,
            data TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE card_data (
            ruleset   TEXT NOT NULL,
            data_hash TEXT NOT NULL,
            cards     TEXT NOT NULL,
            PRIMARY KEY (ruleset, data_hash)
        );
        CREATE TABLE sim_runs (
            id       INTEGER PRIMARY KEY,
            name     TEXT    NOT NULL UNIQUE,
            spec     TEXT    NOT NULL,
            created  REAL    NOT NULL,
            finished REAL
        );
        CREATE TABLE sim_games (
            run_id     INTEGER NOT NULL REFERENCES sim_runs(id) ON DELETE CASCADE,
            game_index INTEGER NOT NULL,
            match_id   INTEGER REFERENCES matches(id) ON DELETE SET NULL,
            summary    BLOB    NOT NULL,
            PRIMARY KEY (run_id, game_index)
        ) WITHOUT ROWID;
        CREATE INDEX matches_unfinished ON matches(finished) WHERE finished IS NULL;
        CREATE INDEX matches_deck0 ON matches(deck0);
        CREATE INDEX matches_deck1 ON matches(deck1);
        CREATE INDEX matches_parent ON matches(parent_id) WHERE parent_id IS NOT NULL;
        """,
    )
    # v1 kept each match's resolved deck lists inline (a kilobyte a match); v2 keeps each
    # distinct list once in `blobs` and the match refers to it by hash.
    rows = conn.execute("SELECT id, decks FROM matches WHERE decks IS NOT NULL").fetchall()
    for match_id, text in rows:
        key = blob_key(text)
        conn.execute("INSERT OR IGNORE INTO blobs (hash, data) VALUES (?, ?)", (key, text))
        conn.execute("UPDATE matches SET decks = ? WHERE id = ?", (key, match_id))
    # v1 had no word for imported records: those without players were imports.
    conn.execute("UPDATE matches SET source = 'import' WHERE players = '{}' AND source = 'play'")


MIGRATIONS: Final[tuple[Migration, ...]] = (_v1_initial, _v2_integrity_and_sim)
"""Migration ``i`` (0-based) takes the schema from version ``i`` to ``i + 1``."""
SCHEMA_VERSION: Final = len(MIGRATIONS)
"""The version this code writes."""


def current_version(conn: sqlite3.Connection) -> int:
    """The schema version of the open file (0 for an empty one)."""
    found = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).fetchone()
    if found is None:
        return 0
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    return int(row[0]) if row is not None else 0


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Bring the schema up to ``target`` (default: the current one); return the version.

    Each migration runs in its own ``BEGIN IMMEDIATE`` transaction with the version bump, so
    concurrent openers upgrade once and a crash leaves the previous version intact.
    """
    if not 0 <= target <= SCHEMA_VERSION:
        raise ValueError(f"no schema version {target}; this code knows 0..{SCHEMA_VERSION}")
    version = current_version(conn)
    if version > SCHEMA_VERSION:
        raise SchemaError(
            f"the match store has schema version {version}, newer than this Kessen knows "
            f"({SCHEMA_VERSION}); upgrade Kessen to open it"
        )
    while version < target:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = current_version(conn)  # another process may have upgraded meanwhile
            if version >= target:
                conn.execute("COMMIT")
                break
            if version == 0:
                conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                conn.execute("INSERT INTO schema_version VALUES (0)")
            MIGRATIONS[version](conn)
            version += 1
            conn.execute("UPDATE schema_version SET version = ?", (version,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return version

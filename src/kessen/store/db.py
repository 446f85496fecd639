"""The match store's SQLite file: where it lives, how it is opened, its versioned schema.

(The same schema on PostgreSQL, and its migrations there, are :mod:`kessen.store.postgres`;
:mod:`kessen.store.backend` chooses between the two.)

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


class ForeignFileError(SchemaError):
    """The file belongs to another program (not SQLite, or another application's database);
    it is left exactly as it was."""


class DamagedStoreError(SchemaError):
    """The file is a match store but cannot be read as one (damaged pages, missing tables)."""


class ReadOnlyStoreError(SchemaError):
    """The file or its directory cannot be written, so no match could be recorded."""


_ADVICE_DAMAGED: Final = (
    "restore a backup, or move the file aside to start a new store "
    "(`sqlite3 FILE .recover` may save what is left of its matches)"
)
_ADVICE_OTHER: Final = "Kessen leaves it unchanged; choose another file with --db"
_HEADER: Final = b"SQLite format 3\x00"
_TABLES_V1: Final = frozenset({"schema_version", "matches", "actions"})
_TABLES_V2: Final = _TABLES_V1 | {"blobs", "card_data", "sim_runs", "sim_games"}
_TABLES_V4: Final = _TABLES_V2 | {"saved_decks"}


def expected_tables(version: int) -> frozenset[str]:
    """The tables a store of schema ``version`` has (on either database)."""
    tables = _TABLES_V4 if version >= 4 else _TABLES_V2 if version >= 2 else _TABLES_V1
    if version > MIGRATIONS.index(_v5_card_sets):
        tables = tables | CARD_SET_TABLES
    if version > MIGRATIONS.index(_v6_match_leases):
        tables = tables | {LEASES_TABLE}
    return tables


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


def damaged(path: str, what: str) -> DamagedStoreError:
    """The error for a damaged store: the file, what is wrong, what the user can do."""
    return DamagedStoreError(f"{path}: the match store is damaged ({what}); {_ADVICE_DAMAGED}")


def _writable(path: Path) -> None:
    """Raise :class:`ReadOnlyStoreError` unless the file (if any) and its directory are
    writable (WAL mode writes ``-wal`` and ``-shm`` files beside the database)."""
    directory = path.parent
    if path.exists() and not os.access(path, os.W_OK):
        raise ReadOnlyStoreError(
            f"{path}: the match store is read-only; make it writable, choose another file with "
            "--db, or play without recording (--no-store)"
        )
    if not os.access(directory, os.W_OK | os.X_OK):
        raise ReadOnlyStoreError(
            f"{path}: the directory {directory} is read-only, so the match store cannot be "
            "written; make it writable, choose another file with --db, or play without "
            "recording (--no-store)"
        )


def _peek(path: Path, *, deep: bool) -> tuple[set[str], int | None]:
    """The tables and schema version of an existing SQLite file, read without writing a byte
    (an immutable read-only connection; a read-only one when a WAL file holds pages the main
    file lacks). With ``deep``, also ``PRAGMA quick_check`` every page."""
    wal = Path(f"{path}-wal")
    mode = "mode=ro" if wal.exists() and wal.stat().st_size > 0 else "immutable=1"
    uri = f"{path.resolve().as_uri()}?{mode}"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as err:
        raise SchemaError(f"{path}: cannot open the file: {err}") from None
    try:
        tables = {
            str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        version: int | None = None
        if "schema_version" in tables:
            row = conn.execute("SELECT version FROM schema_version").fetchone()
            version = int(row[0]) if row is not None else None
        if deep:
            found = [str(r[0]) for r in conn.execute("PRAGMA quick_check(3)")]
            if found != ["ok"]:
                lines = (line.strip() for text in found for line in text.splitlines())
                problems = [line for line in lines if line and not line.startswith("***")]
                raise damaged(str(path), "; ".join(problems))
        return tables, version
    except sqlite3.DatabaseError as err:
        raise damaged(str(path), str(err)) from None
    finally:
        conn.close()


def inspect(path: str, *, deep: bool = False) -> bool:
    """Check, before a single byte is written, that ``path`` may be opened as a match store.

    Returns ``True`` for a Kessen store, ``False`` for a file to create (missing, empty, or an
    SQLite database without any table). Raises :class:`ForeignFileError` for a file that is
    not SQLite or another application's database, :class:`DamagedStoreError` for a store whose
    pages or tables are damaged (``deep`` also reads every page), and
    :class:`ReadOnlyStoreError` when the file or its directory cannot be written.
    """
    if path == MEMORY:
        return False
    file = Path(path)
    if file.is_dir():
        raise ForeignFileError(f"{path}: is a directory, not a match store file")
    if not file.exists() or file.stat().st_size == 0:
        _writable(file)
        return False
    try:
        with file.open("rb") as handle:
            header = handle.read(100)
    except OSError as err:
        raise SchemaError(f"{path}: cannot read the file: {err}") from None
    if not header.startswith(_HEADER):
        raise ForeignFileError(
            f"{path}: not an SQLite database, so not a match store; {_ADVICE_OTHER}"
        )
    if len(header) < 100:
        raise damaged(path, "the file is shorter than its header")
    app_id = int.from_bytes(header[68:72], "big", signed=True)
    if app_id not in (0, APPLICATION_ID):
        raise ForeignFileError(
            f"{path}: an SQLite database of another application (application_id "
            f"{app_id:#x}), not a match store; {_ADVICE_OTHER}"
        )
    tables, version = _peek(file, deep=deep)
    if app_id == 0 and not tables:
        _writable(file)
        return False
    if app_id == 0 and not {"matches", "actions"} <= tables:
        shown = ", ".join(sorted(tables)[:6]) + (", ..." if len(tables) > 6 else "")
        raise ForeignFileError(
            f"{path}: an SQLite database of another program (tables: {shown}), not a match "
            f"store; {_ADVICE_OTHER}"
        )
    if version is None:
        raise damaged(path, "its schema_version table is missing or empty")
    missing = sorted(expected_tables(version) - tables)
    if missing:
        names = ", ".join(missing)
        raise damaged(path, f"table{'s' if len(missing) > 1 else ''} {names} missing")
    _writable(file)
    return True


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


APPLICATION_ID: Final = 0x4B53454E
"""``PRAGMA application_id`` of a match store ("KSEN"), set by migration 3: a file carrying
another non-zero id belongs to another application and is never opened for writing."""
REORDERED_KEY: Final = "config_reordered"
"""The ``meta`` flag of a match recorded before migration 3 with an inline (custom) deck: older
versions stored its config with sorted keys, which reordered the deck's cards, so it can no
longer be replayed (the original order is lost)."""
REORDERED_MESSAGE: Final = (
    "recorded with a reordered custom deck by an older store version; cannot be replayed"
)


def _v3_identity_and_config_order(conn: sqlite3.Connection) -> None:
    """Mark the file as a Kessen store (``application_id``) and flag the matches whose config
    an older version stored with sorted keys while it held an inline deck
    (:data:`REORDERED_KEY`)."""
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(
        "UPDATE matches SET meta = json_set(COALESCE(meta, '{}'), ?, json('true')) "
        "WHERE EXISTS (SELECT 1 FROM json_each(matches.config, '$.decks') d "
        "WHERE d.type = 'object')",
        (f"$.{REORDERED_KEY}",),
    )


def _v4_saved_decks(conn: sqlite3.Connection) -> None:
    """The player's own decks, saved from the deck builder (kessen.store.saved_decks)."""
    _run(
        conn,
        """
        CREATE TABLE saved_decks (
            id      INTEGER PRIMARY KEY,
            ruleset TEXT    NOT NULL,
            name    TEXT    NOT NULL,
            deck    TEXT    NOT NULL,
            created REAL    NOT NULL,
            updated REAL    NOT NULL
        );
        CREATE INDEX saved_decks_ruleset ON saved_decks (ruleset, name);
        """,
    )


CARD_SET_TABLES: Final = frozenset({"card_sets", "card_set_data", "card_set_log"})
"""Designers' card sets (:mod:`kessen.store.card_sets`)."""


def _v5_card_sets(conn: sqlite3.Connection) -> None:
    """Designers' card sets: each set's name, ruleset, parent and current revision; every
    revision's data by content hash; each set's changelog (:mod:`kessen.store.card_sets`)."""
    _run(
        conn,
        """
        CREATE TABLE card_sets (
            id      INTEGER PRIMARY KEY,
            name    TEXT    NOT NULL UNIQUE,
            ruleset TEXT    NOT NULL,
            parent  TEXT    NOT NULL,
            head    TEXT    NOT NULL,
            created REAL    NOT NULL,
            updated REAL    NOT NULL
        );
        CREATE TABLE card_set_data (
            ruleset TEXT NOT NULL,
            hash    TEXT NOT NULL,
            data    TEXT NOT NULL,
            PRIMARY KEY (ruleset, hash)
        ) WITHOUT ROWID;
        CREATE TABLE card_set_log (
            set_id   INTEGER NOT NULL REFERENCES card_sets(id) ON DELETE CASCADE,
            revision INTEGER NOT NULL,
            hash     TEXT    NOT NULL,
            created  REAL    NOT NULL,
            note     TEXT    NOT NULL DEFAULT '',
            changes  TEXT    NOT NULL,
            PRIMARY KEY (set_id, revision)
        ) WITHOUT ROWID;
        """,
    )


LEASES_TABLE: Final = "match_leases"
"""Which server process serves each live match (:mod:`kessen.store.leases`)."""


def _v6_match_leases(conn: sqlite3.Connection) -> None:
    """Leases on live matches: the server process that serves each one, until when
    (:mod:`kessen.store.leases`; one server per SQLite file, several on PostgreSQL)."""
    _run(
        conn,
        """
        CREATE TABLE match_leases (
            session    TEXT    PRIMARY KEY,
            match_id   INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
            owner      TEXT    NOT NULL,
            expires_at REAL    NOT NULL,
            wanted     TEXT
        ) WITHOUT ROWID;
        CREATE INDEX match_leases_owner ON match_leases (owner);
        CREATE INDEX match_leases_match ON match_leases (match_id);
        """,
    )


MIGRATIONS: Final[tuple[Migration, ...]] = (
    _v1_initial,
    _v2_integrity_and_sim,
    _v3_identity_and_config_order,
    _v4_saved_decks,
    _v5_card_sets,
    _v6_match_leases,
)
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

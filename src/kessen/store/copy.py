"""A whole store copied into an empty one (``kessen store copy SRC DST``), every record verified.

Either way between the two databases (an SQLite file and a PostgreSQL database; also file to
file, database to database). Every row of every table is copied as stored, ids included (a
branch keeps its parent, a simulation game its match, a browser's saved deck its id), from one
consistent snapshot of the source (a server may go on writing to it meanwhile) into the
destination in one transaction: a copy that fails or does not verify leaves the destination as
empty as it was.

Verification, before the transaction commits: each match read back from the destination must
have the content hash of the match read from the source (:func:`match_digest`: every column of
its row and every column of every action, in order), and every table the same number of rows
and the same content hash (a simulation game's summary compared by value, since the two
databases store the packed bytes in their own column types).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kessen.store.backend import Backend, Conn
from kessen.store.encoding import pack, unpack
from kessen.store.records import MatchStore, StoreError

COLUMNS: Final[dict[str, tuple[str, ...]]] = {
    "blobs": ("hash", "data"),
    "card_data": ("ruleset", "data_hash", "cards"),
    "matches": (
        "id", "ruleset", "config", "seed", "engine_version", "data_hash", "deck0", "deck1",
        "decks", "players", "source", "hash0", "created", "finished", "winner", "reason",
        "results", "parent_id", "parent_step", "meta", "events0",
    ),
    "actions": ("match_id", "step", "action", "state_hash", "events"),
    "sim_runs": ("id", "name", "spec", "created", "finished"),
    "sim_games": ("run_id", "game_index", "match_id", "summary"),
    "saved_decks": ("id", "ruleset", "name", "deck", "created", "updated"),
    "card_set_data": ("ruleset", "hash", "data"),
    "card_sets": ("id", "name", "ruleset", "parent", "head", "created", "updated"),
    "card_set_log": ("set_id", "revision", "hash", "created", "note", "changes"),
}  # fmt: skip
"""Every table of the store (schema version 5 and later) and its columns, in copy order."""
KEYS: Final[dict[str, str]] = {
    "blobs": "hash",
    "card_data": "ruleset, data_hash",
    "matches": "id",
    "actions": "match_id, step",
    "sim_runs": "id",
    "sim_games": "run_id, game_index",
    "saved_decks": "id",
    "card_set_data": "ruleset, hash",
    "card_sets": "id",
    "card_set_log": "set_id, revision",
}
"""Each table's key: the order its rows are read, compared and hashed in."""
CARD_SET_TABLES: Final = ("card_set_data", "card_sets", "card_set_log")
"""The card set tables (schema version 5 and later), in copy order."""
PAGE: Final = 200
"""Matches read, written and verified at a time."""


class CopyError(StoreError):
    """A copy refused (the destination is not empty, is the source) or that did not verify
    (nothing was written)."""

    def __init__(self, message: str, *, verified: bool = True) -> None:
        super().__init__(message)
        self.verified = verified
        """False when the copy was made but did not verify (then rolled back)."""


@dataclass(frozen=True)
class CopyReport:
    """What a copy moved: the rows of each table and the matches verified."""

    source: str
    target: str
    counts: dict[str, int]
    verified: int

    def describe(self) -> str:
        """One paragraph for people."""
        c = self.counts
        return (
            f"copied {c['matches']} matches ({c['actions']} actions), {c['sim_runs']} simulation "
            f"runs ({c['sim_games']} games), {c['saved_decks']} saved decks, "
            f"{c['card_sets']} card sets ({c['card_set_data']} revisions), {c['blobs']} deck "
            f"lists and {c['card_data']} card snapshots from {self.source} to {self.target}; "
            f"verified: every table's count and content, and each match's content hash "
            f"({self.verified} of {c['matches']} identical)"
        )


def _plain(value: Any) -> Any:
    if isinstance(value, bytes | bytearray | memoryview):
        return {"bytes": bytes(value).hex()}
    return value


def _digest(rows: Sequence[Any]) -> str:
    text = json.dumps(rows, ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def match_digest(row: Sequence[Any], actions: Sequence[Sequence[Any]]) -> str:
    """The content hash of one match: its row (every column of :data:`COLUMNS` ``matches``)
    and its actions' rows, in step order. Equal on both databases for the same record."""
    return _digest([[_plain(v) for v in row], [[_plain(v) for v in a] for a in actions]])


def _packed(summary: bytes | str) -> bytes:
    """A simulation game's summary as packed bytes (older stores kept some as JSON text,
    which a PostgreSQL ``BYTEA`` column cannot hold as text)."""
    return summary if isinstance(summary, bytes) else pack(unpack(summary))


def _select(table: str, where: str = "") -> str:
    return f"SELECT {', '.join(COLUMNS[table])} FROM {table} {where} ORDER BY {KEYS[table]}"


def _insert(table: str) -> str:
    names = COLUMNS[table]
    return f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"


def _table_digest(conn: Conn, table: str) -> tuple[int, str]:
    rows = conn.execute(_select(table)).fetchall()
    if table == "sim_games":  # packed bytes on one side, the same value on the other
        rows = [(r[0], r[1], r[2], json.dumps(unpack(r[3]), sort_keys=True)) for r in rows]
    return len(rows), _digest([[_plain(v) for v in row] for row in rows])


def _matches(conn: Conn, after: int, limit: int) -> list[tuple[Any, list[Any]]]:
    """Up to ``limit`` matches with ids above ``after``, each with its actions' rows."""
    rows = conn.execute(_select("matches", "WHERE id > ?") + " LIMIT ?", (after, limit)).fetchall()
    if not rows:
        return []
    actions: dict[int, list[Any]] = {int(r[0]): [] for r in rows}
    for action in conn.execute(
        _select("actions", "WHERE match_id >= ? AND match_id <= ?"), (rows[0][0], rows[-1][0])
    ):
        actions[int(action[0])].append(action)
    return [(row, actions[int(row[0])]) for row in rows]


@contextlib.contextmanager
def _faults(store: MatchStore) -> Iterator[Backend]:
    """The store's database; its driver's errors become the store's one-line faults."""
    database = store.database
    try:
        database.ensure()
        yield database
    except database.errors as err:
        raise database.fault(err) from None


def copy_store(
    source: MatchStore,
    target: MatchStore,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> CopyReport:
    """Copy every record of ``source`` into the empty store ``target`` and verify it (see the
    module's text); ``progress(done, total)`` follows the matches. Raises :class:`CopyError`
    when the target is the source or holds records, or when a record does not verify."""
    if source.path == target.path:
        raise CopyError(f"{source.path}: the source and the destination are the same store")
    with (
        _faults(source) as src,
        _faults(target) as dst,
        src.snapshot() as read,
        dst.transaction() as write,
    ):
        held = {t: int(write.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]) for t in COLUMNS}
        if any(held.values()):
            found = ", ".join(f"{t}: {n}" for t, n in held.items() if n)
            raise CopyError(
                f"{target.path} is not empty ({found}); copy into a new store (another file, "
                "database or schema), or empty this one first"
            )
        total = int(read.execute("SELECT COUNT(*) FROM matches").fetchone()[0])
        for table in ("blobs", "card_data", "sim_runs", "saved_decks", *CARD_SET_TABLES):
            write.executemany(_insert(table), read.execute(_select(table)).fetchall())
        verified = _copy_matches(read, write, total, progress)
        games = read.execute(_select("sim_games")).fetchall()
        if dst.kind == "postgresql":
            games = [(*r[:3], _packed(r[3])) for r in games]
        write.executemany(_insert("sim_games"), games)
        dst.reset_ids()
        counts: dict[str, int] = {}
        for table in COLUMNS:
            count, digest = _table_digest(read, table)
            if _table_digest(write, table) != (count, digest):
                raise CopyError(
                    f"table {table} does not read back as copied; nothing was copied",
                    verified=False,
                )
            counts[table] = count
    return CopyReport(source.path, target.path, counts, verified)


def _copy_matches(
    read: Conn, write: Conn, total: int, progress: Callable[[int, int], None] | None
) -> int:
    """Copy the matches and their actions page by page, then read every one back and compare
    its content hash with the source's; return how many matches verified."""
    digests: dict[int, str] = {}
    later: list[tuple[int, int]] = []  # (match, parent) where the parent's id is larger
    after = 0
    while page := _matches(read, after, PAGE):
        rows = []
        for row, actions in page:
            digests[int(row[0])] = match_digest(row, actions)
            values = list(row)
            if values[17] is not None and values[17] > values[0]:
                later.append((values[0], values[17]))
                values[17] = None
            rows.append(values)
        write.executemany(_insert("matches"), rows)
        write.executemany(_insert("actions"), [a for _, actions in page for a in actions])
        after = int(page[-1][0][0])
        if progress is not None:
            progress(len(digests), total)
    for match_id, parent in later:
        write.execute("UPDATE matches SET parent_id = ? WHERE id = ?", (parent, match_id))
    after = 0
    verified = 0
    while page := _matches(write, after, PAGE):
        for row, actions in page:
            if digests.pop(int(row[0]), None) != match_digest(row, actions):
                raise CopyError(
                    f"match {row[0]} does not read back as copied; nothing was copied",
                    verified=False,
                )
            verified += 1
        after = int(page[-1][0][0])
    if digests:
        raise CopyError(
            f"match {min(digests)} is missing from the copy; nothing was copied", verified=False
        )
    return verified

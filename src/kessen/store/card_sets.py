"""Designers' card sets in the match store: derive, revise, list, export, import and delete.

A set has a name, a ruleset, a parent (the shipped version or the set it was derived from), a
current revision (``head``: the content hash of its canonical TOML) and a changelog: one entry
per revision, with when it was made, the designer's note and what changed, computed by a diff
of the data (:func:`kessen.engine.set_data.diff`). Every revision's data is kept by content
hash in ``card_set_data`` and never changed; a match played with a set names the revision
(``card_set: NAME@HASH`` in its config) and replays under exactly that data: the store gives the
kernel the data of every revision it holds (:func:`attach`, done for every open store). Deleting
a set keeps the revisions a stored match, a simulation run or another set still names.

The shipped card data is never written: a set derived from it is a copy in the store. Whether
data is valid is the ruleset's question (:func:`kessen.engine.card_sets.format_for`), asked
before anything is saved.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from kessen.engine import card_sets as engine_sets
from kessen.engine.card_sets import SHIPPED, SetProblems, SetRef, format_for
from kessen.engine.contract import Json
from kessen.engine.set_data import Change, diff

if TYPE_CHECKING:
    from kessen.store.backend import Conn
    from kessen.store.match_store import MatchStore

MAX_SETS: Final = 200
"""The most card sets one store keeps (a bound on what a page can make it write)."""
MAX_NOTE: Final = 500
"""The longest note of a revision, in characters."""

Transaction = Callable[[], contextlib.AbstractContextManager["Conn"]]
Query = Callable[[str, Sequence[Any]], list[Any]]


class CardSetStoreError(ValueError):
    """A request the store refuses: an unknown set, a name taken or not allowed, too many.
    The message is English; :attr:`ja` says it in Japanese, :attr:`path` names the field of a
    request it is about (``name``), :attr:`missing` is true for a set that does not exist."""

    def __init__(self, message: str, ja: str = "", *, path: str = "", missing: bool = False):
        super().__init__(message)
        self.ja = ja or message
        self.path = path
        self.missing = missing

    def to_json(self) -> Json:
        """The refusal for a client: ``{"path", "en", "ja"}``."""
        return {"path": self.path, "en": str(self), "ja": self.ja}


@dataclass(frozen=True)
class LogEntry:
    """One revision of a set: its number, its data's hash, when, the note, what changed."""

    revision: int
    hash: str
    created: float
    note: str
    changes: list[Change]

    def to_json(self) -> Json:
        """The entry for a client, every change with its text in both languages."""
        return {
            "revision": self.revision,
            "hash": self.hash,
            "created": self.created,
            "note": self.note,
            "changes": [
                {**c.to_json(), "text": {"ja": c.text("ja"), "en": c.text("en")}}
                for c in self.changes
            ],
        }


@dataclass(frozen=True)
class CardSetInfo:
    """A stored set: its name, ruleset, parent, current revision and its revisions' count."""

    id: int
    name: str
    ruleset: str
    parent: str
    head: str
    created: float
    updated: float
    revisions: int = 0
    log: list[LogEntry] = field(default_factory=list)

    @property
    def ref(self) -> SetRef:
        """How a config names the set's current revision."""
        return SetRef(self.name, self.head)

    @property
    def parent_label(self) -> str:
        """The parent for people: ``kobo v3 (shipped)`` or ``set NAME@HASH…``."""
        kind, _, rest = self.parent.partition(":")
        if kind == SHIPPED:
            return f"{self.ruleset} {rest} (shipped)"
        ref = engine_sets.parse_ref(rest)
        return f"set {ref.short}…"

    def to_json(self) -> Json:
        """The set for a client (the changelog when it was read)."""
        out: Json = {
            "id": self.id,
            "name": self.name,
            "ruleset": self.ruleset,
            "parent": self.parent,
            "parent_label": self.parent_label,
            "head": self.head,
            "ref": str(self.ref),
            "created": self.created,
            "updated": self.updated,
            "revisions": self.revisions,
        }
        if self.log:
            out["log"] = [entry.to_json() for entry in self.log]
        return out


def check_name(name: str) -> str:
    """``name`` trimmed, or :class:`CardSetStoreError` saying what a set's name may be."""
    cleaned = " ".join(str(name).split())
    found = engine_sets.name_problem(cleaned)
    if found is not None:
        raise CardSetStoreError(str(found), found.ja, path="name")
    return cleaned


def shipped_parent(label: str) -> str:
    """The parent column of a set derived from a shipped version."""
    return f"{SHIPPED}:{label}"


class CardSets:
    """The card sets of one match store (see :meth:`MatchStore.card_sets`)."""

    def __init__(self, transaction: Transaction, query: Query) -> None:
        self._tx = transaction
        self._query = query

    # --- reading -----------------------------------------------------------------------

    def list_sets(self, ruleset: str | None = None) -> list[CardSetInfo]:
        """Every set (of ``ruleset``), by name."""
        where, params = ("WHERE s.ruleset = ?", [ruleset]) if ruleset else ("", [])
        rows = self._query(
            "SELECT s.id, s.name, s.ruleset, s.parent, s.head, s.created, s.updated, "
            "(SELECT COUNT(*) FROM card_set_log l WHERE l.set_id = s.id) "
            f"FROM card_sets s {where} ORDER BY s.name",
            params,
        )
        return [_info(row) for row in rows]

    def info(self, name: str, *, with_log: bool = False) -> CardSetInfo:
        """The set called ``name`` (with its changelog, oldest first, if asked)."""
        rows = self._query(
            "SELECT s.id, s.name, s.ruleset, s.parent, s.head, s.created, s.updated, "
            "(SELECT COUNT(*) FROM card_set_log l WHERE l.set_id = s.id) "
            "FROM card_sets s WHERE s.name = ?",
            (name,),
        )
        if not rows:
            raise CardSetStoreError(
                f"no card set {name!r} (`kessen sets list` lists them)",
                f"カードセット「{name}」はありません",
                missing=True,
            )
        found = _info(rows[0])
        if not with_log:
            return found
        log = [
            LogEntry(
                int(r[0]),
                str(r[1]),
                float(r[2]),
                str(r[3]),
                [Change.from_json(c) for c in json.loads(r[4])],
            )
            for r in self._query(
                "SELECT revision, hash, created, note, changes FROM card_set_log "
                "WHERE set_id = ? ORDER BY revision",
                (found.id,),
            )
        ]
        return dataclasses.replace(found, log=log)

    def revision_text(self, ruleset: str, digest: str) -> str | None:
        """The canonical TOML of the revision ``digest`` of a ``ruleset`` set, if kept."""
        rows = self._query(
            "SELECT data FROM card_set_data WHERE ruleset = ? AND hash = ?", (ruleset, digest)
        )
        return str(rows[0][0]) if rows else None

    def text(self, name: str) -> str:
        """The canonical TOML of the set's current revision."""
        found = self.info(name)
        text = self.revision_text(found.ruleset, found.head)
        if text is None:  # the schema's keys make this impossible; a damaged store
            raise CardSetError(f"card set {name!r}: its current data is missing from the store")
        return text

    def data(self, name: str) -> Json:
        """The JSON form of the set's current revision."""
        found = self.info(name)
        return format_for(found.ruleset).from_toml(self.text(name), f"card set {name}")

    def source_data(self, ruleset: str, source: str) -> tuple[Json, str]:
        """The JSON form of a set or of a shipped version of ``ruleset``, and its parent
        column: ``source`` is a set's name, a shipped label (``v3``) or ``shipped`` (the
        newest shipped version)."""
        fmt = format_for(ruleset)
        label = fmt.parents()[0] if source == SHIPPED else source
        if label in fmt.parents():
            return fmt.shipped(label), shipped_parent(label)
        found = self.info(source)
        if found.ruleset != ruleset:
            raise CardSetStoreError(
                f"card set {source!r} is a {found.ruleset} set, not {ruleset}",
                f"カードセット「{source}」は {found.ruleset} のセットです"
                f"（{ruleset} ではありません）",
                path="from",
            )
        return self.data(source), f"set:{found.ref}"

    def export(self, name: str) -> str:
        """The set as a TOML file: a comment naming it, then its canonical data."""
        found = self.info(name, with_log=True)
        head = [
            f"# Kessen card set {json.dumps(found.name, ensure_ascii=False)} ({found.ruleset}), "
            f"derived from {found.parent_label}",
            f"# revision {found.revisions}, sha256 {found.head}",
            "# Edit it and bring it back with: kessen sets import FILE --name NAME",
            "",
        ]
        return "\n".join(head) + self.text(name)

    # --- writing -----------------------------------------------------------------------

    def derive(self, name: str, ruleset: str, source: str, note: str = "") -> CardSetInfo:
        """A new set ``name`` holding the data of ``source`` (a shipped version of
        ``ruleset``, or another set), its first changelog entry naming where it came from."""
        data, parent = self.source_data(ruleset, source)
        origin = Change("derived", "set", _origin(ruleset, parent))
        return self._create(name, ruleset, parent, data, note, [origin])

    def create(
        self, name: str, ruleset: str, data: Json, source: str = SHIPPED, note: str = ""
    ) -> CardSetInfo:
        """A new set ``name`` holding ``data`` (checked by the ruleset), derived from
        ``source``: its first entry names the parent and what differs from it."""
        parent_data, parent = self.source_data(ruleset, source)
        fmt = format_for(ruleset)
        changes = [Change("derived", "set", _origin(ruleset, parent))]
        changes += diff(fmt.normalize(parent_data), fmt.normalize(data), fmt.card_key)
        return self._create(name, ruleset, parent, data, note, changes)

    def _create(
        self, name: str, ruleset: str, parent: str, data: Json, note: str, changes: list[Change]
    ) -> CardSetInfo:
        name = check_name(name)
        text, digest = engine_sets.canonical(format_for(ruleset), data)
        now = time.time()
        with self._tx() as conn:
            conn.lock("card_sets")  # the count, the name and the insert as one step
            (count,) = conn.execute("SELECT COUNT(*) FROM card_sets").fetchone()
            if count >= MAX_SETS:
                raise CardSetStoreError(
                    f"at most {MAX_SETS} card sets; delete one first",
                    f"カードセットは{MAX_SETS}個までです。どれかを削除してください",
                )
            taken = conn.execute("SELECT 1 FROM card_sets WHERE name = ?", (name,)).fetchone()
            if taken is not None:
                raise CardSetStoreError(
                    f"a card set called {name!r} exists; choose another name",
                    f"「{name}」という名前のカードセットがもうあります。別の名前にしてください",
                    path="name",
                )
            self._keep(conn, ruleset, digest, text)
            set_id = conn.insert(
                "INSERT INTO card_sets (name, ruleset, parent, head, created, updated) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (name, ruleset, parent, digest, now, now),
            )
            self._log(conn, set_id, 1, digest, now, note, changes)
        return self.info(name, with_log=True)

    def save(self, name: str, data: Json, note: str = "") -> tuple[CardSetInfo, list[Change]]:
        """Make ``data`` (checked by the set's ruleset: :class:`SetProblems` naming every
        field that fails) the set's next revision; returns the set and what changed (nothing
        changes, and no revision is added, when the data is the current revision's)."""
        found = self.info(name)
        fmt = format_for(found.ruleset)
        text, digest = engine_sets.canonical(fmt, data)
        now = time.time()
        with self._tx() as conn:
            # One revision at a time per set: the head read here is the one the diff is
            # against, whoever saved last.
            conn.lock(f"card_set:{found.id}")
            head = conn.execute("SELECT head FROM card_sets WHERE id = ?", (found.id,)).fetchone()
            if head is None:
                raise CardSetStoreError(
                    f"no card set {name!r}", f"カードセット「{name}」はありません", missing=True
                )
            if head[0] == digest:
                changes: list[Change] = []
            else:
                (before,) = conn.execute(
                    "SELECT data FROM card_set_data WHERE ruleset = ? AND hash = ?",
                    (found.ruleset, head[0]),
                ).fetchone()
                old = fmt.from_toml(str(before), f"card set {name}")
                changes = diff(old, fmt.normalize(data), fmt.card_key)
                (last,) = conn.execute(
                    "SELECT MAX(revision) FROM card_set_log WHERE set_id = ?", (found.id,)
                ).fetchone()
                self._keep(conn, found.ruleset, digest, text)
                self._log(conn, found.id, int(last or 0) + 1, digest, now, note, changes)
                conn.execute(
                    "UPDATE card_sets SET head = ?, updated = ? WHERE id = ?",
                    (digest, now, found.id),
                )
        return self.info(name, with_log=True), changes

    def import_toml(
        self,
        name: str,
        text: str,
        *,
        ruleset: str | None = None,
        source: str = SHIPPED,
        note: str = "",
    ) -> tuple[CardSetInfo, list[Change], bool]:
        """A set's TOML file as the next revision of set ``name``, or as a new set derived from
        ``source`` when there is none of that name (``ruleset`` needed then); returns the set,
        what changed and whether it is new."""
        existing = self._exists(name)
        if existing is not None:
            if ruleset is not None and ruleset != existing:
                raise CardSetStoreError(
                    f"card set {name!r} is a {existing} set, not {ruleset}",
                    f"カードセット「{name}」は {existing} のセットです（{ruleset} ではありません）",
                    path="ruleset",
                )
            data = format_for(existing).from_toml(text, f"card set {name}")
            found, changes = self.save(name, data, note)
            return found, changes, False
        if ruleset is None:
            raise CardSetStoreError(
                f"no card set {name!r}; name its game to create it",
                f"カードセット「{name}」はありません。作るにはゲームを選んでください",
                path="ruleset",
            )
        data = format_for(ruleset).from_toml(text, f"card set {name}")
        created = self.create(name, ruleset, data, source, note)
        return created, created.log[-1].changes, True

    def rename(self, name: str, new_name: str) -> CardSetInfo:
        """Give the set another name (its revisions keep their hashes: records still name the
        old name, which is only a label)."""
        found = self.info(name)
        new_name = check_name(new_name)
        with self._tx() as conn:
            conn.lock("card_sets")
            if conn.execute("SELECT 1 FROM card_sets WHERE name = ?", (new_name,)).fetchone():
                raise CardSetStoreError(
                    f"a card set called {new_name!r} exists",
                    f"「{new_name}」という名前のカードセットがもうあります",
                    path="name",
                )
            conn.execute("UPDATE card_sets SET name = ? WHERE id = ?", (new_name, found.id))
        return self.info(new_name, with_log=True)

    def delete(self, name: str) -> int:
        """Forget set ``name`` and its changelog, and the data of its revisions that no stored
        match, simulation run or other set names; returns how many revisions' data went."""
        found = self.info(name)
        with self._tx() as conn:
            conn.lock("card_sets")
            conn.lock(f"card_set:{found.id}")  # no revision saved meanwhile
            hashes = {
                str(r[0])
                for r in conn.execute(
                    "SELECT hash FROM card_set_log WHERE set_id = ?", (found.id,)
                ).fetchall()
            }
            conn.execute("DELETE FROM card_set_log WHERE set_id = ?", (found.id,))
            conn.execute("DELETE FROM card_sets WHERE id = ?", (found.id,))
            gone = 0
            for digest in sorted(hashes):
                if _still_named(conn, found.ruleset, digest):
                    continue
                conn.execute(
                    "DELETE FROM card_set_data WHERE ruleset = ? AND hash = ?",
                    (found.ruleset, digest),
                )
                gone += 1
        return gone

    def keep(self, ruleset: str, text: str) -> str:
        """Keep a revision's data (an imported record's set) without a set; returns its hash.
        ``text`` must be the data's canonical TOML (:class:`SetProblems` otherwise)."""
        with self._tx() as conn:
            return self.keep_in(conn, ruleset, text)

    @staticmethod
    def keep_in(conn: Conn, ruleset: str, text: str) -> str:
        """:meth:`keep` inside the caller's transaction ``conn`` (a match imported with the
        set it was played with)."""
        fmt = format_for(ruleset)
        canonical_text, digest = engine_sets.canonical(fmt, fmt.from_toml(text, "card set"))
        if canonical_text != text:
            raise _not_canonical()
        CardSets._keep(conn, ruleset, digest, text)
        return digest

    def _exists(self, name: str) -> str | None:
        rows = self._query("SELECT ruleset FROM card_sets WHERE name = ?", (name,))
        return str(rows[0][0]) if rows else None

    @staticmethod
    def _keep(conn: Conn, ruleset: str, digest: str, text: str) -> None:
        conn.execute(
            "INSERT INTO card_set_data (ruleset, hash, data) VALUES (?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            (ruleset, digest, text),
        )

    @staticmethod
    def _log(
        conn: Conn,
        set_id: int,
        revision: int,
        digest: str,
        now: float,
        note: str,
        changes: list[Change],
    ) -> None:
        conn.execute(
            "INSERT INTO card_set_log (set_id, revision, hash, created, note, changes) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                set_id,
                revision,
                digest,
                now,
                " ".join(str(note).split())[:MAX_NOTE],
                json.dumps([c.to_json() for c in changes], ensure_ascii=False),
            ),
        )


def _not_canonical() -> SetProblems:
    return SetProblems(
        [
            engine_sets.FieldProblem(
                "",
                "the set's data is not in its canonical form (its hash would not match)",
                "セットのデータが正規の形ではありません（ハッシュが合いません）",
            )
        ]
    )


def _origin(ruleset: str, parent: str) -> str:
    kind, _, rest = parent.partition(":")
    return f"{ruleset} {rest}" if kind == SHIPPED else rest


def _still_named(conn: Conn, ruleset: str, digest: str) -> bool:
    """Whether another set's changelog, a stored match or a simulation run names ``digest``."""
    if conn.execute(
        "SELECT 1 FROM card_set_log l JOIN card_sets s ON s.id = l.set_id "
        "WHERE l.hash = ? AND s.ruleset = ?",
        (digest, ruleset),
    ).fetchone():
        return True
    pattern = f"%@{digest}%"
    if conn.execute(
        "SELECT 1 FROM matches WHERE ruleset = ? AND config LIKE ?", (ruleset, pattern)
    ).fetchone():
        return True
    found = conn.execute("SELECT 1 FROM sim_runs WHERE spec LIKE ?", (pattern,)).fetchone()
    return found is not None


def _info(row: Sequence[Any]) -> CardSetInfo:
    return CardSetInfo(
        id=int(row[0]),
        name=str(row[1]),
        ruleset=str(row[2]),
        parent=str(row[3]),
        head=str(row[4]),
        created=float(row[5]),
        updated=float(row[6]),
        revisions=int(row[7]),
    )


def attach(store: MatchStore) -> Callable[[], None]:
    """Let the kernel read the revisions ``store`` keeps (a record played with a set replays,
    a config naming one starts); returns the function that lets go again. The store is held
    weakly: a store that was dropped without closing answers nothing."""
    ref = weakref.ref(store)

    def resolve(ruleset: str, digest: str) -> str | None:
        found = ref()
        if found is None:
            return None
        return found.card_sets().revision_text(ruleset, digest)

    return engine_sets.add_resolver(resolve)


def pin(sets: CardSets, ruleset: str, value: Any) -> str:
    """A config's ``card_set`` as ``NAME@HASH``: a set's name alone becomes its current
    revision (a record must name the data it was played with); a full reference stays."""
    if isinstance(value, str) and "@" not in value:
        found = sets.info(value)
        if found.ruleset != ruleset:
            raise CardSetStoreError(
                f"card set {value!r} is a {found.ruleset} set, not {ruleset}",
                f"カードセット「{value}」は {found.ruleset} のセットです"
                f"（{ruleset} ではありません）",
                path="card_set",
            )
        return str(found.ref)
    return str(engine_sets.parse_ref(value))


CardSetError = engine_sets.CardSetError
"""Re-exported: a set the kernel cannot use."""

"""Leases on live matches: which of several server processes sharing one store serves each one.

The ``match_leases`` table (schema version 6, the same on both databases) holds one row per
live server session: its id (``session``, the id in the game's URLs), its record
(``match_id``; a match between two people changes record once, when its guest joins), the
process that serves it (``owner``, an id each ``kessen play`` draws when it starts), until when
(``expires_at``, seconds since the epoch by the *database's* clock, so the machines' clocks
never matter), and ``wanted``: another process that asked for it.

A :class:`LeaseTable` is one process's side of it (``MatchStore.leases(owner, seconds)``):

- :meth:`~LeaseTable.claim` a new session (or its new record), :meth:`~LeaseTable.renew`
  every lease of the process in one statement, every few seconds;
- :meth:`~LeaseTable.take` a session whose lease has expired (its owner died: nobody renewed
  it) or was released, atomically: of several processes taking one lease at once, exactly one
  gets it. The take locks the match's row before changing hands, so an action its old owner
  was writing at that moment is stored before the new owner reads the record;
- :meth:`~LeaseTable.ask` for a session another live process holds (the proxy sent its
  players here), and see the sessions others asked of this one (:meth:`~LeaseTable.wanted`),
  which the owner :meth:`~LeaseTable.release`\\ s once it has let them go;
- :meth:`~LeaseTable.drop` the lease of a session that ended or was left.

**The fence.** A store whose :attr:`~kessen.store.match_store.MatchStore.fence` is a lease
table writes an action, an undo or a match's end only while the table's owner holds the
match's lease, checked inside the write's own transaction (after the match's row is locked):
a process that lost a lease (paused past its expiry, cut off from the database) can never
write into a match another process now serves, whatever its clock or its memory says.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kessen.store.backend import Conn
from kessen.store.model import StoreError

LEASE_SECONDS: Final = 10.0
"""How long a lease lasts unless renewed: the longest a dead process's matches wait for
another process (``kessen play --lease-seconds``)."""
MIN_SECONDS: Final = 1.0
MAX_SECONDS: Final = 600.0
FREE: Final = 0.0
"""``expires_at`` of a released lease: expired since the epoch, anyone's to take."""
NOW_SQL: Final[dict[str, str]] = {
    "sqlite": "((julianday('now') - 2440587.5) * 86400.0)",
    "postgresql": "CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)",
}
"""The database's clock in seconds since the epoch, as each database says it."""


class LeaseLostError(StoreError):
    """This process no longer holds the lease of a match it wrote to: another serves it."""


@dataclass(frozen=True)
class Holder:
    """Who holds a lease this process could not take."""

    owner: str
    left: float
    """Seconds before the lease expires unless its owner renews it."""
    match_id: int


Transaction = Callable[[], contextlib.AbstractContextManager[Conn]]
Query = Callable[[str, Sequence[Any]], list[Any]]


class LeaseTable:
    """The leases as one process (``owner``) sees them; each method is its own transaction
    (see the module's text). Built by :meth:`kessen.store.match_store.MatchStore.leases`."""

    def __init__(
        self,
        tx: Transaction,
        query: Query,
        kind: str,
        for_update: str,
        owner: str,
        seconds: float = LEASE_SECONDS,
    ) -> None:
        if not owner or len(owner) > 200:
            raise ValueError("an owner id is 1 to 200 characters")
        if not MIN_SECONDS <= seconds <= MAX_SECONDS:
            raise ValueError(
                f"a lease lasts {MIN_SECONDS:g} to {MAX_SECONDS:g} seconds, not {seconds:g}"
            )
        self._tx = tx
        self._query = query
        self._for_update = for_update
        self.owner = owner
        self.seconds = seconds
        self.now = NOW_SQL[kind]

    # --- this process's own sessions ----------------------------------------------------

    def claim(self, session: str, match_id: int) -> bool:
        """Hold ``session`` (recorded as ``match_id``): a session this process just made,
        restored, or whose record changed. False (nothing changed) if another live process
        holds it."""
        with self._tx() as conn:
            cursor = conn.execute(
                "INSERT INTO match_leases (session, match_id, owner, expires_at) "
                f"VALUES (?, ?, ?, {self.now} + ?) "
                "ON CONFLICT (session) DO UPDATE SET match_id = excluded.match_id, "
                "owner = excluded.owner, expires_at = excluded.expires_at, wanted = NULL "
                "WHERE match_leases.owner = excluded.owner "
                f"OR match_leases.expires_at <= {self.now}",
                (session, match_id, self.owner, self.seconds),
            )
            return cursor.rowcount == 1

    def renew(self) -> set[str]:
        """Push every lease of this process :attr:`seconds` ahead, in one statement; the
        sessions it still holds (one missing was taken over by another process)."""
        rows = self._query(
            f"UPDATE match_leases SET expires_at = {self.now} + ? WHERE owner = ? "
            "RETURNING session",
            (self.seconds, self.owner),
        )
        return {str(r[0]) for r in rows}

    def wanted(self) -> list[str]:
        """The sessions of this process that another process asked for."""
        rows = self._query(
            "SELECT session FROM match_leases WHERE owner = ? AND wanted IS NOT NULL",
            (self.owner,),
        )
        return [str(r[0]) for r in rows]

    def release(self, session: str) -> bool:
        """Let ``session`` go to whoever takes it next (this process no longer serves it)."""
        with self._tx() as conn:
            cursor = conn.execute(
                "UPDATE match_leases SET expires_at = ?, wanted = NULL "
                "WHERE session = ? AND owner = ?",
                (FREE, session, self.owner),
            )
            return cursor.rowcount == 1

    def release_all(self) -> int:
        """Let every session of this process go (it stops); how many there were."""
        with self._tx() as conn:
            cursor = conn.execute(
                "UPDATE match_leases SET expires_at = ?, wanted = NULL WHERE owner = ?",
                (FREE, self.owner),
            )
            return cursor.rowcount

    def drop(self, session: str) -> None:
        """Forget the lease of ``session``: its match ended, or its player left it."""
        with self._tx() as conn:
            conn.execute(
                "DELETE FROM match_leases WHERE session = ? AND owner = ?", (session, self.owner)
            )

    # --- the others' sessions -----------------------------------------------------------

    def take(self, session: str) -> int | Holder | None:
        """Serve ``session`` from now on if nobody live holds it: its match id, once the lease
        is this process's; the :class:`Holder` if another live process holds it; ``None`` if
        no server session has that id."""
        with self._tx() as conn:
            row = conn.execute(
                f"SELECT match_id, owner, expires_at - {self.now} FROM match_leases "
                "WHERE session = ?" + self._for_update,
                (session,),
            ).fetchone()
            if row is None:
                return None
            match_id, owner, left = int(row[0]), str(row[1]), float(row[2])
            if owner != self.owner and left > 0:
                return Holder(owner, left, match_id)
            # An action the old owner is writing holds this row: it is stored before ours.
            conn.execute("SELECT id FROM matches WHERE id = ?" + self._for_update, (match_id,))
            conn.execute(
                f"UPDATE match_leases SET owner = ?, expires_at = {self.now} + ?, wanted = NULL "
                "WHERE session = ?",
                (self.owner, self.seconds, session),
            )
            return match_id

    def ask(self, session: str) -> None:
        """Ask the live owner of ``session`` to let it go (it looks every fraction of a
        second: :meth:`wanted`)."""
        with self._tx() as conn:
            conn.execute(
                "UPDATE match_leases SET wanted = ? WHERE session = ? AND owner <> ?",
                (self.owner, session, self.owner),
            )

    def holder(self, session: str) -> Holder | None:
        """Who holds ``session``'s lease now (expired or not), or ``None``."""
        rows = self._query(
            f"SELECT owner, expires_at - {self.now}, match_id FROM match_leases WHERE session = ?",
            (session,),
        )
        if not rows:
            return None
        return Holder(str(rows[0][0]), float(rows[0][1]), int(rows[0][2]))

    def live_elsewhere(self) -> set[int]:
        """The matches other live processes serve now (for the history's ``live`` state)."""
        rows = self._query(
            f"SELECT match_id FROM match_leases WHERE owner <> ? AND expires_at > {self.now}",
            (self.owner,),
        )
        return {int(r[0]) for r in rows}

    # --- matches recorded without a lease ---------------------------------------------

    def unleased(self, sources: Iterable[str] = ("server", "branch")) -> list[int]:
        """Unfinished matches of ``sources`` that have no lease row (recorded before leases
        existed, or copied from another store): the candidates for :meth:`adopt`."""
        kinds = list(sources)
        marks = ",".join("?" * len(kinds))
        rows = self._query(
            "SELECT m.id FROM matches m WHERE m.finished IS NULL "
            f"AND m.source IN ({marks}) "
            "AND NOT EXISTS (SELECT 1 FROM match_leases l WHERE l.match_id = m.id) ORDER BY m.id",
            kinds,
        )
        return [int(r[0]) for r in rows]

    def adopt(self, sessions: Iterable[tuple[str, int]]) -> int:
        """Give each ``(session, match_id)`` a free lease (anyone's to take) unless it has
        one; how many were added."""
        added = 0
        with self._tx() as conn:
            for session, match_id in sessions:
                cursor = conn.execute(
                    "INSERT INTO match_leases (session, match_id, owner, expires_at) "
                    "VALUES (?, ?, '', ?) ON CONFLICT DO NOTHING",
                    (session, match_id, FREE),
                )
                added += max(cursor.rowcount, 0)
        return added

    # --- the fence ----------------------------------------------------------------------

    def fence(self, conn: Conn, match_id: int) -> None:
        """Inside a write's transaction (the match's row locked): raise
        :class:`LeaseLostError` unless this process holds ``match_id``'s lease."""
        row = conn.execute(
            "SELECT 1 FROM match_leases WHERE match_id = ? AND owner = ?", (match_id, self.owner)
        ).fetchone()
        if row is None:
            raise LeaseLostError(
                f"match {match_id}: this server process no longer serves it (another process "
                "took it over); nothing was written"
            )

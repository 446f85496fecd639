"""The server's hold on a match store: an exclusive lock file beside the database.

Two servers on one database would both resume its unfinished matches and fight over them, so
a server holds ``<database>.lock`` for its whole life (``flock``: the kernel releases it when
the process dies, even by ``kill -9``, so a stale lock never blocks a restart). The file keeps
the holder's process id for the message the next server prints. Other commands (``kessen
sim``, ``kessen store``) share the database freely and take no lock.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import IO

from kessen.store.db import MEMORY, SchemaError

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
    """An exclusive, non-blocking lock on a database, held until :meth:`release`."""

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

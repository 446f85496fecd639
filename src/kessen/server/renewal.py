"""A server renewing its process in place once a load has left: same pid, same port, fresh heap.

CPython gives back little of the memory a load of matches took, even once every match has left
(docs/scaling.md, "What holds the memory after the matches"): its allocator frees an arena only
when all of it is empty, and a few long-lived objects pin most of them. A server that has held
many matches and holds none any more therefore executes itself again (``execve``: the same
process id, the same command line and environment) and keeps serving on the same listening
socket, handed over open: a connection that arrives in between waits in the socket's queue and
is answered by the new image, about a second later. Nothing lives only in memory then: every
match has left it (finished matches stay in the store, from which their pages and replays
read), and no balance run is queued or running; requests in flight are answered first (the
graceful shutdown of uvicorn), and a game connection exists only with its match. What the hub
remembers of the matches that left (:attr:`~kessen.server.hub.Hub.gone`: their record and a
digest of their tokens, so that a late connection is told where the record is) crosses over in
a private file.

The check runs in a thread beside the server every :data:`CHECK_EVERY` seconds; renewal is due
when the resident memory has grown by :attr:`Renewal.growth` bytes over what it was as the
server was about to serve, and every condition above holds for two checks in a row. Linux only
(the resident size is read from ``/proc``; elsewhere the server never renews), and not on a Ray
cluster (the connection to it would be made again on every renewal).
"""

from __future__ import annotations

import json
import logging
import os
import socket
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from kessen.server.hub import Hub

_log = logging.getLogger(__name__)

CHECK_EVERY = 2.0
"""Seconds between two checks of whether renewal is due."""
GROWTH_MB = 32.0
"""The default growth of the resident memory, in MB, past which an empty server renews."""
FD_VARIABLE = "KESSEN_LISTEN_FD"
"""The environment variable naming the listening socket a renewed server serves on."""
FROM_VARIABLE = "KESSEN_RENEWED_FROM"
"""The environment variable holding the resident bytes the server had before its renewal."""
STATE_VARIABLE = "KESSEN_RENEWAL_STATE"
"""The environment variable naming the file of what the hub remembers of the sessions gone."""


def resident_bytes() -> int | None:
    """This process's resident memory in bytes, or None where ``/proc`` does not tell."""
    try:
        fields = Path("/proc/self/statm").read_text().split()
        return int(fields[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def supported() -> bool:
    """Whether this platform can renew a server in place (``execve`` keeping the process and
    an inherited socket, and a resident size to read)."""
    return os.name == "posix" and resident_bytes() is not None


@dataclass
class Renewal:
    """The renewal of one server process (see the module docstring).

    ``growth``: bytes of resident memory past the start that make an empty server renew;
    ``busy``: whether anything besides sessions keeps it (balance runs)."""

    growth: int
    busy: Callable[[], bool] = lambda: False
    start: int | None = None
    """Resident bytes when the watch began, as the server was about to serve."""
    due_at: int | None = None
    """Resident bytes when renewal was found due (None while it is not)."""
    kept: int | None = None
    """A duplicate of the listening socket, kept open across the shutdown for the new image."""
    hub: Hub | None = None
    """The hub watched (what it remembers of the sessions gone crosses over)."""
    _stop: threading.Event = field(default_factory=threading.Event)

    def quiet(self, hub: Hub) -> bool:
        """Whether nothing lives in this process only: no session (and at least one has come
        and gone, so a fresh server does not renew itself) and no balance run. Requests in
        flight are answered before the old image stops (uvicorn's graceful shutdown), and a
        game connection exists only with its session."""
        return not hub.sessions and hub.left > 0 and not self.busy()

    def grown(self) -> int | None:
        """The resident bytes now if they are :attr:`growth` past the start, else None."""
        now = resident_bytes()
        if now is None or self.start is None or now - self.start < self.growth:
            return None
        return now

    def watch(self, server: Any, hub: Hub, sock: socket.socket) -> threading.Thread:
        """Start checking (in a daemon thread) whether renewal is due; when it is, keep a
        duplicate of ``sock`` and tell the uvicorn ``server`` to shut down gracefully."""
        self.hub = hub
        self.start = resident_bytes()

        def check() -> None:
            before = False
            while not self._stop.wait(CHECK_EVERY):
                if not server.started:
                    continue
                now = self.grown() if self.quiet(hub) else None
                if now is None:
                    before = False
                    continue
                if before:
                    self.kept = os.dup(sock.fileno())
                    self.due_at = now
                    server.should_exit = True
                    return
                before = True

        thread = threading.Thread(target=check, name="kessen-renewal", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        """Stop checking."""
        self._stop.set()

    @property
    def due(self) -> bool:
        """Whether renewal was found due (the server shut down for it)."""
        return self.kept is not None

    def execute(self) -> NoReturn:
        """Execute this server again in place, serving on the kept socket (call once the old
        image has shut down and closed its store and workers)."""
        assert self.kept is not None and self.due_at is not None and self.hub is not None
        os.set_inheritable(self.kept, True)
        env = dict(os.environ)
        env[FD_VARIABLE] = str(self.kept)
        env[FROM_VARIABLE] = str(self.due_at)
        env[STATE_VARIABLE] = save_gone(self.hub)
        sys.stdout.flush()
        sys.stderr.flush()
        logging.shutdown()
        os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], env)


def save_gone(hub: Hub) -> str:
    """Write what ``hub`` remembers of the sessions gone to a private file; its path."""
    handle, path = tempfile.mkstemp(prefix="kessen-renewal-", suffix=".json")
    entries = [[sid, match, sorted(digests)] for sid, (match, digests) in hub.gone.items()]
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        json.dump(entries, out)
    return path


def load_gone(hub: Hub, path: str) -> None:
    """Give ``hub`` what the image before this one remembered of the sessions gone (the file
    at ``path``, removed; a file that cannot be read costs only the messages it held)."""
    try:
        entries = json.loads(Path(path).read_text(encoding="utf-8"))
        for sid, match, digests in entries:
            hub.gone[str(sid)] = (
                int(match) if match is not None else None,
                frozenset(str(d) for d in digests),
            )
    except (OSError, ValueError, TypeError) as err:
        _log.warning("the sessions gone before the renewal are forgotten: %s", err)
    finally:
        Path(path).unlink(missing_ok=True)


def inherited() -> tuple[socket.socket, int | None, str | None] | None:
    """In a renewed server: the listening socket handed over, the resident bytes before the
    renewal and the file of the sessions gone (the variables are removed, so that a later
    renewal sets them afresh); None in a server started anew."""
    fd = os.environ.pop(FD_VARIABLE, None)
    before = os.environ.pop(FROM_VARIABLE, None)
    state = os.environ.pop(STATE_VARIABLE, None)
    if fd is None:
        return None
    sock = socket.socket(fileno=int(fd))
    os.set_inheritable(sock.fileno(), False)
    return sock, int(before) if before and before.isdigit() else None, state

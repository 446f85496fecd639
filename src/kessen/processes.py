"""Worker processes that leave with the process that owns their pool.

A pool's workers wait for work from their owner; if the owner is killed without its shutdown
(a signal, an out-of-memory kill), a worker in the middle of a task would finish it first, and
a worker started by a fork server (the simulator's) would wait for ever: the fork server
outlives the owner. Every pool of Kessen (COM's workers in the server, the tournament's, the
simulator's) starts its workers with :func:`leave_with_owner`, which watches the owner and ends
the worker once it is gone.
"""

from __future__ import annotations

import os
import threading
import time

OWNER_CHECK_SECONDS = 1.0
"""How often a worker checks that its pool's owner is still there."""


def owner_alive(owner: int) -> bool:
    """Whether process ``owner`` still exists (it may be another user's: then it exists)."""
    try:
        os.kill(owner, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def leave_with_owner(owner: int) -> None:
    """In a new worker (a pool's ``initializer``, given the owner's ``os.getpid()``): end this
    process as soon as ``owner`` is gone. The owner is the worker's parent where it starts its
    workers itself (``spawn``, ``fork``): a changed parent says it died, even before the worker
    started; with a fork server in between, the owner's own process is asked. Watched by a
    daemon thread; the worker's own work is not disturbed."""

    def watch() -> None:
        while os.getppid() == owner or owner_alive(owner):
            time.sleep(OWNER_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="owner-watch", daemon=True).start()

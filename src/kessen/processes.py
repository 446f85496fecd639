"""Worker processes that leave with the process that started them.

A pool's workers wait for work from their parent; if the parent is killed without its shutdown
(a signal, an out-of-memory kill), they would wait for ever and hold their memory. Every pool of
Kessen (COM's workers in the server, the tournament's, the simulator's) starts its workers with
:func:`leave_with_parent`, which watches the parent and ends the worker once it is gone.
"""

from __future__ import annotations

import os
import threading
import time

PARENT_CHECK_SECONDS = 1.0
"""How often a worker checks that its parent is still there."""


def leave_with_parent(parent: int) -> None:
    """In a new worker (a pool's ``initializer``, given ``os.getpid()`` of the parent): end this
    process as soon as ``parent`` is no longer its parent (it died and the worker was
    re-parented). Watched by a daemon thread; the worker's own work is not disturbed."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()

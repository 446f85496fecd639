"""Run a coroutine to its end on a fresh event loop of its own thread: a test that does so
passes whatever ran before it in the same process (Playwright's synchronous API keeps an
event loop running in the main thread for as long as its browser lives)."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_fresh(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` in a thread of its own; its result (or its exception)."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, main).result()

"""Where simulated games run: this process, local worker processes, or a Ray cluster.

Every backend maps a picklable top-level function over tasks and yields the results as they
complete (in any order); the tournament never depends on that order. A bounded number of
tasks is in flight at once, so a long run neither floods memory nor the scheduler.

- :class:`InlineBackend`: in this process (one core; for tests and the 1-core benchmark);
- :class:`LocalBackend`: ``concurrent.futures.ProcessPoolExecutor`` on all cores (default);
- :class:`RayBackend`: Ray tasks, on a local Ray started for the run (``address="auto"``) or on
  a running cluster (``address="ray://host:10001"`` or ``"host:6379"``). The workers need the
  same Kessen installed (or a ``runtime_env``).
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import socket
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Final, TypeVar

from kessen.processes import leave_with_owner

T = TypeVar("T")
R = TypeVar("R")

_END: Any = object()
IN_FLIGHT_PER_WORKER = 3
"""Tasks queued per worker: enough to keep each busy, few enough to cancel quickly."""


class BackendError(RuntimeError):
    """A backend that cannot start (Ray missing or unreachable...)."""


class Backend(ABC):
    """Runs tasks somewhere and yields their results as they complete."""

    name: str = "backend"
    workers: int = 1

    @abstractmethod
    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        """``fn(item)`` for every item, in completion order."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release the workers."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class InlineBackend(Backend):
    """Runs every task in this process, in order."""

    name = "inline"
    workers = 1

    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        """Call ``fn`` on each item in turn."""
        for item in items:
            yield fn(item)


def _context() -> Any:
    """``forkserver`` where there is one (no fork of a threaded parent), else ``spawn``."""
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["kessen.sim.tournament"])
        return ctx
    return multiprocessing.get_context("spawn")


class LocalBackend(Backend):
    """Worker processes on this machine (all cores by default)."""

    name = "local"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=_context(),
                initializer=leave_with_owner,
                initargs=(os.getpid(),),
            )
        return self._pool

    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        """Submit a bounded window of tasks, yield each result as it completes."""
        pool = self._executor()
        queue = iter(items)
        limit = self.workers * IN_FLIGHT_PER_WORKER
        pending: set[Future[R]] = set()
        try:
            for item in queue:
                pending.add(pool.submit(fn, item))
                if len(pending) >= limit:
                    break
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    nxt = next(queue, _END)
                    if nxt is not _END:
                        pending.add(pool.submit(fn, nxt))
                    yield future.result()
        finally:
            for future in pending:
                future.cancel()

    def close(self) -> None:
        """Stop the workers (queued tasks are cancelled)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def ray_module() -> Any:
    """The ``ray`` module, or :class:`BackendError` saying how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise BackendError(
            "Ray is not installed: pip install 'kessen[ray]' (or pip install ray)"
        ) from None


CONNECT_TIMEOUT: Final = 5.0
"""Seconds to reach a cluster's address before joining it (Ray itself tries for minutes)."""


def _endpoint(address: str) -> tuple[str, int] | None:
    """The host and port of a cluster's address (``ray://HOST:PORT`` or ``HOST:PORT``)."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():
        return None
    return host.strip("[]") or "127.0.0.1", int(port)


def refuse_unreachable(address: str, given: str, source: str = "") -> None:
    """:class:`~kessen.sim.backends.BackendError` if nothing accepts a connection at
    ``address`` (which ``source`` named, if not the user) within :data:`CONNECT_TIMEOUT`
    seconds: Ray would keep trying for minutes."""
    endpoint = _endpoint(address)
    if endpoint is None:
        return
    try:
        socket.create_connection(endpoint, timeout=CONNECT_TIMEOUT).close()
    except OSError as err:
        where = f"{endpoint[0]}:{endpoint[1]}"
        why = err.strerror or type(err).__name__
        named = f" ({source})" if source else ""
        raise BackendError(
            f"cannot join Ray at {given!r}: nothing answers at {where}{named}: {why}"
        ) from None


class RayBackend(Backend):
    """Ray tasks (one CPU each).

    ``address="auto"`` starts a local Ray for the run (``num_cpus`` CPUs, default all) and
    stops it at :meth:`close`; another address joins that cluster. If Ray is already
    initialized in this process, it is used as it is and left running.
    """

    name = "ray"

    def __init__(self, address: str = "auto", num_cpus: int | None = None) -> None:
        ray = ray_module()
        self._ray = ray
        self._owned = False
        if not ray.is_initialized():
            if address not in ("auto", "local", ""):
                refuse_unreachable(address, address)  # Ray alone retries for minutes
            try:
                if address in ("auto", "local", ""):
                    ray.init(
                        num_cpus=num_cpus,
                        include_dashboard=False,
                        log_to_driver=False,
                        logging_level="ERROR",
                    )
                else:
                    ray.init(address=address, log_to_driver=False, logging_level="ERROR")
            except Exception as err:  # connection refused, bad address, ...
                raise BackendError(f"cannot start or join Ray at {address!r}: {err}") from err
            self._owned = True
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote: dict[Callable[..., Any], Any] = {}

    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        """Submit a bounded window of Ray tasks, yield each result as it completes."""
        ray = self._ray
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = ray.remote(num_cpus=1)(fn)
        queue = iter(items)
        limit = self.workers * IN_FLIGHT_PER_WORKER
        pending: list[Any] = []
        try:
            for item in queue:
                pending.append(remote.remote(item))
                if len(pending) >= limit:
                    break
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                nxt = next(queue, _END)
                if nxt is not _END:
                    pending.append(remote.remote(nxt))
                result: R = ray.get(ready[0])
                yield result
        finally:
            for ref in pending:
                ray.cancel(ref)

    def close(self) -> None:
        """Stop the local Ray this backend started (a joined cluster keeps running)."""
        if self._owned and self._ray.is_initialized():
            self._ray.shutdown()
            self._owned = False


def make_backend(ray: str | None = None, workers: int | None = None) -> Backend:
    """The backend for the command line's ``--ray`` and ``--workers`` options.

    No ``ray``: local processes (``workers`` of them, default all cores; ``1`` runs in this
    process). ``ray="auto"``: a local Ray with ``workers`` CPUs; any other value: a cluster.
    """
    if ray:
        return RayBackend(ray, num_cpus=workers)
    if workers == 1:
        return InlineBackend()
    return LocalBackend(workers)

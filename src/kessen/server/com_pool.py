"""COM's thinking for every session of a server: a fair queue in front of a few workers.

A COM decision (:func:`~kessen.server.session.com_choice`: the seat's own decision view, the
legal actions, the level, which fixes its budget, and a seed in; an action and its explanation
out) is the one long piece of work a server does. Left to a thread each, twelve COM-vs-COM
matches of the strongest level would share the interpreter with the one person waiting for
COM's answer, and that person would wait for all of them. Instead:

- A search level's decision runs in a worker process when the server asks for them (``kessen
  play`` does), at most ``workers`` at once (by default one per core). The workers think at a
  lower CPU priority (:data:`WORKER_NICENESS`) than the server: on a machine whose cores they
  fill, the event loop still gets a core the moment a person's action arrives, and COM thinks
  in what is left. Without processes (tests, an embedded server) it runs in a thread.
- The quick levels (:data:`QUICK_LEVELS`: a tenth of a millisecond to a few) decide on the
  event loop itself, at once: neither a trip to a process nor a thread's hand-overs of the
  interpreter lock cost less than their thinking, and they never wait behind a search.
- Waiting decisions are served by priority, then in arrival order: a decision a person waits
  for (a match against COM) goes before one only spectators watch (COM against COM). Each
  session has at most one decision in the queue (its COM task waits for the answer), so one
  session delays another by at most the decisions already running.
- A worker process that dies is replaced, and the decision is made again in a thread: COM
  always answers.
- On a cluster (``kessen play --ray``: :mod:`kessen.server.com_ray`), a search level's
  decision is a task of the cluster instead, behind the same queue, whose width is then the
  cluster's CPUs. A task that fails (its worker died twice, its node is gone, it took too long)
  is made again in a thread of the server; if the cluster itself is gone, COM thinks in local
  worker processes from then on.

The same seed and level give the same decision wherever it is made (a process, a thread, the
loop): the player is built afresh from them for every decision.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import heapq
import itertools
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.processes import leave_with_owner

PERSON_WAITS: Final = 0
"""Priority of a decision a person waits for (served first)."""
ONLY_WATCHED: Final = 1
"""Priority of a decision of COM against COM."""
QUICK_LEVELS: Final = frozenset({"random", "heuristic", "tutorial"})
"""Levels that answer in well under a millisecond (Maken's heuristic, the slowest, 0.3 ms on
average): they decide on the event loop, where a worker process would cost them more (the view
pickled there and back) and a thread more again (the interpreter lock handed over and back)."""
WORKER_NICENESS: Final = 10
"""How much lower the worker processes' CPU priority is than the server's (``nice``): at 10 a
busy worker gets about a tenth of a core that the server's event loop also wants."""

_log = logging.getLogger(__name__)


class ClusterGone(RuntimeError):
    """The cluster a :class:`Cluster` sends decisions to cannot be reached any more."""


class Cluster(Protocol):
    """Where search decisions may run instead of this machine's workers (a Ray cluster:
    :class:`kessen.server.com_ray.RayCom`)."""

    width: int
    """How many decisions the cluster runs at once (its CPUs)."""

    @property
    def where(self) -> str:
        """The cluster's address, for messages."""

    async def decide(
        self,
        ruleset: str,
        level: str,
        seed: int,
        view: Json,
        legal: list[Action],
        notes: Any = None,
    ) -> tuple[Action, Any]:
        """:func:`decide` on the cluster; :class:`ClusterGone` if it is gone, another error if
        this decision failed there."""

    def close(self) -> None:
        """Leave the cluster."""


def decide(
    ruleset: str, level: str, seed: int, view: Json, legal: list[Action], notes: Any = None
) -> tuple[Action, Any]:
    """COM's decision and its explanation as JSON (what a worker runs; picklable in and out)."""
    from kessen.server.session import candidates_json, com_choice

    action, why = com_choice(ruleset, level, seed, view, legal, notes)
    return action, candidates_json(why)


def _start_worker(server: int) -> None:
    """In a new worker: think at a lower CPU priority than the server, and leave as soon as the
    server that started it is gone (a server killed without its shutdown must not leave its
    workers behind)."""
    with contextlib.suppress(OSError, AttributeError):  # not on every platform
        os.nice(WORKER_NICENESS)
    leave_with_owner(server)


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on every platform
        return max(1, os.cpu_count() or 1)


@dataclass
class ComPool:
    """The fair queue and its workers (see the module docstring)."""

    workers: int = 0
    """Search decisions at once; 0: one per core, or the cluster's width."""
    processes: bool = False
    cluster: Cluster | None = None
    """Where search decisions run, when given."""
    _waiting: list[tuple[int, int, asyncio.Future[None]]] = field(default_factory=list)
    _running: int = 0
    _order: itertools.count[int] = field(default_factory=itertools.count)
    _executor: concurrent.futures.Executor | None = None
    _left: list[Cluster] = field(default_factory=list)
    """Clusters found gone, left at :meth:`close` (leaving may block for a second)."""

    def __post_init__(self) -> None:
        if self.workers < 1:
            self.workers = self.cluster.width if self.cluster is not None else default_workers()

    async def choose(
        self,
        priority: int,
        ruleset: str,
        level: str,
        seed: int,
        view: Json,
        legal: list[Action],
        notes: Any = None,
    ) -> tuple[Action, Any]:
        """COM ``level``'s action for ``view``: a quick level's at once, on the loop; a search
        level's once a worker is free for it (by ``priority``, then in arrival order).
        ``notes``: what that COM seat kept from its earlier views (its level's search)."""
        if level in QUICK_LEVELS:
            return decide(ruleset, level, seed, view, legal, notes)
        await self._admit(priority)
        try:
            return await self._run(self.processes, decide, ruleset, level, seed, view, legal, notes)
        finally:
            self._release()

    @property
    def waiting(self) -> int:
        """Decisions waiting for a worker."""
        return len(self._waiting)

    async def _admit(self, priority: int) -> None:
        if self._running < self.workers and not self._waiting:
            self._running += 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), turn))
        try:
            await turn  # _release hands over its worker
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release()  # handed a worker while being cancelled: pass it on
            else:
                self._waiting = [w for w in self._waiting if w[2] is not turn]
                heapq.heapify(self._waiting)
            raise

    def _release(self) -> None:
        while self._waiting and self._running <= self.workers:
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():
                turn.set_result(None)  # the worker goes to it, still counted as running
                return
        self._running -= 1

    async def _run(
        self, far: bool, job: Callable[..., tuple[Action, Any]], *args: Any
    ) -> tuple[Action, Any]:
        loop = asyncio.get_running_loop()
        if self.cluster is not None:
            try:
                return await self.cluster.decide(*args)
            except ClusterGone as err:
                self._leave_cluster(err)  # this decision and the next ones: here
            except Exception as err:  # its worker died, its node is gone, it took too long...
                _log.warning(
                    "a COM decision (%s %s) failed on %s (%s); it is made again here",
                    args[0],
                    args[1],
                    self.cluster.where,
                    _why(err),
                )
                return await asyncio.to_thread(job, *args)
        if not far:
            return await asyncio.to_thread(job, *args)
        try:
            return await loop.run_in_executor(self._pool(), job, *args)
        except BrokenProcessPool:
            _log.warning("a COM worker process died; it is replaced, this decision is made here")
            self._executor = None
            return await asyncio.to_thread(job, *args)

    def _leave_cluster(self, err: ClusterGone) -> None:
        """Think on this machine from now on: in worker processes (at most one per core) if
        the pool may start them, else in threads."""
        if self.cluster is None:
            return  # another decision saw it first
        cluster, self.cluster = self.cluster, None
        self.workers = min(self.workers, default_workers())
        _log.warning(
            "the cluster at %s is gone (%s): COM thinks on this machine from now on, at most "
            "%d decisions at once",
            cluster.where,
            err,
            self.workers,
        )
        self._left.append(cluster)

    def _pool(self) -> concurrent.futures.Executor:
        if self._executor is None:
            # Fresh interpreters: forking a process that runs an event loop and threads is not
            # safe. Each worker imports the rulesets it is asked for on first use.
            context = multiprocessing.get_context("spawn")
            self._executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=context,
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return self._executor

    def close(self) -> None:
        """Stop the worker processes and leave the cluster (running decisions are
        abandoned)."""
        if self._executor is not None:
            with contextlib.suppress(Exception):
                self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        for cluster in [*self._left, *([self.cluster] if self.cluster else [])]:
            with contextlib.suppress(Exception):
                cluster.close()
        self._left.clear()


def _why(err: BaseException) -> str:
    """A failed task's error by its type only (a message may name what a seat holds hidden);
    a task's own error by its cause's type."""
    cause = getattr(err, "cause", None)
    name = type(err).__name__
    return f"{name}: {type(cause).__name__}" if isinstance(cause, BaseException) else name

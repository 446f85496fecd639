"""COM's search decisions as Ray tasks: how ``kessen play --ray`` thinks on a Ray cluster.

:class:`RayCom` joins a cluster (or starts a local Ray) once, when the server starts, and then
sends each search decision that :class:`~kessen.server.com_pool.ComPool` admits as one Ray
task: the remote function wraps :func:`~kessen.server.com_pool.decide` and takes the seat's
decision view and the legal actions as its arguments, so any worker of the cluster decides
exactly as the server would (the same seed and level, hence the same budget: the same action
and the same explanation). The event loop awaits the task's ``ObjectRef`` (never a blocking
``ray.get``).

What can go wrong, and what the pool does about it (COM always answers):

- a worker dies during a decision: Ray runs the task again (:data:`RAY_RETRIES` times), then
  the task fails with :class:`ray.exceptions.WorkerCrashedError`;
- a task fails for any other reason (its node died, the object was lost, it ran past
  :data:`DECISION_TIMEOUT`): :meth:`RayCom.decide` raises the error, and the pool makes that
  decision again in a thread of the server;
- the cluster is gone (the local raylet died, Ray Client lost its connection, Ray was shut
  down): :meth:`RayCom.decide` raises :class:`~kessen.server.com_pool.ClusterGone`, and the
  pool thinks in local worker processes from then on.

A worker of the cluster needs the same Kessen installed (the task imports it there); when the
cluster starts, :meth:`RayCom.connect` runs one task that imports it, so a cluster that cannot
think for COM is refused at once rather than at the first decision.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from dataclasses import dataclass, field
from typing import Any, Final

from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.server.com_pool import WORKER_NICENESS, ClusterGone, decide
from kessen.sim.backends import BackendError, ray_module, refuse_unreachable

RAY_RETRIES: Final = 1
"""How many times Ray runs a decision again whose worker died, before the server makes it."""
DECISION_TIMEOUT: Final = 30.0
"""Seconds a decision may take on Ray, queueing included, before the server makes it itself:
no search takes 3 s (:data:`kessen.ai.levels.STRONGEST_SECONDS` is its cap), and a cluster
shared by several servers queues at most their other decisions in flight."""
PROBE_TIMEOUT: Final = 120.0
"""Seconds the first task (a worker importing Kessen) may take when the server starts."""

_niced = False


def ray_decide(
    ruleset: str, level: str, seed: int, view: Json, legal: list[Action], notes: Any = None
) -> tuple[Action, Any]:
    """:func:`~kessen.server.com_pool.decide` in a Ray worker, which thinks at a lower CPU
    priority (:data:`~kessen.server.com_pool.WORKER_NICENESS`), as the local workers do: a
    server on a node of the cluster keeps its core for people's actions."""
    global _niced
    if not _niced:
        with contextlib.suppress(OSError, AttributeError):  # not on every platform
            os.nice(WORKER_NICENESS)
        _niced = True
    return decide(ruleset, level, seed, view, legal, notes)


def ray_probe() -> str:
    """What the first task runs: import what a decision needs; the worker's Kessen version."""
    import kessen.server.session  # com_choice and the rulesets' registry

    return kessen.__version__


def _gone_errors(ray: Any) -> tuple[type[BaseException], ...]:
    """The errors of a task that mean the cluster, not the task, is gone."""
    return (ray.exceptions.LocalRayletDiedError, ConnectionError)


def _named_cluster(ray: Any) -> tuple[str, str] | None:
    """The cluster ``auto`` joins and what names it: ``$RAY_ADDRESS``, else the one ``ray
    start`` recorded on this machine; ``None`` when Ray would start a local one."""
    named = os.environ.get("RAY_ADDRESS")
    if named:
        return named, "from $RAY_ADDRESS"
    with contextlib.suppress(Exception):  # where ray start records it is Ray's own business
        found = ray._private.services.find_bootstrap_address(None)
        if found:
            return str(found), "recorded by ray start on this machine; ray stop clears it"
    return None


def _auth_hint(address: str) -> str:
    """What to try when joining a cluster by its address failed: Ray sends its token only when
    told to (``ray start`` turns token authentication on by default)."""
    if address in ("auto", "", "local") or os.environ.get("RAY_AUTH_MODE"):
        return ""
    return (
        " (if the cluster uses token authentication, as ray start does by default, set "
        "RAY_AUTH_MODE=token and give its token: RAY_AUTH_TOKEN or ~/.ray/auth_token)"
    )


def _first_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0] if text else type(err).__name__


@dataclass
class RayCom:
    """A connection to Ray that runs COM's search decisions (see the module docstring).

    Make one with :meth:`connect`. :attr:`width` is the cluster's CPUs when it connected: as
    many decisions as run at once without queueing in Ray (the pool's default width).
    """

    address: str
    width: int
    retries: int = RAY_RETRIES
    timeout: float = DECISION_TIMEOUT
    owned: bool = False
    """Whether :meth:`connect` initialized Ray in this process (then :meth:`close` stops it)."""
    _ray: Any = None
    _remote: Any = field(default=None, repr=False)

    @classmethod
    def connect(
        cls,
        address: str = "auto",
        *,
        retries: int = RAY_RETRIES,
        timeout: float = DECISION_TIMEOUT,
        probe_timeout: float = PROBE_TIMEOUT,
    ) -> RayCom:
        """Join the Ray cluster at ``address``, or start a local one, and check that its workers
        can think for COM; :class:`~kessen.sim.backends.BackendError` with a one-line reason if
        Ray is not installed, cannot be reached, has no CPU or cannot import Kessen.

        ``auto``: the cluster of ``$RAY_ADDRESS``, else the one ``ray start`` runs on this
        machine, else a local Ray started for this process (stopped by :meth:`close`);
        ``local``: always a new local Ray; ``ray://HOST:10001`` (Ray Client) or
        ``HOST:6379``: that cluster. A Ray already initialized in this process is used as it
        is and left running.
        """
        ray = ray_module()
        owned = False
        if not ray.is_initialized():
            options: dict[str, Any] = {"log_to_driver": False, "logging_level": "ERROR"}
            if address in ("auto", ""):
                named = _named_cluster(ray)
                if named is not None:
                    refuse_unreachable(named[0], address, named[1])
                options["include_dashboard"] = False
            else:
                if address != "local":
                    refuse_unreachable(address, address)
                options["address"] = address
            try:
                ray.init(**options)
            except Exception as err:  # refused, unknown host, bad address, no cluster...
                raise BackendError(
                    f"cannot start or join Ray at {address!r}: {_first_line(err)}"
                    + _auth_hint(address)
                ) from err
            owned = True
        com = cls(address, 1, retries, timeout, owned, ray)
        try:
            com.width = int(ray.cluster_resources().get("CPU", 0))
            if com.width < 1:
                raise BackendError(f"the Ray cluster at {address!r} has no CPU to think on")
            probe = ray.remote(num_cpus=1, max_retries=0)(ray_probe)
            ray.get(probe.remote(), timeout=probe_timeout)
        except BackendError:
            com.close()
            raise
        except Exception as err:  # the worker cannot import Kessen, the probe timed out...
            com.close()
            raise BackendError(
                f"the Ray cluster at {address!r} cannot think for COM: "
                f"{type(err).__name__}: {_first_line(err)}"
            ) from err
        com._remote = ray.remote(num_cpus=1, max_retries=retries)(ray_decide)
        return com

    @property
    def where(self) -> str:
        """The cluster's address as Ray reports it (the address given if it does not say)."""
        with contextlib.suppress(Exception):
            context = self._ray.get_runtime_context()
            return str(context.gcs_address)
        return self.address

    async def decide(
        self,
        ruleset: str,
        level: str,
        seed: int,
        view: Json,
        legal: list[Action],
        notes: Any = None,
    ) -> tuple[Action, Any]:
        """COM's decision, made by a Ray task. :class:`~kessen.server.com_pool.ClusterGone` if
        the cluster is gone (its local raylet died, the client lost its connection, Ray was
        shut down in this process); the task's error (a ``ray.exceptions.RayError``, or
        :class:`TimeoutError` after :attr:`timeout` seconds) if it failed. A cancelled wait
        cancels the task."""
        ray = self._ray
        if ray is None or self._remote is None or not ray.is_initialized():
            raise ClusterGone("Ray is not initialized in this process")
        try:
            ref = self._remote.remote(ruleset, level, seed, view, legal, notes)
        except _gone_errors(ray) as err:
            raise ClusterGone(type(err).__name__) from err
        try:
            answer: tuple[Action, Any] = await asyncio.wait_for(_awaited(ref), self.timeout)
        except _gone_errors(ray) as err:
            raise ClusterGone(type(err).__name__) from err
        except (asyncio.CancelledError, TimeoutError):
            with contextlib.suppress(Exception):
                ray.cancel(ref)
            raise
        return answer

    def close(self) -> None:
        """Stop the local Ray that :meth:`connect` started, or leave the cluster it joined (a
        Ray initialized before is left as it was). Idempotent."""
        ray, self._ray, self._remote = self._ray, None, None
        if ray is not None and self.owned:
            with contextlib.suppress(Exception):
                if ray.is_initialized():
                    ray.shutdown()


async def _awaited(ref: Any) -> Any:
    """The value of a Ray ``ObjectRef``, awaited on the running loop."""
    return await ref

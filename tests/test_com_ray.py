"""COM on Ray (``kessen play --ray``): a search level decides in a Ray task exactly as in the
server's own process (same seed and level, hence the same budget: the same action and the same
explanation, or on a machine loaded past the 1.8 s cap the same search stopped sooner), in all
three games; a decision whose worker dies is made again, on the cluster
and then in the server; a cluster that is gone sends COM back to this machine; an address that
answers nothing is refused at start with one line.

The Ray tests start a small local Ray in this process (2 CPUs, no dashboard) and are skipped,
saying why, only where Ray cannot start.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kessen.cli import app
from kessen.engine.action import Action
from kessen.server.com_pool import PERSON_WAITS, ClusterGone, ComPool, decide, default_workers
from kessen.server.com_ray import RayCom, ray_decide
from kessen.server.run import _config
from kessen.sim.backends import BackendError
from tests.fresh_loop import run_fresh
from tests.test_com_workers import CONFIGS, SEARCH, Job, assert_same_search, positions, searched

runner = CliRunner()


@pytest.fixture(scope="module")
def ray_module() -> Iterator[Any]:
    """Ray, stopped after this module's tests if one of them started it."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'kessen[ray]')")
    yield ray
    if ray.is_initialized():
        ray.shutdown()


@pytest.fixture
def ray_up(ray_module: Any) -> Any:
    """A local Ray in this process (started for the first test that needs it, and again after
    a test that shut it down)."""
    _start(ray_module)
    return ray_module


def _start(ray: Any) -> None:
    if ray.is_initialized():
        return
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    except Exception as err:  # no shared memory, no free port, a sandbox...
        pytest.skip(f"Ray cannot start here: {type(err).__name__}: {err}")


def _choose_all(pool: ComPool, jobs: list[Job]) -> list[tuple[Action, Any]]:
    async def run() -> list[tuple[Action, Any]]:
        try:
            return list(await asyncio.gather(*(pool.choose(PERSON_WAITS, *job) for job in jobs)))
        finally:
            pool.close()

    return run_fresh(run())


def test_an_unreachable_cluster_is_refused_by_connect() -> None:
    """Before the tests that start Ray here (a Ray already started in a process is used as it
    is, whatever the address)."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'kessen[ray]')")
    if ray.is_initialized():
        ray.shutdown()
    with pytest.raises(BackendError, match="nothing answers"):
        RayCom.connect(f"127.0.0.1:{_closed_port()}")


def test_a_search_decides_on_ray_as_in_the_server_process(
    ray_up: Any, caplog: pytest.LogCaptureFixture
) -> None:
    expected = [
        pair
        for ruleset in sorted(CONFIGS)
        for level, count in zip(SEARCH, (2, 3), strict=True)
        for pair in searched(ruleset, level, count)
    ]
    seeds = {job[0]: {j[2] for j, _ in expected if j[0] == job[0]} for job, _ in expected}
    assert all(len(s) >= 3 for s in seeds.values()), seeds  # several seeds in every game
    cluster = RayCom.connect("auto")
    assert cluster.width == 2 and not cluster.owned  # this module's Ray, left running
    pool = ComPool(processes=True, cluster=cluster)
    assert pool.workers == 2  # the cluster's CPUs
    with caplog.at_level(logging.WARNING, logger="kessen.server.com_pool"):
        answers = _choose_all(pool, [job for job, _ in expected])
    assert not _pool_lines(caplog)  # every decision was made on Ray: none failed over
    assert pool._executor is None  # nor in a local process
    for (job, near), answer in zip(expected, answers, strict=True):
        assert_same_search(job, answer, near)


def test_a_decision_whose_worker_dies_is_made_again_on_the_cluster(
    ray_up: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (job, near), *_ = searched("kobo", "ismcts-normal", 1)
    marker = str(tmp_path / "died-once")

    def dies_the_first_time(*args: Any) -> Any:  # sent by value: the worker need not import it
        if not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)  # the worker process dies mid-decision
        return ray_decide(*args)

    cluster = RayCom.connect("auto", retries=1)
    cluster._remote = ray_up.remote(num_cpus=1, max_retries=1)(dies_the_first_time)
    with caplog.at_level(logging.WARNING, logger="kessen.server.com_pool"):
        (answer,) = _choose_all(ComPool(cluster=cluster), [job])
    assert os.path.exists(marker)  # a worker died with the first attempt...
    assert not _pool_lines(caplog)  # ...and Ray made the decision again, on the cluster
    assert_same_search(job, answer, near)


def test_a_decision_that_fails_on_ray_is_made_in_the_server(
    ray_up: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Its worker dies at every attempt: after Ray's retry, the server decides, logging one
    line that names the failure by its type only, and the cluster stays in use."""
    (job, near), *_ = searched("maken", "ismcts-normal", 1)

    def always_dies(*args: Any) -> Any:
        os._exit(1)

    cluster = RayCom.connect("auto", retries=1)
    cluster._remote = ray_up.remote(num_cpus=1, max_retries=1)(always_dies)
    pool = ComPool(cluster=cluster)
    with caplog.at_level(logging.WARNING, logger="kessen.server.com_pool"):
        (answer,) = _choose_all(pool, [job])
    assert answer == near == decide(*job)
    (line,) = _pool_lines(caplog)
    message = line.getMessage()
    assert "failed on" in message and "WorkerCrashedError" in message
    assert "maken ismcts-normal" in message and "made again here" in message
    assert pool.cluster is cluster  # one task failed: the next ones still go to Ray


def test_a_decision_that_takes_too_long_on_ray_is_made_in_the_server(
    ray_up: Any, caplog: pytest.LogCaptureFixture
) -> None:
    (job, near), *_ = searched("twgp", "ismcts-easy", 1)

    def stalls(*args: Any) -> Any:
        time.sleep(60)

    cluster = RayCom.connect("auto", timeout=1.0)
    cluster._remote = ray_up.remote(num_cpus=1, max_retries=0)(stalls)
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="kessen.server.com_pool"):
        (answer,) = _choose_all(ComPool(cluster=cluster), [job])
    assert answer == near
    assert time.monotonic() - started < 30  # the stalled task did not hold COM's answer
    (line,) = _pool_lines(caplog)
    assert "TimeoutError" in line.getMessage()


def test_when_ray_is_gone_com_thinks_on_this_machine(
    ray_up: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Ray shut down under a running server: each decision is made here (one line said so,
    once), at most one per core at once."""
    jobs = [job for job, _ in searched("kobo", "ismcts-easy", 2)]
    cluster = RayCom.connect("auto")
    pool = ComPool(workers=64, cluster=cluster)
    ray_up.shutdown()  # the next test that needs Ray starts it again
    with caplog.at_level(logging.WARNING, logger="kessen.server.com_pool"):
        answers = _choose_all(pool, jobs)
    assert answers == [decide(*job) for job in jobs]
    (line,) = _pool_lines(caplog)
    assert "is gone" in line.getMessage() and "on this machine from now on" in line.getMessage()
    assert pool.cluster is None and pool.workers == min(64, default_workers())


def _pool_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """What the COM pool logged (Ray's own warnings left out: it warns, for one, that a
    coroutine run off the main thread sets no SIGTERM handler)."""
    return [r for r in caplog.records if r.name.startswith("kessen.")]


class FakeCluster:
    """A cluster whose every task fails with ``error`` (no Ray needed)."""

    def __init__(self, error: Exception, width: int = 8) -> None:
        self.width = width
        self.error = error
        self.calls = 0
        self.closed = False

    @property
    def where(self) -> str:
        return "fake:1"

    async def decide(self, *args: Any) -> tuple[Action, Any]:
        self.calls += 1
        raise self.error

    def close(self) -> None:
        self.closed = True


def test_a_gone_cluster_is_left_once_and_its_width_shrinks_to_this_machine(
    caplog: pytest.LogCaptureFixture,
) -> None:
    cluster = FakeCluster(ClusterGone("LocalRayletDiedError"), width=64)
    pool = ComPool(cluster=cluster)
    assert pool.workers == 64
    (view, legal), *_ = positions("kobo", 1, start=20)
    jobs = [("kobo", "ismcts-easy", seed, view, legal) for seed in range(3)]
    with caplog.at_level(logging.WARNING, logger="kessen.server.com_pool"):
        first = _choose_all(pool, jobs[:1])
        rest = _choose_all(pool, jobs[1:])
    assert first + rest == [decide(*job) for job in jobs]
    assert cluster.calls == 1 and cluster.closed  # left at the first sign, never asked again
    assert pool.workers == min(64, default_workers())
    (line,) = _pool_lines(caplog)
    assert "fake:1 is gone (LocalRayletDiedError)" in line.getMessage()


def test_the_queue_narrows_to_this_machine_while_decisions_wait() -> None:
    """Decisions admitted on a wide cluster finish; those waiting start only as the running
    ones fall below the new width."""

    async def scenario() -> list[int]:
        pool = ComPool(workers=4)
        gate = asyncio.Event()
        running: list[int] = []
        peak: list[int] = []

        async def slow(far: bool, job: Any, *args: Any) -> Any:
            running.append(1)
            peak.append(len(running))
            await gate.wait()
            running.pop()
            return args[1], None

        pool._run = slow  # type: ignore[method-assign]
        tasks = [
            asyncio.create_task(pool.choose(PERSON_WAITS, "kobo", f"s{i}", 0, {}, []))
            for i in range(8)
        ]
        await asyncio.sleep(0)
        assert pool.waiting == 4
        pool.workers = 1  # as when the cluster is left
        peak.clear()
        gate.set()
        await asyncio.gather(*tasks)
        return peak

    assert run_fresh(scenario()) == [1, 1, 1, 1]  # the four waiting ran one at a time


def test_the_server_thinks_with_the_pool_kessen_play_gives_it() -> None:
    pool = ComPool(workers=3, processes=True, cluster=FakeCluster(RuntimeError("unused")))
    config = _config(0, 0.0, "127.0.0.1", com_pool=pool)
    assert config.app.state.hub.com_pool is pool  # type: ignore[union-attr]
    assert _config(0, 0.0, "127.0.0.1").app.state.hub.com_pool.processes  # type: ignore[union-attr]


def test_a_failing_task_does_not_leave_the_cluster() -> None:
    cluster = FakeCluster(RuntimeError("ObjectLostError"))
    pool = ComPool(cluster=cluster)
    (view, legal), *_ = positions("twgp", 1, start=20)
    jobs = [("twgp", "ismcts-easy", seed, view, legal) for seed in range(2)]
    assert _choose_all(pool, jobs) == [decide(*job) for job in jobs]
    assert cluster.calls == 2 and pool.cluster is cluster


PLAY_QUIETLY = ("--no-store", "--no-browser", "--port", "0")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_an_address_that_answers_nothing_is_refused_at_start_in_one_line() -> None:
    """In a process of its own, as ``kessen play`` runs (a Ray already started in a process is
    used as it is, whatever the address); ``auto`` checks the cluster ``$RAY_ADDRESS`` names."""
    port = _closed_port()
    cases = [
        (f"127.0.0.1:{port}", "", ""),
        (f"ray://127.0.0.1:{port}", "", ""),
        ("auto", f"127.0.0.1:{port}", " (from $RAY_ADDRESS)"),
    ]
    for address, named, why in cases:
        env = {**os.environ, "COLUMNS": "200", "RAY_ADDRESS": named}
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "kessen.cli", "play", "--ray", address, *PLAY_QUIETLY],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.strip() == (
            f"error: cannot join Ray at '{address}': nothing answers at 127.0.0.1:{port}"
            f"{why}: Connection refused"
        )
        assert "running at" not in done.stdout
        assert time.monotonic() - started < 60  # not Ray's minutes of retries


def test_play_documents_its_ray_options() -> None:
    result = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "--ray" in text and "ray://HOST:10001" in text and "'auto'" in text
    assert "--com-workers" in text and "the cluster's CPUs" in text

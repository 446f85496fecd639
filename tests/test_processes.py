"""Pool workers leave with the process that started them: a tournament killed outright (no
shutdown of its pool) leaves no worker behind, not even one in the middle of a long game (a
pool's worker alone notices its parent gone only when it asks for the next task)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kessen.processes import OWNER_CHECK_SECONDS

if not Path(f"/proc/self/task/{os.getpid()}/children").exists():  # children read from /proc
    pytest.skip("needs Linux's /proc with each task's children", allow_module_level=True)


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found |= {int(child) for child in text}
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def _descendants(pid: int) -> set[int]:
    found = {p for p in _children(pid) if _alive(p)}
    for child in list(found):
        found |= _descendants(child)
    return found


def _kill_owner_mid_task(command: list[str], busy: int) -> list[int]:
    """Start ``command``, wait for ``busy`` descendants, kill it outright once they are busy,
    and return those still running a few checks later."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    owner = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    left: list[int] = []
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < busy:
            workers = _descendants(owner.pid)
            time.sleep(0.2)
        assert len(workers) >= busy, workers
        time.sleep(1.5)  # every worker is in the middle of a game of many seconds
        workers = _descendants(owner.pid)
        assert owner.poll() is None
        owner.send_signal(signal.SIGKILL)
        owner.wait(timeout=10)
        # A worker notices within a check; one still starting (a loaded machine) once it has
        # started. A game of two つよい takes far longer, so this tells the watcher at work.
        deadline = time.monotonic() + 10 * OWNER_CHECK_SECONDS
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.2)
        left = [w for w in workers if _alive(w)]
    finally:
        if owner.poll() is None:
            owner.kill()
        for pid in left:  # do not leave them running if the test fails
            os.kill(pid, signal.SIGKILL)
    return left


def test_a_killed_tournament_leaves_no_worker_behind(tmp_path: Path) -> None:
    """Spawned workers: their parent is the owner."""
    command = [
        *(sys.executable, "-m", "kessen.ai.tournament", "--ruleset", "twgp"),
        *("--match", "ismcts-strong:ismcts-strong@20", "--processes", "2"),
        *("--json", str(tmp_path / "out.json")),
    ]
    left = _kill_owner_mid_task(command, 2)
    assert not left, f"workers still running after their owner was killed: {left}"


def test_a_killed_simulation_leaves_no_worker_behind(tmp_path: Path) -> None:
    """The simulator's workers come from a fork server, which outlives the owner."""
    command = [
        *(sys.executable, "-m", "kessen.cli", "sim", "--ruleset", "twgp"),
        *("--players", "ismcts-strong", "--mirror", "--games", "40", "--no-store"),
        *("--report", str(tmp_path / "report")),
    ]
    left = _kill_owner_mid_task(command, 2)
    assert not left, f"processes still running after their owner was killed: {left}"

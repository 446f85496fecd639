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

from kessen.processes import PARENT_CHECK_SECONDS

if not Path("/proc/self/task").exists():  # children are read from /proc
    pytest.skip("needs Linux's /proc", allow_module_level=True)


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


def test_a_killed_tournament_leaves_no_worker_behind(tmp_path: Path) -> None:
    command = [
        sys.executable,
        "-m",
        "kessen.ai.tournament",
        "--ruleset",
        "twgp",
        "--match",
        "ismcts-strong:ismcts-strong@20",
        "--processes",
        "2",
        "--json",
        str(tmp_path / "out.json"),
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    parent = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 2:
            workers = {p for p in _children(parent.pid) if _alive(p)}
            time.sleep(0.2)
        # The pool's two workers (a spawn context may add its resource tracker).
        assert len(workers) >= 2, workers
        time.sleep(1.0)  # each worker is in the middle of a game of many seconds
        assert parent.poll() is None
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 3 * PARENT_CHECK_SECONDS
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.2)
        left = [w for w in workers if _alive(w)]
    finally:
        if parent.poll() is None:
            parent.kill()
    for pid in left:  # do not leave them running if the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers still running after their parent was killed: {left}"

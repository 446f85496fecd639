"""A ``kessen play`` server of some revision's sources, for the benchmarks that load it.

Shared by ``load_bench.py`` and ``fairness_bench.py``: a free port, the command and environment
that run ``kessen`` from a source tree, the server started on a fresh store and stopped as
Ctrl+C stops it, its resident memory, the errors its log reports, and another revision's
sources in a temporary git worktree (for ``--against``), removed again.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def rss(pid: int) -> int:
    """Resident memory of process ``pid`` in bytes (0 once it is gone)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def kessen(src: Path, db: Path) -> tuple[list[str], dict[str, str]]:
    """The command line and environment that run ``kessen`` from the sources in ``src`` on the
    store ``db``."""
    env = {**os.environ, "PYTHONPATH": str(src), "KESSEN_DB": str(db), "COLUMNS": "400"}
    return [sys.executable, "-c", "from kessen.cli import app; app()"], env


@contextlib.contextmanager
def server(src: Path, db: Path, log: Path, *options: str) -> Iterator[tuple[str, int]]:
    """``kessen play`` of the sources in ``src`` on a free port with the store ``db`` and
    ``options`` (say ``--pace 0.05``), its output in ``log``; yields its URL and process id."""
    port = free_port()
    cmd, env = kessen(src, db)
    cmd += ["play", "--no-browser", "--port", str(port), "--db", str(db), *options]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx2.HTTPError):
                if httpx2.get(f"{url}/api/meta", timeout=2).status_code == 200:
                    break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server of {src} did not start: {log.read_text()[-2000:]}")
            time.sleep(0.2)
        yield url, proc.pid
    finally:
        stop(proc)


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (COM's worker processes, for a server)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                found += [int(c) for c in (task / "children").read_text().split()]
    return found


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server as Ctrl+C does (harder if it does not go); COM worker processes still
    there a few seconds after it exited are ended here, and said so."""
    workers = children(proc.pid)
    proc.send_signal(signal.SIGINT)
    for harder in (proc.terminate, proc.kill):
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=15)
            break
        harder()
    proc.wait()
    deadline = time.monotonic() + 5
    while (left := [w for w in workers if Path(f"/proc/{w}").exists()]) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.2)
    for worker in left:
        with contextlib.suppress(OSError):
            os.kill(worker, signal.SIGTERM)
    if left:
        print(f"the server left {len(left)} processes running; ended", file=sys.stderr)


def log_errors(log: Path) -> int:
    """Lines of the server's output that report an error or a traceback."""
    text = log.read_text(errors="replace")
    return sum(1 for line in text.splitlines() if "Traceback" in line or "ERROR" in line)


def remove_worktree(rev: str, into: Path) -> None:
    """Remove the worktree :func:`worktree` made of revision ``rev`` under ``into``, if any."""
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(into / f"rev-{rev}")],
        check=False,
        capture_output=True,
    )


def worktree(rev: str, into: Path) -> Path:
    """The sources of revision ``rev`` in a temporary git worktree under ``into``."""
    path = into / f"rev-{rev}"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), rev],
        check=True,
        capture_output=True,
    )
    return path

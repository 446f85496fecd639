"""Load benchmark of the game server: many concurrent vs-COM games from a separate process.

A real server is started as its own process (``kessen play`` on 127.0.0.1, a fresh store), and
this process plays N games against it at once over WebSockets, each a client that answers its
prompts with random legal actions while COM answers at ``--pace``. For every action the client
sends, the latency is the time until the state that results from it arrives. The server's
resident memory is read from ``/proc`` before the games, at its peak during them, and after each
wave of games has ended and ``--settle`` seconds have passed (a finished game leaves the server's
memory a minute after its end; CPython keeps the freed memory for reuse rather than giving it
back to the system, so the figure to watch is that a second wave does not add to the first).
With ``--spam``, one more client sends undo/redo messages as fast as it can beside them.

``--against REV`` runs the same load against the server of another revision (checked out in a
temporary git worktree) in the same sitting, and prints both side by side.

    .venv/bin/python bench/load_bench.py                         # 50 games, pace 0.05 s
    .venv/bin/python bench/load_bench.py --spam --against 8c73ffa

It is a script, not a test: nothing asserts on the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Figures:
    """What one run measured."""

    label: str
    latencies: list[float] = field(default_factory=list)
    rss_before: int = 0
    rss_peak: int = 0
    rss_end: int = 0
    rss_after: list[int] = field(default_factory=list)
    games_over: int = 0
    errors: int = 0
    spam_sent: int = 0
    seconds: float = 0.0

    def row(self) -> dict[str, str]:
        """The figures as printable cells."""
        lat = sorted(self.latencies)

        def pct(p: float) -> str:
            if not lat:
                return "–"
            return f"{lat[min(len(lat) - 1, int(p * len(lat)))] * 1000:.1f}"

        return {
            "server": self.label,
            "actions": str(len(lat)),
            "p50 ms": pct(0.50),
            "p99 ms": pct(0.99),
            "max ms": f"{lat[-1] * 1000:.1f}" if lat else "–",
            "mean ms": f"{statistics.fmean(lat) * 1000:.1f}" if lat else "–",
            "RSS before MB": f"{self.rss_before / 2**20:.0f}",
            "RSS peak MB": f"{self.rss_peak / 2**20:.0f}",
            "RSS at end MB": f"{self.rss_end / 2**20:.0f}",
            "RSS after each wave MB": " → ".join(f"{b / 2**20:.0f}" for b in self.rss_after),
            "games over": str(self.games_over),
            "spam msgs": str(self.spam_sent),
            "errors": str(self.errors),
        }


def rss(pid: int) -> int:
    """Resident memory of process ``pid`` in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def server(src: Path, pace: float) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A ``kessen play`` server of the sources in ``src`` on a free port, with a new store."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(src), "KESSEN_DB": str(Path(tmp) / "load.db")}
        cmd = [sys.executable, "-c", "from kessen.cli import app; app()", "play"]
        cmd += ["--no-browser", "--port", str(port), "--pace", str(pace)]
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{url}/api/meta", timeout=2).status_code == 200:
                        break
                if proc.poll() is not None or time.monotonic() > deadline:
                    err = proc.stderr.read().decode() if proc.stderr else ""
                    raise RuntimeError(f"the server of {src} did not start: {err[-2000:]}")
                time.sleep(0.2)
            yield url, proc
        finally:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
            if proc.poll() is None:
                proc.kill()


async def _next_state(ws: ClientConnection, figures: Figures) -> dict[str, Any]:
    while True:
        message = json.loads(await ws.recv())
        if message.get("type") == "state":
            view: dict[str, Any] = message["view"]
            return view
        figures.errors += 1


async def new_game(client: httpx.AsyncClient, url: str, seed: int) -> dict[str, Any]:
    body = {"mode": "vs_com", "com": "heuristic", "seed": seed, "config": {"best_of": 1}}
    response = await client.post(f"{url}/api/games", json=body)
    response.raise_for_status()
    game: dict[str, Any] = response.json()
    return game


def ws_url(url: str, game: dict[str, Any]) -> str:
    return f"ws{url[4:]}/ws/{game['id']}?token={game['token']}"


async def play_one(url: str, seed: int, actions: int, figures: Figures) -> None:
    """One client: a game against COM, random legal answers, each answer timed."""
    rng = random.Random(seed)
    async with httpx.AsyncClient(timeout=30) as client:
        game = await new_game(client, url, seed)
    async with connect(ws_url(url, game), origin=url, max_size=2**24) as ws:  # type: ignore[arg-type]
        view = await _next_state(ws, figures)
        for _ in range(actions):
            while view["pending"] is None or view["pending"]["seat"] != 0:
                if view["pending"] is None:
                    figures.games_over += 1
                    return
                view = await _next_state(ws, figures)
            pending = view["pending"]
            action = rng.choice(pending["legal"])
            message = {"type": "act", "prompt_id": pending["prompt_id"], "action": action}
            sent = time.perf_counter()
            await ws.send(json.dumps(message))
            view = await _next_state(ws, figures)
            figures.latencies.append(time.perf_counter() - sent)


async def spam_undo(url: str, count: int, figures: Figures) -> None:
    """One client sending undo and redo messages as fast as it can."""
    async with httpx.AsyncClient(timeout=30) as client:
        game = await new_game(client, url, 999_999)
    async with connect(ws_url(url, game), origin=url, max_size=2**24) as ws:  # type: ignore[arg-type]
        for i in range(count):
            await ws.send(json.dumps({"type": "undo" if i % 2 == 0 else "redo"}))
            figures.spam_sent += 1
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5):
                while True:
                    await ws.recv()


async def sample_peak(pid: int, figures: Figures, stop: asyncio.Event) -> None:
    while not stop.is_set():
        figures.rss_peak = max(figures.rss_peak, rss(pid))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(0.1):
                await stop.wait()


async def run_load(
    url: str,
    pid: int,
    games: int,
    actions: int,
    spam: int,
    settle: float,
    label: str,
    waves: int = 1,
) -> Figures:
    """``waves`` times: ``games`` games at once (and the spammer), then ``settle`` seconds of
    rest before the memory is read again."""
    figures = Figures(label)
    figures.rss_before = rss(pid)
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_peak(pid, figures, stop))
    start = time.perf_counter()
    for wave in range(waves):
        jobs = [play_one(url, 1000 + wave * games + g, actions, figures) for g in range(games)]
        if spam:
            jobs.append(spam_undo(url, spam, figures))
        results = await asyncio.gather(*jobs, return_exceptions=True)
        figures.errors += sum(1 for r in results if isinstance(r, BaseException))
        figures.rss_end = rss(pid)
        await asyncio.sleep(settle)
        figures.rss_after.append(rss(pid))
    figures.seconds = time.perf_counter() - start
    stop.set()
    await sampler
    return figures


def worktree(rev: str, into: Path) -> Path:
    """The sources of revision ``rev`` in a temporary git worktree under ``into``."""
    path = into / f"rev-{rev}"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), rev],
        check=True,
        capture_output=True,
    )
    return path


def print_table(rows: list[dict[str, str]]) -> None:
    keys = list(rows[0])
    print("| " + " | ".join(keys) + " |")
    print("|" + "|".join("---" for _ in keys) + "|")
    for row in rows:
        print("| " + " | ".join(row[k] for k in keys) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent vs-COM games")
    parser.add_argument("--actions", type=int, default=1000, help="answers per game at most")
    parser.add_argument("--pace", type=float, default=0.05, help="COM's seconds per action")
    parser.add_argument("--spam", action="store_true", help="one client spams undo/redo")
    parser.add_argument("--spam-count", type=int, default=2000)
    parser.add_argument("--settle", type=float, default=90.0, help="seconds before 'after'")
    parser.add_argument("--waves", type=int, default=2, help="rounds of games, each settled")
    parser.add_argument("--against", help="also run the server of this git revision")
    args = parser.parse_args()
    spam = args.spam_count if args.spam else 0
    trees: list[tuple[str, Path]] = [("this tree", ROOT / "src")]
    tmp = Path(tempfile.mkdtemp(prefix="kessen-load-"))
    try:
        if args.against:
            old = worktree(args.against, tmp)
            trees.insert(0, (args.against, old / "src"))
        rows = []
        for label, src in trees:
            with server(src, args.pace) as (url, proc):
                time.sleep(1.0)
                figures = asyncio.run(
                    run_load(
                        url,
                        proc.pid,
                        args.games,
                        args.actions,
                        spam,
                        args.settle,
                        label,
                        args.waves,
                    )
                )
            rows.append(figures.row())
            print(f"{label}: {figures.seconds:.1f} s", file=sys.stderr, flush=True)
        print(
            f"{args.waves} waves of {args.games} concurrent vs-COM games, COM pace {args.pace} s, "
            f"up to {args.actions} answers each{', one client spamming undo/redo' if spam else ''}"
        )
        print_table(rows)
    finally:
        if args.against:
            subprocess.run(
                [
                    "git",
                    "-C",
                    str(ROOT),
                    "worktree",
                    "remove",
                    "--force",
                    str(tmp / f"rev-{args.against}"),
                ],
                capture_output=True,
            )
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

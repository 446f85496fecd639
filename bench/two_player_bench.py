"""Load benchmark of matches between two people: N concurrent vs_human matches, scripted.

A real server runs as its own process (the application of ``kessen play``, on 127.0.0.1 with a
fresh store; its limit of unfinished sessions raised to fit the load, the default being 64).
This process creates N matches over HTTP (``POST /api/games`` with ``"mode": "vs_human"``),
joins each with its invite (``POST /api/games/{id}/join``) and opens both seats' WebSockets
(and, with ``--spectators``, one spectator each). Then every match is played at once by its two
scripted clients: the seat that decides thinks (``--think``: a pause drawn uniformly between 0
and twice that many seconds, 1 s on average as a quick person; 0 saturates the server) and
sends a random legal action from its own view. The
latency of an action is the time from sending it until *both* seats have received the view
that results from it. The server's resident memory is read from ``/proc`` before the matches,
at its peak and at the end.

    .venv/bin/python bench/two_player_bench.py                  # 100 matches, Kōbō best of 1
    .venv/bin/python bench/two_player_bench.py --think 0        # as fast as the server goes
    .venv/bin/python bench/two_player_bench.py --matches 20 --ruleset twgp

It is a script, not a test: nothing asserts on the figures (the target is p99 < 50 ms). The
server, this client and whatever else runs share the machine's cores: on a loaded machine the
tail of the latencies is the operating system's scheduling (run ``uptime`` beside it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
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

import httpx2
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
CONFIGS: dict[str, dict[str, Any]] = {"kobo": {"best_of": 1}, "twgp": {"quickStart": True}}
SERVER = """
import sys
import uvicorn
from kessen.server.app import create_app
from kessen.store.records import MatchStore
port, db, sessions = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
sys.setswitchinterval(0.0005)
store = None if db == "-" else MatchStore(db)
app = create_app(pace=0.0, store=store, port=port, max_sessions=sessions)
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=65536,
            ws_per_message_deflate=False)
"""


@dataclass
class Figures:
    """What the run measured."""

    latencies: list[float] = field(default_factory=list)
    rss_before: int = 0
    rss_peak: int = 0
    rss_end: int = 0
    matches_over: int = 0
    errors: int = 0
    views: int = 0
    seconds: float = 0.0
    think: float = 0.0

    def row(self, matches: int) -> dict[str, str]:
        """The figures as printable cells."""
        lat = sorted(self.latencies)

        def pct(p: float) -> str:
            if not lat:
                return "–"
            return f"{lat[min(len(lat) - 1, int(p * len(lat)))] * 1000:.1f}"

        return {
            "matches": str(matches),
            "think s": f"{self.think:g}",
            "actions": str(len(lat)),
            "p50 ms": pct(0.50),
            "p99 ms": pct(0.99),
            "max ms": f"{lat[-1] * 1000:.1f}" if lat else "–",
            "mean ms": f"{statistics.fmean(lat) * 1000:.1f}" if lat else "–",
            "views received": str(self.views),
            "RSS before MB": f"{self.rss_before / 2**20:.0f}",
            "RSS peak MB": f"{self.rss_peak / 2**20:.0f}",
            "RSS at end MB": f"{self.rss_end / 2**20:.0f}",
            "matches over": str(self.matches_over),
            "errors": str(self.errors),
            "seconds": f"{self.seconds:.1f}",
        }


def rss(pid: int) -> int:
    """Resident memory of process ``pid`` in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def server(sessions: int, store: bool = True) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """The server in a process of its own, on a free port, with a new store (or none)."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        db = str(Path(tmp) / "bench.db") if store else "-"
        cmd = [sys.executable, "-c", SERVER, str(port), db, str(sessions)]
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(httpx2.HTTPError):
                    if httpx2.get(f"{url}/api/meta", timeout=2).status_code == 200:
                        break
                if proc.poll() is not None or time.monotonic() > deadline:
                    err = proc.stderr.read().decode() if proc.stderr else ""
                    raise RuntimeError(f"the server did not start: {err[-2000:]}")
                time.sleep(0.2)
            yield url, proc
        finally:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
            if proc.poll() is None:
                proc.kill()


class Seat:
    """One WebSocket of a match and the views it received, in order."""

    def __init__(self, ws: ClientConnection, figures: Figures) -> None:
        self.ws = ws
        self.figures = figures
        self.view: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                message = json.loads(raw)
                if message.get("type") == "state":
                    self.view = message["view"]
                    self.figures.views += 1
                    self.changed.set()
                else:
                    self.figures.errors += 1

    async def until(self, test: Any) -> dict[str, Any]:
        """The first view (the current one included) for which ``test`` holds."""
        while self.view is None or not test(self.view):
            self.changed.clear()
            await self.changed.wait()
        return self.view


def ws_url(url: str, game: str, token: str) -> str:
    """The WebSocket address of a seat."""
    return f"ws{url[4:]}/ws/{game}?token={token}"


async def open_match(
    client: httpx2.AsyncClient, url: str, ruleset: str, seed: int
) -> tuple[str, str, str, str]:
    """Create a match and join it: (game id, seat 0's token, seat 1's token, spectator's)."""
    body = {"ruleset": ruleset, "mode": "vs_human", "seed": seed, "config": CONFIGS[ruleset]}
    made = (await client.post(f"{url}/api/games", json=body)).raise_for_status().json()
    joined = await client.post(f"{url}/api/games/{made['id']}/join", json={"code": made["invite"]})
    guest = joined.raise_for_status().json()
    return made["id"], made["token"], guest["token"], made["spectate"]


async def play_match(
    url: str, match: tuple[str, str, str, str], seed: int, args: argparse.Namespace, f: Figures
) -> None:
    """Both seats of one match play it out (at most ``limit`` actions), each action timed
    until both seats (and the spectator) have its result."""
    rng = random.Random(seed)
    game, t0, t1, watch = match
    limit, spectate = args.actions, args.spectators
    async with contextlib.AsyncExitStack() as stack:
        socks = [
            await stack.enter_async_context(connect(ws_url(url, game, t), max_size=2**24))
            for t in ([t0, t1] + ([watch] if spectate else []))
        ]
        seats = [Seat(ws, f) for ws in socks]
        try:
            view = await seats[0].until(lambda v: v["session"]["table"]["present"][1])
            for _ in range(limit):
                steps = view["history"]["steps"]
                pending = view["pending"]
                if pending is None or view["session"]["table"]["ended"]:
                    f.matches_over += 1
                    return
                mover = seats[pending["seat"]]
                own = await mover.until(lambda v, s=steps: v["history"]["steps"] == s)
                action = rng.choice(own["pending"]["legal"])
                if args.think > 0:
                    await asyncio.sleep(rng.uniform(0, 2 * args.think))
                message = {"type": "act", "prompt_id": pending["prompt_id"], "action": action}
                sent = time.perf_counter()
                await mover.ws.send(json.dumps(message))
                after = [s.until(lambda v, n=steps: v["history"]["steps"] > n) for s in seats]
                views = await asyncio.gather(*after)
                f.latencies.append(time.perf_counter() - sent)
                view = views[0]
        finally:
            for seat in seats:
                seat.reader.cancel()


async def sample_peak(pid: int, figures: Figures, stop: asyncio.Event) -> None:
    """Keep the server's highest resident memory until ``stop``."""
    while not stop.is_set():
        figures.rss_peak = max(figures.rss_peak, rss(pid))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(0.1):
                await stop.wait()


async def run(url: str, pid: int, args: argparse.Namespace) -> Figures:
    """Create every match, then play them all at once."""
    figures = Figures(think=args.think)
    figures.rss_before = rss(pid)
    async with httpx2.AsyncClient(timeout=60) as client:
        matches = [
            await open_match(client, url, args.ruleset, 5000 + i) for i in range(args.matches)
        ]
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_peak(pid, figures, stop))
    start = time.perf_counter()
    jobs = [play_match(url, m, 5000 + i, args, figures) for i, m in enumerate(matches)]
    results = await asyncio.gather(*jobs, return_exceptions=True)
    figures.errors += sum(1 for r in results if isinstance(r, BaseException))
    figures.seconds = time.perf_counter() - start
    figures.rss_end = rss(pid)
    stop.set()
    await sampler
    return figures


def main() -> None:
    """Run the benchmark and print its figures as a table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=100, help="concurrent matches")
    parser.add_argument("--actions", type=int, default=400, help="actions per match at most")
    parser.add_argument("--ruleset", choices=sorted(CONFIGS), default="kobo")
    parser.add_argument("--spectators", action="store_true", help="one spectator per match")
    parser.add_argument("--no-store", action="store_true", help="a server that records nothing")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds per decision")
    args = parser.parse_args()
    with server(args.matches + 16, not args.no_store) as (url, proc):
        time.sleep(1.0)
        figures = asyncio.run(run(url, proc.pid, args))
    row = figures.row(args.matches)
    print("| " + " | ".join(row) + " |")
    print("|" + "|".join("---" for _ in row) + "|")
    print("| " + " | ".join(row.values()) + " |")


if __name__ == "__main__":
    main()

"""Fairness benchmark of the game server: what one client's flood costs everyone else.

Two attacks against a real server process, each on a fresh server: ``kessen play --no-browser
--port N --db FILE`` from the sources under test, on 127.0.0.1 with a fresh store and the
default COM pace (3 s; given no ``--pace``, so the server's COM-vs-COM floor applies where it
has one), stopped as Ctrl+C stops it (SIGTERM would leave this tree's COM worker processes
running). Every client sends from its own loopback address (127.0.0.x), since the server keeps
its quotas per client address.

1. **Multi-connection flood.** One client (127.0.0.2) makes a vs-COM Kōbō game (fortress
   against swarm, one game, COM pace 0 so that setting it up is quick) and opens
   ``--connections`` WebSockets to it one after another, counting those the server accepts
   (a first ``state`` message) and refuses (an ``error`` such as ``too_many_connections``, or
   a closed or refused handshake). On one of them it plays ``--setup-moves`` random legal
   moves, until its history says undo is possible. Then every accepted connection sends
   ``--messages`` messages ``{"type": "undo"}`` / ``{"type": "redo"}`` alternately, as fast as
   it can, all at once, and the client reads every message the server sends back, until none
   has come for ``--quiet`` seconds or ``--flood-cap`` seconds have passed. Meanwhile another
   client (127.0.0.3, its own process, so that the flooding client's work does not delay its
   clock) asks ``GET /api/meta`` every 20 ms, each on a new connection. Reported: the
   connections accepted and refused, the messages sent, the ``state`` and ``error`` messages
   the flooding client received during the flood, how long the server went on answering, and
   the other client's /api/meta latency (p50/p95/p99/max, by the requests started in each
   window) over the ``--baseline`` seconds just before the flood (the game set up, nothing
   sent) and during it (from the first message sent to the last one the server sent back, at
   least a second).

2. **COM-vs-COM flood.** First a baseline: one person (127.0.0.4) plays a vs-COM Kōbō game
   (COM ``heuristic``, pace 0, fortress against swarm, one game; another when one ends),
   answering each of its prompts at once with a random legal action, for ``--decisions`` of
   its own decisions (or ``--com-cap`` seconds), after as many unmeasured ones (the server
   starts its COM workers on their first decisions). For every decision of COM in that game,
   the wait is the time between two consecutive ``state`` messages while COM is to move (the
   one that asks COM, the one that shows its action): COM's wait per decision, as the person
   sees it; and, robust to views that arrive bunched, the time from sending a move to the
   person's next prompt, for the moves COM answered in between. Then ``--matches`` COM-vs-COM
   matches of ``ismcts-strong`` at pace 0 (best of nine, so they last) are started, each by
   its own client (127.0.0.10 and up) with a spectator connected to it (the token the POST
   answers), so that none is idle; after ``--warmup`` seconds the person plays again the same
   way. Reported: COM's wait p50/p95/max with and without the matches, the matches started
   and refused, the COM-vs-COM pace the server put in effect (from the spectators' first
   view; this tree floors a client's pace 0 at 0.5 s on a server of the default pace, 2fd3fb1
   has no floor) and how many COM-vs-COM views (one per action) the spectators received per
   second while the person played.

``--against REV`` runs both against the server of another revision too (checked out in a
temporary git worktree), in the same sitting, and prints the figures side by side:

    nice -n 5 .venv/bin/python bench/fairness_bench.py --against 2fd3fb1   # ~3 min
    nice -n 5 .venv/bin/python bench/fairness_bench.py                     # this tree alone
    nice -n 5 .venv/bin/python bench/fairness_bench.py --only flood --flood-cap 20 \\
        --baseline 4                                                         # a smoke run
    nice -n 5 .venv/bin/python bench/fairness_bench.py --only com --decisions 15 --matches 4
    nice -n 5 .venv/bin/python bench/fairness_bench.py --only com --decisions 400 \
        --against 2fd3fb1   # a steadier sample of COM's waits (40 decisions take < 1 s here)

The benchmark shares the machine's cores with the server it measures (the flooding client reads
every message it is sent), so on a small machine its figures include some of its own load. It
is a script, not a test: nothing asserts on the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from kessen_server import ROOT, log_errors, remove_worktree, server, worktree
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.typing import Origin

DECKS = ["fortress", "swarm"]
FLOODER = "127.0.0.2"
"""The client that floods (attack 1)."""
POLLER = "127.0.0.3"
"""The other client, asking /api/meta during the flood."""
PLAYER = "127.0.0.4"
"""The person playing against COM (attack 2)."""
WATCHERS = 10
"""COM-vs-COM match number i is started and watched from 127.0.0.(WATCHERS + i)."""
POLL_EVERY = 0.02
"""Seconds between the starts of two /api/meta requests (sooner after a slow one)."""
MIN_DURING = 1.0
"""The shortest window, in seconds from its start, that counts as during the flood."""
STATE_PREFIX = b'{"type":"state"'
"""How every ``state`` message begins (the server encodes it compactly, ``type`` first)."""
SERVER_PACE = 3.0
"""``kessen play``'s default COM pace; the benchmark's servers are started with it."""


def flood_game() -> dict[str, Any]:
    """The vs-COM game the flooding client makes (COM at pace 0: set up in seconds)."""
    config = {"decks": DECKS, "best_of": 1}
    return {"ruleset": "kobo", "mode": "vs_com", "pace": 0, "config": config}


def player_game() -> dict[str, Any]:
    """The person's vs-COM game in attack 2."""
    config = {"decks": DECKS, "best_of": 1}
    return {"ruleset": "kobo", "mode": "vs_com", "com": "heuristic", "pace": 0, "config": config}


def watched_match() -> dict[str, Any]:
    """One COM-vs-COM match of attack 2."""
    config = {"decks": DECKS, "best_of": 9}
    return {
        "ruleset": "kobo",
        "mode": "com_vs_com",
        "com": "ismcts-strong",
        "pace": 0,
        "config": config,
    }


# --- figures ---------------------------------------------------------------------------------


def percentile(ordered: list[float], p: float) -> str:
    """The nearest-rank ``p`` quantile of the sorted seconds ``ordered``, in milliseconds."""
    if not ordered:
        return "–"
    return f"{ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000:.1f}"


def spread(seconds: list[float], quantiles: tuple[float, ...]) -> str:
    """``n=…`` and the ``quantiles`` of ``seconds`` (1.0: the maximum), in milliseconds."""
    ordered = sorted(seconds)
    cells = [
        ("max" if q >= 1.0 else f"p{q * 100:g}") + " " + percentile(ordered, q) for q in quantiles
    ]
    return f"n={len(ordered)}: " + " / ".join(cells) + " ms"


def codes(counter: Counter[str]) -> str:
    """A counter as ``code ×n`` pairs, commonest first ("none" when empty)."""
    return ", ".join(f"{code} ×{n}" for code, n in counter.most_common()) or "none"


@dataclass
class FloodFigures:
    """What attack 1 measured on one server."""

    accepted: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    setup_moves: int = 0
    can_undo: bool = False
    sent: int = 0
    send_seconds: float = 0.0
    states: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    answered_for: float = 0.0
    """Seconds from the first message sent until the last message the server sent back."""
    drained: bool = False
    baseline: list[float] = field(default_factory=list)
    during: list[float] = field(default_factory=list)
    failed: int = 0
    """/api/meta requests during the flood that failed or did not answer 200."""
    note: str = ""

    def cells(self) -> dict[str, str]:
        q = (0.5, 0.95, 0.99, 1.0)
        refused = sum(self.refused.values())
        return {
            "WebSockets accepted / refused": f"{self.accepted} / {refused}"
            + (f" ({codes(self.refused)})" if refused else ""),
            "moves played first (undo possible)": f"{self.setup_moves} ({self.can_undo})",
            "undo/redo messages sent": f"{self.sent} in {self.send_seconds:.2f} s",
            "state messages received in the flood": str(self.states),
            "error messages received in the flood": codes(self.errors),
            "server answered for": f"{self.answered_for:.1f} s"
            + ("" if self.drained else " (still sending at the cap)"),
            "/api/meta before the flood": spread(self.baseline, q),
            "/api/meta during the flood": spread(self.during, q)
            + (f", {self.failed} failed" if self.failed else ""),
            "note": self.note or "–",
        }


@dataclass
class Waits:
    """COM's waits in the person's game."""

    waits: list[float] = field(default_factory=list)
    replies: list[float] = field(default_factory=list)
    """From sending a move to the person's next prompt, for the moves COM answered (one or
    more COM decisions in between): robust to views that arrive bunched."""
    decisions: int = 0
    """The person's own decisions."""
    games: int = 0
    seconds: float = 0.0
    errors: Counter[str] = field(default_factory=Counter)

    def cells(self, name: str) -> dict[str, str]:
        return {
            f"{name}: person's decisions (games, s)": f"{self.decisions} ({self.games} game(s), "
            f"{self.seconds:.1f} s)",
            f"{name}: COM's wait per decision": spread(self.waits, (0.5, 0.95, 1.0)),
            f"{name}: move sent → next prompt, COM between": spread(self.replies, (0.5, 0.95, 1.0)),
            f"{name}: errors": codes(self.errors),
        }


@dataclass
class ComFigures:
    """What attack 2 measured on one server."""

    baseline: Waits = field(default_factory=Waits)
    loaded: Waits = field(default_factory=Waits)
    started: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    paces: Counter[float] = field(default_factory=Counter)
    """The pace each COM-vs-COM match's first view names."""
    watched_actions: int = 0
    """COM-vs-COM views the spectators received while the person played with them running."""

    def cells(self) -> dict[str, str]:
        refused = sum(self.refused.values())
        rate = self.watched_actions / self.loaded.seconds if self.loaded.seconds else 0.0
        paces = ", ".join(f"{p:g} s ×{n}" for p, n in sorted(self.paces.items())) or "–"
        return {
            **self.baseline.cells("alone"),
            "COM-vs-COM matches started / refused": f"{self.started} / {refused}"
            + (f" ({codes(self.refused)})" if refused else ""),
            "COM-vs-COM pace in effect (asked 0)": paces,
            "COM-vs-COM views seen while the person played": f"{self.watched_actions} "
            f"({rate:.1f}/s over all matches)",
            **self.loaded.cells("beside them"),
        }


@dataclass
class Run:
    """Both attacks against one server."""

    label: str
    flood: FloodFigures | None = None
    com: ComFigures | None = None
    log_errors: dict[str, int] = field(default_factory=dict)


# --- the server ------------------------------------------------------------------------------


# --- talking to it ---------------------------------------------------------------------------


class Refused(Exception):
    """The server said no; the message says how."""


async def post(url: str, body: dict[str, Any], local: str) -> dict[str, Any]:
    """``POST {url}/api/games`` from address ``local``; :class:`Refused` unless it answers 200."""
    transport = httpx2.AsyncHTTPTransport(local_address=local, trust_env=False)
    async with httpx2.AsyncClient(transport=transport, timeout=60, trust_env=False) as client:
        response = await client.post(f"{url}/api/games", json=body)
    if response.status_code != 200:
        raise Refused(f"HTTP {response.status_code}")
    answer: dict[str, Any] = response.json()
    return answer


async def open_ws(url: str, made: dict[str, Any], local: str) -> ClientConnection:
    """A WebSocket to the game ``made`` (its ``id`` and ``token``) from address ``local``."""
    return await connect(
        f"ws{url[4:]}/ws/{made['id']}?token={made['token']}",
        origin=Origin(url),
        max_size=2**24,
        open_timeout=30,
        close_timeout=2,
        proxy=None,
        local_addr=(local, 0),
    )


async def first_message(ws: ClientConnection) -> dict[str, Any]:
    """The first message the server sends on ``ws`` (:class:`Refused` if it closes first)."""
    try:
        async with asyncio.timeout(30):
            message: dict[str, Any] = json.loads(await ws.recv())
    except ConnectionClosed as err:
        raise Refused(f"closed ({err.rcvd.code if err.rcvd else '-'})") from err
    except TimeoutError as err:
        raise Refused("no first message") from err
    return message


async def close_all(sockets: list[ClientConnection]) -> None:
    """Close ``sockets``, giving up (and dropping them) after a few seconds."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(10):
            await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    for ws in sockets:
        ws.transport.abort()


# --- the other client: /api/meta in its own process ------------------------------------------


def poll_meta(url: str, local: str, out: Path) -> None:
    """Ask ``GET {url}/api/meta`` from ``local`` every :data:`POLL_EVERY` seconds until
    terminated, writing one line per request: its start (``time.monotonic()``, the same clock
    in every process), its latency in seconds and 1 if it answered 200, else 0."""
    # A new connection per request, as curl makes: on a kept-alive one, the response's
    # separate writes of head and body meet the client's delayed ACK and add 40 ms to each.
    limits = httpx2.Limits(max_keepalive_connections=0)
    transport = httpx2.HTTPTransport(local_address=local, limits=limits)
    with (
        httpx2.Client(transport=transport, timeout=30, trust_env=False) as client,
        out.open("w", buffering=1) as lines,
    ):
        due = time.monotonic()
        while True:
            start = time.monotonic()
            try:
                ok = client.get(f"{url}/api/meta").status_code == 200
            except httpx2.HTTPError:
                ok = False
            lines.write(f"{start:.6f} {time.monotonic() - start:.6f} {int(ok)}\n")
            due += POLL_EVERY
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            else:  # a slow answer: the next request at once, the schedule from now on
                due = time.monotonic()


@contextlib.contextmanager
def poller(url: str, out: Path) -> Iterator[subprocess.Popen[bytes]]:
    """The /api/meta client (this script with ``--poll-meta``), writing to ``out``."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--poll-meta", url, "--poll-out"]
    proc = subprocess.Popen([*cmd, str(out)])
    try:
        deadline = time.monotonic() + 30
        while not (out.exists() and out.stat().st_size) and time.monotonic() < deadline:
            time.sleep(0.1)
        yield proc
    finally:
        proc.terminate()
        proc.wait()


def samples(out: Path, start: float, end: float) -> tuple[list[float], int]:
    """The latencies of the requests started between ``start`` and ``end``, and how many of
    them failed."""
    latencies, failed = [], 0
    for line in out.read_text().splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue  # the last line, cut by the termination
        at, took, ok = float(parts[0]), float(parts[1]), parts[2] == "1"
        if start <= at <= end:
            latencies.append(took)
            failed += not ok
    return latencies, failed


# --- attack 1: many connections, undo/redo as fast as possible -------------------------------


@dataclass
class Flood:
    """What the flooding client's connections receive."""

    states: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    last: float = 0.0
    views: asyncio.Queue[dict[str, Any]] | None = None
    """The views of the first connection, while it sets the game up."""


async def read(ws: ClientConnection, flood: Flood, primary: bool) -> None:
    """Count what ``ws`` receives (the primary connection also hands on its views)."""
    with contextlib.suppress(ConnectionClosed):
        while True:
            raw = await ws.recv(decode=False)
            flood.last = time.monotonic()
            if raw.startswith(STATE_PREFIX):
                flood.states += 1
                if primary and flood.views is not None:
                    flood.views.put_nowait(json.loads(raw)["view"])
            else:
                flood.errors[str(json.loads(raw).get("code"))] += 1


async def set_up(
    flood: Flood, ws: ClientConnection, moves: int, rng: random.Random
) -> tuple[int, bool]:
    """Play ``moves`` random legal moves on ``ws`` and wait until the person is to move again
    with undo possible; the moves played, and whether undo is possible."""
    assert flood.views is not None
    played, answered = 0, None
    async with asyncio.timeout(60):
        while True:
            view = await flood.views.get()
            pending = view["pending"]
            if pending is None:
                return played, bool(view["history"]["can_undo"])  # the game ended
            if pending["seat"] != 0 or not pending.get("legal"):
                continue  # COM's turn
            if played >= moves and view["history"]["can_undo"]:
                return played, True
            if pending["prompt_id"] == answered:
                continue
            answered = pending["prompt_id"]
            act = {"type": "act", "prompt_id": answered, "action": rng.choice(pending["legal"])}
            await ws.send(json.dumps(act))
            played += 1


async def send_flood(ws: ClientConnection, count: int) -> int:
    """``count`` undo and redo messages, alternately, as fast as ``ws`` takes them."""
    sent = 0
    with contextlib.suppress(ConnectionClosed):
        for i in range(count):
            await ws.send(json.dumps({"type": "undo" if i % 2 == 0 else "redo"}))
            sent += 1
    return sent


async def connection_flood(url: str, args: argparse.Namespace, polled: Path) -> FloodFigures:
    """Attack 1 (see the module docstring); the /api/meta client writes to ``polled``."""
    figures = FloodFigures()
    views: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    flood = Flood(views=views)
    made = await post(url, flood_game(), FLOODER)
    sockets: list[ClientConnection] = []
    readers: list[asyncio.Task[None]] = []
    try:
        for number in range(args.connections):
            try:
                ws = await open_ws(url, made, FLOODER)
            except InvalidStatus as err:
                figures.refused[f"HTTP {err.response.status_code}"] += 1
                continue
            except (InvalidHandshake, OSError, TimeoutError) as err:
                figures.refused[type(err).__name__] += 1
                continue
            try:
                message = await first_message(ws)
            except Refused as err:
                figures.refused[str(err)] += 1
                ws.transport.abort()
                continue
            if message.get("type") != "state":
                figures.refused[str(message.get("code"))] += 1
                await close_all([ws])
                continue
            figures.accepted += 1
            sockets.append(ws)
            if number == 0:
                views.put_nowait(message["view"])
            readers.append(asyncio.create_task(read(ws, flood, primary=number == 0)))
        if not sockets:
            figures.note = "no connection accepted"
            return figures
        rng = random.Random(args.seed)
        moves = await set_up(flood, sockets[0], args.setup_moves, rng)
        figures.setup_moves, figures.can_undo = moves
        flood.views = None
        await asyncio.sleep(1.0)  # the last views of the set-up arrive
        quiet_from = time.monotonic()
        await asyncio.sleep(args.baseline)
        # The flood: every connection at once, then read until the server stops sending.
        flood.states, flood.errors = 0, Counter()
        begun = time.monotonic()
        sent = await asyncio.gather(*(send_flood(ws, args.messages) for ws in sockets))
        figures.sent = sum(sent)
        figures.send_seconds = time.monotonic() - begun
        cap = begun + args.flood_cap
        while True:
            now = time.monotonic()
            if now - max(flood.last, begun) >= args.quiet:
                figures.drained = True
                break
            if now >= cap:
                break
            await asyncio.sleep(0.1)
        figures.states, figures.errors = flood.states, Counter(flood.errors)
        figures.answered_for = max(flood.last, begun) - begun
        figures.baseline, _ = samples(polled, quiet_from, begun)
        # "During": while the server answered the flood (at least a second, for a few samples).
        during = begun + max(figures.answered_for, MIN_DURING)
        figures.during, figures.failed = samples(polled, begun, during)
    finally:
        await close_all(sockets)
        for task in readers:
            task.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    return figures


# --- attack 2: COM-vs-COM matches beside a person playing COM --------------------------------


async def play_person(url: str, decisions: int, cap: float, rng: random.Random) -> Waits:
    """A person answering every prompt at once with a random legal action, for ``decisions``
    decisions or ``cap`` seconds, a new game whenever one ends; COM's waits measured."""
    out = Waits()
    begun = time.monotonic()
    deadline = begun + cap
    while out.decisions < decisions and time.monotonic() < deadline:
        try:
            made = await post(url, player_game(), PLAYER)
        except Refused as err:
            out.errors[f"new game: {err}"] += 1
            await asyncio.sleep(1.0)
            continue
        out.games += 1
        seat = int(made.get("seat", 0))
        ws = await open_ws(url, made, PLAYER)
        try:
            com_since: float | None = None
            acted_at: float | None = None
            com_decisions = 0
            answered = None
            while out.decisions < decisions:
                try:
                    async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                        raw = await ws.recv()
                except TimeoutError:
                    break
                now = time.monotonic()
                message = json.loads(raw)
                if message.get("type") != "state":
                    out.errors[str(message.get("code"))] += 1
                    continue
                pending = message["view"]["pending"]
                if com_since is not None:  # a view while COM was to move: COM's decision
                    out.waits.append(now - com_since)
                    com_decisions += 1
                com_to_move = pending is not None and pending["seat"] != seat
                com_since = now if com_to_move else None
                if not com_to_move and (pending is None or pending["prompt_id"] != answered):
                    if acted_at is not None and com_decisions:  # the person's turn again
                        out.replies.append(now - acted_at)
                    acted_at, com_decisions = None, 0
                if pending is None:
                    break  # the game ended: another
                if com_to_move or not pending.get("legal") or pending["prompt_id"] == answered:
                    continue
                answered = pending["prompt_id"]
                act = {"type": "act", "prompt_id": answered, "action": rng.choice(pending["legal"])}
                acted_at = time.monotonic()
                await ws.send(json.dumps(act))
                out.decisions += 1
        except ConnectionClosed as err:
            out.errors[f"closed ({err.rcvd.code if err.rcvd else '-'})"] += 1
        finally:
            await close_all([ws])
    out.seconds = time.monotonic() - begun
    return out


@dataclass
class Watch:
    """The spectators of the COM-vs-COM matches."""

    views: int = 0


async def spectate(ws: ClientConnection, watch: Watch) -> None:
    with contextlib.suppress(ConnectionClosed):
        while True:
            raw = await ws.recv(decode=False)
            watch.views += raw.startswith(STATE_PREFIX)


async def com_flood(url: str, args: argparse.Namespace) -> ComFigures:
    """Attack 2 (see the module docstring)."""
    figures = ComFigures()
    rng = random.Random(args.seed)
    # A first game unmeasured: the server starts its COM workers on their first decisions.
    await play_person(url, args.decisions, args.com_cap, rng)
    figures.baseline = await play_person(url, args.decisions, args.com_cap, rng)
    watch = Watch()
    sockets: list[ClientConnection] = []
    spectators: list[asyncio.Task[None]] = []
    try:
        for number in range(args.matches):
            local = f"127.0.0.{WATCHERS + number}"
            try:
                made = await post(url, watched_match(), local)
                ws = await open_ws(url, made, local)
            except Refused as err:
                figures.refused[str(err)] += 1
                continue
            except (InvalidHandshake, OSError, TimeoutError) as err:
                figures.refused[type(err).__name__] += 1
                continue
            try:
                message = await first_message(ws)
            except Refused as err:
                figures.refused[str(err)] += 1
                ws.transport.abort()
                continue
            sockets.append(ws)
            if message.get("type") != "state":
                figures.refused[str(message.get("code"))] += 1
                continue
            figures.started += 1
            figures.paces[float(message["view"]["session"]["pace"])] += 1
            spectators.append(asyncio.create_task(spectate(ws, watch)))
        await asyncio.sleep(args.warmup)
        seen = watch.views
        figures.loaded = await play_person(url, args.decisions, args.com_cap, rng)
        figures.watched_actions = watch.views - seen
    finally:
        await close_all(sockets)
        for task in spectators:
            task.cancel()
        await asyncio.gather(*spectators, return_exceptions=True)
    return figures


# --- the sitting -----------------------------------------------------------------------------


def measure(label: str, src: Path, tmp: Path, args: argparse.Namespace) -> Run:
    """Each attack chosen by ``--only`` against a fresh server of the sources in ``src``."""
    run = Run(label)
    slug = label.replace(" ", "-")
    if args.only in (None, "flood"):
        log = tmp / f"{slug}-flood.log"
        polled = tmp / f"{slug}-meta.txt"
        with server(src, tmp / f"{slug}-flood.db", log) as (url, _), poller(url, polled):
            run.flood = asyncio.run(connection_flood(url, args, polled))
        run.log_errors["flood"] = log_errors(log)
        print(f"{label}: connection flood measured", file=sys.stderr, flush=True)
    if args.only in (None, "com"):
        log = tmp / f"{slug}-com.log"
        with server(src, tmp / f"{slug}-com.db", log) as (url, _):
            run.com = asyncio.run(com_flood(url, args))
        run.log_errors["com"] = log_errors(log)
        print(f"{label}: COM-vs-COM flood measured", file=sys.stderr, flush=True)
    return run


def print_table(title: str, runs: list[Run], rows: list[dict[str, str]]) -> None:
    """One row per figure, one column per server."""
    print(f"\n{title}\n")
    print("| figure | " + " | ".join(run.label for run in runs) + " |")
    print("|---|" + "---|" * len(runs))
    for key in rows[0]:
        print(f"| {key} | " + " | ".join(row.get(key, "–") for row in rows) + " |")


def report(runs: list[Run], args: argparse.Namespace) -> None:
    print(
        f"Servers: kessen play --no-browser --port N --db FILE on 127.0.0.1, fresh store each, "
        f"default pace ({SERVER_PACE:g} s): this tree floors a client's COM-vs-COM pace at "
        f"min(0.5 s, server pace) = 0.5 s; the old revision has no floor."
    )
    floods = [run.flood for run in runs if run.flood is not None]
    if len(floods) == len(runs) and floods:
        print_table(
            f"1. Multi-connection flood: one client ({FLOODER}) opens {args.connections} "
            f"WebSockets to its own vs-COM game and sends {args.messages} undo/redo from each; "
            f"another ({POLLER}) asks /api/meta every {POLL_EVERY * 1000:g} ms "
            f"(baseline: {args.baseline:g} s before the flood; cap {args.flood_cap:g} s, "
            f"drained after {args.quiet:g} s without a message)",
            runs,
            [
                {**f.cells(), "server log errors": str(run.log_errors["flood"])}
                for f, run in zip(floods, runs, strict=True)
            ],
        )
    coms = [run.com for run in runs if run.com is not None]
    if len(coms) == len(runs) and coms:
        print_table(
            f"2. COM-vs-COM flood: {args.matches} matches of ismcts-strong at pace 0 (each its "
            f"own client, 127.0.0.{WATCHERS}…, a spectator each) beside one person ({PLAYER}) "
            f"playing heuristic COM at pace 0 for {args.decisions} decisions "
            f"(cap {args.com_cap:g} s, warm-up {args.warmup:g} s)",
            runs,
            [
                {**c.cells(), "server log errors": str(run.log_errors["com"])}
                for c, run in zip(coms, runs, strict=True)
            ],
        )


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").splitlines()[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--against", help="also run the server of this git revision")
    parser.add_argument("--only", choices=("flood", "com"), help="one attack only")
    parser.add_argument("--seed", type=int, default=0, help="the clients' random choices")
    flood = parser.add_argument_group("attack 1: multi-connection flood")
    flood.add_argument("--connections", type=int, default=100, help="WebSockets to open")
    flood.add_argument("--messages", type=int, default=40, help="undo/redo per connection")
    flood.add_argument("--setup-moves", type=int, default=3, help="moves played before")
    flood.add_argument("--baseline", type=float, default=8.0, help="quiet seconds measured")
    flood.add_argument("--flood-cap", type=float, default=60.0, help="longest flood, seconds")
    flood.add_argument("--quiet", type=float, default=3.0, help="seconds that mean drained")
    com = parser.add_argument_group("attack 2: COM-vs-COM flood")
    com.add_argument("--matches", type=int, default=12, help="COM-vs-COM matches")
    com.add_argument("--decisions", type=int, default=40, help="the person's decisions")
    com.add_argument("--com-cap", type=float, default=75.0, help="longest play, seconds")
    com.add_argument("--warmup", type=float, default=5.0, help="seconds before the person")
    parser.add_argument("--poll-meta", help=argparse.SUPPRESS)
    parser.add_argument("--poll-out", type=Path, help=argparse.SUPPRESS)
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    if args.poll_meta:  # the /api/meta client's own process
        poll_meta(args.poll_meta, POLLER, args.poll_out)
        return
    trees: list[tuple[str, Path]] = [("this tree", ROOT / "src")]
    tmp = Path(tempfile.mkdtemp(prefix="kessen-fairness-"))
    try:
        if args.against:
            old = worktree(args.against, tmp)
            trees.insert(0, (args.against, old / "src"))
        runs = [measure(label, src, tmp, args) for label, src in trees]
        report(runs, args)
    finally:
        if args.against:
            remove_worktree(args.against, tmp)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

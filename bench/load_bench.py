"""Load benchmark of the game server: many concurrent matches, vs COM and between two people.

What a run does. A real server is started as its own process (``kessen play`` on 127.0.0.1 with
a fresh store, COM at ``--pace`` seconds per action), and this process plays ``--matches``
matches against it at once over WebSockets (HTTP for creating and joining), in ``--waves``
rounds. The mix, by default the issue's workload of 100 matches:

- ``--two-person`` matches between two people (``mode`` ``vs_human``): the creator gets a token
  and an invite code, the guest joins with the code (``POST /api/games/{id}/join``), and both
  seats connect and answer their own prompts;
- ``--search`` matches against a search COM, taking the levels of ``--search-levels`` in turn;
- the rest against ``--com`` (``heuristic``);

each kind dealt over the games of ``--rulesets`` in turn (Kōbō as a single game, the others
with their default configs), the matches started in a shuffled order over ``--ramp`` seconds.
No request names a seed: the server deals every match. Each person sends from their own loopback
address (``--addresses``; the server keeps its quotas per address). Every person answers each
prompt of their own seat with a random legal action after a delay drawn uniformly between
``--think`` and ``--think-max`` seconds (0.2 to 1.0 by default: several times faster than people
play; ``--think 0 --think-max 0`` answers at once, a test of throughput rather than of latency,
whose figures are mostly queueing), and the latency of an action is the time from sending it
until the view that results from it (the next one with another prompt, or none) reaches that
person. A match stops at its end, after ``--max-actions`` actions of its people, or when
``--duration`` seconds of the wave have passed (actions already sent are still waited for); a
match stopped early is then resigned by its first person (unless ``--no-resign``), so that it
ends like a real one and leaves the server's memory a minute later (an unfinished one would stay
there for the quarter of an hour the server waits for its players). Random play ends most games
within a minute: a match that ends (or reaches ``--max-actions``) before ``--duration`` is
followed by a new one of its kind (unless ``--once``), so that ``--matches`` stay live for the
whole wave; a place whose match is refused or fails plays no more in it.

Reported per server: the number of actions and their latency (p50/p95/p99/max/mean; overall, per
group and per kind of match), the matches refused (HTTP 503/429 when creating or joining, or a
WebSocket the server refused or closed before the first view), the errors (error messages during
play, dropped connections, stalls, failed requests) with their most common causes, the matches
finished (and resigned, or cut by the limits), the most matches live at once, the most sessions
the server held in memory at once (against its cap, ``limits.MAX_SESSIONS``), the machine's load
average when the run started and when its play ended, and the server's resident memory from
``/proc``: before the matches, at its peak, at the end of each wave, and after it: once the
server holds no session any more (a finished match leaves its memory a minute after its end;
waited for at most ``--evict-wait`` seconds, the time it took reported) and ``--settle`` seconds
more (the server gives what its sessions held back to the system at its next sweep), and that
of its COM worker processes at their peak. CPython keeps most of the memory a load took for
reuse (see ``docs/scaling.md``), so the figure to watch is that a second wave does not add to
the first. Lines of the server's log that report an error are counted too. After the server
has stopped, ``kessen store check`` replays every match of its store (with the same revision's
code) and the number that replay exactly is printed. With ``--spam``, one more client sends
undo/redo messages as fast as it can beside them.

``--against REV`` runs the same load against the server of another revision (checked out in a
temporary git worktree) in the same sitting, and prints both side by side. ``--repeat N`` runs
each server N times, alternating (REV, this tree, REV, …), and adds the medians over each
server's runs (``load_report.py``): on a machine others use too, one run says little.

    .venv/bin/python bench/load_bench.py                   # the issue's workload, ~2 min of play
    .venv/bin/python bench/load_bench.py --against 8c73ffa
    .venv/bin/python bench/load_bench.py --against HEAD --repeat 3   # before/after, medians
    .venv/bin/python bench/load_bench.py --matches 6 --two-person 2 --search 1 --duration 20 \\
        --settle 5 --evict-wait 90                         # a smoke run
    .venv/bin/python bench/load_bench.py --games 50 --waves 2 --settle 90 --spam
        # the former benchmark: 50 Kōbō games against the heuristic COM, played to their end

The benchmark shares the machine's cores with the server it measures (it parses every view it
receives), so on a small machine its figures include some of its own load. It is a script, not
a test: nothing asserts on the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pydantic_core
from kessen_server import ROOT, children, log_errors, remove_worktree, rss, server, worktree
from load_report import (
    Figures,
    Tally,
    check_store,
    cpu_seconds,
    kind_rows,
    machine_busy,
    median_rows,
    print_table,
    sample_peak,
    sample_sessions,
)
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

RULESETS = ("kobo", "twgp", "maken")
TWO = "two people"
"""The opponent of a match between two people (the others name a COM level)."""
CONFIGS: dict[str, dict[str, Any]] = {"kobo": {"best_of": 1}}
"""Config overrides per ruleset (Kōbō as one game, as the former benchmark played it)."""
REFUSING_STATUS = (429, 503)
"""HTTP answers that say the server is full or busy: a refusal, not an error."""
SLICE = 0.5
"""Seconds one wait for a message lasts before the limits are looked at again."""
IN_FLIGHT_GRACE = 30.0
"""Seconds an action sent before the end of the wave is still waited for."""
THINK = (0.2, 1.0)
"""By default a person answers after 0.2 to 1.0 seconds (uniformly): several times faster than
people play a card game, so 100 matches load the server more than 100 people would."""
QUIET = 0.1
"""A run is quiet when other processes kept at most this share of the machine's cores busy."""


class Refused(Exception):
    """The server refused a match (full or busy): HTTP 503/429 or a refused WebSocket."""


class Failed(Exception):
    """A match that could not go on, with the reason as its message."""


# --- the mix -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """One match of the mix."""

    index: int
    ruleset: str
    opponent: str
    """A COM level, or :data:`TWO`."""

    @property
    def two(self) -> bool:
        return self.opponent == TWO

    @property
    def kind(self) -> str:
        return f"{self.ruleset} {TWO if self.two else 'vs ' + self.opponent}"


def mix(
    matches: int,
    two_person: int,
    search: int,
    rulesets: list[str],
    levels: list[str],
    com: str,
    seed: int,
) -> list[Plan]:
    """``matches`` plans: ``two_person`` between two people, ``search`` against the levels of
    ``levels`` in turn, the rest against ``com``; each kind over ``rulesets`` in turn; in a
    shuffled order (``seed``) so that every kind starts early and late."""
    opponents = [TWO] * two_person
    opponents += [levels[i % len(levels)] for i in range(search)]
    opponents += [com] * (matches - two_person - search)
    plans: list[Plan] = []
    for group in dict.fromkeys(opponents):
        count = sum(1 for o in opponents if o == group)
        plans += [Plan(0, rulesets[i % len(rulesets)], group) for i in range(count)]
    random.Random(seed).shuffle(plans)
    return [Plan(i, p.ruleset, p.opponent) for i, p in enumerate(plans)]


def group_of(plan: Plan, com: str) -> str:
    if plan.two:
        return TWO
    return f"vs COM {com}" if plan.opponent == com else "vs COM search"


# --- the server ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Load:
    """The load of one run, the same for every server."""

    plans: list[Plan]
    com: str
    max_actions: int
    duration: float
    think: float
    think_max: float
    stall: float
    ramp: float
    spam: int
    settle: float
    waves: int
    resign: bool
    again: bool
    seed: int
    addresses: int
    evict_wait: float = 0.0
    """Seconds after a wave to wait at most for the server to hold no session."""


# --- the clients ---------------------------------------------------------------------------


@dataclass
class Limits:
    """When a match stops besides its end."""

    max_actions: int
    deadline: float | None
    """``time.monotonic()`` after which no action is sent; None: none."""
    think: float
    think_max: float
    """A person answers after a uniformly random delay between these two (seconds)."""
    stall: float

    def over(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline


@dataclass
class Match:
    """A match being played: its plan, the actions its people sent, whether it has stopped."""

    plan: Plan
    tally: Tally
    actions: int = 0
    stopped: bool = False
    over: bool = False


def ws_url(url: str, game_id: str, token: str) -> str:
    return f"ws{url[4:]}/ws/{game_id}?token={token}"


def address(person: int, spread: int) -> str | None:
    """The loopback address person number ``person`` sends from: each their own with
    ``spread`` 0, one of ``spread`` addresses otherwise (None: the system's choice, 127.0.0.1).
    The server keeps its quotas per client address, so people of one address share them."""
    if spread == 1:
        return None
    index = person if spread == 0 else person % spread
    return f"127.1.{index // 250}.{index % 250 + 1}"


async def post(
    url: str, body: dict[str, Any], local: str | None, patience: float = 0.0
) -> dict[str, Any]:
    """A POST from address ``local`` whose answer is JSON; :class:`Refused` for 503/429,
    :class:`Failed` otherwise. For ``patience`` seconds a 409 with ``Retry-After`` (the match
    is served by another of several processes, which has not let it go yet) is tried again
    after the time it names, as the page does."""
    transport = httpx2.AsyncHTTPTransport(local_address=local, trust_env=False)
    until = time.monotonic() + patience
    try:
        async with httpx2.AsyncClient(transport=transport, timeout=60, trust_env=False) as client:
            response = await client.post(url, json=body)
            while response.status_code == 409 and "retry-after" in response.headers:
                wait = float(response.headers["retry-after"])
                if time.monotonic() + wait > until:
                    break
                await asyncio.sleep(wait)
                response = await client.post(url, json=body)
    except httpx2.HTTPError as err:
        raise Failed(f"POST {url.split('/api/', 1)[-1]}: {type(err).__name__}") from err
    where = f"POST {'join' if url.endswith('/join') else 'games'}: HTTP {response.status_code}"
    if response.status_code in REFUSING_STATUS:
        raise Refused(f"{where} {response.text[:60]}")
    if response.status_code != 200:
        raise Failed(f"{where} {response.text[:80]}")
    answer: dict[str, Any] = response.json()
    return answer


async def create(
    url: str, plan: Plan, locals_: list[str | None], patience: float = 0.0
) -> list[dict[str, Any]]:
    """Create the match (and join it, between two people) from each person's address in
    ``locals_``: each seat's ``id``, ``token`` and ``seat`` (``patience``: see :func:`post`)."""
    body: dict[str, Any] = {"mode": "vs_human" if plan.two else "vs_com"}
    if plan.ruleset != "kobo":  # left out for Kōbō, so that older servers take the request
        body["ruleset"] = plan.ruleset
    if not plan.two:
        body["com"] = plan.opponent
    if plan.ruleset in CONFIGS:
        body["config"] = CONFIGS[plan.ruleset]
    made = await post(f"{url}/api/games", body, locals_[0])
    seats = [{"id": made["id"], "token": made["token"], "seat": made.get("seat", 0)}]
    if plan.two:
        join = f"{url}/api/games/{made['id']}/join"
        joined = await post(join, {"code": made["invite"]}, locals_[1], patience)
        seats.append({"id": made["id"], "token": joined["token"], "seat": joined["seat"]})
    return seats


async def receive(ws: ClientConnection, seconds: float) -> dict[str, Any] | None:
    """The next message, or None if none comes within ``seconds`` (cancelling a wait on a
    websockets connection loses no message). Parsed by pydantic-core's reader, a third faster
    than the standard library's on a view: this one process reads the views of every person,
    and the time it spends reading one delays the next one's arrival as it measures it."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(max(seconds, 0.0)):
            message: dict[str, Any] = pydantic_core.from_json(await ws.recv())
            return message
    return None


async def first_view(ws: ClientConnection, limits: Limits) -> dict[str, Any]:
    """The first view the server sends; :class:`Refused` if it refuses the connection."""
    try:
        message = await receive(ws, limits.stall)
    except ConnectionClosed as err:
        raise Refused(f"WebSocket closed ({err.rcvd.code if err.rcvd else '-'})") from err
    if message is None:
        raise Failed("no first view")
    if message.get("type") != "state":
        raise Refused(f"WebSocket refused ({message.get('code')})")
    view: dict[str, Any] = message["view"]
    return view


async def play_seat(
    ws: ClientConnection,
    seat: int,
    match: Match,
    limits: Limits,
    rng: random.Random,
    figures: Figures,
) -> None:
    """One person: answer every prompt of ``seat`` with a random legal action, timing each,
    until the match ends or stops (a failure stops the other seat's person too)."""
    try:
        await _play_seat(ws, seat, match, limits, rng, figures)
    except BaseException:
        match.stopped = True
        raise


async def _play_seat(
    ws: ClientConnection,
    seat: int,
    match: Match,
    limits: Limits,
    rng: random.Random,
    figures: Figures,
) -> None:
    view = await first_view(ws, limits)
    quiet_since = time.monotonic()
    while not match.stopped:
        pending = view["pending"]
        if pending is None:  # the end of the match (or of its clock)
            match.over = match.stopped = True
            return
        if pending["seat"] == seat and pending.get("legal"):
            if match.actions >= limits.max_actions or limits.over():
                match.stopped = True
                return
            match.actions += 1
            if limits.think_max > 0:
                await asyncio.sleep(rng.uniform(limits.think, limits.think_max))
            action = rng.choice(pending["legal"])
            act = {"type": "act", "prompt_id": pending["prompt_id"], "action": action}
            sent = time.perf_counter()
            await ws.send(json.dumps(act))
            view = await result(ws, pending["prompt_id"], match, limits, figures)
            match.tally.latencies.append(time.perf_counter() - sent)
            quiet_since = time.monotonic()
            continue
        # Another's turn: wait for a view, looking at the limits between slices of waiting.
        if limits.over():
            match.stopped = True
            return
        message = await receive(ws, SLICE)
        if message is None:
            if time.monotonic() - quiet_since > limits.stall:
                raise Failed("stalled: no view while waiting for the other side")
            continue
        quiet_since = time.monotonic()
        if message.get("type") == "state":
            view = message["view"]
        else:
            figures.error(match.tally, f"error message {message.get('code')}")


async def result(
    ws: ClientConnection, prompt_id: int, match: Match, limits: Limits, figures: Figures
) -> dict[str, Any]:
    """The view that results from answering ``prompt_id``: the next with another prompt or
    none. An error message refusing the answer ends the match (:class:`Failed`)."""
    until = time.monotonic() + limits.stall
    if limits.deadline is not None:
        until = min(until, max(limits.deadline, time.monotonic()) + IN_FLIGHT_GRACE)
    while True:
        message = await receive(ws, until - time.monotonic())
        if message is None:
            raise Failed("an action was never answered")
        if message.get("type") == "state":
            view: dict[str, Any] = message["view"]
            pending = view["pending"]
            if pending is None or pending["prompt_id"] != prompt_id:
                return view
        elif message.get("code") in ("refused", "invalid", "internal", "malformed"):
            raise Failed(f"an action was refused ({message.get('code')})")
        else:
            figures.error(match.tally, f"error message {message.get('code')}")


async def resign(ws: ClientConnection, limits: Limits) -> bool:
    """Concede a match between two people and wait for the view of its end."""
    await ws.send(json.dumps({"type": "resign"}))
    until = time.monotonic() + min(limits.stall, 10.0)
    while (message := await receive(ws, until - time.monotonic())) is not None:
        if message.get("type") == "state" and message["view"]["pending"] is None:
            return True
    return False


async def play_slot(
    url: str, plan: Plan, limits: Limits, delay: float, figures: Figures, load: Load, wave: int
) -> None:
    """One place of the mix: after ``delay`` seconds, a match of ``plan``'s kind; with
    ``load.again``, another each time one ends before the wave's time is up."""
    await asyncio.sleep(delay)
    for again in itertools.count():
        seed = f"{load.seed}/{wave}/{plan.index}/{again}"
        people = [address(2 * plan.index + seat, load.addresses) for seat in (0, 1)]
        played = await play_match(url, plan, seed, limits, figures, load.resign, people)
        if not (load.again and played and limits.deadline is not None and not limits.over()):
            return


async def play_match(
    url: str,
    plan: Plan,
    seed: str,
    limits: Limits,
    figures: Figures,
    resign_cut: bool,
    people: list[str | None],
) -> bool:
    """One match of ``plan``'s kind played by ``people`` (their addresses), its figures added
    to its kind's tally; True if it was played (to its end or to a limit), False if it was
    refused or failed."""
    tally = figures.tally(plan.kind)
    match = Match(plan, tally)
    try:
        seats = await create(url, plan, people)
        async with contextlib.AsyncExitStack() as stack:
            sockets = [
                await stack.enter_async_context(
                    connect(
                        ws_url(url, s["id"], s["token"]),
                        origin=Origin(url),
                        max_size=2**24,
                        open_timeout=60,
                        proxy=None,
                        local_addr=None if local is None else (local, 0),
                    )
                )
                for s, local in zip(seats, people, strict=False)
            ]
            tally.matches += 1
            figures.live += 1
            figures.live_peak = max(figures.live_peak, figures.live)
            try:
                rng = random.Random(seed)
                outcomes = await asyncio.gather(
                    *(
                        play_seat(ws, s["seat"], match, limits, rng, figures)
                        for ws, s in zip(sockets, seats, strict=True)
                    ),
                    return_exceptions=True,
                )
                for outcome in outcomes:
                    if isinstance(outcome, BaseException):
                        raise outcome
                if match.over:
                    tally.finished += 1
                elif resign_cut and await resign(sockets[0], limits):
                    tally.resigned += 1
                else:
                    tally.cut += 1
                return True
            finally:
                figures.live -= 1
    except Refused as err:
        tally.refused += 1
        figures.causes[f"refused: {err}"] += 1
    except InvalidStatus as err:
        status = err.response.status_code
        if status in REFUSING_STATUS:
            tally.refused += 1
            figures.causes[f"refused: WebSocket HTTP {status}"] += 1
        else:
            figures.error(tally, f"WebSocket HTTP {status}")
    except Failed as err:
        figures.error(tally, str(err))
    except ConnectionClosed as err:
        figures.error(tally, f"connection closed ({err.rcvd.code if err.rcvd else '-'})")
    except Exception as err:  # counted; the other matches go on
        figures.error(tally, f"{type(err).__name__}: {err}"[:100])
    return False


async def spam_undo(url: str, count: int, figures: Figures, local: str | None) -> None:
    """One client (of address ``local``) sending undo and redo messages as fast as it can."""
    made = await post(f"{url}/api/games", {"mode": "vs_com", "com": "heuristic"}, local)
    async with connect(
        ws_url(url, made["id"], made["token"]),
        origin=Origin(url),
        max_size=2**24,
        proxy=None,
        local_addr=None if local is None else (local, 0),
    ) as ws:
        for i in range(count):
            await ws.send(json.dumps({"type": "undo" if i % 2 == 0 else "redo"}))
            figures.spam_sent += 1
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5):
                while True:
                    await ws.recv()


async def run_load(url: str, pid: int, load: Load, label: str) -> Figures:
    """``load.waves`` times: the matches of ``load.plans`` at once (and the spammer), then
    the wait until the server holds no session (at most ``load.evict_wait`` seconds) and
    ``load.settle`` seconds more before the memory is read again."""
    figures = Figures(label)
    for plan in load.plans:
        figures.tally(plan.kind)
    figures.rss_before = rss(pid)
    figures.load = (os.getloadavg()[0], 0.0)
    cpu = (cpu_seconds(pid), time.process_time(), machine_busy(), time.monotonic())
    stop = asyncio.Event()
    samplers = [
        asyncio.create_task(sample_peak(pid, figures, stop)),
        asyncio.create_task(sample_sessions(url, figures, stop)),
    ]
    start = time.perf_counter()
    count = len(load.plans)
    for wave in range(load.waves):
        begun = time.monotonic()
        deadline = begun + load.duration if load.duration > 0 else None
        limits = Limits(load.max_actions, deadline, load.think, load.think_max, load.stall)
        jobs = [
            play_slot(url, plan, limits, load.ramp * plan.index / count, figures, load, wave)
            for plan in load.plans
        ]
        if load.spam:
            spammer = address(2 * count, load.addresses)
            jobs.append(spam_undo(url, load.spam, figures, spammer))
        results = await asyncio.gather(*jobs, return_exceptions=True)
        for outcome in results:
            if isinstance(outcome, BaseException):
                figures.causes[f"client failure: {type(outcome).__name__}: {outcome}"[:120]] += 1
        print(
            f"{label}: wave {wave + 1} played in {time.monotonic() - begun:.1f} s",
            file=sys.stderr,
            flush=True,
        )
        figures.rss_end.append(rss(pid))
        figures.load = (figures.load[0], os.getloadavg()[0])
        if wave == load.waves - 1:  # the work of the waves (and of the settles between them)
            figures.cpu_server = cpu_seconds(pid) - cpu[0]
            figures.cpu_workers = sum(cpu_seconds(c) for c in children(pid))
            figures.cpu_client = time.process_time() - cpu[1]
            ours = figures.cpu_server + figures.cpu_workers + figures.cpu_client
            capacity = (time.monotonic() - cpu[3]) * (os.cpu_count() or 1)
            figures.others = max(0.0, machine_busy() - cpu[2] - ours) / capacity
        figures.emptied.append(await emptied(url, load.evict_wait))
        await asyncio.sleep(load.settle)
        figures.rss_after.append(rss(pid))
    figures.seconds = time.perf_counter() - start
    stop.set()
    await asyncio.gather(*samplers)
    for plan in load.plans:
        figures.groups.setdefault(group_of(plan, load.com), Tally())
    for kind, tally in figures.kinds.items():
        plan = next(p for p in load.plans if p.kind == kind)
        figures.groups[group_of(plan, load.com)].add(tally)
    return figures


async def emptied(url: str, wait: float) -> float | None:
    """Seconds until the server listed no session any more (its finished matches evicted, its
    cut ones resigned); None if some were still there after ``wait`` seconds."""
    begun = time.monotonic()
    async with httpx2.AsyncClient(timeout=30, trust_env=False) as client:
        while time.monotonic() - begun < wait:
            with contextlib.suppress(httpx2.HTTPError, ValueError):
                if not (await client.get(f"{url}/api/games")).json():
                    return time.monotonic() - begun
            await asyncio.sleep(1.0)
    return None


# --- the sitting ---------------------------------------------------------------------------


class Help(argparse.ArgumentDefaultsHelpFormatter):
    """Defaults in the help, but not for switches nor options without one."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.nargs == 0 or action.default is None:
            return action.help
        return super()._get_help_string(action)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=Help)
    mix_ = parser.add_argument_group("the mix of matches")
    mix_.add_argument("--matches", type=int, default=100, help="concurrent matches per wave")
    mix_.add_argument("--two-person", type=int, default=20, help="of them between two people")
    mix_.add_argument("--search", type=int, default=10, help="of them against a search COM")
    mix_.add_argument(
        "--search-levels",
        default="ismcts-easy,ismcts-normal",
        help="the search COM levels, taken in turn",
    )
    mix_.add_argument("--com", default="heuristic", help="the COM level of the other matches")
    mix_.add_argument(
        "--rulesets", default=",".join(RULESETS), help="the games, each kind dealt over them"
    )
    mix_.add_argument(
        "--games",
        type=int,
        metavar="N",
        help="the former benchmark: N Kōbō games against --com played to their end (sets "
        "--matches N --two-person 0 --search 0 --rulesets kobo --duration 0)",
    )
    play = parser.add_argument_group("how long and how fast")
    play.add_argument(
        "--duration",
        type=float,
        default=120.0,
        help="seconds of play per wave; then no action is sent (0: until the matches end)",
    )
    play.add_argument(
        "--max-actions",
        "--actions",
        dest="max_actions",
        type=int,
        default=1000,
        help="actions of its people per match at most",
    )
    play.add_argument("--pace", type=float, default=0.05, help="COM's seconds per action")
    play.add_argument(
        "--think",
        type=float,
        default=THINK[0],
        help="the least seconds a person takes to answer",
    )
    play.add_argument(
        "--think-max",
        type=float,
        default=THINK[1],
        help="the most seconds a person takes to answer (each answer uniformly in between; "
        "0 0: at once, the former benchmark's stress)",
    )
    play.add_argument("--ramp", type=float, default=0.0, help="seconds over which matches start")
    play.add_argument(
        "--stall", type=float, default=60.0, help="seconds without a view that count as an error"
    )
    play.add_argument(
        "--no-resign",
        dest="resign",
        action="store_false",
        help="leave matches cut by the limits open instead of resigning them (an unfinished "
        "match stays in the server's memory until it is abandoned, 15 minutes later)",
    )
    play.add_argument(
        "--once",
        dest="again",
        action="store_false",
        help="each place plays one match; by default a match that ends before --duration is "
        "followed by another of its kind, so that --matches stay live the whole time",
    )
    play.add_argument("--waves", type=int, default=1, help="rounds of matches, each settled")
    play.add_argument(
        "--evict-wait",
        type=float,
        default=180.0,
        help="seconds after a wave to wait at most for the server to hold no session",
    )
    play.add_argument(
        "--settle",
        type=float,
        default=20.0,
        help="seconds after the server holds no session before its memory is read ('after')",
    )
    play.add_argument(
        "--addresses",
        type=int,
        default=0,
        help="loopback addresses the people send from (127.1.x.y; the server's quotas are per "
        "address): 0 one per person, 1 all from 127.0.0.1 as the former benchmark, N shared",
    )
    play.add_argument("--seed", type=int, default=0, help="the clients' random choices")
    extra = parser.add_argument_group("others")
    extra.add_argument("--spam", action="store_true", help="one client spams undo/redo")
    extra.add_argument("--spam-count", type=int, default=2000)
    extra.add_argument("--no-check", dest="check", action="store_false", help="skip store check")
    extra.add_argument("--against", help="also run the server of this git revision")
    extra.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run each server this many times, alternating, and print the medians",
    )
    args = parser.parse_args()
    if args.games is not None:
        args.matches, args.two_person, args.search = args.games, 0, 0
        args.rulesets, args.duration = "kobo", 0.0
        args.think = args.think_max = 0.0
    if min(args.matches, args.two_person, args.search) < 0 or (
        args.two_person + args.search > args.matches
    ):
        parser.error("--two-person and --search are shares of --matches")
    if not 0 <= args.think <= args.think_max:
        parser.error("--think is at least 0 and at most --think-max")
    if args.repeat < 1:
        parser.error("--repeat is at least 1")
    unknown = set(args.rulesets.split(",")) - set(RULESETS)
    if unknown:
        parser.error(f"unknown rulesets {sorted(unknown)}; known: {', '.join(RULESETS)}")
    return args


def describe(args: argparse.Namespace, load: Load) -> str:
    counts = Counter(p.kind for p in load.plans)
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    limit = f"{args.duration:g} s" if args.duration > 0 else "no time limit"
    return (
        f"{args.waves} wave(s) of {len(load.plans)} concurrent matches ({kinds}); COM pace "
        f"{args.pace} s, people think {args.think:g}–{args.think_max:g} s, {limit} and at most "
        f"{args.max_actions} "
        f"actions of people per match, started over {args.ramp:g} s, memory read "
        f"{args.settle:g} s after the server held no session"
        f"{'; one client spamming undo/redo' if load.spam else ''}"
    )


def one_run(label: str, src: Path, tmp: Path, args: argparse.Namespace, load: Load) -> Figures:
    """One run of ``load`` against a fresh server of the sources in ``src`` (its store and log
    in the new directory ``tmp``), its store checked after it stopped."""
    tmp.mkdir()
    db, log = tmp / "store.db", tmp / "server.log"
    with server(src, db, log, "--pace", str(args.pace)) as (url, pid):
        time.sleep(1.0)
        figures = asyncio.run(run_load(url, pid, load, label))
    figures.log_errors = log_errors(log)
    if args.check:
        figures.check = check_store(src, db)
    else:
        figures.check.note = "not checked"
    print(
        f"{label}: {figures.seconds:.1f} s of load (load average {figures.load[0]:.2f} → "
        f"{figures.load[1]:.2f}), store check {figures.check.seconds:.1f} s",
        file=sys.stderr,
        flush=True,
    )
    return figures


def main() -> None:
    args = parse_args()
    load = Load(
        plans=mix(
            args.matches,
            args.two_person,
            args.search,
            args.rulesets.split(","),
            args.search_levels.split(","),
            args.com,
            args.seed,
        ),
        com=args.com,
        max_actions=args.max_actions,
        duration=args.duration,
        think=args.think,
        think_max=args.think_max,
        stall=args.stall,
        ramp=args.ramp,
        spam=args.spam_count if args.spam else 0,
        settle=args.settle,
        evict_wait=args.evict_wait,
        waves=args.waves,
        resign=args.resign,
        again=args.again,
        seed=args.seed,
        addresses=args.addresses,
    )
    trees: list[tuple[str, Path]] = [("this tree", ROOT / "src")]
    tmp = Path(tempfile.mkdtemp(prefix="kessen-load-"))
    try:
        if args.against:
            old = worktree(args.against, tmp)
            trees.insert(0, (args.against, old / "src"))
        runs: list[Figures] = []
        for number, (label, src) in enumerate(trees * args.repeat):
            runs.append(one_run(label, src, tmp / str(number), args, load))
        print(describe(args, load))
        print()
        print_table([figures.row() for figures in runs])
        if args.repeat > 1:
            print("\nMedians over the runs of each server\n")
            print_table(median_rows(runs))
            quiet = [f for f in runs if f.others <= QUIET]
            if quiet and len(quiet) < len(runs):
                print(f"\nMedians over the runs while other processes kept ≤ {QUIET:.0%} busy\n")
                print_table(median_rows(quiet))
        else:
            print()
            print_table(kind_rows(runs))
        for figures in runs:
            if figures.causes:
                print(f"\n{figures.label}: refusals and errors by cause")
                for cause, n in figures.causes.most_common(8):
                    print(f"  {n:5d}  {cause}")
    finally:
        if args.against:
            remove_worktree(args.against, tmp)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

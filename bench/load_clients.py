"""The load benchmark's players: the mix of matches, and the people and COM matches that play it.

:func:`mix` deals the plans of a run (two people, search COM, the heuristic COM, over the
rulesets); :func:`run_load` plays them against a running server in waves, each person answering
their own prompts over HTTP and WebSockets, and counts what happened in :class:`Figures`
(``load_report.py``). ``load_bench.py`` holds the command line and the sitting, and
``cluster_bench.py`` plays the same matches through nginx.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

import httpx2
import pydantic_core
from kessen_server import children, rss
from load_report import (
    Figures,
    Tally,
    cpu_seconds,
    machine_busy,
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

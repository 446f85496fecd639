"""Three ``kessen play`` processes on one PostgreSQL store behind nginx, COM on a local Ray:
many concurrent matches, one process killed with ``kill -9`` mid-run, its matches counted as
they resume on the others; beside one process on SQLite with the same mix, in the same sitting.

What a run does. It starts a private PostgreSQL server (``kessen.store.pg_server``), a local
Ray (``ray.init`` in a helper process, ``--ray-cpus`` CPUs), ``--processes`` ``kessen play``
processes on that store (``--ray ADDRESS --com-workers 1 --proxy 127.0.0.1``, each its own
``--owner-id``) and nginx in front of them with ``deploy/nginx-kessen.conf`` (its ports
rewritten, as the tests of the leases write it). Then this process plays ``--matches``
concurrent matches through nginx with ``load_bench.py``'s mix and people (random legal
actions after 0.2–1.0 s, each person from their own loopback address), and ``--kill-at``
seconds into the play it kills one process (``--victim``) with ``kill -9``. A person whose
connection drops reconnects through nginx as the page does (once a second while the others
answer "served elsewhere", 4409, until the dead process's lease has expired) and goes on from
the view it gets; an action that was in flight when the process died and that the resumed view
still asks for is sent again (counted).

Counted: the matches that were on the killed process (its leases when it died), how many of
them resumed on another process, the gap each saw (from its connection dropping to the first
view of the other process), whether any view after the move stood before one seen before it;
the actions the clients saw acknowledged (the steps of the last view each match showed its
people) against the actions its record holds in the store (a record holding fewer lost
something); refusals, errors and stalls as ``load_bench.py`` counts them; p50/p95/p99/max
from an answer sent to its view, overall and for the matches that moved; then, the processes
stopped, ``kessen store check`` replays every record of the store. With ``--single`` (the
default; ``--no-single`` skips it), the same mix is then played against one ``kessen play`` on
SQLite (``load_bench.py``'s server, COM in its own worker processes), for the figures side by
side. Everything started is stopped at the end, on Ctrl+C too.

    .venv/bin/python bench/cluster_bench.py                        # 300 matches, ~10 minutes
    .venv/bin/python bench/cluster_bench.py --matches 30 --two-person 6 --search 3 \\
        --duration 60 --kill-at 25                                 # a small run, ~3 minutes

It is a script, not a test: nothing asserts on the figures. This process's clients share the
machine with everything they measure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import psycopg
from kessen_server import ROOT, free_port, kessen, log_errors, rss, server
from load_clients import (
    REFUSING_STATUS,
    SLICE,
    Failed,
    Limits,
    Load,
    Match,
    Plan,
    Refused,
    address,
    create,
    group_of,
    mix,
    receive,
    resign,
    result,
    run_load,
    ws_url,
)
from load_report import Figures, StoreCheck, Tally, check_store, latency_cells, print_table
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

sys.path.insert(0, str(ROOT))
from tests.leasing import NGINX, nginx_conf

from kessen.server.hub import MOVED_CODE
from kessen.store.pg_server import LocalServer

RETRY = 1.0
"""Seconds between two tries to reach a match again, as the page waits."""
RESUME_BOUND = 90.0
"""Seconds a person keeps trying to reach a match whose process went away."""
WORKER_CONNECTIONS = 8192
"""nginx's connections per worker: two per proxied WebSocket (the tests' 256 hold a few)."""
RAY_HELPER = """
import signal, sys, time, ray
ray.init(num_cpus=int(sys.argv[1]), include_dashboard=False, object_store_memory=200 * 2**20)
print(ray.get_runtime_context().gcs_address, flush=True)
signal.signal(signal.SIGTERM, lambda *_: (ray.shutdown(), sys.exit(0)))
while True:
    time.sleep(1)
"""
"""A local Ray cluster held by a helper process (stopped with it, on SIGTERM)."""
RAY_ENV = {"RAY_AUTH_MODE": "token"}
"""Ray's token authentication on (its default for a new cluster), for the helper and the
servers alike: both read the token Ray keeps in the user's home."""


# --- what the clients count ----------------------------------------------------------------


@dataclass
class Track:
    """One match of the cluster's run, as its people saw it."""

    plan: Plan
    session: str
    tokens: list[str]
    steps: int = 0
    """The steps of the latest view any of its people saw: the actions they saw applied."""
    sockets: dict[int, ClientConnection] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)
    """Seconds from a dropped connection to the first view of the process serving it next."""
    moved: bool = False
    lost_resume: bool = False
    """A person who never reached the match again."""
    resent: int = 0
    """Actions in flight when the connection dropped, which the resumed view still asked for."""
    regressed: int = 0
    """Views after a move that stood before a view seen before it."""
    done: bool = False
    last_view: float = 0.0
    """When (``time.monotonic()``) one of its people last got a view."""


@dataclass
class Sitting:
    """The cluster run's shared state: the matches, and the kill."""

    tracks: list[Track] = field(default_factory=list)
    killed_at: float | None = None
    victim_sessions: set[str] = field(default_factory=set)


def see(track: Track, view: dict[str, Any]) -> None:
    track.steps = max(track.steps, int(view["history"]["steps"]))
    track.last_view = time.monotonic()


async def reach(
    url: str, local: str | None, until: float, first: bool
) -> tuple[ClientConnection, dict[str, Any]]:
    """A connection to the match's WebSocket ``url`` (through nginx) and its first view, trying
    again each second while the processes answer "served elsewhere" or none answers, until
    ``until``. On a first connection a refusal other than 4409 is :class:`Refused`."""
    while True:
        try:
            ws = await connect(
                url,
                origin=Origin("http://" + url.split("/")[2]),
                max_size=2**24,
                open_timeout=30,
                proxy=None,
                local_addr=None if local is None else (local, 0),
            )
        except InvalidStatus as err:
            status = err.response.status_code
            if first and status in REFUSING_STATUS:
                raise Refused(f"WebSocket HTTP {status}") from err
        except (OSError, TimeoutError):
            pass
        else:
            try:
                message = await receive(ws, 30)
            except ConnectionClosed as err:
                code = err.rcvd.code if err.rcvd else None
                if first and code != MOVED_CODE:
                    raise Refused(f"WebSocket closed ({code})") from err
            else:
                if message is not None and message.get("type") == "state":
                    view: dict[str, Any] = message["view"]
                    return ws, view
                await ws.close()
                if first and message is not None:
                    raise Refused(f"WebSocket refused ({message.get('code')})")
        if time.monotonic() > until:
            raise Failed("never served again" if not first else "no first view")
        await asyncio.sleep(RETRY)


async def person(
    url: str,
    track: Track,
    index: int,
    seat: dict[str, Any],
    local: str | None,
    match: Match,
    limits: Limits,
    rng: random.Random,
    figures: Figures,
) -> None:
    """One person of ``track`` answering their seat's prompts as ``load_bench.py``'s do, and
    reaching the match again through the proxy when its connection drops."""
    link = ws_url(url, seat["id"], seat["token"])
    ws, view = await reach(link, local, time.monotonic() + limits.stall, first=True)
    track.sockets[index] = ws
    see(track, view)
    quiet_since = time.monotonic()
    in_flight: int | None = None
    act: dict[str, Any] = {}
    sent = 0.0
    try:
        while not match.stopped:
            try:
                pending = view["pending"]
                if in_flight is not None:  # an answer sent before a move: its view, or again
                    if pending is not None and pending["prompt_id"] == in_flight:
                        track.resent += 1
                        await ws.send(json.dumps(act))
                        view = await result(ws, in_flight, match, limits, figures)
                    in_flight = None
                    see(track, view)
                    continue
                if pending is None:
                    match.over = match.stopped = True
                    return
                if pending["seat"] == seat["seat"] and pending.get("legal"):
                    if match.actions >= limits.max_actions or limits.over():
                        match.stopped = True
                        return
                    match.actions += 1
                    await asyncio.sleep(rng.uniform(limits.think, limits.think_max))
                    act = {
                        "type": "act",
                        "prompt_id": pending["prompt_id"],
                        "action": rng.choice(pending["legal"]),
                    }
                    sent = time.perf_counter()
                    in_flight = pending["prompt_id"]
                    await ws.send(json.dumps(act))
                    view = await result(ws, in_flight, match, limits, figures)
                    in_flight = None
                    track.latencies.append(time.perf_counter() - sent)
                    match.tally.latencies.append(time.perf_counter() - sent)
                    see(track, view)
                    quiet_since = time.monotonic()
                    continue
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
                    see(track, view)
                else:
                    figures.error(match.tally, f"error message {message.get('code')}")
            except ConnectionClosed:
                dropped, before = time.monotonic(), track.steps
                try:
                    ws, view = await reach(link, local, dropped + RESUME_BOUND, first=False)
                except Failed:
                    track.lost_resume = True
                    raise
                track.gaps.append(time.monotonic() - dropped)
                track.moved = True
                track.sockets[index] = ws
                if int(view["history"]["steps"]) < before:
                    track.regressed += 1
                see(track, view)
                quiet_since = time.monotonic()
    except BaseException:
        match.stopped = True
        raise


async def cluster_match(
    url: str, plan: Plan, seed: str, limits: Limits, figures: Figures, sitting: Sitting, load: Load
) -> bool:
    """One match of ``plan``'s kind through the proxy; True if it was played."""
    tally = figures.tally(plan.kind)
    match = Match(plan, tally)
    people = [address(2 * plan.index + seat, load.addresses) for seat in (0, 1)]
    track: Track | None = None
    try:
        seats = await create(url, plan, people, patience=limits.stall)
        track = Track(plan, seats[0]["id"], [s["token"] for s in seats])
        sitting.tracks.append(track)
        rng = random.Random(seed)
        outcomes = await asyncio.gather(
            *(
                person(url, track, i, s, people[i], match, limits, rng, figures)
                for i, s in enumerate(seats)
            ),
            return_exceptions=True,
        )
        tally.matches += 1
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome
        if match.over:
            tally.finished += 1
        elif load.resign and 0 in track.sockets and await resign(track.sockets[0], limits):
            tally.resigned += 1
        else:
            tally.cut += 1
        return True
    except Refused as err:
        tally.refused += 1
        figures.causes[f"refused: {err}"] += 1
    except Failed as err:
        figures.error(tally, str(err))
    except ConnectionClosed as err:
        figures.error(tally, f"connection closed ({err.rcvd.code if err.rcvd else '-'})")
    except Exception as err:  # counted; the other matches go on
        figures.error(tally, f"{type(err).__name__}: {err}"[:100])
    finally:
        if track is not None:
            track.done = True
            for ws in track.sockets.values():
                with contextlib.suppress(Exception):
                    await ws.close()
    return False


async def place(
    url: str, plan: Plan, limits: Limits, figures: Figures, sitting: Sitting, load: Load
) -> None:
    """One place of the mix: matches of ``plan``'s kind, one after another, until the end."""
    await asyncio.sleep(load.ramp * plan.index / len(load.plans))
    for again in itertools.count():
        seed = f"{load.seed}/0/{plan.index}/{again}"
        played = await cluster_match(url, plan, seed, limits, figures, sitting, load)
        if not (load.again and played and not limits.over()):
            return


# --- the cluster ---------------------------------------------------------------------------


@dataclass
class Cluster:
    """What runs: the store's URL, the processes by owner id, the proxy's URL."""

    store: str
    processes: dict[str, subprocess.Popen[bytes]]
    proxy: str
    logs: list[Path]


def wait_up(url: str, proc: subprocess.Popen[bytes], what: str, log: Path) -> None:
    deadline = time.monotonic() + 90
    while True:
        with contextlib.suppress(httpx2.HTTPError):
            if httpx2.get(f"{url}/api/meta", timeout=2, trust_env=False).status_code == 200:
                return
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not start: {log.read_text(errors='replace')[-1500:]}")
        time.sleep(0.3)


def halt(proc: subprocess.Popen[bytes], sig: int = signal.SIGINT) -> None:
    """Stop ``proc`` and its process group (started in a session of its own)."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=20)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)  # whatever is left of its group
    proc.wait()


@contextlib.contextmanager
def cluster(args: argparse.Namespace, tmp: Path) -> Iterator[Cluster]:
    """PostgreSQL, Ray, the ``kessen play`` processes and nginx; all stopped on the way out."""
    with contextlib.ExitStack() as stack:
        pg = stack.enter_context(LocalServer(durable=True))
        store = pg.new_store()
        ray_log = (tmp / "ray.log").open("wb")
        stack.callback(ray_log.close)
        helper = subprocess.Popen(
            [sys.executable, "-c", RAY_HELPER, str(args.ray_cpus)],
            stdout=subprocess.PIPE,
            stderr=ray_log,
            env={**os.environ, **RAY_ENV},
            start_new_session=True,
        )
        stack.callback(halt, helper, signal.SIGTERM)
        assert helper.stdout is not None
        ray_address = helper.stdout.readline().decode().strip()
        if not ray_address:
            raise RuntimeError(f"Ray did not start: {(tmp / 'ray.log').read_text()[-1500:]}")
        print(f"Ray at {ray_address}; PostgreSQL at {pg.url}", file=sys.stderr, flush=True)
        ports = [free_port() for _ in range(args.processes)]
        processes: dict[str, subprocess.Popen[bytes]] = {}
        logs: list[Path] = []
        for number, port in enumerate(ports, 1):
            owner = f"p{number}"
            cmd, env = kessen(ROOT / "src", Path(tmp / "unused.db"))
            env.update({"KESSEN_DB": store, **RAY_ENV})
            cmd += ["play", "--no-browser", "--port", str(port), "--db", store]
            cmd += ["--pace", str(args.pace), "--ray", ray_address, "--com-workers", "1"]
            cmd += ["--proxy", "127.0.0.1", "--owner-id", owner]
            cmd += ["--lease-seconds", str(args.lease)]
            log = tmp / f"{owner}.log"
            logs.append(log)
            with log.open("wb") as out:
                proc = subprocess.Popen(
                    cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
                )
            stack.callback(halt, proc)
            processes[owner] = proc
        for (owner, proc), port, log in zip(processes.items(), ports, logs, strict=True):
            wait_up(f"http://127.0.0.1:{port}", proc, owner, log)
        assert NGINX is not None, "nginx is not installed (Debian: apt install nginx-light)"
        listen = free_port()
        conf = nginx_conf(tmp, listen, ports)
        conf.write_text(
            conf.read_text().replace(
                "worker_connections 256;", f"worker_connections {WORKER_CONNECTIONS};"
            )
        )
        proxy_proc = subprocess.Popen(
            [NGINX, "-c", str(conf)], stderr=subprocess.DEVNULL, start_new_session=True
        )
        stack.callback(halt, proxy_proc, signal.SIGTERM)
        proxy = f"http://127.0.0.1:{listen}"
        wait_up(proxy, proxy_proc, "nginx", tmp / "error.log")
        yield Cluster(store, processes, proxy, logs)


def leases_of(store: str, owner: str) -> set[str]:
    """The sessions whose lease ``owner`` holds."""
    with psycopg.connect(store) as conn:
        rows = conn.execute("SELECT session FROM match_leases WHERE owner = %s", (owner,))
        return {str(r[0]) for r in rows.fetchall()}


def stored_actions(store: str) -> dict[str, int]:
    """The actions each record holds, by every token of its seats."""
    found: dict[str, int] = {}
    with psycopg.connect(store) as conn:
        rows = conn.execute(
            "SELECT m.meta, (SELECT count(*) FROM actions a WHERE a.match_id = m.id) FROM matches m"
        ).fetchall()
    for meta, count in rows:
        data = json.loads(meta) if isinstance(meta, str) else (meta or {})
        for token in data.get("tokens") or {}:
            found[token] = max(found.get(token, 0), int(count))
    return found


# --- the run -------------------------------------------------------------------------------


@dataclass
class Outcome:
    """One setup's figures."""

    figures: Figures
    moved: list[Track] = field(default_factory=list)
    victims: int = 0
    resumed: int = 0
    never: int = 0
    gaps: list[float] = field(default_factory=list)
    resent: int = 0
    regressed: int = 0
    acked: int = 0
    stored: int = 0
    short: int = 0
    """Matches whose record holds fewer actions than its people saw applied: lost actions."""
    rss: dict[str, int] = field(default_factory=dict)
    log_errors: int = 0


async def drive(
    c: Cluster, load: Load, args: argparse.Namespace, figures: Figures, sitting: Sitting
) -> dict[str, int]:
    """Play ``load`` through the proxy, killing a process on the way; the processes' peak
    resident memory by owner."""
    begun = time.monotonic()
    deadline = begun + load.duration
    limits = Limits(load.max_actions, deadline, load.think, load.think_max, load.stall)
    figures.load = (os.getloadavg()[0], 0.0)

    async def killer() -> None:
        if args.kill_at < 0:
            return
        await asyncio.sleep(args.kill_at)
        owner = f"p{args.victim}"
        proc = c.processes[owner]
        held = await asyncio.to_thread(leases_of, c.store, owner)
        live = {t.session for t in sitting.tracks if not t.done}
        sitting.victim_sessions = held & live
        proc.send_signal(signal.SIGKILL)
        sitting.killed_at = time.monotonic()
        print(
            f"kill -9 {owner} at {sitting.killed_at - begun:.1f} s: it served "
            f"{len(sitting.victim_sessions)} live matches",
            file=sys.stderr,
            flush=True,
        )

    async def memory() -> None:
        while time.monotonic() < deadline:
            for owner, proc in c.processes.items():
                outcome_rss[owner] = max(outcome_rss.get(owner, 0), rss(proc.pid))
            await asyncio.sleep(2)

    outcome_rss: dict[str, int] = {}
    jobs = [place(c.proxy, p, limits, figures, sitting, load) for p in load.plans]
    results = await asyncio.gather(killer(), memory(), *jobs, return_exceptions=True)
    for outcome in results:
        if isinstance(outcome, BaseException):
            figures.causes[f"client failure: {type(outcome).__name__}: {outcome}"[:120]] += 1
    figures.load = (figures.load[0], os.getloadavg()[0])
    figures.seconds = time.monotonic() - begun
    return outcome_rss


def cluster_run(args: argparse.Namespace, load: Load, tmp: Path) -> Outcome:
    """The run on the processes behind nginx, its counts and its store's check."""
    figures = Figures(f"{args.processes} processes, PostgreSQL, Ray, nginx")
    sitting = Sitting()
    with cluster(args, tmp) as c:
        peaks = asyncio.run(drive(c, load, args, figures, sitting))
        for proc in c.processes.values():  # stopped as Ctrl+C does: leases let go
            halt(proc)
        out = Outcome(figures)
        out.log_errors = sum(log_errors(log) for log in c.logs)
        stored = stored_actions(c.store)
        for track in sitting.tracks:
            records = max((stored.get(t, 0) for t in track.tokens), default=0)
            out.acked += track.steps
            out.stored += records
            out.short += records < track.steps
            out.resent += track.resent
            out.regressed += track.regressed
            if track.moved:
                out.moved.append(track)
                out.gaps += track.gaps
            if track.session in sitting.victim_sessions:
                out.victims += 1  # a view after the kill came from another process
                assert sitting.killed_at is not None
                if track.last_view > sitting.killed_at and not track.lost_resume:
                    out.resumed += 1
                else:
                    out.never += 1
        out.rss = peaks
        if args.check:
            figures.check = check_store(ROOT / "src", c.store)  # type: ignore[arg-type]
        else:
            figures.check = StoreCheck(note="not checked")
    for plan in load.plans:
        figures.groups.setdefault(group_of(plan, load.com), Tally())
    return out


def single_run(args: argparse.Namespace, load: Load, tmp: Path) -> Figures:
    """The same mix against one ``kessen play`` on SQLite (no proxy, COM in its workers)."""
    db, log = tmp / "single.db", tmp / "single.log"
    with server(ROOT / "src", db, log, "--pace", str(args.pace)) as (url, pid):
        time.sleep(1.0)
        figures = asyncio.run(run_load(url, pid, load, "1 process, SQLite"))
    figures.log_errors = log_errors(log)
    figures.check = check_store(ROOT / "src", db) if args.check else StoreCheck(note="-")
    return figures


def stalls(figures: Figures) -> int:
    """Matches that stopped because no view came for ``--stall`` seconds."""
    return sum(n for cause, n in figures.causes.items() if cause.startswith("stalled"))


def row(label: str, figures: Figures, latencies: list[float]) -> dict[str, str]:
    total = figures.total()
    check = figures.check
    return {
        "setup": label,
        "load avg": f"{figures.load[0]:.2f} → {figures.load[1]:.2f}",
        **latency_cells(latencies),
        "matches": str(total.matches),
        "refused": str(total.refused),
        "errors": str(total.errors),
        "finished": str(total.finished),
        "resigned": str(total.resigned),
        "cut": str(total.cut),
        "log errors": str(figures.log_errors),
        "replay": f"{check.replayed}/{check.records}" + (f" ({check.note})" if check.note else ""),
    }


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300, help="concurrent matches")
    parser.add_argument("--two-person", type=int, default=30, help="of them between two people")
    parser.add_argument("--search", type=int, default=15, help="of them against a search COM")
    parser.add_argument("--search-levels", default="ismcts-easy,ismcts-normal")
    parser.add_argument("--duration", type=float, default=150.0, help="seconds of play")
    parser.add_argument("--ramp", type=float, default=30.0, help="seconds over which to start")
    parser.add_argument("--kill-at", type=float, default=75.0, help="seconds in; -1: no kill")
    parser.add_argument("--victim", type=int, default=2, help="the process killed (1..N)")
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--lease", type=float, default=10.0, help="--lease-seconds")
    parser.add_argument("--ray-cpus", type=int, default=2, help="the local Ray's CPUs")
    parser.add_argument("--pace", type=float, default=0.05, help="COM's seconds per action")
    parser.add_argument("--think", type=float, default=0.2)
    parser.add_argument("--think-max", type=float, default=1.0)
    parser.add_argument("--stall", type=float, default=60.0)
    parser.add_argument("--max-actions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-single", dest="single", action="store_false")
    parser.add_argument("--no-check", dest="check", action="store_false")
    args = parser.parse_args()
    if args.two_person + args.search > args.matches or not 1 <= args.victim <= args.processes:
        parser.error("--two-person and --search are shares of --matches; --victim in 1..N")
    return args


def main() -> None:
    args = parse_args()
    load = Load(
        plans=mix(
            args.matches,
            args.two_person,
            args.search,
            ["kobo", "twgp", "maken"],
            args.search_levels.split(","),
            "heuristic",
            args.seed,
        ),
        com="heuristic",
        max_actions=args.max_actions,
        duration=args.duration,
        think=args.think,
        think_max=args.think_max,
        stall=args.stall,
        ramp=args.ramp,
        spam=0,
        settle=1.0,
        waves=1,
        resign=True,
        again=True,
        seed=args.seed,
        addresses=0,
    )
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # cleaned up as on Ctrl+C
    tmp = Path(tempfile.mkdtemp(prefix="kessen-cluster-"))
    try:
        out = cluster_run(args, load, tmp)
        single = single_run(args, load, tmp) if args.single else None
    finally:
        subprocess.run(["rm", "-rf", str(tmp)], check=False)
    f = out.figures
    print(
        f"{len(load.plans)} concurrent matches (two people: {args.two_person}, search COM: "
        f"{args.search}, heuristic COM: the rest; Kōbō, TWGP, Maken in turn), people think "
        f"{args.think:g}–{args.think_max:g} s, {args.duration:g} s of play started over "
        f"{args.ramp:g} s; kill -9 of process {args.victim} at {args.kill_at:g} s "
        f"(--lease-seconds {args.lease:g}); Ray with {args.ray_cpus} CPUs, --com-workers 1\n"
    )
    moved = [x for t in out.moved for x in t.latencies]
    rows = [row(f.label, f, f.total().latencies), row("  matches that moved", f, moved)]
    rows[1].update({k: "" for k in list(rows[1])[8:]})
    rows[1]["matches"] = str(len(out.moved))
    if single is not None:
        rows.append(row(single.label, single, single.total().latencies))
    print_table(rows)
    gaps = sorted(out.gaps)
    print(
        f"\nkill -9: {out.victims} live matches on the killed process, {out.resumed} resumed on "
        f"another, {out.never} not; gap seen by a moved match (drop → first view elsewhere): "
        + (
            f"min {gaps[0]:.1f} s, median {gaps[len(gaps) // 2]:.1f} s, max {gaps[-1]:.1f} s"
            if gaps
            else "–"
        )
        + f"; answers the dead process never stored, sent again after the move: {out.resent}; "
        f"views going backwards: {out.regressed}; stalls: {stalls(f)}"
        + (f" (one process on SQLite: {stalls(single)})" if single else "")
    )
    print(
        f"actions the people saw applied: {out.acked}; stored in their records: {out.stored}; "
        f"matches whose record holds fewer than seen (lost): {out.short}"
    )
    print(
        "resident memory at peak (MB): "
        + ", ".join(f"{k} {v / 2**20:.0f}" for k, v in sorted(out.rss.items()))
        + (f"; one process on SQLite {single.rss_peak / 2**20:.0f}" if single else "")
    )
    for figures in (f, single):
        if figures is not None and figures.causes:
            print(f"\n{figures.label}: refusals and errors by cause")
            for cause, n in figures.causes.most_common(8):
                print(f"  {n:5d}  {cause}")


if __name__ == "__main__":
    main()

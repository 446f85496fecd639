#!/usr/bin/env python3
"""COM on Ray against COM in local worker processes: the latency of one search decision.

What a run does. It takes ``--decisions`` mid-game positions of the three games (seeded random
play, every fifth step from step 20 on, a decision with a real choice; the seed of each decision
is its number), keeps those the level searches (its explanation counts visits: not a rule's
shortcut), and times each decision of COM ``--level`` through :class:`ComPool` as
``kessen play`` makes it, on two paths in turn:

- ``local``: the server's worker processes (``ComPool(processes=True)``, ``--workers`` of them);
- ``ray``: Ray tasks (``kessen play --ray ADDRESS``; ``auto`` starts a local Ray on this machine
  with all its cores, or joins the one ``ray start`` runs), ``--workers`` at once;

each first warmed up (one decision per worker, untimed: process start and imports), then, in
each of ``--rounds`` rounds, every decision one at a time (what a person waiting for COM sees
on an idle server) and ``--workers`` decisions in flight at once (a busy server), the two paths
taking turns so that the machine's other work weighs on both alike; plus ``inline``, the same
decisions made once in this process (the thinking alone). Latency is the time from asking until
the answer is back on the event loop. It prints p50/p90/max/mean and the rate per path, the
median of what Ray adds to the same decision, and checks that every path gave the answers
(action and explanation) the inline one gave.

    .venv/bin/python bench/ray_com_bench.py                         # ismcts-normal, ~1 min
    .venv/bin/python bench/ray_com_bench.py --level ismcts-strong --decisions 24
    .venv/bin/python bench/ray_com_bench.py --ray 127.0.0.1:6379 --workers 8   # a cluster

It is a script, not a test: nothing asserts on the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import time
from typing import Any

from kessen.ai.levels import STRONGEST_SECONDS
from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.server.com_pool import PERSON_WAITS, ComPool, decide, default_workers
from kessen.server.com_ray import RayCom

CONFIGS: dict[str, dict[str, Any]] = {
    "kobo": {"decks": ["vanguard", "tempo"], "best_of": 1},
    "twgp": {},
    "maken": {},
}
Job = tuple[str, str, int, Json, list[Action]]


def positions(ruleset: str, game_seed: int) -> list[tuple[Json, list[Action]]]:
    """Decisions with a real choice from a seeded random game of ``ruleset`` (every fifth step
    from step 20 on): the deciding seat's view and the legal actions."""
    rules = registry.get(ruleset)
    state = rules.new_game({**rules.default_config, **CONFIGS[ruleset]}, game_seed)
    rng = random.Random(game_seed)
    out: list[tuple[Json, list[Action]]] = []
    for step in range(600):
        pending = state.pending
        if pending is None:
            break
        legal = state.legal_actions()
        if len(legal) > 1 and step >= 20 and step % 5 == 0:
            out.append((state.decision_view(pending.seat), legal))
        state = state.clone()
        state.apply(rng.choice(legal))
    return out


def jobs(level: str, count: int) -> tuple[list[Job], list[float], list[tuple[Action, Any]]]:
    """``count`` decisions of ``level`` that it searches, spread over the three games, with the
    time each takes inline (in this process) and its answer there."""
    out: list[Job] = []
    inline: list[float] = []
    answers: list[tuple[Action, Any]] = []
    per_game = -(-count // len(CONFIGS))
    for ruleset in sorted(CONFIGS):
        found = 0
        for game_seed in range(17, 40):
            for view, legal in positions(ruleset, game_seed):
                job: Job = (ruleset, level, len(out), view, legal)
                started = time.perf_counter()
                answer = decide(*job)
                spent = time.perf_counter() - started
                if not any(c.get("visits") for c in answer[1] or []):
                    continue  # a rule's shortcut, not a search
                out.append(job)
                inline.append(spent)
                answers.append(answer)
                found += 1
                if found == per_game or len(out) == count:
                    break
            if found == per_game or len(out) == count:
                break
    return out, inline, answers


async def timed(pool: ComPool, job: Job) -> tuple[float, tuple[Action, Any]]:
    started = time.perf_counter()
    answer = await pool.choose(PERSON_WAITS, *job)
    return time.perf_counter() - started, answer


async def one_at_a_time(pool: ComPool, work: list[Job]) -> list[tuple[float, Any]]:
    """Every decision alone: what a person waiting for COM sees on an idle server."""
    return [await timed(pool, job) for job in work]


async def together(
    pool: ComPool, work: list[Job], at_once: int
) -> tuple[list[tuple[float, Any]], float]:
    """``at_once`` decisions in flight until all are made; their latencies and the rate."""
    gate = asyncio.Semaphore(at_once)

    async def one(job: Job) -> tuple[float, Any]:
        async with gate:
            return await timed(pool, job)

    started = time.perf_counter()
    out = await asyncio.gather(*(one(job) for job in work))
    return list(out), len(work) / (time.perf_counter() - started)


async def measure(
    pools: dict[str, ComPool], work: list[Job], at_once: int, rounds: int
) -> dict[str, dict[str, Any]]:
    """Warm every pool up, then in each round time every decision on each path, one at a
    time and ``at_once`` at a time, the paths taking turns (first one, then the other) so that
    the machine's other work weighs on both alike."""
    for pool in pools.values():
        await asyncio.gather(*(timed(pool, work[i % len(work)]) for i in range(pool.workers)))
    figures: dict[str, dict[str, Any]] = {
        name: {"sequential": [], "concurrent": [], "rates": [], "answers": []} for name in pools
    }
    names = list(pools)
    for index in range(rounds):
        order = names if index % 2 == 0 else names[::-1]
        for name in order:
            timed_ = await one_at_a_time(pools[name], work)
            figures[name]["sequential"].append([spent for spent, _ in timed_])
            figures[name]["answers"].append([answer for _, answer in timed_])
        for name in order:
            timed_, rate = await together(pools[name], work, at_once)
            figures[name]["concurrent"].extend(spent for spent, _ in timed_)
            figures[name]["rates"].append(rate)
            figures[name]["answers"].append([answer for _, answer in timed_])
    return figures


def row(name: str, figures: list[float], rate: float | None = None) -> str:
    ordered = sorted(figures)
    ms = [1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))] for q in (0.5, 0.9)]
    mean = 1000 * statistics.fmean(ordered)
    rate_text = f"{rate:.1f}" if rate is not None else ""
    return (
        f"| {name} | {ms[0]:.0f} | {ms[1]:.0f} | {1000 * ordered[-1]:.0f} | {mean:.0f} | "
        f"{rate_text} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="ismcts-normal", help="a search level")
    parser.add_argument("--decisions", type=int, default=30, help="decisions per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, the paths taking turns")
    parser.add_argument("--workers", type=int, default=default_workers(), help="at once")
    parser.add_argument("--ray", default="auto", help="where Ray runs (kessen play --ray)")
    args = parser.parse_args()

    work, inline, expected = jobs(args.level, args.decisions)
    print(
        f"{len(work)} decisions of {args.level} ({', '.join(sorted(CONFIGS))}) x "
        f"{args.rounds} rounds, {args.workers} at once; {platform.python_implementation()} "
        f"{platform.python_version()}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f}",
        flush=True,
    )
    started = time.perf_counter()
    cluster = RayCom.connect(args.ray)
    print(
        f"Ray at {cluster.where}: {cluster.width} CPUs (joined or started in "
        f"{time.perf_counter() - started:.1f} s)",
        flush=True,
    )
    pools = {
        "local processes": ComPool(workers=args.workers, processes=True),
        "Ray": ComPool(workers=args.workers, processes=True, cluster=cluster),
    }
    try:
        figures = asyncio.run(measure(pools, work, args.workers, args.rounds))
    finally:
        for pool in pools.values():
            pool.close()

    print(f"\nload average at the end {os.getloadavg()[0]:.1f}\n")
    print("| path | p50 ms | p90 ms | max ms | mean ms | decisions/s |")
    print("| --- | --- | --- | --- | --- | --- |")
    print(row("inline (this process: the thinking alone)", inline, len(inline) / sum(inline)))
    for name, got in figures.items():
        flat = [spent for one in got["sequential"] for spent in one]
        print(row(f"{name}, one at a time", flat))
    for name, got in figures.items():
        rate = statistics.median(got["rates"])
        print(row(f"{name}, {args.workers} at once", got["concurrent"], rate))
    near, far = (figures[name]["sequential"] for name in pools)
    added = [
        f - n
        for near_round, far_round in zip(near, far, strict=True)
        for n, f in zip(near_round, far_round, strict=True)
    ]
    print(
        f"\nRay minus local processes, the same decision one at a time: median "
        f"{1000 * statistics.median(added):+.1f} ms (p10 "
        f"{1000 * sorted(added)[len(added) // 10]:+.1f}, p90 "
        f"{1000 * sorted(added)[9 * len(added) // 10]:+.1f})"
    )
    runs = [answers for got in figures.values() for answers in got["answers"]]
    differ = sum(a != e for answers in runs for a, e in zip(answers, expected, strict=True))
    print(
        "same answers on every path and in every round: "
        + ("yes" if not differ else f"NO, {differ} of {len(runs) * len(expected)}")
    )
    capped = [
        spent
        for got in figures.values()
        for spent in [*got["concurrent"], *(x for one in got["sequential"] for x in one)]
        if spent >= 0.9 * STRONGEST_SECONDS
    ]
    if capped:
        print(
            f"{len(capped)} decisions took {0.9 * STRONGEST_SECONDS:.2f} s or more: a search "
            f"that reaches its time cap ({STRONGEST_SECONDS} s) on a loaded machine stops "
            "before its iteration budget, and may answer otherwise"
        )


if __name__ == "__main__":
    main()

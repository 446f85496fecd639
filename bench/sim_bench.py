#!/usr/bin/env python3
"""Simulation and match-store costs: throughput on 1 process and on all cores, bytes per game,
and the write cost of one action.

1. Throughput: the same seeded tournament games played in this process and on a warm local
   process pool with one worker per core (games/s, decisions/s, scaling efficiency =
   speed-up / cores). Two kinds: random vs random, and heuristic vs heuristic.
2. Bytes per game: a tournament stored in a fresh store file (replay, hashes, event digests
   and journal entry of every game), checkpointed and vacuumed, divided by the games; per table
   from SQLite's ``dbstat`` where available.
3. Write cost per action: ``MatchStore.append_action`` (one committed transaction per action, as
   ``play`` and the server record) with ``synchronous`` OFF, NORMAL (the default) and FULL,
   in microseconds; and the bulk write of a whole simulated match (one transaction) per action.

    .venv/bin/python bench/sim_bench.py                  # ~1-2 minutes on 2 cores
    .venv/bin/python bench/sim_bench.py --games 400 --json out.json

The machine is shared and noisy: compare figures from the same sitting.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from kessen.engine import registry
from kessen.sim.backends import InlineBackend, LocalBackend
from kessen.sim.tournament import (
    StoreJournal,
    TournamentSpec,
    play_batch,
    play_game,
    run,
)
from kessen.store import MatchStore
from kessen.store.records import Recorder

DECKS = ("fortress", "swarm", "tempo", "vanguard")


def _spec(players: tuple[str, ...], games: int, seed: int) -> TournamentSpec:
    """A tournament of about ``games`` games among the starter decks played by ``players``."""
    probe = TournamentSpec(DECKS, players, 1, seed=seed)
    per = max(1, round(games / len(probe.matchups)))
    return TournamentSpec(DECKS, players, per, seed=seed)


def _timed(backend: Any, specs: list[Any]) -> tuple[float, float, float, list[Any]]:
    """Wall seconds, summed per-game CPU seconds, this process's CPU seconds and the records
    of ``specs`` played on ``backend``."""
    size = max(1, min(8, len(specs) // max(1, backend.workers * 4)))
    batches = [specs[i : i + size] for i in range(0, len(specs), size)]
    started = time.perf_counter()
    cpu = time.process_time()
    records = [r for batch in backend.map_unordered(play_batch, batches) for r in batch]
    main_cpu = time.process_time() - cpu
    wall = time.perf_counter() - started
    return wall, sum(r.cpu_seconds for r in records), main_cpu, records


def throughput(players: tuple[str, ...], games: int, workers: int) -> dict[str, Any]:
    """Games/s and decisions/s on one process and on ``workers`` processes.

    Wall-clock speed-up is what a user sees; on a shared machine it also measures the other
    load, so the CPU seconds the games took are given too (their ratio is the parallel
    overhead, independent of the other load).
    """
    specs = _spec(players, games, seed=1).schedule()
    total = len(specs)
    load_before = os.getloadavg()[0]
    single, single_cpu, _, one = _timed(InlineBackend(), specs)
    steps = sum(len(r.actions) for r in one)
    with LocalBackend(workers) as backend:
        # Warm the pool (process start and imports are paid once per run, not per game).
        list(backend.map_unordered(play_batch, [specs[:1]] * workers))
        parallel, parallel_cpu, main_cpu, many = _timed(backend, specs)
    hashes = {r.spec.index: r.summary["final_hash"] for r in one}
    assert all(hashes[r.spec.index] == r.summary["final_hash"] for r in many)
    speedup = single / parallel
    return {
        "players": "/".join(players),
        "games": total,
        "decisions": steps,
        "load_average_before": round(load_before, 2),
        "one_process": {
            "seconds": round(single, 2),
            "cpu_seconds": round(single_cpu, 2),
            "games_per_s": round(total / single, 1),
            "decisions_per_s": round(steps / single),
        },
        "all_cores": {
            "workers": workers,
            "seconds": round(parallel, 2),
            "cpu_seconds": round(parallel_cpu, 2),
            "main_process_cpu_seconds": round(main_cpu, 2),
            "games_per_s": round(total / parallel, 1),
            "decisions_per_s": round(steps / parallel),
        },
        "speedup": round(speedup, 2),
        "efficiency": round(speedup / workers, 2),
        "cpu_per_game_ratio": round(parallel_cpu / single_cpu, 2),
    }


def bytes_per_game(games: int, directory: Path) -> dict[str, Any]:
    """Store a tournament and measure the file."""
    spec = _spec(("random", "heuristic"), games, seed=2)
    path = directory / "size.sqlite3"
    with MatchStore(path) as store:
        result = run(spec, StoreJournal(store, "size", spec), InlineBackend())
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("VACUUM")
    tables: dict[str, int] = {}
    try:
        for name, size in conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
            tables[name] = int(size)
    except sqlite3.OperationalError:
        pass
    conn.close()
    size = path.stat().st_size
    count = len(result.summaries)
    steps = sum(s["steps"] for s in result.summaries)
    return {
        "games": count,
        "decisions_per_game": round(steps / count, 1),
        "file_bytes": size,
        "bytes_per_game": round(size / count),
        "bytes_per_decision": round(size / steps, 1),
        "by_table_per_game": {k: round(v / count) for k, v in sorted(tables.items())},
    }


def write_cost(actions: int, directory: Path) -> dict[str, Any]:
    """µs per ``append_action`` for each synchronous setting, and per action of a bulk write."""
    rules = registry.get("kobo")
    spec = _spec(("heuristic",), 12, seed=3).schedule()
    records = [play_game(s) for s in spec]
    texts = [t for r in records for t in r.actions]
    out: dict[str, Any] = {"actions": actions}
    for mode in ("OFF", "NORMAL", "FULL"):
        path = directory / f"write-{mode}.sqlite3"
        with MatchStore(path, synchronous=mode) as store:
            config = records[0].spec.config
            state = rules.new_game(config, records[0].spec.seed)
            recorder = Recorder.start(store, state, config, records[0].spec.seed)
            samples: list[float] = []
            for i in range(actions):
                text = texts[i % len(texts)]
                digest = "0" * 24 if (i + 1) % 10 == 0 else None
                started = time.perf_counter()
                store.append_action(recorder.match_id, i + 1, text, digest, events=i)
                samples.append(time.perf_counter() - started)
        samples.sort()
        out[mode] = {
            "mean_us": round(1e6 * statistics.fmean(samples), 1),
            "median_us": round(1e6 * samples[len(samples) // 2], 1),
            "p99_us": round(1e6 * samples[int(len(samples) * 0.99)], 1),
        }
    path = directory / "bulk.sqlite3"
    with MatchStore(path) as store:
        started = time.perf_counter()
        for r in records:
            store.add_match(r.new_match({}))
        elapsed = time.perf_counter() - started
    out["bulk_match_NORMAL_us_per_action"] = round(
        1e6 * elapsed / sum(len(r.actions) for r in records), 2
    )
    return out


def main() -> None:
    """Run the benchmarks and print (and optionally save) the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=240, help="games per throughput run")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--actions", type=int, default=3000, help="actions per write test")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    figures: dict[str, Any] = {
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "sqlite": sqlite3.sqlite_version,
            "platform": platform.platform(),
        },
    }
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        figures["write_cost"] = write_cost(args.actions, directory)
        print(json.dumps({"write_cost": figures["write_cost"]}, indent=1), flush=True)
        figures["bytes"] = bytes_per_game(max(24, args.games // 2), directory)
        print(json.dumps({"bytes": figures["bytes"]}, indent=1), flush=True)
    figures["throughput"] = [
        throughput(("random",), args.games, args.workers),
        throughput(("heuristic",), args.games, args.workers),
    ]
    print(json.dumps({"throughput": figures["throughput"]}, indent=1), flush=True)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

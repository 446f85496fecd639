#!/usr/bin/env python3
"""The match store's operations timed on SQLite and on PostgreSQL, in the same run.

N Kōbō matches (random against random, seeded) are played once, up front, so that only the
store is timed; then, on each store in turn:

- ``sqlite``: a fresh SQLite file with the default ``synchronous=NORMAL`` (a commit survives a
  killed process, not a power cut: no fsync per commit);
- ``sqlite_full``: the same with ``synchronous=FULL`` (an fsync per commit);
- ``postgresql``: a fresh schema of a PostgreSQL server with its default, durable settings
  (``synchronous_commit=on``: a commit waits for its WAL to reach the disk);
- ``postgresql_async``: the same with ``synchronous_commit=off`` set by the URL
  (``options=-csynchronous_commit%3Doff``; a database server crash may lose the last
  commits, never corrupt the store),

these operations:

- insert: ``create_match`` and one ``append_action`` per action, each its own committed
  transaction, as ``kessen play`` records a match;
- finish: ``finish_match``;
- list: ``list_matches`` as the history screen asks (newest 50; by player; by deck, finished);
- get: ``get`` of every match (its row and actions), as a replay screen loads it;
- replay: ``resume`` of every match (load, replay under the rules, verify every stored hash);
- bulk: ``add_match`` of every match in one transaction, as ``kessen sim`` records a game;
- copy: ``kessen store copy`` of the whole ``sqlite`` store to PostgreSQL and back, verified.

Without ``--pg`` a private PostgreSQL server is started (``kessen.store.pg_server``, the
machine's PostgreSQL programs, ``fsync`` on); with ``--pg URL`` a new schema of that database
is used and dropped at the end.

    .venv/bin/python bench/store_bench.py                    # ~1.5 minutes on 2 cores
    .venv/bin/python bench/store_bench.py --matches 500 --json out.json
    .venv/bin/python bench/store_bench.py --pg postgresql://kessen@db.example/kessen

The machine is shared and noisy: compare figures from the same sitting only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sqlite3
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from kessen.engine import registry
from kessen.engine.contract import GameState, Outcome
from kessen.engine.replay import HASH_EVERY, Replay
from kessen.store import MatchStore, NewMatch
from kessen.store.copy import copy_store
from kessen.store.integrity import events_digest
from kessen.store.pg_server import LocalServer

DECKS = ("fortress", "swarm", "tempo", "vanguard")


@dataclass
class Played:
    """One match played up front: what the store is given for it."""

    seed: int
    config: dict[str, Any]
    start: GameState
    steps: list[tuple[str, str | None, int]]  # action text, state hash (some steps), events
    outcome: Outcome | None
    results: list[list[Any]]


def play(seed: int) -> Played:
    """A seeded random-against-random Kōbō match with what a recorder would store."""
    rules = registry.get("kobo")
    chooser = random.Random(seed)
    config = {"decks": [chooser.choice(DECKS), chooser.choice(DECKS)], "best_of": 1}
    state = rules.new_game(config, seed)
    start = state.clone()
    seen = len(state.log_events())
    steps: list[tuple[str, str | None, int]] = []
    while state.pending is not None:
        action = chooser.choice(state.legal_actions())
        state.apply(action)
        log = state.log_events()
        over = state.pending is None
        digest = state.state_hash() if over or (len(steps) + 1) % HASH_EVERY == 0 else None
        steps.append((str(action), digest, events_digest(log[seen:])))
        seen = len(log)
    results = [list(r) for r in getattr(state, "results", ())]
    return Played(seed, config, start, steps, state.outcome, results)


STORES = ("sqlite", "sqlite_full", "postgresql", "postgresql_async")


def _warm(game: Played) -> None:
    state = game.start.clone()
    for text, _, _ in game.steps:
        state.apply(next(a for a in state.legal_actions() if str(a) == text))


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median_ms": round(statistics.median(ordered) * 1000, 3),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 3),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 3),
        "total_s": round(sum(ordered), 3),
        "n": len(ordered),
    }


def _each(items: list[Any], call: Callable[[Any], Any]) -> list[float]:
    times = []
    for item in items:
        started = time.perf_counter()
        call(item)
        times.append(time.perf_counter() - started)
    return times


def measure(store: MatchStore, matches: list[Played]) -> tuple[dict[str, Any], list[int]]:
    """Every operation of the module's text on ``store``; the figures and the match ids."""
    out: dict[str, Any] = {}
    ids: list[int] = []
    create: list[float] = []
    append: list[float] = []
    for game in matches:
        started = time.perf_counter()
        match_id = store.create_match(
            "kobo", game.config, game.seed, players={0: "random", 1: "random"},
            state=game.start.clone(),
        )  # fmt: skip
        create.append(time.perf_counter() - started)
        for step, (text, digest, events) in enumerate(game.steps, start=1):
            started = time.perf_counter()
            store.append_action(match_id, step, text, digest, events=events)
            append.append(time.perf_counter() - started)
        ids.append(match_id)
    out["create_match"] = _ms(create)
    out["append_action"] = _ms(append)
    pairs = list(zip(ids, matches, strict=True))
    out["finish_match"] = _ms(
        _each(pairs, lambda p: store.finish_match(p[0], p[1].outcome, p[1].results))
    )
    lists = {
        "list_newest_50": lambda: store.list_matches(limit=50),
        "list_by_player": lambda: store.list_matches(player="random", limit=50),
        "list_by_deck_finished": lambda: store.list_matches(deck="swarm", finished=True),
    }
    for name, call in lists.items():
        out[name] = _ms(_each([call] * 20, lambda c: c()))
    out["get"] = _ms(_each(ids, store.get))
    out["replay_verified"] = _ms(_each(ids, store.resume))
    bulk: list[float] = []
    for game in matches:
        replay = Replay(
            "kobo", game.config, game.seed, [s[0] for s in game.steps],
            registry.get("kobo").version, registry.get("kobo").data_hash,
            {i: h for i, (_, h, _) in enumerate(game.steps, start=1) if h},
        )  # fmt: skip
        new = NewMatch(replay, {"0": "random", "1": "random"}, "sim", game.outcome, game.results)
        started = time.perf_counter()
        store.add_match(new)
        bulk.append(time.perf_counter() - started)
    out["add_match_whole"] = _ms(bulk)
    out["actions_per_match"] = round(statistics.fmean(len(g.steps) for g in matches), 1)
    return out, ids


def _server_version(conn: psycopg.Connection[Any]) -> str:
    row = conn.execute("SHOW server_version").fetchone()
    assert row is not None
    return str(row[0])


@contextmanager
def postgres_target(url: str | None) -> Iterator[tuple[Callable[[], str], str]]:
    """A factory of fresh PostgreSQL stores (new schemas) and the server's description."""
    if url is None:
        with LocalServer(durable=True) as server:
            with psycopg.connect(server.url) as conn:
                version = _server_version(conn)
            yield server.new_store, f"PostgreSQL {version} (private local server, fsync on)"
        return
    made: list[str] = []

    def new_store() -> str:
        schema = f"kessen_bench_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        made.append(schema)
        return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"

    with psycopg.connect(url) as conn:
        version = _server_version(conn)
    try:
        yield new_store, f"PostgreSQL {version} (given server)"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            for schema in made:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")


def main() -> None:
    """Parse the arguments, play, measure, print (and write the JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200, help="matches per database")
    parser.add_argument("--pg", default=None, help="a PostgreSQL URL (default: a private one)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    started = time.perf_counter()
    matches = [play(seed) for seed in range(1, args.matches + 1)]
    print(f"played {len(matches)} matches up front in {time.perf_counter() - started:.1f} s")
    figures: dict[str, Any] = {
        "machine": {
            "python": platform.python_version(),
            "sqlite": sqlite3.sqlite_version,
            "cpus": os.cpu_count(),
            "load_before": round(os.getloadavg()[0], 2),
        }
    }
    with tempfile.TemporaryDirectory() as tmp, postgres_target(args.pg) as (new_pg, described):
        figures["machine"]["postgresql"] = described
        for seed in range(1, min(20, len(matches)) + 1):  # warm the rules up for the replays
            _warm(matches[seed - 1])
        lite_path = str(Path(tmp) / "bench.sqlite3")
        with MatchStore(lite_path) as lite:
            figures["sqlite"], _ = measure(lite, matches)
        with MatchStore(str(Path(tmp) / "full.sqlite3"), synchronous="FULL") as full:
            figures["sqlite_full"], _ = measure(full, matches)
        with MatchStore(new_pg() + "%20-csynchronous_commit%3Doff") as fast:
            figures["postgresql_async"], _ = measure(fast, matches)
        with MatchStore(new_pg()) as pg:
            figures["postgresql"], _ = measure(pg, matches)
            copies: dict[str, Any] = {}
            with MatchStore(lite_path) as lite, MatchStore(new_pg()) as empty_pg:
                t = time.perf_counter()
                report = copy_store(lite, empty_pg)
                copies["sqlite_to_postgresql_s"] = round(time.perf_counter() - t, 2)
                t = time.perf_counter()
                with MatchStore(str(Path(tmp) / "back.sqlite3")) as back:
                    copy_store(pg, back)
                copies["postgresql_to_sqlite_s"] = round(time.perf_counter() - t, 2)
                copies["matches"] = report.counts["matches"]
                copies["actions"] = report.counts["actions"]
            figures["copy"] = copies
    figures["machine"]["load_after"] = round(os.getloadavg()[0], 2)
    print(json.dumps(figures["machine"]))
    print("median / p99 in ms")
    print(f"{'operation':<22}" + "".join(f"{name:>19}" for name in STORES))
    for name, first in figures["sqlite"].items():
        cells = [figures[store][name] for store in STORES]
        if not isinstance(first, dict):
            print(f"{name:<22}" + "".join(f"{c:>19}" for c in cells))
            continue
        shown = [f"{c['median_ms']:.3f} / {c['p99_ms']:.3f}" for c in cells]
        print(f"{name:<22}" + "".join(f"{c:>19}" for c in shown))
    print(f"copy: {json.dumps(figures['copy'])}")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

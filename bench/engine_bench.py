#!/usr/bin/env python3
"""Engine benchmark: random-playout throughput and the cost of the contract's state operations.

Runs in one process on one core (optionally pinned with ``--cpu``) and prints a markdown table:

- random playouts (uniform choice by index among the legal actions), best of 1 and best of 3:
  games/s and actions/s, deck pairs rotating over every ordered pair of starter decks;
- ``legal_actions()`` + ``apply()`` per action, timed inside the best-of-1 playouts;
- ``clone()``, ``to_json()``, ``from_json()``, ``state_hash()`` and ``view(0)`` of mid-game
  states (the state halfway through each of a set of recorded games): the median over many
  timed batches, in µs per call.

Each measurement runs for ``--seconds``. ``--json FILE`` stores the figures; ``--compare FILE``
prints a stored run beside this one with the ratio now/previous. Usage::

    .venv/bin/python bench/engine_bench.py --seconds 2 --json bench-now.json
    .venv/bin/python bench/engine_bench.py --compare bench-now.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kessen import __version__
from kessen.engine import registry
from kessen.engine.contract import GameState, Json
from kessen.games.kobo.decks import starter_decks

RULESET = "kobo"
MID_GAME_STATES = 64


@dataclass(frozen=True)
class Figure:
    """One measured figure."""

    key: str
    label: str
    value: float
    unit: str

    @property
    def higher_is_better(self) -> bool:
        """Rates go up when the engine gets faster; costs go down."""
        return self.unit.endswith("/s")


def configs(best_of: int) -> list[Json]:
    """Every ordered pair of starter decks, as configs."""
    names = sorted(starter_decks())
    return [{"decks": [a, b], "best_of": best_of} for a, b in itertools.product(names, names)]


def playouts(best_of: int, seconds: float, seed: int) -> tuple[int, int, float, float]:
    """Play random games for ``seconds``: (games, actions, elapsed s, s in legal+apply)."""
    rules = registry.get(RULESET)
    pool = configs(best_of)
    games = actions = 0
    in_step = 0.0
    clock = time.perf_counter
    start = clock()
    while clock() - start < seconds:
        game_seed = seed + games
        state = rules.new_game(pool[games % len(pool)], game_seed)
        chooser = random.Random(game_seed)
        while state.pending is not None:
            t0 = clock()
            legal = state.legal_actions()
            t1 = clock()
            action = legal[chooser.randrange(len(legal))]
            t2 = clock()
            state.apply(action)
            in_step += (t1 - t0) + (clock() - t2)
            actions += 1
        games += 1
    return games, actions, clock() - start, in_step


def mid_game_states(count: int, seed: int) -> list[GameState]:
    """The state halfway through each of ``count`` random best-of-1 games."""
    rules = registry.get(RULESET)
    pool = configs(1)
    states = []
    for index in range(count):
        config = pool[index % len(pool)]
        game_seed = seed + 10_000 + index
        state = rules.new_game(config, game_seed)
        chooser = random.Random(game_seed)
        history: list[GameState] = []
        while state.pending is not None:
            history.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[chooser.randrange(len(legal))])
        states.append(history[len(history) // 2])
    return states


def per_call_us(op: Callable[[Any], object], inputs: list[Any], seconds: float) -> float:
    """Median µs per call of ``op`` over batches that cycle through ``inputs``."""
    clock = time.perf_counter
    # Size a batch to about 2 ms so that timer overhead does not count.
    reps = 1
    while True:
        t0 = clock()
        for i in range(reps):
            op(inputs[i % len(inputs)])
        if clock() - t0 > 0.002 or reps >= 1 << 16:
            break
        reps *= 2
    samples: list[float] = []
    offset = 0
    start = clock()
    while clock() - start < seconds or len(samples) < 5:
        batch = [inputs[(offset + i) % len(inputs)] for i in range(reps)]
        offset += reps
        t0 = clock()
        for item in batch:
            op(item)
        samples.append((clock() - t0) / reps * 1e6)
    return statistics.median(samples)


def measure(seconds: float, seed: int) -> list[Figure]:
    """Run every measurement; each takes about ``seconds``."""
    figures: list[Figure] = []
    for best_of in (1, 3):
        games, actions, elapsed, in_step = playouts(best_of, seconds, seed)
        label = f"random playout, best of {best_of}"
        figures.append(Figure(f"bo{best_of}_games", label, games / elapsed, "games/s"))
        figures.append(Figure(f"bo{best_of}_actions", label, actions / elapsed, "actions/s"))
        if best_of == 1:
            figures.append(
                Figure(
                    "step", "legal_actions() + apply(), per action", in_step / actions * 1e6, "µs"
                )
            )
    states = mid_game_states(MID_GAME_STATES, seed)
    rules = registry.get(RULESET)
    data = [json.loads(json.dumps(s.to_json())) for s in states]
    ops: list[tuple[str, str, Callable[[Any], object], list[Any]]] = [
        ("clone", "clone() of a mid-game state", lambda s: s.clone(), states),
        ("to_json", "to_json()", lambda s: s.to_json(), states),
        ("from_json", "from_json() (from parsed JSON)", rules.from_json, data),
        ("state_hash", "state_hash()", lambda s: s.state_hash(), states),
        ("view", "view(0)", lambda s: s.view(0), states),
    ]
    for key, label, op, inputs in ops:
        figures.append(Figure(key, label, per_call_us(op, inputs, seconds), "µs"))
    return figures


def _fmt(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def table(figures: list[Figure], previous: dict[str, Any] | None) -> str:
    """The figures as a markdown table, beside the previous ones if given."""
    if previous is None:
        lines = ["| measurement | value | unit |", "|---|---:|---|"]
        lines += [f"| {f.label} | {_fmt(f.value)} | {f.unit} |" for f in figures]
        return "\n".join(lines)
    lines = [
        "| measurement | unit | previous | now | now/previous | |",
        "|---|---|---:|---:|---:|---|",
    ]
    for f in figures:
        old = previous.get(f.key, {}).get("value")
        if not old:
            lines.append(f"| {f.label} | {f.unit} | – | {_fmt(f.value)} | – | |")
            continue
        ratio = f.value / old
        faster = ratio > 1 if f.higher_is_better else ratio < 1
        verdict = "same" if abs(ratio - 1) < 0.03 else "faster" if faster else "slower"
        lines.append(
            f"| {f.label} | {f.unit} | {_fmt(old)} | {_fmt(f.value)} | {ratio:.2f} | {verdict} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    parser.add_argument("--json", type=Path, help="store the figures in this file")
    parser.add_argument("--compare", type=Path, help="show a stored run beside this one")
    parser.add_argument("--cpu", type=int, help="pin the process to this CPU (Linux)")
    args = parser.parse_args(argv)

    if args.cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    previous = None
    if args.compare is not None:
        previous = json.loads(args.compare.read_text(encoding="utf-8"))["figures"]

    rules = registry.get(RULESET)
    figures = measure(args.seconds, args.seed)
    meta = {
        "ruleset": RULESET,
        "kessen": __version__,
        "data_hash": rules.data_hash,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "seconds": args.seconds,
        "seed": args.seed,
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    print(
        f"Kessen {__version__} engine benchmark ({RULESET}), Python {meta['python']} "
        f"({meta['implementation']}, {meta['machine']}), {args.seconds:g} s per measurement\n"
    )
    print(table(figures, previous))
    if args.json is not None:
        out = {"meta": meta, "figures": {f.key: vars(f) for f in figures}}
        args.json.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Environment benchmark: PettingZoo steps per second beside the engine's own actions per second.

For each ruleset, in one process and one sitting, alternating ``--rounds`` times:

- **engine**: random playouts through the contract alone, as ``engine_bench.py`` plays them
  (``legal_actions()``, a uniform choice by index, ``apply()``; new game included);
- **engine + decision view**: the same, plus ``decision_view(seat)`` of the seat to act at
  every decision (the view a COM decides from, without the aids drawn for people: what any
  player that looks at the board costs; the environment's observation starts from it);
- **environment**: random playouts through :mod:`kessen.interop.pettingzoo` in PettingZoo's
  usual loop (``agent_iter()``, ``last()``, a uniform choice among the masked legal ids,
  ``step()``), with its standard wrappers; each decision is one step (the finished agents'
  closing ``step(None)`` calls are not counted).

Prints a markdown table of the median rates and the ratio engine / environment (how many times
the engine's speed the wrapper costs). Rates are per second of the process's CPU time by
default (``--clock cpu``): on a shared machine other jobs then slow neither side; ``--clock
wall`` times by the wall clock as ``engine_bench.py`` does. Usage::

    .venv/bin/python bench/env_bench.py --seconds 5 --rounds 3
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial

import numpy as np

from kessen import __version__
from kessen.engine import registry
from kessen.interop.pettingzoo import env as make_env

RULESETS = ("kobo", "twgp")


CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


def engine_rate(
    ruleset: str, seconds: float, seed: int, with_view: bool, clock: Callable[[], float]
) -> float:
    """Actions per second of random playouts through the engine (optionally viewing)."""
    rules = registry.get(ruleset)
    config = rules.default_config
    actions = games = 0
    start = clock()
    while clock() - start < seconds:
        game_seed = seed + games
        state = rules.new_game(config, game_seed)
        chooser = random.Random(game_seed)
        while (pending := state.pending) is not None:
            if with_view:
                state.decision_view(pending.seat)
            legal = state.legal_actions()
            state.apply(legal[chooser.randrange(len(legal))])
            actions += 1
        games += 1
    return actions / (clock() - start)


def env_rate(ruleset: str, seconds: float, seed: int, clock: Callable[[], float]) -> float:
    """Decision steps per second of random playouts through the PettingZoo environment."""
    environment = make_env(ruleset)
    steps = games = 0
    start = clock()
    while clock() - start < seconds:
        game_seed = seed + games
        environment.reset(seed=game_seed)
        chooser = np.random.default_rng(game_seed)
        for agent in environment.agent_iter():
            obs, _reward, terminated, truncated, _info = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            environment.step(int(legal[chooser.integers(len(legal))]))
            steps += 1
            del agent
        games += 1
    return steps / (clock() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternations (median kept)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    parser.add_argument("--cpu", type=int, help="pin the process to this CPU (Linux)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu", help="what is timed")
    parser.add_argument("--ruleset", action="append", help="only this ruleset (repeatable)")
    args = parser.parse_args(argv)
    if args.cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    rulesets = tuple(args.ruleset or RULESETS)
    clock = CLOCKS[args.clock]
    print(
        f"Kessen {__version__} environment benchmark, Python {platform.python_version()} "
        f"({platform.python_implementation()}, {platform.machine()}), {args.seconds:g} s per "
        f"measurement ({args.clock} time), median of {args.rounds} alternating rounds, "
        f"{time.strftime('%Y-%m-%d %H:%M')}\n"
    )
    print(
        "| ruleset | engine, actions/s | engine + decision view, actions/s | environment, steps/s "
        "| engine / environment | engine + decision view / environment |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for ruleset in rulesets:
        runs: dict[str, list[float]] = {"engine": [], "view": [], "env": []}
        measures: dict[str, Callable[[], float]] = {
            "engine": partial(engine_rate, ruleset, args.seconds, args.seed, False, clock),
            "view": partial(engine_rate, ruleset, args.seconds, args.seed, True, clock),
            "env": partial(env_rate, ruleset, args.seconds, args.seed, clock),
        }
        for _ in range(args.rounds):
            for key, measure in measures.items():
                runs[key].append(measure())
        engine, view, environment = (statistics.median(runs[k]) for k in ("engine", "view", "env"))
        print(
            f"| {ruleset} | {engine:,.0f} | {view:,.0f} | {environment:,.0f} "
            f"| {engine / environment:.2f} | {view / environment:.2f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

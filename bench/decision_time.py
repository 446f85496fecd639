#!/usr/bin/env python3
"""Decision time of every COM level in every game, on one core: mean, p95 and max seconds.

Each level (やさしい, ふつう, つよい) plays ``--pairs`` pairs of matches against the heuristic COM
in Kōbō, TWGP and Project Maken (the tournament's deals: same deal, seats swapped; its timed
configuration, as the server plays it), pinned to one core, and the bench prints the wall time
of every decision the level searched and of every decision with two or more legal actions
(those it answered by rule included), with the build that ran (compiled or pure Python).
Usage::

    PYTHONPATH=build/compiled .venv/bin/python bench/decision_time.py --pairs 2
    .venv/bin/python bench/decision_time.py --rulesets kobo --levels ismcts-strong --pairs 4
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

import kessen
from kessen.ai.levels import LEVELS
from kessen.ai.tournament import pair_jobs, play_match
from kessen.engine import registry

RULESETS = ("kobo", "twgp", "maken")


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def figures(values: list[float]) -> dict[str, float | int]:
    """Count, mean, p95 and max of ``values`` (seconds)."""
    if not values:
        return {"n": 0}
    return {
        "n": len(values),
        "mean": statistics.fmean(values),
        "p95": percentile(values, 0.95),
        "max": max(values),
    }


def measure(ruleset: str, key: str, pairs: int, seed: int) -> dict[str, object]:
    """The decision times of level ``key`` against the heuristic over ``pairs`` pairs."""
    rules = registry.get(ruleset)
    best_of = int(rules.default_config.get("best_of", 1))
    searched: list[float] = []
    decided: list[float] = []
    started = time.perf_counter()
    for index in range(pairs):
        for job in pair_jobs(ruleset, key, "heuristic", index, best_of, 0.0, seed, True):
            result = play_match(job)
            searched.extend(result.searched_a)
            decided.extend(result.times_a)
    return {
        "ruleset": ruleset,
        "level": key,
        "matches": 2 * pairs,
        "searched": figures(searched),
        "decisions": figures(decided),
        "wall_s": time.perf_counter() - started,
    }


def build() -> str:
    """Which build of the package runs: compiled (mypyc) or pure Python."""
    compiled = any(
        name.endswith((".so", ".pyd"))
        for name in os.listdir(os.path.join(os.path.dirname(kessen.__file__), "engine"))
    )
    return "compiled" if compiled else "pure Python"


def main() -> int:
    """Measure and print one table (and the JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rulesets", default=",".join(RULESETS))
    parser.add_argument("--levels", default=",".join(level.key for level in LEVELS))
    parser.add_argument("--pairs", type=int, default=2, help="pairs of matches per level")
    parser.add_argument("--seed", type=int, default=4242, help="the deals' seed")
    parser.add_argument("--cpu", type=int, default=1, help="the core to pin to (-1: none)")
    parser.add_argument("--json", help="write the figures to this file too")
    args = parser.parse_args()
    if args.cpu >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    print(
        f"build: {build()}; Python {platform.python_version()}; one core "
        f"({'cpu ' + str(args.cpu) if args.cpu >= 0 else 'not pinned'}); "
        f"load average {os.getloadavg()[0]:.2f}; {args.pairs} pairs of matches per level "
        f"against the heuristic, deals of seed {args.seed}"
    )
    print(
        "| game | level | matches | searched decisions | mean s | p95 s | max s "
        "| all decisions (2+ actions) | mean s | p95 s | max s |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    rows = []
    for ruleset in args.rulesets.split(","):
        for key in args.levels.split(","):
            row = measure(ruleset, key, args.pairs, args.seed)
            rows.append(row)
            cells = [ruleset, key, str(row["matches"])]
            for part in ("searched", "decisions"):
                got = row[part]
                assert isinstance(got, dict)
                cells.append(str(got["n"]))
                cells.extend(f"{got[k]:.3f}" if got["n"] else "-" for k in ("mean", "p95", "max"))
            print("| " + " | ".join(cells) + " |", flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"build": build(), "rows": rows}, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

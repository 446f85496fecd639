#!/usr/bin/env python3
"""Search speed per ruleset and COM level: IS-MCTS iterations per second, and the decisions.

For each ruleset (Kōbō, TWGP and Project Maken by default) the heuristic COM plays seeded
games against itself; every third decision a search level would really search (two or more
legal actions, not a routine prompt) becomes a position. Each level (easy, normal, strong)
then searches every position from the deciding seat's view, with its own model and its
iteration budget only (no time cap, so the result is a pure function of view, legal actions
and seed), and the bench prints iterations per second of CPU time and a digest of what the
searches found (candidates, visits, values): two builds that search alike give the same digest.

``--against SOURCE`` measures a directory holding a ``kessen`` package (the compiled build's
``build/compiled``, say) beside this tree in fresh processes, alternating them ``--rounds``
times, and prints the medians, the ratio and whether the decisions were the same. Usage::

    .venv/bin/python bench/level_bench.py --positions 12
    .venv/bin/python bench/level_bench.py --against build/compiled --rounds 3 --cpu 1
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from kessen.ai.ismcts import hooks_for, search
from kessen.ai.levels import LEVELS
from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import Json

RULESETS = ("kobo", "twgp", "maken")


def positions(ruleset: str, count: int, seed: int) -> list[tuple[Json, list[Action]]]:
    """``count`` decisions (the deciding seat's view, the legal actions) from heuristic games
    that a search level would search rather than answer by rule."""
    rules = registry.get(ruleset)
    hooks = hooks_for(ruleset)
    out: list[tuple[Json, list[Action]]] = []
    game = 0
    while len(out) < count:
        state = rules.new_game(rules.default_config, seed * 1000 + game)
        players = {s: rules.players["heuristic"](seed * 1000 + game + s) for s in (0, 1)}
        step = 0
        while state.pending is not None and len(out) < count:
            pending = state.pending
            legal = state.legal_actions()
            view = state.view(pending.seat)
            routine = hooks.routine(view, legal) if hooks.routine is not None else None
            if len(legal) > 1 and routine is None and step % 3 == 0:
                out.append((view, list(legal)))
            step += 1
            state.apply(players[pending.seat].choose(state.decision_view(pending.seat), legal))
        game += 1
    return out


def measure(ruleset: str, count: int, seed: int) -> dict[str, Any]:
    """Every level's search speed and decisions digest on ``count`` positions of ``ruleset``."""
    cases = positions(ruleset, count, seed)
    report: dict[str, Any] = {}
    for level in LEVELS:
        hooks = hooks_for(ruleset, deep=level.deep)
        config = level.config(timed=False, ruleset=ruleset)
        seen = hashlib.sha256()
        iterations = 0
        cpu = 0.0
        for index, (view, legal) in enumerate(cases):
            start = time.process_time()
            result = search(view, legal, hooks, config, seed=index)
            cpu += time.process_time() - start
            iterations += result.iterations
            found = [(str(c.action), c.visits, round(c.value, 12)) for c in result.candidates]
            seen.update(repr((str(result.action), found)).encode())
        report[level.key] = {
            "iterations_per_s": round(iterations / cpu, 1),
            "ms_per_decision": round(cpu / len(cases) * 1000, 2),
            "decisions": seen.hexdigest()[:16],
        }
    return report


def _child(source: Path, ruleset: str, args: argparse.Namespace) -> dict[str, Any]:
    """This script's figures for ``ruleset`` with the package found in ``source``."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = [sys.executable, str(Path(__file__).resolve()), "--ruleset", ruleset]
        command += ["--positions", str(args.positions), "--seed", str(args.seed)]
        command += ["--json", out.name]
        if args.cpu is not None:
            command += ["--cpu", str(args.cpu)]
        env = dict(os.environ, PYTHONPATH=str(source))
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{source}: {ruleset} failed:\n{done.stderr}")
        figures: dict[str, Any] = json.loads(Path(out.name).read_text(encoding="utf-8"))[ruleset]
        return figures


def against(args: argparse.Namespace, rulesets: list[str]) -> int:
    """Measure the package in ``args.against`` beside this tree, alternating them."""
    here = Path(__file__).resolve().parent.parent / "src"
    sources = [("other", Path(args.against).resolve()), ("this", here)]
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for round_no in range(args.rounds):
        order = sources if round_no % 2 == 0 else sources[::-1]
        for ruleset in rulesets:
            for label, source in order:
                runs.setdefault((ruleset, label), []).append(_child(source, ruleset, args))
    print(f"{args.positions} positions per ruleset, medians of {args.rounds} alternated runs")
    print(f"other: {args.against}; this: the source tree (iterations/s of CPU time)\n")
    print("| ruleset | level | this it/s | other it/s | other/this | same decisions |")
    print("|---|---|---:|---:|---:|---|")
    report: dict[str, Any] = {"against": args.against, "rounds": args.rounds}
    for ruleset in rulesets:
        report[ruleset] = {}
        for level in LEVELS:
            mine = [r[level.key] for r in runs[(ruleset, "this")]]
            other = [r[level.key] for r in runs[(ruleset, "other")]]
            a = statistics.median(r["iterations_per_s"] for r in mine)
            b = statistics.median(r["iterations_per_s"] for r in other)
            same = len({r["decisions"] for r in mine + other}) == 1
            print(f"| {ruleset} | {level.key} | {a:,.0f} | {b:,.0f} | {b / a:.2f} | {same} |")
            report[ruleset][level.key] = {"this": a, "other": b, "same_decisions": same}
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print (and optionally store) the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=12, help="positions per ruleset")
    parser.add_argument("--seed", type=int, default=3, help="seed of the heuristic games")
    parser.add_argument(
        "--ruleset",
        action="append",
        choices=RULESETS,
        help="measure this ruleset (repeatable; all three by default)",
    )
    parser.add_argument("--json", type=Path, help="store the figures in this file")
    parser.add_argument(
        "--against", metavar="SOURCE", help="a directory holding a kessen package to compare"
    )
    parser.add_argument("--rounds", type=int, default=3, help="alternations with --against")
    parser.add_argument("--cpu", type=int, help="pin the process to this CPU (Linux)")
    args = parser.parse_args(argv)
    rulesets: list[str] = args.ruleset or list(RULESETS)
    if args.against:
        return against(args, rulesets)
    if args.cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    import kessen.engine.contract as contract

    report: dict[str, Any] = {
        "python": platform.python_version(),
        "compiled": not str(contract.__file__).endswith(".py"),
        "positions": args.positions,
    }
    for ruleset in rulesets:
        report[ruleset] = measure(ruleset, args.positions, args.seed)
    print(json.dumps(report, indent=1))
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

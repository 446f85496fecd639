#!/usr/bin/env python3
"""Search speed: IS-MCTS iterations per second from mid-game Kōbō states, on one core.

Plays seeded heuristic-vs-heuristic matches, keeps the exchange decisions (turn, declare,
chain, target) from turn 3 on with two or more legal actions, and runs the search on each from
the deciding seat's view (world rebuilding included) with a fixed number of iterations, with
each model on the same positions: the standard one (material evaluation after one-turn
rollouts: easy and normal) and the deep one (fitted evaluation after two-turn rollouts: the
strongest level). Prints iterations per second (wall and CPU), per position and in total.

    .venv/bin/python bench/search_bench.py                # 24 positions × 600 iterations
    .venv/bin/python bench/search_bench.py --positions 40 --iterations 1000 --json out.json
    .venv/bin/python bench/search_bench.py --against HEAD~3 --rounds 3

``--against REV`` measures the code of git revision ``REV`` (checked out in a temporary
worktree) and this tree side by side in one run, alternating them ``--rounds`` times, and says
whether both searches found the same candidates, visits and values on every position.

Run it in the same sitting as the shared anchors benchmark, ``anchors.py --only search``
(OpenSpiel's IS-MCTS on gin rummy), and quote the ratio: the machine is shared and noisy.
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

from kessen.ai.ismcts import Budget, SearchConfig, hooks_for, search
from kessen.ai.levels import LEVELS
from kessen.engine import registry
from kessen.engine.action import Action
from kessen.games.kobo.decks import starter_decks
from kessen.games.kobo.heuristic import HeuristicPlayer

EXCHANGE = {"turn", "declare", "chain", "target"}


def positions(count: int, seed: int) -> list[tuple[dict[str, Any], list[Action]]]:
    """Mid-game exchange decisions (view of the deciding seat, legal actions)."""
    rules = registry.get("kobo")
    names = sorted(starter_decks())
    out: list[tuple[dict[str, Any], list[Action]]] = []
    game = 0
    while len(out) < count:
        decks = [names[(seed + game) % len(names)], names[(seed + 2 * game + 1) % len(names)]]
        state = rules.new_game({"decks": decks, "best_of": 3}, seed * 1000 + game)
        players = {0: HeuristicPlayer(game), 1: HeuristicPlayer(game + 1)}
        step = 0
        while state.pending is not None and len(out) < count:
            pending = state.pending
            legal = state.legal_actions()
            view = state.view(pending.seat)
            if (
                view["turn"] >= 3
                and pending.prompt in EXCHANGE
                and len(legal) > 1
                and step % 3 == 0
            ):
                out.append((view, list(legal)))
            step += 1
            state.apply(players[pending.seat].choose(view, legal))
        game += 1
    return out


def measure(
    cases: list[tuple[dict[str, Any], list[Action]]], deep: bool, iterations: int
) -> dict[str, Any]:
    """The search's speed over ``cases`` with the standard or the deep model."""
    hooks = hooks_for("kobo", deep=deep)
    config = SearchConfig(Budget(iterations, None))
    rates: list[float] = []
    total_iterations = 0
    total_wall = total_cpu = 0.0
    seen = hashlib.sha256()
    for index, (view, legal) in enumerate(cases):
        cpu0, wall0 = time.process_time(), time.perf_counter()
        result = search(view, legal, hooks, config, seed=index)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        total_iterations += result.iterations
        total_wall += wall
        total_cpu += cpu
        rates.append(result.iterations / wall)
        seen.update(repr([(str(c.action), c.visits, c.value) for c in result.candidates]).encode())
    return {
        "decisions": seen.hexdigest()[:16],
        "iterations_per_s_wall": round(total_iterations / total_wall, 1),
        "iterations_per_s_cpu": round(total_iterations / total_cpu, 1),
        "median_per_position_wall": round(statistics.median(rates), 1),
        "slowest_position_wall": round(min(rates), 1),
        "mean_s_per_decision_wall": round(total_wall / len(cases), 4),
        "cpu_over_wall": round(total_cpu / total_wall, 3),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print (and optionally save) the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--iterations", type=int, default=LEVELS[-1].iterations)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--model",
        choices=("standard", "deep", "both"),
        default="both",
        help="standard: material evaluation, one-turn rollouts (easy, normal); "
        "deep: fitted evaluation, two-turn rollouts (strong)",
    )
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--against", metavar="REV", help="measure git revision REV beside this")
    parser.add_argument("--rounds", type=int, default=2, help="alternations with --against")
    args = parser.parse_args(argv)
    if args.against:
        return against(args)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    cases = positions(args.positions, args.seed)
    models = ("standard", "deep") if args.model == "both" else (args.model,)
    report: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "positions": len(cases),
        "iterations_per_position": args.iterations,
    }
    for model in models:
        report[model] = measure(cases, model == "deep", args.iterations)
    print(json.dumps(report, indent=1))
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


def _child(source: Path, args: argparse.Namespace, model: str) -> dict[str, Any]:
    """This script's figures for ``model`` with the package found in ``source``."""
    command = [sys.executable, str(Path(__file__).resolve()), "--model", model]
    command += ["--positions", str(args.positions), "--iterations", str(args.iterations)]
    command += ["--seed", str(args.seed)]
    env = dict(os.environ, PYTHONPATH=str(source))
    out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    figures: dict[str, Any] = json.loads(out)[model]
    return figures


def against(args: argparse.Namespace) -> int:
    """Measure revision ``args.against`` and this tree side by side, alternating them."""
    repo = Path(__file__).resolve().parent.parent
    models = ("standard", "deep") if args.model == "both" else (args.model,)
    rows: dict[tuple[str, str], list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "previous"
        git = ["git", "-C", str(repo)]
        subprocess.run([*git, "worktree", "add", "--detach", str(tree), args.against], check=True)
        try:
            for _ in range(args.rounds):
                for model in models:
                    for label, source in (("previous", tree / "src"), ("now", repo / "src")):
                        rows.setdefault((model, label), []).append(_child(source, args, model))
        finally:
            subprocess.run([*git, "worktree", "remove", "--force", str(tree)], check=True)
    print(f"{args.positions} positions x {args.iterations} iterations, {args.rounds} rounds")
    print("| model | previous it/s | now it/s | now/previous | same decisions |")
    print("|---|---:|---:|---:|---|")
    report: dict[str, Any] = {"against": args.against, "rounds": args.rounds}
    for model in models:
        old, new = rows[(model, "previous")], rows[(model, "now")]
        before = statistics.median(r["iterations_per_s_wall"] for r in old)
        after = statistics.median(r["iterations_per_s_wall"] for r in new)
        same = {r["decisions"] for r in old} == {r["decisions"] for r in new}
        print(f"| {model} | {before:,.0f} | {after:,.0f} | {after / before:.2f} | {same} |")
        report[model] = {"previous": old, "now": new, "same_decisions": same}
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

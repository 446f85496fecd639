#!/usr/bin/env python3
"""Engine benchmark: random-playout throughput and the cost of the contract's state operations.

Runs in one process on one core (optionally pinned with ``--cpu``) and prints a markdown table
per ruleset (Kōbō, TWGP and Project Maken by default; ``--ruleset`` picks some):

- random playouts (uniform choice by index among the legal actions): games/s and actions/s.
  Kōbō plays best of 1 and best of 3 matches, deck pairs rotating over every ordered pair of
  starter decks; TWGP plays its default config; Maken every ordered pair of starter decks;
- ``legal_actions()`` + ``apply()`` per action (with the random choice between them) in the
  first kind of playouts: their time without ``new_game``, per action;
- ``clone()``, ``to_json()``, ``from_json()``, ``state_hash()`` and ``view(0)`` of mid-game
  states (the state halfway through each of a set of recorded games): the median over many
  timed batches, in µs per call.

The recorded games also give a digest of their state hashes ("games"): two builds that play
the same games give the same digest.

Each measurement runs for ``--seconds`` of the wall clock, or of the process's CPU time with
``--clock cpu`` (steadier when other work shares the machine). ``--json FILE`` stores the
figures; ``--compare FILE`` prints a stored run beside this one with the ratio now/previous.
``--against SOURCE`` measures another version of the package beside this one in the same
sitting, alternating them ``--rounds`` times in fresh processes, and prints the medians:
``SOURCE`` is a git revision (checked out in a temporary worktree) or a directory holding a
``kessen`` package (a copy of ``src``, or a compiled build); ``--now DIR`` measures the package
in ``DIR`` as this tree's (``build/compiled``, beside another compiled build). Usage::

    .venv/bin/python bench/engine_bench.py --seconds 2 --json bench-now.json
    .venv/bin/python bench/engine_bench.py --compare bench-now.json
    .venv/bin/python bench/engine_bench.py --against HEAD~1 --rounds 5 --cpu 1 --clock cpu
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kessen import __version__
from kessen.engine import registry
from kessen.engine.contract import GameState, Json

RULESETS = ("kobo", "twgp", "maken")
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
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


@dataclass(frozen=True)
class Playouts:
    """One kind of random playout of a ruleset: figure key prefix, label, configs in rotation."""

    key: str
    label: str
    configs: list[Json]


def _pairs(names: list[str]) -> list[tuple[str, str]]:
    ordered = sorted(names)
    return list(itertools.product(ordered, ordered))


def playout_kinds(ruleset: str) -> list[Playouts]:
    """The kinds of random playout measured for ``ruleset``; the first also times each step."""
    if ruleset == "kobo":
        from kessen.games.kobo.decks import starter_decks

        pairs = _pairs(list(starter_decks()))
        return [
            Playouts(
                f"bo{n}",
                f"random playout, best of {n}",
                [{"decks": [a, b], "best_of": n} for a, b in pairs],
            )
            for n in (1, 3)
        ]
    if ruleset == "maken":
        from kessen.games.maken.cards import DECKS

        pairs = _pairs(list(DECKS))
        return [Playouts("bo1", "random playout", [{"decks": [a, b]} for a, b in pairs])]
    return [Playouts("bo1", "random playout", [dict(registry.get(ruleset).default_config)])]


def playouts(
    ruleset: str, configs: list[Json], seconds: float, seed: int, clock: Callable[[], float]
) -> tuple[int, int, float, float]:
    """Play random games for ``seconds``: (games, actions, elapsed s, s in the decisions).

    The clock is read twice per game only (around ``new_game``): the time of the decisions
    (``legal_actions()``, the random choice, ``apply()``) is the rest."""
    rules = registry.get(ruleset)
    games = actions = 0
    in_new = 0.0
    start = clock()
    while clock() - start < seconds:
        game_seed = seed + games
        t0 = clock()
        state = rules.new_game(configs[games % len(configs)], game_seed)
        in_new += clock() - t0
        chooser = random.Random(game_seed)
        while state.pending is not None:
            legal = state.legal_actions()
            state.apply(legal[chooser.randrange(len(legal))])
            actions += 1
        games += 1
    elapsed = clock() - start
    return games, actions, elapsed, elapsed - in_new


def recorded_games(ruleset: str, count: int, seed: int) -> tuple[list[GameState], str]:
    """The state halfway through each of ``count`` random games, and a digest of the games
    (the hashes of those states and of the final ones)."""
    rules = registry.get(ruleset)
    pool = playout_kinds(ruleset)[0].configs
    states = []
    digest = hashlib.blake2b(digest_size=8)
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
        middle = history[len(history) // 2]
        digest.update(f"{middle.state_hash()} {state.state_hash()} {len(history)};".encode())
        states.append(middle)
    return states, digest.hexdigest()


def per_call_us(
    op: Callable[[Any], object], inputs: list[Any], seconds: float, clock: Callable[[], float]
) -> float:
    """Median µs per call of ``op`` over batches that cycle through ``inputs``."""
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


def measure(
    ruleset: str, seconds: float, seed: int, clock: Callable[[], float]
) -> tuple[list[Figure], str]:
    """Run every measurement of ``ruleset`` (each takes about ``seconds`` of ``clock``); the
    figures and the digest of the recorded games."""
    figures: list[Figure] = []
    for index, kind in enumerate(playout_kinds(ruleset)):
        games, actions, elapsed, in_step = playouts(ruleset, kind.configs, seconds, seed, clock)
        figures.append(Figure(f"{kind.key}_games", kind.label, games / elapsed, "games/s"))
        figures.append(Figure(f"{kind.key}_actions", kind.label, actions / elapsed, "actions/s"))
        if index == 0:
            figures.append(
                Figure(
                    "step", "legal_actions() + apply(), per action", in_step / actions * 1e6, "µs"
                )
            )
    states, digest = recorded_games(ruleset, MID_GAME_STATES, seed)
    rules = registry.get(ruleset)
    data = [json.loads(json.dumps(s.to_json())) for s in states]
    ops: list[tuple[str, str, Callable[[Any], object], list[Any]]] = [
        ("clone", "clone() of a mid-game state", lambda s: s.clone(), states),
        ("to_json", "to_json()", lambda s: s.to_json(), states),
        ("from_json", "from_json() (from parsed JSON)", rules.from_json, data),
        ("state_hash", "state_hash()", lambda s: s.state_hash(), states),
        ("view", "view(0)", lambda s: s.view(0), states),
    ]
    for key, label, op, inputs in ops:
        figures.append(Figure(key, label, per_call_us(op, inputs, seconds, clock), "µs"))
    return figures, digest


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


def _stored(data: dict[str, Any], ruleset: str) -> tuple[dict[str, Any], str | None]:
    """One ruleset's figures and games digest in a stored run (a run stored before rulesets
    were named holds Kōbō's figures under bare keys)."""
    figures = data["figures"]
    prefix = f"{ruleset}/"
    mine = {k[len(prefix) :]: v for k, v in figures.items() if k.startswith(prefix)}
    if not mine and ruleset == "kobo":
        mine = {k: v for k, v in figures.items() if "/" not in k}
    return mine, data["meta"].get("games", {}).get(ruleset)


def _heading(ruleset: str, seconds: float, meta: dict[str, Any]) -> str:
    clock = " of CPU time" if meta["clock"] == "cpu" else ""
    return (
        f"Kessen {__version__} engine benchmark ({ruleset}), Python {meta['python']} "
        f"({meta['implementation']}, {meta['machine']}), {seconds:g} s{clock} per measurement\n"
    )


def _meta(args: argparse.Namespace, rulesets: list[str]) -> dict[str, Any]:
    return {
        "rulesets": rulesets,
        "kessen": __version__,
        "data_hash": {name: registry.get(name).data_hash for name in rulesets},
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "seconds": args.seconds,
        "clock": args.clock,
        "seed": args.seed,
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }


def _child(source: Path, ruleset: str, args: argparse.Namespace, out: Path) -> dict[str, Any]:
    """This script's stored run of ``ruleset`` with the package found in ``source``."""
    command = [sys.executable, str(Path(__file__).resolve()), "--ruleset", ruleset]
    command += ["--seconds", str(args.seconds), "--seed", str(args.seed), "--json", str(out)]
    command += ["--clock", args.clock]
    if args.cpu is not None:
        command += ["--cpu", str(args.cpu)]
    env = dict(os.environ, PYTHONPATH=str(source))
    subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    stored: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return stored


def _median_figures(runs: list[dict[str, Any]], ruleset: str) -> tuple[list[Figure], set[str]]:
    """The median of each figure over stored runs of one ruleset, and their games digests."""
    parts = [_stored(run, ruleset) for run in runs]
    first = parts[0][0]
    figures = [
        Figure(
            key,
            entry["label"],
            statistics.median(p[0][key]["value"] for p in parts),
            entry["unit"],
        )
        for key, entry in first.items()
    ]
    return figures, {p[1] or "" for p in parts}


def against(args: argparse.Namespace, rulesets: list[str]) -> int:
    """Measure ``args.against`` and this tree side by side, alternating them ``args.rounds``
    times in fresh processes, and print the medians."""
    repo = Path(__file__).resolve().parent.parent
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        given = Path(args.against)
        worktree = None
        if (given / "kessen").is_dir():
            previous = given
        else:
            worktree = Path(tmp) / "previous"
            git = ["git", "-C", str(repo)]
            subprocess.run(
                [*git, "worktree", "add", "--detach", str(worktree), args.against],
                check=True,
                capture_output=True,
            )
            previous = worktree / "src"
        try:
            now = Path(args.now) if args.now is not None else repo / "src"
            sources = [("previous", previous), ("now", now)]
            for round_no in range(args.rounds):
                # Alternate which goes first so that a drift of the machine hits both.
                order = sources if round_no % 2 == 0 else sources[::-1]
                for ruleset in rulesets:
                    for label, source in order:
                        out = Path(tmp) / f"{label}-{ruleset}-{round_no}.json"
                        runs.setdefault((ruleset, label), []).append(
                            _child(source, ruleset, args, out)
                        )
        finally:
            if worktree is not None:
                subprocess.run(
                    ["git", "-C", str(repo), "worktree", "remove", "--force", str(worktree)],
                    check=True,
                )
    meta = _meta(args, rulesets)
    report: dict[str, Any] = {"meta": {**meta, "against": args.against, "rounds": args.rounds}}
    for ruleset in rulesets:
        old, old_games = _median_figures(runs[(ruleset, "previous")], ruleset)
        new, new_games = _median_figures(runs[(ruleset, "now")], ruleset)
        same = len(old_games | new_games) == 1
        print(_heading(ruleset, args.seconds, meta).rstrip("\n"))
        print(
            f"previous: {args.against}; medians of {args.rounds} alternated runs; "
            f"same games: {'yes' if same else 'NO'}\n"
        )
        print(table(new, {f.key: {"value": f.value} for f in old}))
        print()
        report[ruleset] = {
            "previous": {f.key: f.value for f in old},
            "now": {f.key: f.value for f in new},
            "same_games": same,
        }
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    parser.add_argument(
        "--ruleset",
        action="append",
        choices=RULESETS,
        help="measure this ruleset (repeatable; all three by default)",
    )
    parser.add_argument("--json", type=Path, help="store the figures in this file")
    parser.add_argument("--compare", type=Path, help="show a stored run beside this one")
    parser.add_argument(
        "--against",
        metavar="SOURCE",
        help="measure a git revision or a directory holding a kessen package beside this tree",
    )
    parser.add_argument(
        "--now",
        metavar="DIR",
        help="with --against: the package measured as this tree's (default src; build/compiled "
        "measures the compiled build, beside a compiled build of the previous version)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="alternations with --against")
    parser.add_argument("--cpu", type=int, help="pin the process to this CPU (Linux)")
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="time by the wall clock, or by the process's CPU time (steadier on a busy machine)",
    )
    args = parser.parse_args(argv)
    rulesets: list[str] = args.ruleset or list(RULESETS)
    if args.now is not None and not args.against:
        parser.error("--now measures a package beside --against SOURCE; give both")

    if args.against:
        return against(args, rulesets)
    if args.cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    previous = None
    if args.compare is not None:
        previous = json.loads(args.compare.read_text(encoding="utf-8"))

    meta = _meta(args, rulesets)
    meta["games"] = {}
    stored: dict[str, Any] = {}
    for ruleset in rulesets:
        figures, digest = measure(ruleset, args.seconds, args.seed, CLOCKS[args.clock])
        meta["games"][ruleset] = digest
        print(_heading(ruleset, args.seconds, meta))
        before = None
        if previous is not None:
            before, before_games = _stored(previous, ruleset)
            if before_games is not None:
                print(
                    f"same games as the stored run: {'yes' if before_games == digest else 'NO'}\n"
                )
        print(table(figures, before))
        print()
        stored.update({f"{ruleset}/{f.key}": vars(f) for f in figures})
    if args.json is not None:
        out = {"meta": meta, "figures": stored}
        args.json.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""TWGP トランプ版 balance simulation: heuristic self-play beside twgp-trump.md §2.12.

Plays ``--games`` seeded games per configuration row (default 2,000, the defaults row only),
each seat a ``HeuristicPlayer`` with its own seed, through the engine contract only (players see
their own view), and prints a markdown table: the first and the second player's win rates, the
draw rate, and the median / 90th-percentile game length in turns, each beside the figure of
§2.12. ``--rows all`` runs every row of §2.12; ``--player naive`` swaps in a variant that sets
up charge cards only at the start of its build window, and ``--quick`` deals at random
(``quickStart``) instead of letting the heuristic build (see ``docs/twgp.md``, "Simulation").
Usage::

    .venv/bin/python bench/twgp_sim.py                      # defaults, 2,000 games, 2 workers
    .venv/bin/python bench/twgp_sim.py --rows all --games 2000 --json twgp-sim.json
    .venv/bin/python bench/twgp_sim.py --player naive --rows defaults,jokers
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.engine.players import Player, play_out
from kessen.games.twgp.heuristic import HeuristicPlayer


@dataclass(frozen=True)
class Row:
    """One configuration of §2.12 and the figures printed there."""

    key: str
    label: str
    config: Json
    p1: float
    p2: float
    draws: float
    median: int
    p90: int


ROWS: tuple[Row, ...] = (
    Row("defaults", "defaults (width 5, no jokers, no vital effect)", {}, 46.8, 52.7, 0.55, 12, 17),
    Row("reload", "defaults + buildReload", {"buildReload": True}, 48.0, 51.6, 0.45, 12, 18),
    Row("width3", "width 3", {"gridWidth": 3}, 45.5, 52.5, 2.05, 11, 16),
    Row(
        "width3reload",
        "width 3 + buildReload",
        {"gridWidth": 3, "buildReload": True},
        48.5,
        51.1,
        0.45,
        12,
        19,
    ),
    Row("effect", "vitalEffect on", {"vitalEffect": True}, 42.4, 46.5, 11.2, 12, 19),
    Row(
        "banonly",
        "vitalEffect on, ban only (wipe disabled)",
        {"vitalEffect": True, "vitalWipe": False},
        46.8,
        52.7,
        0.5,
        12,
        17,
    ),
    Row(
        "effectreload",
        "vitalEffect on + buildReload",
        {"vitalEffect": True, "buildReload": True},
        46.2,
        49.0,
        4.8,
        12,
        19,
    ),
    Row("jokers", "jokers on", {"jokers": True}, 38.0, 45.2, 16.9, 13, 20),
    Row("variantA", "variantA", {"variantA": True}, 49.3, 50.2, 0.5, 9, 14),
)


class NaivePlayer(HeuristicPlayer):
    """The heuristic, but it sets up charge cards in its build window only before anything else.

    This forgoes the download-then-set-up chain that the rules allow within one window
    (§2.4: the turn player sets up "at any moment of its BUILD window").
    """

    name = "naive"

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        """The heuristic's choice, minus set-ups after the window's first other action."""
        pending = view["pending"]
        if pending["prompt"] == "build_window" and _acted_this_window(view):
            legal = [a for a in legal if a.verb != "setup"]
        return super().choose(view, legal)


def _acted_this_window(view: Json) -> bool:
    me = view["viewer"]
    for entry in reversed(view["log"]):
        if entry["kind"] == "turn":
            return False
        if entry.get("seat") == me and entry["kind"] not in ("setup", "reactive"):
            return True
    return False


def _player(kind: str, seed: int) -> Player:
    return NaivePlayer(seed) if kind == "naive" else HeuristicPlayer(seed)


def _who(winner: int | None, first: int) -> str:
    if winner is None:
        return "draw"
    return "first" if winner == first else "second"


def play_chunk(config: Json, seeds: list[int], kind: str) -> list[tuple[str, int, str]]:
    """Play the games of ``seeds``: (who won: first/second/draw, turns, reason) each."""
    rules = registry.get("twgp")
    out: list[tuple[str, int, str]] = []
    for seed in seeds:
        state = rules.new_game(config, seed)
        players = {0: _player(kind, 2 * seed), 1: _player(kind, 2 * seed + 1)}
        play_out(state, players)
        outcome = state.outcome
        assert outcome is not None
        public = state.view(None)
        who = _who(outcome.winner, public["first_player"])
        out.append((who, public["turn"], outcome.reason))
    return out


def _percentile(values: list[int], share: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run_row(row: Row, games: int, workers: int, kind: str) -> dict[str, Any]:
    """Play ``games`` games of one row over ``workers`` processes and summarize them."""
    seeds = list(range(games))
    chunks = [seeds[i :: workers * 4] for i in range(workers * 4)]
    results: list[tuple[str, int, str]] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for part in pool.map(play_chunk, [row.config] * len(chunks), chunks, [kind] * len(chunks)):
            results.extend(part)
    turns = [t for _, t, _ in results]
    n = len(results)
    reasons: dict[str, int] = {}
    for _, _, reason in results:
        reasons[reason] = reasons.get(reason, 0) + 1
    return {
        "row": row.key,
        "games": n,
        "first": 100 * sum(1 for w, _, _ in results if w == "first") / n,
        "second": 100 * sum(1 for w, _, _ in results if w == "second") / n,
        "draws": 100 * sum(1 for w, _, _ in results if w == "draw") / n,
        "median": statistics.median(turns),
        "p90": _percentile(turns, 0.9),
        "reasons": reasons,
    }


def table(rows: list[Row], results: list[dict[str, Any]]) -> str:
    """The markdown table: each figure as ``ours (§2.12)``."""
    lines = [
        "| configuration | P1 (first) wins | P2 wins | draws | median / p90 turns |",
        "|---|---|---|---|---|",
    ]
    for row, res in zip(rows, results, strict=True):
        lines.append(
            f"| {row.label} | {res['first']:.1f}% ({row.p1}%) | {res['second']:.1f}% "
            f"({row.p2}%) | {res['draws']:.2f}% ({row.draws}%) | {res['median']:g} / "
            f"{res['p90']} ({row.median} / {row.p90}) |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run the rows, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per row (2000)")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument(
        "--rows",
        default="defaults",
        help="comma-separated row keys, or all: " + ", ".join(r.key for r in ROWS),
    )
    parser.add_argument("--player", choices=("heuristic", "naive"), default="heuristic")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="deal at random (quickStart) instead of the heuristic's build",
    )
    parser.add_argument("--json", help="also store the figures in this file")
    args = parser.parse_args(argv)
    keys = [r.key for r in ROWS] if args.rows == "all" else args.rows.split(",")
    by_key = {r.key: r for r in ROWS}
    unknown = [k for k in keys if k not in by_key]
    if unknown:
        parser.error(f"unknown rows {unknown}; known: {', '.join(by_key)}")
    rows = [by_key[k] for k in keys]
    if args.quick:
        rows = [dataclasses.replace(r, config={**r.config, "quickStart": True}) for r in rows]
    results = []
    for row in rows:
        started = time.monotonic()
        res = run_row(row, args.games, args.workers, args.player)
        res["seconds"] = round(time.monotonic() - started, 1)
        results.append(res)
        print(f"{row.key}: {res}", file=sys.stderr)
    deal = "random deals (quickStart)" if args.quick else "the heuristic's own builds"
    print(
        f"{args.player} self-play with {deal}, {args.games} games per row; "
        "each cell: ours (§2.12)\n"
    )
    print(table(rows, results))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(
                {"player": args.player, "quick": args.quick, "results": results}, out, indent=1
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""TWGP トランプ版 balance simulation and the set-up-chain experiment, beside twgp-trump.md §2.12.

Plays ``--games`` seeded self-play games per configuration row (default 2,000, the defaults row
only) and player kind, each seat deciding from its own view through the engine contract, and
prints markdown tables: the first and the second player's win rates, the draw rate and the
median / 90th-percentile game length in turns, each beside the figure of §2.12; then the
evidence columns (the per-game facts of :mod:`kessen.sim.facts`: what the first player digs out
of its pile on turn 1, how strong its first attack is, how many set-ups follow another action
of a build window).

Seeding and statistics are the simulator's (game ``i``: ``derive_seed(--seed, i)``; seat ``s``:
``derive_seed(game seed, "seat", s)``; :func:`kessen.sim.stats.side_stats`), so the heuristic
row of a configuration is, game for game, the run of
``kessen sim --ruleset twgp --players heuristic --mirror -n 2000 --seed 0 [--option ...]``.

Player kinds: ``heuristic`` (the registered COM player); ``naive``, the same heuristic that
sets up charge cards only at the start of its build window, before its first other action
there. Since §2.9 #27 was ruled the rules themselves allow nothing else, so ``naive`` differs
from ``heuristic`` only under ``setupAnytime`` (the earlier reading: the turn player sets up at
any point of its window). ``--option KEY=VALUE`` adds a switch to every row (e.g.
``strictMatrix05=true``); ``--quick`` deals at random (``quickStart``). ``--experiment`` runs
the §2.9 #27 comparison: the defaults row (set-up at the phase start) and ``setupAnytime``,
heuristic players, each without and with ``strictMatrix05``.
Usage::

    .venv/bin/python bench/twgp_sim.py                      # defaults, 2,000 games, 2 workers
    .venv/bin/python bench/twgp_sim.py --experiment         # the set-up rulings side by side
    .venv/bin/python bench/twgp_sim.py --rows all --json twgp-sim.json
    .venv/bin/python bench/twgp_sim.py --player naive --rows defaults,jokers --quick
"""

from __future__ import annotations

import argparse
import json
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
from kessen.sim.facts import twgp_facts
from kessen.sim.stats import fact_stats, side_stats
from kessen.sim.tournament import derive_seed, parse_option


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

EVIDENCE = (
    ("first_turn_dig", "P1's turn-1 pile cards"),
    ("first_turn_setups", "P1's turn-1 set-ups"),
    ("first_turn_attack", "P1's turn-1 attack power"),
    ("mid_window_setups", "mid-window set-ups"),
    ("directs", "directs"),
    ("interrupts", "interrupts"),
)
"""The facts printed as evidence (per game, means), with their column titles."""


class NaivePlayer(HeuristicPlayer):
    """The heuristic, but it sets up charge cards in its build window only before anything else.

    Under ``setupAnytime`` this forgoes the download-then-set-up chain that the earlier reading
    allows within one window; under the default (§2.9 #27) it plays as the heuristic does.
    """

    name = "naive"

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        """The heuristic's choice, minus set-ups after the window's first other action."""
        pending = view["pending"]
        if pending["prompt"] == "build_window" and _acted_this_window(view):
            legal = [a for a in legal if a.verb != "setup"]
        return super().choose(view, legal)


def _acted_this_window(view: Json) -> bool:
    """True once the viewer did something other than set-up or re-active since its turn began."""
    me = view["viewer"]
    for entry in reversed(view["log"]):
        if entry["kind"] == "turn":
            return False
        if entry.get("seat") == me and entry["kind"] not in ("setup", "reactive"):
            return True
    return False


KINDS = ("heuristic", "naive")


def _player(kind: str, seed: int) -> Player:
    return NaivePlayer(seed) if kind == "naive" else HeuristicPlayer(seed)


def play_chunk(config: Json, seed: int, indexes: list[int], kind: str) -> list[Json]:
    """Play games ``indexes`` of a run: one summary each, in the simulator's game form."""
    rules = registry.get("twgp")
    out: list[Json] = []
    for index in indexes:
        game_seed = derive_seed(seed, index)
        state = rules.new_game(config, game_seed)
        players = {s: _player(kind, derive_seed(game_seed, "seat", s)) for s in (0, 1)}
        play_out(state, players)
        outcome = state.outcome
        assert outcome is not None
        public = state.view(None)
        full = [e.visible(None, everything=True) for e in state.log_events()]
        game = {
            "winner": outcome.winner,
            "reason": outcome.reason,
            "turns": public["turn"],
            "first": public["first_player"],
            "facts": twgp_facts(full),
        }
        out.append({"index": index, "games": [game]})
    return out


@dataclass(frozen=True)
class Run:
    """One row played by one player kind, with extra switches."""

    row: Row
    kind: str
    extra: Json

    @property
    def config(self) -> Json:
        """The game config: the row's switches and the extra ones."""
        return {**self.row.config, **self.extra}

    @property
    def label(self) -> str:
        """The row's label, the player kind and the extra switches."""
        extra = ", ".join(f"{k}={json.dumps(v)}" for k, v in self.extra.items())
        return f"{self.row.label} · {self.kind}" + (f" · {extra}" if extra else "")


def play(run: Run, games: int, workers: int, seed: int) -> dict[str, Any]:
    """Play ``games`` games of ``run`` over ``workers`` processes and summarize them."""
    chunks = [list(range(i, games, workers * 8)) for i in range(min(games, workers * 8))]
    summaries: list[Json] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for part in pool.map(
            play_chunk,
            [run.config] * len(chunks),
            [seed] * len(chunks),
            chunks,
            [run.kind] * len(chunks),
        ):
            summaries.extend(part)
    summaries.sort(key=lambda s: int(s["index"]))
    reasons: dict[str, int] = {}
    for s in summaries:
        reason = str(s["games"][0]["reason"])
        reasons[reason] = reasons.get(reason, 0) + 1
    return {
        "label": run.label,
        "row": run.row.key,
        "player": run.kind,
        "config": run.config,
        "games": len(summaries),
        "sides": side_stats(summaries),
        "facts": fact_stats(summaries),
        "reasons": reasons,
    }


def _pct(share: Json) -> str:
    return f"{100 * share['rate']:.1f}%"


def table(runs: list[Run], results: list[dict[str, Any]]) -> str:
    """The §2.12 table: each figure as ``ours (§2.12)``."""
    lines = [
        "| configuration | games | P1 (first) wins | P2 wins | draws | median / p90 turns |",
        "|---|---|---|---|---|---|",
    ]
    for run, res in zip(runs, results, strict=True):
        row, sides = run.row, res["sides"]
        turns = sides["turns"]
        lines.append(
            f"| {run.label} | {sides['n']} | {_pct(sides['first'])} ({row.p1}%) | "
            f"{_pct(sides['second'])} ({row.p2}%) | {100 * sides['draws']['rate']:.2f}% "
            f"({row.draws}%) | {turns['median']:g} / {turns['p90']:g} "
            f"({row.median} / {row.p90}) |"
        )
    return "\n".join(lines)


def evidence(runs: list[Run], results: list[dict[str, Any]]) -> str:
    """The evidence table: per-game means of the facts in :data:`EVIDENCE`."""
    lines = [
        "| configuration | " + " | ".join(title for _, title in EVIDENCE) + " |",
        "|---|" + "---|" * len(EVIDENCE),
    ]
    for run, res in zip(runs, results, strict=True):
        facts = res["facts"]
        cells = [f"{facts[name]['mean']:.2f}" if name in facts else "—" for name, _ in EVIDENCE]
        lines.append(f"| {run.label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, play the runs, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per run (2000)")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument("--seed", type=int, default=0, help="run seed, as kessen sim's (0)")
    parser.add_argument(
        "--rows",
        default="defaults",
        help="comma-separated row keys, or all: " + ", ".join(r.key for r in ROWS),
    )
    parser.add_argument(
        "--player",
        default="heuristic",
        help="comma-separated player kinds: " + ", ".join(KINDS),
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a switch added to every row (repeatable), e.g. strictMatrix05=true",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="deal at random (quickStart) instead of the heuristic's build",
    )
    parser.add_argument(
        "--experiment",
        action="store_true",
        help="the §2.9 #27 comparison: defaults and setupAnytime, heuristic players, without "
        "and with strictMatrix05 (overrides --rows, --player and --option)",
    )
    parser.add_argument("--json", help="also store the figures in this file")
    args = parser.parse_args(argv)
    keys = [r.key for r in ROWS] if args.rows == "all" else args.rows.split(",")
    by_key = {r.key: r for r in ROWS}
    unknown = [k for k in keys if k not in by_key]
    if unknown:
        parser.error(f"unknown rows {unknown}; known: {', '.join(by_key)}")
    kinds = args.player.split(",")
    if any(k not in KINDS for k in kinds):
        parser.error(f"--player: expected {' or '.join(KINDS)}, got {args.player!r}")
    extra: Json = dict(parse_option(o) for o in args.option)
    if args.quick:
        extra["quickStart"] = True
    runs = [Run(by_key[k], kind, extra) for k in keys for kind in kinds]
    if args.experiment:
        anytime = {"setupAnytime": True}
        strict = {"strictMatrix05": True}
        switches: list[Json] = [{}, anytime, strict, {**anytime, **strict}]
        runs = [Run(by_key["defaults"], "heuristic", x) for x in switches]
    for run in runs:
        registry.get("twgp").new_game(run.config, 0)  # a bad switch fails here, not in a worker
    results = []
    for run in runs:
        started = time.monotonic()
        res = play(run, args.games, args.workers, args.seed)
        res["seconds"] = round(time.monotonic() - started, 1)
        results.append(res)
        sides = res["sides"]
        print(
            f"{run.label}: {sides['n']} games, P1 {_pct(sides['first'])}, P2 "
            f"{_pct(sides['second'])}, draws {_pct(sides['draws'])}, turns "
            f"{sides['turns']['median']:g}/{sides['turns']['p90']:g}, {res['seconds']} s",
            file=sys.stderr,
        )
    print(
        f"TWGP self-play, {args.games} games per run, seed {args.seed}; each cell: ours "
        "(§2.12); turns: the turn number at the end (both players' turns), p90 interpolated\n"
    )
    print(table(runs, results))
    print("\nEvidence, per game (means):\n")
    print(evidence(runs, results))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"seed": args.seed, "runs": results}, out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

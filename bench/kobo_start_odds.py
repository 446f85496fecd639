#!/usr/bin/env python3
"""Where a Kōbō matchup's games are won and lost: win rate by the position after the standby.

Plays the tournament's deals (``kessen.ai.tournament.pair_jobs``: same seed, same pairs of
best-of-three matches with seats swapped, mirror decks) of one matchup. For every decided game
it records the left player's chance to win at the game's first turn, as the fitted evaluation
(:func:`kessen.games.kobo.evaluate.fitted_odds`) judges the *true* state there, and the game's
winner. The players never see the true state: the reading is the analysis's, made between
decisions. It prints the games by that chance (bucketed) with the left player's win rate in
each, so one can tell games lost from a bad start apart from games lost in play. Usage::

    .venv/bin/python bench/kobo_start_odds.py ismcts-strong heuristic --pairs 20 --start 100
    .venv/bin/python bench/kobo_start_odds.py heuristic heuristic --pairs 150 --json h.json
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from kessen.ai import tournament
from kessen.engine.contract import GameState
from kessen.games.kobo import evaluate
from kessen.games.kobo.state import KoboState

BUCKETS = ((0.0, 0.25), (0.25, 0.4), (0.4, 0.6), (0.6, 0.75), (0.75, 1.0))
"""Ranges of the left player's first-turn chance, as printed (the last one includes 1.0)."""


@dataclass
class StartWatcher:
    """An observer for :func:`~kessen.ai.tournament.play_match`: the first-turn chance of
    ``seat`` in each game, read from the true state."""

    seat: int
    odds: dict[int, float] = field(default_factory=dict)
    state: KoboState | None = None

    def __call__(self, state: GameState) -> None:
        """Record the chance at the first turn prompt of each game."""
        assert isinstance(state, KoboState)
        self.state = state
        pending = state.pending
        game = len(state.results)
        if pending is not None and pending.prompt == "turn" and game not in self.odds:
            chance = evaluate.fitted_odds(state)
            self.odds[game] = chance if self.seat == 0 else 1.0 - chance


def play(job: tournament.Job) -> list[tuple[float, float]]:
    """One match: (first-turn chance, score) of the left player for each decided game."""
    watcher = StartWatcher(job.a_seat)
    tournament.play_match(job, watcher)
    assert watcher.state is not None
    games: list[tuple[float, float]] = []
    for index, (winner, _reason, _turns) in enumerate(watcher.state.results):
        if index in watcher.odds:
            score = 0.5 if winner < 0 else float(winner == job.a_seat)
            games.append((watcher.odds[index], score))
    return games


def table(games: list[tuple[float, float]]) -> list[tuple[str, int, float | None]]:
    """Per bucket of first-turn chance: its label, its games and the left player's win rate."""
    rows: list[tuple[str, int, float | None]] = []
    for low, high in BUCKETS:

        def inside(chance: float, low: float = low, high: float = high) -> bool:
            return low <= chance < high or (high == 1.0 and chance == 1.0)

        scores = [score for chance, score in games if inside(chance)]
        rate = sum(scores) / len(scores) if scores else None
        rows.append((f"{low:.2f}–{high:.2f}", len(scores), rate))
    return rows


def main(argv: list[str] | None = None) -> int:
    """Play, bucket, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="the left player (a tournament name, e.g. ismcts-strong)")
    parser.add_argument("b", help="its opponent")
    parser.add_argument("--pairs", type=int, default=20, help="pairs of matches to play")
    parser.add_argument("--start", type=int, default=0, help="index of the first pair")
    parser.add_argument("--seed", type=int, default=2026, help="the tournament's seed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", help="also write every game's (chance, score) here")
    args = parser.parse_args(argv)
    jobs = [
        job
        for index in range(args.start, args.start + args.pairs)
        for job in tournament.pair_jobs("kobo", args.a, args.b, index, 3, 0.0, args.seed, True)
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        games = [game for match in pool.map(play, jobs) for game in match]
    won = sum(score for _, score in games)
    print(f"{args.a} vs {args.b}: {len(games)} games, {won:g} won ({100 * won / len(games):.1f}%)")
    print()
    print(f"| {args.a}'s chance at the first turn | games | share | {args.a}'s win rate |")
    print("|---|---:|---:|---:|")
    for label, count, rate in table(games):
        shown = f"{100 * rate:.1f}%" if rate is not None else "–"
        print(f"| {label} | {count} | {100 * count / len(games):.0f}% | {shown} |")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump([{"chance": round(c, 4), "score": s} for c, s in games], out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

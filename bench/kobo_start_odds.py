#!/usr/bin/env python3
"""Where a Kōbō matchup's games are won and lost: win rate by the position after the standby.

Plays the tournament's deals (``kessen.ai.tournament.pair_jobs``: same seed, same pairs of
best-of-three matches with seats swapped, mirror decks) of one matchup. For every decided game
it records the left player's chance to win at the game's first turn, as the fitted evaluation
(:func:`kessen.games.kobo.evaluate.fitted_odds`) judges the *true* state there, and the game's
winner. The players never see the true state: the reading is the analysis's, made between
decisions. It prints the games by that chance (bucketed) with the left player's win rate in
each, so one can tell games lost from a bad start apart from games lost in play; then the same
games split by whether the left player moved first (the first player is drawn per game; the
second one gets two more tactics and sets up after seeing the first one's board) and by the
deck. Usage::

    .venv/bin/python bench/kobo_start_odds.py ismcts-strong heuristic --pairs 20 --start 100
    .venv/bin/python bench/kobo_start_odds.py heuristic heuristic --pairs 150 --json h.json

The left player may be a cheating control of the tournament (``cheater-ismcts-strong``, or
``peeker-ismcts-strong``, which does not know the decks' order). ``--variant`` changes settings
of the committed model in the worker processes first, as ``bench/strong_variants.py`` names
them, so a probe gets a record for ``bench/paired_gap.py`` too.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from kessen.ai import tournament
from kessen.engine.contract import GameState
from kessen.games.kobo import evaluate
from kessen.games.kobo.state import KoboState

BUCKETS = ((0.0, 0.25), (0.25, 0.4), (0.4, 0.6), (0.6, 0.75), (0.75, 1.0))
"""Ranges of the left player's first-turn chance, as printed (the last one includes 1.0)."""


class Start(NamedTuple):
    """One decided game seen from the left player: its first-turn chance and its score, whether
    it moved first, and the (mirror) deck."""

    chance: float
    score: float
    first: bool
    deck: str


@dataclass
class StartWatcher:
    """An observer for :func:`~kessen.ai.tournament.play_match`: the first-turn chance of
    ``seat`` in each game, read from the true state, and whether ``seat`` moved first."""

    seat: int
    odds: dict[int, float] = field(default_factory=dict)
    first: dict[int, bool] = field(default_factory=dict)
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
            self.first[game] = state.first_player == self.seat


def play(job: tournament.Job, variant: str = "committed") -> list[Start]:
    """One match (after ``variant``'s settings): the left player's :class:`Start` of each
    decided game."""
    if variant != "committed":
        _strong_variants().apply_variant(variant)
    watcher = StartWatcher(job.a_seat)
    tournament.play_match(job, watcher)
    assert watcher.state is not None
    games: list[Start] = []
    for index, (winner, _reason, _turns) in enumerate(watcher.state.results):
        if index in watcher.odds:
            score = 0.5 if winner < 0 else float(winner == job.a_seat)
            games.append(Start(watcher.odds[index], score, watcher.first[index], job.decks[0]))
    return games


def _strong_variants() -> Any:
    """``bench/strong_variants.py``, the script beside this one, loaded once by its path."""
    loaded = sys.modules.get("strong_variants")
    if loaded is None:
        path = Path(__file__).with_name("strong_variants.py")
        spec = importlib.util.spec_from_file_location("strong_variants", path)
        assert spec is not None and spec.loader is not None
        loaded = importlib.util.module_from_spec(spec)
        sys.modules["strong_variants"] = loaded
        spec.loader.exec_module(loaded)
    return loaded


Row = tuple[str, int, float | None]
"""A printed row: its label, its games and the left player's win rate (``None``: no game)."""


def _row(label: str, scores: list[float]) -> Row:
    return (label, len(scores), sum(scores) / len(scores) if scores else None)


def table(games: list[tuple[float, float]]) -> list[Row]:
    """Per bucket of first-turn chance (from ``(chance, score)`` pairs, or :class:`Start`s):
    its label, its games and the left player's win rate."""
    rows: list[Row] = []
    for low, high in BUCKETS:

        def inside(chance: float, low: float = low, high: float = high) -> bool:
            return low <= chance < high or (high == 1.0 and chance == 1.0)

        rows.append(_row(f"{low:.2f}–{high:.2f}", [g[1] for g in games if inside(g[0])]))
    return rows


def split(games: list[Start]) -> list[Row]:
    """The games by whether the left player moved first, then by deck (sorted by name)."""
    groups: list[tuple[str, Callable[[Start], bool]]] = [
        ("moved first", lambda g: g.first),
        ("moved second", lambda g: not g.first),
    ]

    def playing(deck: str) -> Callable[[Start], bool]:
        return lambda g: g.deck == deck

    for deck in sorted({g.deck for g in games}):
        groups.append((f"deck {deck}", playing(deck)))
    return [_row(label, [g.score for g in games if keep(g)]) for label, keep in groups]


def main(argv: list[str] | None = None) -> int:
    """Play, bucket, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="the left player (a tournament name, e.g. ismcts-strong)")
    parser.add_argument("b", help="its opponent")
    tournament.add_deal_arguments(parser)
    parser.add_argument("--json", help="also write every game's record here")
    parser.add_argument(
        "--variant", default="committed", help="settings of bench/strong_variants.py, joined by +"
    )
    args = parser.parse_args(argv)
    jobs = tournament.dealt_jobs(args.a, args.b, args)
    variants = [args.variant] * len(jobs)
    with ProcessPoolExecutor(args.workers) as pool:
        games = [game for match in pool.map(play, jobs, variants) for game in match]
    won = sum(g.score for g in games)
    print(f"{args.a} vs {args.b}: {len(games)} games, {won:g} won ({100 * won / len(games):.1f}%)")
    print()
    for heading, rows in (
        (f"{args.a}'s chance at the first turn", table([(g.chance, g.score) for g in games])),
        ("games", split(games)),
    ):
        print(f"| {heading} | games | share | {args.a}'s win rate |")
        print("|---|---:|---:|---:|")
        for label, count, rate in rows:
            shown = f"{100 * rate:.1f}%" if rate is not None else "–"
            print(f"| {label} | {count} | {100 * count / len(games):.0f}% | {shown} |")
        print()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump([g._asdict() | {"chance": round(g.chance, 4)} for g in games], out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

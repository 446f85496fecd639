#!/usr/bin/env python3
"""The gap between two players' win rates on the same deals, with a paired bootstrap interval.

Reads two game records written by ``kobo_start_odds.py --json`` for the same deals (the same
``--pairs`` and ``--start``, the same opponent), for example the honest strongest level and its
cheating control against the heuristic COM. The records hold one line per decided game, in the
order of the deals; this script cuts them back into best-of-three matches (a match ends at its
second win), checks that both records hold the same matches (deck and who moved first in each
match's first game), and resamples whole pairs of deals (the two matches with seats swapped)
with replacement. Because both players meet the same deals, the luck of the deal cancels out
of the difference, which makes the interval narrower than the two rates' own intervals
suggest. Usage::

    .venv/bin/python bench/kobo_start_odds.py ismcts-strong heuristic --pairs 67 --json a.json
    .venv/bin/python bench/kobo_start_odds.py cheater-ismcts-strong heuristic --pairs 67 \\
        --json b.json
    .venv/bin/python bench/paired_gap.py a.json b.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

Game = dict[str, Any]
WINS_TO_TAKE = 2
"""Wins that end a best-of-three match."""


def matches(games: list[Game]) -> list[list[Game]]:
    """Cut a record's games into matches: a match ends when either side has two wins (a tie,
    scored 0.5, counts for neither)."""
    out: list[list[Game]] = []
    current: list[Game] = []
    won = lost = 0
    for game in games:
        current.append(game)
        won += game["score"] == 1.0
        lost += game["score"] == 0.0
        if WINS_TO_TAKE in (won, lost):
            out.append(current)
            current, won, lost = [], 0, 0
    if current:
        raise ValueError(f"the record ends inside a match ({len(current)} games after the last)")
    return out


def pairs_of(games: list[Game]) -> list[list[Game]]:
    """The games of each pair of deals (two matches, seats swapped), in the deals' order."""
    cut = matches(games)
    if len(cut) % 2:
        raise ValueError(f"{len(cut)} matches: not whole pairs")
    return [cut[i] + cut[i + 1] for i in range(0, len(cut), 2)]


def _check_same_deals(a: list[list[Game]], b: list[list[Game]]) -> None:
    if len(a) != len(b):
        raise ValueError(f"the records hold {len(a)} and {len(b)} pairs of deals")
    for index, (left, right) in enumerate(zip(a, b, strict=True)):
        if (left[0]["deck"], left[0]["first"]) != (right[0]["deck"], right[0]["first"]):
            raise ValueError(f"pair {index}: the records do not hold the same deals")


def rate(pairs: list[list[Game]]) -> float:
    """The share of points won over all games of ``pairs``."""
    games = [g for pair in pairs for g in pair]
    return float(sum(g["score"] for g in games)) / len(games)


def paired_gap(
    a: list[list[Game]], b: list[list[Game]], rounds: int, seed: int
) -> tuple[float, float, float]:
    """``b``'s rate minus ``a``'s, in points, and a 95% percentile interval from ``rounds``
    bootstrap resamples of whole pairs of deals."""
    _check_same_deals(a, b)
    rng = random.Random(seed)
    count = len(a)
    gaps = []
    for _ in range(rounds):
        picks = [rng.randrange(count) for _ in range(count)]
        gaps.append(100 * (rate([b[i] for i in picks]) - rate([a[i] for i in picks])))
    gaps.sort()
    low, high = gaps[int(0.025 * rounds)], gaps[int(0.975 * rounds) - 1]
    return 100 * (rate(b) - rate(a)), low, high


def main(argv: list[str] | None = None) -> int:
    """Print both rates and the gap with its paired interval, as one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="the first player's record (kobo_start_odds.py --json)")
    parser.add_argument("b", help="the second player's record, on the same deals")
    parser.add_argument("--rounds", type=int, default=10_000, help="bootstrap resamples")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--first",
        type=int,
        metavar="N",
        help="compare the first N pairs of deals of both records (one record may hold more)",
    )
    args = parser.parse_args(argv)
    if args.first is not None and args.first < 1:
        parser.error(f"--first must be at least 1 (got {args.first})")
    records = []
    for path in (args.a, args.b):
        with open(path, encoding="utf-8") as source:
            records.append(pairs_of(json.load(source))[: args.first])
    a, b = records
    gap, low, high = paired_gap(a, b, args.rounds, args.seed)
    print(
        json.dumps(
            {
                "pairs": len(a),
                "a": {"games": sum(map(len, a)), "rate": round(100 * rate(a), 1)},
                "b": {"games": sum(map(len, b)), "rate": round(100 * rate(b), 1)},
                "gap": round(gap, 1),
                "ci95": [round(low, 1), round(high, 1)],
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

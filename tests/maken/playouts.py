"""The shared random-playout invariants on Maken (kessen.engine.invariants), as a function the
fast test and the 2,000-game command both use.

Run the full check (deck pairings rotate over all 16; every 25th game deep at every step)::

    python -m tests.maken.playouts --games 2000
"""

from __future__ import annotations

import argparse
import time

from kessen.engine.invariants import InvariantBroken, random_playout

DECKS = ("SO", "RI", "MI", "GA")
DEEP_EVERY = 30
"""Deep checks (view secrecy by resampling, JSON round trip, clone) every this many steps."""
FULL_DEEP = 25
"""Every this-many-th game is deep-checked at every step."""


def config(seed: int) -> dict[str, object]:
    """The config of game ``seed``: the deck pairing rotates over all 16."""
    return {"decks": [DECKS[seed % 4], DECKS[seed // 4 % 4]]}


def run(games: int, start: int = 0) -> dict[str, object]:
    """Play ``games`` checked random games; return counts (raises on the first broken one)."""
    ends: dict[str, int] = {}
    steps = 0
    for seed in range(start, start + games):
        deep = 1 if seed % FULL_DEEP == 0 else DEEP_EVERY
        report = random_playout("maken", config(seed), seed, deep_every=deep)
        final = report.final
        if final.pending is not None or report.outcome is None:
            raise InvariantBroken(f"seed {seed}: the playout returned before the end")
        if report.outcome.reason == "turn_limit":
            raise InvariantBroken(f"seed {seed}: the game reached the turn limit")
        ends[report.outcome.reason] = ends.get(report.outcome.reason, 0) + 1
        steps += report.steps
    return {"games": games, "steps": steps, "ends": ends}


def main() -> None:
    """Command line: ``--games N`` (default 2000), ``--start S``."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--start", type=int, default=0)
    args = parser.parse_args()
    began = time.perf_counter()
    result = run(args.games, args.start)
    print(f"{result} in {time.perf_counter() - began:.0f} s: every invariant held")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Choose the seed of Kōbō's guided first match: the deal on which the coach's lessons come
naturally and soon.

Plays the guided match (:func:`kessen.games.kobo.tutorial.tutorial_config`) of every seed of a
range as a player who presses what every coach mark points at
(:func:`kessen.games.kobo.tutorial_guide.play_guided`) against the tutorial COM, and keeps the
seeds on which:

- the player moves first (its standby is the first lesson) and meets every lesson in order
  (standby, attack, a chain of three links, a retreat, a win) and wins;
- the attack, the chain and the retreat all come in the player's first turn, and the retreat
  is COM's character (the attack wins);
- the player never has to pass a turn, break a tie or pay a pass penalty, and never meets
  援軍指名's nomination or blind pick (lessons the guided match does not teach)

(:func:`kessen.games.kobo.tutorial_guide.deal_problems`). Among those it
prints the shortest matches (fewest decisions of the player, then fewest turns). The chosen
seed is :data:`kessen.games.kobo.tutorial.TUTORIAL_SEED`. Usage::

    .venv/bin/python bench/tutorial_deal.py --seeds 2000 --show 10
    .venv/bin/python bench/tutorial_deal.py --check 1234     # one seed, move by move
"""

from __future__ import annotations

import argparse

from kessen.games.kobo.tutorial import TUTORIAL_SEED
from kessen.games.kobo.tutorial_guide import Playthrough, deal_problems, play_guided


def main() -> None:
    """Search the seeds, or show one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000, help="seeds 0..N-1 to try")
    parser.add_argument("--start", type=int, default=0, help="the first seed")
    parser.add_argument("--show", type=int, default=10, help="how many good seeds to print")
    parser.add_argument("--check", type=int, default=None, help="show one seed move by move")
    args = parser.parse_args()
    if args.check is not None:
        run = play_guided(args.check)
        for prompt, action in run.moves:
            print(f"{prompt:14} {action}")
        print(f"lessons {run.reached}; winner {run.winner}; turns {run.turns}")
        print("problems:", deal_problems(run) or "none")
        return
    good: list[Playthrough] = []
    for seed in range(args.start, args.start + args.seeds):
        run = play_guided(seed)
        if not deal_problems(run):
            good.append(run)
    good.sort(key=lambda r: (len(r.moves), r.turns, r.seed))
    print(f"{len(good)} of {args.seeds} seeds are good guided matches; the shortest:")
    for run in good[: args.show]:
        mark = "  (the tutorial's seed)" if run.seed == TUTORIAL_SEED else ""
        print(f"seed {run.seed:6}: {len(run.moves)} decisions, {run.turns} turns{mark}")


if __name__ == "__main__":
    main()

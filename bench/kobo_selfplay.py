#!/usr/bin/env python3
"""Play seeded Kōbō self-play matches of one level and append their labelled positions to a file.

Each match is :func:`fit_kobo_eval.play` (starter decks drawn at random per seat, every seat
deciding from its own view): with ``--level ismcts-strong=250`` both seats are つよい at 250
iterations (its standby plan included), so the positions and their labels (the winner of the
game being played) are those of the strongest level's own play, the data of a value network
learned from the search's self-play rather than the heuristic COM's. One JSON line per match
(``{"seed": S, "rows": [[features0, features1, mover, winner], ...]}``), appended as each
match ends, so a run may be stopped and resumed (seeds already in the file are skipped).
``bench/fit_kobo_value_net.py --extra FILE`` trains on them. Usage::

    PYTHONPATH=build/compiled .venv/bin/python bench/kobo_selfplay.py \\
        --level ismcts-strong=250 --matches 600 --out strong-250.jsonl
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import fit_kobo_eval


def done_seeds(path: Path) -> set[int]:
    """The seeds whose matches ``path`` already holds."""
    if not path.exists():
        return set()
    lines = path.read_text(encoding="utf-8").splitlines()
    return {json.loads(line)["seed"] for line in lines if line}


def main(argv: list[str] | None = None) -> int:
    """Play the matches not yet in ``--out`` and append each as it ends."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="ismcts-strong=250", help="who plays both seats")
    parser.add_argument("--matches", type=int, default=600)
    parser.add_argument("--seed", type=int, default=2_000_000, help="seed of the first match")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    skip = done_seeds(args.out)
    seeds = [s for s in range(args.seed, args.seed + args.matches) if s not in skip]
    start = time.perf_counter()
    play = functools.partial(fit_kobo_eval.play, level=args.level)
    with ProcessPoolExecutor(args.workers) as pool, args.out.open("a", encoding="utf-8") as out:
        for count, (seed, rows) in enumerate(zip(seeds, pool.map(play, seeds), strict=True), 1):
            out.write(json.dumps({"seed": seed, "rows": rows}) + "\n")
            out.flush()
            if count % 20 == 0:
                took = time.perf_counter() - start
                print(f"{count} of {len(seeds)} matches in {took:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The COM levels' ladder in every game, in one command: やさしい < 定石 < ふつう < つよい.

For each ruleset (Kōbō, TWGP, Project Maken) the ladder plays, on the tournament's deals (same
deal, seats swapped; :mod:`kessen.ai.tournament`), each level against the one below it —
やさしい against the rule-based heuristic (定石), ふつう against the heuristic, つよい against
ふつう — and つよい against the heuristic, each to ``--games`` games, and says for each step
whether the two are *separable*: the upper player's win rate has a 95% Wilson interval that
lies wholly above one half (for やさしい, wholly below). Kōbō adds the honesty control (the same
search as つよい reading the true state, on the same deals) and OpenSpiel's IS-MCTS with our
evaluator, as ``docs/com-levels.md`` reports them. Usage::

    kessen ladder --games 200 --md ladder.md --json-dir ladder/
    kessen ladder --rulesets twgp --games 40 --processes 2
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from kessen.ai.tournament import add_games_argument, check_matchups, render_markdown, run
from kessen.engine.contract import Json

RULESETS = ("kobo", "twgp", "maken")
STEPS: tuple[tuple[str, str, str], ...] = (
    ("ismcts-easy:heuristic", "やさしい < 定石", "below"),
    ("ismcts-normal:heuristic", "定石 < ふつう", "above"),
    ("ismcts-strong:ismcts-normal", "ふつう < つよい", "above"),
)
"""The ladder's steps: the matchup, the step it tests, and where the left player's interval
must lie (wholly below or above one half) for the step to hold."""
GOAL = "ismcts-strong:heuristic"
KOBO_EXTRA = ("cheater-ismcts-strong:heuristic", "ismcts-strong:openspiel-ismcts-eval")


def matchups(ruleset: str, games: int) -> list[str]:
    """The ladder's matchups of ``ruleset``, each to ``games`` games."""
    names = [m for m, _, _ in STEPS] + [GOAL]
    if ruleset == "kobo":
        names += list(KOBO_EXTRA)
    return [f"{m}@{games}" for m in names]


def verdict(summary: Json, side: str) -> bool:
    """Whether the left player's 95% interval lies wholly ``side`` ("above"/"below") 1/2."""
    low, high = summary["ci95"]
    return bool(low > 0.5) if side == "above" else bool(high < 0.5)


def render(ruleset: str, summaries: Sequence[Json]) -> str:
    """One game's section: the steps and whether each holds, then every matchup's table."""
    by = {f"{s['a']}:{s['b']}": s for s in summaries}
    lines = [
        f"### {ruleset}",
        "",
        "| step | matchup | games | win rate of the left | 95% Wilson | separable |",
        "|---|---|---:|---:|---|---|",
    ]
    for matchup, step, side in STEPS:
        s = by.get(matchup)
        if s is None or not s["games"]:
            continue
        low, high = s["ci95"]
        lines.append(
            f"| {step} | {s['a']} vs {s['b']} | {s['games']} | {100 * s['rate']:.1f}% | "
            f"{100 * low:.1f}–{100 * high:.1f}% | {'yes' if verdict(s, side) else '**no**'} |"
        )
    return "\n".join(lines) + "\n\n" + render_markdown(summaries)


def ladder_main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry: ``kessen ladder [--rulesets R,...] [--games N] ...``."""
    parser = argparse.ArgumentParser(prog="kessen ladder", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--rulesets",
        default=",".join(RULESETS),
        help="the games, comma-separated: kobo (Kōbō), twgp (TWGP), maken (Project Maken); "
        "default all three",
    )
    add_games_argument(parser, 200, "games per matchup")
    parser.add_argument("--seed", type=int, default=2026, help="the deals' seed")
    parser.add_argument("--md", type=Path, default=None, help="write the tables here")
    parser.add_argument(
        "--json-dir", type=Path, default=None, help="one JSON per game here (resumable)"
    )
    parser.add_argument(
        "--resume", action="store_true", help="continue the runs whose JSON is in --json-dir"
    )
    args = parser.parse_args(argv)
    rulesets = [r for r in args.rulesets.split(",") if r]
    unknown = [r for r in rulesets if r not in RULESETS]
    if unknown or not rulesets:
        parser.error(f"--rulesets: {', '.join(unknown) or 'none'}; known: {', '.join(RULESETS)}")
    if args.games < 0:
        parser.error(f"--games: expected 0 or more, got {args.games}")
    if args.resume and args.json_dir is None:
        parser.error("--resume needs --json-dir")
    for ruleset in rulesets:
        problem = check_matchups(matchups(ruleset, args.games), ruleset, 3, args.seed)
        if problem:
            parser.error(f"{ruleset}: {problem}")
    if args.games == 0:
        print(f"the ladder's matchups of {', '.join(rulesets)} checked; no game played (--games 0)")
        return 0
    if args.json_dir is not None:
        args.json_dir.mkdir(parents=True, exist_ok=True)
    sections = []
    for ruleset in rulesets:
        json_path = args.json_dir / f"{ruleset}.json" if args.json_dir is not None else None
        resume = json_path if args.resume and json_path is not None and json_path.exists() else None
        summaries = run(
            matchups(ruleset, args.games),
            args.games,
            args.processes,
            ruleset=ruleset,
            best_of=3,
            seed=args.seed,
            resume=resume,
            json_path=json_path,
        )
        sections.append(render(ruleset, summaries))
        text = "\n".join(sections)
        if args.md is not None:
            args.md.write_text(text, encoding="utf-8")
    print("\n".join(sections))
    return 0


if __name__ == "__main__":
    sys.exit(ladder_main())

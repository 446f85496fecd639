"""Undo-rule benchmark: the cost of the verdict "did this decision teach its seat anything?".

The server asks :func:`kessen.engine.undo.teaches` once for every decision of a person (the
verdict is kept per transition). This script plays seeded games of uniformly random choices on
each ruleset and times, on every decision of either seat, side by side:

- ``sampled, 3 worlds (first)``: the first rule: random outcome, reveals, then the decision
  replayed in 3 worlds redealt by ``resample_hidden``, whole views compared;
- ``exact + 1 world (second)``: the second rule: random outcome, reveals, the exact test
  (``shows_new_card``: the seat's ``known_cards`` before and after), then one world, decision
  views compared, when the exact test found nothing;
- ``exact (now)``: ``teaches`` as it is: random outcome, reveals, the exact test; no world.

It also counts the verdicts: decisions found to teach something, and those on which the rules
disagree. Against the second rule both counts should stay 0 (the world never added a verdict);
against the first, ``now only`` counts the draws its three worlds happened to agree on, and
``first only`` should stay 0.

    .venv/bin/python bench/undo_bench.py                   # 4 games per ruleset
    .venv/bin/python bench/undo_bench.py --games 8 --repeat 5 --rulesets kobo

It is a script, not a test: nothing asserts on the figures. Each figure is the median over
``--repeat`` runs of each call, then the mean and the 95th percentile over the decisions; the
methods alternate on every decision, so the machine's drift touches them alike.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import GameState, RulesError
from kessen.engine.log import NOBODY
from kessen.engine.undo import WORLDS, differs_in_worlds, teaches

CONFIGS: dict[str, dict[str, Any]] = {
    "kobo": {"decks": ["vanguard", "tempo"], "best_of": 1},
    "twgp": {},
    "maken": {},
}
Step = tuple[int, GameState, Action, GameState]


def sampled_teaches(before: GameState, action: Action, after: GameState, seat: int) -> bool:
    """The rule before the exact test: random outcome, reveals, and 3 sampled worlds."""
    if before.chance_marker() != after.chance_marker():
        return True
    for event in after.log_events()[len(before.log_events()) :]:
        if event.reveals not in (NOBODY, seat):
            return True
    return differs_in_worlds(before, action, after, seat, WORLDS)


def second_rule(before: GameState, action: Action, after: GameState, seat: int) -> bool:
    """The second rule: the exact test, then one world redealt, decision views compared."""
    if teaches(before, action, after, seat):
        return True
    world = before.resample_hidden(seat, 7919 * len(before.log_events()) + 1)
    try:
        world.apply(action)
    except RulesError:
        return True
    return bool(world.decision_view(seat) != after.decision_view(seat))


FIRST, SECOND, NOW = "sampled, 3 worlds (first)", "exact + 1 world (second)", "exact (now)"
METHODS: dict[str, Callable[[GameState, Action, GameState, int], bool]] = {
    FIRST: sampled_teaches,
    SECOND: second_rule,
    NOW: teaches,
}


def decisions(ruleset: str, games: int, seed: int, limit: int) -> list[Step]:
    """Every decision of seeded random games: ``(seat, before, action, after)``."""
    rules = registry.get(ruleset)
    config = {**rules.default_config, **CONFIGS.get(ruleset, {})}
    out: list[Step] = []
    for game in range(games):
        state = rules.new_game(config, seed + game)
        rng = random.Random(seed + game)
        for _ in range(limit):
            pending = state.pending
            if pending is None:
                break
            action = rng.choice(state.legal_actions())
            after = state.clone()
            after.apply(action)
            out.append((pending.seat, state, action, after))
            state = after
    return out


def timed(fn: Callable[[], bool], repeat: int) -> tuple[float, bool]:
    """The median time of ``repeat`` calls in µs, and the (deterministic) verdict."""
    times: list[float] = []
    verdict = False
    for _ in range(repeat):
        start = time.perf_counter()
        verdict = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6, verdict


def measure(ruleset: str, steps: list[Step], repeat: int) -> None:
    """Time every method on every decision and print the ruleset's rows."""
    costs: dict[str, list[float]] = {name: [] for name in METHODS}
    verdicts: dict[str, list[bool]] = {name: [] for name in METHODS}
    for seat, before, action, after in steps:
        for name, method in METHODS.items():
            cost, verdict = timed(partial(method, before, action, after, seat), repeat)
            costs[name].append(cost)
            verdicts[name].append(verdict)
    base = statistics.mean(costs[FIRST])
    for name in METHODS:
        values = sorted(costs[name])
        mean = statistics.mean(values)
        p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
        print(
            f"| {ruleset} | {name} | {len(values)} | {mean:.0f} | {statistics.median(values):.0f} "
            f"| {p95:.0f} | {mean / base:.2f} | {sum(verdicts[name])} |"
        )
    now_rule = verdicts[NOW]
    for other in (SECOND, FIRST):
        rule = verdicts[other]
        now_only = sum(1 for b, n in zip(rule, now_rule, strict=True) if n and not b)
        other_only = sum(1 for b, n in zip(rule, now_rule, strict=True) if b and not n)
        name = other.split("(")[1].rstrip(")")
        print(
            f"| {ruleset} | verdicts differ from the {name} rule: now only {now_only}, "
            f"{name} only {other_only} |||||||"
        )


def main() -> None:
    """Parse the options, play the games, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per ruleset")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--limit", type=int, default=400, help="decisions per game at most")
    parser.add_argument("--repeat", type=int, default=3, help="calls per decision and method")
    parser.add_argument("--rulesets", default="kobo,twgp,maken", help="comma-separated names")
    args = parser.parse_args()
    print("| ruleset | method | decisions | mean µs | median µs | p95 µs | × first | teach |")
    print("|---|---|---|---|---|---|---|---|")
    for ruleset in args.rulesets.split(","):
        steps = decisions(ruleset, args.games, args.seed, args.limit)
        measure(ruleset, steps, args.repeat)


if __name__ == "__main__":
    main()

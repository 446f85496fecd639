#!/usr/bin/env python3
"""Fit the Kōbō search's deep evaluation on self-play outcomes and compare it with the old one.

Plays ``--matches`` seeded best-of-three matches of the heuristic COM against itself (each seat
deciding from its own view through the engine contract; starter decks drawn at random per seat;
per match a share of 0, 5, 10 or 20% of decisions taken at random, for varied positions). At
every turn decision (a quiet board: the position the search's rollouts stop at) it records
:func:`kessen.games.kobo.evaluate.features` of both seats and whose turn it is; the label is the
winner of the game being played (ties are left out). A logistic regression on the feature
differences (Newton's method, L2 penalty ``--l2``) is fitted on 80% of the positions; the
other 20% compare it with the committed weights and with the material evaluation
(:func:`~kessen.games.kobo.evaluate.game_odds`): held-out log loss and the share of game
winners called. The fitted weights are printed as the ``FITTED_WEIGHTS`` table of
``evaluate.py``. Usage::

    .venv/bin/python bench/fit_kobo_eval.py                    # 4,000 matches, 2 workers, ~2 min
    .venv/bin/python bench/fit_kobo_eval.py --matches 500 --workers 1
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from kessen.engine import registry
from kessen.games.kobo import evaluate as judge
from kessen.games.kobo.decks import starter_decks
from kessen.games.kobo.state import KoboState

Row = tuple[dict[str, float], dict[str, float], int, int]
"""Seat 0's features, seat 1's features, the seat to move, the winner of the game."""


def play(seed: int, plan_share: float = 0.0, level: str = "heuristic") -> list[Row]:
    """One self-play match: the labelled turn-start positions of its decided games.

    ``level``: who plays both seats, the heuristic COM (with a share of random decisions) or a
    search level of :func:`kessen.ai.levels.variant` (``ismcts-strong=250``: つよい at 250
    iterations, its own decisions only). ``plan_share``: each seat's standby is the strongest
    level's plan (:class:`kessen.games.kobo.standby.PlannedStandby`) with this chance, else the
    heuristic COM's (0: the heuristic COM's in both, the same matches as before the option)."""
    rng = random.Random(seed)
    rules = registry.get("kobo")
    names = sorted(starter_decks())
    config = {**rules.default_config, "decks": [rng.choice(names), rng.choice(names)]}
    state = rules.new_game(config, seed)
    assert isinstance(state, KoboState)
    noise = rng.choice([0.0, 0.05, 0.1, 0.2])
    if level == "heuristic":
        players = {s: rules.players["heuristic"](seed * 2 + s) for s in (0, 1)}
    elif plan_share > 0:
        raise ValueError("plan_share is for the heuristic COM's matches (a search level plans)")
    else:
        from kessen.ai.levels import make_player

        noise = 0.0
        players = {s: make_player("kobo", level, seed * 2 + s) for s in (0, 1)}
    if plan_share > 0:
        from kessen.games.kobo.standby import PlannedStandby

        for s in (0, 1):
            if rng.random() < plan_share:
                players[s] = PlannedStandby(seed * 2 + s)
    rows: list[Row] = []
    waiting: list[tuple[dict[str, float], dict[str, float], int]] = []
    games = 0
    while (pending := state.pending) is not None:
        if pending.prompt == "turn":
            waiting.append((judge.features(state, 0), judge.features(state, 1), state.turn_player))
        legal = state.legal_actions()
        if len(legal) > 1 and rng.random() < noise:
            action = legal[rng.randrange(len(legal))]
        else:
            action = players[pending.seat].choose(state.view(pending.seat), legal)
        state.apply(action)
        if len(state.results) != games:
            games = len(state.results)
            winner = state.results[-1][0]
            if winner >= 0:
                rows += [(a, b, mover, winner) for a, b, mover in waiting]
            waiting = []
    return rows


def design(rows: list[Row], names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Feature differences (seat 0 minus seat 1, ``tempo`` ±1) and labels (1: seat 0 won)."""
    x = np.array(
        [
            [a.get(k, 0.0) - b.get(k, 0.0) for k in names[:-1]] + [1.0 if mover == 0 else -1.0]
            for a, b, mover, _ in rows
        ]
    )
    y = np.array([1.0 if winner == 0 else 0.0 for *_, winner in rows])
    return x, y


def fit(x: np.ndarray, y: np.ndarray, l2: float, steps: int = 50) -> np.ndarray:
    """L2-penalised logistic regression by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        gradient = x.T @ (p - y) + l2 * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(x.shape[1])
        w -= np.linalg.solve(hessian, gradient)
    return np.asarray(w)


def scores(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Log loss and the share of winners called (p > 0.5)."""
    p = np.clip(p, 1e-9, 1 - 1e-9)
    loss = -float(np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    return loss, float(np.mean((p > 0.5) == (y > 0.5)))


def material_logits(rows: list[Row]) -> np.ndarray:
    """The logits of :func:`~kessen.games.kobo.evaluate.game_odds`, rebuilt from the features."""

    def material(f: dict[str, float]) -> float:
        cards = sum(v * judge.card_value(k.split(":", 1)[1]) for k, v in f.items() if ":" in k)
        return (
            f["lv"]
            + judge.BODY * f["chars"]
            + cards
            + judge.TACTICS_DECK_CARD * f["tdeck"]
            - 0.3 * f["passes"]
        )

    return np.array([judge.SLOPE * (material(a) - material(b)) for a, b, _, _ in rows])


def main(argv: list[str] | None = None) -> int:
    """Generate, fit, compare, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1_000_000, help="seed of the first match")
    parser.add_argument("--l2", type=float, default=1.0)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    seeds = range(args.seed, args.seed + args.matches)
    with ProcessPoolExecutor(args.workers) as pool:
        rows = [row for match in pool.map(play, seeds, chunksize=20) for row in match]
    names = list(judge.FITTED_WEIGHTS)
    x, y = design(rows, names)
    order = np.random.default_rng(0).permutation(len(y))
    cut = int(len(y) * 0.8)
    train, test = order[:cut], order[cut:]
    w = fit(x[train], y[train], args.l2)
    committed = np.array([judge.FITTED_WEIGHTS[k] for k in names])
    # A card no starter deck holds never differs between the seats: the data says nothing of
    # it (the penalty sets its weight to 0), so it keeps its committed weight for saved decks.
    unseen = ~np.any(x[train] != 0.0, axis=0)
    w[unseen] = committed[unseen]
    old = material_logits([rows[i] for i in test])
    took = time.perf_counter() - start
    print(f"{len(rows):,} positions from {args.matches:,} matches in {took:.0f} s")
    print()
    print("| evaluation | held-out log loss | winners called |")
    print("|---|---:|---:|")
    for label, logits in (
        ("fitted now", x[test] @ w),
        ("committed FITTED_WEIGHTS", x[test] @ committed),
        ("material (game_odds)", old),
    ):
        loss, called = scores(1.0 / (1.0 + np.exp(-logits)), y[test])
        print(f"| {label} | {loss:.3f} | {100 * called:.1f}% |")
    print()
    print("FITTED_WEIGHTS: dict[str, float] = {")
    for name, value, kept in zip(names, w, unseen, strict=True):
        note = "  # not in the data: the committed weight" if kept else ""
        print(f'    "{name}": {value:.4f},{note}')
    print("}")
    assert all(math.isfinite(v) for v in w)
    return 0


if __name__ == "__main__":
    sys.exit(main())

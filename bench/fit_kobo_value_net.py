#!/usr/bin/env python3
"""Train the Kōbō deep model's value network on self-play outcomes and write its weights file.

The data are those of ``bench/fit_kobo_eval.py`` (the same seeded heuristic self-play matches,
the same turn-start positions and labels: the winner of the game being played). The network
sees both seats' :func:`kessen.games.kobo.evaluate.features`, the seat to move first, and
answers that seat's chance to win the game; one hidden layer of rectified units
(scikit-learn's ``MLPClassifier``, the only place it is used: the search reads the written
weights with plain Python, :mod:`kessen.games.kobo.value_model`). A fifth of the *matches* is
held out; on it the script prints the log loss and the winners called of the network, of the
committed logistic curve (``FITTED_WEIGHTS``, refitted on the same four fifths for a fair
comparison) and of the committed network, then writes
``src/kessen/games/kobo/data/value_net.json`` (``--write``). Usage::

    .venv/bin/pip install scikit-learn          # only for this script
    PYTHONPATH=src .venv/bin/python bench/fit_kobo_value_net.py --write   # 4,000 matches, 2 cores

``--plan-share 0.5`` draws each seat's standby from the strongest level's plan half of the time
(the positions つよい meets; probed on 2026-12-06 and not kept), ``--out`` writes elsewhere.
"""

from __future__ import annotations

import argparse
import functools
import json
import pickle
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import fit_kobo_eval

from kessen.games.kobo import evaluate as judge

FEATURES = tuple(k for k in judge.FITTED_WEIGHTS if k != "tempo")
"""The per-seat inputs: the logistic curve's features (:func:`kessen.games.kobo.evaluate.features`)
but the seat to move, which the network reads from the order of its inputs."""
TARGET = Path(__file__).resolve().parents[1] / "src/kessen/games/kobo/data/value_net.json"
"""Where ``--write`` puts the weights (read by :mod:`kessen.games.kobo.value_model`)."""


def mover_rows(rows: list[fit_kobo_eval.Row]) -> tuple[np.ndarray, np.ndarray]:
    """The network's inputs (the mover's features, then the other seat's, in
    :data:`FEATURES` order) and labels (1: the mover won)."""
    names = FEATURES
    x = [
        [(a if mover == 0 else b).get(k, 0.0) for k in names]
        + [(b if mover == 0 else a).get(k, 0.0) for k in names]
        for a, b, mover, _ in rows
    ]
    y = [1.0 if winner == mover else 0.0 for _, _, mover, winner in rows]
    return np.array(x), np.array(y)


def committed_net(x: np.ndarray) -> np.ndarray | None:
    """The committed network's answers for the rows of ``x`` (``None`` before the first)."""
    if not TARGET.exists():
        return None
    net = json.loads(TARGET.read_text(encoding="utf-8"))
    if tuple(net["features"]) != FEATURES:
        return None
    hidden = np.maximum(0.0, x @ np.array(net["hidden_weights"]) + np.array(net["hidden_bias"]))
    logit = hidden @ np.array(net["out_weights"]) + net["out_bias"]
    return np.asarray(1.0 / (1.0 + np.exp(-logit)))


def read_extra(path: Path) -> list[list[fit_kobo_eval.Row]]:
    """The matches of a ``bench/kobo_selfplay.py`` file, one list of rows per match."""
    matches = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line:
            rows = json.loads(line)["rows"]
            matches.append([(a, b, int(mover), int(winner)) for a, b, mover, winner in rows])
    return matches


def held_out(matches: list[list[fit_kobo_eval.Row]]) -> tuple[list[fit_kobo_eval.Row], ...]:
    """Four fifths of the matches' rows to train on, the other fifth's to judge (by match)."""
    order = np.random.default_rng(0).permutation(len(matches))
    cut = int(len(matches) * 0.8)
    train = [r for i in order[:cut] for r in matches[i]]
    test = [r for i in order[cut:] for r in matches[i]]
    return train, test


def weights_json(
    model: object, matches: int, positions: int, loss: float, called: float, extra: str = ""
) -> str:
    """The weights file's text for a fitted ``MLPClassifier`` (``extra``: what else it was
    trained on, in words)."""
    w1, w2 = model.coefs_  # type: ignore[attr-defined]
    b1, b2 = model.intercepts_  # type: ignore[attr-defined]

    def rounded(values: np.ndarray) -> list[float]:
        return [round(float(v), 5) for v in values]

    data = {
        "about": (
            "The Kōbō deep model's value network, written by bench/fit_kobo_value_net.py: "
            f"trained on the turn-start positions of {matches:,} heuristic self-play matches "
            f"({positions:,} positions){extra}, four fifths of the matches; on the fifth held out, "
            f"log loss {loss:.3f} and {100 * called:.1f}% of game winners called."
        ),
        "features": list(FEATURES),
        "hidden_weights": [rounded(row) for row in w1],
        "hidden_bias": rounded(b1),
        "out_weights": rounded(w2[:, 0]),
        "out_bias": round(float(b2[0]), 5),
    }
    return json.dumps(data, ensure_ascii=False, indent=None, separators=(",", ":")) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Generate, train, compare, print (and write)."""
    from sklearn.neural_network import MLPClassifier

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1_000_000, help="seed of the first match")
    parser.add_argument("--hidden", type=int, default=32, help="hidden units")
    parser.add_argument("--alpha", type=float, default=0.1, help="L2 penalty of the network")
    parser.add_argument("--write", action="store_true", help=f"write {TARGET.name}")
    parser.add_argument(
        "--positions", help="a pickle of the played positions: read if it exists, else written"
    )
    parser.add_argument(
        "--plan-share",
        type=float,
        default=0.0,
        help="the chance that a seat's standby is the strongest level's plan (0: the heuristic's)",
    )
    parser.add_argument("--out", type=Path, default=TARGET, help="where --write puts the weights")
    parser.add_argument(
        "--extra",
        type=Path,
        help="self-play matches of another level to train on too (bench/kobo_selfplay.py)",
    )
    parser.add_argument(
        "--extra-weight",
        type=int,
        default=1,
        help="how many times each --extra position counts in training",
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    seeds = range(args.seed, args.seed + args.matches)
    saved = Path(args.positions) if args.positions else None
    if saved is not None and saved.exists():
        with saved.open("rb") as source:
            matches: list[list[fit_kobo_eval.Row]] = pickle.load(source)
    else:
        with ProcessPoolExecutor(args.workers) as pool:
            play = functools.partial(fit_kobo_eval.play, plan_share=args.plan_share)
            matches = list(pool.map(play, seeds, chunksize=20))
        if saved is not None:
            with saved.open("wb") as out:
                pickle.dump(matches, out)
    train, test = held_out(matches)
    extra_train: list[fit_kobo_eval.Row] = []
    extra_test: list[fit_kobo_eval.Row] = []
    if args.extra is not None:
        extra_train, extra_test = held_out(read_extra(args.extra))
    x_train, y_train = mover_rows(train + extra_train * args.extra_weight)
    x_test, y_test = mover_rows(test)
    model = MLPClassifier(
        hidden_layer_sizes=(args.hidden,),
        alpha=args.alpha,
        early_stopping=True,
        max_iter=300,
        random_state=0,
    )
    model.fit(x_train, y_train)
    names = list(judge.FITTED_WEIGHTS)
    lx_train, ly_train = fit_kobo_eval.design(train, names)
    lx_test, ly_test = fit_kobo_eval.design(test, names)
    curve = fit_kobo_eval.fit(lx_train, ly_train, 1.0)
    committed = np.array([judge.FITTED_WEIGHTS[k] for k in names])
    took = time.perf_counter() - start
    print(f"{len(train) + len(test):,} positions from {args.matches:,} matches in {took:.0f} s")
    print()
    print("| evaluation (a fifth of the matches held out) | log loss | winners called |")
    print("|---|---:|---:|")
    net_loss, net_called = fit_kobo_eval.scores(model.predict_proba(x_test)[:, 1], y_test)
    old_net = committed_net(x_test)
    for label, p, y in (
        (f"value network ({args.hidden} hidden units), trained now", None, y_test),
        *((("value network, committed", old_net, y_test),) if old_net is not None else ()),
        ("logistic curve refitted now", 1 / (1 + np.exp(-lx_test @ curve)), ly_test),
        (
            "logistic curve, committed FITTED_WEIGHTS",
            1 / (1 + np.exp(-lx_test @ committed)),
            ly_test,
        ),
    ):
        loss, called = (net_loss, net_called) if p is None else fit_kobo_eval.scores(p, y)
        print(f"| {label} | {loss:.3f} | {100 * called:.1f}% |")
    extra_words = ""
    if extra_test:
        x_extra, y_extra = mover_rows(extra_test)
        print()
        print(f"| on the held-out fifth of {args.extra.name} | log loss | winners called |")
        print("|---|---:|---:|")
        for label, p in (
            ("value network, trained now", model.predict_proba(x_extra)[:, 1]),
            ("value network, committed", committed_net(x_extra)),
        ):
            if p is not None:
                loss, called = fit_kobo_eval.scores(p, y_extra)
                print(f"| {label} | {loss:.3f} | {100 * called:.1f}% |")
        extra_words = (
            f" and {len(extra_train) + len(extra_test):,} positions of {args.extra.stem} "
            f"self-play (counted {args.extra_weight} times)"
        )
    if args.write:
        args.out.write_text(
            weights_json(
                model,
                args.matches,
                len(train) + len(test),
                net_loss,
                net_called,
                extra_words,
            ),
            encoding="utf-8",
        )
        print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A/B comparisons of two card data versions: the same games (same seeds) played on both.

Two tournaments of the same spec that differ only in their card data (a designer's card set,
or the shipped cards) play game ``i`` from the same seed with the same entrants in the same
seats, so their games pair up. :func:`compare` sets every figure of the two runs side by side
with the difference B − A and whether it is significant:

- win rates (each matchup, each entrant overall) and the first player's rate: each with its
  Wilson 95% interval; the difference with a paired bootstrap 95% interval of the mean score
  difference over the paired games, and the exact sign test of the pairs whose outcome changed
  (McNemar's test when there are no ties: only the discordant pairs count);
- game lengths in turns: means and medians, the paired difference's bootstrap interval and the
  sign test of the paired differences;
- per-card figures (the seat-games in which a card was drawn, set, played...): those are not
  paired (a card may be played in one run and not the other), so each win rate is compared
  with a two-proportion z test.

Everything works on the per-game summaries the simulator journals (plain JSON), so the browser
side can compare two stored runs without playing anything again.

>>> sign_test(9, 1) < 0.05 < sign_test(6, 4)
True
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kessen.engine.contract import Json
from kessen.sim.stats import CARD_EVENTS, TIE, score, wilson
from kessen.sim.tournament import Journal, ProgressHook, TournamentResult, TournamentSpec, run

ALPHA: Final = 0.05
"""The significance level: a difference is significant when its p-value is below it."""
BOOTSTRAP: Final = 2000
"""Resamples of a paired bootstrap interval."""
EXACT_UP_TO: Final = 5000
"""Pairs up to which the sign test is exact (a normal approximation beyond)."""

Summary = Mapping[str, Any]


# --------------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------------


def sign_test(positive: int, negative: int) -> float:
    """The two-sided p-value of the exact sign test: ``positive`` pairs went one way and
    ``negative`` the other, under the null hypothesis that either way is as likely (for
    win/loss pairs this is McNemar's exact test on the discordant pairs).

    >>> sign_test(0, 0), round(sign_test(10, 0), 5)
    (1.0, 0.00195)
    """
    n = positive + negative
    if n == 0:
        return 1.0
    k = min(positive, negative)
    if n > EXACT_UP_TO:
        z = (abs(positive - negative) - 1) / math.sqrt(n)
        return min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2)))
    log_half = n * math.log(0.5)
    tail = sum(
        math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + log_half)
        for i in range(k + 1)
    )
    return min(1.0, 2 * tail)


def two_proportions(wins_a: float, n_a: int, wins_b: float, n_b: int) -> float:
    """The two-sided p-value of the z test that two independent proportions are equal.

    >>> round(two_proportions(50, 100, 70, 100), 4)
    0.0039
    """
    if n_a == 0 or n_b == 0:
        return 1.0
    pooled = (wins_a + wins_b) / (n_a + n_b)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if spread == 0:
        return 1.0
    z = abs(wins_a / n_a - wins_b / n_b) / spread
    return math.erfc(z / math.sqrt(2))


def bootstrap_interval(differences: Sequence[float], seed: int = 0) -> tuple[float, float]:
    """A 95% percentile interval of the mean of paired ``differences`` (seeded: the same
    pairs give the same interval)."""
    import numpy as np

    n = len(differences)
    if n == 0:
        return (0.0, 0.0)
    values = np.asarray(differences, dtype=float)
    rng = np.random.default_rng(seed)
    rows = max(1, 2_000_000 // n)  # resamples drawn at a time: at most 2M indexes in memory
    means: list[float] = []
    while len(means) < BOOTSTRAP:
        count = min(rows, BOOTSTRAP - len(means))
        picks = rng.integers(0, n, size=(count, n))
        means += values[picks].mean(axis=1).tolist()
    means.sort()
    return (means[int(0.025 * BOOTSTRAP)], means[int(0.975 * BOOTSTRAP) - 1])


@dataclass(frozen=True)
class Paired:
    """Paired values of the A and B runs (one pair per game played in both)."""

    a: list[float]
    b: list[float]

    def to_json(self, seed: int = 0) -> Json:
        """Both means, their difference B − A, its bootstrap interval and the sign test."""
        n = len(self.a)
        diffs = [y - x for x, y in zip(self.a, self.b, strict=True)]
        up = sum(1 for d in diffs if d > 0)
        down = sum(1 for d in diffs if d < 0)
        p = sign_test(up, down)
        lo, hi = bootstrap_interval(diffs, seed)
        return {
            "n": n,
            "a": round(statistics.fmean(self.a), 4) if n else 0.0,
            "b": round(statistics.fmean(self.b), 4) if n else 0.0,
            "diff": round(statistics.fmean(diffs), 4) if n else 0.0,
            "diff_ci95": [round(lo, 4), round(hi, 4)],
            "test": {
                "kind": "sign test on paired games (McNemar)",
                "paired": True,
                "changed": [up, down],
                "p": round(p, 6),
                "significant": p < ALPHA,
            },
        }


def _rate(values: Sequence[float]) -> Json:
    """A mean score with its Wilson 95% interval (half points allowed)."""
    n = len(values)
    total = sum(values)
    lo, hi = wilson(total, n)
    return {
        "n": n,
        "rate": round(total / n, 4) if n else 0.0,
        "ci95": [round(lo, 4), round(hi, 4)],
    }


def _rate_pair(pairs: Paired, seed: int) -> Json:
    """Win rates of A and B with their intervals, and the paired comparison."""
    out = pairs.to_json(seed)
    out["rate_a"] = _rate(pairs.a)
    out["rate_b"] = _rate(pairs.b)
    return out


# --------------------------------------------------------------------------------------------
# Pairing the games of two runs
# --------------------------------------------------------------------------------------------


def _games(summary: Summary) -> list[Mapping[str, Any]]:
    games = summary.get("games")
    return list(games) if isinstance(games, list) else []


def paired_games(
    a: Mapping[int, Summary], b: Mapping[int, Summary]
) -> list[tuple[Summary, int, Mapping[str, Any], Mapping[str, Any]]]:
    """``(summary of A, game number, game of A, game of B)`` for every game played in both
    runs: the same tournament index (same seed, same entrants in the same seats) and the same
    game of the match."""
    out = []
    for index in sorted(set(a) & set(b)):
        sa, sb = a[index], b[index]
        if (sa.get("seed"), sa.get("a"), sa.get("b"), sa.get("seat_a")) != (
            sb.get("seed"),
            sb.get("a"),
            sb.get("b"),
            sb.get("seat_a"),
        ):
            raise ValueError(f"game {index} is not the same game in both runs (other seeds)")
        for number, (ga, gb) in enumerate(zip(_games(sa), _games(sb), strict=False)):
            out.append((sa, number, ga, gb))
    return out


def _entrant_seat(summary: Summary, entrant: int) -> int:
    return int(summary["seat_a"]) if summary["a"] == entrant else 1 - int(summary["seat_a"])


def _winner(game: Mapping[str, Any]) -> int | None:
    w = game.get("winner", TIE)
    return None if w is None else int(w)


# --------------------------------------------------------------------------------------------
# The comparison
# --------------------------------------------------------------------------------------------


def compare(
    a: Mapping[int, Summary],
    b: Mapping[int, Summary],
    matchups: Sequence[tuple[int, int]],
    labels: Sequence[str],
    *,
    names: tuple[str, str] = ("A", "B"),
    seed: int = 0,
) -> Json:
    """Every figure of runs ``a`` and ``b`` (game index → summary) side by side, with the
    difference B − A and its significance (see the module docstring). ``matchups`` and
    ``labels`` are the spec's (the same for both runs); ``names`` name the two card data."""
    pairs = paired_games(a, b)
    matchup_out = []
    for i, (x, y) in enumerate(matchups):
        score_a: list[float] = []
        score_b: list[float] = []
        for summary, _number, ga, gb in pairs:
            if {summary["a"], summary["b"]} != {x, y}:
                continue
            seat = _entrant_seat(summary, x)
            score_a.append(score(_winner(ga), seat))
            score_b.append(score(_winner(gb), seat))
        entry = _rate_pair(Paired(score_a, score_b), seed + i)
        matchup_out.append({**entry, "pair": [x, y], "labels": [labels[x], labels[y]]})
    entrants = []
    for e, label in enumerate(labels):
        ea: list[float] = []
        eb: list[float] = []
        for summary, _number, ga, gb in pairs:
            if e not in (summary["a"], summary["b"]) or summary["a"] == summary["b"]:
                continue
            seat = _entrant_seat(summary, e)
            ea.append(score(_winner(ga), seat))
            eb.append(score(_winner(gb), seat))
        entrants.append({"entrant": e, "label": label, **_rate_pair(Paired(ea, eb), seed + e)})
    return {
        "names": list(names),
        "paired_games": len(pairs),
        "alpha": ALPHA,
        "matchups": matchup_out,
        "entrants": entrants,
        "first_player": _first_player(pairs, seed),
        "draws": _draws(pairs, seed),
        "turns": _turns(pairs, seed),
        "cards": compare_cards(pairs),
        "significant": _significant(matchup_out, entrants),
    }


def _first_player(
    pairs: Iterable[tuple[Summary, int, Mapping[str, Any], Mapping[str, Any]]], seed: int
) -> Json:
    """The first player's score in the games whose first player is known in both runs."""
    fa: list[float] = []
    fb: list[float] = []
    for _summary, _number, ga, gb in pairs:
        if ga.get("first") in (0, 1) and gb.get("first") in (0, 1):
            fa.append(score(_winner(ga), int(ga["first"])))
            fb.append(score(_winner(gb), int(gb["first"])))
    return _rate_pair(Paired(fa, fb), seed + 1000)


def _draws(
    pairs: Iterable[tuple[Summary, int, Mapping[str, Any], Mapping[str, Any]]], seed: int
) -> Json:
    """The share of games without a winner."""
    da = [float(_winner(ga) in (None, TIE)) for _s, _n, ga, _gb in pairs]
    db = [float(_winner(gb) in (None, TIE)) for _s, _n, _ga, gb in pairs]
    return _rate_pair(Paired(da, db), seed + 1001)


def _turns(
    pairs: Iterable[tuple[Summary, int, Mapping[str, Any], Mapping[str, Any]]], seed: int
) -> Json:
    """Game lengths in turns: means (paired), medians and p90s."""
    ta: list[float] = []
    tb: list[float] = []
    for _summary, _number, ga, gb in pairs:
        if ga.get("turns") is not None and gb.get("turns") is not None:
            ta.append(float(ga["turns"]))
            tb.append(float(gb["turns"]))
    out = Paired(ta, tb).to_json(seed + 1002)
    for key, values in (("a", ta), ("b", tb)):
        out[f"median_{key}"] = statistics.median(values) if values else None
        out[f"p90_{key}"] = _quantile(values, 0.9) if values else None
    return out


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def compare_cards(
    pairs: Iterable[tuple[Summary, int, Mapping[str, Any], Mapping[str, Any]]],
) -> Json:
    """Per card and event kind (drawn, set, played...): the seat-games in which it happened
    and their win rate in each run, the difference B − A and a two-proportion z test (not
    paired: a card may be played in one run's game and not in the other's)."""
    tallies: dict[str, dict[str, list[list[float]]]] = defaultdict(
        lambda: defaultdict(lambda: [[], []])
    )
    for _summary, _number, ga, gb in pairs:
        for side, game in enumerate((ga, gb)):
            w = _winner(game)
            for seat, sets in enumerate(game.get("cards") or ()):
                for kind, slugs in sets.items():
                    for slug in slugs:
                        tallies[slug][kind][side].append(score(w, seat))
    out: Json = {}
    for slug in sorted(tallies):
        kinds: Json = {}
        for kind in CARD_EVENTS:
            sa, sb = tallies[slug].get(kind, [[], []])
            if not sa and not sb:
                continue
            p = two_proportions(sum(sa), len(sa), sum(sb), len(sb))
            ra, rb = _rate(sa), _rate(sb)
            kinds[kind] = {
                "rate_a": ra,
                "rate_b": rb,
                "diff": round(rb["rate"] - ra["rate"], 4),
                "test": {
                    "kind": "two-proportion z test",
                    "paired": False,
                    "p": round(p, 6),
                    "significant": p < ALPHA,
                },
            }
        out[slug] = kinds
    return out


def _significant(matchups: Sequence[Json], entrants: Sequence[Json]) -> list[str]:
    """The labels of the matchups and entrants whose win rate changed significantly."""
    found = [" vs ".join(m["labels"]) for m in matchups if m["test"]["significant"]]
    found += [e["label"] for e in entrants if e["test"]["significant"]]
    return found


# --------------------------------------------------------------------------------------------
# Playing both
# --------------------------------------------------------------------------------------------


def run_pair(
    spec_a: TournamentSpec,
    spec_b: TournamentSpec,
    journals: tuple[Journal, Journal],
    backend: Any = None,
    *,
    names: tuple[str, str] = ("A", "B"),
    progress: ProgressHook | None = None,
) -> tuple[TournamentResult, TournamentResult, Json]:
    """Play the games of two specs that differ only in their card data (the same schedule:
    the same seeds, entrants and seats), each journaled in its own journal, then
    :func:`compare` them; ``progress(done, total, summary)`` counts the games of both."""
    if dataclasses.replace(spec_a, card_set="") != dataclasses.replace(spec_b, card_set=""):
        raise ValueError("an A/B comparison plays the same spec with two card data")
    total = 2 * len(spec_a.matchups) * spec_a.games
    done_a = 0

    def first(done: int, _total: int, entry: Json) -> None:
        nonlocal done_a
        done_a = done
        if progress is not None:
            progress(done, total, entry)

    def second(done: int, _total: int, entry: Json) -> None:
        if progress is not None:
            progress(done_a + done, total, entry)

    result_a = run(spec_a, journals[0], backend, progress=first)
    done_a = len(result_a.summaries)
    result_b = run(spec_b, journals[1], backend, progress=second)
    labels = [e.label for e in spec_a.entrants]
    by_index_a = {int(s["index"]): s for s in result_a.summaries}
    by_index_b = {int(s["index"]): s for s in result_b.summaries}
    found = compare(by_index_a, by_index_b, spec_a.matchups, labels, names=names, seed=spec_a.seed)
    return result_a, result_b, found

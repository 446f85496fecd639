"""Tournament statistics: Wilson intervals, matchup win rates, sides and draws, lengths, cards.

Everything here works on the per-game summaries the simulator journals (plain JSON), so a
report can be rebuilt from a store or a JSONL journal without playing anything again.

A *game* is one game of a match (a best-of-N match holds several); a seat's *score* in a game
is 1 for a win, ½ for a complete tie and 0 for a loss, and win rates are mean scores. The
Wilson interval accepts such half points (it is then an approximation, as usual).
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kessen.engine.contract import Json

Z95: Final = 1.959963984540054
"""The two-sided 95% normal quantile."""
TIE: Final = -1
CARD_EVENTS: Final = ("draw", "set", "activate", "place", "deploy")
"""The card statistics kept per seat and game (see :func:`card_events`)."""


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` may include half points).

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = min(max(successes / n, 0.0), 1.0)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def score(winner: int | None, seat: int) -> float:
    """``seat``'s score in a game won by ``winner`` (``-1``/``None``: a complete tie)."""
    if winner is None or winner == TIE:
        return 0.5
    return 1.0 if winner == seat else 0.0


@dataclass(frozen=True)
class Rate:
    """A win rate: games, wins, ties, the rate (ties count half) and its 95% interval."""

    n: int
    wins: int
    ties: int

    @property
    def rate(self) -> float:
        """Mean score (0.5 when there are no games)."""
        return (self.wins + 0.5 * self.ties) / self.n if self.n else 0.5

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of :attr:`rate`."""
        return wilson(self.wins + 0.5 * self.ties, self.n)

    def to_json(self) -> Json:
        """JSON form."""
        lo, hi = self.interval
        return {
            "n": self.n,
            "wins": self.wins,
            "ties": self.ties,
            "rate": round(self.rate, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
        }


class _Tally:
    """Wins, ties and games, counted up."""

    __slots__ = ("n", "ties", "wins")

    def __init__(self) -> None:
        self.n = 0
        self.wins = 0
        self.ties = 0

    def add(self, winner: int | None, seat: int) -> None:
        self.n += 1
        if winner is None or winner == TIE:
            self.ties += 1
        elif winner == seat:
            self.wins += 1

    def rate(self) -> Rate:
        return Rate(self.n, self.wins, self.ties)


def distribution(values: Sequence[float], bins: int = 12) -> Json:
    """Summary of a sample: n, mean, min, quartiles, deciles, max and a histogram.

    >>> distribution([1, 2, 3, 4])["median"]
    2.5
    """
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    cuts = statistics.quantiles(ordered, n=20, method="inclusive") if len(ordered) > 1 else []

    def q(k: int) -> float:
        return float(cuts[k - 1]) if cuts else float(ordered[0])

    lo, hi = ordered[0], ordered[-1]
    width = max(1.0, math.ceil((hi - lo + 1) / bins))
    counts: dict[int, int] = defaultdict(int)
    for v in ordered:
        counts[int(lo + width * ((v - lo) // width))] += 1
    return {
        "n": len(ordered),
        "mean": round(statistics.fmean(ordered), 3),
        "min": lo,
        "p10": q(2),
        "p25": q(5),
        "median": float(statistics.median(ordered)),
        "p75": q(15),
        "p90": q(18),
        "max": hi,
        "histogram": {
            "start": [k for k in sorted(counts)],
            "count": [counts[k] for k in sorted(counts)],
            "width": width,
        },
    }


# --------------------------------------------------------------------------------------------
# Cards seen in a game's log
# --------------------------------------------------------------------------------------------


def card_events(events: Iterable[Mapping[str, Any]]) -> list[list[dict[str, list[str]]]]:
    """Per game of a match, per seat, the cards drawn, set, activated, placed and deployed.

    ``events`` are full (unredacted) log entries (``Event.visible(None, everything=True)``):
    the simulator may read private draws. Each list holds distinct slugs, sorted. A tactics
    card chosen into the tactics hand or drawn at a turn's start counts as drawn.
    """
    games: list[list[dict[str, set[str]]]] = []

    def seat_sets(seat: Any) -> dict[str, set[str]] | None:
        if not games or seat not in (0, 1):
            return None
        return games[-1][int(seat)]

    for event in events:
        kind = event.get("kind")
        if kind == "game_start":
            games.append([{k: set() for k in CARD_EVENTS} for _ in range(2)])
            continue
        sets = seat_sets(event.get("seat"))
        if sets is None:
            continue
        if kind in ("draw", "tactics_hand"):
            sets["draw"].update(str(c) for c in event.get("cards") or ())
        elif kind == "tactics_draw" and event.get("card"):
            sets["draw"].add(str(event["card"]))
        elif kind in ("set", "activate", "place", "deploy") and event.get("card"):
            sets[str(kind)].add(str(event["card"]))
    return [[{k: sorted(v) for k, v in seat.items()} for seat in game] for game in games]


# --------------------------------------------------------------------------------------------
# Aggregates over a tournament
# --------------------------------------------------------------------------------------------


def _games_of(summary: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    games = summary.get("games")
    return list(games) if isinstance(games, list) else []


def matchup_stats(summaries: Iterable[Mapping[str, Any]], a: int, b: int) -> Json:
    """Statistics of entrant ``a`` against entrant ``b`` (rates are ``a``'s)."""
    games = _Tally()
    matches = _Tally()
    first = _Tally()
    seat0 = _Tally()
    turns: list[float] = []
    steps: list[float] = []
    reasons: dict[str, int] = defaultdict(int)
    for s in summaries:
        if {s["a"], s["b"]} != {a, b}:
            continue
        # The seat of entrant a in this game (for a mirror matchup: entrant "a" of the spec).
        seat_a = s["seat_a"] if s["a"] == a else 1 - s["seat_a"]
        winner = s.get("winner")
        matches.add(TIE if winner is None else winner, seat_a)
        steps.append(s.get("steps", 0))
        for g in _games_of(s):
            w = g.get("winner", TIE)
            games.add(w, seat_a)
            seat0.add(w, 0)
            if g.get("first") in (0, 1):
                first.add(w, g["first"])
            if g.get("turns") is not None:
                turns.append(g["turns"])
            reasons[str(g.get("reason"))] += 1
    return {
        "a": a,
        "b": b,
        "games": games.rate().to_json(),
        "matches": matches.rate().to_json(),
        "first_player": first.rate().to_json(),
        "seat0": seat0.rate().to_json(),
        "turns": distribution(turns),
        "steps": distribution(steps),
        "reasons": dict(sorted(reasons.items())),
    }


def card_stats(summaries: Iterable[Mapping[str, Any]]) -> Json:
    """Per card and per event kind: the seat-games in which it happened and the win rate."""
    tallies: dict[str, dict[str, _Tally]] = defaultdict(lambda: defaultdict(_Tally))
    for s in summaries:
        for g in _games_of(s):
            w = g.get("winner", TIE)
            for seat, sets in enumerate(g.get("cards") or ()):
                for kind, slugs in sets.items():
                    for slug in slugs:
                        tallies[slug][kind].add(w, seat)
    return {
        slug: {kind: tallies[slug][kind].rate().to_json() for kind in CARD_EVENTS}
        for slug in sorted(tallies)
    }


def first_player_stats(summaries: Iterable[Mapping[str, Any]]) -> Json:
    """The first player's score over every game of the tournament."""
    tally = _Tally()
    for s in summaries:
        for g in _games_of(s):
            if g.get("first") in (0, 1):
                tally.add(g.get("winner", TIE), g["first"])
    return tally.rate().to_json()


def proportion(count: int, n: int) -> Json:
    """A share with its Wilson 95% interval: ``{"count", "n", "rate", "ci95"}``.

    >>> proportion(1, 4)["rate"]
    0.25
    """
    lo, hi = wilson(count, n)
    return {
        "count": count,
        "n": n,
        "rate": round(count / n, 4) if n else 0.0,
        "ci95": [round(lo, 4), round(hi, 4)],
    }


def side_stats(summaries: Iterable[Mapping[str, Any]]) -> Json:
    """How the games ended by side: the first player's wins, the second player's, and draws
    (games without a winner), each a share of the games whose first player is known, with its
    Wilson 95% interval; and the length in turns (median, p90...) of those games."""
    first = second = draws = 0
    turns: list[float] = []
    for s in summaries:
        for g in _games_of(s):
            if g.get("first") not in (0, 1):
                continue
            winner = g.get("winner", TIE)
            if winner is None or winner == TIE:
                draws += 1
            elif winner == g["first"]:
                first += 1
            else:
                second += 1
            if g.get("turns") is not None:
                turns.append(float(g["turns"]))
    n = first + second + draws
    return {
        "n": n,
        "first": proportion(first, n),
        "second": proportion(second, n),
        "draws": proportion(draws, n),
        "turns": distribution(turns),
    }


def fact_stats(summaries: Iterable[Mapping[str, Any]]) -> Json:
    """Per fact of the ruleset's profile (:mod:`kessen.sim.facts`): the mean per game, the
    share of games in which it was non-zero and the maximum. Empty without facts."""
    values: dict[str, list[float]] = defaultdict(list)
    for s in summaries:
        for g in _games_of(s):
            for name, value in (g.get("facts") or {}).items():
                values[name].append(float(value))
    return {
        name: {
            "n": len(vs),
            "mean": round(statistics.fmean(vs), 4),
            "games": round(sum(1 for v in vs if v) / len(vs), 4),
            "max": max(vs),
        }
        for name, vs in values.items()
        if vs
    }


def entrant_stats(summaries: Iterable[Mapping[str, Any]], count: int) -> list[Json]:
    """Each entrant's overall game score against everyone else."""
    tallies = [_Tally() for _ in range(count)]
    for s in summaries:
        if s["a"] == s["b"]:
            continue
        for g in _games_of(s):
            w = g.get("winner", TIE)
            tallies[s["a"]].add(w, s["seat_a"])
            tallies[s["b"]].add(w, 1 - s["seat_a"])
    return [t.rate().to_json() for t in tallies]


def aggregate(
    summaries: Sequence[Mapping[str, Any]], matchups: Sequence[tuple[int, int]], entrants: int
) -> Json:
    """All the statistics of a tournament from its per-game summaries."""
    turns = [
        float(g["turns"]) for s in summaries for g in _games_of(s) if g.get("turns") is not None
    ]
    return {
        "games": len(summaries),
        "matchups": [matchup_stats(summaries, a, b) for a, b in matchups],
        "entrants": entrant_stats(summaries, entrants),
        "first_player": first_player_stats(summaries),
        "sides": side_stats(summaries),
        "turns": distribution(turns),
        "cards": card_stats(summaries),
        "facts": fact_stats(summaries),
    }

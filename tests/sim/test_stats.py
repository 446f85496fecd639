"""Statistics: Wilson intervals, score rates, distributions, card events from a log."""

from __future__ import annotations

import math

import pytest

from kessen.sim import stats


@pytest.mark.parametrize(
    ("wins", "n", "expected"),
    [
        (50, 100, (0.4038, 0.5962)),
        (0, 10, (0.0, 0.2775)),
        (10, 10, (0.7225, 1.0)),
        (1, 2, (0.0945, 0.9055)),
    ],
)
def test_wilson_matches_known_values(wins: int, n: int, expected: tuple[float, float]) -> None:
    lo, hi = stats.wilson(wins, n)
    assert (round(lo, 4), round(hi, 4)) == expected


def test_wilson_is_inside_zero_one_and_shrinks_with_n() -> None:
    widths = []
    for n in (10, 100, 1000):
        lo, hi = stats.wilson(0.3 * n, n)
        assert 0 <= lo < 0.3 < hi <= 1
        widths.append(hi - lo)
    assert widths == sorted(widths, reverse=True)
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_rates_count_ties_as_half() -> None:
    rate = stats.Rate(n=4, wins=1, ties=2)
    assert rate.rate == 0.5
    assert rate.to_json()["ci95"] == [round(x, 4) for x in stats.wilson(2, 4)]
    assert stats.score(-1, 0) == stats.score(None, 1) == 0.5
    assert (stats.score(1, 1), stats.score(1, 0)) == (1.0, 0.0)


def test_distribution() -> None:
    d = stats.distribution([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    assert (d["n"], d["min"], d["max"], d["median"], d["mean"]) == (10, 1, 10, 5.5, 5.5)
    assert d["p25"] <= d["median"] <= d["p75"]
    assert sum(d["histogram"]["count"]) == 10
    assert stats.distribution([]) == {"n": 0}
    assert stats.distribution([4])["median"] == 4


def test_card_events_read_private_draws_per_game_and_seat() -> None:
    log = [
        {"kind": "game_start", "game": 1, "first": 0},
        {"kind": "draw", "seat": 0, "count": 2, "cards": ["a", "b"]},
        {"kind": "tactics_hand", "seat": 1, "count": 1, "cards": ["t"]},
        {"kind": "set", "seat": 1, "slot": 1, "card": "trap"},
        {"kind": "place", "seat": 0, "slot": 1, "card": "a"},
        {"kind": "activate", "seat": 1, "card": "trap", "link": 1},
        {"kind": "game_end", "winner": 0},
        {"kind": "game_start", "game": 2, "first": 1},
        {"kind": "tactics_draw", "seat": 0, "card": "t2"},
        {"kind": "deploy", "seat": 1, "card": "horn"},
        {"kind": "set", "seat": 1, "slot": 2},  # a redacted entry: ignored
    ]
    games = stats.card_events(log)
    assert len(games) == 2
    assert games[0][0] == {
        "draw": ["a", "b"],
        "set": [],
        "activate": [],
        "place": ["a"],
        "deploy": [],
    }
    assert games[0][1]["draw"] == ["t"] and games[0][1]["set"] == ["trap"]
    assert games[0][1]["activate"] == ["trap"]
    assert games[1][0]["draw"] == ["t2"] and games[1][1]["deploy"] == ["horn"]


def _summary(a: int, b: int, seat_a: int, winner: int, first: int) -> dict[str, object]:
    cards: list[dict[str, list[str]]] = [{k: [] for k in stats.CARD_EVENTS} for _ in range(2)]
    cards[0]["activate"] = ["x"]
    return {
        "a": a,
        "b": b,
        "seat_a": seat_a,
        "winner": winner,
        "steps": 10,
        "games": [
            {"winner": winner, "reason": "wipeout", "turns": 5, "first": first, "cards": cards}
        ],
    }


def test_matchup_first_player_entrant_and_card_stats() -> None:
    summaries = [
        _summary(0, 1, 0, 0, 0),  # a in seat 0 wins, seat 0 first
        _summary(0, 1, 1, 1, 0),  # a in seat 1 wins, seat 0 first (loses)
        _summary(0, 1, 0, 1, 1),  # a in seat 0 loses, seat 1 first (wins)
        _summary(0, 1, 1, -1, 1),  # a tie
    ]
    m = stats.matchup_stats(summaries, 0, 1)
    assert m["games"]["n"] == 4 and m["games"]["wins"] == 2 and m["games"]["ties"] == 1
    assert math.isclose(m["games"]["rate"], 0.625)
    assert m["first_player"]["wins"] == 2 and m["first_player"]["ties"] == 1
    assert m["reasons"] == {"wipeout": 4}
    entrants = stats.entrant_stats(summaries, 2)
    assert entrants[0]["rate"] + entrants[1]["rate"] == pytest.approx(1.0)
    cards = stats.card_stats(summaries)
    # "x" was activated by seat 0 in every game: seat 0 won 1, lost 2, tied 1.
    assert cards["x"]["activate"] == stats.Rate(4, 1, 1).to_json()
    total = stats.aggregate(summaries, [(0, 1)], 2)
    assert total["games"] == 4 and total["turns"]["median"] == 5

"""A/B comparisons (:mod:`kessen.sim.compare`): the tests and intervals against known values,
games paired by seed, and two runs of the same schedule on two card data."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kessen.engine import card_sets
from kessen.games.kobo import card_sets as kobo_sets
from kessen.sim.backends import InlineBackend
from kessen.sim.compare import (
    bootstrap_interval,
    compare,
    paired_games,
    run_pair,
    sign_test,
    two_proportions,
)
from kessen.sim.tournament import MemoryJournal, TournamentSpec


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(card_sets.CACHE_ENV, str(tmp_path / "set-cache"))
    yield


def test_the_sign_test_is_mcnemars_exact_test() -> None:
    # Binomial(10, 1/2): P(X <= 1) = 11/1024, two-sided 22/1024.
    assert math.isclose(sign_test(9, 1), 22 / 1024)
    assert math.isclose(sign_test(1, 9), 22 / 1024)
    assert sign_test(5, 5) == 1.0 and sign_test(0, 0) == 1.0
    # The normal approximation beyond the exact range agrees with the exact value.
    exact, approximate = sign_test(2550, 2450), sign_test(2551, 2450)  # 5000 and 5001 pairs
    assert 0.1 < exact < 0.2 and math.isclose(exact, approximate, rel_tol=0.1)
    assert math.isclose(two_proportions(50, 100, 50, 100), 1.0)
    assert two_proportions(30, 100, 60, 100) < 0.001
    lo, hi = bootstrap_interval([1.0] * 50 + [0.0] * 50, seed=1)
    assert lo < 0.5 < hi and (lo, hi) == bootstrap_interval([1.0] * 50 + [0.0] * 50, seed=1)


def _summary(index: int, winner: int | None, turns: int, first: int = 0) -> dict[str, Any]:
    return {
        "index": index,
        "seed": 100 + index,
        "a": 0,
        "b": 1,
        "seat_a": index % 2,
        "winner": winner,
        "games": [{"winner": winner, "turns": turns, "first": first, "cards": []}],
    }


def test_paired_games_and_the_comparison_of_synthetic_runs() -> None:
    # Entrant 0 wins every game in A and loses them all in B: a clear, significant change.
    a = {i: _summary(i, i % 2, 10) for i in range(20)}
    b = {i: _summary(i, 1 - i % 2, 12) for i in range(20)}
    assert len(paired_games(a, b)) == 20
    found = compare(a, b, [(0, 1)], ["x", "y"], names=("A", "B"))
    matchup = found["matchups"][0]
    assert matchup["rate_a"]["rate"] == 1.0 and matchup["rate_b"]["rate"] == 0.0
    # The entrants are named apart from the two runs' mean scores (A's 1.0, B's 0.0).
    assert matchup["pair"] == [0, 1] and (matchup["a"], matchup["b"]) == (1.0, 0.0)
    assert matchup["diff"] == -1.0 and matchup["test"]["changed"] == [0, 20]
    assert matchup["test"]["significant"] and matchup["test"]["p"] < 1e-5
    assert found["turns"]["diff"] == 2.0 and found["turns"]["test"]["significant"]
    assert found["significant"] == ["x vs y", "x", "y"]
    same = compare(a, a, [(0, 1)], ["x", "y"])
    assert same["matchups"][0]["test"]["p"] == 1.0 and same["significant"] == []
    other = dict(b)
    other[3] = {**b[3], "seed": 1}
    with pytest.raises(ValueError, match="not the same game"):
        paired_games(a, other)


def test_two_runs_of_one_schedule_on_two_card_data() -> None:
    data = kobo_sets.normalize(kobo_sets.shipped("v3"))
    same_text, same_hash = card_sets.canonical(card_sets.format_for("kobo"), data)
    for card in data["cards"]:
        if card["kind"] == "character":
            card["lv"] = 9 if card["slug"] in ("ashigaru-recruit", "spear-ashigaru") else 1
    text, digest = card_sets.canonical(card_sets.format_for("kobo"), data)
    card_sets.remember("kobo", same_text)
    card_sets.remember("kobo", text)
    base = TournamentSpec(
        decks=("swarm", "fortress"), players=("random",), games=6, seed=3, ruleset="kobo"
    )
    same = dataclasses.replace(base, card_set=f"same@{same_hash}")
    changed = dataclasses.replace(base, card_set=f"changed@{digest}")
    assert [g.seed for g in base.schedule()] == [g.seed for g in changed.schedule()]
    assert changed.schedule()[0].card_set_data == text
    seen: list[int] = []
    ra, rb, found = run_pair(
        base,
        same,
        (MemoryJournal("a"), MemoryJournal("b")),
        InlineBackend(),
        progress=lambda done, total, _entry: seen.append(done),
    )
    assert seen[-1] == 12 and found["paired_games"] == 6
    assert [s["final_hash"] for s in ra.summaries] != [s["final_hash"] for s in rb.summaries]
    assert [s["winner"] for s in ra.summaries] == [s["winner"] for s in rb.summaries]
    assert found["turns"]["diff"] == 0 and found["significant"] == []
    _, _, moved = run_pair(base, changed, (MemoryJournal("a"), MemoryJournal("c")), InlineBackend())
    assert moved["paired_games"] == 6 and moved["names"] == ["A", "B"]
    assert moved["cards"]  # per-card figures, compared unpaired
    with pytest.raises(ValueError, match="same spec"):
        run_pair(
            base,
            dataclasses.replace(changed, games=2),
            (MemoryJournal("a"), MemoryJournal("b")),
            InlineBackend(),
        )

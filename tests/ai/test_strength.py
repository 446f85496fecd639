"""Smoke test of the levels' strength on a few games (the real figures: docs/com-levels.md)."""

from __future__ import annotations

import pytest

from kessen.ai.tournament import Job, play_match, render_markdown, wilson


def test_wilson_interval() -> None:
    lo, hi = wilson(160, 200)
    assert 0.738 < lo < 0.740 and 0.849 < hi < 0.850
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("level", ["ismcts-easy", "ismcts-normal"])
def test_levels_beat_the_random_player(level: str) -> None:
    """Deterministic (seeded) games on mirror decks: a level wins at least 3 of 4."""
    won = lost = 0
    for index, deck in enumerate(("vanguard", "fortress", "tempo", "swarm")):
        job = Job("kobo", level, "random", index % 2, (deck, deck), 40 + index, 1, 1.0)
        result = play_match(job)
        won += result.games_a
        lost += result.games_b
        assert result.times_a
    assert won >= 3 and won > lost


def test_markdown_table_has_one_row_per_matchup() -> None:
    from kessen.ai.tournament import MatchResult, Tally

    tally = Tally("a", "b")
    tally.add(MatchResult("a", "b", games_a=2, games_b=1, match_a=True, times_a=[0.1]))
    text = render_markdown([tally.summary()])
    assert "| a vs b | 3 | 2–1 (0) |" in text

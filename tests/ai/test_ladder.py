"""The levels' ladder (`kessen ladder`): its matchups, the separability verdict of each step,
its tables, and its refusals of bad options."""

from __future__ import annotations

import pytest

from kessen.ai.ladder import GOAL, STEPS, ladder_main, matchups, render, verdict
from kessen.ai.tournament import MatchResult, Tally


def summary(a: str, b: str, won: int, lost: int) -> dict[str, object]:
    tally = Tally(a, b)
    tally.add(MatchResult(a, b, games_a=won, games_b=lost, times_a=[0.1], searched_a=[0.2]))
    return tally.summary()


def test_every_game_plays_each_step_and_the_goal_kobo_its_controls_too() -> None:
    steps = [m for m, _, _ in STEPS]
    assert matchups("twgp", 200) == [f"{m}@200" for m in [*steps, GOAL]]
    kobo = matchups("kobo", 10)
    assert "cheater-ismcts-strong:heuristic@10" in kobo and len(kobo) == len(steps) + 3


def test_a_step_holds_only_when_its_interval_leaves_one_half() -> None:
    assert verdict(summary("ismcts-normal", "heuristic", 130, 70), "above")  # 65%, n=200
    assert not verdict(summary("ismcts-normal", "heuristic", 110, 90), "above")  # 55%: 48-62
    assert verdict(summary("ismcts-easy", "heuristic", 70, 130), "below")
    assert not verdict(summary("ismcts-easy", "heuristic", 130, 70), "below")


def test_the_table_names_each_step_and_its_verdict() -> None:
    text = render(
        "twgp",
        [
            summary("ismcts-easy", "heuristic", 60, 140),
            summary("ismcts-normal", "heuristic", 105, 95),
            summary("ismcts-strong", "ismcts-normal", 150, 50),
            summary("ismcts-strong", "heuristic", 170, 30),
        ],
    )
    lines = text.splitlines()
    assert lines[0] == "### twgp"
    assert any("やさしい < 定石" in line and line.endswith("| yes |") for line in lines)
    assert any("定石 < ふつう" in line and line.endswith("| **no** |") for line in lines)
    assert any("ふつう < つよい" in line and line.endswith("| yes |") for line in lines)
    assert "ismcts-strong vs heuristic | 200 | 170–30 (0) | 85.0%" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rulesets", "chess"], "known: kobo, twgp, maken"),
        (["--games", "-1"], "--games: expected 0 or more"),
        (["--resume"], "--resume needs --json-dir"),
    ],
)
def test_bad_options_are_refused_before_any_game(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        ladder_main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err

"""Losing vitals, the vital effect and the loss timing (§2.7, §2.9 #21, #22, #41)."""

from __future__ import annotations

from tests.twgp.harness import Side, asked, board, last, legal, play, vital_poses


def test_there_is_only_one_vital_effect_in_the_game() -> None:
    s = board(Side(battle=["s5"], effect=1), Side())
    play(s, "battle", "direct 1", "accept", "flip 3", "done")
    assert vital_poses(s, 0) == ["lost", "hidden", "hidden"]
    assert vital_poses(s, 1) == ["hidden", "hidden", "effect"]


def test_the_last_vital_flipping_is_not_yet_a_loss() -> None:
    s = board(Side(battle=["s5"]), Side(lost=[1, 2]), turn=4)
    play(s, "battle", "direct 1", "accept")
    assert s.outcome is None and s.zero_turn[1] == 4
    play(s, "done")
    assert s.pending is not None


def test_more_damage_in_the_same_turn_is_ignored() -> None:
    s = board(Side(battle=["s5", "s6"]), Side(lost=[1, 2]), turn=4)
    play(s, "battle", "direct 1", "accept", "done", "direct 2", "accept")
    assert s.outcome is None and last(s, "damage_ignored")["seat"] == 1
    assert s.pending is not None and asked(s)[1] == "battle_window"


def test_damage_in_a_later_turn_loses_the_game() -> None:
    s = board(Side(battle=["s5"]), Side(lost=[1, 2, 3], zero_turn=2), turn=3)
    play(s, "battle", "direct 1", "accept")
    assert s.outcome is not None and s.outcome.winner == 0 and s.outcome.reason == "vitals"
    assert s.pending is None and legal(s) == []


def test_excess_damage_flips_only_what_is_left() -> None:
    s = board(
        Side(battle=["s8"], surge=["c4", "c5", "c6", "c7", "c8", "c9"]),
        Side(battle=["h3"], lost=[1, 2]),
        turn=2,
    )
    play(s, "battle", "surge-assault 1 1 2", "accept")
    assert vital_poses(s, 1) == ["lost", "lost", "effect"] and s.zero_turn[1] == 2
    assert s.outcome is None


def test_variant_a_loses_the_instant_the_last_vital_flips() -> None:
    s = board(Side(battle=["s5"]), Side(lost=[1, 2]), turn=4, config={"variantA": True})
    play(s, "battle", "direct 1", "accept")
    assert s.outcome is not None and s.outcome.winner == 0

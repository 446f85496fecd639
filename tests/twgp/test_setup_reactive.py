"""A1 set-up and A2 re-active (§2.4, §2.5, §2.9 #27)."""

from __future__ import annotations

from tests.twgp.harness import Side, U, asked, board, hand, legal, mark, play, pose, verbs


def test_the_opponent_sets_up_at_the_phase_start_within_the_hand_limit() -> None:
    s = board(Side(battle=["s2"]), Side(hand=["h5", "h6", "h7", "h8"], charge=["ha", "h2", "h3"]))
    assert s.pending is not None and (s.pending.seat, s.pending.prompt) == (1, "setup")
    assert legal(s) == ["setup 1", "setup 2", "setup 3", "done"]
    play(s, "setup 2", "setup 3")
    assert hand(s, 1) == sorted(["h5", "h6", "h7", "h8", "h2", "h3"])
    assert asked(s)[0] == 0 and asked(s)[1] == "build_window"


def test_the_turn_player_sets_up_at_any_moment_of_its_build_window_only() -> None:
    s = board(
        Side(battle=["s2"], charge=["s4", None, "s5"], pile=["s6", "s7"], hand=["c3"]), Side()
    )
    play(s, "charge-drive c3 2", "setup 1")
    assert {"setup 2", "setup 3", "setup 4"} <= set(legal(s))
    play(s, "battle")
    assert "setup" not in verbs(s)


def test_re_active_turns_save_and_gb_stacks_upright_in_the_build_window() -> None:
    s = board(Side(battle=[U("s2", pose="save"), U("s5", pose="gb", gb_turn=1)]), Side(), turn=3)
    assert {"reactive 1", "reactive 2"} <= set(legal(s))
    play(s, "reactive 1", "reactive 2")
    assert pose(s, 0, 1) == "active" and pose(s, 0, 2) == "active"
    assert mark(s, 0, 2) == -1
    play(s, "battle")
    assert "reactive" not in verbs(s)


def test_the_opponent_does_not_re_active() -> None:
    s = board(Side(battle=["s2"]), Side(battle=[U("h2", pose="save")], charge=["h3"]))
    assert legal(s) == ["setup 1", "done"]

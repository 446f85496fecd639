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


def test_both_set_up_at_the_phase_start_the_opponent_first() -> None:
    s = board(
        Side(battle=["s2"], charge=["s4", None, "s5"], pile=["s6", "s7"], hand=["c3"]),
        Side(charge=["h3"], hand=["h5"]),
    )
    assert asked(s) == (1, "setup")
    play(s, "setup 1")
    # the opponent's hand took its only charge card; now the turn player, before anything else
    assert asked(s) == (0, "setup")
    assert legal(s) == ["setup 1", "setup 3", "done"]
    play(s, "setup 3", "done")
    assert asked(s) == (0, "build_window")
    assert hand(s, 0) == sorted(["c3", "s5"])


def test_the_turn_player_cannot_set_up_after_its_first_other_action() -> None:
    me = Side(battle=["s2"], charge=["s4", None, "s5"], pile=["s6", "s7"], hand=["c3"])
    s = board(me, Side())
    play(s, "setup 1", "done", "charge-drive c3 2")
    # the drive downloaded two cards into the charge grid; they stay there this turn
    assert asked(s) == (0, "build_window")
    assert "setup" not in verbs(s)
    play(s, "battle")
    assert "setup" not in verbs(s)


def test_the_turn_player_set_up_prompt_is_skipped_when_nothing_can_be_set_up() -> None:
    full = board(Side(charge=["s4"], hand=["sa", "s2", "s3", "s5", "s6", "s7"]), Side())
    assert asked(full) == (0, "build_window")
    empty = board(Side(hand=["sa"]), Side())
    assert asked(empty) == (0, "build_window")


def test_setup_anytime_restores_set_up_at_any_moment_of_the_build_window() -> None:
    s = board(
        Side(battle=["s2"], charge=["s4", None, "s5"], pile=["s6", "s7"], hand=["c3"]),
        Side(),
        config={"setupAnytime": True},
    )
    assert asked(s) == (0, "build_window")  # no separate set-up prompt
    play(s, "charge-drive c3 2", "setup 1")
    assert {"setup 2", "setup 3", "setup 4"} <= set(legal(s))
    play(s, "setup 2", "setup 3", "setup 4")
    assert hand(s, 0) == sorted(["s4", "s6", "s7", "s5"])
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

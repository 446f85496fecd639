"""A6 attach weapons and A7 return or move weapons (§2.5, §2.9 #24, #26)."""

from __future__ import annotations

from tests.twgp.harness import Side, U, board, hand, legal, play, pow_at, verbs


def test_weapons_go_onto_active_non_zero_stacks_for_plus_one_each() -> None:
    s = board(
        Side(battle=["s3", U("s4", pose="save"), U("s2", pose="stealth")], hand=["sj", "sq"]),
        Side(),
        config={"jokers": True},
    )
    attaches = [a for a in legal(s) if a.startswith("attach")]
    assert attaches == ["attach sj 1", "attach sq 1"]
    play(s, "attach sj 1", "attach sq 1")
    assert pow_at(s, 0, 1) == 5


def test_a_zero_unit_carries_no_weapon() -> None:
    s = board(Side(battle=["joker-b"], hand=["sj"]), Side(), config={"jokers": True})
    assert "attach" not in verbs(s)


def test_weapons_return_or_move_only_with_no_attack_pending() -> None:
    s = board(
        Side(battle=[U("s5", weapons=["sj"]), "s6"], hand=["sa"]),
        Side(battle=[U("h3", weapons=["hj"]), "h2"], hand=["hq"]),
    )
    assert {"weapon-back sj", "weapon-move sj 2"} <= set(legal(s))
    play(s, "weapon-move sj 2")
    assert pow_at(s, 0, 2) == 7
    play(s, "weapon-back sj")
    assert hand(s, 0) == ["sa", "sj"]
    play(s, "battle", "assault 1 1")
    assert "attach hq 1" in legal(s)  # the defender may add weapons
    assert "weapon-back" not in verbs(s) and "weapon-move" not in verbs(s)


def test_returning_needs_room_in_the_hand() -> None:
    s = board(
        Side(battle=[U("s5", weapons=["sj"])], hand=["sa", "s2", "s3", "c2", "c3", "ca"]), Side()
    )
    assert "weapon-back" not in verbs(s)

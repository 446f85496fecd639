"""A13 charge boost and its resolution (§2.6.2), with re-charge at deck 0 (zero spurt)."""

from __future__ import annotations

from tests.twgp.harness import Side, U, asked, board, charge, hand, last, legal, play, pose, top


def test_a_boost_needs_a_stronger_active_target_and_at_least_one_download() -> None:
    s = board(
        Side(battle=["s3"], pile=["c2", "c4", "c5"]),
        Side(battle=["h6", U("h9", pose="save"), "h2"]),
    )
    play(s, "battle")
    boosts = [a for a in legal(s) if a.startswith("boost")]
    assert boosts == ["boost 1 1 1", "boost 1 1 2", "boost 1 1 3"]  # the pile holds 3


def test_downloads_reaching_the_target_discard_it_and_the_charge_stays() -> None:
    s = board(Side(battle=["s3"], pile=["c2", "c4", "c5"]), Side(battle=["h6"]))
    play(s, "battle", "boost 1 1 3", "accept")
    assert last(s, "result")["outcome"] == "attacker"
    assert top(s, 1, 1) is None and pose(s, 0, 1) == "save"
    assert charge(s, 0)[:3] == ["c2", "c4", "c5"] and s.hidden_vitals(1) == 3


def test_a_weapon_added_in_the_window_makes_the_boost_fail() -> None:
    s = board(Side(battle=["s3"], pile=["c2", "c4", "c5"]), Side(battle=["h6"], hand=["hj"]))
    play(s, "battle", "boost 1 1 3", "attach hj 1", "accept")
    assert last(s, "result")["outcome"] == "fail"
    assert top(s, 1, 1) == "h6" and pose(s, 1, 1) == "active" and pose(s, 0, 1) == "save"


def test_at_deck_zero_the_downloads_are_re_charged_from_the_hand() -> None:
    s = board(Side(battle=["s3"], pile=["c2"], hand=["s9", "c9"]), Side(battle=["h6"]))
    play(s, "battle")
    assert "boost 1 1 3" in legal(s) and "boost 1 1 4" not in legal(s)
    play(s, "boost 1 1 3")
    assert asked(s) == (0, "recharge")
    play(s, "recharge s9", "recharge c9")
    assert sorted(c for c in charge(s, 0) if c) == ["c2", "c9", "s9"] and hand(s, 0) == []
    assert asked(s)[1] == "response"
    play(s, "accept")
    assert top(s, 1, 1) is None


def test_zero_units_neither_boost_nor_are_boosted() -> None:
    s = board(
        Side(battle=["joker-b", "s2"], pile=["c2", "c4"]),
        Side(battle=["joker-r", "h5"]),
        config={"jokers": True},
    )
    play(s, "battle")
    boosts = {a.rsplit(" ", 1)[0] for a in legal(s) if a.startswith("boost")}
    assert boosts == {"boost 2 2"}


def test_a_target_no_longer_stronger_is_a_miss() -> None:
    """No rule of this subset lowers a power in the window; the check is kept for extensions,
    so the target's weapon is taken away by hand here."""
    s = board(Side(battle=["s3"], pile=["c2", "c4"]), Side(battle=[U("h3", weapons=["hj"])]))
    play(s, "battle", "boost 1 1 2")
    stack = s.square(1, 0)
    assert stack is not None
    s.battle[s.width] = stack._replace(attached=())
    s.zone(1, 4).append(stack.attached[0])
    play(s, "accept")
    assert last(s, "result")["outcome"] == "miss" and top(s, 1, 1) == "h3"
    assert pose(s, 0, 1) == "save"

"""A12 assault and its resolution (§2.6.1), surge-directs and the 00 restriction (§2.6.5)."""

from __future__ import annotations

from tests.twgp.harness import (
    Side,
    U,
    asked,
    board,
    last,
    legal,
    play,
    pose,
    top,
    vital_poses,
    zone,
)

SURGE3 = ["c4", "c5", "c6"]
SURGE6 = ["c4", "c5", "c6", "c7", "c8", "c9"]


def test_the_stronger_side_wins_and_the_survivor_turns_sideways() -> None:
    s = board(Side(battle=["s5"]), Side(battle=["h3"]))
    play(s, "battle", "assault 1 1", "accept")
    assert last(s, "result")["outcome"] == "attacker"
    assert top(s, 1, 1) is None and zone(s, 1, 4) == ["h3"] and pose(s, 0, 1) == "save"
    s = board(Side(battle=["s3"]), Side(battle=["h5"]))
    play(s, "battle", "assault 1 1", "accept")
    assert top(s, 0, 1) is None and pose(s, 1, 1) == "save"


def test_a_tie_discards_both() -> None:
    s = board(Side(battle=[U("s4", weapons=["sj"])]), Side(battle=["h5"]))
    play(s, "battle", "assault 1 1", "accept")
    assert last(s, "result")["outcome"] == "tie"
    assert top(s, 0, 1) is None and top(s, 1, 1) is None and zone(s, 0, 4) == ["s4", "sj"]


def test_any_non_stealth_target_may_be_assaulted() -> None:
    s = board(
        Side(battle=["s9"]),
        Side(battle=[U("h2", pose="save"), U("h3", pose="gb", gb_turn=1), U("ha", pose="stealth")]),
        turn=2,
    )
    play(s, "battle")
    targets = {a for a in legal(s) if a.startswith("assault")}
    assert targets == {"assault 1 1", "assault 1 2"}


def test_a_surge_assault_win_costs_the_defender_k_vitals() -> None:
    s = board(Side(battle=["s6"], surge=SURGE6), Side(battle=["h3"]))
    play(s, "battle")
    assert {"surge-assault 1 1 1", "surge-assault 1 1 2"} <= set(legal(s))
    play(s, "surge-assault 1 1 2", "accept")
    assert zone(s, 0, 4) == [] and len(zone(s, 0, 5)) == 6
    play(s, "flip 1", "flip 2")
    assert asked(s)[1] == "effect"  # both flip at once; one becomes the vital effect
    play(s, "effect 2", "done")
    assert vital_poses(s, 1) == ["lost", "effect", "hidden"]


def test_only_base_six_or_more_may_pay_and_a_tie_voids_the_payment() -> None:
    small = board(Side(battle=[U("s5", weapons=["sj", "sq"])], surge=SURGE3), Side(battle=["h3"]))
    play(small, "battle")
    assert not any(a.startswith("surge-assault") for a in legal(small))
    tie = board(Side(battle=["s6"], surge=SURGE3), Side(battle=[U("h5", weapons=["hj"])]))
    play(tie, "battle", "surge-assault 1 1 1", "accept")
    assert last(tie, "result")["outcome"] == "tie" and tie.hidden_vitals(1) == 3
    assert zone(tie, 0, 4) == ["s6"]  # spent surge is never refunded; the unit joins the surge


def test_the_defender_pays_surge_when_its_target_has_base_six() -> None:
    s = board(
        Side(battle=[U("s7", weapons=["sj"])]),
        Side(battle=[U("h6", weapons=["hj", "hq", "hk"])], surge=["d4", "d5", "d6"]),
    )
    play(s, "battle", "assault 1 1")
    assert "surge 1" in legal(s) and "surge 2" not in legal(s)
    play(s, "surge 1", "accept")
    assert last(s, "result")["outcome"] == "target"
    assert s.pending is not None and (s.pending.seat, s.pending.prompt) == (0, "order")
    play(s, "log-out s7")  # the discarded stack's order comes before the vital loss
    assert s.pending is not None and (s.pending.seat, s.pending.prompt) == (0, "vital")
    play(s, "flip 1")
    assert s.hidden_vitals(0) == 2


def test_the_zero_restriction_makes_every_assault_a_tie_without_discards() -> None:
    s = board(
        Side(battle=["s9"], surge=SURGE3),
        Side(battle=["joker-r", U("h8", pose="gb", gb_turn=1)]),
        config={"jokers": True},
        turn=2,
    )
    play(s, "battle", "surge-assault 1 1 1", "accept")
    assert last(s, "result")["outcome"] == "zero"
    assert pose(s, 0, 1) == "save" and pose(s, 1, 1) == "save" and s.hidden_vitals(1) == 3
    z = board(
        Side(battle=["joker-b"]),
        Side(battle=[U("h8", pose="gb", gb_turn=1)]),
        config={"jokers": True},
        turn=2,
    )
    play(z, "battle", "assault 1 1", "accept")
    assert pose(z, 1, 1) == "gb"

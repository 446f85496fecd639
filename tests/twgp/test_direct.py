"""A14 direct (§2.6.3): the Pow 01 vital, the tie at power 1, interrupters (§2.9 #9, #10, #30)."""

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


def test_a_direct_needs_an_opponent_without_active_stacks() -> None:
    s = board(Side(battle=["s5"]), Side(battle=["h2"]))
    play(s, "battle")
    assert "direct 1" not in legal(s)
    s = board(
        Side(battle=["s5"]),
        Side(battle=[U("h2", pose="save"), U("h3", pose="stealth"), U("h4", pose="gb", gb_turn=1)]),
        turn=2,
    )
    play(s, "battle")
    assert "direct 1" in legal(s)


def test_a_hit_flips_one_vital_and_the_attacker_turns_sideways() -> None:
    s = board(Side(battle=["s5"]), Side())
    play(s, "battle", "direct 1", "accept")
    assert last(s, "result")["outcome"] == "hit"
    assert asked(s) == (1, "vital")
    play(s, "flip 2", "done")
    assert vital_poses(s, 1) == ["hidden", "effect", "hidden"] and pose(s, 0, 1) == "save"


def test_a_power_one_direct_is_a_tie_that_still_costs_a_vital() -> None:
    s = board(Side(battle=["sa"]), Side())
    play(s, "battle", "direct 1", "accept", "flip 1", "done")
    assert top(s, 0, 1) is None and zone(s, 0, 4) == ["sa"] and s.hidden_vitals(1) == 2


def test_a_face_up_charge_drive_interrupts_and_the_direct_becomes_an_assault() -> None:
    s = board(Side(battle=["s5"]), Side(hand=["h2", "h3", "hj"], pile=["d5", "d6", "d7", "d8"]))
    play(s, "battle", "direct 1", "charge-drive h2 1")
    options = legal(s)
    assert not any(a.startswith("charge-drive") for a in options)
    assert "stealth-drive h3 2" in options and "attach hj 1" in options
    assert not any(a.startswith("surge") for a in options)
    play(s, "attach hj 1", "accept")
    assert last(s, "result") == {"type": "direct", "outcome": "attacker", "attack": 5, "defence": 3}
    assert s.hidden_vitals(1) == 3 and top(s, 1, 1) is None


def test_an_interrupter_that_wins_saves_the_vital_and_kills_the_attacker() -> None:
    s = board(Side(battle=["s2"]), Side(hand=["h3"], pile=["d5", "d6"]))
    play(s, "battle", "direct 1", "charge-drive h3 4", "accept")
    assert top(s, 0, 1) is None and pose(s, 1, 4) == "save" and s.hidden_vitals(1) == 3


def test_a_zero_unit_cannot_direct() -> None:
    s = board(Side(battle=["joker-b"]), Side(), config={"jokers": True})
    play(s, "battle")
    assert "direct 1" not in legal(s)

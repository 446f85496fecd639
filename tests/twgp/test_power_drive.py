"""A4 power drive and the lost lock-on of §2.6.4 (evasion)."""

from __future__ import annotations

from tests.twgp.harness import (
    Side,
    U,
    asked,
    board,
    last,
    legal,
    names,
    play,
    pose,
    pow_at,
    stack_at,
    top,
)


def test_drive_power_is_the_sum_of_the_top_units_and_frames_count_zero() -> None:
    s = board(Side(battle=[U("s5", frames=["s9"]), "s2"], hand=["s7", "s8", "s3"]), Side())
    options = [a for a in legal(s) if a.startswith("power-drive")]
    assert "power-drive 1 s7 2" in options  # 5 + 2 = 7
    assert "power-drive 1 s8 2" not in options  # the frame ♠9 counts 0
    assert not any(" s3 " in a for a in options)  # base ≤03 never power-drives
    play(s, "power-drive 1 s7 2")
    stack = stack_at(s, 0, 1)
    assert stack is not None and top(s, 0, 1) == "s7" and stack_at(s, 0, 2) is None
    assert names(stack.under) == ["s5", "s9", "s2"] and pose(s, 0, 1) == "active"


def test_materials_may_be_in_any_pose_but_the_core_is_active() -> None:
    s = board(
        Side(battle=[U("s2", pose="save"), U("s3", pose="stealth"), "sa"], hand=["s6"]), Side()
    )
    options = [a for a in legal(s) if a.startswith("power-drive")]
    assert "power-drive 3 s6 1 2" in options
    assert not any(a.startswith(("power-drive 1", "power-drive 2")) for a in options)


def test_weapons_gather_on_the_new_stack() -> None:
    s = board(
        Side(battle=[U("s4", weapons=["sj"]), U("s3", weapons=["sq", "sk"])], hand=["s7"]), Side()
    )
    play(s, "power-drive 1 s7 2")
    assert pow_at(s, 0, 1) == 10


def test_a_gb_material_may_keep_its_declaration() -> None:
    s = board(Side(battle=["s4", U("s3", pose="gb", gb_turn=1)], hand=["s7"]), Side(), turn=3)
    assert "power-drive-gb 1 s7 2" in legal(s)
    play(s, "power-drive-gb 1 s7 2")
    stack = stack_at(s, 0, 1)
    assert stack is not None and pose(s, 0, 1) == "gb" and stack.mark == 1


def test_evasion_a_target_used_as_material_loses_the_lock_on() -> None:
    s = board(Side(battle=["s9"], surge=["c4", "c5", "c6"]), Side(battle=["h4", "h3"], hand=["h7"]))
    play(s, "battle", "surge-assault 1 2 1")
    assert "power-drive 1 h7 2" in legal(s)
    play(s, "power-drive 1 h7 2")
    assert last(s, "result") == {"type": "assault", "outcome": "lost_lock_on"}
    assert pose(s, 0, 1) == "save" and top(s, 1, 1) == "h7"
    assert len(s.zone(0, 4)) == 0 and s.hidden_vitals(1) == 3  # the surge stays spent
    assert s.pending is not None and asked(s)[1] == "battle_window"


def test_an_engaged_unit_is_no_core_and_the_attacker_is_no_material() -> None:
    s = board(Side(battle=["s9"]), Side(battle=["h3", "h4"], hand=["h7"]))
    play(s, "battle", "assault 1 1")
    options = [a for a in legal(s) if a.startswith("power-drive")]
    assert options == ["power-drive 2 h7 1"]

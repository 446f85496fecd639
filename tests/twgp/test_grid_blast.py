"""A10 declare and A11 execute a G-blast (§2.5, §2.6.6, §2.9 #17, #18, #33-#35)."""

from __future__ import annotations

from tests.twgp.harness import (
    Side,
    U,
    asked,
    board,
    charge,
    last,
    legal,
    mark,
    play,
    pose,
    top,
    verbs,
    zone,
)

FOUR = ["sa", "s2", "c2", "c3"]


def test_declaring_needs_a_hand_of_three_or_less_and_no_other_declaration() -> None:
    s = board(Side(battle=["s5", "s6"], hand=["sa", "s2", "c2"]), Side())
    assert [a for a in legal(s) if a.startswith("declare-gb")] == ["declare-gb 1", "declare-gb 2"]
    play(s, "declare-gb 2")
    assert pose(s, 0, 2) == "gb" and mark(s, 0, 2) == 1
    assert "declare-gb" not in verbs(s) and "grid-blast" not in verbs(s)
    big = board(Side(battle=["s5"], hand=FOUR), Side())
    assert "declare-gb" not in verbs(big)


def test_execution_waits_for_a_turn_change_and_a_hand_of_four() -> None:
    s = board(Side(battle=[U("s7", pose="gb", gb_turn=1)], hand=["sa", "s2", "c2"]), Side(), turn=3)
    assert "grid-blast" not in verbs(s)
    s = board(Side(battle=[U("s7", pose="gb", gb_turn=3)], hand=FOUR), Side(), turn=3)
    assert "grid-blast" not in verbs(s)
    s = board(Side(battle=[U("s7", pose="gb", gb_turn=2)], hand=FOUR), Side(), turn=3)
    assert "grid-blast 1" in legal(s)


def test_execution_reveals_resets_and_discards_everything_up_to_its_power() -> None:
    s = board(
        Side(battle=[U("s7", pose="gb", gb_turn=1)], hand=FOUR),
        Side(
            battle=[
                "h5",
                "h9",
                U("h2", pose="stealth", secret=True),
                U("h4", pose="gb", gb_turn=2),
            ],
            charge=["ha", None, "h3"],
        ),
        turn=3,
    )
    play(s, "done", "grid-blast 1")
    assert pose(s, 0, 1) == "save"
    assert [top(s, 1, i) for i in (1, 2, 3, 4)] == [None, "h9", None, None]
    assert pose(s, 1, 2) == "active" and charge(s, 1) == [None] * 5
    assert sorted(zone(s, 1, 4)) == sorted(["h5", "h2", "h4", "ha", "h3"])
    assert last(s, "grid_blast")["revealed"] == ["h2"]
    assert s.hidden_vitals(1) == 3


def test_a_defender_blast_that_discards_the_attacker_cancels_the_attack() -> None:
    s = board(
        Side(battle=["s6"], surge=["c4", "c5", "c6"]),
        Side(battle=["h9", U("h8", pose="gb", gb_turn=1)], hand=["ha", "h2", "h3", "d2"]),
        turn=2,
    )
    play(s, "battle", "surge-assault 1 1 1")
    assert "grid-blast 2" in legal(s)
    play(s, "grid-blast 2")
    assert last(s, "result") == {"type": "assault", "outcome": "cancelled"}
    assert top(s, 0, 1) is None and s.hidden_vitals(1) == 3 and zone(s, 0, 4) == ["s6"]
    assert s.pending is not None and asked(s)[1] == "battle_window"


def test_a_gb_target_that_survives_an_assault_stays_declared() -> None:
    s = board(Side(battle=["s3"]), Side(battle=[U("h8", pose="gb", gb_turn=1)]), turn=2)
    play(s, "battle", "assault 1 1", "accept")
    assert pose(s, 1, 1) == "gb" and top(s, 0, 1) is None


def test_a_zero_unit_cannot_declare_and_a_blast_discards_it() -> None:
    s = board(Side(battle=["joker-b"], hand=["sa"]), Side(), config={"jokers": True})
    assert "declare-gb" not in verbs(s)
    s = board(
        Side(battle=[U("s4", pose="gb", gb_turn=1)], hand=FOUR),
        Side(battle=["joker-r"]),
        turn=3,
        config={"jokers": True},
    )
    play(s, "grid-blast 1")
    assert top(s, 1, 1) is None

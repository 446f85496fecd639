"""A8 stealth and A9 un-stealth (§2.5, §2.6.3, §2.9 #29, #30)."""

from __future__ import annotations

from tests.twgp.harness import Side, U, board, legal, play, pose, verbs


def test_stealth_needs_base_three_or_less_no_weapons_and_no_engagement() -> None:
    s = board(Side(battle=["s3", U("s2", weapons=["sj"]), "s4"]), Side(battle=["h5"]))
    assert [a for a in legal(s) if a.startswith("stealth ")] == ["stealth 1"]
    play(s, "stealth 1")
    assert pose(s, 0, 1) == "stealth"
    view = s.view(1)["players"][0]["battle"][0]
    assert view["unit"]["slug"] == "s3"  # it was face up: its identity stays public


def test_a_stealth_unit_cannot_be_assaulted_or_boosted() -> None:
    s = board(
        Side(battle=["s9"], pile=["c2", "c3"]),
        Side(battle=[U("h3", pose="stealth", secret=True), "h8"]),
    )
    play(s, "battle")
    attacks = [a for a in legal(s) if a.startswith(("assault", "boost"))]
    assert "assault 1 1" not in attacks and "assault 1 2" in attacks


def test_an_engaged_target_cannot_stealth() -> None:
    s = board(Side(battle=["s9"]), Side(battle=["h3", "h2"]))
    play(s, "battle", "assault 1 1")
    assert [a for a in legal(s) if a.startswith("stealth ")] == ["stealth 2"]


def test_un_stealth_is_legal_whenever_the_owner_holds_priority() -> None:
    s = board(Side(battle=[U("s2", pose="stealth")]), Side(battle=["h3"]))
    assert "unstealth 1" in legal(s)
    play(s, "battle")
    assert "unstealth 1" in legal(s)
    play(s, "end")
    assert "unstealth" not in verbs(s)  # the opponent's build window is not its own


def test_un_stealth_answers_a_direct_as_the_single_interrupter() -> None:
    s = board(
        Side(battle=["s5"]),
        Side(battle=[U("h2", pose="stealth", secret=True), U("h3", pose="stealth")]),
    )
    play(s, "battle", "direct 1")
    assert {"unstealth 1", "unstealth 2"} <= set(legal(s))
    play(s, "unstealth 2")
    assert "unstealth" not in verbs(s)
    assert not any(a.startswith("charge-drive") for a in legal(s))
    play(s, "accept")
    assert s.hidden_vitals(1) == 3 and pose(s, 1, 2) is None and pose(s, 0, 1) == "save"

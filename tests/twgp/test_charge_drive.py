"""A3 charge drive, the zero spurt and the stealth summon (§2.5, seed ゼロ・スパート)."""

from __future__ import annotations

from kessen.games.twgp.state import TwgpState
from tests.twgp.harness import Side, board, charge, hand, legal, play, pose, top


def _drives(s: TwgpState) -> list[str]:
    return [a for a in legal(s) if a.startswith(("charge-drive", "stealth-drive"))]


def test_a_low_unit_enters_an_empty_square_face_up_or_down_after_two_downloads() -> None:
    s = board(Side(hand=["s3", "s4", "sj"], pile=["c5", "c6", "c7"], battle=["s2"]), Side())
    drives = _drives(s)
    assert "charge-drive s3 2" in drives and "stealth-drive s3 5" in drives
    assert not any(" s4 " in d or " sj " in d for d in drives)
    assert not any(d.endswith(" 1") for d in drives)
    play(s, "charge-drive s3 2")
    assert top(s, 0, 2) == "s3" and pose(s, 0, 2) == "active"
    assert charge(s, 0)[:2] == ["c5", "c6"] and len(s.zone(0, 1)) == 1


def test_a_stealth_summon_is_face_down_and_hidden_from_the_opponent() -> None:
    s = board(Side(hand=["sa"], pile=["c5", "c6"]), Side())
    play(s, "stealth-drive sa 3")
    assert pose(s, 0, 3) == "stealth"
    theirs = s.view(1)["players"][0]["battle"][2]
    assert theirs["unit"] is None and theirs["pow"] is None
    assert s.view(0)["players"][0]["battle"][2]["unit"]["slug"] == "sa"


def test_deck_one_downloads_one_and_deck_zero_downloads_none() -> None:
    one = board(Side(hand=["sa", "s2"], pile=["c5"]), Side())
    play(one, "charge-drive sa 1")
    assert charge(one, 0)[0] == "c5" and not one.zone(0, 1)
    play(one, "charge-drive s2 2")  # zero spurt: no download needed
    assert top(one, 0, 2) == "s2" and charge(one, 0)[1] is None


def test_the_downloads_need_empty_charge_squares() -> None:
    full = Side(hand=["sa"], pile=["c5", "c6"], charge=["s5", "s6", "s7", "s8"])
    s = board(full, Side())
    play(s, "done")  # no set-up: one empty charge square
    assert _drives(s) == []
    s = board(full, Side())
    play(s, "setup 1", "done")
    assert "charge-drive sa 1" in _drives(s)


def test_charge_drive_is_legal_in_battle_and_response_windows() -> None:
    s = board(
        Side(hand=["sa", "s2"], pile=["c5", "c6", "c7", "c8"], battle=["s9"]),
        Side(hand=["ha"], pile=["h5", "h6"], battle=["h4"]),
    )
    play(s, "battle")
    assert "charge-drive sa 2" in legal(s)
    play(s, "assault 1 1")
    assert "charge-drive ha 2" in legal(s) and "stealth-drive ha 2" in legal(s)
    play(s, "charge-drive ha 2", "accept")
    assert hand(s, 1) == [] and top(s, 1, 2) == "ha"

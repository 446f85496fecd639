"""A16 reload (switch ``buildReload``, §2.5, §2.9 #42)."""

from __future__ import annotations

from kessen.games.twgp.state import PILE
from tests.twgp.harness import Side, board, hand, legal, names, play, verbs

FULL = ["s4", "s5", "s6", "s7", "s8", "s9"]


def test_reload_is_off_by_default() -> None:
    s = board(Side(hand=FULL, pile=["sa", "s2", "s3"]), Side())
    assert "reload-bottom" not in verbs(s)


def test_put_m_cards_under_the_pile_and_take_up_to_min_m_3() -> None:
    s = board(Side(hand=FULL, pile=["sa", "s2", "s3"]), Side(), config={"buildReload": True})
    play(s, "reload-bottom s9", "reload-bottom s8")
    assert legal(s)[-3:] == ["reload-take 0", "reload-take 1", "reload-take 2"]
    play(s, "reload-bottom s7", "reload-bottom s6")
    assert "reload-take 3" in legal(s) and "reload-take 4" not in legal(s)
    play(s, "reload-take 1")
    assert hand(s, 0) == ["s4", "s5", "sa"]
    assert names(s.zone(0, PILE)) == ["s6", "s7", "s8", "s9", "s3", "s2"]  # bottom first
    assert "reload-bottom" not in verbs(s)  # once per turn


def test_reload_belongs_to_the_build_window() -> None:
    s = board(Side(hand=FULL, pile=["sa"]), Side(), config={"buildReload": True})
    play(s, "battle")
    assert "reload-bottom" not in verbs(s)

"""A15 end turn, the quiet-turn draw and the turn cap (§2.4, §2.7, §2.9 #36)."""

from __future__ import annotations

from tests.twgp.harness import Side, board, legal, play


def test_ending_passes_the_turn() -> None:
    s = board(Side(battle=["s2"]), Side(battle=["h2"]))
    play(s, "battle")
    assert legal(s)[-1] == "end"
    play(s, "end")
    assert (s.turn, s.turn_player) == (2, 1)


def test_twelve_quiet_turns_are_a_draw() -> None:
    s = board(Side(battle=["s2"]), Side(battle=["h2"]))
    for _ in range(11):
        play(s, "battle", "end")
    assert s.outcome is None and s.quiet == 11
    play(s, "battle", "end")
    assert s.outcome is not None and s.outcome.winner is None and s.outcome.reason == "quiet"


def test_a_discard_or_a_lost_vital_resets_the_quiet_count() -> None:
    s = board(Side(battle=["s5"]), Side(battle=["h2", "h3"]))
    play(s, "battle", "end", "battle", "end")
    assert s.quiet == 2
    play(s, "battle", "assault 1 1", "accept", "end")
    assert s.quiet == 0


def test_the_turn_cap_is_a_draw() -> None:
    s = board(Side(battle=["s2"]), Side(battle=["h2"]), config={"turnLimit": 3})
    play(s, "battle", "end", "battle", "end", "battle", "end")
    assert s.outcome is not None and s.outcome.reason == "turn_limit"

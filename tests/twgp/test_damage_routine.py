"""The damage routine (§2.8): five optional steps, each at most once, in any order."""

from __future__ import annotations

from kessen.games.twgp.state import PILE, TwgpState
from tests.twgp.harness import Side, U, board, charge, hand, legal, names, play, pose, top, verbs


def _damaged() -> TwgpState:
    s = board(
        Side(battle=["s5"]),
        Side(
            battle=[U("h4", pose="save")],
            hand=["h2", "h9"],
            pile=["d2", "d3", "d4", "d5"],
            charge=["ha"],
        ),
    )
    play(s, "done", "battle", "direct 1", "accept", "flip 1")
    assert s.pending is not None and (s.pending.seat, s.pending.prompt) == (1, "damage")
    return s


def test_every_step_is_offered_until_done() -> None:
    s = _damaged()
    v = verbs(s)
    assert {"reload", "full-charge", "setup", "charge-drive", "reactive", "done"} <= v


def test_starting_another_step_finishes_the_current_one() -> None:
    s = _damaged()
    play(s, "reactive 1", "setup 1")
    assert pose(s, 1, 1) == "active" and "reactive" not in verbs(s)
    play(s, "charge-drive h2 2")
    assert "setup" not in verbs(s)
    play(s, "full-charge 2")
    assert "charge-drive" not in verbs(s) and "full-charge" not in verbs(s)
    play(s, "done")
    assert s.pending is not None and (s.pending.prompt, s.pending.seat) == ("battle_window", 0)
    assert top(s, 1, 2) == "h2" and hand(s, 1) == ["h9", "ha"]
    assert sum(1 for c in charge(s, 1) if c) == 4


def test_reload_swaps_hand_cards_with_the_pile_top_and_may_shuffle() -> None:
    s = _damaged()
    play(s, "reload h9")
    assert hand(s, 1) == ["d2", "h2"] and names(s.zone(1, PILE)[:1]) == ["h9"]  # the bottom
    assert "shuffle" in legal(s)
    play(s, "shuffle")
    assert "reload" not in verbs(s) and "shuffle" not in verbs(s)


def test_the_routine_may_come_in_the_damaged_players_own_turn() -> None:
    s = board(
        Side(battle=["s5"], hand=["sa"], pile=["c2", "c3"]),
        Side(battle=[U("h6", weapons=["hj"])], surge=["d4", "d5", "d6"]),
    )
    play(s, "battle", "assault 1 1", "surge 1", "accept", "flip 1")
    assert s.pending is not None and (s.pending.seat, s.pending.prompt) == (0, "damage")
    play(s, "charge-drive sa 1", "done")
    assert s.pending is not None and (s.pending.prompt, s.pending.seat) == ("battle_window", 0)

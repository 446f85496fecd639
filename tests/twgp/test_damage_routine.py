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


def test_reload_puts_cards_first_then_takes_as_many_from_the_top_and_may_shuffle() -> None:
    s = _damaged()
    play(s, "reload h9")
    assert s.pending is not None and s.pending.prompt == "damage_reload"
    assert hand(s, 1) == ["h2"] and names(s.zone(1, PILE)[:1]) == ["h9"]  # the bottom
    # Within the reload: more cards to the bottom, or take exactly as many as were put.
    assert legal(s) == ["reload h2", "reload-take 1"]
    play(s, "reload h2")
    assert legal(s) == ["reload-take 2"]  # nothing left in the hand to put
    play(s, "reload-take 2")
    assert hand(s, 1) == ["d2", "d3"]  # the old top two, not the cards just put
    assert names(s.zone(1, PILE)[:2]) == ["h2", "h9"]
    assert s.pending is not None and s.pending.prompt == "damage"
    assert "reload" not in verbs(s) and "shuffle" in legal(s)
    play(s, "shuffle")
    assert "reload" not in verbs(s) and "shuffle" not in verbs(s)


def test_reload_happens_once_per_routine() -> None:
    """The taken cards cannot go back: a second reload in the same routine is not offered,
    whether the step ends by taking, by shuffling or by starting another step."""
    for after in ([], ["shuffle"], ["reactive 1"]):
        s = _damaged()
        play(s, "reload h9", "reload-take 1", *after)
        assert "reload" not in verbs(s), after
        assert hand(s, 1) == ["d2", "h2"]
        assert len(s.zone(1, PILE)) == 4


def test_no_other_step_starts_inside_a_reload() -> None:
    s = _damaged()
    play(s, "reload h9")
    assert verbs(s) == {"reload", "reload-take"}  # no done, no other step until the take


def test_strict_matrix05_caps_a_reload_at_the_deck_cards_left() -> None:
    s = board(
        Side(battle=["s5"]),
        Side(hand=["h2", "h9", "h8", "h7"], pile=["d2", "d3", "d4", "d5", "d6"]),
        config={"strictMatrix05": True},
    )
    play(s, "battle", "direct 1", "accept", "flip 1")
    play(s, "reload h9", "reload h8", "reload h7")
    assert legal(s) == ["reload-take 3"]  # 3 deck cards per turn in all


def test_the_routine_may_come_in_the_damaged_players_own_turn() -> None:
    s = board(
        Side(battle=["s5"], hand=["sa"], pile=["c2", "c3"]),
        Side(battle=[U("h6", weapons=["hj"])], surge=["d4", "d5", "d6"]),
    )
    play(s, "battle", "assault 1 1", "surge 1", "accept", "flip 1")
    assert s.pending is not None and (s.pending.seat, s.pending.prompt) == (0, "damage")
    play(s, "charge-drive sa 1", "done")
    assert s.pending is not None and (s.pending.prompt, s.pending.seat) == ("battle_window", 0)

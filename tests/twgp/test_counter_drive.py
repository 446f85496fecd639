"""A5 counter drive (§2.5, §2.9 #11, #12)."""

from __future__ import annotations

from tests.twgp.harness import Side, U, board, hand, last, legal, names, play, pow_at, stack_at, top


def _counters(s: object) -> list[str]:
    return [a for a in legal(s) if a.startswith("counter-drive")]  # type: ignore[arg-type]


def test_the_run_contains_the_target_and_caps_the_summoned_base() -> None:
    s = board(Side(battle=["s6"]), Side(battle=["h3"], hand=["h2", "h4", "d5", "h9", "d9"]))
    play(s, "battle", "assault 1 1")
    options = _counters(s)
    assert "counter-drive h9 h2 h4 d5" in options  # 2+3+4+5 = 14 ≥ 9
    assert "counter-drive h9 h4" not in options  # 3+4 = 7 < 9
    assert "counter-drive d5 h4" in options  # 7 ≥ 5
    play(s, "counter-drive h9 h2 h4 d5", "accept")
    stack = stack_at(s, 1, 1)
    assert stack is not None and top(s, 1, 1) == "h9"
    assert names(stack.under) == ["h3", "h2", "h4", "d5"]
    assert last(s, "result")["outcome"] == "target" and hand(s, 1) == ["d9"]


def test_each_value_once_and_grid_materials_bring_their_weapons() -> None:
    s = board(Side(battle=["s8"]), Side(battle=["h3", U("h4", weapons=["hj"])], hand=["d4", "d7"]))
    play(s, "battle", "assault 1 1")
    options = _counters(s)
    assert "counter-drive d7 2" in options and "counter-drive d7 d4" in options
    assert "counter-drive d7 d4 2" not in options  # the value 4 twice
    play(s, "counter-drive d7 2")
    assert pow_at(s, 1, 1) == 8 and stack_at(s, 1, 2) is None


def test_only_a_weaker_active_target_of_an_assault_may_counter_drive() -> None:
    stronger = board(Side(battle=["s3"]), Side(battle=["h4"], hand=["h5", "h9"]))
    play(stronger, "battle", "assault 1 1")
    assert _counters(stronger) == []
    saved = board(Side(battle=["s6"]), Side(battle=[U("h3", pose="save")], hand=["h4", "h7"]))
    play(saved, "battle", "assault 1 1")
    assert _counters(saved) == []
    boost = board(Side(battle=["s3"], pile=["c2", "c4"]), Side(battle=["h5"], hand=["h6", "h9"]))
    play(boost, "battle", "boost 1 1 2")
    assert _counters(boost) == []

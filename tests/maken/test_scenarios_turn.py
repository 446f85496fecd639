"""Scenarios M01–M34 of maken.md §16: decks, setup, the turn, the exchange, judge, down, RV."""

from __future__ import annotations

import pytest

from kessen.games.maken.cards import DECKS, check_deck
from kessen.games.maken.config import ConfigError, parse_config
from kessen.games.maken.game import new_game
from kessen.games.maken.heuristic import policy
from kessen.games.maken.state import HIT, MakenState
from tests.maken.build import Side, act, deck, exchange, legal, names, position


def _damage(state: MakenState) -> list[int]:
    return [e.public["d"] for e in state.log if e.kind == "damage"]


def test_M01_deck_validation() -> None:
    """49 or 51 cards, a 4th copy or an 11th helper: rejected; the starter decks pass."""
    assert all(not check_deck(d.model_dump()) for d in DECKS.values())
    assert check_deck(deck("SO", {"GE04": 1}, {})) == ["the deck has 49 cards, not 50"]
    assert check_deck(deck("SO", {}, {"GE04": 1})) == ["the deck has 51 cards, not 50"]
    assert check_deck(deck("SO", {"GE04": 1}, {"SO02": 1})) == ["一閃: 4 copies (at most 3)"]
    eleven = deck("SO", {"SO05": 3, "SO06": 2, "GE04": 1}, {"RI02": 3, "RI03": 3})
    assert check_deck(eleven) == ["11 helper cards (at most 10)"]
    ten = deck("SO", {"SO05": 3, "SO06": 2}, {"RI02": 3, "RI03": 2})
    assert check_deck(ten) == []
    with pytest.raises(ConfigError, match="11 helper cards"):
        parse_config({"decks": [eleven, "GA"]})


def test_M02_setup() -> None:
    """LP 3, hand 5, stamina 42 each; the same seed gives the same TP and hands."""
    a, b = new_game({}, 7), new_game({}, 7)
    for seat in (0, 1):
        assert (len(a.lp[seat]), len(a.hand[seat]), len(a.stamina[seat])) == (3, 5, 42)
    assert a.tp == b.tp and a.hand == b.hand
    tps = {new_game({}, seed).tp for seed in range(20)}
    assert tps == {0, 1}


def test_M03_mulligan() -> None:
    """TP first; hand back, reshuffled, 5 drawn, LP untouched; once each; 非TP after TP."""
    s = new_game({"firstPlayer": 1}, 3)
    lp, old = list(s.lp[1]), list(s.hand[1])
    assert s.pending is not None and s.pending.seat == 1
    act(s, "mulligan")
    assert s.lp[1] == lp and len(s.hand[1]) == 5 and len(s.stamina[1]) == 42
    assert s.hand[1] != old
    assert s.pending is not None and (s.pending.seat, s.pending.prompt) == (0, "mulligan")
    act(s, "keep")
    assert (s.phase, s.turn, s.tp) == ("draw", 1, 1)


def test_M04_draw_limits() -> None:
    """Turn 1: n in {1, 2}; turn 2: {1, 2, 3}; never 0."""
    s = new_game({"firstPlayer": 0}, 4)
    act(s, "keep", "keep")
    assert legal(s) == ["draw 1", "draw 2"]
    while s.turn < 2:
        assert s.pending is not None
        s.apply(policy(s, s.pending.seat, s.legal_actions()))
    assert legal(s) == ["draw 1", "draw 2", "draw 3"]


def test_M05_last_stamina_card() -> None:
    """Stamina 1: only draw 1."""
    s = position(Side(stamina=1), Side())
    assert legal(s) == ["draw 1"]


def test_M06_exhaustion_in_draw_phase() -> None:
    """Stamina 0: TP is downed, damage and dust into the stamina, no draw this turn."""
    s = position(Side(hand=["SO03"], stamina=0, damage=3, dust=["SO02", "SO04"]), Side())
    assert (len(s.lp[0]), len(s.hand[0]), s.phase) == (2, 2, "pre")
    # Everything but the 2 LP and 2 hand cards (damage 3, dust 43) is now the stamina.
    assert (len(s.stamina[0]), len(s.damage[0]), len(s.dust[0])) == (46, 0, 0)
    assert [e.public["exhaustion"] for e in s.log if e.kind == "down"] == [True]
    assert not s.defenceless(0)


def test_M07_support_cap() -> None:
    """Six support cards (set or opened): no set; after a clear there is; end always."""
    full = [
        ("SO10", False),
        ("SO10", False),
        ("SO11", False),
        ("SO11", True),
        ("SO12", False),
        ("GE03", True),
    ]
    s = position(Side(hand=["SO10"], support=full), Side())
    act(s, "draw 1")
    assert "set so10" not in legal(s) and "end" in legal(s)
    act(s, "clear-set so12")
    assert "set so10" in legal(s) and "end" in legal(s)
    none = position(Side(hand=["SO10"], support=full), Side(), config={"supportCap": None})
    act(none, "draw 1")
    assert "set so10" in legal(none)


def test_M08_no_first_bet() -> None:
    """TP holding only SO01 and SO06: no FB, no exchange; the turn passes."""
    s = position(Side(hand=["SO01", "SO06"], gauge=5, stamina_top=["SO10"]), Side())
    act(s, "draw 1", "end")
    assert any(e.kind == "no-fb" for e in s.log)
    assert (s.turn, s.tp, s.phase) == (6, 1, "draw")


def test_M09_front_zero_against_defenceless() -> None:
    """非TP 無防備, TP gauge 2: SO01 (front 0) is a legal FB."""
    s = position(Side(hand=["SO01"], gauge=2), Side())
    act(s, "draw 1", "end")
    assert "fb so01" not in legal(s)
    s = position(Side(hand=["SO01"], gauge=2), Side())
    s.defenceless_until[1] = s.turn
    act(s, "draw 1", "end")
    assert "fb so01" in legal(s)


def test_M10_ambush() -> None:
    """MI06 0→3 【奇襲】 is a legal FB."""
    s = position(Side(hand=["MI06", "MI05"]), Side(), decks=("MI", "GA"))
    act(s, "draw 1", "end")
    assert "fb mi06" in legal(s) and "fb mi05" not in legal(s)


def test_M11_speed_and_distance() -> None:
    """Against a 4/2 top: GA06 and SO04 pass (equal passes); GA03 (speed), RI06 (front) fail."""
    p2 = deck("GA", {"MI07": 2}, {"RI06": 2})
    s = position(
        Side(field=[("SO03", {"data": [4, 2, 2, 4, 0, 1]})]),
        Side(hand=["GA06", "GA03", "SO04", "RI06"], gauge=5),
        decks=("SO", p2),
    )
    exchange(s, 1)
    options = legal(s)
    assert "attack ga06" in options and "attack so04" in options
    assert "attack ga03" not in options and "attack ri06" not in options


def test_M12_back_distance_modifier() -> None:
    """P1 opened SO11 雪原: P2's MI05 locks as 3→2, so P1 may answer with front 2."""
    s = position(
        Side(field=["SO05"], support=[("SO11", True)], hand=["SO03"]),
        Side(hand=["MI05"], gauge=3),
        decks=("SO", "MI"),
    )
    exchange(s, 1)
    act(s, "attack mi05")
    assert s.field[1][-1][2:6] == [3, 3, 2, 6]
    assert "attack so03" in legal(s)


@pytest.mark.parametrize("down", [False, True])
def test_M13_no_duplicates(down: bool) -> None:
    """SO03 in P1's field (face-up or face-down): neither SO03 nor a DA of SO03 is legal."""
    field = [("SO03", {"down": 1}), "SO02"] if down else ["SO03"]
    s = position(Side(field=field, hand=["SO03", "SO03", "SO04"]), Side(field=["GA01"]))
    exchange(s, 0, guarding=1)
    assert not [a for a in legal(s) if "so03" in a]
    assert "attack so04" in legal(s)


def test_M14_forcing_has_no_check() -> None:
    """P1 forcing against a 6/1 top, gauge 2: SO01 2/0 is legal."""
    s = position(
        Side(hand=["SO01"], gauge=2, field=["SO02"]),
        Side(field=[("GA03", {"data": [6, 1, 1, 2, 0, 1]})]),
    )
    exchange(s, 0, guarding=1)
    assert "attack so01" in legal(s)


def test_M15_guard() -> None:
    """Guarding from 拮抗: P2 guarding, P1 forcing and to act."""
    s = position(Side(field=["SO03"]), Side(field=["GA06"]))
    exchange(s, 1)
    act(s, "guard")
    assert (s.sit, s.guarding, s.actor) == ("guard", 1, 0)


def test_M16_guard_cancel() -> None:
    """Guarding against SO01 2/0: GE01 is a legal GC, GA02 is not; GC → judge GC, P2 hits."""
    s = position(Side(field=["SO01"]), Side(hand=["GE01", "GA02"], field=["GA06"]))
    exchange(s, 1, guarding=1)
    assert "gc ge01" in legal(s) and "gc ga02" not in legal(s)
    act(s, "gc ge01")
    assert s.judge is not None and (s.judge["kind"], s.judge["hitter"]) == ("GC", 1)
    assert s.phase == "bonus" and s.field[1][-1][HIT] == 1


def test_M17_guard_break_needs_more() -> None:
    """Totals 9 vs 9: no GB; 10 vs 9: GB."""
    nine = [("SO03", {"data": [3, 2, 2, 9, 0, 1]})]
    ten = [("SO03", {"data": [3, 2, 2, 10, 0, 1]})]
    theirs = [("GA06", {"data": [4, 2, 2, 9, 0, 0]})]
    s = exchange(position(Side(field=nine), Side(field=theirs)), 0, guarding=1)
    assert "gb" not in legal(s)
    s = exchange(position(Side(field=ten), Side(field=theirs)), 0, guarding=1)
    assert "gb" in legal(s)


def test_M18_stop() -> None:
    """A forcing player stops: no damage, both fields dusted, situations cleared."""
    s = position(Side(field=["SO03", "SO02"]), Side(field=["GA06"], damage=2))
    exchange(s, 0, guarding=1)
    act(s, "judge")
    assert s.field == [[], []] and len(s.damage[1]) == 2 and not _damage(s)
    assert names(s, s.dust[0])[-2:] == ["SO03", "SO02"] and s.sit == "none"


def test_M19_guarding_options() -> None:
    """A guarding player: only GC and guard, no judge."""
    s = position(Side(field=["SO01"]), Side(hand=["GE01", "GA02"], field=["GA06"]))
    exchange(s, 1, guarding=1)
    assert legal(s) == ["gc ge01", "guard"]


def test_M20_accept() -> None:
    """P2 accepts SO03 (atk 4), not 無防備: d = 4, no bonus; TP alternates."""
    s = position(Side(field=["SO03"], hand=["SO05"], gauge=3), Side(field=["GA06"]))
    exchange(s, 1)
    act(s, "judge")
    assert _damage(s) == [4] and len(s.damage[1]) == 4
    assert (s.turn, s.tp) == (6, 1)


def test_M21_gc_bonus_sum() -> None:
    """P2's GC with GA06 (3), bonus SO05 (5; helper 1 + 2): d = 8, both hit."""
    p2 = deck("GA", {"SO04": 1}, {"SO05": 1})
    s = position(
        Side(field=["SO03"]), Side(hand=["GA06", "SO05"], gauge=3, field=["GA01"]), decks=("SO", p2)
    )
    exchange(s, 1, guarding=1)
    act(s, "gc ga06", "bonus so05", "pay-rest-from-gauge")
    assert _damage(s) == [8]


def test_M22_guard_break_damage() -> None:
    """SO03 4, DA パワフル SO09 (3 down, 5 up), SO02 2 against a total of 5: d = 9."""
    mine = [
        "SO03",
        ("SO09", {"down": 1, "data": [5, 2, 2, 3, 0, 0]}),
        ("SO09", {"data": [5, 2, 2, 5, 0, 0]}),
        "SO02",
    ]
    s = position(Side(field=mine), Side(field=["GA06", "GA03"]))
    exchange(s, 0, guarding=1)
    act(s, "gb", "decline")
    assert _damage(s) == [9]


def test_M23_bonus_on_defenceless() -> None:
    """A 無防備 loser: one bonus bet, no speed/distance check but paid; no second one."""
    s = position(Side(field=["SO03"], hand=["SO05", "SO01"]), Side())
    s.defenceless_until[1] = s.turn
    exchange(s, 1)
    act(s, "judge")
    assert s.phase == "bonus"
    assert legal(s) == ["bonus so05", "decline"]  # SO01 (cost 2) is not payable
    act(s, "bonus so05", "cancel so03")
    assert s.phase != "bonus" and len(_damage(s)) == 1
    two = position(
        Side(field=["SO03"], hand=["SO05", "SO02"], gauge=2), Side(), config={"bonusBetMax": 2}
    )
    two.defenceless_until[1] = two.turn
    exchange(two, 1)
    act(two, "judge", "bonus so05", "pay-rest-from-gauge")
    assert two.phase == "bonus"


def test_M24_cancelled_hit_card_deals_nothing() -> None:
    """The hit card X (atk 3) cancelled to pay the bonus card (atk 5): d = 5."""
    s = position(Side(field=["SO08"], hand=["SO05"]), Side())
    s.defenceless_until[1] = s.turn
    exchange(s, 1)
    act(s, "judge", "bonus so05", "cancel so08")
    assert _damage(s) == [5]
    p2 = deck("GA", {"SO04": 1}, {"SO05": 1})
    s = position(
        Side(field=["SO03"]), Side(hand=["GA06", "SO05"], gauge=2, field=["GA01"]), decks=("SO", p2)
    )
    exchange(s, 1, guarding=1)
    act(s, "gc ga06", "bonus so05", "cancel ga06", "pay-rest-from-gauge")
    assert _damage(s) == [5]


def test_M25_down_stops_placement() -> None:
    """Damage 7, stamina 20, d = 6: 3 placed, down, 3 ignored; stamina 17 → 27."""
    s = position(Side(field=[("SO03", {"data": [3, 2, 2, 6, 0, 1]})]), Side(damage=7))
    exchange(s, 1)
    act(s, "judge")
    placed = [e.public["n"] for e in s.log if e.kind == "placed"]
    assert placed == [3] and len(s.stamina[1]) == 27 and len(s.lp[1]) == 2


def test_M26_exhaustion_by_damage() -> None:
    """Damage 3, stamina 2, d = 5: 2 placed, then an exhaustion down with the dust refresh."""
    s = position(Side(field=[("SO03", {"data": [3, 2, 2, 5, 0, 1]})]), Side(damage=3, stamina=2))
    dust = len(s.dust[1])
    exchange(s, 1)
    act(s, "judge")
    assert [e.public["n"] for e in s.log if e.kind == "placed"] == [2]
    assert any(e.kind == "down" and e.public["exhaustion"] for e in s.log)
    assert (len(s.stamina[1]), len(s.damage[1]), len(s.dust[1])) == (5 + dust, 0, 0)


def test_M27_last_lp_loses() -> None:
    """P2 with LP 1 downed: P2 loses at once."""
    s = position(Side(field=["SO03"]), Side(lp=1, damage=8))
    exchange(s, 1)
    act(s, "judge")
    assert s.outcome is not None and s.outcome.winner == 0 and s.pending is None


def _down_p2(turn: int = 5) -> MakenState:
    s = position(Side(field=["SO03"], hand=["SO02", "SO04"]), Side(damage=8), turn=turn)
    exchange(s, 1)
    act(s, "judge")
    return s


def test_M28_down_effects() -> None:
    """LP 3 → 2; the LP card in P2's hand; 無防備 through the next turn while 非TP."""
    s = _down_p2()
    assert len(s.lp[1]) == 2 and len(s.hand[1]) == 1
    assert s.turn == 6 and s.defenceless(1)


def test_M29_downer_keeps_initiative() -> None:
    """P1 (TP) downs P2: P1 is TP again (with no down TP alternates: M20)."""
    s = _down_p2()
    assert s.tp == 0


def test_M30_non_tp_downs_by_gc() -> None:
    """P2 (非TP) downs P1 by GC: P2 is TP of the next turn."""
    s = position(Side(field=["SO01"], damage=8), Side(hand=["GE01"], field=["GA06"]))
    exchange(s, 1, guarding=1)
    act(s, "gc ge01", "decline")
    assert (s.turn, s.tp) == (6, 1)


def _defenceless_p2() -> MakenState:
    s = position(
        Side(field=[("SO03", {"data": [2, 1, 1, 4, 0, 1]})], hand=["SO02"]),
        Side(hand=["GA05", "GA06", "GA01"], gauge=2),
    )
    s.defenceless_until[1] = s.turn
    return exchange(s, 1)


def test_M31_defenceless_options() -> None:
    """A 無防備 非TP: only RV cards for action 1, no guard, judge allowed."""
    s = _defenceless_p2()
    assert legal(s) == ["attack ga05", "attack ga06", "judge"]


def test_M32_reversal() -> None:
    """RV with GA05: 無防備 ends at step 7; P2 may later guard; a NORMAL hit gives no bonus."""
    s = _defenceless_p2()
    act(s, "attack ga05")
    assert not s.defenceless(1)
    assert [e.public["rv"] for e in s.log if e.kind == "bet"] == [True]
    act(s, "attack so02")
    assert "guard" in legal(s)
    act(s, "judge")
    assert s.phase != "bonus" and _damage(s) == [2]


def test_M33_rv_labels_when_not_defenceless() -> None:
    """Not 無防備: 【RV専用】 never legal, 【RV可能】 legal as usual."""
    s = position(
        Side(field=[("SO03", {"data": [2, 1, 1, 4, 0, 1]})]), Side(hand=["GA05", "GA06"], gauge=2)
    )
    exchange(s, 1)
    assert "attack ga06" in legal(s) and "attack ga05" not in legal(s)


def test_M34_defenceless_expires() -> None:
    """P2 downed in turn t: not 無防備 in turn t + 2."""
    s = _down_p2()
    act(s, "draw 1", "end", "fb so02", "judge", "decline")
    assert s.turn == 7 and not s.defenceless(1)

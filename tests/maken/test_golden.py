"""The worked sequence of maken.md §15, replayed to the same numbers at every step."""

from __future__ import annotations

from kessen.games.maken.state import ATK, DOWN
from tests.maken.build import Side, act, legal, names, position


def test_worked_sequence_section_15() -> None:
    """Turn 12, P1 SO (TP) against P2 GA: the table of §15, row by row."""
    s = position(
        Side(
            hand=["SO03", "SO09", "SO09", "SO02", "SO10"],
            lp=3,
            damage=2,
            gauge=0,
            stamina_top=["SO01", "RI01", "GE01", "GE02", "GE01", "GE04"],
            stamina=20,
        ),
        Side(
            hand=["GA06", "GA03", "GA03", "GA02", "GE01"],
            lp=["GA05", "GA01"],
            damage=5,
            gauge=1,
            stamina_top=["GA01", "GA04"],
            stamina=17,
        ),
        turn=12,
    )
    assert [len(s.dust[0]), len(s.dust[1])] == [20, 20]
    # 1. Draw 2 (of 1-3): SO01, RI01.
    assert legal(s) == ["draw 1", "draw 2", "draw 3"]
    act(s, "draw 2")
    assert names(s, s.hand[0])[-2:] == ["SO01", "RI01"]
    assert (len(s.hand[0]), len(s.stamina[0])) == (7, 18)
    # 2. Set SO10 and open it (cost 0), end.
    act(s, "set so10", "open so10", "end")
    # 3. FB SO03: 4/2/4, gain 1.
    assert "fb so03" in legal(s)
    act(s, "fb so03")
    assert s.field[0][0][2:6] == [4, 2, 2, 4]
    assert (len(s.gauge[0]), len(s.stamina[0]), s.total(0)) == (1, 17, 4)
    assert s.sit == "even" and s.actor == 1
    # 4. P2 GA06 4/2/3 (4 >= 4, 2 >= 2).
    act(s, "attack ga06")
    assert s.total(1) == 3
    # 5. P1 DA SO09x2 powerful: 5/2/3; extra face-down; draw GE02; chain: atk 5.
    act(s, "attack so09x2 powerful")
    f = s.field[0]
    assert names(s, [e[0] for e in f]) == ["SO03", "SO09", "SO09"]
    assert [e[DOWN] for e in f] == [0, 1, 0]
    assert (f[1][ATK], f[2][2:6]) == (3, [5, 2, 2, 5])
    assert "GE02" in names(s, s.hand[0])
    assert (s.total(0), len(s.hand[0]), len(s.stamina[0])) == (12, 4, 16)
    # 6. P2 DA GA03x2 dash: 5/2/2; pay 1 gauge; gain 1; extra dusted; draw GA04.
    act(s, "attack ga03x2 dash")
    assert s.phase == "pay" and legal(s) == ["cancel ga06", "pay-rest-from-gauge"]
    act(s, "pay-rest-from-gauge")
    assert names(s, [e[0] for e in s.field[1]]) == ["GA06", "GA03"]
    assert s.total(1) == 5 and len(s.gauge[1]) == 1 and len(s.dust[1]) == 22
    assert names(s, s.dust[1])[-1] == "GA03"
    assert (len(s.hand[1]), len(s.stamina[1])) == (3, 15)
    assert "GA04" in names(s, s.hand[1])
    # 7. P1 SO02 6/2->1/2, gain 1.
    act(s, "attack so02")
    assert s.field[0][-1][2:6] == [6, 2, 1, 2]
    assert (s.total(0), len(s.gauge[0]), len(s.hand[0]), len(s.stamina[0])) == (14, 2, 3, 15)
    # 8. P2 has no answer (speed < 6) and is not 無防備: guard.
    assert not [a for a in legal(s) if a.startswith("attack")]
    act(s, "guard")
    assert s.sit == "guard" and s.guarding == 1 and s.actor == 0 and "gb" in legal(s)
    # 9. P1 helper RI01 7/1/1 (no check): 2 helper units from the gauge; gain 1.
    act(s, "attack ri01", "pay-rest-from-gauge")
    assert s.field[0][-1][2:6] == [7, 1, 1, 1] and s.field[0][-1][9] == 1
    assert (s.total(0), len(s.gauge[0]), len(s.dust[0]), len(s.stamina[0])) == (15, 1, 22, 14)
    # 10. P2 has no GC against speed 7: keeps guarding.
    assert legal(s) == ["guard"]
    act(s, "guard")
    # 11. GB (15 > 5).
    act(s, "gb")
    assert s.phase == "bonus" and "bonus ge02" not in legal(s)
    # 12. Bonus SO01 3/0/8 cost 2: cancel RI01, the rest from the gauge.
    act(s, "bonus so01", "cancel ri01", "pay-rest-from-gauge")
    # 13-14. d = 22 - 5 = 17: 5 placed, down; GA05 to the hand; damage into the stamina.
    log = {e.kind: e for e in s.log}
    assert log["damage"].public["d"] == 17 and log["placed"].public["n"] == 5
    assert names(s, s.helper[0]) == ["RI01"]
    assert (len(s.lp[1]), len(s.damage[1]), len(s.stamina[1]), len(s.hand[1])) == (1, 0, 20, 4)
    assert "GA05" in names(s, s.hand[1])
    # 15-16. Cleanup TP first; SO10 expires; P1 is TP of turn 13, P2 無防備.
    assert (len(s.dust[0]), len(s.dust[1])) == (29, 24)
    assert names(s, s.dust[0])[-6:] == ["SO03", "SO09", "SO09", "SO02", "SO01", "SO10"]
    assert names(s, s.dust[1])[-2:] == ["GA06", "GA03"]
    assert (s.turn, s.tp, s.phase) == (13, 0, "draw")
    assert s.defenceless(1) and not s.defenceless(0)
    assert len(s.gauge[0]) == 0

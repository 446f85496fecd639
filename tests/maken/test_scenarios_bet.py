"""Scenarios M35–M63 of maken.md §16: the bet procedure, DA/TA, instant gauge, helpers, the
principles, supports, the end of the game, information, and the prompts."""

from __future__ import annotations

from kessen.games.maken.rules import hand_view
from kessen.games.maken.state import ATK, COST, DOWN, FRONT, HP, INST, MakenState
from tests.maken.build import Side, act, deck, exchange, legal, names, position


def _bets(s: MakenState) -> list[dict[str, object]]:
    return [e.public for e in s.log if e.kind == "bet"]


def test_M35_hand_view_order_and_clamping() -> None:
    """GA02 (spd 1) under own MI08 (+1), then P1's MI07 and SO13 (−1 each): speed 0."""
    p2 = deck("GA", {"MI07": 2}, {"MI08": 2})
    s = position(
        Side(field=["SO03"], support=[("MI07", True), ("SO13", True)]),
        Side(hand=["GA02"], support=[("MI08", True)]),
        decks=("SO", p2),
    )
    assert hand_view(s, 1, "GA02")[0] == 0


def test_M36_on_bet_condition() -> None:
    """SO04 bet while the opponent guards draws 1; in 拮抗 it does not."""
    s = exchange(position(Side(hand=["SO04"], field=["SO02"]), Side(field=["GA06"])), 0, 1)
    act(s, "attack so04")
    assert len(s.hand[0]) == 1
    s = exchange(position(Side(hand=["SO04"], field=["SO02"]), Side(field=["GA06"])), 0)
    act(s, "attack so04")
    assert len(s.hand[0]) == 0


def test_M37_self_chain() -> None:
    """SO09 on SO03 with its face-down copy between: atk 5; on SO04: atk 3."""
    s = exchange(position(Side(hand=["SO09", "SO09"], field=["SO03"]), Side(field=["GA01"])), 0, 1)
    act(s, "attack so09x2 powerful")
    assert [e[ATK] for e in s.field[0]] == [4, 3, 5]
    s = exchange(position(Side(hand=["SO09"], field=["SO04"]), Side(field=["GA01"])), 0, 1)
    act(s, "attack so09")
    assert s.field[0][-1][ATK] == 3


def test_M38_after_bet_order() -> None:
    """P1: SO08 and X, gauge 0; P2 opened MI10. SO05 cancelling X: s15 drains nothing, s16 +1."""
    s = position(
        Side(field=["SO08", "SO03"], hand=["SO05"]),
        Side(support=[("MI10", True)], field=["MI01"]),
        decks=("SO", "MI"),
    )
    exchange(s, 0, guarding=1)
    act(s, "attack so05", "cancel so03")
    assert len(s.gauge[0]) == 1 and not [
        e for e in s.log if e.kind == "drain" and e.public["cards"]
    ]


def test_M39_double_attack() -> None:
    """DA サプライズド of RI03: one bet, front +2, draw 1, triggers once, extra dusted."""
    s = position(Side(hand=["RI03", "RI03"], support=[("RI13", True)]), Side(), decks=("RI", "GA"))
    act(s, "draw 1", "end", "fb ri03x2 surprise")
    assert len(s.field[0]) == 1 and s.field[0][0][FRONT] == 4
    assert len(s.hand[0]) == 2  # the drawn card and the DA's draw
    assert names(s, s.dust[0])[-1] == "RI03"
    assert [e.public["n"] for e in s.log if e.kind == "gauge" and e.public["why"] == "RI13"] == [1]


def test_M40_triple_attack() -> None:
    """TA パワフリャア of SO03: 2 face-down extras under the main card, draw 2, total +12."""
    s = position(Side(hand=["SO03"] * 3), Side())
    act(s, "draw 1", "end", "fb so03x3 powerfulya")
    assert [e[DOWN] for e in s.field[0]] == [1, 1, 0] and s.total(0) == 12
    assert len(s.hand[0]) == 3


def test_M41_dash_needs_gauge() -> None:
    """Gauge 1, no face-up card: a DA ダッシュ of a cost-1 card is not legal (needs 2)."""
    s = position(Side(hand=["SO05", "SO05"], gauge=1), Side())
    act(s, "draw 1", "end")
    assert "fb so05x2 dash" not in legal(s) and "fb so05x2 heavy" in legal(s)


def test_M42_save_clamps() -> None:
    """A cost-0 card with DA セーブ costs 0."""
    s = position(Side(hand=["SO03", "SO03"], gauge=1), Side())
    act(s, "draw 1", "end", "fb so03x2 save")
    assert s.field[0][0][COST] == 0 and len(s.gauge[0]) == 2  # +1 gain, nothing paid


def test_M43_instant_gauge() -> None:
    """Forcing, gauge 0, face-up A (bottom) and B: SO06 (cost 2) by K = {A, B}; dust A, B."""
    s = exchange(position(Side(field=["SO02", "SO03"], hand=["SO06"]), Side(field=["GA01"])), 0, 1)
    act(s, "attack so06", "cancel so03", "cancel so02")
    assert names(s, s.dust[0])[-2:] == ["SO02", "SO03"]
    assert names(s, [e[INST] for e in s.field[0]]) == ["SO06"]


def test_M44_face_down_cannot_be_cancelled() -> None:
    """Gauge 0; a DA パワフル (face-down B under A): a cost-2 card is not legal."""
    field = [("SO09", {"down": 1}), "SO09"]
    s = exchange(position(Side(field=field, hand=["SO06"]), Side(field=["GA01"])), 0, 1)
    assert "attack so06" not in legal(s)


def test_M45_on_cancel() -> None:
    """RI10 cancelled: draw 1."""
    s = position(Side(field=["RI10"], hand=["RI06"]), Side(field=["GA01"]), decks=("RI", "GA"))
    exchange(s, 0, guarding=1)
    act(s, "attack ri06", "cancel ri10")
    draws = [e for e in s.log if e.kind == "draw"]
    assert draws[-1].public["why"] == "RI10" and len(s.hand[0]) == 1


def test_M46_instant_gauge_for_helper_and_dash() -> None:
    """SO player, gauge 1, 2 face-up cards: DA ダッシュ of RI01 owes 0 + 2 + 1 = 3."""
    s = position(Side(field=["SO02", "SO03"], hand=["RI01", "RI01"], gauge=1), Side(field=["GA01"]))
    exchange(s, 0, guarding=1)
    act(s, "attack ri01x2 dash", "cancel so02", "cancel so03", "pay-rest-from-gauge")
    bet = _bets(s)[-1]
    assert (bet["units"], bet["helper"]) == (3, 2) and len(s.gauge[0]) == 1  # gain 1 after


def test_M47_helper_slot() -> None:
    """RI02 pays 2 → helper field; RI03 pays 0 → dust; MI01 pays 2 → helper, RI02 → dust;
    RI01 pays 2 again."""
    so = deck("SO", {"SO05": 3}, {"RI02": 1, "RI03": 1, "MI01": 1})
    s = position(
        Side(hand=["RI02", "RI03", "MI01", "RI01"], gauge=8), Side(field=["GA01"]), decks=(so, "GA")
    )
    exchange(s, 0, guarding=1)
    act(s, "attack ri02", "guard", "judge")
    assert _bets(s)[-1]["helper"] == 2 and names(s, s.helper[0]) == ["RI02"]
    s.field[1] = []
    exchange(s, 0, guarding=1)
    act(s, "attack ri03", "guard", "attack mi01", "pay-rest-from-gauge", "guard", "judge")
    assert [(b["helper"], b["exempt"]) for b in _bets(s)[-2:]] == [(0, True), (2, False)]
    assert names(s, s.helper[0]) == ["MI01"] and names(s, s.dust[0])[-2:] == ["RI03", "RI02"]
    exchange(s, 0, guarding=1)
    act(s, "attack ri01")
    assert _bets(s)[-1]["helper"] == 2


def test_M48_cancelled_helper_card() -> None:
    """Helper-paid RI02 cancelled while MI01 holds the helper field: RI02 in, MI01 to dust."""
    so = deck("SO", {"SO05": 2}, {"RI02": 1, "MI01": 1})
    s = position(
        Side(field=[("RI02", {"hp": 1})], helper=["MI01"], hand=["SO06"], gauge=1),
        Side(field=["GA01"]),
        decks=(so, "GA"),
    )
    exchange(s, 0, guarding=1)
    act(s, "attack so06", "cancel ri02", "pay-rest-from-gauge")
    assert names(s, s.helper[0]) == ["RI02"] and "MI01" in names(s, s.dust[0])


def test_M49_helper_extras() -> None:
    """Helper-paid DA RI02×2 ダッシュ: at step 11 the extra goes to the helper field."""
    so = deck("SO", {"SO05": 3}, {"RI02": 2, "MI01": 1})
    s = position(
        Side(helper=["MI01"], hand=["RI02", "RI02"], gauge=3),
        Side(field=["GA01"]),
        decks=(so, "GA"),
    )
    exchange(s, 0, guarding=1)
    act(s, "attack ri02x2 dash")
    assert names(s, s.helper[0]) == ["RI02"] and names(s, s.dust[0])[-1] == "MI01"
    assert s.field[0][-1][HP] == 1


def test_M50_exempt_card_goes_to_dust() -> None:
    """RI03 bet helper-exempt: at cleanup to the dust, not the helper field."""
    so = deck("SO", {"SO05": 2}, {"RI03": 1, "RI02": 1})
    s = position(Side(helper=["RI02"], hand=["RI03"]), Side(field=["GA01"]), decks=(so, "GA"))
    exchange(s, 0, guarding=1)
    act(s, "attack ri03", "guard", "judge")
    assert names(s, s.helper[0]) == ["RI02"] and "RI03" in names(s, s.dust[0])


def test_M51_helper_support() -> None:
    """SO player opens helper MI07: pays 2 on opening; at turn end MI07 → helper field."""
    s = position(Side(support=[("MI07", False)], gauge=2), Side())
    act(s, "draw 1", "open mi07")
    assert len(s.gauge[0]) == 0
    act(s, "end") if s.phase == "pre" else None
    while s.turn == 5:
        act(s, legal(s)[-1])
    assert names(s, s.helper[0]) == ["MI07"]


def test_M52_fixed_order() -> None:
    """Field A B C D, C cancelled: A B D, order kept (the new card on top)."""
    s = position(Side(field=["SO02", "SO03", "SO04", "SO07"], hand=["SO05"]), Side(field=["GA01"]))
    exchange(s, 0, guarding=1)
    act(s, "attack so05", "cancel so04")
    assert names(s, [e[INST] for e in s.field[0]]) == ["SO02", "SO03", "SO07", "SO05"]


def test_M53_dust_order() -> None:
    """Gauge g1 (top), g2, g3; face-up A; a cost-2 helper card cancelling A: dust A g1 g2 g3."""
    so = deck("SO", {"SO05": 1}, {"MI05": 1})
    s = position(
        Side(field=["SO03"], hand=["MI05"], gauge=["GE01", "GE04", "SO02"]),
        Side(field=["GA01"]),
        decks=(so, "GA"),
    )
    exchange(s, 0, guarding=1)
    act(s, "attack mi05", "cancel so03", "pay-rest-from-gauge")
    assert names(s, s.dust[0])[-4:] == ["SO03", "GE01", "GE04", "SO02"]


def test_M54_opening_as_actor() -> None:
    """非TP with a set MI07 may open it before acting; TP's next bet gets speed −1."""
    s = position(
        Side(field=["SO03"], hand=["SO02"]),
        Side(support=[("MI07", False)], hand=["MI01"]),
        decks=("SO", "MI"),
    )
    exchange(s, 1)
    assert "open mi07" in legal(s)
    act(s, "open mi07")
    assert s.phase == "act" and s.actor == 1
    act(s, "attack mi01")
    assert hand_view(s, 0, "SO02")[0] == 4


def test_M55_turn_end_supports() -> None:
    """Opened ターン, opened 持続 and set cards: only the ターン card leaves at turn end."""
    s = position(
        Side(support=[("RI12", False), ("RI11", False), ("RI13", False)], gauge=1),
        Side(),
        decks=("RI", "GA"),
    )
    act(s, "draw 1", "open ri12", "open ri11")
    while s.turn == 5:
        act(s, "end" if "end" in legal(s) else legal(s)[-1])
    assert names(s, [e[0] for e in s.support[0]]) == ["RI12", "RI13"]
    assert names(s, s.dust[0])[-1] == "RI11"


def test_M56_turn_limit() -> None:
    """The end of turn 100: a draw."""
    s = position(Side(), Side(), turn=100)
    act(s, "draw 1")
    while s.pending is not None:
        act(s, "end" if "end" in legal(s) else legal(s)[-1])
    assert s.outcome is not None and (s.outcome.winner, s.outcome.reason) == (None, "turn_limit")


def test_M57_views() -> None:
    """P2's view: P1's hand and set supports as counts; face-down extras as copies with their
    attack; stamina, LP, gauge and damage counts only (for both); dust and decks public."""
    s = position(
        Side(
            hand=["SO05", "SO06"],
            support=[("SO10", False)],
            gauge=2,
            damage=1,
            field=["SO03", ("SO09", {"down": 1}), "SO09"],
            dust=["SO02"],
        ),
        Side(field=["GA01"]),
    )
    view = s.view(1)
    p1, p2 = view["players"]
    assert p1["hand"] == {"count": 2, "cards": None}
    assert p1["support"] == [{"face": "down"}]
    down = p1["field"][1]
    assert (down["face"], down["copy_of"], down["atk"]) == ("down", "SO09", 3)
    for side in (p1, p2):
        assert all(isinstance(side[k], int) for k in ("stamina", "lp", "gauge", "damage"))
    assert p1["dust"][0]["card"] == "SO02" and p1["deck"]["SO01"] == 2
    assert p1["total"] == 10
    mine = s.view(0)["players"][0]
    assert [c["card"] for c in mine["hand"]["cards"]] == sorted(names(s, s.hand[0]))
    assert mine["support"][0]["card"] == "SO10" and "hidden" not in mine


def test_M58_tp_is_never_defenceless() -> None:
    """TP downed by exhaustion in its draw phase may guard, may not bet 【RV専用】, gives no
    bonus on a NORMAL hit; if it then downs P2, it is TP of t+1, not 無防備, and P2 is."""
    s = position(Side(hand=["SO03", "GE02"], stamina=0), Side(hand=["GA06"]))
    assert len(s.lp[0]) == 2 and not s.defenceless(0)
    act(s, "end")
    assert legal(s) == ["fb so03"]
    act(s, "fb so03", "attack ga06")
    assert "guard" in legal(s) and "attack ge02" not in legal(s)
    act(s, "judge")
    assert s.phase != "bonus" and (s.turn, s.tp) == (6, 1)
    s = position(Side(hand=["SO03"], stamina=0), Side(damage=9))
    act(s, "end", "fb so03", "judge")
    assert (s.turn, s.tp) == (6, 0) and not s.defenceless(0) and s.defenceless(1)


def _damage(s: MakenState) -> list[int]:
    return [e.public["d"] for e in s.log if e.kind == "damage"]


def test_M59_face_down_extras_hit() -> None:
    """GC GA06 (3) + bonus DA パワフル GA02×2 (4 each): d = 11; the same after a NORMAL GA06
    hit on a 無防備 loser. A GC by DA パワフル GE04×2 (3 each), no bonus: d = 6."""
    s = position(Side(field=["SO03"]), Side(hand=["GA06", "GA02", "GA02"], field=["GA01"]))
    exchange(s, 1, guarding=1)
    act(s, "gc ga06", "bonus ga02x2 powerful")
    assert _damage(s) == [11]
    s = position(Side(), Side(hand=["GA06", "GA02", "GA02"]), tp=1)
    s.defenceless_until[0] = s.turn
    act(s, "draw 1", "end", "fb ga06", "judge", "bonus ga02x2 powerful")
    assert _damage(s) == [11]
    s = position(Side(field=["SO03"]), Side(hand=["GE04", "GE04"], field=["GA01"]))
    exchange(s, 1, guarding=1)
    act(s, "gc ge04x2 powerful", "decline")
    assert _damage(s) == [6]


def test_M60_helper_cost_fixed_at_step_6() -> None:
    """Helper MI01, helper-paid RI02 face-up, gauge 2: RI06 cancelling RI02 owes 3 and is
    helper-paid; with RI01 there, cancelling helper-paid MI01 owes 1 and RI06 is exempt."""
    so = deck("SO", {"SO05": 3}, {"RI02": 1, "RI06": 1, "MI01": 1})
    s = position(
        Side(field=[("RI02", {"hp": 1})], helper=["MI01"], hand=["RI06"], gauge=2),
        Side(field=["GA01"]),
        decks=(so, "GA"),
    )
    exchange(s, 0, guarding=1)
    act(s, "attack ri06", "cancel ri02", "pay-rest-from-gauge")
    assert _bets(s)[-1]["units"] == 3 and s.field[0][-1][HP] == 1
    assert names(s, s.helper[0]) == ["RI02"]
    s = position(
        Side(field=[("MI01", {"hp": 1})], helper=["RI01"], hand=["RI06"], gauge=2),
        Side(field=["GA01"]),
        decks=(so, "GA"),
    )
    exchange(s, 0, guarding=1)
    act(s, "attack ri06", "cancel mi01")
    assert _bets(s)[-1]["units"] == 1 and s.field[0][-1][HP] == 0
    assert names(s, s.helper[0]) == ["MI01"]
    act(s, "guard", "judge")
    assert names(s, s.dust[0])[-1] == "RI06"


def test_M61_pay_prompt() -> None:
    """Owing 2 with gauge 1 and face-up A, B: cancel A / cancel B, then also pay the rest.
    Owing 0 or no face-up card: no prompt."""
    s = exchange(
        position(Side(field=["SO02", "SO03"], hand=["SO06"], gauge=1), Side(field=["GA01"])), 0, 1
    )
    act(s, "attack so06")
    assert legal(s) == ["cancel so02", "cancel so03"]
    act(s, "cancel so02")
    assert legal(s) == ["cancel so03", "pay-rest-from-gauge"]
    s = exchange(position(Side(field=["SO02"], hand=["SO04"]), Side(field=["GA01"])), 0, 1)
    act(s, "attack so04")
    assert s.phase == "act" and s.actor == 1
    s = exchange(position(Side(hand=["SO06"], gauge=2), Side(field=["GA01"])), 0, 1)
    act(s, "attack so06")
    assert s.phase == "act" and len(s.gauge[0]) == 0


def test_M62_no_opening_in_the_judge() -> None:
    """A set GA11 may be opened in `act`, never before or during the bonus bet."""
    s = position(
        Side(field=["GA04"], support=[("GA11", False)], hand=["GA01"]),
        Side(field=["SO02"]),
        decks=("GA", "SO"),
    )
    exchange(s, 0, guarding=1)
    assert "open ga11" in legal(s) and "gb" in legal(s)
    act(s, "gb")
    assert s.phase == "bonus" and not [a for a in legal(s) if a.startswith("open")]


def test_M63_cancel_draw_takes_the_last_card() -> None:
    """Stamina 1, gauge 0, RI10 face-up: DA RI06×2 チャージ cancelling RI10 — RI10's draw takes
    the last card; gain and the DA draw move nothing; no down."""
    s = position(
        Side(field=["RI10"], hand=["RI06", "RI06"], stamina=1),
        Side(field=["GA01"]),
        decks=("RI", "GA"),
    )
    exchange(s, 0, guarding=1)
    act(s, "attack ri06x2 charge", "cancel ri10")
    assert (len(s.stamina[0]), len(s.gauge[0]), len(s.hand[0]), len(s.lp[0])) == (0, 0, 1, 3)
    assert not [e for e in s.log if e.kind == "down"]

"""What an answer does: set-up, the turn (§6), the bet procedure (§8.1 steps 7–17, §8.3 instant
gauge, §8.4 helpers), the judge (§7.5), damage, down and stamina exhaustion (§7.6), turn end and
the end of the game (§9). Every function runs on until the next prompt.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from kessen.engine.action import Action
from kessen.engine.contract import GameOver, IllegalAction, Json
from kessen.games.maken.rules import (
    BONUS,
    EVEN,
    FACE_DOWN_OPTIONS,
    FB,
    FORCE,
    GC,
    BetPlan,
    decide,
    decider,
    holds,
    modify,
    open_cost,
    opened_in_order,
    parse_bet,
    plan_bet,
)
from kessen.games.maken.state import (
    ATK,
    COST,
    DOWN,
    GAIN,
    HIT,
    HP,
    INST,
    S_HP,
    S_INST,
    S_OPEN,
    S_SEQ,
    S_TURN,
    SPD,
    AbilityInfo,
    MakenState,
    pool_info,
)

HAND_SIZE: Final = 5
LP_CARDS: Final = 3


# -- set-up ---------------------------------------------------------------------------------


def setup(state: MakenState) -> None:
    """§5 setup: decks shuffled, 3 LP cards, TP at random, 5 cards each; then the mulligans."""
    cfg = state.cfg
    state.cards = [
        cid
        for deck in cfg.decks
        for cid in sorted(c for c, n in deck["cards"].items() for _ in range(n))
    ]
    state.chars = [str(deck["character"]) for deck in cfg.decks]
    for seat in (0, 1):
        deck = list(range(50 * seat, 50 * seat + 50))
        state.rng.shuffle(deck)
        state.lp[seat] = deck[-LP_CARDS:]
        state.stamina[seat] = deck[:-LP_CARDS]
    first = cfg.first_player
    state.tp = first if first is not None else state.rng.below(2)
    state.emit("setup", {"chars": list(state.chars), "tp": state.tp})
    for seat in (state.tp, 1 - state.tp):
        draw(state, seat, HAND_SIZE, "setup")
    state.phase = "mulligan"


# -- moving cards ---------------------------------------------------------------------------


def draw(state: MakenState, seat: int, n: int, why: str) -> int:
    """Draw up to ``n`` (as many as the stamina holds); the cards are private to the drawer."""
    got = [state.stamina[seat].pop() for _ in range(min(n, len(state.stamina[seat])))]
    state.hand[seat] += got
    state.emit(
        "draw",
        {"seat": seat, "n": len(got), "why": why},
        seat,
        {"cards": [state.cards[i] for i in got]},
    )
    return len(got)


def gauge_up(state: MakenState, seat: int, n: int, why: str) -> None:
    """Move up to ``n`` cards from the stamina to the gauge (face-down, nobody sees them)."""
    got = [state.stamina[seat].pop() for _ in range(min(n, len(state.stamina[seat])))]
    state.gauge[seat] += got
    state.emit("gauge", {"seat": seat, "n": len(got), "why": why})


def dust_send(state: MakenState, seat: int, inst: int, helper_paid: int) -> None:
    """ダスト送り: to the dust, or a helper-paid card to the helper field (§8.4, S注5)."""
    if helper_paid:
        pushed = state.helper[seat][:]
        if pushed:
            state.dust[seat].append(pushed[0])
        state.helper[seat] = [inst]
        state.emit(
            "helper",
            {"seat": seat, "card": state.cards[inst], "pushed": [state.cards[i] for i in pushed]},
        )
    else:
        state.dust[seat].append(inst)


def effect(state: MakenState, owner: int, ab: AbilityInfo, source: str) -> None:
    """Resolve a draw, gauge or drain effect for the card's owner (§11)."""
    if ab.effect == "draw":
        draw(state, owner, ab.n, source)
    elif ab.effect == "gauge":
        gauge_up(state, owner, ab.n, source)
    elif ab.effect == "drain":
        opp = 1 - owner
        gone = [state.gauge[opp].pop() for _ in range(min(ab.n, len(state.gauge[opp])))]
        state.dust[opp] += gone
        state.emit("drain", {"seat": opp, "cards": [state.cards[i] for i in gone], "by": source})


def _trigger(state: MakenState, owner: int, inst: int, timing: str, bet: Json | None) -> None:
    for ab in state.info(inst).abilities:
        if ab.timing == timing and holds(state, ab.cond, ab.tag, owner, bet):
            effect(state, owner, ab, state.cards[inst])


# -- the answer -----------------------------------------------------------------------------


def apply(state: MakenState, action: Action) -> None:
    """Apply a legal answer and run on to the next prompt."""
    if state.result is not None:
        raise GameOver("the game is over; no action is expected")
    legal = state.legal  # (the cache: computed once per decision, not copied)
    if legal is None:
        legal = decide(state)
    if action not in legal:
        raise IllegalAction(f"{action} is not legal now")
    plans = state.plans if state.plans_for is legal else None
    plan = None if plans is None else plans.get(action)
    seat = decider(state)
    state.legal = None
    state.plans = None
    state.plans_for = None
    state.prompt_id += 1
    _HANDLERS[state.phase](state, seat, action, plan)


def _mulligan(state: MakenState, seat: int, action: Action, plan: BetPlan | None) -> None:
    again = action.verb == "mulligan"
    state.mulled[seat] = int(again)
    state.emit("mulligan", {"seat": seat, "again": again})
    if again:
        state.stamina[seat] += state.hand[seat]
        state.hand[seat] = []
        state.rng.shuffle(state.stamina[seat])
        draw(state, seat, HAND_SIZE, "mulligan")
    if min(state.mulled) >= 0:
        start_turn(state)


def start_turn(state: MakenState) -> None:
    """Turn start and the draw phase (§6 steps 1–2)."""
    state.turn += 1
    state.downed_last = -1
    tp = state.tp
    state.emit("turn", {"turn": state.turn, "tp": tp})
    if not state.stamina[tp]:
        if state.cfg.exhaustion == "refresh":
            state.emit("exhausted", {"seat": tp, "when": "draw"})
            down(state, tp, exhaustion=True)
            if state.result is not None:
                return
        else:
            state.emit("no-draw", {"seat": tp})
        state.phase = "pre"
        return
    state.phase = "draw"


def _draw(state: MakenState, seat: int, action: Action, plan: BetPlan | None) -> None:
    draw(state, seat, int(action.args[0]), "draw")
    state.phase = "pre"


def _find_support(state: MakenState, seat: int, slug: str, opened: int) -> list[int]:
    cid = state.pool.by_slug[slug].id
    for entry in state.support[seat]:
        if state.cards[entry[S_INST]] == cid and entry[S_OPEN] == opened:
            return entry
    raise IllegalAction(f"no such support card: {slug}")


def open_support(state: MakenState, seat: int, slug: str) -> None:
    """Open a set card (§8.7): cost + helper cost from the gauge only, then ON_OPEN."""
    entry = _find_support(state, seat, slug, 0)
    inst = entry[S_INST]
    card = state.info(inst)
    units = open_cost(state, seat, inst)
    helper = units - card.cost
    paid = [state.gauge[seat].pop() for _ in range(units)]
    state.dust[seat] += paid
    entry[S_OPEN], entry[S_HP], entry[S_SEQ], entry[S_TURN] = (
        1,
        int(helper > 0),
        state.open_seq,
        state.turn,
    )
    state.open_seq += 1
    state.emit(
        "open",
        {"seat": seat, "card": card.id, "helper": helper, "paid": [state.cards[i] for i in paid]},
    )
    _trigger(state, seat, inst, "ON_OPEN", None)


def _pre(state: MakenState, seat: int, action: Action, plan: BetPlan | None) -> None:
    verb = action.verb
    if verb == "end":
        state.emit("pre-end", {"seat": seat})
        start_attack(state)
        return
    slug = str(action.args[0])
    if verb == "set":
        cid = state.pool.by_slug[slug].id
        inst = next(i for i in sorted(state.hand[seat]) if state.cards[i] == cid)
        state.hand[seat].remove(inst)
        state.support[seat].append([inst, 0, 0, 0, 0])
        state.emit("set", {"seat": seat}, seat, {"card": cid})
    elif verb == "open":
        open_support(state, seat, slug)
    else:
        entry = _find_support(state, seat, slug, int(verb == "clear"))
        state.support[seat].remove(entry)
        state.emit(
            "clear",
            {"seat": seat, "card": state.cards[entry[S_INST]], "opened": bool(entry[S_OPEN])},
        )
        dust_send(state, seat, entry[S_INST], entry[S_HP])


def start_attack(state: MakenState) -> None:
    """The attack phase (§7.1): the FB prompt if TP has a legal FB, else no exchange."""
    state.phase = "fb"
    if not decide(state):
        state.legal = state.plans = state.plans_for = None
        state.emit("no-fb", {"seat": state.tp})
        end_turn(state)


# -- the bet procedure ----------------------------------------------------------------------


def place_bet(
    state: MakenState,
    seat: int,
    verb: str,
    action: Action,
    mode: str,
    plan: BetPlan | None = None,
) -> None:
    """Step 7: the card(s) onto the field (extras below), RV ends 無防備; then payment
    (``plan``: the bet's plan when the list of legal actions made it for this state)."""
    if plan is None:
        cid, n, option = parse_bet(action.args)
        plan = plan_bet(state, seat, cid, n, option, mode)
        if plan is None:
            raise IllegalAction(f"{action} is not legal now")
    cid, n, option = plan.cid, plan.n, plan.option
    insts = sorted(i for i in state.hand[seat] if state.cards[i] == cid)[:n]
    rv = state.defenceless(seat)
    eligible = [e[INST] for e in state.field[seat] if not e[DOWN]]
    hit = int(verb in ("gc", "bonus"))
    hp = int(plan.helper > 0)
    for inst in insts:
        state.hand[seat].remove(inst)
    main, extras = insts[0], insts[1:]
    for inst in [*extras, main]:
        state.field[seat].append([inst, 0, *plan.data, hit, hp])
    if rv:
        state.defenceless_until[seat] = -1
    character = pool_info(state.pool)[cid].character
    exempt = character not in (state.chars[seat], "GE") and not hp
    state.bet = {
        "seat": seat,
        "kind": verb,
        "cid": cid,
        "n": n,
        "option": option,
        "main": main,
        "extras": extras,
        "units": plan.units,
        "cost": plan.cost,
        "helper": plan.helper,
        "dash": plan.dash,
        "rv": rv,
        "eligible": eligible,
        "picks": [],
        "main_cost": plan.data[4],
    }
    state.emit(
        "bet",
        {
            "seat": seat,
            "as": verb,
            "card": cid,
            "n": n,
            "option": option,
            "data": list(plan.data),
            "units": plan.units,
            "helper": plan.helper,
            "exempt": exempt,
            "rv": rv,
            "front0": verb == "fb" and plan.data[1] == 0,
        },
    )
    if plan.units > 0 and eligible:
        state.phase = "pay"
        return
    finish_bet(state)


def _pay(state: MakenState, seat: int, action: Action, plan: BetPlan | None) -> None:
    bet = state.bet
    assert bet is not None
    if action.verb == "cancel":
        cid = state.pool.by_slug[str(action.args[0])].id
        bet["picks"].append(next(i for i in bet["eligible"] if state.cards[i] == cid))
        if len(bet["picks"]) < bet["units"]:
            return
    finish_bet(state)


def finish_bet(state: MakenState) -> None:
    """Steps 8–17 of the bet in ``state.bet``, then what the bet leads to."""
    bet = state.bet
    assert bet is not None
    seat, opp = int(bet["seat"]), 1 - int(bet["seat"])
    field = state.field[seat]
    picks = set(bet["picks"])
    cancels = [i for i in bet["eligible"] if i in picks]
    rest = int(bet["units"]) - len(cancels)
    gauge = [state.gauge[seat].pop() for _ in range(rest)]
    for inst in cancels:  # steps 8, 8b, 9: cancelled cards first (bottom first), then gauge
        entry = next(e for e in field if e[INST] == inst)
        field.remove(entry)
        dust_send(state, seat, inst, entry[HP])
    state.dust[seat] += gauge
    if bet["units"]:
        state.emit(
            "pay",
            {
                "seat": seat,
                "cancels": [state.cards[i] for i in cancels],
                "gauge": [state.cards[i] for i in gauge],
            },
        )
    for inst in cancels:  # step 9b
        _trigger(state, seat, inst, "ON_CANCEL", bet)
    main = next(e for e in field if e[INST] == bet["main"])
    if main[GAIN]:  # step 10
        gauge_up(state, seat, main[GAIN], "gain")
    if bet["n"] >= 2:  # step 11
        extras = [e for e in field if e[INST] in bet["extras"]]
        if bet["option"] in FACE_DOWN_OPTIONS:
            for entry in extras:
                entry[DOWN] = 1
        else:
            for entry in extras:
                field.remove(entry)
                dust_send(state, seat, entry[INST], entry[HP])
            state.emit("extras", {"seat": seat, "card": bet["cid"], "n": len(extras)})
        draw(state, seat, int(bet["n"]) - 1, "multi")
    card = pool_info(state.pool)[bet["cid"]]
    for ab in card.abilities:  # step 12
        if ab.timing == "ON_BET" and holds(state, ab.cond, ab.tag, seat, bet):
            effect(state, seat, ab, card.id)
    before = main[SPD : GAIN + 1]
    for ab in card.abilities:  # step 13
        if ab.timing == "SELF" and holds(state, ab.cond, ab.tag, seat, bet):
            data = main[SPD : GAIN + 1]
            modify(data, ab.stat or "", ab.n)
            main[SPD : GAIN + 1] = data
    if main[SPD : GAIN + 1] != before:
        state.emit("self", {"seat": seat, "card": card.id, "data": main[SPD : GAIN + 1]})
    bet["main_cost"] = main[COST]
    mine = {int(bet["main"]), *bet["extras"]}
    for entry in opened_in_order(state, seat):  # step 14
        _trigger(state, seat, entry[S_INST], "AFTER_OWN_BET", bet)
    for entry in opened_in_order(state, opp):  # step 15
        _trigger(state, opp, entry[S_INST], "AFTER_OPP_BET", bet)
    for entry in [e for e in field if not e[DOWN] and e[INST] not in mine]:  # step 16
        _trigger(state, seat, entry[INST], "AFTER_OWN_BET", bet)
    for entry in [e for e in state.field[opp] if not e[DOWN]]:  # step 17
        _trigger(state, opp, entry[INST], "AFTER_OPP_BET", bet)
    state.bet = None
    kind = bet["kind"]
    if kind == "fb":
        state.sit, state.actor, state.phase = "even", opp, "act"
    elif kind == "attack":
        state.actor, state.phase = opp, "act"
    elif kind == "gc":
        start_judge(state, "GC", seat)
    else:
        assert state.judge is not None
        state.judge["bonus"] += 1
        continue_judge(state)


# -- the exchange ---------------------------------------------------------------------------


def _fb(state: MakenState, seat: int, action: Action, plan: BetPlan | None) -> None:
    place_bet(state, seat, "fb", action, FB, plan)


def _act(state: MakenState, seat: int, action: Action, plan: BetPlan | None) -> None:
    verb, opp = action.verb, 1 - seat
    if verb == "open":
        open_support(state, seat, str(action.args[0]))
    elif verb == "attack":
        mode = EVEN if state.sit == "even" else FORCE
        place_bet(state, seat, "attack", action, mode, plan)
    elif verb == "gc":
        place_bet(state, seat, "gc", action, GC, plan)
    elif verb == "guard":
        state.emit("guard", {"seat": seat, "keep": state.sit == "guard"})
        state.sit, state.guarding, state.actor = "guard", seat, opp
    elif verb == "gb":
        state.emit("gb", {"seat": seat})
        start_judge(state, "GB", seat)
    elif verb == "judge":
        state.emit("accept" if state.sit == "even" else "stop", {"seat": seat})
        start_judge(state, "NORMAL" if state.sit == "even" else None, opp)


def start_judge(state: MakenState, kind: str | None, hitter: int) -> None:
    """The judge (§7.5): hitter and hit cards, then the bonus bet, damage and cleanup."""
    if kind is None:
        state.emit("judge", {"how": None, "hitter": None})
        cleanup(state)
        return
    loser = 1 - hitter
    field = state.field[hitter]
    if kind == "NORMAL":
        field[-1][HIT] = 1
    elif kind == "GB":
        for entry in field:
            entry[HIT] = 1
    state.judge = {
        "kind": kind,
        "hitter": hitter,
        "bonus": 0,
        "defenceless": state.defenceless(loser),
    }
    state.emit("judge", {"how": kind, "hitter": hitter, "defenceless": state.judge["defenceless"]})
    continue_judge(state)


def bonus_arises(state: MakenState) -> bool:
    """Whether the judge offers (another) bonus bet (§7.5 step 3, switches of §14)."""
    judge = state.judge
    assert judge is not None
    cfg = state.cfg
    if cfg.bonus_bet == "none" or judge["bonus"] >= cfg.bonus_bet_max:
        return False
    return cfg.bonus_bet == "always" or judge["kind"] in ("GC", "GB") or bool(judge["defenceless"])


def continue_judge(state: MakenState) -> None:
    """Offer the bonus bet if it arises, else resolve the damage."""
    if bonus_arises(state):
        state.phase = "bonus"
        return
    resolve_damage(state)


def _bonus(state: MakenState, seat: int, action: Action, plan: BetPlan | None) -> None:
    if action.verb == "decline":
        state.emit("decline", {"seat": seat})
        resolve_damage(state)
    else:
        place_bet(state, seat, "bonus", action, BONUS, plan)


def resolve_damage(state: MakenState) -> None:
    """Steps 4–7 of the judge: damage, ON_HIT, placement, cleanup."""
    judge = state.judge
    assert judge is not None
    hitter = int(judge["hitter"])
    loser = 1 - hitter
    field = state.field[hitter]
    if judge["kind"] == "GB":
        for entry in field:
            entry[HIT] = 1
        total = state.total(hitter)
        d = total if state.cfg.gb == "total" else max(0, total - state.total(loser))
    else:
        d = sum(e[ATK] for e in field if e[HIT])
    for entry in [e for e in field if e[HIT] and not e[DOWN]]:
        _trigger(state, hitter, entry[INST], "ON_HIT", None)
    state.emit(
        "damage",
        {
            "seat": loser,
            "d": d,
            "how": judge["kind"],
            "down_hits": sum(1 for e in field if e[HIT] and e[DOWN]),
        },
    )
    place_damage(state, loser, d)
    if state.result is None:
        cleanup(state)


def place_damage(state: MakenState, seat: int, d: int) -> None:
    """§7.6: one card at a time from the stamina; a down at the threshold or on exhaustion."""
    placed = 0
    down_at = state.cfg.down_at
    for _ in range(d):
        if not state.stamina[seat]:
            state.emit("placed", {"seat": seat, "n": placed})
            state.emit("exhausted", {"seat": seat, "when": "damage"})
            down(state, seat, exhaustion=True)
            return
        state.damage[seat].append(state.stamina[seat].pop())
        placed += 1
        if len(state.damage[seat]) >= down_at:
            state.emit("placed", {"seat": seat, "n": placed})
            down(state, seat, exhaustion=False)
            return
    state.emit("placed", {"seat": seat, "n": placed})


def down(state: MakenState, seat: int, exhaustion: bool) -> None:
    """A down (§7.6): the top LP card leaves (a loss if it was the last), refresh, 無防備."""
    state.downed_last = seat
    card = state.lp[seat].pop()
    where = state.cfg.lp_to
    public: Json = {"seat": seat, "exhaustion": exhaustion, "lp": len(state.lp[seat]), "to": where}
    if where == "hand":
        state.hand[seat].append(card)
        state.emit("down", public, seat, {"card": state.cards[card]})
    elif where == "dust":
        state.dust[seat].append(card)
        state.emit("down", {**public, "card": state.cards[card]})
    else:
        state.gauge[seat].append(card)
        state.emit("down", public)
    if not state.lp[seat]:
        state.result = (1 - seat, "lp")
        state.phase = "over"
        state.bet = None
        state.emit("end", {"winner": 1 - seat, "reason": "lp"})
        return
    stamina = state.stamina[seat]
    stamina += state.damage[seat]
    state.damage[seat] = []
    if exhaustion and state.cfg.exhaustion == "refresh":
        stamina += state.dust[seat]
        state.dust[seat] = []
    state.rng.shuffle(stamina)
    state.defenceless_until[seat] = state.turn + 1


def cleanup(state: MakenState) -> None:
    """Judge step 7: both fields emptied bottom first, TP's first; the attack phase ends."""
    to_gauge = state.cfg.cleanup == "gauge"
    for seat in (state.tp, 1 - state.tp):
        for entry in state.field[seat]:
            if to_gauge and not entry[HP]:
                state.gauge[seat].append(entry[INST])
            else:
                dust_send(state, seat, entry[INST], entry[HP])
        state.field[seat] = []
    state.sit, state.guarding, state.actor, state.judge = "none", -1, -1, None
    state.emit("cleanup", {"to": state.cfg.cleanup})
    end_turn(state)


def end_turn(state: MakenState) -> None:
    """§6 step 5: ターン supports opened this turn leave (opening order); the next TP."""
    leaving = sorted(
        (
            (seat, e)
            for seat in (0, 1)
            for e in state.support[seat]
            if e[S_OPEN] and e[S_TURN] == state.turn and state.info(e[S_INST]).duration == "turn"
        ),
        key=lambda pair: pair[1][S_SEQ],
    )
    for seat, entry in leaving:
        state.support[seat].remove(entry)
        dust_send(state, seat, entry[S_INST], entry[S_HP])
    if leaving:
        state.emit("expire", {"cards": [[s, state.cards[e[S_INST]]] for s, e in leaving]})
    nxt = 1 - state.downed_last if state.downed_last >= 0 else 1 - state.tp
    if state.turn >= state.cfg.turn_limit:
        state.result = (None, "turn_limit")
        state.phase = "over"
        state.emit("end", {"winner": None, "reason": "turn_limit"})
        return
    state.tp = nxt
    start_turn(state)


_HANDLERS: Final[dict[str, Callable[[MakenState, int, Action, BetPlan | None], None]]] = {
    "mulligan": _mulligan,
    "draw": _draw,
    "pre": _pre,
    "fb": _fb,
    "act": _act,
    "pay": _pay,
    "bonus": _bonus,
}

"""Kōbō frames of one exchange: the attack declaration, the chain, resolution, the attack
result, the base-Lv-0 sweep and the clean-up."""

from __future__ import annotations

from kessen.engine.action import Action, one
from kessen.games.kobo import effects, surprise
from kessen.games.kobo.cards import (
    NEGATE_LAST,
    TIMING_ATTACKING,
    TIMING_DEFENDING,
    CardKind,
    Condition,
)
from kessen.games.kobo.endings import check_end
from kessen.games.kobo.flow_common import (
    PASS,
    Prompt,
    _chosen,
    _find,
    _log,
    _slot_actions,
    _slug,
)
from kessen.games.kobo.moves import (
    first_by_name,
    free_slots,
    retreat,
)
from kessen.games.kobo.state import (
    EMPTY,
    RETREAT,
    SLOTS,
    THAND,
    ZONES,
    Frame,
    KoboState,
)


def _declare_options(state: KoboState, attackers: tuple[int, ...]) -> list[Action]:
    seat = state.turn_player
    foe = 1 - seat
    total = sum(state.lv(a) for a in attackers)
    foes = [(i, c) for i in range(SLOTS) if (c := state.battle[foe * SLOTS + i]) != EMPTY]
    best = max(state.lv(c) for _, c in foes)
    out = [
        one("attack", i + 1)
        for i in range(SLOTS)
        if (c := state.battle[seat * SLOTS + i]) != EMPTY
        and c not in attackers
        and total + state.lv(c) <= best + 1
    ]
    single = len(attackers) == 1
    out += [one("target", i + 1) for i, c in foes if single or total <= state.lv(c) + 1]
    return out


def _step_declare(state: KoboState, frame: Frame) -> Prompt | None:
    return (state.turn_player, "declare")


def _legal_declare(state: KoboState, frame: Frame) -> list[Action]:
    return _declare_options(state, frame[1:])


def _apply_declare(state: KoboState, frame: Frame, action: Action) -> None:
    seat = state.turn_player
    slot = int(action.args[0]) - 1
    if action.verb == "attack":
        state.stack[-1] = (*frame, state.battle[seat * SLOTS + slot])
        return
    attackers = frame[1:]
    target = state.battle[(1 - seat) * SLOTS + slot]
    state.attackers = attackers
    state.target = target
    state.attacker_seat = seat
    state.negated = False
    state.chain.clear()
    state.resolved.clear()
    state.priority = 1 - seat
    state.chain_passes = 0
    _log(
        state,
        "declare",
        seat=seat,
        attackers=[state.slot_of(a) + 1 for a in attackers],
        target=slot + 1,
        chars=[_slug(state, a) for a in attackers],
        target_char=_slug(state, target),
        attack=sum(state.lv(a) for a in attackers),
        defence=state.lv(target),
    )
    state.stack[-1] = ("cleanup",)
    state.stack += [("result",), ("resolve",), ("chain",)]
    surprise.observe(state, Condition.ATTACKED, 1 - seat)
    surprise.observe(state, Condition.OWN_ATTACK, seat)


# --- the chain -------------------------------------------------------------------------------


def _activatable(state: KoboState, seat: int, card: int) -> bool:
    cdef = state.defs[card]
    when = cdef.when
    if when is TIMING_DEFENDING and seat == state.attacker_seat:
        return False
    if when is TIMING_ATTACKING and seat != state.attacker_seat:
        return False
    if not state.chain and NEGATE_LAST in cdef.verbs:
        return False
    return not cdef.needs_choice or effects.has_candidate(state, seat, card)


def _step_chain(state: KoboState, frame: Frame) -> Prompt | None:
    return (state.priority, "chain")


def _legal_chain(state: KoboState, frame: Frame) -> list[Action]:
    return chain_actions(state, state.priority)


def chain_actions(state: KoboState, seat: int) -> list[Action]:
    """What ``seat`` could do in the open chain of ``state`` if it had priority: play a tactic
    (when a strategy slot is free), flip a face-down trap whose condition holds, or pass."""
    out: list[Action] = []
    start = seat * SLOTS
    row = state.strategy[start : start + SLOTS]
    if EMPTY in row:
        hand = state.zones[seat * ZONES + THAND]
        if hand:
            for slug, card in first_by_name(state, hand).items():
                if _activatable(state, seat, card):
                    out.append(one("play", slug))
    faceup = state.faceup
    for i, card in enumerate(row):
        if card != EMPTY and not faceup[card] and _activatable(state, seat, card):
            out.append(one("trap", i + 1))
    out.append(PASS)
    return out


def _apply_chain(state: KoboState, frame: Frame, action: Action) -> None:
    seat = state.priority
    if action == PASS:
        state.chain_passes += 1
        _log(state, "chain_pass", seat=seat)
        if state.chain_passes >= 2:
            _log(state, "chain_closed", links=len(state.chain))
            state.stack.pop()
        else:
            state.priority = 1 - seat
        return
    if action.verb == "play":
        hand = state.zone(seat, THAND)
        card = _find(state, hand, str(action.args[0]))
        hand.remove(card)
        slot = free_slots(state.strategy, seat)[0]
        state.strategy[seat * SLOTS + slot] = card
    else:
        card = state.strategy[seat * SLOTS + int(action.args[0]) - 1]
    state.faceup[card] = True
    if state.defs[card].needs_choice:
        state.stack.append(("chain_target", seat, card))
    else:
        link_to = len(state.chain) - 1 if state.defs[card].has(NEGATE_LAST) else EMPTY
        _add_link(state, seat, card, link_to)


def _add_link(state: KoboState, seat: int, card: int, target: int) -> None:
    cdef = state.defs[card]
    state.chain.append((card, seat, target, False))
    if state.surprise is not None:
        against = Condition.TRAP_AGAINST if cdef.kind is CardKind.TRAP else Condition.TACTIC_AGAINST
        surprise.observe(state, against, 1 - seat)
    if not state.quiet:  # (search worlds: spare building the event on the chain's hot path)
        info: dict[str, object] = {}
        if cdef.needs_choice and target != EMPTY:
            info = {"target_seat": state.owner[target], "target_slot": state.slot_of(target) + 1}
        elif cdef.has(NEGATE_LAST):
            info = {"negates": target + 1}
        public: dict[str, object] = {"seat": seat, "card": cdef.slug, "link": len(state.chain)}
        state.note("activate", public | info, reveals=seat)
    state.priority = seat if cdef.chain_again else 1 - seat
    state.chain_passes = 0


def _step_chain_target(state: KoboState, frame: Frame) -> Prompt | None:
    return (frame[1], "target")


def _apply_chain_target(state: KoboState, frame: Frame, action: Action) -> None:
    _, seat, card = frame
    state.stack.pop()
    _add_link(state, seat, card, _chosen(state, seat, card, action))


def _step_resolve(state: KoboState, frame: Frame) -> Prompt | None:
    while state.chain:
        link = state.chain.pop()
        state.resolved.append(link)
        effects.resolve_link(state, link)
        if check_end(state):
            return None
    state.stack.pop()
    return None


def _step_result(state: KoboState, frame: Frame) -> Prompt | None:
    """The attack result; the end conditions are checked right after it, before the sweep
    (kobo-rules.md §6: each check stands alone, so a side emptied here has already lost even
    if the sweep then empties the other)."""
    state.stack[-1] = ("sweep",)
    if state.negated:
        _log(state, "result", outcome="negated")
        return None
    attackers = [a for a in state.attackers if state.on_field(a)]
    target = state.target
    if not attackers or not state.on_field(target):
        _log(state, "result", outcome="no_battle")
        return None
    attack = sum(state.lv(a) for a in attackers)
    defence = state.lv(target)
    if attack > defence:
        _log(state, "result", outcome="attacker_wins", attack=attack, defence=defence)
        retreat(state, target)
    elif defence > attack:
        _log(state, "result", outcome="defender_wins", attack=attack, defence=defence)
        for card in attackers:
            retreat(state, card)
    elif len(attackers) == 1:
        _log(state, "result", outcome="tie_single", attack=attack, defence=defence)
        effects.lower_base(state, attackers[0], 1)
        effects.lower_base(state, target, 1)
    else:
        _log(state, "result", outcome="tie_multi", attack=attack, defence=defence)
        effects.lower_base(state, target, 1)
        state.stack.append(("tie_pick",))
    check_end(state)
    return None


def _step_tie_pick(state: KoboState, frame: Frame) -> Prompt | None:
    return (1 - state.attacker_seat, "tie")


def _legal_tie(state: KoboState, frame: Frame) -> list[Action]:
    slots = sorted(state.slot_of(a) for a in state.attackers if state.on_field(a))
    return _slot_actions("slot", slots)


def _apply_tie(state: KoboState, frame: Frame, action: Action) -> None:
    card = state.battle[state.attacker_seat * SLOTS + int(action.args[0]) - 1]
    _log(
        state,
        "tie_choice",
        seat=1 - state.attacker_seat,
        slot=int(action.args[0]),
        char=_slug(state, card),
    )
    retreat(state, card)
    state.stack.pop()
    check_end(state)


def _step_sweep(state: KoboState, frame: Frame) -> Prompt | None:
    """Every character whose base Lv is 0 retreats; then the end conditions are checked."""
    state.stack.pop()
    for card in list(state.battle):
        if card != EMPTY and state.base[card] <= 0:
            _log(
                state,
                "base_zero",
                seat=state.owner[card],
                slot=state.slot_of(card) + 1,
                card=_slug(state, card),
            )
            retreat(state, card)
    check_end(state)
    return None


def _step_cleanup(state: KoboState, frame: Frame) -> Prompt | None:
    """Activated cards leave together, in activation order; temporary changes end."""
    state.stack[-1] = ("end_turn",)
    # A surprise link's card is not in the strategy area (the surprise zone's rules see to it).
    activated = sorted(link[0] for link in state.resolved if link[0] in state.strategy)
    order = {link[0]: i for i, link in enumerate(reversed(state.resolved))}
    activated.sort(key=order.__getitem__)
    for card in activated:
        seat = state.owner[card]
        index = state.strategy.index(card)
        state.strategy[index] = EMPTY
        state.faceup[card] = False
        state.zone(seat, RETREAT).append(card)
    state.temp[:] = [0] * len(state.temp)
    state.attackers = ()
    state.target = EMPTY
    state.negated = False
    state.resolved.clear()
    _log(state, "cleanup", cards=[_slug(state, c) for c in activated])
    return None


def _step_end_turn(state: KoboState, frame: Frame) -> Prompt | None:
    state.stack.pop()
    if check_end(state):
        return None
    state.turn_player = 1 - state.turn_player
    state.stack.append(("turn_start",))
    return None

"""The Kōbō effect verbs: whom a card may choose, and what each verb does when it resolves."""

from __future__ import annotations

from kessen.games.kobo import surprise
from kessen.games.kobo.cards import (
    CHANGE_TARGET,
    MODIFY_LV,
    NEGATE_ATTACK,
    NEGATE_LAST,
    RETREAT_IF_ZERO,
    SCOPE_ALL,
    SCOPE_CHOSEN,
    CardDef,
    Step,
    named_seat,
)
from kessen.games.kobo.moves import retreat
from kessen.games.kobo.state import EMPTY, SLOTS, KoboState, Link


def side_seat(state: KoboState, seat: int, cdef: CardDef) -> int:
    """The seat whose battle area the card's effect names, seen from its controller ``seat``."""
    assert cdef.target is not None
    return named_seat(cdef.target.side, seat, state.attacker_seat)


def candidates(state: KoboState, seat: int, card: int) -> list[int]:
    """The characters ``seat`` may choose for ``card``: all of the named side's battle area.

    A target change may not choose the character that is the attack target already.
    """
    cdef = state.defs[card]
    chars = state.characters(side_seat(state, seat, cdef))
    if cdef.has(CHANGE_TARGET):
        chars = [c for c in chars if c != state.target]
    return chars


def has_candidate(state: KoboState, seat: int, card: int) -> bool:
    """True if :func:`candidates` is not empty (without building it)."""
    cdef = state.defs[card]
    start = side_seat(state, seat, cdef) * SLOTS
    row = state.battle[start : start + SLOTS]
    if CHANGE_TARGET in cdef.verbs:
        target = state.target
        return any(c != EMPTY and c != target for c in row)
    return row.count(EMPTY) < SLOTS


def lower_base(state: KoboState, card: int, amount: int) -> None:
    """Permanently lower a character's base Lv (never below 0)."""
    state.base[card] = max(0, state.base[card] - amount)


def _affected(state: KoboState, seat: int, cdef: CardDef, chosen: int) -> list[int]:
    """The characters a step applies to at resolution; gone targets drop out."""
    if cdef.target is None:
        return []
    side = side_seat(state, seat, cdef)
    scope = cdef.target.scope
    if scope is SCOPE_CHOSEN:
        ok = chosen != EMPTY and state.on_field(chosen) and state.owner[chosen] == side
        return [chosen] if ok else []
    if scope is SCOPE_ALL:
        return state.characters(side)
    if side == state.attacker_seat:
        return [a for a in state.attackers if state.on_field(a)]
    return [state.target] if state.on_field(state.target) else []


def run_step(state: KoboState, seat: int, card: int, step: Step, chosen: int) -> None:
    """Carry out one Lv or retreat step of ``card`` controlled by ``seat``."""
    cdef = state.defs[card]
    verb = step.verb
    if verb is MODIFY_LV:
        for target in _affected(state, seat, cdef, chosen):
            if cdef.permanent:
                state.base[target] = max(0, state.base[target] + step.amount)
            else:
                state.temp[target] += step.amount
            _log(
                state,
                "lv",
                card=cdef.slug,
                seat=state.owner[target],
                slot=state.slot_of(target) + 1,
                char=state.defs[target].slug,
                amount=step.amount,
                permanent=cdef.permanent,
                base=state.base[target],
                lv=state.lv(target),
            )
    elif verb is RETREAT_IF_ZERO:
        for target in _affected(state, seat, cdef, chosen):
            if state.lv(target) == 0:
                retreat(state, target)
    elif verb is CHANGE_TARGET:
        targets = _affected(state, seat, cdef, chosen)
        if targets and targets[0] != state.target:
            state.target = targets[0]
            _log(
                state,
                "target_changed",
                card=cdef.slug,
                seat=state.owner[targets[0]],
                slot=state.slot_of(targets[0]) + 1,
                char=state.defs[targets[0]].slug,
            )
    elif verb is NEGATE_ATTACK:
        state.negated = True
        _log(state, "attack_negated", card=cdef.slug)
    else:
        raise ValueError(f"verb {verb} does not resolve here")


def resolve_link(state: KoboState, link: Link) -> None:
    """Resolve one chain link (the newest): nothing if negated, else each step in order."""
    card, seat, chosen, negated = link
    if state.surprise is not None and surprise.is_surprise_link(state, link):
        surprise.resolve_link(state, link)
        return
    cdef = state.defs[card]
    number = len(state.chain) + 1
    if negated:
        _log(state, "resolve", link=number, card=cdef.slug, negated=True)
        return
    _log(state, "resolve", link=number, card=cdef.slug, negated=False)
    for step in cdef.steps:
        if step.verb is NEGATE_LAST:
            if 0 <= chosen < len(state.chain):
                victim = state.chain[chosen]
                state.chain[chosen] = (victim[0], victim[1], victim[2], True)
                _log(state, "link_negated", link=chosen + 1, card=state.defs[victim[0]].slug)
        else:
            run_step(state, seat, card, step, chosen)


def _log(state: KoboState, kind: str, **public: object) -> None:
    state.note(kind, public)

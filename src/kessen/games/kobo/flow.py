"""The rules of Kōbō as a frame machine: each frame on the stack is pending work.

``advance`` runs the top frame until one needs a decision; ``legal_actions`` lists the answers
to that decision; ``apply_action`` consumes an answer and advances again. Every frame is a tuple
of plain values, so a state can be saved, cloned, replayed or searched at any decision, even in
the middle of a chain or of a multi-part choice.

The turn frames and the dispatch live here; the standby frames in :mod:`.flow_standby`, the
exchange frames in :mod:`.flow_exchange`, the optional surprise zone in :mod:`.surprise`;
effect verbs are in :mod:`.effects`; the end conditions in :mod:`.endings`.
"""

from __future__ import annotations

from kessen.engine.action import Action, one
from kessen.engine.frames import FrameMachine
from kessen.games.kobo import surprise
from kessen.games.kobo.cards import Condition
from kessen.games.kobo.endings import end_by_comparison
from kessen.games.kobo.flow_common import (
    PASS,
    TACTICS_DRAW_AT_MOST,
    ApplyFn,
    LegalFn,
    Prompt,
    StepFn,
    _find,
    _legal_target,
    _log,
    _slug,
)
from kessen.games.kobo.flow_exchange import (
    _apply_chain,
    _apply_chain_target,
    _apply_declare,
    _apply_tie,
    _legal_chain,
    _legal_declare,
    _legal_tie,
    _step_chain,
    _step_chain_target,
    _step_cleanup,
    _step_declare,
    _step_end_turn,
    _step_resolve,
    _step_result,
    _step_sweep,
    _step_tie_pick,
    chain_actions,
)
from kessen.games.kobo.flow_standby import (
    _apply_blind,
    _apply_char,
    _apply_deploy,
    _apply_deploy_go,
    _apply_nominate,
    _apply_process,
    _apply_summon_slot,
    _apply_tactics,
    _apply_trap,
    _legal_blind,
    _legal_deploy,
    _legal_nominate,
    _legal_place,
    _legal_process,
    _legal_tactics,
    _legal_trap,
    _step_blind,
    _step_char,
    _step_deploy,
    _step_deploy_go,
    _step_deploy_steps,
    _step_end_check,
    _step_game,
    _step_nominate,
    _step_process,
    _step_standby,
    _step_summon_slot,
    _step_summon_top,
    _step_tactics,
    _step_trap,
)
from kessen.games.kobo.moves import (
    distinct_slugs,
    move,
)
from kessen.games.kobo.opening import penalty
from kessen.games.kobo.state import (
    EMPTY,
    EXCLUDED,
    SLOTS,
    TDECK,
    THAND,
    Frame,
    KoboState,
)

__all__ = ["PASS", "advance", "apply_action", "chain_actions", "legal_actions", "run_until"]


# --- turns -----------------------------------------------------------------------------------


def _step_turn_start(state: KoboState, frame: Frame) -> Prompt | None:
    state.stack.pop()
    if state.turn >= state.config.turn_limit:
        end_by_comparison(state, "turn_limit")
        return None
    state.turn += 1
    seat = state.turn_player
    _log(state, "turn", turn=state.turn, seat=seat)
    hand = state.zone(seat, THAND)
    deck = state.zone(seat, TDECK)
    if len(hand) <= TACTICS_DRAW_AT_MOST and deck:
        card = deck.pop()
        hand.append(card)
        _log(
            state, "tactics_draw", seat=seat, private_to=seat, private={"card": _slug(state, card)}
        )
    state.stack.append(("turn_decide",))
    return None


def _step_turn_decide(state: KoboState, frame: Frame) -> Prompt | None:
    return (state.turn_player, "turn")


def _legal_turn(state: KoboState, frame: Frame) -> list[Action]:
    seat = state.turn_player
    row = state.battle
    return [
        *(one("attack", i + 1) for i in range(SLOTS) if row[seat * SLOTS + i] != EMPTY),
        PASS,
        *surprise.turn_actions(state),
    ]


def _apply_turn(state: KoboState, frame: Frame, action: Action) -> None:
    seat = state.turn_player
    if action.verb in (surprise.SET, surprise.CLEAR):
        surprise.apply_turn(state, action)
        return
    if action == PASS:
        state.stack[-1] = ("end_turn",)
        _pass_turn(state, seat)
        return
    card = state.battle[seat * SLOTS + int(action.args[0]) - 1]
    state.stack[-1] = ("declare", card)


def _pass_turn(state: KoboState, seat: int) -> None:
    """Count the pass and exclude what the schedule asks (the seed's: passes − 1 cards)."""
    state.passes[seat] += 1
    count = penalty(state.config.pass_penalty, state.passes[seat])
    _log(state, "pass", seat=seat, passes=state.passes[seat], penalty=count)
    surprise.observe(state, Condition.OPPONENT_PASS, 1 - seat)
    deck = state.zone(seat, TDECK)
    taken: list[str] = []
    while count and deck:
        card = deck.pop()
        state.zone(seat, EXCLUDED).append(card)
        taken.append(_slug(state, card))
        count -= 1
    if taken:
        _log(state, "exclude", reveals=seat, seat=seat, cards=taken, source="tactics_deck")
    if count and _penalty_sources(state, seat):
        state.stack.append(("penalty", seat, count))


def _penalty_sources(state: KoboState, seat: int) -> bool:
    return bool(state.zone(seat, THAND) or state.face_down_traps(seat))


def _step_penalty(state: KoboState, frame: Frame) -> Prompt | None:
    _, seat, left = frame
    if left <= 0 or not _penalty_sources(state, seat):
        state.stack.pop()
        return None
    return (seat, "penalty")


def _legal_penalty(state: KoboState, frame: Frame) -> list[Action]:
    seat = frame[1]
    hand = state.zone(seat, THAND)
    if hand:
        return [one("exclude", s) for s in distinct_slugs(state, hand)]
    row = state.strategy
    return [
        one("exclude-trap", i + 1)
        for i in range(SLOTS)
        if row[seat * SLOTS + i] != EMPTY and not state.faceup[row[seat * SLOTS + i]]
    ]


def _apply_penalty(state: KoboState, frame: Frame, action: Action) -> None:
    _, seat, left = frame
    excluded = state.zone(seat, EXCLUDED)
    if action.verb == "exclude":
        hand = state.zone(seat, THAND)
        card = _find(state, hand, str(action.args[0]))
        move(state, card, hand, excluded)
        source = "tactics_hand"
    else:
        index = seat * SLOTS + int(action.args[0]) - 1
        card = state.strategy[index]
        state.strategy[index] = EMPTY
        excluded.append(card)
        source = "trap"
    _log(state, "exclude", reveals=seat, seat=seat, cards=[_slug(state, card)], source=source)
    state.stack[-1] = ("penalty", seat, left - 1)


# --- dispatch --------------------------------------------------------------------------------

_STEP: dict[str, StepFn] = {
    "game": _step_game,
    "standby": _step_standby,
    "process": _step_process,
    "char": _step_char,
    "trap": _step_trap,
    "deploy": _step_deploy,
    "deploy_go": _step_deploy_go,
    "deploy_steps": _step_deploy_steps,
    "summon_top": _step_summon_top,
    "summon_slot": _step_summon_slot,
    "blind_slot": _step_summon_slot,
    "nominate": _step_nominate,
    "blind": _step_blind,
    "tactics": _step_tactics,
    "end_check": _step_end_check,
    "turn_start": _step_turn_start,
    "turn_decide": _step_turn_decide,
    "penalty": _step_penalty,
    "end_turn": _step_end_turn,
    "declare": _step_declare,
    "chain": _step_chain,
    "chain_target": _step_chain_target,
    "resolve": _step_resolve,
    "result": _step_result,
    "tie_pick": _step_tie_pick,
    "sweep": _step_sweep,
    "cleanup": _step_cleanup,
    surprise.OFFER: surprise.step_offer,
    surprise.RESOLVE: surprise.step_resolve,
}

_DECIDE: dict[str, tuple[LegalFn, ApplyFn]] = {
    "process": (_legal_process, _apply_process),
    "char": (_legal_place, _apply_char),
    "trap": (_legal_trap, _apply_trap),
    "deploy": (_legal_deploy, _apply_deploy),
    "deploy_go": (_legal_target, _apply_deploy_go),
    "summon_slot": (_legal_place, _apply_summon_slot),
    "blind_slot": (_legal_place, _apply_summon_slot),
    "nominate": (_legal_nominate, _apply_nominate),
    "blind": (_legal_blind, _apply_blind),
    "tactics": (_legal_tactics, _apply_tactics),
    "turn_decide": (_legal_turn, _apply_turn),
    "penalty": (_legal_penalty, _apply_penalty),
    "declare": (_legal_declare, _apply_declare),
    "chain": (_legal_chain, _apply_chain),
    "chain_target": (_legal_target, _apply_chain_target),
    "tie_pick": (_legal_tie, _apply_tie),
    surprise.OFFER: (surprise.legal_offer, surprise.apply_offer),
}


def run_until(state: KoboState, stop: frozenset[str]) -> None:
    """Run frames without asking anyone until the top frame's kind is in ``stop``, a frame
    needs a decision, or the stack is empty.

    A dry-run hook for copies of a state (the exchange preview of :mod:`.preview` resolves the
    open chain of a copy with it); play itself never calls it. It sets no prompt: the copy is
    left mid-way and is thrown away.
    """
    stack = state.stack
    while stack and stack[-1][0] not in stop:
        frame = stack[-1]
        if _STEP[frame[0]](state, frame) is not None:
            return


#: Kōbō's frame machine: its steps, its decisions and the surprise zone's check timing.
MACHINE: FrameMachine[KoboState] = FrameMachine(_STEP, _DECIDE, surprise.check)
#: Run frames until one needs a decision (or the game is over).
advance = MACHINE.advance
#: The answers to the pending decision, in a fixed order.
legal_actions = MACHINE.legal_actions
#: Apply a legal action and advance; an illegal one raises and changes nothing.
apply_action = MACHINE.apply_action

"""The rules of TWGP トランプ版 as a frame machine: each frame on the stack is pending work.

``advance`` runs the top frame until one needs a decision; ``legal_actions`` lists the answers
to it; ``apply_action`` consumes an answer and advances again. Frames are tuples of plain
values, so a state can be saved, cloned, replayed or searched at any decision.

A turn is the frames ``turn_start`` → ``opp_setup`` (the opponent's set-up) → ``own_setup``
(the turn player's set-up, before its first other action; §2.9 #27) → ``build_window`` (the turn
player's BUILD window, closed by ``battle``; with ``setupAnytime`` there is no ``own_setup`` and
the window offers set-ups instead) → ``battle_window`` (closed by ``end``) →
``turn_end``. An attack pushes ``resolve`` under the defender's ``response`` window (closed by
``accept``); resolution pushes vital losses (:mod:`.vitals`), weapon-cache decisions and, on
top, ``order`` frames: the owner of a discarded stack orders its cards where that can matter
(§2.3), one ``log-out <card>`` at a time, before anything else happens.
"""

from __future__ import annotations

from collections.abc import Callable

from kessen.engine.action import Action
from kessen.engine.frames import FrameMachine
from kessen.games.twgp import actions as inner
from kessen.games.twgp import attacks, building, drives, vitals
from kessen.games.twgp.actions import (
    attach_actions,
    charge_drive_actions,
    declare_gb_actions,
    reactive_actions,
    reload_frame_actions,
    reload_start_actions,
    setup_actions,
    stealth_actions,
    unstealth_actions,
    weapon_actions,
)
from kessen.games.twgp.attacks import (
    assault_actions,
    boost_actions,
    direct_actions,
    execute_gb_actions,
    recharge_actions,
    surge_pay_actions,
)
from kessen.games.twgp.cards import CARDS, by_slug
from kessen.games.twgp.config import HAND_LIMIT
from kessen.games.twgp.drives import counter_drive_actions, power_drive_actions
from kessen.games.twgp.moves import (
    log,
    log_out,
    log_out_next,
    order_cards,
    order_open,
    slugs,
)
from kessen.games.twgp.state import (
    BATTLE,
    BUILD,
    DIRECT,
    EMPTY,
    HAND,
    ZONE_NAMES,
    Frame,
    TwgpState,
)
from kessen.games.twgp.vitals import end_game

Prompt = tuple[int, str]
StepFn = Callable[[TwgpState, Frame], Prompt | None]
LegalFn = Callable[[TwgpState, Frame], list[Action]]
ApplyFn = Callable[[TwgpState, Frame, Action], None]

BATTLE_ACTION = Action.of("battle")
END = Action.of("end")
ACCEPT = Action.of("accept")
DONE = Action.of("done")
KEEP = Action.of("keep-weapons")
DROP = Action.of("drop-weapons")
_DECLARE = {"assault", "surge-assault", "boost", "direct"}


# --- turns ---------------------------------------------------------------------------------


def _step_turn_start(state: TwgpState, frame: Frame) -> Prompt | None:
    state.stack.pop()
    state.turn += 1
    state.toggles = [0, 0]
    state.taken = [0, 0]
    state.reloaded = False
    state.phase = BUILD
    seat = state.turn_player
    log(state, "turn", turn=state.turn, seat=seat)
    state.stack += [("turn_end",), ("battle_window",), ("build_window",)]
    if not state.config.setup_anytime:
        state.stack.append(("own_setup", seat))
    state.stack.append(("opp_setup", 1 - seat))
    return None


def _step_opp_setup(state: TwgpState, frame: Frame) -> Prompt | None:
    """A set-up at the start of the build phase (frames ``opp_setup`` and ``own_setup``): the
    seat moves charge cards into its hand, one per action, until ``done`` or a full hand."""
    seat = frame[1]
    if len(state.zone(seat, HAND)) < HAND_LIMIT and state.empty_charge(seat) < state.width:
        return (seat, "setup")
    state.stack.pop()
    return None


def _legal_opp_setup(state: TwgpState, frame: Frame) -> list[Action]:
    return [*setup_actions(state, frame[1]), DONE]


def _apply_opp_setup(state: TwgpState, frame: Frame, action: Action) -> None:
    if action == DONE:
        state.stack.pop()
    else:
        inner.apply_setup(state, frame[1], action)


def _step_turn_end(state: TwgpState, frame: Frame) -> Prompt | None:
    state.stack.pop()
    state.quiet = 0 if state.active_turn else state.quiet + 1
    state.active_turn = False
    log(state, "end_turn", seat=state.turn_player, turn=state.turn, quiet=state.quiet)
    if state.quiet >= state.config.quiet_turns:
        end_game(state, -1, "quiet")
    elif state.turn >= state.config.turn_limit:
        end_game(state, -1, "turn_limit")
    else:
        state.turn_player = 1 - state.turn_player
        state.stack.append(("turn_start",))
    return None


# --- the turn player's windows ---------------------------------------------------------------


def _prompt_turn_player(kind: str) -> StepFn:
    def step(state: TwgpState, frame: Frame) -> Prompt | None:
        return (state.turn_player, kind)

    return step


# The window's families share the seat's stacks (computed once per list of answers).


def _legal_build(state: TwgpState, frame: Frame) -> list[Action]:
    seat = state.turn_player
    mine = state.stacks(seat)
    return [
        *(setup_actions(state, seat) if state.config.setup_anytime else []),
        *reactive_actions(state, seat, mine),
        *charge_drive_actions(state, seat),
        *power_drive_actions(state, seat, mine),
        *attach_actions(state, seat, mine),
        *weapon_actions(state, seat, mine),
        *stealth_actions(state, seat, mine),
        *unstealth_actions(state, seat, mine),
        *declare_gb_actions(state, seat, mine),
        *execute_gb_actions(state, seat, mine),
        *reload_start_actions(state, seat),
        BATTLE_ACTION,
    ]


def _legal_battle(state: TwgpState, frame: Frame) -> list[Action]:
    seat = state.turn_player
    mine, foes = state.stacks(seat), state.stacks(1 - seat)
    return [
        *charge_drive_actions(state, seat),
        *power_drive_actions(state, seat, mine),
        *attach_actions(state, seat, mine),
        *weapon_actions(state, seat, mine),
        *stealth_actions(state, seat, mine),
        *unstealth_actions(state, seat, mine),
        *declare_gb_actions(state, seat, mine),
        *execute_gb_actions(state, seat, mine),
        *assault_actions(state, seat, mine, foes),
        *boost_actions(state, seat, mine, foes),
        *direct_actions(state, seat, mine, foes),
        END,
    ]


def _push_caches(state: TwgpState, caches: list[tuple[int, int]]) -> None:
    for seat, square in reversed(caches):
        state.stack.append(("cache", seat, square))


def _push_orders(state: TwgpState, orders: list[tuple[int, tuple[int, ...]]]) -> None:
    for seat, cards in reversed(orders):
        state.stack.append(("order", seat, cards))


def _apply_inner(state: TwgpState, seat: int, action: Action) -> None:
    """Apply an inner action of any window (including an A11 G-blast)."""
    verb = action.verb
    if verb == "grid-blast":
        done = attacks.apply_grid_blast(state, seat, action)
        attack = state.attack
        if attack is not None and attack.cancelled and state.stack[-1][0] == "response":
            state.stack.pop()  # nothing resolves: the attack is cancelled (§2.6.0)
        _push_caches(state, done.caches)
        _push_orders(state, done.orders)
    elif verb in drives.APPLY:
        drives.APPLY[verb](state, seat, action)
        attack = state.attack
        if attack is not None and attack.lost and state.stack[-1][0] == "response":
            state.stack.pop()  # the attack ends (§2.6.4)
    else:
        inner.APPLY[verb](state, seat, action)


def _apply_window(state: TwgpState, frame: Frame, action: Action) -> None:
    seat = state.turn_player
    verb = action.verb
    if action == BATTLE_ACTION:
        state.stack.pop()
        state.phase = BATTLE
        log(state, "battle_phase", seat=seat)
    elif action == END:
        state.stack.pop()
    elif verb in _DECLARE:
        attacks.apply_declare(state, seat, action)
    elif verb == "reload-bottom":
        state.reloaded = True
        inner.reload_bottom(state, seat, action)
        state.stack.append(("reload16", seat, 1))
    else:
        _apply_inner(state, seat, action)


# --- the defender's window -----------------------------------------------------------------


def _step_response(state: TwgpState, frame: Frame) -> Prompt | None:
    assert state.attack is not None
    return (1 - state.attack.seat, "response")


def _legal_response(state: TwgpState, frame: Frame) -> list[Action]:
    attack = state.attack
    assert attack is not None
    seat = 1 - attack.seat
    open_direct = attack.kind != DIRECT or attack.interrupter == EMPTY
    mine = state.stacks(seat)
    return [
        *charge_drive_actions(state, seat, face_up=open_direct),
        *power_drive_actions(state, seat, mine),
        *counter_drive_actions(state, seat),
        *attach_actions(state, seat, mine),
        *stealth_actions(state, seat, mine),
        *(unstealth_actions(state, seat, mine) if open_direct else []),
        *execute_gb_actions(state, seat, mine),
        *surge_pay_actions(state, seat),
        ACCEPT,
    ]


def _apply_response(state: TwgpState, frame: Frame, action: Action) -> None:
    attack = state.attack
    assert attack is not None
    seat = 1 - attack.seat
    if action == ACCEPT:
        state.stack.pop()
        log(state, "accept", seat=seat)
    elif action.verb == "surge":
        attacks.apply_surge_pay(state, seat, action)
    else:
        _apply_inner(state, seat, action)


def _step_resolve(state: TwgpState, frame: Frame) -> Prompt | None:
    state.stack.pop()
    done = attacks.resolve(state)
    for seat, count in reversed(done.losses):
        state.stack.append(("vloss", seat, count, ()))
    _push_caches(state, done.caches)
    _push_orders(state, done.orders)
    return None


def _step_recharge(state: TwgpState, frame: Frame) -> Prompt | None:
    if frame[2] <= 0:
        state.stack.pop()
        return None
    return (frame[1], "recharge")


def _legal_recharge(state: TwgpState, frame: Frame) -> list[Action]:
    return recharge_actions(state, frame[1])


def _apply_recharge(state: TwgpState, frame: Frame, action: Action) -> None:
    attacks.apply_recharge(state, frame[1], action)
    state.stack[-1] = ("recharge", frame[1], frame[2] - 1)


# --- small decisions -------------------------------------------------------------------------


def _step_own(kind: str) -> StepFn:
    def step(state: TwgpState, frame: Frame) -> Prompt | None:
        return (frame[1], kind)

    return step


def _legal_cache(state: TwgpState, frame: Frame) -> list[Action]:
    return [KEEP, DROP]


def _apply_cache(state: TwgpState, frame: Frame, action: Action) -> None:
    _, seat, square = frame
    state.stack.pop()
    cell = seat * state.width + square
    weapons = state.cache[cell]
    if action == DROP:
        state.cache[cell] = ()
        log_out(state, seat, weapons)
    log(state, "cache", seat=seat, square=square + 1, cards=slugs(weapons), keep=action == KEEP)
    if action == DROP and len(weapons) >= 2:
        state.stack.append(("order", seat, weapons))


def _step_order(state: TwgpState, frame: Frame) -> Prompt | None:
    """The owner orders cards logged out together while that can matter (§2.3)."""
    _, seat, cards = frame
    if not order_open(state, seat, cards):
        state.stack.pop()
        return None
    return (seat, "order")


def _legal_order(state: TwgpState, frame: Frame) -> list[Action]:
    _, seat, cards = frame
    return [Action.of("log-out", CARDS[c].slug) for c in order_cards(state, seat, cards)]


def _apply_order(state: TwgpState, frame: Frame, action: Action) -> None:
    _, seat, cards = frame
    card = by_slug(str(action.args[0])).id
    zone = log_out_next(state, seat, cards, card)
    log(state, "log_out", seat=seat, card=CARDS[card].slug, zone=ZONE_NAMES[zone])
    state.stack[-1] = ("order", seat, order_cards(state, seat, cards)[1:])


def _legal_reload16(state: TwgpState, frame: Frame) -> list[Action]:
    return reload_frame_actions(state, frame[1], frame[2])


def _apply_reload16(state: TwgpState, frame: Frame, action: Action) -> None:
    _, seat, count = frame
    if action.verb == "reload-bottom":
        inner.reload_bottom(state, seat, action)
        state.stack[-1] = ("reload16", seat, count + 1)
        return
    state.stack.pop()
    inner.reload_take(state, seat, count, int(action.args[0]))


def _step_veffect(state: TwgpState, frame: Frame) -> Prompt | None:
    return (frame[1], "effect")


# --- dispatch --------------------------------------------------------------------------------

_STEP: dict[str, StepFn] = {
    "build": building.step_build,
    "deal": building.step_deal,
    "turn_start": _step_turn_start,
    "opp_setup": _step_opp_setup,
    "own_setup": _step_opp_setup,
    "build_window": _prompt_turn_player("build_window"),
    "battle_window": _prompt_turn_player("battle_window"),
    "turn_end": _step_turn_end,
    "response": _step_response,
    "resolve": _step_resolve,
    "recharge": _step_recharge,
    "vloss": vitals.step_vloss,
    "veffect": _step_veffect,
    "damage": _step_own("damage"),
    "cache": _step_own("cache"),
    "order": _step_order,
    "reload16": _step_own("reload"),
    "dreload": _step_own("damage_reload"),
}

_DECIDE: dict[str, tuple[LegalFn, ApplyFn]] = {
    "build": (building.build_actions, building.apply_build),
    "opp_setup": (_legal_opp_setup, _apply_opp_setup),
    "own_setup": (_legal_opp_setup, _apply_opp_setup),
    "build_window": (_legal_build, _apply_window),
    "battle_window": (_legal_battle, _apply_window),
    "response": (_legal_response, _apply_response),
    "recharge": (_legal_recharge, _apply_recharge),
    "vloss": (vitals.vital_actions, vitals.apply_vital),
    "veffect": (vitals.effect_actions, vitals.apply_effect),
    "damage": (vitals.damage_actions, vitals.apply_damage),
    "cache": (_legal_cache, _apply_cache),
    "order": (_legal_order, _apply_order),
    "reload16": (_legal_reload16, _apply_reload16),
    "dreload": (vitals.reload_actions, vitals.apply_reload),
}


_MACHINE: FrameMachine[TwgpState] = FrameMachine(_STEP, _DECIDE)
#: Run frames until one needs a decision (or the game is over).
advance = _MACHINE.advance
#: The answers to the pending decision, in a fixed order.
legal_actions = _MACHINE.legal_actions
#: Apply a legal action and advance; an illegal one raises and changes nothing.
apply_action = _MACHINE.apply_action

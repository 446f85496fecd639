"""Kōbō frames before the first turn: a new game's deal, the standby phase, the tactics hands.

Each player's main standby (draw 7, redraw without a character, then process the hand card by
card: place characters, resolve or discard deploy cards, set or discard traps), the deploy
effects that need frames (summon from the deck, reinforcement nomination and its blind pick),
and the choice of the tactics hands.
"""

from __future__ import annotations

from kessen.engine.action import Action, one
from kessen.games.kobo import effects, surprise
from kessen.games.kobo.cards import CardKind, Verb
from kessen.games.kobo.endings import check_end
from kessen.games.kobo.flow_common import (
    DISCARD,
    STANDBY_DRAW,
    USE,
    Prompt,
    _chosen,
    _find,
    _log,
    _slot_actions,
    _slug,
)
from kessen.games.kobo.moves import (
    distinct_slugs,
    draw_main,
    free_slots,
    move,
    shuffle_zone,
)
from kessen.games.kobo.state import (
    EMPTY,
    HAND,
    MAIN_DECK,
    RESOLVING,
    RETREAT,
    REVEAL,
    SLOTS,
    TDECK,
    THAND,
    Frame,
    KoboState,
)

# --- a new game ------------------------------------------------------------------------------


def _step_game(state: KoboState, frame: Frame) -> Prompt | None:
    """Deal a fresh game: every card home, decks shuffled, first player drawn."""
    state.stack.pop()
    state.game_no += 1
    for zone in state.zones:
        zone.clear()
    surprise.reset(state)
    state.battle[:] = [EMPTY] * len(state.battle)
    state.strategy[:] = [EMPTY] * len(state.strategy)
    for card, cdef in enumerate(state.defs):
        state.base[card] = cdef.lv
        state.temp[card] = 0
        state.faceup[card] = False
        home = TDECK if cdef.kind is CardKind.TACTIC else MAIN_DECK
        state.zone(state.owner[card], home).append(card)
    for seat in (0, 1):
        # The deck lists start in file order; the top of a deck is the end of its list.
        state.zone(seat, MAIN_DECK).reverse()
        state.zone(seat, TDECK).reverse()
        if state.config.shuffle:
            state.rng.shuffle(state.zone(seat, MAIN_DECK))
            state.rng.shuffle(state.zone(seat, TDECK))
    state.passes = [0, 0]
    state.turn = 0
    state.chain.clear()
    state.resolved.clear()
    state.attackers = ()
    state.target = EMPTY
    state.negated = False
    fixed = state.config.first_player
    first = fixed if fixed is not None and state.game_no == 1 else state.rng.below(2)
    state.first_player = first
    state.turn_player = first
    second = 1 - first
    _log(state, "game_start", game=state.game_no, first=first)
    state.stack += [
        ("turn_start",),
        ("end_check",),
        ("tactics", first, state.config.first_tactics),
        ("standby", second),
        ("tactics", second, state.config.second_tactics),
        ("standby", first),
    ]
    return None


# --- standby ---------------------------------------------------------------------------------


def _step_standby(state: KoboState, frame: Frame) -> Prompt | None:
    """Draw 7; while the hand holds no character, reveal it, put it back, shuffle, redraw."""
    seat = frame[1]
    hand = state.zone(seat, HAND)
    deck = state.zone(seat, MAIN_DECK)
    _log(state, "standby", seat=seat)
    while True:
        drawn = draw_main(state, seat, STANDBY_DRAW)
        _log(
            state,
            "draw",
            seat=seat,
            count=len(drawn),
            private_to=seat,
            private={"cards": [_slug(state, c) for c in drawn]},
        )
        if any(state.defs[c].is_character for c in hand) or not any(
            state.defs[c].is_character for c in deck
        ):
            break
        _log(state, "redraw", reveals=seat, seat=seat, cards=[_slug(state, c) for c in hand])
        deck[:0] = hand  # back under the deck, then shuffled
        hand.clear()
        shuffle_zone(state, seat, MAIN_DECK)
    state.stack[-1] = ("process", seat)
    return None


def _step_process(state: KoboState, frame: Frame) -> Prompt | None:
    seat = frame[1]
    if not state.zone(seat, HAND):
        state.stack.pop()
        _log(state, "standby_end", seat=seat)
        return None
    return (seat, "standby")


def _legal_process(state: KoboState, frame: Frame) -> list[Action]:
    return [one("pick", s) for s in distinct_slugs(state, state.zone(frame[1], HAND))]


def _apply_process(state: KoboState, frame: Frame, action: Action) -> None:
    seat = frame[1]
    card = _find(state, state.zone(seat, HAND), str(action.args[0]))
    move(state, card, state.zone(seat, HAND), state.zone(seat, RESOLVING))
    kind = state.defs[card].kind
    nxt = {CardKind.CHARACTER: "char", CardKind.DEPLOY: "deploy", CardKind.TRAP: "trap"}[kind]
    state.stack.append((nxt, seat, card))


def _step_char(state: KoboState, frame: Frame) -> Prompt | None:
    _, seat, card = frame
    if not free_slots(state.battle, seat):
        move(state, card, state.zone(seat, RESOLVING), state.zone(seat, RETREAT))
        _log(state, "no_slot", reveals=seat, seat=seat, card=_slug(state, card))
        state.stack.pop()
        return None
    return (seat, "place")


def _legal_place(state: KoboState, frame: Frame) -> list[Action]:
    return _slot_actions("slot", free_slots(state.battle, frame[1]))


def _place(state: KoboState, seat: int, card: int, slot: int, source: int) -> None:
    state.zone(seat, source).remove(card)
    state.battle[seat * SLOTS + slot] = card
    hidden_before = source == RESOLVING  # from the hand; summoned cards were shown already
    _log(
        state,
        "place",
        reveals=seat if hidden_before else -1,
        seat=seat,
        slot=slot + 1,
        card=_slug(state, card),
    )


def _apply_char(state: KoboState, frame: Frame, action: Action) -> None:
    _, seat, card = frame
    _place(state, seat, card, int(action.args[0]) - 1, RESOLVING)
    state.stack.pop()


def _step_trap(state: KoboState, frame: Frame) -> Prompt | None:
    return (frame[1], "set")


def _legal_trap(state: KoboState, frame: Frame) -> list[Action]:
    return [*_slot_actions("slot", free_slots(state.strategy, frame[1])), DISCARD]


def _apply_trap(state: KoboState, frame: Frame, action: Action) -> None:
    _, seat, card = frame
    state.stack.pop()
    if action == DISCARD:
        move(state, card, state.zone(seat, RESOLVING), state.zone(seat, RETREAT))
        _log(state, "discard", reveals=seat, seat=seat, card=_slug(state, card))
        return
    slot = int(action.args[0]) - 1
    state.zone(seat, RESOLVING).remove(card)
    state.strategy[seat * SLOTS + slot] = card
    _log(
        state,
        "set",
        seat=seat,
        slot=slot + 1,
        private_to=seat,
        private={"card": _slug(state, card)},
    )


def _step_deploy(state: KoboState, frame: Frame) -> Prompt | None:
    return (frame[1], "deploy")


def _legal_deploy(state: KoboState, frame: Frame) -> list[Action]:
    return [USE, DISCARD]


def _apply_deploy(state: KoboState, frame: Frame, action: Action) -> None:
    _, seat, card = frame
    if action == DISCARD:
        move(state, card, state.zone(seat, RESOLVING), state.zone(seat, RETREAT))
        _log(state, "discard", reveals=seat, seat=seat, card=_slug(state, card))
        state.stack.pop()
        return
    _log(state, "deploy", reveals=seat, seat=seat, card=_slug(state, card))
    state.stack[-1] = ("deploy_go", seat, card)


def _step_deploy_go(state: KoboState, frame: Frame) -> Prompt | None:
    _, seat, card = frame
    cdef = state.defs[card]
    if cdef.needs_choice:
        if not effects.candidates(state, seat, card):
            # The steps on the chosen character do nothing; the others (a draw) still happen.
            _log(state, "no_target", seat=seat, card=cdef.slug)
            state.stack[-1] = ("deploy_steps", seat, card, 0, EMPTY)
            return None
        return (seat, "deploy_target")
    state.stack[-1] = ("deploy_steps", seat, card, 0, EMPTY)
    return None


def _apply_deploy_go(state: KoboState, frame: Frame, action: Action) -> None:
    _, seat, card = frame
    state.stack[-1] = ("deploy_steps", seat, card, 0, _chosen(state, seat, card, action))


def _step_deploy_steps(state: KoboState, frame: Frame) -> Prompt | None:
    _, seat, card, index, target = frame
    steps = state.defs[card].steps
    if index >= len(steps):
        move(state, card, state.zone(seat, RESOLVING), state.zone(seat, RETREAT))
        state.stack.pop()
        return None
    state.stack[-1] = ("deploy_steps", seat, card, index + 1, target)
    step = steps[index]
    if step.verb is Verb.SUMMON_TOP:
        state.stack.append(("summon_top", seat))
    elif step.verb is Verb.NOMINATE:
        state.stack.append(("nominate", seat))
    elif step.verb is Verb.DRAW:
        drawn = draw_main(state, seat, step.amount)
        _log(
            state,
            "draw",
            seat=seat,
            count=len(drawn),
            private_to=seat,
            private={"cards": [_slug(state, c) for c in drawn]},
        )
    else:
        effects.run_step(state, seat, card, step, target)
    return None


def _step_summon_top(state: KoboState, frame: Frame) -> Prompt | None:
    seat = frame[1]
    deck = state.zone(seat, MAIN_DECK)
    reveal = state.zone(seat, REVEAL)
    if not free_slots(state.battle, seat):
        shuffle_zone(state, seat, MAIN_DECK)
        _log(state, "summon_fail", seat=seat, reason="no_slot")
        state.stack.pop()
        return None
    found = EMPTY
    while deck:
        card = deck.pop()
        reveal.append(card)
        if state.defs[card].is_character:
            found = card
            break
    _log(state, "reveal", reveals=seat, seat=seat, cards=[_slug(state, c) for c in reveal])
    if found == EMPTY:
        _return_reveal(state, seat)
        _log(state, "summon_fail", seat=seat, reason="no_character")
        state.stack.pop()
        return None
    state.stack[-1] = ("summon_slot", seat, found)
    return None


def _return_reveal(state: KoboState, seat: int) -> None:
    reveal = state.zone(seat, REVEAL)
    state.zone(seat, MAIN_DECK).extend(reveal)
    reveal.clear()
    shuffle_zone(state, seat, MAIN_DECK)


def _step_summon_slot(state: KoboState, frame: Frame) -> Prompt | None:
    return (frame[1], "place")


def _apply_summon_slot(state: KoboState, frame: Frame, action: Action) -> None:
    _, seat, card = frame
    _place(state, seat, card, int(action.args[0]) - 1, REVEAL)
    _return_reveal(state, seat)
    state.stack.pop()


def _nominees(state: KoboState, seat: int, named: tuple[str, ...]) -> list[str]:
    deck = state.zone(seat, MAIN_DECK)
    chars = [c for c in deck if state.defs[c].is_character]
    return [s for s in distinct_slugs(state, chars) if s not in named]


def _step_nominate(state: KoboState, frame: Frame) -> Prompt | None:
    seat, named = frame[1], frame[2:]
    if not named:
        if len(_nominees(state, seat, ())) < 3:
            _log(state, "nominate_fail", seat=seat, reason="fewer_than_3")
            state.stack.pop()
            return None
        if not free_slots(state.battle, seat):
            _log(state, "nominate_fail", seat=seat, reason="no_slot")
            state.stack.pop()
            return None
    return (seat, "nominate")


def _legal_nominate(state: KoboState, frame: Frame) -> list[Action]:
    return [one("name", s) for s in _nominees(state, frame[1], frame[2:])]


def _apply_nominate(state: KoboState, frame: Frame, action: Action) -> None:
    seat = frame[1]
    named = (*frame[2:], str(action.args[0]))
    if len(named) < 3:
        state.stack[-1] = ("nominate", seat, *named)
        return
    deck = state.zone(seat, MAIN_DECK)
    reveal = state.zone(seat, REVEAL)
    for slug in named:
        move(state, _find(state, deck, slug), deck, reveal)
    _log(state, "nominate", reveals=seat, seat=seat, cards=list(named))
    state.rng.shuffle(reveal)  # turned face down and shuffled
    state.stack[-1] = ("blind", seat)


def _step_blind(state: KoboState, frame: Frame) -> Prompt | None:
    return (1 - frame[1], "blind")


def _legal_blind(state: KoboState, frame: Frame) -> list[Action]:
    return [one("pick", i + 1) for i in range(len(state.zone(frame[1], REVEAL)))]


def _apply_blind(state: KoboState, frame: Frame, action: Action) -> None:
    seat = frame[1]
    position = int(action.args[0])
    card = state.zone(seat, REVEAL)[position - 1]
    _log(
        state, "blind_pick", reveals=seat, seat=1 - seat, position=position, card=_slug(state, card)
    )
    state.stack[-1] = ("blind_slot", seat, card)


def _step_tactics(state: KoboState, frame: Frame) -> Prompt | None:
    _, seat, left = frame
    if left > 0 and state.zone(seat, TDECK):
        return (seat, "tactics")
    state.stack.pop()
    hand = state.zone(seat, THAND)
    shuffle_zone(state, seat, TDECK)
    _log(
        state,
        "tactics_hand",
        seat=seat,
        count=len(hand),
        private_to=seat,
        private={"cards": [_slug(state, c) for c in hand]},
    )
    return None


def _legal_tactics(state: KoboState, frame: Frame) -> list[Action]:
    return [one("take", s) for s in distinct_slugs(state, state.zone(frame[1], TDECK))]


def _apply_tactics(state: KoboState, frame: Frame, action: Action) -> None:
    _, seat, left = frame
    deck = state.zone(seat, TDECK)
    move(state, _find(state, deck, str(action.args[0])), deck, state.zone(seat, THAND))
    state.stack[-1] = ("tactics", seat, left - 1)


def _step_end_check(state: KoboState, frame: Frame) -> Prompt | None:
    state.stack.pop()
    check_end(state)
    return None

"""The rules of Kōbō as a frame machine: each frame on the stack is pending work.

``advance`` runs the top frame until one needs a decision; ``legal_actions`` lists the answers
to that decision; ``apply_action`` consumes an answer and advances again. Every frame is a tuple
of plain values, so a state can be saved, cloned, replayed or searched at any decision, even in
the middle of a chain or of a multi-part choice.

The standby, turn and exchange frames live here; effect verbs are in :mod:`.effects`; the end
conditions in :mod:`.endings`.
"""

from __future__ import annotations

from collections.abc import Callable

from kessen.engine.action import Action
from kessen.engine.contract import IllegalAction
from kessen.engine.frames import FrameMachine
from kessen.games.kobo import effects
from kessen.games.kobo.cards import NEGATE_LAST, TIMING_ATTACKING, TIMING_DEFENDING, CardKind, Verb
from kessen.games.kobo.endings import check_end, end_by_comparison
from kessen.games.kobo.moves import (
    distinct_slugs,
    draw_main,
    first_by_name,
    free_slots,
    move,
    retreat,
    shuffle_zone,
)
from kessen.games.kobo.state import (
    EMPTY,
    EXCLUDED,
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

Prompt = tuple[int, str]
StepFn = Callable[[KoboState, Frame], Prompt | None]
ApplyFn = Callable[[KoboState, Frame, Action], None]
LegalFn = Callable[[KoboState, Frame], list[Action]]

PASS = Action.of("pass")
USE = Action.of("use")
DISCARD = Action.of("discard")
STANDBY_DRAW = 7
SECOND_PLAYER_TACTICS = 7
FIRST_PLAYER_TACTICS = 5
TACTICS_DRAW_AT_MOST = 3


def _slot_actions(verb: str, slots: list[int]) -> list[Action]:
    return [Action.of(verb, i + 1) for i in slots]


def _log(
    state: KoboState,
    kind: str,
    private_to: int = -1,
    private: dict[str, object] | None = None,
    reveals: int = -1,
    **public: object,
) -> None:
    state.note(kind, public, private_to, private, reveals)


def _slug(state: KoboState, card: int) -> str:
    return state.defs[card].slug


def _find(state: KoboState, zone: list[int], slug: str) -> int:
    for card in zone:
        if state.defs[card].slug == slug:
            return card
    raise IllegalAction(f"no {slug} there")


# --- a new game ------------------------------------------------------------------------------


def _step_game(state: KoboState, frame: Frame) -> Prompt | None:
    """Deal a fresh game: every card home, decks shuffled, first player drawn."""
    state.stack.pop()
    state.game_no += 1
    for zone in state.zones:
        zone.clear()
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
        ("tactics", first, FIRST_PLAYER_TACTICS),
        ("standby", second),
        ("tactics", second, SECOND_PLAYER_TACTICS),
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
    return [Action.of("pick", s) for s in distinct_slugs(state, state.zone(frame[1], HAND))]


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


def _legal_target(state: KoboState, frame: Frame) -> list[Action]:
    _, seat, card = frame[:3]
    return _slot_actions("slot", [state.slot_of(c) for c in effects.candidates(state, seat, card)])


def _chosen(state: KoboState, seat: int, card: int, action: Action) -> int:
    side = effects.side_seat(state, seat, state.defs[card])
    return state.battle[side * SLOTS + int(action.args[0]) - 1]


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
    return [Action.of("name", s) for s in _nominees(state, frame[1], frame[2:])]


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
    return [Action.of("pick", i + 1) for i in range(len(state.zone(frame[1], REVEAL)))]


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
    return [Action.of("take", s) for s in distinct_slugs(state, state.zone(frame[1], TDECK))]


def _apply_tactics(state: KoboState, frame: Frame, action: Action) -> None:
    _, seat, left = frame
    deck = state.zone(seat, TDECK)
    move(state, _find(state, deck, str(action.args[0])), deck, state.zone(seat, THAND))
    state.stack[-1] = ("tactics", seat, left - 1)


def _step_end_check(state: KoboState, frame: Frame) -> Prompt | None:
    state.stack.pop()
    check_end(state)
    return None


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
        *(Action.of("attack", i + 1) for i in range(SLOTS) if row[seat * SLOTS + i] != EMPTY),
        PASS,
    ]


def _apply_turn(state: KoboState, frame: Frame, action: Action) -> None:
    seat = state.turn_player
    if action == PASS:
        state.stack[-1] = ("end_turn",)
        _pass_turn(state, seat)
        return
    card = state.battle[seat * SLOTS + int(action.args[0]) - 1]
    state.stack[-1] = ("declare", card)


def _pass_turn(state: KoboState, seat: int) -> None:
    """Count the pass; from the 2nd pass on, exclude (passes − 1) cards."""
    state.passes[seat] += 1
    count = state.passes[seat] - 1
    _log(state, "pass", seat=seat, passes=state.passes[seat], penalty=count)
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
        return [Action.of("exclude", s) for s in distinct_slugs(state, hand)]
    row = state.strategy
    return [
        Action.of("exclude-trap", i + 1)
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


def _declare_options(state: KoboState, attackers: tuple[int, ...]) -> list[Action]:
    seat = state.turn_player
    foe = 1 - seat
    total = sum(state.lv(a) for a in attackers)
    foes = [(i, c) for i in range(SLOTS) if (c := state.battle[foe * SLOTS + i]) != EMPTY]
    best = max(state.lv(c) for _, c in foes)
    out = [
        Action.of("attack", i + 1)
        for i in range(SLOTS)
        if (c := state.battle[seat * SLOTS + i]) != EMPTY
        and c not in attackers
        and total + state.lv(c) <= best + 1
    ]
    single = len(attackers) == 1
    out += [Action.of("target", i + 1) for i, c in foes if single or total <= state.lv(c) + 1]
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
    row = state.strategy
    start = seat * SLOTS
    if EMPTY in row[start : start + SLOTS]:
        out += [
            Action.of("play", slug)
            for slug, card in first_by_name(state, state.zone(seat, THAND)).items()
            if _activatable(state, seat, card)
        ]
    for i in range(SLOTS):
        card = row[start + i]
        if card != EMPTY and not state.faceup[card] and _activatable(state, seat, card):
            out.append(Action.of("trap", i + 1))
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
    activated = sorted(link[0] for link in state.resolved)
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


_MACHINE: FrameMachine[KoboState] = FrameMachine(_STEP, _DECIDE)
#: Run frames until one needs a decision (or the game is over).
advance = _MACHINE.advance
#: The answers to the pending decision, in a fixed order.
legal_actions = _MACHINE.legal_actions
#: Apply a legal action and advance; an illegal one raises and changes nothing.
apply_action = _MACHINE.apply_action

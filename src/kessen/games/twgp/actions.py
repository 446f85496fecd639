"""The self-contained (inner) actions of TWGP: set-up, re-active, charge drive, weapons, stealth.

Each family has a function listing its legal actions for a seat (the only legality, used by
:mod:`.flow` per window) and an apply function keyed by verb in :data:`APPLY`. Text forms
(squares are numbered from 1, cards are slugs):

- A1 ``setup 2`` (charge square 2 into the hand)
- A2 ``reactive 1``
- A3 ``charge-drive s3 4`` (face up) and ``stealth-drive s3 4`` (face down)
- A6 ``attach sj 4``; A7 ``weapon-back sj`` and ``weapon-move sj 2``
- A8 ``stealth 4``; A9 ``unstealth 4``; A10 ``declare-gb 1``
- A16 ``reload-bottom s9`` (then ``reload-bottom ...`` or ``reload-take 2`` in its frame)

Reversing moves (stealth, returning or moving a weapon, cancelling a G-blast declaration) are
capped at :data:`TOGGLE_CAP` per player and turn, the engine's guard against toggling loops
that twgp-trump.md §2.4 allows.
"""

from __future__ import annotations

from collections.abc import Callable

from kessen.engine.action import Action
from kessen.engine.poses import Stack
from kessen.games.twgp.cards import CARDS, CHARGE_DRIVE_MAX, UNIT_BASE, by_slug
from kessen.games.twgp.config import HAND_LIMIT
from kessen.games.twgp.moves import (
    base,
    deck_room,
    download,
    draw_top,
    engaged,
    log,
    place_unit,
    put,
    set_pose,
    slug,
    slugs,
)
from kessen.games.twgp.state import (
    ACTIVE,
    DIRECT,
    EMPTY,
    GB,
    HAND,
    PILE,
    SAVE,
    STEALTH,
    WEAPON_CAP,
    Stacks,
    TwgpState,
)

TOGGLE_CAP = 6
"""Reversing inner moves allowed per player and turn."""
RELOAD_TAKE_MAX = 3
"""A16 takes at most this many cards (the half battle's Matrix 05 figure)."""

ApplyFn = Callable[[TwgpState, int, Action], None]


def banned(state: TwgpState, base_power: int) -> bool:
    """True if the vital effect bans summoning units of ``base_power`` (switch vitalEffect)."""
    return banned_power(state) == base_power


def banned_power(state: TwgpState) -> int | None:
    """The base power whose units the vital effect bans from being summoned, or ``None``."""
    if not state.config.vital_effect:
        return None
    effect = state.effect_card()
    return None if effect == EMPTY else CARDS[effect].rank


def can_toggle(state: TwgpState, seat: int) -> bool:
    """True while ``seat`` may still make a reversing move this turn."""
    return state.toggles[seat] < TOGGLE_CAP


def _card_arg(action: Action, index: int) -> int:
    return by_slug(str(action.args[index])).id


def _square_arg(action: Action, index: int) -> int:
    return int(action.args[index]) - 1


# --- A1 set-up ---------------------------------------------------------------------------


def setup_actions(state: TwgpState, seat: int) -> list[Action]:
    """A1: each filled charge square, while the hand holds fewer than 6."""
    if len(state.zone(seat, HAND)) >= HAND_LIMIT:
        return []
    row = state.charge_row(seat)
    return [Action.of("setup", i + 1) for i, c in enumerate(row) if c != EMPTY]


def apply_setup(state: TwgpState, seat: int, action: Action) -> None:
    """Move one charge card into the hand."""
    square = _square_arg(action, 0)
    cell = seat * state.width + square
    card = state.charge[cell]
    state.charge[cell] = EMPTY
    state.zone(seat, HAND).append(card)
    log(state, "setup", seat=seat, square=square + 1, private_to=seat, private={"card": slug(card)})


# --- A2 re-active ------------------------------------------------------------------------


def reactive_actions(state: TwgpState, seat: int, stacks: Stacks | None = None) -> list[Action]:
    """A2: each own SAVE or GB stack (cancelling a GB declaration is a reversing move)
    (``stacks``: ``state.stacks(seat)`` when the caller has it)."""
    toggle = can_toggle(state, seat)
    return [
        Action.of("reactive", i + 1)
        for i, s in (state.stacks(seat) if stacks is None else stacks)
        if s.pose == SAVE or (s.pose == GB and toggle)
    ]


def apply_reactive(state: TwgpState, seat: int, action: Action) -> None:
    """Turn a SAVE or GB stack ACTIVE (a GB declaration is cancelled)."""
    square = _square_arg(action, 0)
    stack = state.square(seat, square)
    assert stack is not None
    if stack.pose == GB:
        state.toggles[seat] += 1
    set_pose(state, seat, square, ACTIVE)
    log(
        state,
        "reactive",
        seat=seat,
        square=square + 1,
        card=slug(stack.top),
        cancelled_gb=stack.pose == GB,
    )


# --- A3 charge drive ---------------------------------------------------------------------


def charge_drive_cost(state: TwgpState, seat: int) -> int:
    """Downloads a charge drive costs now: 2, 1 at deck 1, 0 at deck 0 (zero spurt)."""
    return min(2, len(state.zone(seat, PILE)))


def charge_drive_actions(
    state: TwgpState, seat: int, face_up: bool = True, face_down: bool = True
) -> list[Action]:
    """A3: hand units of base ≤03 (not banned) into empty battle squares, if the cost is payable."""
    ban = banned_power(state)
    units = sorted(
        c
        for c in state.zone(seat, HAND)
        if (b := UNIT_BASE[c]) is not None and b <= CHARGE_DRIVE_MAX and b != ban
    )
    if not units:
        return []
    cost = charge_drive_cost(state, seat)
    if cost > state.empty_charge(seat) or cost > deck_room(state, seat):
        return []
    w = state.width
    squares = [i for i in range(w) if state.battle[seat * w + i] is None]
    out: list[Action] = []
    for card in units:
        name = CARDS[card].slug
        zero = (CARDS[card].base or 0) == 0
        for i in squares:
            cached = bool(state.cache[seat * w + i])
            if face_up and not (cached and zero):
                out.append(Action.of("charge-drive", name, i + 1))
            if face_down and not cached:
                out.append(Action.of("stealth-drive", name, i + 1))
    return out


def apply_charge_drive(state: TwgpState, seat: int, action: Action) -> None:
    """Pay the downloads, then place the unit face up (ACTIVE) or face down (STEALTH)."""
    card = _card_arg(action, 0)
    square = _square_arg(action, 1)
    face_up = action.verb == "charge-drive"
    download(state, seat, charge_drive_cost(state, seat))
    place_unit(state, seat, square, card, face_up)
    if face_up:
        log(
            state,
            "charge_drive",
            reveals=seat,
            seat=seat,
            square=square + 1,
            face="up",
            card=slug(card),
        )
    else:
        log(
            state,
            "charge_drive",
            seat=seat,
            square=square + 1,
            face="down",
            private_to=seat,
            private={"card": slug(card)},
        )
    attack = state.attack
    if face_up and attack is not None and attack.kind == DIRECT and attack.seat != seat:
        make_interrupter(state, square)


def make_interrupter(state: TwgpState, square: int) -> None:
    """The unit now ACTIVE in a direct's window becomes the interrupter (§2.6.3)."""
    attack = state.attack
    assert attack is not None
    state.attack = attack._replace(interrupter=square, target=square)
    log(state, "interrupt", seat=1 - attack.seat, square=square + 1)


# --- A6 / A7 weapons ---------------------------------------------------------------------


def _armable(stack: Stack) -> bool:
    return stack.pose == ACTIVE and base(stack) != 0 and len(stack.attached) < WEAPON_CAP


def attach_actions(state: TwgpState, seat: int, stacks: Stacks | None = None) -> list[Action]:
    """A6: a hand weapon onto an own ACTIVE stack of base ≠00 with fewer than 6 weapons
    (``stacks``: ``state.stacks(seat)`` when the caller has it)."""
    weapons = sorted(c for c in state.zone(seat, HAND) if UNIT_BASE[c] is None)
    if not weapons:
        return []
    targets = [i for i, s in (state.stacks(seat) if stacks is None else stacks) if _armable(s)]
    return [Action.of("attach", CARDS[w].slug, i + 1) for w in weapons for i in targets]


def apply_attach(state: TwgpState, seat: int, action: Action) -> None:
    """Slide a hand weapon under the stack."""
    card = _card_arg(action, 0)
    square = _square_arg(action, 1)
    stack = state.square(seat, square)
    assert stack is not None
    state.zone(seat, HAND).remove(card)
    put(state, seat, square, stack._replace(attached=(*stack.attached, card)))
    log(state, "attach", reveals=seat, seat=seat, square=square + 1, card=slug(card))


def weapon_actions(state: TwgpState, seat: int, stacks: Stacks | None = None) -> list[Action]:
    """A7: with no attack pending, return a weapon to the hand or move it to another stack
    (``stacks``: ``state.stacks(seat)`` when the caller has it)."""
    if state.attack is not None or not can_toggle(state, seat):
        return []
    if stacks is None:
        stacks = state.stacks(seat)
    room = len(state.zone(seat, HAND)) < HAND_LIMIT
    out: list[Action] = []
    for i, s in stacks:
        if s.pose != ACTIVE:
            continue
        for w in s.attached:
            name = CARDS[w].slug
            if room:
                out.append(Action.of("weapon-back", name))
            out += [
                Action.of("weapon-move", name, j + 1) for j, t in stacks if j != i and _armable(t)
            ]
    return out


def _weapon_square(state: TwgpState, seat: int, card: int) -> int:
    for i, s in state.stacks(seat):
        if card in s.attached:
            return i
    raise AssertionError(f"{slug(card)} lies under no stack")


def apply_weapon(state: TwgpState, seat: int, action: Action) -> None:
    """Return a weapon to the hand, or move it to another own ACTIVE stack."""
    card = _card_arg(action, 0)
    source = _weapon_square(state, seat, card)
    stack = state.square(seat, source)
    assert stack is not None
    put(state, seat, source, stack._replace(attached=tuple(c for c in stack.attached if c != card)))
    state.toggles[seat] += 1
    if action.verb == "weapon-back":
        state.zone(seat, HAND).append(card)
        log(state, "weapon_back", seat=seat, square=source + 1, card=slug(card))
        return
    dest = _square_arg(action, 1)
    target = state.square(seat, dest)
    assert target is not None
    put(state, seat, dest, target._replace(attached=(*target.attached, card)))
    log(state, "weapon_move", seat=seat, square=source + 1, to=dest + 1, card=slug(card))


# --- A8 / A9 stealth ---------------------------------------------------------------------


def stealth_actions(state: TwgpState, seat: int, stacks: Stacks | None = None) -> list[Action]:
    """A8: an own ACTIVE stack of base ≤03 without weapons that is not engaged
    (``stacks``: ``state.stacks(seat)`` when the caller has it)."""
    if not can_toggle(state, seat):
        return []
    return [
        Action.of("stealth", i + 1)
        for i, s in (state.stacks(seat) if stacks is None else stacks)
        if s.pose == ACTIVE
        and base(s) <= CHARGE_DRIVE_MAX
        and not s.attached
        and not engaged(state, seat, i)
    ]


def apply_stealth(state: TwgpState, seat: int, action: Action) -> None:
    """Turn the stack face down (its identity, once public, stays public)."""
    square = _square_arg(action, 0)
    state.toggles[seat] += 1
    set_pose(state, seat, square, STEALTH)
    stack = state.square(seat, square)
    assert stack is not None
    log(state, "stealth", seat=seat, square=square + 1, card=slug(stack.top))


def unstealth_actions(state: TwgpState, seat: int, stacks: Stacks | None = None) -> list[Action]:
    """A9: each own STEALTH stack (``stacks``: ``state.stacks(seat)`` when the caller has it)."""
    return [
        Action.of("unstealth", i + 1)
        for i, s in (state.stacks(seat) if stacks is None else stacks)
        if s.pose == STEALTH
    ]


def apply_unstealth(state: TwgpState, seat: int, action: Action) -> None:
    """Turn a STEALTH stack ACTIVE; in a direct's window it becomes the interrupter."""
    square = _square_arg(action, 0)
    stack = state.square(seat, square)
    assert stack is not None
    set_pose(state, seat, square, ACTIVE)
    log(
        state,
        "unstealth",
        reveals=seat if stack.secret else -1,
        seat=seat,
        square=square + 1,
        card=slug(stack.top),
    )
    attack = state.attack
    if attack is not None and attack.kind == DIRECT and attack.seat != seat:
        make_interrupter(state, square)


# --- A10 declare a G-blast ---------------------------------------------------------------


def declare_gb_actions(state: TwgpState, seat: int, stacks: Stacks | None = None) -> list[Action]:
    """A10: an own ACTIVE stack of base ≠00, not engaged; hand ≤3; no other own GB stack
    (``stacks``: ``state.stacks(seat)`` when the caller has it)."""
    if len(state.zone(seat, HAND)) > 3:
        return []
    if stacks is None:
        stacks = state.stacks(seat)
    if any(s.pose == GB for _, s in stacks):
        return []
    return [
        Action.of("declare-gb", i + 1)
        for i, s in stacks
        if s.pose == ACTIVE and base(s) != 0 and not engaged(state, seat, i)
    ]


def apply_declare_gb(state: TwgpState, seat: int, action: Action) -> None:
    """Turn the stack face down sideways, remembering the turn of the declaration."""
    square = _square_arg(action, 0)
    stack = state.square(seat, square)
    assert stack is not None
    put(state, seat, square, stack.with_pose(GB)._replace(mark=state.turn))
    log(state, "declare_gb", seat=seat, square=square + 1, card=slug(stack.top))


# --- A16 reload (switch buildReload) -----------------------------------------------------


def reload_start_actions(state: TwgpState, seat: int) -> list[Action]:
    """A16's first card: once per turn in the build window, any hand card to the pile bottom."""
    if not state.config.build_reload or state.reloaded:
        return []
    return [Action.of("reload-bottom", CARDS[c].slug) for c in sorted(state.zone(seat, HAND))]


def reload_frame_actions(state: TwgpState, seat: int, put_count: int) -> list[Action]:
    """A16 continued: more cards to the bottom, or take up to min(m, 3) from the top."""
    out = [Action.of("reload-bottom", CARDS[c].slug) for c in sorted(state.zone(seat, HAND))]
    most = min(put_count, RELOAD_TAKE_MAX, deck_room(state, seat), len(state.zone(seat, PILE)))
    out += [Action.of("reload-take", k) for k in range(most + 1)]
    return out


def reload_bottom(state: TwgpState, seat: int, action: Action, kind: str = "reload_bottom") -> None:
    """Put one hand card on the pile bottom: the first half of a reload (A16, or the damage
    routine's, logged as ``kind``)."""
    card = _card_arg(action, 0)
    state.zone(seat, HAND).remove(card)
    state.zone(seat, PILE).insert(0, card)
    log(state, kind, seat=seat, private_to=seat, private={"card": slug(card)})


def reload_take(state: TwgpState, seat: int, put: int, count: int) -> None:
    """Take ``count`` cards from the pile top into the hand, after ``put`` were put under it."""
    took = [draw_top(state, seat) for _ in range(count)]
    state.zone(seat, HAND).extend(took)
    log(
        state,
        "reload_take",
        seat=seat,
        put=put,
        took=len(took),
        private_to=seat,
        private={"cards": slugs(took)},
    )


APPLY: dict[str, ApplyFn] = {
    "setup": apply_setup,
    "reactive": apply_reactive,
    "charge-drive": apply_charge_drive,
    "stealth-drive": apply_charge_drive,
    "attach": apply_attach,
    "weapon-back": apply_weapon,
    "weapon-move": apply_weapon,
    "stealth": apply_stealth,
    "unstealth": apply_unstealth,
    "declare-gb": apply_declare_gb,
}
"""Apply functions of the inner actions, by verb (A16 and A11 are applied by their modules)."""

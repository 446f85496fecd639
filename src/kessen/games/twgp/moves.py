"""Primitive card movements of TWGP: downloads, log-outs, surge spending, poses, the log.

Everything here changes the state directly and never asks a player; decisions are the frames'
business (:mod:`.flow`). Discarding a stack may leave weapons in a cache (switch
``weaponCache``); the squares that need the owner's keep-or-drop decision are returned so that
the caller can push those decisions in the right order. Likewise a discarded stack is logged
out at once in the order unit, frames, weapons, and :func:`order_open` tells whether its owner
must then be asked for another order (§2.3: "the owner chooses their order"); the owner's
choices rearrange the cards among the places they took (:func:`log_out_next`).
"""

from __future__ import annotations

from typing import NamedTuple

from kessen.engine.log import NOBODY, Event
from kessen.engine.poses import NO_MARK, Pose, Stack
from kessen.games.twgp.cards import CARDS
from kessen.games.twgp.state import (
    ACTIVE,
    ASSAULT,
    DIRECT,
    EMPTY,
    GB,
    HAND,
    PILE,
    SAVE,
    STEALTH,
    STORAGE,
    SURGE,
    SURGE_CAP,
    TwgpState,
)

STRICT_CAP = 3
"""Switch ``strictMatrix05``: at most this many cards leave a player's deck per turn."""


def log(
    state: TwgpState,
    kind: str,
    private_to: int = NOBODY,
    private: dict[str, object] | None = None,
    reveals: int = NOBODY,
    **public: object,
) -> None:
    """Append an event: ``public`` fields for all, ``private`` ones for seat ``private_to``."""
    state.log.append(Event(kind, public, private_to, private, reveals))


def slug(cid: int) -> str:
    """The slug of card ``cid``."""
    return CARDS[cid].slug


def slugs(cids: list[int] | tuple[int, ...]) -> list[str]:
    """The slugs of several cards, in order."""
    return [CARDS[c].slug for c in cids]


def base(stack: Stack) -> int:
    """The base power of the stack's top unit."""
    return CARDS[stack.top].base or 0


def power(stack: Stack) -> int:
    """Computed power: the top unit's base power plus one per weapon."""
    return (CARDS[stack.top].base or 0) + len(stack.attached)


def put(state: TwgpState, seat: int, square: int, stack: Stack | None) -> None:
    """Store ``stack`` in ``seat``'s battle square ``square`` (``None`` empties it)."""
    state.battle[seat * state.width + square] = stack


def set_pose(state: TwgpState, seat: int, square: int, pose: Pose) -> None:
    """Turn the stack in the square to ``pose`` (leaving GB resets the declaration mark)."""
    stack = state.square(seat, square)
    assert stack is not None
    new = stack.with_pose(pose)
    if new.pose != GB:
        new = new._replace(mark=NO_MARK)
    put(state, seat, square, new)


def engaged(state: TwgpState, seat: int, square: int) -> bool:
    """True if ``seat``'s stack in ``square`` is the pending attack's attacker or target."""
    attack = state.attack
    if attack is None:
        return False
    if seat == attack.seat:
        return square == attack.attacker
    return square == attack.target


def assault_like(state: TwgpState) -> bool:
    """True if the pending attack resolves as an assault (an assault or an interrupted direct)."""
    attack = state.attack
    return attack is not None and (
        attack.kind == ASSAULT or (attack.kind == DIRECT and attack.interrupter != EMPTY)
    )


def deck_room(state: TwgpState, seat: int) -> int:
    """How many more cards may leave ``seat``'s deck this turn (unbounded without the switch)."""
    if not state.config.strict_matrix05:
        return 1_000
    return max(0, STRICT_CAP - state.taken[seat])


def draw_top(state: TwgpState, seat: int) -> int:
    """Take the pile's top card (counted against the per-turn deck limit)."""
    card = state.zone(seat, PILE).pop()
    state.taken[seat] += 1
    refill(state, seat)
    return card


def refill(state: TwgpState, seat: int) -> None:
    """Switch ``variantB``: an empty pile becomes the shuffled storage (the surge stays)."""
    if not state.config.variant_b:
        return
    pile = state.zone(seat, PILE)
    storage = state.zone(seat, STORAGE)
    if pile or not storage:
        return
    pile.extend(storage)
    storage.clear()
    state.rng.shuffle(pile)
    log(state, "refill", seat=seat, count=len(pile))


def empty_charge_squares(state: TwgpState, seat: int) -> list[int]:
    """``seat``'s empty charge squares, left to right."""
    w = state.width
    row = state.charge
    return [i for i in range(w) if row[seat * w + i] == EMPTY]


def download(state: TwgpState, seat: int, count: int) -> None:
    """Move ``count`` pile cards face down into the leftmost empty charge squares."""
    if count <= 0:
        return
    squares = empty_charge_squares(state, seat)[:count]
    cards: list[int] = []
    for square in squares:
        card = draw_top(state, seat)
        state.charge[seat * state.width + square] = card
        cards.append(card)
    log(
        state,
        "download",
        seat=seat,
        squares=[s + 1 for s in squares],
        private_to=seat,
        private={"cards": slugs(cards)},
    )


def recharge(state: TwgpState, seat: int, card: int) -> None:
    """Put a hand card face down into the leftmost empty charge square (re-charge)."""
    square = empty_charge_squares(state, seat)[0]
    state.zone(seat, HAND).remove(card)
    state.charge[seat * state.width + square] = card
    log(
        state,
        "recharge",
        seat=seat,
        square=square + 1,
        private_to=seat,
        private={"card": slug(card)},
    )


def log_out(state: TwgpState, seat: int, cards: list[int] | tuple[int, ...]) -> int:
    """Discard ``cards`` of ``seat``: to the surge while it holds < 6, then to the storage.

    Returns how many went to the surge.
    """
    surge = state.zone(seat, SURGE)
    storage = state.zone(seat, STORAGE)
    to_surge = 0
    for card in cards:
        if len(surge) < SURGE_CAP:
            surge.append(card)
            to_surge += 1
        else:
            storage.append(card)
    return to_surge


class Discarded(NamedTuple):
    """What :func:`discard_stack` did: whether weapons wait in a cache for the owner's
    keep-or-drop decision, and the cards logged out (in the order they were placed)."""

    cached: bool
    cards: tuple[int, ...]


def discard_stack(state: TwgpState, seat: int, square: int, why: str) -> Discarded:
    """Discard the whole stack in the square (unit, frames, weapons, in that order).

    With ``weaponCache`` the weapons stay in the emptied square for now (``cached``): the owner
    must then decide to keep or drop them. The caller asks the owner for the order of the
    logged-out ``cards`` where :func:`order_open` says it can matter.
    """
    stack = state.square(seat, square)
    assert stack is not None
    put(state, seat, square, None)
    state.active_turn = True
    keep = bool(state.config.weapon_cache and stack.attached)
    cards = (stack.top, *stack.under) if keep else stack.cards()
    to_surge = log_out(state, seat, cards)
    if keep:
        state.cache[seat * state.width + square] = stack.attached
    log(
        state,
        "discard",
        reveals=seat if stack.secret else NOBODY,
        seat=seat,
        square=square + 1,
        cards=slugs(cards),
        surge=to_surge,
        why=why,
        cached=slugs(stack.attached) if keep else [],
    )
    return Discarded(keep, tuple(cards))


def order_slots(state: TwgpState, seat: int, cards: tuple[int, ...]) -> list[tuple[int, int]]:
    """The places ``cards`` (logged out together) took, as ``(zone, index)``, in the order a
    log-out fills them: the surge's first, then the storage's."""
    out: list[tuple[int, int]] = []
    for zone in (SURGE, STORAGE):
        cells = state.zone(seat, zone)
        out += sorted((zone, cells.index(c)) for c in cards if c in cells)
    return out


def order_open(state: TwgpState, seat: int, cards: tuple[int, ...]) -> bool:
    """True if the order of ``cards``, logged out together, can still matter: at least two of
    them, and at least one in the surge (which of them sit there, and which leave it first when
    surge is spent; the storage's order never matters, a ``variantB`` refill shuffles it)."""
    surge = state.zone(seat, SURGE)
    return len(cards) >= 2 and any(c in surge for c in cards)


def log_out_next(state: TwgpState, seat: int, cards: tuple[int, ...], card: int) -> int:
    """The owner's next choice: ``card`` takes the first of the places ``cards`` took (the one
    there moves to ``card``'s place). Returns the zone of that place (surge or storage)."""
    slots = order_slots(state, seat, cards)
    zone, index = slots[0]
    for other_zone, other_index in slots:
        if state.zone(seat, other_zone)[other_index] == card:
            first = state.zone(seat, zone)
            there = state.zone(seat, other_zone)
            first[index], there[other_index] = card, first[index]
            return zone
    raise ValueError(f"{slug(card)} is not among the cards being logged out")


def order_cards(state: TwgpState, seat: int, cards: tuple[int, ...]) -> tuple[int, ...]:
    """``cards`` in the order of the places they took (see :func:`order_slots`)."""
    slots = order_slots(state, seat, cards)
    return tuple(state.zone(seat, zone)[index] for zone, index in slots)


def discard_charge(state: TwgpState, seat: int) -> None:
    """Discard every card of ``seat``'s charge grid, revealed (a G-blast's second part)."""
    w = state.width
    cards = [c for c in state.charge[seat * w : seat * w + w] if c != EMPTY]
    if not cards:
        return
    for i in range(seat * w, seat * w + w):
        state.charge[i] = EMPTY
    to_surge = log_out(state, seat, cards)
    log(state, "charge_wiped", reveals=seat, seat=seat, cards=slugs(cards), surge=to_surge)


def spend_surge(state: TwgpState, seat: int, count: int) -> None:
    """Move the ``count`` oldest surge cards to the storage (paying surge)."""
    surge = state.zone(seat, SURGE)
    spent = surge[:count]
    del surge[:count]
    state.zone(seat, STORAGE).extend(spent)


def place_unit(state: TwgpState, seat: int, square: int, card: int, face_up: bool) -> None:
    """Put a hand unit into an empty battle square, ACTIVE or STEALTH; cached weapons join it."""
    cell = seat * state.width + square
    weapons = state.cache[cell]
    state.cache[cell] = ()
    state.zone(seat, HAND).remove(card)
    stack = Stack(card, (), weapons, ACTIVE if face_up else STEALTH, NO_MARK, not face_up)
    state.battle[cell] = stack


def poses_after_attack(state: TwgpState, seat: int, square: int) -> None:
    """A surviving attacker or target ends sideways (a G-blast declaration stays GB)."""
    stack = state.square(seat, square)
    if stack is None or stack.pose == GB:
        return
    set_pose(state, seat, square, SAVE)

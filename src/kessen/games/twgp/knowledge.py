"""Which TWGP cards a seat sees the identity of, and where: the exact test of the undo rule.

:func:`known_cards` mirrors the redaction of :mod:`kessen.games.twgp.view` card by card: every
card on a battle square (a stealth-summoned unit that was never face up only to its owner),
surge, storage and weapon caches, face-up vitals, and one's own hand, cards set aside, build
pool, face-down vitals and charge cards. The piles are hidden from everyone, their owner
included. The undo rule (:mod:`kessen.engine.undo`) compares the sets before and after a seat's
decision: a card that appears in them (a card taken from the pile, an opponent's card revealed)
teaches the seat something.
"""

from __future__ import annotations

from collections.abc import Iterable

from kessen.games.twgp.config import VITALS
from kessen.games.twgp.state import (
    ASIDE,
    EMPTY,
    HAND,
    HIDDEN,
    POOL,
    STORAGE,
    SURGE,
    TwgpState,
)


def known_cards(state: TwgpState, seat: int) -> dict[int, str]:
    """Card id → place, for every card whose identity ``view(seat)`` shows (see the module
    docstring). Places are ``"<place>:<owner>"``."""
    known: dict[int, str] = {}

    def see(cards: Iterable[int], place: str) -> None:
        for card in cards:
            known.setdefault(card, place)

    w = state.width
    for owner in (0, 1):
        mine = owner == seat
        for i in range(owner * w, owner * w + w):
            stack = state.battle[i]
            if stack is not None:
                if mine or not stack.secret:
                    see((stack.top,), f"battle:{owner}")
                see(stack.under, f"battle:{owner}")
                see(stack.attached, f"battle:{owner}")
            see(state.cache[i], f"cache:{owner}")
        see(state.zone(owner, SURGE), f"surge:{owner}")
        see(state.zone(owner, STORAGE), f"storage:{owner}")
        for i in range(owner * VITALS, owner * VITALS + VITALS):
            card = state.vitals[i]
            if card != EMPTY and (mine or state.vpose[i] != HIDDEN):
                see((card,), f"vitals:{owner}")
        if mine:
            for zone, place in ((HAND, "hand"), (ASIDE, "aside"), (POOL, "pool")):
                see(state.zone(owner, zone), f"{place}:{owner}")
            see(
                (c for c in state.charge[owner * w : owner * w + w] if c != EMPTY),
                f"charge:{owner}",
            )
    return known

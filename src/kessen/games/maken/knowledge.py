"""Which Maken cards a seat sees the identity of, and where: the exact test of the undo rule.

:func:`known_cards` mirrors the redaction of :mod:`kessen.games.maken.view` card by card: both
seats' dust, helper fields and attack fields (a face-down extra shows the card it copies),
opened support cards, and one's own hand and set support cards. LP, stamina, gauge and damage
are hidden from everyone, their owner included. The undo rule (:mod:`kessen.engine.undo`)
compares the sets before and after a seat's decision: a card that appears in them (a card drawn
from the stamina, a gauge card paid out into the open) teaches the seat something.
"""

from __future__ import annotations

from collections.abc import Iterable

from kessen.games.maken.state import INST, S_INST, S_OPEN, MakenState


def known_cards(state: MakenState, seat: int) -> dict[int, str]:
    """Card instance → place, for every card whose identity ``view(seat)`` shows (see the
    module docstring). Places are ``"<zone>:<owner>"``."""
    known: dict[int, str] = {}

    def see(cards: Iterable[int], place: str) -> None:
        for card in cards:
            known.setdefault(card, place)

    for owner in (0, 1):
        mine = owner == seat
        see(state.dust[owner], f"dust:{owner}")
        see(state.helper[owner], f"helper:{owner}")
        see((e[INST] for e in state.field[owner]), f"field:{owner}")
        see((e[S_INST] for e in state.support[owner] if mine or e[S_OPEN]), f"support:{owner}")
        if mine:
            see(state.hand[owner], f"hand:{owner}")
    return known

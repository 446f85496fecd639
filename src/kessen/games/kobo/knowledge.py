"""Which Kōbō cards a seat sees the identity of, and where: the exact test of the undo rule.

:func:`known_cards` mirrors the redaction of :mod:`kessen.games.kobo.view` card by card: a card
is known to a seat when its view shows what the card is (a card of either side's field, retreat
or exclusion zone, a face-up card, one's own hand, face-down traps and surprise cards, a link of
the chain, the card a prompt is about). The undo rule (:mod:`kessen.engine.undo`) compares the
sets before and after a seat's decision: a card that appears in them teaches the seat something.

One zone is known without being shown card by card: one's own tactics deck while one picks the
tactics hand, since the prompt offers its cards by name (``take <slug>``) and the deck list is
public. A card taken from it by name shows nothing the seat did not know; a card drawn from the
top of a deck (its order unknown) does.
"""

from __future__ import annotations

from collections.abc import Iterable

from kessen.games.kobo.state import (
    EMPTY,
    EXCLUDED,
    HAND,
    RESOLVING,
    RETREAT,
    REVEAL,
    SLOTS,
    TDECK,
    THAND,
    KoboState,
)

PUBLIC_PROCESSING = frozenset({"deploy_go", "deploy_steps"})
"""Frames during which the cards being processed by their seat are public (as in the view)."""
SHOWN_CONTEXT = frozenset(
    {"char", "trap", "deploy", "deploy_go", "summon_slot", "blind_slot", "chain_target"}
)
"""Prompts whose context names their card (``frame[2]``) to the seat asked."""
PUBLIC_CONTEXT = frozenset({"deploy_go", "summon_slot", "blind_slot", "chain_target"})
"""Of :data:`SHOWN_CONTEXT`, the prompts whose card every seat sees."""


def known_cards(state: KoboState, seat: int) -> dict[int, str]:
    """Card instance → place, for every card whose identity ``view(seat)`` shows (see the
    module docstring). Places are ``"<zone>:<owner>"`` (``"chain"`` and ``"context"`` for the
    chain's links and the card a prompt is about)."""
    known: dict[int, str] = {}

    def see(cards: Iterable[int], place: str) -> None:
        for card in cards:
            known.setdefault(card, place)

    frame = state.stack[-1] if state.stack else ("",)
    for owner in (0, 1):
        mine = owner == seat
        row = slice(owner * SLOTS, owner * SLOTS + SLOTS)
        see((c for c in state.battle[row] if c != EMPTY), f"battle:{owner}")
        see(
            (c for c in state.strategy[row] if c != EMPTY and (mine or state.faceup[c])),
            f"strategy:{owner}",
        )
        see(state.zone(owner, RETREAT), f"retreat:{owner}")
        see(state.zone(owner, EXCLUDED), f"excluded:{owner}")
        see(
            (
                c
                for c in state.zone(owner, REVEAL)
                if (frame[0] == "summon_slot" and frame[1] == owner)
                or (frame[0] == "blind_slot" and frame[2] == c)
            ),
            f"reveal:{owner}",
        )
        if mine or any(f[0] in PUBLIC_PROCESSING and f[1] == owner for f in state.stack):
            see(state.zone(owner, RESOLVING), f"processing:{owner}")
        if state.surprise is not None:
            see(
                (c for c, _ in state.surprise.zones[owner] if mine or state.faceup[c]),
                f"surprise:{owner}",
            )
        if mine:
            see(state.zone(owner, HAND), f"hand:{owner}")
            see(state.zone(owner, THAND), f"tactics_hand:{owner}")
    see((link[0] for link in state.chain), "chain")
    see((link[0] for link in state.resolved), "chain")
    if state.prompt is not None and state.stack:
        asked, prompt = state.prompt
        kind = frame[0]
        if kind in SHOWN_CONTEXT and (asked == seat or kind in PUBLIC_CONTEXT):
            see((frame[2],), "context")
        if asked == seat and prompt == "tactics" and kind == "tactics":
            see(state.zone(seat, TDECK), f"tactics_deck:{seat}")
    return known

"""Hidden-world resampling: redeal everything one seat cannot see, keeping what it can.

Used by search players (to sample worlds consistent with their own view) and by the tests
(a seat's view must not change when only things hidden from it change).
"""

from __future__ import annotations

from typing import TypeVar

from kessen.engine.rng import Rng
from kessen.games.kobo.cards import CardKind
from kessen.games.kobo.state import HAND, MAIN_DECK, REVEAL, SLOTS, TDECK, THAND, KoboState

S = TypeVar("S", bound=KoboState)


def _redistribute(rng: Rng, zones: list[list[int]]) -> None:
    """Shuffle the cards of several zones together and refill each with as many as it had."""
    pooled = [card for zone in zones for card in zone]
    rng.shuffle(pooled)
    start = 0
    for zone in zones:
        size = len(zone)
        zone[:] = pooled[start : start + size]
        start += size


def resample(state: S, seat: int, seed: int) -> S:
    """A copy of ``state`` in which everything hidden from ``seat`` is redealt at random.

    Redealt: the order of ``seat``'s own decks; the opponent's tactics hand with its tactics
    deck; the opponent's main hand, main deck and face-down traps together (face-down slots
    keep holding traps); the order of face-down cards awaiting a blind pick.
    """
    new = state.clone()
    rng = Rng(seed)
    opp = 1 - seat
    rng.shuffle(new.zone(seat, MAIN_DECK))
    rng.shuffle(new.zone(seat, TDECK))
    _redistribute(rng, [new.zone(opp, THAND), new.zone(opp, TDECK)])
    slots = [
        i
        for i in range(opp * SLOTS, opp * SLOTS + SLOTS)
        if new.strategy[i] != -1 and not new.faceup[new.strategy[i]]
    ]
    hidden = [new.strategy[i] for i in slots] + new.zone(opp, HAND) + new.zone(opp, MAIN_DECK)
    traps = [c for c in hidden if new.defs[c].kind is CardKind.TRAP]
    rng.shuffle(traps)
    chosen = traps[: len(slots)]
    for index, card in zip(slots, chosen, strict=True):
        new.strategy[index] = card
    taken = set(chosen)
    rest = [c for c in hidden if c not in taken]
    hand, deck = new.zone(opp, HAND), new.zone(opp, MAIN_DECK)
    rng.shuffle(rest)
    hand[:] = rest[: len(hand)]
    deck[:] = rest[len(hand) :]
    if new.stack and new.stack[-1][0] == "blind":
        rng.shuffle(new.zone(new.stack[-1][1], REVEAL))
    new.legal = None
    return new

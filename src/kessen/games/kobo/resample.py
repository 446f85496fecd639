"""Hidden-world resampling: redeal everything one seat cannot see, keeping what it can.

Used by search players (to sample worlds consistent with their own view) and by the tests
(a seat's view must not change when only things hidden from it change). :func:`redeal_unseen`
redeals only what *no* seat can see, for the honesty control that peeks at the opponent's cards
but not at the draws to come.
"""

from __future__ import annotations

from typing import TypeVar

from kessen.engine.contract import GameState
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


def _surprise_face_down(state: KoboState, seat: int) -> list[int]:
    """The face-down cards of ``seat``'s surprise zone (none with the option off)."""
    if state.surprise is None:
        return []
    return [card for card, _ in state.surprise.zones[seat] if not state.faceup[card]]


def _put_surprise_back(state: KoboState, seat: int, cards: list[int]) -> None:
    """Write redealt face-down cards back into ``seat``'s surprise zone, keeping the stamps."""
    if state.surprise is None or not cards:
        return
    fresh = iter(cards)
    state.surprise.zones[seat] = [
        (card if state.faceup[card] else next(fresh), stamp)
        for card, stamp in state.surprise.zones[seat]
    ]


def resample(state: S, seat: int, seed: int) -> S:
    """A copy of ``state`` in which everything hidden from ``seat`` is redealt at random.

    Redealt: the order of ``seat``'s own decks; the opponent's tactics hand with its tactics
    deck and its face-down surprise card (the surprise-zone option: any tactic it could hold);
    the opponent's main hand, main deck and face-down traps together (face-down slots keep
    holding traps); the order of face-down cards awaiting a blind pick.
    """
    new = state.clone()
    rng = Rng(seed)
    opp = 1 - seat
    rng.shuffle(new.zone(seat, MAIN_DECK))
    rng.shuffle(new.zone(seat, TDECK))
    surprise_down = _surprise_face_down(new, opp)
    _redistribute(rng, [new.zone(opp, THAND), new.zone(opp, TDECK), surprise_down])
    _put_surprise_back(new, opp, surprise_down)
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


def redeal_unseen(state: GameState, seed: int) -> KoboState:
    """A copy of ``state`` in which only what no seat can see is redealt at random.

    Redealt: the order of all four decks (rules §7: hidden from everyone) and the order of
    face-down cards awaiting a blind pick (their owner shuffled them face down too). Hands,
    face-down traps and which cards each deck holds stay as they are, so both seats' views are
    unchanged. Each zone is sorted before it is shuffled, so the copy depends on what the
    zones hold and not on their order: two states that differ only in what no seat can see
    give the same copy for the same seed.
    """
    if not isinstance(state, KoboState):
        raise TypeError(f"redeal_unseen takes a Kōbō state, not {type(state).__name__}")
    new = state.clone()
    rng = Rng(seed)
    zones = [new.zone(seat, zone) for seat in (0, 1) for zone in (MAIN_DECK, TDECK)]
    if new.stack and new.stack[-1][0] == "blind":
        zones.append(new.zone(new.stack[-1][1], REVEAL))
    for zone in zones:
        zone.sort()
        rng.shuffle(zone)
    new.legal = None
    return new

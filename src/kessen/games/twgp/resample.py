"""Hidden-world resampling: redeal everything one seat cannot see, keeping what it can.

Used by search players (to sample worlds consistent with their own view) and by the tests (a
seat's view must not change when only things hidden from it change). :func:`redeal_unseen`
redeals only what *no* seat can see, for the honesty control that peeks at the opponent's cards
but not at the draws to come.
"""

from __future__ import annotations

from typing import TypeVar

from kessen.engine.contract import GameState
from kessen.engine.rng import Rng
from kessen.games.twgp.cards import CARDS, CHARGE_DRIVE_MAX
from kessen.games.twgp.config import VITALS
from kessen.games.twgp.state import ASIDE, EMPTY, HAND, HIDDEN, PILE, POOL, TwgpState

S = TypeVar("S", bound=TwgpState)
_SALT = 0x7F4A7C159E3779B9


def resample(state: S, seat: int, seed: int) -> S:
    """A copy of ``state`` in which everything hidden from ``seat`` is redealt at random.

    Redealt: the order of ``seat``'s own pile; the opponent's hand, cards set aside, build pool,
    pile, face-down vitals, charge cards and stealth-summoned units together (a stealth-summoned
    square gets a unit of base ≤03 again). The RNG is reseeded, since its state is hidden too.
    """
    new = state.clone()
    rng = Rng(seed)
    opp = 1 - seat
    w = new.width
    rng.shuffle(new.zone(seat, PILE))
    zones = [new.zone(opp, z) for z in (POOL, HAND, ASIDE, PILE)]
    vitals = [
        i
        for i in range(opp * VITALS, opp * VITALS + VITALS)
        if new.vitals[i] != EMPTY and new.vpose[i] == HIDDEN
    ]
    charge = [i for i in range(opp * w, opp * w + w) if new.charge[i] != EMPTY]
    secret = [
        i for i in range(opp * w, opp * w + w) if (s := new.battle[i]) is not None and s.secret
    ]
    hidden = [c for zone in zones for c in zone]
    hidden += [new.vitals[i] for i in vitals] + [new.charge[i] for i in charge]
    hidden += [s.top for i in secret if (s := new.battle[i]) is not None]
    hidden.sort()
    rng.shuffle(hidden)
    small = [c for c in hidden if CARDS[c].is_unit and (CARDS[c].base or 0) <= CHARGE_DRIVE_MAX]
    chosen = small[: len(secret)]
    for i, card in zip(secret, chosen, strict=True):
        stack = new.battle[i]
        assert stack is not None
        new.battle[i] = stack._replace(top=card)
    taken = set(chosen)
    rest = [c for c in hidden if c not in taken]
    start = 0
    for zone in zones:
        size = len(zone)
        zone[:] = rest[start : start + size]
        start += size
    for i in vitals:
        new.vitals[i] = rest[start]
        start += 1
    for i in charge:
        new.charge[i] = rest[start]
        start += 1
    new.rng = Rng(seed ^ _SALT)
    new.legal = None
    return new


def redeal_unseen(state: GameState, seed: int) -> TwgpState:
    """A copy of ``state`` in which only what no seat can see is redealt: the order of both
    piles (its owner sees its hand, charge cards, hidden vitals and stealthed units, never its
    pile's order). Each pile is sorted before it is shuffled, so the copy depends on what the
    piles hold, not on their order; both seats' views are unchanged.
    """
    if not isinstance(state, TwgpState):
        raise TypeError(f"redeal_unseen takes a TWGP state, not {type(state).__name__}")
    new = state.clone()
    rng = Rng(seed)
    for seat in (0, 1):
        pile = new.zone(seat, PILE)
        pile.sort()
        rng.shuffle(pile)
    new.legal = None
    return new

"""Hidden-world resampling: redeal everything one seat cannot see, keeping what it can (§10).

:func:`resample` serves search players and the leak tests (a seat's view must not change when
only what it cannot see changes); :func:`redeal_unseen` redeals only what *no* seat can see, for
the honesty control.
"""

from __future__ import annotations

from typing import TypeVar

from kessen.engine.contract import GameState
from kessen.engine.rng import Rng
from kessen.games.maken.state import S_INST, S_OPEN, MakenState

S = TypeVar("S", bound=MakenState)
_SALT = 0x5DEECE66D1234567
_NOBODY = ("lp", "stamina", "gauge", "damage")
"""The zones hidden from both players (their owner included)."""


def _redeal(state: MakenState, seat: int, rng: Rng, with_private: bool) -> None:
    """Pool and redeal ``seat``'s hidden cards: the zones nobody sees, and (``with_private``)
    its hand and set support cards, set slots getting support cards again."""
    zones = [getattr(state, name)[seat] for name in _NOBODY]
    if with_private:
        zones.append(state.hand[seat])
    slots = [e for e in state.support[seat] if not e[S_OPEN]] if with_private else []
    pool = sorted([i for zone in zones for i in zone] + [e[S_INST] for e in slots])
    rng.shuffle(pool)
    supports = [i for i in pool if state.card(i).kind == "support"][: len(slots)]
    for entry, inst in zip(slots, supports, strict=True):
        entry[S_INST] = inst
    taken = set(supports)
    rest = [i for i in pool if i not in taken]
    start = 0
    for zone in zones:
        size = len(zone)
        zone[:] = rest[start : start + size]
        start += size


def resample(state: S, seat: int, seed: int) -> S:
    """A copy of ``state`` in which everything hidden from ``seat`` is redealt at random: its
    own LP, stamina, gauge and damage; the opponent's too, with its hand and set support cards.
    The RNG is reseeded (its state is hidden).

    A pending ``fb`` prompt tells everyone that TP holds a legal FB, so a world whose redealt
    TP hand has none is rejected and dealt again (after 64 tries the opponent's hand stays).
    """
    rng = Rng(seed)
    for _ in range(64):
        new = state.clone()
        _redeal(new, seat, rng, with_private=False)
        _redeal(new, 1 - seat, rng, with_private=True)
        new.rng = Rng(seed ^ _SALT)
        new.legal = None
        if new.phase != "fb" or new.legal_actions():
            return new
    new = state.clone()
    _redeal(new, seat, rng, with_private=False)
    new.rng = Rng(seed ^ _SALT)
    new.legal = None
    return new


def redeal_unseen(state: GameState, seed: int) -> MakenState:
    """A copy in which only what no seat sees is redealt: both players' LP, stamina, gauge and
    damage cards (pooled per owner); every seat's view is unchanged."""
    if not isinstance(state, MakenState):
        raise TypeError(f"redeal_unseen takes a Maken state, not {type(state).__name__}")
    new = state.clone()
    rng = Rng(seed)
    for seat in (0, 1):
        _redeal(new, seat, rng, with_private=False)
    new.legal = None
    return new

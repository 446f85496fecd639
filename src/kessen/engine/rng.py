"""The seeded random number generator a game state owns (splitmix64; state is one integer).

Cloning and serializing it is copying an int, so search and replays stay cheap and exact.

>>> r = Rng(42); a = [r.below(6) for _ in range(3)]
>>> r2 = Rng(42); a == [r2.below(6) for _ in range(3)]
True
"""

from __future__ import annotations

from typing import Final, TypeVar

_MASK: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
T = TypeVar("T")


class Rng:
    """A small deterministic generator; the only source of randomness of a game state."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next64(self) -> int:
        """The next 64-bit output."""
        s = (self.state + _GAMMA) & _MASK
        self.state = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in ``range(n)`` (``n`` ≥ 1); bias below 2**-50 for game-sized ``n``."""
        return (self.next64() * n) >> 64

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates; ``below`` inlined, the same stream)."""
        s = self.state
        for i in range(len(items) - 1, 0, -1):
            s = (s + _GAMMA) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self.state = s

    def clone(self) -> Rng:
        """An independent copy in the same state."""
        return Rng(self.state)

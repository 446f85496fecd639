"""Card poses and card stacks: generic table physics that a ruleset's state can hold as plain data.

A :class:`Pose` is how a card lies on the table: face up or down, upright or sideways, and
upright or upside down (reversed). The eight poses are small integers, so they cost nothing to
copy and serialize. A :class:`Stack` is one square's pile of cards: a top card, the cards under
it (for instance summon materials), cards attached to it (for instance equipment), the top
card's pose, a ruleset-defined number kept with it, and whether the top card's identity is
still a secret of its owner (a card set face down straight from the hand).

Both are immutable values: a state changes a square by storing a new stack, so copying a row of
squares is copying a list.

>>> s = Stack(7, under=(3,), attached=(40,))
>>> s.cards()
(7, 3, 40)
>>> s.with_pose(Pose.UP_SIDEWAYS).pose.sideways
True
>>> Stack.from_json(s.to_json()) == s
True
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, NamedTuple

_SIDEWAYS = 1
_DOWN = 2
_REVERSED = 4


class Pose(IntEnum):
    """A card's pose: three independent bits (sideways, face down, reversed)."""

    UP = 0
    UP_SIDEWAYS = _SIDEWAYS
    DOWN = _DOWN
    DOWN_SIDEWAYS = _DOWN | _SIDEWAYS
    UP_REVERSED = _REVERSED
    UP_SIDEWAYS_REVERSED = _REVERSED | _SIDEWAYS
    DOWN_REVERSED = _REVERSED | _DOWN
    DOWN_SIDEWAYS_REVERSED = _REVERSED | _DOWN | _SIDEWAYS

    @property
    def face_up(self) -> bool:
        """True if the card's face shows.

        >>> Pose.DOWN_SIDEWAYS.face_up
        False
        """
        return not self & _DOWN

    @property
    def sideways(self) -> bool:
        """True if the card lies sideways (turned a quarter)."""
        return bool(self & _SIDEWAYS)

    @property
    def reversed(self) -> bool:
        """True if the card is upside down."""
        return bool(self & _REVERSED)

    def turned(self, sideways: bool) -> Pose:
        """The same face and reversal, upright or sideways.

        >>> Pose.DOWN.turned(True) is Pose.DOWN_SIDEWAYS
        True
        """
        return Pose((self & ~_SIDEWAYS) | (_SIDEWAYS if sideways else 0))

    def flipped(self, face_up: bool) -> Pose:
        """The same orientation and reversal, face up or face down.

        >>> Pose.DOWN_SIDEWAYS.flipped(True) is Pose.UP_SIDEWAYS
        True
        """
        return Pose((self & ~_DOWN) | (0 if face_up else _DOWN))


NO_MARK = -1
"""The value of :attr:`Stack.mark` when the ruleset keeps nothing with the stack."""


class Stack(NamedTuple):
    """One square's cards: ``top`` lies over ``under`` (nearest first), with ``attached`` cards.

    ``mark`` is a number the ruleset keeps with the stack (a turn number, a counter), and
    ``secret`` is true while the top card's identity is known to its owner only.
    """

    top: int
    under: tuple[int, ...] = ()
    attached: tuple[int, ...] = ()
    pose: Pose = Pose.UP
    mark: int = NO_MARK
    secret: bool = False

    def cards(self) -> tuple[int, ...]:
        """Every card of the stack: the top, then the cards under it, then the attached ones."""
        return (self.top, *self.under, *self.attached)

    def with_pose(self, pose: Pose) -> Stack:
        """The same stack in another pose (a face-up pose ends the secret)."""
        return self._replace(pose=pose, secret=self.secret and not pose.face_up)

    def to_json(self) -> list[Any]:
        """Compact JSON form: ``[top, under, attached, pose, mark, secret]``."""
        return [
            self.top,
            list(self.under),
            list(self.attached),
            int(self.pose),
            self.mark,
            self.secret,
        ]

    @staticmethod
    def from_json(data: list[Any]) -> Stack:
        """Inverse of :meth:`to_json`."""
        top, under, attached, pose, mark, secret = data
        return Stack(top, tuple(under), tuple(attached), Pose(pose), mark, bool(secret))

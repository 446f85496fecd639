"""Reading a TWGP view for a COM player: its own seat's facts, from the view data only.

:class:`Reading` wraps one ``view(seat)`` dict and the legal actions, and answers the questions
the heuristic asks (powers in squares, hand units, the pending attack) without ever touching a
game state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kessen.engine.action import Action
from kessen.engine.contract import Json


@dataclass
class Reading:
    """One decision: the viewer's view and its legal actions."""

    view: Json
    legal: Sequence[Action]

    @property
    def me(self) -> int:
        """The deciding seat."""
        seat = self.view["viewer"]
        assert isinstance(seat, int)
        return seat

    @property
    def mine(self) -> Json:
        """The viewer's side of the board."""
        side: Json = self.view["players"][self.me]
        return side

    @property
    def theirs(self) -> Json:
        """The opponent's side of the board."""
        side: Json = self.view["players"][1 - self.me]
        return side

    @property
    def prompt(self) -> str:
        """The pending prompt's kind."""
        return str(self.view["pending"]["prompt"])

    @property
    def context(self) -> Json:
        """The pending prompt's context."""
        ctx: Json = self.view["pending"]["context"]
        return ctx

    def of(self, *verbs: str) -> list[Action]:
        """The legal actions with one of ``verbs``, in legal order."""
        return [a for a in self.legal if a.verb in verbs]

    def has(self, action: Action) -> bool:
        """True if ``action`` is legal."""
        return action in self.legal

    def hand(self) -> list[Json]:
        """The viewer's hand cards."""
        cards: list[Json] = self.mine["hand"]["cards"] or []
        return cards

    def hand_units(self) -> list[Json]:
        """The unit cards of the viewer's hand."""
        return [c for c in self.hand() if c["kind"] == "unit"]

    def stacks(self, side: Json) -> list[tuple[int, Json]]:
        """``(square 1-based, stack)`` for each occupied square of ``side``."""
        return [(i + 1, s) for i, s in enumerate(side["battle"]) if s is not None]

    def power(self, side: Json, square: int) -> int:
        """The computed power in a square (0 if unknown or empty)."""
        stack = side["battle"][square - 1]
        if stack is None or stack["pow"] is None:
            return 0
        value: int = stack["pow"]
        return value

    def active(self, side: Json) -> list[tuple[int, Json]]:
        """The ACTIVE stacks of ``side``."""
        return [(i, s) for i, s in self.stacks(side) if s["pose"] == "active"]

    def attack(self) -> Json | None:
        """The pending attack, if any."""
        attack: Json | None = self.view["attack"]
        return attack

    def config(self, key: str) -> Any:
        """A config switch of the game."""
        return self.view["config"].get(key)

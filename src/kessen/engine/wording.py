"""How log lines name seats, for any ruleset: あなた/相手 or You/The opponent, or P1/P2.

A viewer sees itself as "you"; an observer (``viewer`` ``None``) reads neutral seat numbers.

>>> SeatWords("en", 0).poss(1), SeatWords("ja", 0).who(0), SeatWords("en", None).who(1)
("The opponent's", 'あなた', 'P2')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kessen.engine.mypyc_compat import mypyc_attr


def lower_first(text: str) -> str:
    """Lower-case a subject used mid-sentence ("The opponent" → "the opponent"; P1 stays)."""
    if text[:1] == "P" and text[1:2].isdigit():
        return text
    return text[:1].lower() + text[1:]


@mypyc_attr(allow_interpreted_subclasses=True)  # each ruleset's log words add their own
@dataclass(frozen=True)
class SeatWords:
    """Seat names in one language (``ja`` or ``en``), as one viewer reads them."""

    lang: str
    viewer: int | None

    @property
    def ja(self) -> bool:
        """True for Japanese."""
        return self.lang == "ja"

    def who(self, seat: Any) -> str:
        """The subject naming ``seat``: あなた/相手/P1 or You/The opponent/P1."""
        if not isinstance(seat, int) or seat < 0:
            return "?"
        if self.viewer is None:
            return f"P{seat + 1}"
        mine = seat == self.viewer
        if self.ja:
            return "あなた" if mine else "相手"
        return "You" if mine else "The opponent"

    def poss(self, seat: Any) -> str:
        """The possessive of ``seat`` at the start of a sentence: あなたの/相手の or
        Your/The opponent's/P1's (use :func:`lower_first` mid-sentence)."""
        if self.ja:
            return self.who(seat) + "の"
        if self.viewer is not None and seat == self.viewer:
            return "Your"
        return self.who(seat) + "'s"

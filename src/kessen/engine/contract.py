"""The engine contract: what every ruleset's game state provides and everyone else uses.

A ruleset implements :class:`GameState`. Servers, players, replays, the simulator and the
tests use nothing else: ``pending`` says who decides what, ``legal_actions()`` is the only
legality function, ``apply()`` runs on to the next decision, ``view()`` is the only function
that redacts hidden information.
"""

from __future__ import annotations

import hashlib
from abc import ABCMeta, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Self

from kessen.engine.action import Action
from kessen.engine.canonical import canonical_json
from kessen.engine.log import Event
from kessen.engine.mypyc_compat import mypyc_attr

Json = dict[str, Any]
#: A seat number (0, 1, ...) or ``None`` for an observer who sees public information only.
Viewer = int | None


def json_digest(data: Any) -> str:
    """The digest :meth:`GameState.state_hash` gives a state whose ``to_json()`` is ``data``: a
    short blake2b of its sorted, compact JSON text."""
    return hashlib.blake2b(canonical_json(data), digest_size=12).hexdigest()


@mypyc_attr(allow_interpreted_subclasses=True)  # the rulesets' and the server's own errors
class RulesError(ValueError):
    """Base of the errors a game state raises for bad input; the message is for the user."""


class IllegalAction(RulesError):
    """An action that is not among ``legal_actions()`` of the pending decision."""


class StalePrompt(RulesError):
    """An answer to a prompt that is no longer pending."""


class NotYourDecision(RulesError):
    """An answer from a seat that is not the one asked."""


class GameOver(RulesError):
    """An action sent to a game that has ended."""


class Pending:
    """The decision the game waits for: which seat, which prompt (a short kind), and its id.

    The id rises with every decision of a game, so an answer to an old prompt is recognized.
    A value with read-only fields; a plain slotted class rather than a frozen dataclass
    because every step of every game builds one, and a frozen dataclass costs four times as
    much to build.
    """

    __slots__ = ("prompt", "prompt_id", "seat")
    __match_args__ = ("seat", "prompt", "prompt_id")

    def __init__(self, seat: int, prompt: str, prompt_id: int) -> None:
        self.seat: Final = seat
        self.prompt: Final = prompt
        self.prompt_id: Final = prompt_id

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pending):
            return NotImplemented
        return (
            self.seat == other.seat
            and self.prompt == other.prompt
            and self.prompt_id == other.prompt_id
        )

    def __hash__(self) -> int:
        return hash((self.seat, self.prompt, self.prompt_id))

    def __repr__(self) -> str:
        return f"Pending(seat={self.seat!r}, prompt={self.prompt!r}, prompt_id={self.prompt_id!r})"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game (or match) ended: the winning seat, or ``None`` for no winner, and why."""

    winner: int | None
    reason: str


# ABCMeta, not an ABC base: the compiled build makes a class deriving from an interpreted one
# weakly referenceable, and its states then did not clear those references when they went.
@mypyc_attr(allow_interpreted_subclasses=True)  # a ruleset's state need not be compiled
class GameState(metaclass=ABCMeta):
    """A complete game: plain data, deterministic given its config, seed and actions."""

    #: The registered name of the ruleset this state belongs to.
    ruleset: ClassVar[str]
    #: Number of seats.
    seats: ClassVar[int] = 2

    @property
    @abstractmethod
    def pending(self) -> Pending | None:
        """The decision the game waits for, or ``None`` when it is over."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The final result, or ``None`` while the game goes on."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The legal answers to the pending decision, in a fixed order; empty when over."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Apply a legal action and run on to the next decision.

        Raises :class:`IllegalAction` (state unchanged) if ``action`` is not legal.
        """

    @abstractmethod
    def view(self, viewer: Viewer, lang: str = "ja") -> Json:
        """Board and log as ``viewer`` may see them; hidden cards carry no identity."""

    def decision_view(self, seat: int) -> Json:
        """What a COM player decides from: ``view(seat)`` without the aids drawn for people
        (previews, reasons and their texts). It never holds more than ``view(seat)``; a ruleset
        may make it cheaper than the full view."""
        return self.view(seat)

    @abstractmethod
    def view_all(self, lang: str = "ja") -> Json:
        """Everything, for finished games and for spectators who asked to see all."""

    @abstractmethod
    def log_events(self) -> Sequence[Event]:
        """The raw log (unredacted: for the server's bookkeeping, never sent as is)."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy, cheap enough for search."""

    @abstractmethod
    def to_json(self) -> Json:
        """The whole state as JSON-compatible data; ``from_json`` restores it exactly."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a state from :meth:`to_json` output."""

    @abstractmethod
    def audit(self) -> None:
        """Check the ruleset's own invariants (each card in one zone, ...); raise if broken."""

    @abstractmethod
    def resample_hidden(self, seat: int, seed: int) -> Self:
        """A copy in which everything hidden from ``seat`` is redealt at random.

        The copy must look exactly the same from ``seat`` (its ``view(seat)`` is equal) and
        be a playable state. Search players use it to sample worlds; tests use it to prove
        that views leak nothing.
        """

    def known_cards(self, seat: int) -> Mapping[int, str] | None:
        """The cards whose identity ``view(seat)`` shows: each card's number in this state
        (never shown to anyone) mapped to the place it is seen in, or ``None`` when the ruleset
        cannot tell (the default).

        The undo rule (:mod:`kessen.engine.undo`) compares the keys before and after a seat's
        decision: a card that joins them (drawn, shown) taught the seat something; one that only
        moves between places it sees did not. A ruleset that answers must list exactly what its
        view shows, and may count a hidden zone of the seat's whose cards the pending prompt of
        the seat offers by name (a pick by name shows no order)."""
        return None

    def chance_marker(self) -> object:
        """A value that changes whenever a random outcome happens: the position of the game's
        generator. Undo never crosses a change (:mod:`kessen.engine.undo`): taking a decision
        back across a random outcome would let a player see it and choose again.

        The default reads the ``rng`` attribute that the rulesets give their states (an
        :class:`~kessen.engine.rng.Rng`); a state without one has no randomness after set-up.
        """
        rng = getattr(self, "rng", None)
        return None if rng is None else getattr(rng, "state", None)

    def state_hash(self) -> str:
        """A short digest of the whole state, for determinism and replay checks."""
        return json_digest(self.to_json())

    def answer(self, seat: int, prompt_id: int, action: Action) -> None:
        """Apply ``action`` as ``seat``'s answer to prompt ``prompt_id``, refusing bad answers.

        Each refusal leaves the state unchanged and says exactly why. The legal actions are
        named only to the seat that was asked, so an error never shows another seat's cards.
        """
        pending = self.pending
        if pending is None:
            raise GameOver("the game is over; no action is expected")
        if seat != pending.seat:
            raise NotYourDecision(f"seat {seat} is not the one to decide now")
        if prompt_id != pending.prompt_id:
            raise StalePrompt(
                f"prompt {prompt_id} is no longer pending (the current prompt is "
                f"{pending.prompt_id})"
            )
        legal = self.legal_actions()
        if action not in legal:
            choices = ", ".join(str(a) for a in legal)
            raise IllegalAction(f"{action} is not legal now; legal: {choices}")
        self.apply(action)

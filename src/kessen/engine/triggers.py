"""Triggered abilities as a rules primitive: arming by zone and face, matching with look-back.

An automatic ability waits for an event. It is **armed** only while its card lies in one of the
ability's home zones, with the face the ability needs (a surprise waits face down). Matching
looks at the state **after** the event; when the event is the card's own move, the zone (and
face) it left counts as well (look-back), so "when this card leaves the stage" still sees the
stage. A matched ability becomes an :class:`Instance` that knows its source card; instances wait
in a :class:`ResolutionZone` until they resolve, are cancelled, or are not carried out.

>>> t = Trigger(frozenset({"stage"}), lambda h: h.kind == "retreat")
>>> h = Happening("retreat", moved={7: (("stage", True), ("waiting", True))})
>>> t.armed_for(7, h, lambda c: ("waiting", True))
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

Place = tuple[str, bool]
"""Where a card lies for the matcher: the zone's kind (``"stage"``, ``"surprise"`` …) and
whether it is face up."""
Locate = Callable[[int], Place | None]


class Face(StrEnum):
    """The face an ability's card must show to be armed."""

    UP = "up"
    DOWN = "down"
    ANY = "any"

    def accepts(self, face_up: bool) -> bool:
        """True if a card with this face may be armed."""
        return self is Face.ANY or face_up == (self is Face.UP)


@dataclass(frozen=True, slots=True)
class Happening:
    """An event as the matcher sees it: its kind, its data, and the cards it moved, each with
    its place before and after (``None`` for a card that came from or went out of play)."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    moved: Mapping[int, tuple[Place | None, Place | None]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Trigger:
    """An automatic ability's arming and condition.

    ``zones``: the zone kinds the card must lie in; ``condition``: the event it waits for (a
    predicate on the :class:`Happening`, which may also read the state through a closure);
    ``face``: the face it needs; ``optional``: its controller may decline it (a surprise flip).
    """

    zones: frozenset[str]
    condition: Callable[[Happening], bool]
    face: Face = Face.ANY
    optional: bool = False

    def armed_for(self, card: int, happening: Happening, locate: Locate) -> bool:
        """True if ``card``'s ability triggers on ``happening``: armed after it (``locate`` says
        where the card lies now), or armed before it when the event moved the card itself."""
        if not self.condition(happening):
            return False
        places = [locate(card)]
        if card in happening.moved:
            places.append(happening.moved[card][0])
        return any(
            place is not None and place[0] in self.zones and self.face.accepts(place[1])
            for place in places
        )


@dataclass(frozen=True, slots=True)
class Ability:
    """One automatic ability of a card: which card, which of its abilities, and its trigger."""

    card: int
    index: int
    trigger: Trigger


def triggered(abilities: Iterable[Ability], happening: Happening, locate: Locate) -> list[Ability]:
    """The abilities that trigger on ``happening``, in the order given."""
    return [a for a in abilities if a.trigger.armed_for(a.card, happening, locate)]


class Ending(StrEnum):
    """How an instance leaves the resolution zone."""

    RESOLVED = "resolved"
    CANCELLED = "cancelled"
    NOT_CARRIED_OUT = "not_carried_out"


@dataclass(frozen=True, slots=True)
class Instance:
    """An ability waiting to resolve: its source card, which ability, its controller, a kind
    (e.g. ``"surprise"``) and a number unique within the game."""

    source: int
    index: int
    controller: int
    kind: str = "auto"
    number: int = 0


@dataclass(slots=True)
class ResolutionZone:
    """The instances waiting to resolve (the newest last), and how each ended."""

    waiting: list[Instance] = field(default_factory=list)
    ended: list[tuple[Instance, Ending]] = field(default_factory=list)
    counter: int = 0

    def put(self, source: int, index: int, controller: int, kind: str = "auto") -> Instance:
        """A new instance of ``source``'s ability ``index`` enters the zone."""
        self.counter += 1
        inst = Instance(source, index, controller, kind, self.counter)
        self.waiting.append(inst)
        return inst

    def end(self, inst: Instance, how: Ending) -> None:
        """``inst`` leaves the zone: resolved, cancelled or not carried out."""
        self.waiting.remove(inst)
        self.ended.append((inst, how))

    def sources(self) -> set[int]:
        """The source cards of the waiting instances."""
        return {i.source for i in self.waiting}

    def empty(self) -> bool:
        """True if no instance waits."""
        return not self.waiting

    def last_ending(self, source: int) -> Ending | None:
        """How the most recent ended instance of ``source`` ended, if any did."""
        for inst, how in reversed(self.ended):
            if inst.source == source:
                return how
        return None

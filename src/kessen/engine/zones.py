"""Zones as a rules primitive: card lists with a visibility policy, entry stamps and a capacity.

A :class:`Table` holds every zone of a game that chooses to keep its cards here (a ruleset may
also keep its own storage and use only :class:`ZoneSpec`, :class:`Placed` and the helpers).
Each card lies in one zone as a :class:`Placed` entry: the card, its :class:`~.poses.Pose` and
the **entry stamp** of the move that brought it there. Cards moved by one event share one stamp,
so "the card placed most recently" is a question about stamps, and a tie is visible.

The table writes :class:`~.log.Event` records for what changes, with the identity of a card in
the private part whenever the zone it leaves and the zone it enters both hide it from some
reader. Pose changes that change nothing are no-ops that write no event; revealing a face-down
card is an event of its own that never changes its face.

>>> t = Table({0: 0, 1: 0})
>>> t.add_zone(ZoneSpec("hand", owner=0, visibility=Visibility.OWNER))
>>> t.add_zone(ZoneSpec("box", owner=0, visibility=Visibility.OWNER, capacity=1))
>>> _ = t.put([0, 1], "hand")
>>> t.room("box"), t.turn(0, face_up=False)
(1, None)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from kessen.engine.log import NOBODY, Event
from kessen.engine.poses import Pose


class Visibility(StrEnum):
    """Who may know the identity of a face-down card in a zone (face-up cards are public)."""

    PUBLIC = "public"
    """Everyone knows every card (a discard pile, a battle area)."""
    OWNER = "owner"
    """Only the zone's owner knows its face-down cards (a hand, a set trap, a surprise zone)."""
    NOBODY = "nobody"
    """Nobody knows its face-down cards (a deck)."""


@dataclass(frozen=True, slots=True)
class ZoneSpec:
    """A zone's fixed properties.

    ``capacity`` is the number of cards *player actions* may bring the zone to (``None``: no
    limit); effects may overfill it. ``poses`` says whether its cards have a placement state
    (upright, sideways, reversed) besides their face: a zone without one refuses rotations.
    """

    name: str
    owner: int = NOBODY
    visibility: Visibility = Visibility.PUBLIC
    capacity: int | None = None
    poses: bool = False

    def knows(self, viewer: int | None, face_up: bool) -> bool:
        """True if ``viewer`` (a seat or ``None`` for an observer) may know a card here."""
        if face_up or self.visibility is Visibility.PUBLIC:
            return True
        return self.visibility is Visibility.OWNER and viewer is not None and viewer == self.owner


class Placed(NamedTuple):
    """One card in a zone: its id, its pose and the stamp of the move that placed it."""

    card: int
    pose: Pose
    stamp: int

    @property
    def face_up(self) -> bool:
        """True if the card's face shows."""
        return self.pose.face_up


class PoseRefused(ValueError):
    """A pose change the zone or the cost rules forbid (rotating a card that has no
    placement state; paying a cost with a card that is not upright)."""


def newest(entries: Sequence[Placed]) -> list[Placed]:
    """The entries with the highest stamp (several on a tie; none for an empty zone).

    >>> newest([Placed(1, Pose.DOWN, 3), Placed(2, Pose.DOWN, 5), Placed(3, Pose.UP, 5)])
    [Placed(card=2, pose=<Pose.DOWN: 2>, stamp=5), Placed(card=3, pose=<Pose.UP: 0>, stamp=5)]
    """
    if not entries:
        return []
    top = max(e.stamp for e in entries)
    return [e for e in entries if e.stamp == top]


def upright(pose: Pose) -> bool:
    """True for the pose a cost may turn sideways or reverse: upright and not reversed."""
    return not pose.sideways and not pose.reversed


class Table:
    """Every zone of a game, the card owners, the stamp clock and the events written so far."""

    def __init__(self, owners: Mapping[int, int]) -> None:
        self.owners: dict[int, int] = dict(owners)
        self.specs: dict[str, ZoneSpec] = {}
        self.zones: dict[str, list[Placed]] = {}
        self.clock = 0
        self.events: list[Event] = []

    # --- set-up and queries -------------------------------------------------------------

    def add_zone(self, spec: ZoneSpec) -> None:
        """Declare a zone (empty)."""
        if spec.name in self.specs:
            raise ValueError(f"zone {spec.name!r} exists already")
        self.specs[spec.name] = spec
        self.zones[spec.name] = []

    def where(self, card: int) -> tuple[str, Placed] | None:
        """The zone holding ``card`` and its entry, or ``None`` if no zone of the table does."""
        for name, entries in self.zones.items():
            for entry in entries:
                if entry.card == card:
                    return name, entry
        return None

    def entry(self, card: int) -> Placed:
        """``card``'s entry; ``KeyError`` if it lies in no zone."""
        found = self.where(card)
        if found is None:
            raise KeyError(f"card {card} is in no zone")
        return found[1]

    def cards(self, zone: str) -> list[int]:
        """The cards of ``zone`` in order (oldest entry first)."""
        return [e.card for e in self.zones[zone]]

    def room(self, zone: str) -> int | None:
        """How many more cards player actions may put into ``zone`` (``None``: no limit)."""
        cap = self.specs[zone].capacity
        return None if cap is None else max(0, cap - len(self.zones[zone]))

    def fits(self, zone: str, count: int = 1) -> bool:
        """The capacity check of a player action that would add ``count`` cards to ``zone``."""
        room = self.room(zone)
        return room is None or room >= count

    # --- moves --------------------------------------------------------------------------

    def put(
        self, cards: Iterable[int], dest: str, face_up: bool | None = None, kind: str = "move"
    ) -> Event:
        """Move ``cards`` together into ``dest`` (one event, one shared stamp), keeping each
        card's face unless ``face_up`` says otherwise. Capacity is not checked: an effect may
        overfill a zone; player actions check :meth:`fits` first."""
        self.clock += 1
        stamp = self.clock
        moved: list[tuple[int, str | None, bool, bool]] = []
        for card in cards:
            found = self.where(card)
            pose = Pose.DOWN if found is None else found[1].pose
            source = None if found is None else found[0]
            was_up = pose.face_up
            if found is not None:
                self.zones[found[0]].remove(found[1])
            if face_up is not None:
                pose = pose.flipped(face_up)
            if not self.specs[dest].poses:
                pose = Pose.UP if pose.face_up else Pose.DOWN
            self.zones[dest].append(Placed(card, pose, stamp))
            moved.append((card, source, was_up, pose.face_up))
        return self._note_move(kind, dest, stamp, moved)

    def _note_move(
        self, kind: str, dest: str, stamp: int, moved: list[tuple[int, str | None, bool, bool]]
    ) -> Event:
        spec = self.specs[dest]
        public: dict[str, Any] = {"to": dest, "stamp": stamp, "from": [m[1] for m in moved]}
        secret = [
            m
            for m in moved
            if not (spec.knows(None, m[3]) and (m[1] is None or self.specs[m[1]].knows(None, m[2])))
        ]
        if not secret:
            public["cards"] = [m[0] for m in moved]
            event = Event(kind, public)
        else:
            public["count"] = len(moved)
            event = Event(kind, public, spec.owner, {"cards": [m[0] for m in moved]})
        self.events.append(event)
        return event

    # --- poses --------------------------------------------------------------------------

    def _set_pose(self, card: int, pose: Pose, kind: str) -> Event | None:
        name, entry = self.where(card) or (None, None)
        if name is None or entry is None:
            raise KeyError(f"card {card} is in no zone")
        if entry.pose == pose:
            return None  # asked to do what is already so: the act does not happen
        index = self.zones[name].index(entry)
        self.zones[name][index] = entry._replace(pose=pose)
        event = Event(kind, {"card": card, "zone": name, "pose": int(pose)})
        self.events.append(event)
        return event

    def turn(self, card: int, face_up: bool) -> Event | None:
        """Turn ``card`` face up or face down; ``None`` and no event if it already is."""
        entry = self.entry(card)
        return self._set_pose(card, entry.pose.flipped(face_up), "flip")

    def rotate(
        self,
        card: int,
        sideways: bool | None = None,
        reversed_: bool | None = None,
        cost: bool = False,
    ) -> Event | None:
        """Turn ``card`` sideways/upright or (un)reverse it; ``None`` and no event when nothing
        changes. A zone without placement states refuses (:class:`PoseRefused`); so does a cost
        paid with a card that is not upright."""
        name = (self.where(card) or ("", None))[0]
        if not self.specs[name].poses:
            raise PoseRefused(f"cards in {name!r} have no placement state")
        pose = self.entry(card).pose
        if cost and not upright(pose):
            raise PoseRefused("a cost may only turn an upright card")
        if sideways is not None:
            pose = pose.turned(sideways)
        if reversed_ is not None:
            pose = Pose((pose & ~4) | (4 if reversed_ else 0))
        return self._set_pose(card, pose, "rotate")

    def reveal(self, card: int, to: int | None = None) -> Event:
        """Show ``card`` (to seat ``to``, or to everyone): an event that leaves its face as it
        is, so a revealed face-down card stays face down and keeps whatever it arms."""
        name = (self.where(card) or ("", None))[0]
        if to is None:
            event = Event("reveal", {"card": card, "zone": name}, reveals=self.owners[card])
        else:
            event = Event("reveal", {"zone": name}, to, {"card": card})
        self.events.append(event)
        return event

    # --- views --------------------------------------------------------------------------

    def view(self, viewer: int | None) -> dict[str, list[dict[str, Any]]]:
        """Every zone as ``viewer`` may see it: a card it may not know is ``{"face": "down"}``,
        with no id; poses are public."""
        out: dict[str, list[dict[str, Any]]] = {}
        for name, entries in self.zones.items():
            spec = self.specs[name]
            rows = []
            for e in entries:
                row: dict[str, Any] = {"face": "up" if e.face_up else "down"}
                if spec.poses:
                    row["sideways"], row["reversed"] = e.pose.sideways, e.pose.reversed
                if spec.knows(viewer, e.face_up):
                    row["card"] = e.card
                rows.append(row)
            out[name] = rows
        return out

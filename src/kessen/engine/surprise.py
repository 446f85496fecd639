"""The optional surprise-zone module: a one-card face-down zone whose cards flip on a condition.

A ruleset that switches it on gives each player a surprise zone (owner-only, capacity 1) and
calls the pieces here; nothing in this module knows a particular game. Rule numbers cite the
project's surprise-zone specification.

- **Set** (6.5.1.2.4): a card from the hand face down into one's own *empty* surprise zone,
  then draw 1; not in the first player's first turn. **Clear** (6.5.1.2.5): the zone's card to
  the waiting room, face up. Set and Clear together at most once per turn (6.5.1.2.6), only
  in the ruleset's window, with play timing and an empty resolution zone (6.5.1.2, H1).
- **Flip** (3.9.1, 12.3.1, H3): when a surprise ability's condition is met while its card lies
  face down in the zone, the **owner** may turn it face up; that puts only this ability into
  the resolution zone (H8). Declining changes nothing.
- **Rule processes**: :func:`keep_newest` (9.5.3) and :func:`orphans` (9.7.1), found together by
  :func:`fixes` and applied simultaneously (H12); ``cancelled = stay`` keeps a card whose
  ability was cancelled or not carried out (12.3.1.1 over 9.7.1, H2). :func:`sweep` runs them
  over every surprise zone and says, for each card, the zone it lies in and its **owner**, whose
  waiting room it goes to: an effect may put a card into another player's zone (S32), so the
  zone's owner is not always the card's.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from kessen.engine.triggers import Face
from kessen.engine.zones import Placed, Visibility, ZoneSpec, newest

SURPRISE = "surprise"
"""The zone kind of a surprise zone (the name triggers are armed by)."""
CAPACITY = 1
"""3.9.2: a surprise zone holds at most one card (checked by Set, not by effects)."""
ARMED_FACE = Face.DOWN
"""A surprise ability is armed only while its card is face down in the zone."""

Z = TypeVar("Z")
"""How a ruleset names its surprise zones (a zone name, a seat number, ...)."""


class Cancelled(StrEnum):
    """What happens to a face-up card whose surprise ability was cancelled or not carried out."""

    RULE_PROCESS = "rule_process"
    """Default (H2): it stays face up for now; the next check timing's 9.7.1 moves it out."""
    STAY = "stay"
    """12.3.1.1 overrides 9.7.1: it stays face up in the zone until Cleared."""


@dataclass(frozen=True, slots=True)
class AbilityLine:
    """One automatic ability's printed line, split (2.14.6, 8.1.1.2.1, 8.1.1.2.2).

    ``surprise`` is true for 「【自】 [condition]→effect」 (the 【！】 mark may stand anywhere on
    the line); ``zone`` is the 〔zone〕 an ordinary automatic ability names, if any.
    """

    surprise: bool
    condition: str
    effect: str
    zone: str = ""


_SURPRISE_LINE = re.compile(r"^【自】\s*\[(?P<cond>[^\]]+)\]\s*→\s*(?P<effect>.+)$")
_AUTO_LINE = re.compile(
    r"^【自】\s*(?:〔(?P<zone>[^〕]+)〕)?\s*(?P<cond>.+?(?:時|始めに|終わりに))、\s*(?P<effect>.+)$"
)


def parse_line(line: str) -> AbilityLine | None:
    """Split an automatic ability's line; ``None`` for a line that is not one.

    >>> a = parse_line("【自】[相手のキャラがアタックした時]→カードを1枚引く。【！】")
    >>> a.surprise, a.condition, a.effect
    (True, '相手のキャラがアタックした時', 'カードを1枚引く。')
    >>> parse_line("【自】〔舞台〕このカードが控え室に置かれた時、カードを1枚引く。").zone
    '舞台'
    """
    text = line.replace("【！】", "").strip()
    if match := _SURPRISE_LINE.match(text):
        return AbilityLine(True, match["cond"].strip(), match["effect"].strip())
    if match := _AUTO_LINE.match(text):
        return AbilityLine(
            False, match["cond"].strip(), match["effect"].strip(), match["zone"] or ""
        )
    return None


def zone_spec(owner: int, name: str = SURPRISE) -> ZoneSpec:
    """The surprise zone of ``owner``: owner-only, capacity 1, no placement state (H6)."""
    return ZoneSpec(name, owner=owner, visibility=Visibility.OWNER, capacity=CAPACITY)


@dataclass(frozen=True, slots=True)
class Window:
    """Whether a player may act in the ruleset's Set/Clear window now (6.5.1.2, H1)."""

    turn_player: bool
    in_window: bool
    has_play_timing: bool
    resolution_empty: bool
    used_this_turn: bool
    """Set or Clear was done already this turn (6.5.1.2.6; effects do not count)."""

    @property
    def open(self) -> bool:
        """True if the common preconditions of Set and Clear all hold."""
        return (
            self.turn_player
            and self.in_window
            and self.has_play_timing
            and self.resolution_empty
            and not self.used_this_turn
        )


def may_set(
    window: Window, zone: Sequence[Placed], hand_size: int, first_players_first_turn: bool
) -> bool:
    """6.5.1.2.4: the window is open, the zone is empty, the hand holds a card, and it is not
    the first player's first turn (6.5.1.2.4.1)."""
    return window.open and not zone and hand_size > 0 and not first_players_first_turn


def may_clear(window: Window, zone: Sequence[Placed]) -> bool:
    """6.5.1.2.5: the window is open and the zone holds a card (allowed in the first player's
    first turn too: only Set is banned there)."""
    return window.open and bool(zone)


def keep_newest(zone: Sequence[Placed]) -> list[int]:
    """9.5.3: with several cards, every card but the most recently placed; all of them when
    several share the newest stamp.

    >>> from kessen.engine.poses import Pose
    >>> keep_newest([Placed(1, Pose.DOWN, 1), Placed(2, Pose.DOWN, 2)])
    [1]
    >>> keep_newest([Placed(2, Pose.DOWN, 2), Placed(3, Pose.DOWN, 2)])
    [2, 3]
    """
    if len(zone) < 2:
        return []
    top = newest(zone)
    keep = top[0].card if len(top) == 1 else None
    return [e.card for e in zone if e.card != keep]


def orphans(
    zone: Sequence[Placed],
    pending_sources: Collection[int],
    kept: Collection[int] = (),
    cancelled: Cancelled = Cancelled.RULE_PROCESS,
) -> list[int]:
    """9.7.1: face-up cards with no waiting instance of their own in the resolution zone.

    Under ``Cancelled.STAY`` the cards in ``kept`` (whose surprise ability was cancelled or not
    carried out) are left alone.
    """
    return [
        e.card
        for e in zone
        if e.face_up
        and e.card not in pending_sources
        and not (cancelled is Cancelled.STAY and e.card in kept)
    ]


def fixes(
    zone: Sequence[Placed],
    pending_sources: Collection[int],
    kept: Collection[int] = (),
    cancelled: Cancelled = Cancelled.RULE_PROCESS,
) -> list[tuple[str, int]]:
    """Both rule processes on one zone: ``(rule, card)`` for each card to move to its owner's
    waiting room face up. A card both would move is moved once (by 9.5.3).

    The owner is the card's, which need not be the zone's (S32): :func:`sweep` names it.
    """
    out = [("9.5.3", card) for card in keep_newest(zone)]
    taken = {card for _, card in out}
    out += [
        ("9.7.1", card)
        for card in orphans(zone, pending_sources, kept, cancelled)
        if card not in taken
    ]
    return out


@dataclass(frozen=True, slots=True)
class Fix(Generic[Z]):
    """One card a rule process moves out of a surprise zone, face up (9.5.3, 9.7.1)."""

    rule: str
    """The rule that moves it: ``"9.5.3"`` or ``"9.7.1"``."""
    card: int
    zone: Z
    """The surprise zone the card lies in now: the zone to take it from."""
    owner: int
    """The card's owner: whose waiting room it goes to (not always the zone's owner, S32)."""


def sweep(
    zones: Mapping[Z, Sequence[Placed]],
    owners: Mapping[int, int] | Sequence[int],
    pending_sources: Collection[int],
    kept: Collection[int] = (),
    cancelled: Cancelled = Cancelled.RULE_PROCESS,
) -> list[Fix[Z]]:
    """Both rule processes on every surprise zone of one state (H12), zone by zone in the
    order of ``zones``: each card to move, with the zone it leaves and its owner (``owners``
    maps a card to its owner), whose waiting room it enters.

    Applying every fix (taking the card out of ``fix.zone``) leaves nothing for a second pass
    to find, wherever the cards came from.

    >>> from kessen.engine.poses import Pose
    >>> p1_zone = [Placed(20, Pose.DOWN, 1), Placed(0, Pose.DOWN, 2)]  # P2's 20 under P1's 0
    >>> sweep({"surprise0": p1_zone, "surprise1": []}, {0: 0, 20: 1}, ())
    [Fix(rule='9.5.3', card=20, zone='surprise0', owner=1)]
    """
    return [
        Fix(rule, card, name, owners[card])
        for name, entries in zones.items()
        for rule, card in fixes(entries, pending_sources, kept, cancelled)
    ]

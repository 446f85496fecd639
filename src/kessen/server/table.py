"""Two people at one table: the invite, the seats' presence and grace, the clock, undo requests.

A match between two people (mode ``vs_human``) keeps this next to its history. Nothing here knows
a ruleset: the clock runs for whichever seat the live state's ``pending`` names, and every rule
of the game stays the engine's.

- **Invite.** The creator plays seat 0. Seat 1's token exists from the start (it is stored with
  the match, so the guest can come back after a restart), but it is handed out once only, to
  whoever first presents the invite code (with the deck they chose: the game starts then,
  :mod:`kessen.server.two_people`). A used invite, and the spectator code, give the one
  spectator token: the observer's view (no hidden card of either seat until the match ends).
  While unused, the invite code is kept in the match's stored meta too, so it still opens
  seat 1 after a server restart; once used it is removed from there.
- **Presence and grace.** A seat with no open connection is *away*. Each seat has one grace
  for the whole match: a separate bank of :data:`GRACE` seconds, never refilled. Every second a
  seat is away once the match is under way (the guest has joined) is spent from it, whether or
  not that seat must decide, and however many absences it is split into; while some is left
  the game waits for the seat (its clock does not run) and the opponent sees how long is left.
  Once it is spent, its clock runs whether the seat is there or not, if there is one; without a
  clock, a seat still away when its grace is spent has left the match: it loses, recorded with
  the reason ``abandon`` (otherwise the one who stayed would wait for ever).
  Reconnecting and leaving again gives nothing back: over a whole match a seat thinks at most
  :data:`GRACE` seconds with its clock stopped. A restored match (after a server restart)
  starts with full banks and a full grace, as it starts its clocks from full banks.
- **Clock** (optional, off by default): a bank of seconds per seat plus an increment per
  decision. Only the seat whose decision is pending spends time; at zero it loses the match,
  recorded as the outcome with the reason ``timeout``. A move is charged before it is looked
  at: a seat at or below zero, however few milliseconds past it, has lost on time and its move
  (an act, a redo, an undo request or answer, a resignation) is refused; the increment is never
  added to a bank that reached zero. A seat that leaves at zero has lost the same way.
- **Resign** (投了): a seat concedes; the opponent wins, recorded the same way with the reason
  ``resign``.
- **Undo by request.** A seat may ask to take back what the undo rule of
  :mod:`kessen.engine.undo` allows it; the opponent accepts or refuses. Any move cancels a
  request still open; a refused seat asks again only once the game has moved on.
- **Rematch** (再戦), once the match is over: a seat asks, the other accepts or declines (or
  the asker withdraws). When both have asked, the next match is made (seats swapped) and each
  seat fetches its own token of it; every view names only the next match's id and its
  spectator code.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Final

from kessen.engine.contract import Json, Outcome
from kessen.server.limits import GRACE
from kessen.server.security import same_secret

TIMEOUT: Final = "timeout"
"""The outcome reason of a match lost on time."""
RESIGN: Final = "resign"
"""The outcome reason of a match a seat conceded (投了)."""
ABANDON: Final = "abandon"
"""The outcome reason of a match without a clock that a seat left and did not come back to
before its grace was spent."""


@dataclass
class Clock:
    """Each seat's bank of seconds; the running seat spends since ``since``."""

    bank: float
    increment: float
    left: list[float]
    running: int | None = None
    since: float = 0.0

    @staticmethod
    def start(bank: float, increment: float, seats: int = 2) -> Clock:
        """A clock with a full bank for every seat, stopped."""
        return Clock(bank, increment, [float(bank)] * seats)

    def settle(self, now: float) -> None:
        """Charge the running seat the time since it started (or was last charged)."""
        if self.running is not None:
            self.left[self.running] -= max(0.0, now - self.since)
        self.since = now

    def run(self, seat: int | None, now: float) -> None:
        """Charge the time so far, then let ``seat`` (or nobody) spend from now on."""
        self.settle(now)
        self.running = seat

    def remaining(self, now: float) -> list[float]:
        """Every seat's seconds left at ``now`` (the running seat's counted down)."""
        out = list(self.left)
        if self.running is not None:
            out[self.running] -= max(0.0, now - self.since)
        return [max(0.0, x) for x in out]

    def expires(self) -> float | None:
        """When the running seat's bank runs out (monotonic seconds), if one runs."""
        if self.running is None:
            return None
        return self.since + max(0.0, self.left[self.running])

    def to_json(self, now: float) -> Json:
        """What both seats (and spectators) are shown."""
        return {
            "bank": self.bank,
            "increment": self.increment,
            "left": [round(x, 2) for x in self.remaining(now)],
            "running": self.running,
        }


@dataclass
class NextMatch:
    """The rematch once made: its session id, each old seat's token and seat in it, and its
    spectator code."""

    id: str
    seats: dict[int, tuple[str, int]]
    spectate: str


@dataclass
class Rematch:
    """The rematch requests of a finished match between two people."""

    asked: set[int] = field(default_factory=set)
    """The seats that asked (or accepted); both: the next match is made."""
    notice: Json | None = None
    """The last refusal: ``{"n", "by", "accepted": false}`` (``n`` rises)."""
    next: NextMatch | None = None

    def to_json(self) -> Json:
        """What every seat and spectator is shown: no token, only the next match's id and its
        spectator code (each seat fetches its own token: :mod:`kessen.server.friend_api`)."""
        made = self.next
        return {
            "asked": sorted(self.asked),
            "notice": self.notice,
            "next": None if made is None else {"id": made.id, "spectate": made.spectate},
        }


@dataclass
class Table:
    """The two-people part of a session (see the module docstring)."""

    guest_token: str
    spectate_token: str
    invite: str | None = field(default_factory=lambda: secrets.token_urlsafe(16))
    claimed: bool = False
    grace: float = GRACE
    """Each seat's grace for the whole match, in seconds (one bank, never refilled)."""
    clock: Clock | None = None
    present: list[int] = field(default_factory=lambda: [0, 0])
    """Open connections per seat."""
    away_since: dict[int, float] = field(default_factory=dict)
    """Seats without a connection, and since when (monotonic seconds)."""
    grace_spent: dict[int, float] = field(default_factory=dict)
    """Seat → the grace seconds its absences that ended have spent (the running one's are
    counted from ``away_since``)."""
    started: float | None = None
    """When the match got under way (the guest had joined, or a restored match was first
    looked at): absences before it spend no grace."""
    undo_request: int | None = None
    """The seat that asked to undo, while its request is open."""
    undo_notice: Json | None = None
    """The last answer to an undo request: ``{"n", "by", "accepted"}`` (``n`` rises)."""
    refused_at: dict[int, int] = field(default_factory=dict)
    """Seat → the step at which its last undo request was refused (it may not ask again
    before the game moves on)."""
    ended: Outcome | None = None
    """The outcome of a match that ended off the board (on time, or resigned)."""
    rematch: Rematch = field(default_factory=Rematch)
    """Who asked for a rematch, the last refusal, and the next match once it is made."""

    def peek(self, code: str) -> int | None:
        """The seat ``code`` would open now, without using it: 1 for the unused invite, -1
        for a used invite or the spectator code, None for anything else."""
        if self.invite is not None and same_secret(code, self.invite):
            return -1 if self.claimed else 1
        if same_secret(code, self.spectate_token):
            return -1
        return None

    def claim(self, code: str) -> tuple[str, int] | None:
        """The token and seat ``code`` opens: seat 1 the first time the invite is shown, the
        spectator's token for a used invite or the spectator code; None for anything else."""
        if self.invite is not None and same_secret(code, self.invite):
            if not self.claimed:
                self.claimed = True
                return self.guest_token, 1
            return self.spectate_token, -1
        if same_secret(code, self.spectate_token):
            return self.spectate_token, -1
        return None

    def _spent(self, seat: int, now: float) -> float:
        """The grace seconds ``seat`` has spent by ``now``: its ended absences, and the one
        running (from the later of its start and the match's)."""
        spent = self.grace_spent.get(seat, 0.0)
        since = self.away_since.get(seat)
        if since is not None and self.started is not None:
            spent += max(0.0, now - max(since, self.started))
        return spent

    def _close_absence(self, seat: int, now: float) -> None:
        """Book what the running absence of ``seat`` spent, and end it."""
        if seat in self.away_since:
            self.grace_spent[seat] = self._spent(seat, now)
            del self.away_since[seat]

    def grace_left(self, seat: int, now: float) -> float:
        """The grace seconds ``seat`` has left at ``now`` (of its one grace per match)."""
        return max(0.0, self.grace - self._spent(seat, now))

    def away(self, seat: int, now: float) -> bool:
        """Whether ``seat`` is away and still has grace left: the game waits for it."""
        return seat in self.away_since and self.grace_left(seat, now) > 0.0

    def grace_end(self, seat: int) -> float | None:
        """When the grace of ``seat`` runs out if it stays away (None while it is present)."""
        since = self.away_since.get(seat)
        if since is None:
            return None
        start = since if self.started is None else max(since, self.started)
        return start + max(0.0, self.grace - self.grace_spent.get(seat, 0.0))

    def grace_ends(self) -> list[float]:
        """When the grace periods now running end."""
        return [end for seat in self.away_since if (end := self.grace_end(seat)) is not None]

    def arrive(self, seat: int, now: float) -> None:
        """A connection of ``seat`` opened: an absence ends, keeping what it spent."""
        if seat in (0, 1):
            self.present[seat] += 1
            self._close_absence(seat, now)

    def leave(self, seat: int, now: float) -> None:
        """A connection of ``seat`` closed; its last one starts an absence, which spends what
        is left of its grace (a seat already away keeps what it spent)."""
        if seat in (0, 1):
            self.present[seat] = max(0, self.present[seat] - 1)
            if self.present[seat] == 0:
                self._close_absence(seat, now)
                self.away_since[seat] = now

    def view_for(self, seat: int, now: float, over: bool) -> Json:
        """What ``seat`` (-1: a spectator) is shown of the table. The invite code goes to the
        creator only, while unused; seat tokens never appear."""
        return {
            "joined": self.claimed,
            "invite": self.invite if seat == 0 and not self.claimed else None,
            "spectate": self.spectate_token,
            "present": [n > 0 for n in self.present],
            "grace": {
                str(s): round(self.grace_left(s, now), 1)
                for s in self.away_since
                if self.claimed and not over
            },
            "clock": None if self.clock is None else self.clock.to_json(now),
            "undo_request": self.undo_request,
            "undo_notice": self.undo_notice,
            "ended": None
            if self.ended is None
            else {"winner": self.ended.winner, "reason": self.ended.reason},
            "rematch": self.rematch.to_json(),
        }

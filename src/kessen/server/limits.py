"""The server's bounds: live sessions, message rates, pace, and what a client's config may say.

No client can make the server do unbounded work. A new game's config is screened before the
ruleset sees it (:func:`screen_config`): the ruleset validates every config itself (a client
cannot switch Kōbō's deck rules off) and bounds it (deck sizes, ``best_of`` odd and at most
nine). COM pace lies in ``[0, MAX_PACE]`` on every path, a restored session's too
(:func:`bounded_pace`), COM against COM at least :data:`MIN_WATCH_PACE` a client cannot go
below. At most :data:`MAX_SESSIONS` sessions live in memory, at most
:data:`MAX_SESSIONS_PER_CLIENT` of one client address; finished ones leave it
:data:`EVICT_AFTER` seconds after their end (their records stay in the store), unfinished ones
nobody connects to are abandoned after :data:`IDLE_AFTER` seconds. Each WebSocket may send
:data:`RATE` messages a second, in bursts of :data:`BURST` (:class:`TokenBucket`), and all the
connections of one client address together :data:`CLIENT_RATE` (bursts of
:data:`CLIENT_BURST`), from at most :data:`MAX_CONNECTIONS_PER_CLIENT` connections; the excess
is dropped, never queued. A person's ``act`` that the game
accepts is given back its token: those are bounded by the game's own length (a bot playing at
full speed is no flood), while undo/redo, refused and idle messages are not. Between two
people, a seat that lost its connection is waited for :data:`GRACE` seconds, and a match clock
holds between one second and :data:`MAX_BANK` seconds, plus at most :data:`MAX_INCREMENT`
seconds per decision.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

MAX_SESSIONS: Final = 256
"""Sessions kept in memory at once; a new game beyond evicts the oldest finished one (or
abandons one left for :data:`ROOM_IDLE` seconds)."""
MAX_SESSIONS_PER_CLIENT: Final = 8
"""Unfinished sessions one client address plays at once; a new game beyond abandons the one it
left longest ago (none left: refused with 429)."""
FIRST_VISIT: Final = 10.0
"""Seconds a new session waits for its first connection before its client's next game may
abandon it (one it was connected to and left may go at once)."""
IDLE_AFTER: Final = 900.0
"""Seconds an unfinished session may go without any open connection before it is abandoned
(its record marked so, never resumed): a vs-COM match or an invite nobody came back to."""
ROOM_IDLE: Final = 30.0
"""Seconds without a connection after which a full server may abandon a session for a new one."""
MAX_CONNECTIONS_PER_CLIENT: Final = 32
"""WebSockets one client address may hold open at once."""
CLIENT_RATE: Final = 40.0
"""Messages a second one client address may send over all its connections, on average."""
CLIENT_BURST: Final = 80.0
"""Messages one client address may send at once over all its connections."""
MIN_WATCH_PACE: Final = 0.5
"""The fastest pace, in seconds per action, a client may ask for COM against COM (a server
started with a faster default pace uses that instead)."""
EVICT_AFTER: Final = 60.0
"""Seconds a finished session nobody watches stays in memory before it goes (a page that stays
open keeps it; a later visit is pointed to its record)."""
RATE: Final = 20.0
"""Messages a second one WebSocket may send, on average."""
BURST: Final = 40.0
"""Messages one WebSocket may send at once."""
NOTICE_EVERY: Final = 1.0
"""Seconds between two ``rate_limited`` notices to one connection (a flood gets one)."""
MAX_PACE: Final = 30.0
"""The slowest COM pace, in seconds per action."""
GRACE: Final = 60.0
"""Seconds a match between two people waits for a seat that lost its connection before that
seat's clock (if one is set) runs again: once per seat for the whole match, not per absence.
Every second away spends it, it is never refilled, and reconnecting gives nothing back
(:mod:`kessen.server.table`)."""
MAX_BANK: Final = 7200.0
"""The largest bank of a match clock, in seconds (the smallest is one second)."""
MAX_INCREMENT: Final = 600.0
"""The largest clock increment per decision, in seconds."""
CLIENT_FORBIDDEN: Final = {
    "validate": "the server always validates decks; this switch only serves re-loading a "
    "recorded state",
}
"""Config keys a client may not send, with the reason given back."""


class ConfigRefused(ValueError):
    """A client's config that the server refuses before any ruleset sees it."""


def screen_config(config: Mapping[str, Any]) -> None:
    """Refuse the keys a client may not set (:data:`CLIENT_FORBIDDEN`), saying why.

    >>> screen_config({"best_of": 3})
    >>> try:
    ...     screen_config({"validate": False})
    ... except ConfigRefused as err:
    ...     print(str(err)[:48])
    config.validate: the server always validates dec
    """
    for key, reason in CLIENT_FORBIDDEN.items():
        if key in config:
            raise ConfigRefused(f"config.{key}: {reason}")


def bounded_pace(pace: Any, default: float) -> float:
    """``pace`` as a COM pace in ``[0, MAX_PACE]``; ``default`` if it is not a number.

    >>> bounded_pace(-1, 3.0), bounded_pace(1e9, 3.0), bounded_pace(float("nan"), 3.0)
    (0.0, 30.0, 3.0)
    """
    if isinstance(pace, bool) or not isinstance(pace, int | float) or not math.isfinite(pace):
        return default
    return min(max(float(pace), 0.0), MAX_PACE)


@dataclass
class TokenBucket:
    """A rate limit: ``rate`` tokens a second, at most ``burst`` saved; a message costs one.

    >>> bucket = TokenBucket(rate=1.0, burst=2.0, clock=lambda: 0.0)
    >>> bucket.take(), bucket.take(), bucket.take()
    (True, True, False)
    """

    rate: float = RATE
    burst: float = BURST
    clock: Any = time.monotonic
    tokens: float = field(default=-1.0)
    stamp: float = field(default=0.0)

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst
        self.stamp = self.clock()

    def refund(self) -> None:
        """Give back one token (a message that turned out to cost nothing)."""
        self.tokens = min(self.burst, self.tokens + 1.0)

    def take(self) -> bool:
        """Spend one token if there is one."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

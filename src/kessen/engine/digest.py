"""Incremental state digests: hash an append-only event log once, not at every step.

:meth:`GameState.state_hash` digests the whole JSON form, so its cost grows with the log and a
game's total hashing cost with the square of its length. A state whose log only ever grows at
the end can keep a :class:`LogDigest` (a chained digest of the events hashed so far) and combine
it with the digest of the rest of its JSON form: :func:`combined_hash`. The result depends only
on the state's data, so clones, JSON round trips and replays agree with the original.

>>> from kessen.engine.log import Event
>>> events = [Event("a", {"x": 1}), Event("b")]
>>> LogDigest().updated(events) == LogDigest().updated(events[:1]).updated(events)
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, NamedTuple

from kessen.engine.canonical import canonical_json
from kessen.engine.log import Event


def _encode(data: Any) -> bytes:
    return canonical_json(data, ascii_only=False)


class LogDigest(NamedTuple):
    """A chained digest of the first ``seen`` events of a log (immutable; share it freely)."""

    seen: int = 0
    digest: bytes = b""

    def updated(self, log: Sequence[Event]) -> LogDigest:
        """The digest of all of ``log``, hashing only the events after the first ``seen``.

        ``log`` must start with the events this digest has seen (an append-only log); a shorter
        log is digested from its start.
        """
        seen, digest = self
        if seen > len(log):
            seen, digest = 0, b""
        if seen == len(log):
            return self if seen == self.seen else LogDigest(seen, digest)
        for event in log[seen:]:
            digest = hashlib.blake2b(digest + _encode(event.to_json()), digest_size=16).digest()
        return LogDigest(len(log), digest)


def combined_hash(body: Any, log: LogDigest) -> str:
    """A short digest of a state: its JSON form without the log, and the log's digest."""
    return hashlib.blake2b(_encode(body) + log.digest, digest_size=12).hexdigest()

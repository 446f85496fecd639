"""Views sent as deltas: a connection that asked for them gets what changed since its last view.

A page that connects with ``delta=1`` receives, after its first view (a full ``state``
message), ``{"type": "delta", "set": {...}, "drop": [...], "log_from": k, "log": [...]}``
whenever that is shorter than the full view: the top-level keys whose values changed (``set``),
those gone (``drop``), and the log from its first entry that differs from the last view sent
on the same connection (``log_from``; an undo can shorten or rewrite the log). The log is
handled apart only while both views hold it as a list; otherwise ``log`` is a key like the
others, and the message has neither ``log_from`` nor ``log``.

A delta is only ever made from two views of the same connection, both its own: it carries
nothing that connection's full view would not. Values are compared by their JSON text (so
``1`` and ``true`` differ, as they do on the page), and every value is encoded once per view,
however many connections receive it.
"""

from __future__ import annotations

from dataclasses import dataclass

import pydantic_core

from kessen.engine.contract import Json

LOG = "log"
"""The top-level key of the view that only grows while a match is played."""


@dataclass(frozen=True, slots=True, eq=False)
class Encoded:
    """A view with each top-level value, and each entry of its log, encoded as JSON once."""

    keys: dict[str, bytes]
    """Each top-level key's JSON text (a quoted string), in the view's order."""
    parts: dict[str, bytes]
    """Each top-level value's JSON text (the log apart while it is a list)."""
    log: tuple[bytes, ...] | None
    """Each log entry's JSON text; None when the view has no log list."""

    def state_message(self) -> str:
        """The full ``state`` message of this view."""
        fields = [
            text + b":" + (self.parts[key] if key in self.parts else self.log_text())
            for key, text in self.keys.items()
        ]
        return (b'{"type":"state","view":{' + b",".join(fields) + b"}}").decode()

    def log_text(self) -> bytes:
        """The log list's JSON text."""
        return b"[" + b",".join(self.log or ()) + b"]"


def encode(view: Json) -> Encoded:
    """``view`` encoded key by key (pydantic-core's encoder, as the full messages are)."""
    keys: dict[str, bytes] = {}
    parts: dict[str, bytes] = {}
    log: tuple[bytes, ...] | None = None
    for key, value in view.items():
        keys[key] = pydantic_core.to_json(key)
        if key == LOG and isinstance(value, list):
            log = tuple(pydantic_core.to_json(entry) for entry in value)
        else:
            parts[key] = pydantic_core.to_json(value)
    return Encoded(keys, parts, log)


def message(last: Encoded | None, view: Encoded) -> str:
    """What a delta connection is sent for ``view`` when ``last`` was the last view it was
    sent: the full ``state`` message if there is no last view, or if a delta would not be
    shorter; the ``delta`` message otherwise."""
    full = view.state_message()
    if last is None:
        return full
    changed = [
        view.keys[key] + b":" + value
        for key, value in view.parts.items()
        if last.parts.get(key) != value
    ]
    gone = [text for key, text in last.keys.items() if key not in view.keys]
    if view.log is not None and last.log is None:
        changed.append(view.keys[LOG] + b":" + view.log_text())
    text = b'{"type":"delta","set":{' + b",".join(changed) + b'},"drop":[' + b",".join(gone) + b"]"
    if view.log is not None and last.log is not None:
        start = log_from(last.log, view.log)
        text += b',"log_from":%d,"log":[' % start + b",".join(view.log[start:]) + b"]"
    delta = (text + b"}").decode()
    return delta if len(delta) < len(full) else full


def log_from(old: tuple[bytes, ...], new: tuple[bytes, ...]) -> int:
    """The index of the first entry where ``new`` differs from ``old`` (the length of the
    shorter one if one is the other's beginning)."""
    if new[: len(old)] == old:  # the usual case: the log grew, or stayed
        return len(old)
    for index, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            return index
    return min(len(old), len(new))

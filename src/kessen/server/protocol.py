"""The WebSocket protocol: client messages validated by pydantic, refusals with clear codes.

Client → server, one JSON object per message (at most :data:`MAX_MESSAGE` bytes):

- ``{"type": "act", "prompt_id": 12, "action": "attack 1"}`` answer the pending prompt
- ``{"type": "undo"}`` / ``{"type": "redo"}`` / ``{"type": "live"}`` history buttons (between
  two people, ``undo`` asks the opponent, who answers
  ``{"type": "undo_answer", "accept": true}`` or ``false``)
- ``{"type": "resign"}`` concede the match (the opponent wins, reason ``resign``; refused once it
  is over with the code ``over``)
- ``{"type": "lang", "lang": "en"}`` language of names, texts and log
- ``{"type": "show_all", "on": true}`` spectators of COM vs COM: see every card
- ``{"type": "ping"}``

Server → client: ``{"type": "state", "view": {...}}`` after every change, and
``{"type": "error", "code": "...", "message": "..."}`` for a refused message (nothing changed).
A connection opened with ``&delta=1`` gets, instead of a ``state`` message that a delta would
make shorter, ``{"type": "delta", "set": {key: value, ...}, "drop": [key, ...], "log_from": k,
"log": [...]}``, relative to the last view sent on that same connection (its first view is
always a ``state``): the top-level keys whose values changed, those gone, and the log from
entry ``k`` on (the first entry that differs: an undo can shorten or rewrite the log; 0 when
nothing of the old log remains). The page applies it to its last view and takes the result as
a full view; a delta it cannot apply makes it reconnect (:mod:`kessen.server.deltas`).
The codes: ``malformed`` (not JSON text), ``binary`` (a binary frame), ``too_large`` (more
than :data:`MAX_MESSAGE` bytes), ``too_deep`` (JSON nested deeper than :data:`MAX_DEPTH`),
``invalid`` (JSON that is no client message), ``refused`` (the game or the session refuses
it), ``rate_limited`` (too many messages; the excess is dropped), ``busy``, ``internal``;
and on connecting ``unknown_game``, ``evicted`` (a finished game closed on the server; its
record stays in the match history).
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

MAX_MESSAGE = 4096
MAX_DEPTH = 8
"""The deepest JSON nesting a client message may have (the real ones have depth 1)."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Act(_Message):
    """Answer to the pending prompt ``prompt_id``."""

    type: Literal["act"]
    prompt_id: StrictInt
    action: Annotated[StrictStr, Field(min_length=1, max_length=200)]


class Undo(_Message):
    """一つ戻る."""

    type: Literal["undo"]


class Redo(_Message):
    """一つ進む."""

    type: Literal["redo"]


class Live(_Message):
    """Return to live play (COM vs COM history)."""

    type: Literal["live"]


class Lang(_Message):
    """Switch the language of the view."""

    type: Literal["lang"]
    lang: Literal["ja", "en"]


class ShowAll(_Message):
    """Spectator's "show all" switch."""

    type: Literal["show_all"]
    on: StrictBool


class UndoAnswer(_Message):
    """The answer to the opponent's undo request (two people)."""

    type: Literal["undo_answer"]
    accept: StrictBool


class Resign(_Message):
    """投了: concede the match (two people)."""

    type: Literal["resign"]


class Ping(_Message):
    """Keep-alive; answered with the current state."""

    type: Literal["ping"]


ClientMessage = Annotated[
    Act | Undo | Redo | Live | Lang | ShowAll | Ping | UndoAnswer | Resign,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


class ProtocolError(ValueError):
    """A message that is not a valid client message; ``code`` names the kind of problem."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def json_depth(text: str) -> int:
    """How deeply the arrays and objects of JSON ``text`` nest (brackets inside strings do not
    count); computed without parsing, so any depth is safe to measure.

    >>> json_depth('{"a": [1, {"b": "[[["}]}'), json_depth('"x"')
    (3, 0)
    """
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def parse_message(raw: str | bytes) -> ClientMessage:
    """Parse one client message or raise :class:`ProtocolError` saying what is wrong."""
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError(
            "too_large", f"message of {len(raw)} bytes; at most {MAX_MESSAGE} are accepted"
        )
    try:
        text = raw if isinstance(raw, str) else raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ProtocolError("malformed", f"not UTF-8 text: {err}") from err
    if json_depth(text) > MAX_DEPTH:
        raise ProtocolError(
            "too_deep", f"JSON nested deeper than {MAX_DEPTH} levels; a message is one object"
        )
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ProtocolError("malformed", f"not JSON: {err}") from err
    except RecursionError as err:  # unreachable after json_depth; kept as a last guard
        raise ProtocolError("too_deep", "JSON nested too deeply") from err
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as err:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'message'}: {e['msg']}" for e in err.errors()
        )
        raise ProtocolError("invalid", problems) from err


def error(code: str, message: str) -> dict[str, str]:
    """A refusal message."""
    return {"type": "error", "code": code, "message": message}

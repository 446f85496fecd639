"""The WebSocket protocol: client messages validated by pydantic, refusals with clear codes.

Client → server, one JSON object per message (at most :data:`MAX_MESSAGE` bytes):

- ``{"type": "act", "prompt_id": 12, "action": "attack 1"}`` answer the pending prompt
- ``{"type": "undo"}`` / ``{"type": "redo"}`` / ``{"type": "live"}`` history buttons
- ``{"type": "lang", "lang": "en"}`` language of names, texts and log
- ``{"type": "show_all", "on": true}`` spectators of COM vs COM: see every card
- ``{"type": "ping"}``

Server → client: ``{"type": "state", "view": {...}}`` after every change, and
``{"type": "error", "code": "...", "message": "..."}`` for a refused message (nothing changed).
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

MAX_MESSAGE = 4096


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Act(_Message):
    """Answer to the pending prompt ``prompt_id``."""

    type: Literal["act"]
    prompt_id: int
    action: Annotated[str, Field(min_length=1, max_length=200)]


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
    on: bool


class Ping(_Message):
    """Keep-alive; answered with the current state."""

    type: Literal["ping"]


ClientMessage = Annotated[
    Act | Undo | Redo | Live | Lang | ShowAll | Ping, Field(discriminator="type")
]
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


class ProtocolError(ValueError):
    """A message that is not a valid client message; ``code`` names the kind of problem."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def parse_message(raw: str | bytes) -> ClientMessage:
    """Parse one client message or raise :class:`ProtocolError` saying what is wrong."""
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError("too_large", f"message larger than {MAX_MESSAGE} bytes")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ProtocolError("malformed", f"not JSON: {err}") from err
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

"""How the match store writes values into its columns: JSON text, shared blobs, packed summaries.

Every config, player map and result goes through :func:`dumps`, which keeps key order (an inline
deck is dealt in the order it lists its cards).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from kessen.engine.contract import Json
from kessen.store import db

if TYPE_CHECKING:
    from kessen.store.backend import Conn


def dumps(value: Any) -> str:
    """Compact JSON that keeps every object's key order.

    Order carries meaning in a config: an inline deck's cards are dealt in the order they are
    listed, so a config must come back exactly as it was given (sorting its keys once made
    records with a custom deck unplayable, see :data:`REORDERED`).
    """
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def dumps_sorted(value: Any) -> str:
    """The sorted-key form older store versions wrote (to recognise what they stored)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def blob(conn: Conn, value: Any) -> str | None:
    """Keep ``value`` (JSON) once in ``blobs``; return its key (``None`` for ``None``)."""
    if value is None:
        return None
    text = dumps(value)
    key = db.blob_key(text)
    conn.execute("INSERT INTO blobs (hash, data) VALUES (?, ?) ON CONFLICT DO NOTHING", (key, text))
    return key


def pack(value: Any) -> bytes:
    """``value`` as compressed compact JSON (the simulator's game summaries)."""
    return zlib.compress(dumps(value).encode(), 6)


def unpack(data: bytes | str) -> Any:
    """The value :func:`pack` stored (JSON text that is not compressed is read as is)."""
    return json.loads(zlib.decompress(data) if isinstance(data, bytes) else data)


def timestamp(value: float | datetime | None) -> float | None:
    """Seconds since the epoch, as stored (``None`` stays ``None``)."""
    if value is None or isinstance(value, float | int):
        return value
    return value.timestamp()


def players_json(players: Mapping[int, str] | Mapping[str, str] | Sequence[str]) -> Json:
    """Seat → player name as stored: string keys (``"0"``, ``"1"``) and string names."""
    if isinstance(players, Mapping):
        return {str(k): str(v) for k, v in players.items()}
    return {str(i): str(p) for i, p in enumerate(players)}

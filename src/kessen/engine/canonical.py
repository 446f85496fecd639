"""Canonical JSON text for digests: sorted keys, no spaces, byte for byte what ``json.dumps``
writes with ``sort_keys=True, separators=(",", ":")``, written by orjson when that is the same.

State digests (:meth:`GameState.state_hash`, :mod:`kessen.engine.digest`) are stored in every
match record and checked on replay, so their text must never change; but ``json.dumps`` with
sorted keys is most of what hashing a state costs, and the random-playout checks, the simulator
and the server hash states all the time. orjson writes the same text ten times faster for the
data a state holds (dicts with string keys, lists, strings, integers, booleans and None). Where
its text could differ, this module escapes or falls back to ``json.dumps``:

- characters outside ASCII (and DEL), which ``json.dumps`` escapes by default: escaped the same
  way (``\\u9244``, a surrogate pair above the basic plane), as they only occur inside strings;
- floats under 1e-4, the only ones whose forms differ (``1e-07`` against ``1e-7``): a text
  that may hold one (``0.0000`` or a digit before ``e-`` anywhere, strings included) is written
  by ``json.dumps`` instead, which costs time, never exactness;
- what orjson refuses (a key that is not a string, an integer beyond 64 bits, a lone surrogate)
  and the dataclasses and dates it would write: ``json.dumps`` decides (and refuses those).

Values that are not JSON at all are not made exact: NaN and the infinities (orjson writes
``null``, ``json.dumps`` ``NaN``), and a UUID or an enum that is neither an ``int`` nor a ``str``
(orjson writes it, ``json.dumps`` refuses it). No state holds one, nor a float at all
(``tests/test_canonical_json.py`` checks every step of a game of each ruleset).
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
# orjson writes every float as json.dumps does but those under 1e-4 (json.dumps: 2.5e-05 and
# 1e-07; orjson: 0.000025 and 1e-7). In orjson's text such a float holds "0.0000" or a digit
# followed by "e-" (searched from the literal "e-" first, which is fast).
_SMALL_DECIMAL = b"0.0000"
_NEGATIVE_EXPONENT = re.compile(rb"e-(?<=[0-9]e-)")
_BEYOND_ASCII = re.compile(r"[^\x00-\x7e]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 | (code >> 10):04x}\\u{0xDC00 | (code & 0x3FF):04x}"


def _ascii(text: bytes) -> bytes:
    """orjson's UTF-8 ``text`` with every character beyond ASCII (and DEL) escaped as
    ``json.dumps`` escapes it."""
    decoded = text.decode()
    if b"\x7f" not in text:
        # Python's backslashreplace writes U+0100–U+FFFF as json.dumps does (\u9244); what
        # it writes otherwise (\xe9, \U0001f600) sends the text to the exact escaping below
        # (so does a string holding a backslash before x or U, which costs time only).
        quick = decoded.encode("ascii", "backslashreplace")
        if b"\\x" not in quick and b"\\U" not in quick:
            return quick
    return _BEYOND_ASCII.sub(_escaped, decoded).encode()


def canonical_json(data: Any, *, ascii_only: bool = True) -> bytes:
    """``json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=ascii_only)``
    as UTF-8 bytes, the same bytes, mostly written by orjson."""
    text: bytes | None
    try:
        text = orjson.dumps(data, option=_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError
        text = None
    if text is None or _SMALL_DECIMAL in text or _NEGATIVE_EXPONENT.search(text):
        slow = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=ascii_only)
        return slow.encode()
    if ascii_only and (not text.isascii() or b"\x7f" in text):
        return _ascii(text)
    return text

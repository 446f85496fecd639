"""How a refusal names a client's value, for every ruleset: short, never the whole input.

A config or deck a client sends may be huge or nested deeper than printing can go; the message
that refuses it names a scalar as JSON (cut at 40 characters) and a list or an object by its
kind alone.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def shown(value: Any) -> str:
    """``value`` as a refusal names it.

    >>> shown(True), shown(10.0), shown("x" * 50), shown([[1]]), shown({"a": 1})
    ('true', '10.0', '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…', 'a list', 'an object')
    """
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    if value is None or isinstance(value, str | int | float):
        text = json.dumps(value, ensure_ascii=False)
        return text if len(text) <= 40 else text[:39] + "…"
    return type(value).__name__

"""The digests' canonical JSON text is byte for byte what ``json.dumps`` writes: on any JSON
value (the float forms, characters beyond ASCII, keys that are not strings, huge integers
included), and on the states of every ruleset, whose digests are stored in match records."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kessen.engine import registry
from kessen.engine.canonical import canonical_json


def _reference(data: Any, ascii_only: bool) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=ascii_only).encode()


def _outcome(write: Any, data: Any, ascii_only: bool) -> bytes | str:
    """The bytes written, or the kind of error (a lone surrogate cannot be UTF-8)."""
    try:
        return bytes(write(data, ascii_only))
    except ValueError as err:
        return type(err).__name__


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
    | st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x7F))
    | st.sampled_from(["鉄壁の籠城", "😀", "é", "\x7f", "\u2028", "v1.5", "2e-", "\\x41"])
    | st.just("\x00\x1f")
    | st.sampled_from([2.5e-05, 1e-07, -3e-9, 1e-4, 1e16, 1.5e300, 0.1, -0.0])
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(max_size=6), inner, max_size=5)
        | st.dictionaries(st.integers(-5, 5), inner, max_size=3)
    ),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(_VALUES, st.booleans())
def test_the_text_is_the_one_json_dumps_writes(data: Any, ascii_only: bool) -> None:
    assert canonical_json(data, ascii_only=ascii_only) == _reference(data, ascii_only)


@pytest.mark.parametrize("ascii_only", [True, False])
def test_what_orjson_refuses_or_writes_otherwise_takes_json_dumps(ascii_only: bool) -> None:
    def write(data: Any, ascii_only: bool) -> bytes:
        return canonical_json(data, ascii_only=ascii_only)

    for data in ({"a": 1e-07, "b": [2.5e-05]}, {1: "x", 2: None}, [2**70], "\ud800", ["x\ud83d"]):
        assert _outcome(write, data, ascii_only) == _outcome(_reference, data, ascii_only)


def _floats(data: Any) -> list[float]:
    if isinstance(data, float):
        return [data]
    if isinstance(data, dict):
        return [f for value in data.values() for f in _floats(value)]
    if isinstance(data, list | tuple):
        return [f for value in data for f in _floats(value)]
    return []


@pytest.mark.parametrize("ruleset", ["kobo", "twgp", "maken"])
def test_every_step_of_a_game_digests_as_before(ruleset: str) -> None:
    rules = registry.get(ruleset)
    config: dict[str, Any] = {"decks": ["fortress", "tempo"]} if ruleset == "kobo" else {}
    state = rules.new_game(config, 11)
    chooser = random.Random(11)
    steps = 0
    while state.pending is not None and steps < 300:
        data = state.to_json()
        assert not _floats(data), "a state holds a float (the digest's text assumes none)"
        for ascii_only in (True, False):
            assert canonical_json(data, ascii_only=ascii_only) == _reference(data, ascii_only)
        legal = state.legal_actions()
        state.apply(legal[chooser.randrange(len(legal))])
        steps += 1
    assert steps > 20

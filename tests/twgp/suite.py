"""What the generic invariants test needs to know about TWGP: its games, turn limit and view check.

``tests/test_invariants.py`` takes one ``Suite`` per ruleset; TWGP's is built from
:data:`PARTS` (``Suite("twgp", *PARTS)``). The plan: 2,000 seeded random games spread over the
default config, every switch of twgp-trump.md §2.10 alone and a few combinations; the first
games of every config get deep checks at every step, the rest every ``DEEP_EVERY`` steps.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kessen.engine.contract import GameState, Json
from kessen.games.twgp.state import TwgpState

GAMES = 2000
DEEP_EVERY = 30
DEEP_PER_CONFIG = 3
"""Games per config whose every step gets the deep checks."""

CONFIGS: list[tuple[str, Json]] = [
    ("defaults", {}),
    ("defaults", {}),
    ("defaults", {}),
    ("width3", {"gridWidth": 3}),
    ("jokers", {"jokers": True}),
    ("vitalEffect", {"vitalEffect": True}),
    ("buildReload", {"buildReload": True}),
    ("variantA", {"variantA": True}),
    ("variantB", {"variantB": True}),
    ("weaponCache", {"weaponCache": True}),
    ("quickStart", {"quickStart": True}),
    ("strictMatrix05", {"strictMatrix05": True}),
    ("jokers+cache+effect", {"jokers": True, "weaponCache": True, "vitalEffect": True}),
    (
        "everything",
        {
            "gridWidth": 3,
            "jokers": True,
            "vitalEffect": True,
            "buildReload": True,
            "variantB": True,
            "weaponCache": True,
            "strictMatrix05": True,
        },
    ),
    ("quick+reload+A", {"quickStart": True, "buildReload": True, "variantA": True}),
    ("banOnly", {"vitalEffect": True, "vitalWipe": False}),
]


@dataclass(frozen=True)
class Game:
    """One checked playout (the same shape as ``tests.test_invariants.Game``)."""

    label: str
    config: Json
    seed: int
    deep_every: int


def games() -> list[Game]:
    """The 2,000 games, configs in rotation."""
    out: list[Game] = []
    seen: dict[int, int] = {}
    for seed in range(GAMES):
        index = seed % len(CONFIGS)
        label, config = CONFIGS[index]
        count = seen.get(index, 0)
        seen[index] = count + 1
        deep = 1 if count < DEEP_PER_CONFIG else DEEP_EVERY
        out.append(Game(label, config, seed, deep))
    return out


def view_games() -> list[Game]:
    """One game per config, walked step by step for the serialized-view check."""
    return [Game(label, config, 500_000 + i, 1) for i, (label, config) in enumerate(CONFIGS)]


def hit_turn_limit(state: GameState) -> bool:
    """True if the finished game ended by the 200-turn cap."""
    assert isinstance(state, TwgpState)
    return state.result is not None and state.result[1] == "turn_limit"


_FORBIDDEN_KEYS = {"id", "card_id", "instance", "instance_id", "cid"}


def _walk(data: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _walk(value, f"{path}.{key}")
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _walk(value, f"{path}[{index}]")


def check_view(view: Json, viewer: int | None) -> None:
    """One serialized view hides what it must from ``viewer``."""
    for path, value in _walk(view):
        if isinstance(value, dict):
            bad = _FORBIDDEN_KEYS & set(value)
            assert not bad, f"{path}: instance-like key {sorted(bad)} in a view"
    assert all(b is None for b in view["config"].get("builds", [None, None])), "builds shown"
    for side in view["players"]:
        seat = side["seat"]
        if seat == viewer:
            assert side["hand"]["cards"] is not None, "a seat cannot see its own hand"
            continue
        for zone in ("hand", "aside", "pool"):
            if zone in side:
                assert side[zone]["cards"] is None, f"seat {seat}'s {zone} is shown"
        for kind in ("charge", "vitals"):
            for index, entry in enumerate(side[kind], start=1):
                if entry is not None and entry.get("face") == "down":
                    assert entry == {"face": "down"}, f"seat {seat}'s {kind} {index}: {entry}"
        for index, stack in enumerate(side["battle"], start=1):
            if stack is not None and stack["unit"] is None:
                assert stack["pow"] is None and stack["base"] is None, (
                    f"seat {seat}'s hidden unit in square {index} shows its power"
                )
    pending = view["pending"]
    if pending is not None and pending["seat"] != viewer:
        assert pending["legal"] is None, "another seat's legal actions are shown"


PARTS = (games, hit_turn_limit, check_view, view_games)
"""The arguments after the name of ``tests.test_invariants.Suite`` for TWGP."""

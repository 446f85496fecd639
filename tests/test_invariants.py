"""Random-playout invariants over thousands of seeded games, for every registered ruleset.

Each game runs through :func:`kessen.engine.invariants.random_playout`, which uses the engine
contract only and checks at every step that a pending decision has legal actions whose text
parses back and that the ruleset's own audit holds (every card in exactly one place); on deep
steps it also checks view secrecy by resampling the hidden world of every seat, the JSON round
trip (same hash, same legal actions) and that a clone equals its original; at the end it replays
the game and compares every state hash. This file adds: every game ends before its turn limit,
and a direct walk of the serialized views (no instance ids, nothing of the opponent's hidden
cards).

A ruleset joins by one entry in :data:`SUITES`. Games are grouped into chunks so that
``pytest -n 2`` spreads them over the workers.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import pytest

from kessen.engine import registry
from kessen.engine.contract import GameState, Json
from kessen.engine.invariants import InvariantBroken, random_playout
from kessen.games.kobo.decks import starter_decks
from kessen.games.kobo.state import KoboState
from tests.twgp.suite import PARTS as TWGP_PARTS

#: Deep checks run at every step for the deep subset, and every ``DEEP_EVERY`` steps otherwise.
#: Measured for Kōbō on pure Python: a game of ~120 steps costs ~42 ms of CPU with deep checks
#: every 30 steps, and one deep at every step ~480 ms (view secrecy for both seats, the JSON
#: round trip and a clone's hash at each step), so the 96 games deep at every step cost ~46 s
#: and the other 1,936 ~80 s (on the compiled build 27 and 314 ms: ~82 s in all).
DEEP_EVERY = 30
#: How many chunks (pytest items) the games of one ruleset are split into.
CHUNKS = 20


@dataclass(frozen=True)
class Game:
    """One checked playout: a labelled config, a seed and how often the deep checks run."""

    label: str
    config: Json
    seed: int
    deep_every: int


class PlannedGame(Protocol):
    """What the tests read of a game: :class:`Game`, or a ruleset's own class of that shape
    (``tests.twgp.suite.Game``)."""

    @property
    def label(self) -> str: ...
    @property
    def config(self) -> Json: ...
    @property
    def seed(self) -> int: ...
    @property
    def deep_every(self) -> int: ...


@dataclass(frozen=True)
class Suite:
    """What the invariants test needs to know about one ruleset."""

    ruleset: str
    #: The games to play, in a fixed order.
    games: Callable[[], Sequence[PlannedGame]]
    #: True if the finished state ``state`` ended a game by its turn limit.
    hit_turn_limit: Callable[[GameState], bool]
    #: Checks one serialized view (JSON data) of the state for ``viewer``; raises if it leaks.
    check_view: Callable[[Json, int | None], None]
    #: Configs whose games are walked step by step for :func:`test_serialized_views`.
    view_games: Callable[[], Sequence[PlannedGame]]


# --------------------------------------------------------------------------------------------
# Kōbō
# --------------------------------------------------------------------------------------------

KOBO_BO1_GAMES = 2000
KOBO_BO3_MATCHES = 32
#: The first games of every deck pair (and every eighth bo3 match) get deep checks at every step.
KOBO_DEEP_PER_PAIR = 6


def _kobo_pairs() -> list[tuple[str, str]]:
    """Every ordered pair of starter decks, mirrors included (seat order matters)."""
    names = sorted(starter_decks())
    return list(itertools.product(names, names))


def _kobo_games() -> list[Game]:
    pairs = _kobo_pairs()
    games: list[Game] = []
    for seed in range(KOBO_BO1_GAMES):
        first, second = pairs[seed % len(pairs)]
        deep = 1 if seed < KOBO_DEEP_PER_PAIR * len(pairs) else DEEP_EVERY
        config: Json = {"decks": [first, second], "best_of": 1}
        games.append(Game(f"{first}-{second} bo1", config, seed, deep))
    for index in range(KOBO_BO3_MATCHES):
        first, second = pairs[index % len(pairs)]
        deep = 1 if index % 8 == 0 else DEEP_EVERY
        config = {"decks": [first, second], "best_of": 3}
        games.append(Game(f"{first}-{second} bo3", config, 100_000 + index, deep))
    return games


def _kobo_view_games() -> list[Game]:
    """One game of every deck pair and two best-of-3 matches (new games dealt mid-match)."""
    pairs = _kobo_pairs()
    games = [
        Game(f"{a}-{b} bo1", {"decks": [a, b], "best_of": 1}, 200_000 + i, 1)
        for i, (a, b) in enumerate(pairs)
    ]
    games += [
        Game(f"{a}-{b} bo3", {"decks": [a, b], "best_of": 3}, 300_000 + i, 1)
        for i, (a, b) in enumerate(pairs[1:3])
    ]
    return games


def _kobo_hit_turn_limit(state: GameState) -> bool:
    assert isinstance(state, KoboState)
    return any(reason == "turn_limit" for _, reason, _ in state.results)


_FORBIDDEN_KEYS = {"id", "card_id", "instance", "instance_id"}


def _walk(data: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every (path, value) pair of a JSON tree, the root included."""
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _walk(value, f"{path}.{key}")
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _walk(value, f"{path}[{index}]")


def _kobo_check_view(view: Json, viewer: int | None) -> None:
    for path, value in _walk(view):
        if isinstance(value, dict):
            bad = _FORBIDDEN_KEYS & set(value)
            assert not bad, f"{path}: instance-like key {sorted(bad)} in a view"
    for side in view["players"]:
        if side["seat"] == viewer:
            assert side["hand"]["cards"] is not None, "a seat cannot see its own hand"
            assert side["tactics_hand"]["cards"] is not None
            continue
        for zone in ("hand", "tactics_hand"):
            assert side[zone]["cards"] is None, f"seat {side['seat']}'s {zone} is shown"
        for slot, entry in enumerate(side["strategy"], start=1):
            if entry is not None and entry["face"] == "down":
                assert entry == {"face": "down"}, (
                    f"seat {side['seat']}'s face-down strategy slot {slot} shows {entry}"
                )
        for path, value in _walk(side, f".players[{side['seat']}]"):
            if isinstance(value, dict) and value.get("face") == "down":
                assert "slug" not in value, f"{path}: a face-down card shows its name"
    pending = view["pending"]
    if pending is not None and pending["seat"] != viewer:
        assert pending["legal"] is None, "another seat's legal actions are shown"


SUITES = [
    Suite("kobo", _kobo_games, _kobo_hit_turn_limit, _kobo_check_view, _kobo_view_games),
    Suite("twgp", *TWGP_PARTS),
]
_BY_NAME = {suite.ruleset: suite for suite in SUITES}


# --------------------------------------------------------------------------------------------
# The tests
# --------------------------------------------------------------------------------------------


def _chunk_params() -> list[Any]:
    return [
        pytest.param(suite.ruleset, chunk, id=f"{suite.ruleset}-{chunk:02d}")
        for suite in SUITES
        for chunk in range(CHUNKS)
    ]


@pytest.mark.parametrize(("ruleset", "chunk"), _chunk_params())
def test_random_playouts(ruleset: str, chunk: int) -> None:
    """Every game of the chunk ends before its turn limit with all invariants intact."""
    suite = _BY_NAME[ruleset]
    games = suite.games()[chunk::CHUNKS]
    assert games
    failures: list[str] = []
    for game in games:
        where = f"{ruleset} {game.label} seed {game.seed}"
        try:
            report = random_playout(ruleset, game.config, game.seed, deep_every=game.deep_every)
        except InvariantBroken as err:
            failures.append(f"{where}: {err}")
            continue
        final = report.final
        if final.pending is not None or report.outcome is None:
            failures.append(f"{where}: the playout returned before the end")
        elif final.state_hash() != report.hashes[report.steps]:
            failures.append(f"{where}: the final hash is not the one checked")
        elif suite.hit_turn_limit(final):
            failures.append(f"{where}: a game reached the turn limit after {report.steps} steps")
        if game.deep_every == 1 and len(report.hashes) != report.steps + 1:
            failures.append(f"{where}: {len(report.hashes)} hashes for {report.steps} steps")
    assert not failures, "\n".join(failures)


def test_games_cover_the_plan() -> None:
    """The plan itself: ≥ 2,000 seeds, every deck pair, deep checks on about 100 games."""
    games = _BY_NAME["kobo"].games()
    assert len({(g.seed, g.config["best_of"]) for g in games}) == len(games)
    bo1 = [g for g in games if g.config["best_of"] == 1]
    assert len(bo1) >= 2000
    assert {tuple(g.config["decks"]) for g in bo1} == set(_kobo_pairs())
    assert any(g.config["best_of"] == 3 for g in games)
    assert 90 <= sum(g.deep_every == 1 for g in games) <= 120
    for chunk in range(CHUNKS):
        assert games[chunk::CHUNKS]


@pytest.mark.parametrize("ruleset", [suite.ruleset for suite in SUITES])
def test_serialized_views(ruleset: str) -> None:
    """At every step of a few matches, each seat's and an observer's view hides what it must."""
    suite = _BY_NAME[ruleset]
    rules = registry.get(ruleset)
    for game in suite.view_games():
        state = rules.new_game(game.config, game.seed)
        chooser = random.Random(game.seed)
        step = 0
        while state.pending is not None:
            for viewer in [*range(state.seats), None]:
                try:
                    suite.check_view(state.view(viewer), viewer)
                except AssertionError as err:
                    raise AssertionError(
                        f"{ruleset} {game.label} seed {game.seed} step {step}, "
                        f"viewer {viewer}: {err}"
                    ) from err
            legal = state.legal_actions()
            state.apply(legal[chooser.randrange(len(legal))])
            step += 1
        for viewer in [*range(state.seats), None]:
            suite.check_view(state.view(viewer), viewer)

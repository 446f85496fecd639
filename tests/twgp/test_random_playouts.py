"""The kernel's random-playout conformance check on TWGP, over 2,000 seeded games.

Each game runs :func:`kessen.engine.invariants.random_playout` (the same function every ruleset
must pass): legal actions present and parseable, the audit at every step; view secrecy for both
seats, the JSON round trip and clone equality on deep steps; the replay of every hash at the end.
The plan (configs, seeds, deep-check steps) is :mod:`tests.twgp.suite`. Once
``tests/test_invariants.py`` lists TWGP among its suites, this file skips itself so that the
games are not played twice.
"""

from __future__ import annotations

import random

import pytest

from kessen.engine import registry
from kessen.engine.invariants import InvariantBroken, random_playout
from tests.twgp import suite

CHUNKS = 20


def _covered_elsewhere() -> bool:
    try:
        from tests import test_invariants
    except ImportError:  # pragma: no cover - the generic file is absent
        return False
    return "twgp" in getattr(test_invariants, "_BY_NAME", {})


pytestmark = pytest.mark.skipif(
    _covered_elsewhere(), reason="tests/test_invariants.py already runs the TWGP suite"
)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_playouts(chunk: int) -> None:
    """Every game of the chunk ends (not by the turn cap) with all invariants intact."""
    games = suite.games()[chunk::CHUNKS]
    failures: list[str] = []
    for game in games:
        where = f"twgp {game.label} seed {game.seed}"
        try:
            report = random_playout("twgp", game.config, game.seed, deep_every=game.deep_every)
        except InvariantBroken as err:
            failures.append(f"{where}: {err}")
            continue
        if report.outcome is None:
            failures.append(f"{where}: the playout returned before the end")
        elif report.outcome.reason == "turn_limit":
            failures.append(f"{where}: reached the turn limit after {report.steps} steps")
    assert not failures, "\n".join(failures)


def test_the_plan_covers_every_switch() -> None:
    """≥ 2,000 games; every switch of §2.10 appears; some games are checked at every step."""
    games = suite.games()
    assert len(games) >= 2000 and len({g.seed for g in games}) == len(games)
    keys = {key for g in games for key in g.config}
    assert keys >= {
        "gridWidth",
        "jokers",
        "vitalEffect",
        "buildReload",
        "variantA",
        "variantB",
        "weaponCache",
        "quickStart",
        "strictMatrix05",
    }
    assert sum(g.deep_every == 1 for g in games) >= 40


def test_serialized_views() -> None:
    """At every step of one game per config, each seat's and an observer's view hides enough."""
    rules = registry.get("twgp")
    for game in suite.view_games():
        state = rules.new_game(game.config, game.seed)
        chooser = random.Random(game.seed)
        step = 0
        while state.pending is not None:
            for viewer in (0, 1, None):
                try:
                    suite.check_view(state.view(viewer), viewer)
                except AssertionError as err:
                    raise AssertionError(
                        f"{game.label} seed {game.seed} step {step}, viewer {viewer}: {err}"
                    ) from err
            legal = state.legal_actions()
            state.apply(legal[chooser.randrange(len(legal))])
            step += 1

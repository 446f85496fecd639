"""The deep Kōbō model of the strongest level: fitted evaluation, two-turn rollouts.

Its honesty (same view, same decision) is checked beside the standard model's in
``test_search.py``."""

from __future__ import annotations

import math
import random

import pytest

from kessen.ai.ismcts import SearchPlayer
from kessen.ai.levels import level, make_player
from kessen.engine import registry
from kessen.games.kobo import evaluate as judge
from kessen.games.kobo import value_model
from kessen.games.kobo.state import KoboState
from tests.ai.test_search import _mid_game


def _positions(count: int) -> list[KoboState]:
    """Turn-start positions of seeded random matches (varied boards, traps and hands)."""
    rules = registry.get("kobo")
    chooser = random.Random(5)
    out: list[KoboState] = []
    while len(out) < count:
        state = rules.new_game(rules.default_config, chooser.randrange(2**31))
        assert isinstance(state, KoboState)
        while state.pending is not None and len(out) < count:
            if state.pending.prompt == "turn" and chooser.random() < 0.3:
                out.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[chooser.randrange(len(legal))])
    return out


def test_fitted_odds_is_the_logistic_of_the_weighted_feature_difference() -> None:
    """The fast scorer the search uses equals the documented formula over :func:`features`."""
    weights = judge.FITTED_WEIGHTS
    for state in _positions(60):
        a, b = judge.features(state, 0), judge.features(state, 1)
        assert set(a) <= set(weights) and set(b) <= set(weights)
        logit = sum(w * (a.get(k, 0.0) - b.get(k, 0.0)) for k, w in weights.items())
        logit += weights["tempo"] * (1 if state.turn_player == 0 else -1)
        assert judge.fitted_odds(state) == pytest.approx(1 / (1 + math.exp(-logit)), abs=1e-9)


def test_the_fit_prefers_a_lead_and_scores_decided_games_exactly() -> None:
    for state in _positions(40):
        assert 0.0 < judge.fitted_odds(state) < 1.0
        assert judge.deep_evaluate(state) == value_model.net_odds(state)
    # More characters and higher Lv on one side raise that side's chance.
    assert judge.FITTED_WEIGHTS["chars"] > 0 and judge.FITTED_WEIGHTS["lv_max"] > 0
    assert all(v > 0 for k, v in judge.FITTED_WEIGHTS.items() if k.startswith("trap:"))


def test_deep_rollouts_play_two_turns() -> None:
    state = _mid_game(3, {"turn"})
    one, two = state.clone(), state.clone()
    judge.rollout(one, random.Random(1))
    judge.deep_rollout(two, random.Random(1))
    assert len(one.results) == len(two.results) == len(state.results)  # the game goes on
    assert one.turn == state.turn + judge.TURNS
    assert two.turn == state.turn + judge.DEEP_TURNS


def test_only_the_strongest_level_uses_the_deep_model() -> None:
    assert level("ismcts-strong").deep and not level("ismcts-normal").deep
    strong = make_player("kobo", "ismcts-strong", 1)
    normal = make_player("kobo", "ismcts-normal", 1)
    assert isinstance(strong, SearchPlayer) and isinstance(normal, SearchPlayer)
    assert strong.hooks.evaluate is judge.deep_evaluate
    assert strong.hooks.rollout is judge.deep_rollout
    assert normal.hooks.evaluate is judge.evaluate

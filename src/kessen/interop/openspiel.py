"""Kōbō as an OpenSpiel Python game, so OpenSpiel's own algorithms and tests run on it.

Importing this module registers the game ``python_kessen_kobo`` with ``pyspiel`` (the optional
extra ``kessen[openspiel]`` installs it) through the game-agnostic wrapper
:mod:`kessen.interop.spiel_game`, which adds no rules of its own (chance draws the match seed;
actions are numbered by Kōbō's fixed table, verbs × slots 1–5 × card slugs; observations are the
seat's own view; resampling is :meth:`KoboState.resample_hidden`). This module holds Kōbō's
parameters (``decks``, ``best_of``, ``seeds``).

:class:`OpenSpielISMCTSPlayer` is OpenSpiel's Python IS-MCTS bot (stock random-rollout
evaluator) driven by a time budget per move, wrapped as one of our players for tournaments.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np  # type: ignore[import-not-found, unused-ignore]

from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.games.kobo.decks import starter_decks
from kessen.games.kobo.state import KoboState
from kessen.interop.encoding import kobo_action_table
from kessen.interop.spiel_game import (
    DEFAULT_SEEDS,
    SpielGame,
    SpielSpec,
    SpielState,
    register,
    wrap,
)

GAME_NAME = "python_kessen_kobo"
__all__ = ["DEFAULT_SEEDS", "GAME_NAME", "KoboGame", "OpenSpielISMCTSPlayer", "action_table"]


def action_table() -> tuple[Action, ...]:
    """Every action Kōbō can offer, in a fixed order (its index is the OpenSpiel id)."""
    return kobo_action_table()


@cache
def action_ids() -> dict[Action, int]:
    """The inverse of :func:`action_table`."""
    return {a: i for i, a in enumerate(action_table())}


def _config(params: dict[str, Any]) -> Json:
    """Kōbō's config of the game parameters ``decks`` (two starter decks) and ``best_of``."""
    decks = str(params["decks"]).split("+")
    unknown = set(decks) - set(starter_decks())
    if len(decks) != 2 or unknown:
        raise ValueError(f"decks: two starter deck names joined by '+' (not {unknown})")
    return {"decks": decks, "best_of": int(params["best_of"])}


def _fresh_shuffles(world: GameState, seed: int) -> None:
    """A resampled Kōbō world gets its own future shuffles."""
    assert isinstance(world, KoboState)
    world.rng.state ^= seed


KoboGame = register(
    SpielSpec(
        short_name=GAME_NAME,
        long_name="Kessen Kōbō (攻防), best-of-N match",
        ruleset="kobo",
        parameters={"decks": "fortress+swarm", "best_of": 3},
        config_of=_config,
        reseed=_fresh_shuffles,
    )
)
"""The OpenSpiel game: a Kōbō match between two starter decks (``decks=fortress+swarm``)."""

KoboSpielState = SpielState
"""An OpenSpiel state around one :class:`KoboState`."""


def spiel_state_for(state: KoboState, game: SpielGame | None = None) -> SpielState:
    """An OpenSpiel state around (a copy of) ``state``, for bots that take OpenSpiel states."""
    game = game or KoboGame({"decks": "+".join(d.slug for d in state.config.decks)})
    return wrap(state, game)


class _OurEvaluator:
    """An OpenSpiel evaluator made of our truncated rollout and evaluation (fair-knowledge peer).

    Uniform priors, as OpenSpiel's random-rollout evaluator; the value is the model of our
    strongest level (rollouts of two turns, then the fitted evaluation), in utility units
    (-1..1) per player.
    """

    def __init__(self, seed: int) -> None:
        import random

        from kessen.games.kobo.evaluate import deep_evaluate, deep_rollout

        self._random = random.Random(seed)
        self._evaluate = deep_evaluate
        self._rollout = deep_rollout

    def evaluate(self, state: Any) -> Any:
        """Returns [v0, v1] in -1..1 after a short rollout of a copy of ``state``."""
        inner = state.box.inner
        if inner is None:
            return np.zeros(2)
        world = inner.clone()
        self._rollout(world, self._random)
        v0 = 2.0 * self._evaluate(world) - 1.0
        return np.array([v0, -v0])

    def prior(self, state: Any) -> list[tuple[int, float]]:
        """Uniform over the legal actions (or the chance outcomes)."""
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class _TimedISMCTSBot:
    """OpenSpiel's Python IS-MCTS bot with its simulation loop bounded by seconds."""

    def __new__(cls, game: Any, seconds: float, seed: int, our_evaluator: bool = False) -> Any:
        from open_spiel.python.algorithms import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
            ismcts,
            mcts,
        )

        class Timed(ismcts.ISMCTSBot):  # type: ignore[misc]
            def run_search(self, state: Any) -> Any:
                self.reset()
                legal_actions = state.legal_actions()
                if len(legal_actions) == 1:
                    return [(legal_actions[0], 1.0)]
                self._root_node = self.create_new_node(state)
                deadline = time.perf_counter() + self.seconds
                self.simulations = 0
                # The first simulation only expands the root: at least two are needed.
                while self.simulations < self._max_simulations:
                    self.run_simulation(self.sample_root_state(state))
                    self.simulations += 1
                    if self.simulations >= 2 and time.perf_counter() >= deadline:
                        break
                return self.get_final_policy(state, self._root_node)

        Timed.seconds = seconds
        rng = np.random.RandomState(seed % 2**32)
        evaluator: Any = (
            _OurEvaluator(seed)
            if our_evaluator
            else mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        )
        return Timed(game, evaluator, uct_c=2.0, max_simulations=10**9, random_state=rng)


class OpenSpielISMCTSPlayer:
    """OpenSpiel's IS-MCTS bot as one of our players (tournament peer).

    Like every OpenSpiel bot it is handed the state object (``bind``) and searches from it;
    it reads hidden information only through ``resample_from_infostate``, our honest
    resampler. ``seconds`` bounds each move.
    """

    name = "openspiel-ismcts"

    def __init__(self, seed: int = 0, seconds: float = 1.0, our_evaluator: bool = False) -> None:
        self.seed = seed
        self.seconds = seconds
        self.our_evaluator = our_evaluator
        if our_evaluator:
            self.name = "openspiel-ismcts-eval"
        self._state: GameState | None = None
        self._bot: Any = None
        self._game: SpielGame | None = None
        self.simulations: list[int] = []

    def bind(self, state: GameState) -> None:
        """The live game; the bot only reads it through the resampler."""
        self._state = state

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        """One IS-MCTS search of ``seconds``; the most visited action."""
        if len(legal) == 1:
            return legal[0]
        state = self._state
        if not isinstance(state, KoboState):
            raise RuntimeError("bind(state) must come before choose()")
        if self._game is None:
            self._game = KoboGame({"decks": "+".join(d.slug for d in state.config.decks)})
            self._bot = _TimedISMCTSBot(self._game, self.seconds, self.seed, self.our_evaluator)
        self._bot.seconds = self.seconds
        wrapped = spiel_state_for(state, self._game)
        action = self._bot.step(wrapped)
        self.simulations.append(int(getattr(self._bot, "simulations", 0)))
        chosen = action_table()[int(action)]
        return chosen if chosen in legal else legal[0]

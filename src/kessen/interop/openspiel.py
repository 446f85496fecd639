"""Kōbō as an OpenSpiel Python game, so OpenSpiel's own algorithms and tests run on it.

Importing this module registers the game ``python_kessen_kobo`` with ``pyspiel`` (the optional
extra ``kessen[openspiel]`` installs it). The wrapper adds no rules of its own:

- **chance**: the first node is a chance node that draws the match seed (one of ``seeds``
  equally likely values); every later shuffle is our own RNG's, a function of that seed, so
  the game's randomness is exactly our engine's;
- **actions**: our legal actions, numbered through one fixed table of every action text the
  ruleset can offer (verbs × slots 1–5 × card slugs), listed in ascending id order;
- **information state / observation**: the seat's own view (:meth:`KoboState.view`, the only
  redacting function); the observation is the view without the log, the information state
  adds a running digest of the log as that seat sees it (perfect recall, cheap to extend);
- **resampling**: ``resample_from_infostate`` is our ruleset's resampler
  (:meth:`KoboState.resample_hidden`), so IS-MCTS bots sample honest worlds.

:class:`OpenSpielISMCTSPlayer` is OpenSpiel's Python IS-MCTS bot (stock random-rollout
evaluator) driven by a time budget per move, wrapped as one of our players for tournaments.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np  # type: ignore[import-not-found, unused-ignore]
import pyspiel  # type: ignore[import-untyped, import-not-found, unused-ignore]

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.games.kobo.decks import starter_decks
from kessen.games.kobo.schema import load_pool
from kessen.games.kobo.state import KoboState

GAME_NAME = "python_kessen_kobo"
DEFAULT_SEEDS = 4096
MAX_GAME_LENGTH = 100_000

_INT_VERBS = ("attack", "target", "slot", "trap", "exclude-trap", "pick")
_SLUG_VERBS = ("pick", "play", "take", "exclude", "name")
_BARE_VERBS = ("pass", "use", "discard")


@cache
def action_table() -> tuple[Action, ...]:
    """Every action the ruleset can offer, in a fixed order (its index is the OpenSpiel id)."""
    slugs = sorted(load_pool().cards)
    table = [Action.of(v) for v in _BARE_VERBS]
    table += [Action.of(v, i) for v in _INT_VERBS for i in range(1, 6)]
    table += [Action.of(v, s) for v in _SLUG_VERBS for s in slugs]
    return tuple(table)


@cache
def action_ids() -> dict[Action, int]:
    """The inverse of :func:`action_table`."""
    return {a: i for i, a in enumerate(action_table())}


_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Kessen Kōbō (攻防), best-of-N match",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={
        "decks": "fortress+swarm",
        "best_of": 3,
        "seeds": DEFAULT_SEEDS,
    },
)


class KoboGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game: a Kōbō match between two starter (or named) decks."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.deck_names = str(params.get("decks", "fortress+swarm")).split("+")
        self.best_of = int(params.get("best_of", 3))
        self.seeds = int(params.get("seeds", DEFAULT_SEEDS))
        unknown = set(self.deck_names) - set(starter_decks())
        if len(self.deck_names) != 2 or unknown:
            raise ValueError(f"decks: two starter deck names joined by '+' (not {unknown})")
        info = pyspiel.GameInfo(
            num_distinct_actions=len(action_table()),
            max_chance_outcomes=self.seeds,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(
            _GAME_TYPE,
            info,
            {"decks": "+".join(self.deck_names), "best_of": self.best_of, "seeds": self.seeds},
        )
        self.config: Json = {"decks": self.deck_names, "best_of": self.best_of}

    def new_initial_state(self) -> KoboSpielState:
        """The chance node that draws the match seed."""
        return KoboSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> KoboObserver:
        """Observer: the view without the log (observation) or with its digest (info state)."""
        perfect_recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return KoboObserver(perfect_recall, params)


def _digest(previous: str, entries: Sequence[Json]) -> str:
    text = previous + json.dumps(entries, sort_keys=True, ensure_ascii=False)
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


class _Box:
    """What a wrapper state carries; OpenSpiel clones states by deep-copying their attributes,
    and this box makes that a cheap :meth:`KoboState.clone` instead of a slow deep copy."""

    __slots__ = ("config", "digests", "inner", "seeds", "seen")

    def __init__(self, config: Json, seeds: int) -> None:
        self.config = config
        self.seeds = seeds
        self.inner: KoboState | None = None
        # Per seat: a digest of the log as that seat sees it, and how many events it covers.
        self.digests = ["", ""]
        self.seen = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        new = _Box(self.config, self.seeds)
        new.inner = self.inner.clone() if self.inner is not None else None
        new.digests = list(self.digests)
        new.seen = self.seen
        return new

    def extend_digests(self) -> None:
        """Fold the log events not yet seen into each seat's digest."""
        assert self.inner is not None
        new = self.inner.log[self.seen :]
        if new:
            for seat in (0, 1):
                self.digests[seat] = _digest(self.digests[seat], [e.visible(seat) for e in new])
            self.seen = len(self.inner.log)


class KoboSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around one :class:`KoboState` (none before the seed is drawn)."""

    def __init__(self, game: KoboGame) -> None:
        super().__init__(game)
        self.box = _Box(game.config, game.seeds)

    @property
    def inner(self) -> KoboState | None:
        """The wrapped Kōbō state (``None`` at the chance node)."""
        return self.box.inner

    # -- OpenSpiel API --------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to move, CHANCE before the deal, TERMINAL at the end."""
        inner = self.box.inner
        if inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        pending = inner.pending
        if pending is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return pending.seat

    def _legal_actions(self, player: int) -> list[int]:
        inner = self.box.inner
        assert inner is not None
        ids = action_ids()
        return sorted(ids[a] for a in inner.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every match seed, equally likely."""
        n = self.box.seeds
        return [(i, 1.0 / n) for i in range(n)]

    def _apply_action(self, action: int) -> None:
        box = self.box
        if box.inner is None:
            state = registry.get("kobo").new_game(box.config, int(action))
            assert isinstance(state, KoboState)
            box.inner = state
        else:
            box.inner.apply(action_table()[action])
        box.extend_digests()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        return str(action_table()[action])

    def is_terminal(self) -> bool:
        """True once the match is decided."""
        inner = self.box.inner
        return inner is not None and inner.pending is None

    def returns(self) -> list[float]:
        """+1 / -1 for the match winner and loser; 0 each while it goes on or without winner."""
        inner = self.box.inner
        if inner is None or inner.outcome is None:
            return [0.0, 0.0]
        winner = inner.outcome.winner
        if winner is None:
            return [0.0, 0.0]
        return [1.0 if winner == 0 else -1.0, 1.0 if winner == 1 else -1.0]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KoboSpielState:
        """A state ``player_id`` cannot tell from this one: our resampler redeals the rest.

        The copy keeps the log (only ``player_id``'s view of it is guaranteed consistent) and
        gets fresh future shuffles.
        """
        new: KoboSpielState = self.clone()
        inner = self.box.inner
        if inner is not None:
            seed = int(float(probability_sampler()) * 2**62)
            world = inner.resample_hidden(player_id, seed)
            world.rng.state ^= seed
            new.box.inner = world
        return new

    def __str__(self) -> str:
        inner = self.box.inner
        if inner is None:
            return "chance: match seed"
        return f"{inner.state_hash()} {inner.pending}"


class KoboObserver:
    """Strings from a seat's own view; no tensors (this game provides none)."""

    def __init__(self, perfect_recall: bool, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: KoboSpielState, player: int) -> None:
        """No tensor to fill."""

    def string_from(self, state: KoboSpielState, player: int) -> str:
        """The seat's view as JSON (without the log); plus the log digest for perfect recall."""
        inner = state.box.inner
        if inner is None:
            return f"p{player} awaiting the deal"
        view = inner.decision_view(player)
        view.pop("log")
        text = json.dumps(view, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        if self.perfect_recall:
            return f"{text}|{state.box.digests[player]}"
        return text


pyspiel.register_game(_GAME_TYPE, KoboGame)


def spiel_state_for(state: KoboState, game: KoboGame | None = None) -> KoboSpielState:
    """An OpenSpiel state around (a copy of) ``state``, for bots that take OpenSpiel states."""
    game = game or KoboGame({"decks": "+".join(d.slug for d in state.config.decks)})
    wrapped = KoboSpielState(game)
    wrapped.box.inner = state.clone()
    wrapped.box.extend_digests()
    return wrapped


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
        self._game: KoboGame | None = None
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

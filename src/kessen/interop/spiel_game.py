"""Any ruleset of the registry as an OpenSpiel Python game: one wrapper, a small spec per game.

A ruleset becomes an OpenSpiel game by a :class:`SpielSpec` (its name, default parameters, how
the parameters become the engine's config, its fixed action table) given to :func:`register`,
which registers it with ``pyspiel`` and returns its game class. The wrapper adds no rules:

- **chance**: the first node draws the game seed (one of ``seeds`` equally likely values);
  every later shuffle is the engine's own RNG, a function of that seed, so the game's
  randomness is exactly the engine's;
- **actions**: the legal actions, numbered through the ruleset's fixed action table
  (:data:`kessen.interop.encoding.ACTION_TABLES`), in ascending id order;
- **information state / observation**: the seat's own decision view (``decision_view``, never
  more than ``view``) without its log; the information state adds a running digest of the log
  as that seat sees it (perfect recall, cheap to extend);
- **resampling**: ``resample_from_infostate`` is the ruleset's own ``resample_hidden``, so
  IS-MCTS bots sample honest worlds.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

import numpy as np  # type: ignore[import-not-found, unused-ignore]
import pyspiel  # type: ignore[import-untyped, import-not-found, unused-ignore]

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.interop.encoding import ACTION_TABLES

DEFAULT_SEEDS = 4096
MAX_GAME_LENGTH = 100_000


@dataclass(frozen=True)
class SpielSpec:
    """What OpenSpiel needs to know of one ruleset beyond the engine's contract."""

    short_name: str
    """The name ``pyspiel.load_game`` takes (``python_kessen_<ruleset>``)."""
    long_name: str
    ruleset: str
    """The registry id of the ruleset; its action table is ``ACTION_TABLES[ruleset]``."""
    parameters: dict[str, Any]
    """The game's parameters and their defaults (``seeds`` is added to them)."""
    config_of: Callable[[dict[str, Any]], Json]
    """The engine config of a game's parameters; raises ``ValueError`` naming a bad one."""
    reseed: Callable[[GameState, int], None] | None = field(default=None)
    """Optional: give a resampled world fresh future shuffles (``None``: its resampler does)."""


@cache
def _ids(ruleset: str) -> dict[Action, int]:
    return {a: i for i, a in enumerate(ACTION_TABLES[ruleset]())}


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of one ruleset (a subclass per ruleset, made by :func:`register`)."""

    spec: ClassVar[SpielSpec]
    game_type: ClassVar[Any]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**self.spec.parameters, "seeds": DEFAULT_SEEDS, **dict(params or {})}
        self.seeds = int(given["seeds"])
        self.config: Json = self.spec.config_of(given)
        self.table: tuple[Action, ...] = ACTION_TABLES[self.spec.ruleset]()
        self.ids = _ids(self.spec.ruleset)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.table),
            max_chance_outcomes=self.seeds,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(self.game_type, info, given)

    def new_initial_state(self) -> SpielState:
        """The chance node that draws the game seed."""
        return SpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SpielObserver:
        """Observer: the view without the log (observation) or with its digest (info state)."""
        perfect_recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return SpielObserver(perfect_recall, params)


def register(spec: SpielSpec) -> type[SpielGame]:
    """Register ``spec``'s ruleset with ``pyspiel`` and return its game class."""
    game_type = pyspiel.GameType(
        short_name=spec.short_name,
        long_name=spec.long_name,
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
        parameter_specification={**spec.parameters, "seeds": DEFAULT_SEEDS},
    )
    name = "".join(part.title() for part in spec.ruleset.split("_")) + "SpielGame"
    cls = type(
        name, (SpielGame,), {"spec": spec, "game_type": game_type, "__doc__": spec.long_name}
    )
    pyspiel.register_game(game_type, cls)
    return cls


def _digest(previous: str, entries: Sequence[Json]) -> str:
    text = previous + json.dumps(entries, sort_keys=True, ensure_ascii=False)
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


class _Game:
    """What every state of one game shares (never copied with a state)."""

    __slots__ = ("config", "ids", "reseed", "ruleset", "seeds", "table")

    def __init__(self, game: SpielGame) -> None:
        self.ruleset = game.spec.ruleset
        self.config = game.config
        self.seeds = game.seeds
        self.table = game.table
        self.ids = game.ids
        self.reseed = game.spec.reseed


class _Box:
    """What a wrapper state carries; OpenSpiel clones states by deep-copying their attributes,
    and this box makes that a cheap ``GameState.clone`` (the game's shared part is shared)."""

    __slots__ = ("digests", "game", "inner", "seen")

    def __init__(self, game: _Game) -> None:
        self.game = game
        self.inner: GameState | None = None
        # Per seat: a digest of the log as that seat sees it, and how many events it covers.
        self.digests = ["", ""]
        self.seen = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        new = _Box(self.game)
        new.inner = self.inner.clone() if self.inner is not None else None
        new.digests = list(self.digests)
        new.seen = self.seen
        return new

    def extend_digests(self) -> None:
        """Fold the log events not yet seen into each seat's digest."""
        assert self.inner is not None
        log = self.inner.log_events()
        new = log[self.seen :]
        if new:
            for seat in (0, 1):
                self.digests[seat] = _digest(self.digests[seat], [e.visible(seat) for e in new])
            self.seen = len(log)


class SpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around one engine state (none before the seed is drawn)."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        self.box = _Box(_Game(game))

    @property
    def inner(self) -> GameState | None:
        """The wrapped engine state (``None`` at the chance node)."""
        return self.box.inner

    def current_player(self) -> int:
        """The seat to move, CHANCE before the deal, TERMINAL at the end."""
        inner = self.box.inner
        if inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        pending = inner.pending
        return int(pyspiel.PlayerId.TERMINAL) if pending is None else pending.seat

    def _legal_actions(self, player: int) -> list[int]:
        inner = self.box.inner
        assert inner is not None
        ids = self.box.game.ids
        return sorted(ids[a] for a in inner.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every game seed, equally likely."""
        n = self.box.game.seeds
        return [(i, 1.0 / n) for i in range(n)]

    def _apply_action(self, action: int) -> None:
        box = self.box
        game = box.game
        if box.inner is None:
            box.inner = registry.get(game.ruleset).new_game(game.config, int(action))
        else:
            box.inner.apply(game.table[action])
        box.extend_digests()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        return str(self.box.game.table[action])

    def is_terminal(self) -> bool:
        """True once the game (or match) is decided."""
        inner = self.box.inner
        return inner is not None and inner.pending is None

    def returns(self) -> list[float]:
        """+1 / −1 for the winner and loser; 0 each while it goes on or without a winner."""
        inner = self.box.inner
        if inner is None or inner.outcome is None or inner.outcome.winner is None:
            return [0.0, 0.0]
        winner = inner.outcome.winner
        return [1.0 if winner == 0 else -1.0, 1.0 if winner == 1 else -1.0]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A state ``player_id`` cannot tell from this one: the ruleset's resampler redeals
        the rest. The copy keeps the log (only ``player_id``'s view of it is guaranteed
        consistent)."""
        new: SpielState = self.clone()
        inner = self.box.inner
        if inner is not None:
            seed = int(float(probability_sampler()) * 2**62)
            world = inner.resample_hidden(player_id, seed)
            reseed = self.box.game.reseed
            if reseed is not None:
                reseed(world, seed)
            new.box.inner = world
        return new

    def __str__(self) -> str:
        inner = self.box.inner
        return "chance: game seed" if inner is None else f"{inner.state_hash()} {inner.pending}"


class SpielObserver:
    """Strings from a seat's own view; no tensors (these games provide none)."""

    def __init__(self, perfect_recall: bool, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: SpielState, player: int) -> None:
        """No tensor to fill."""

    def string_from(self, state: SpielState, player: int) -> str:
        """The seat's view as JSON (without the log); plus the log digest for perfect recall."""
        inner = state.box.inner
        if inner is None:
            return f"p{player} awaiting the deal"
        view = inner.decision_view(player)
        view.pop("log", None)
        text = json.dumps(view, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return f"{text}|{state.box.digests[player]}" if self.perfect_recall else text


def wrap(state: GameState, game: SpielGame) -> SpielState:
    """An OpenSpiel state around (a copy of) ``state``, for bots that take OpenSpiel states."""
    wrapped = SpielState(game)
    wrapped.box.inner = state.clone()
    wrapped.box.extend_digests()
    return wrapped

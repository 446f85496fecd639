"""Maken as an OpenSpiel Python game (``python_kessen_maken``), after the Kōbō adapter of
:mod:`kessen.interop.openspiel`; importing this module registers it with ``pyspiel``.

- **chance**: the first node draws the game seed (one of ``seeds`` equally likely values);
  every later shuffle is the engine's own RNG, a function of that seed;
- **actions**: the legal actions, numbered through :func:`action_table`, a fixed table of every
  action text Maken can offer (verbs × card words × DA/TA options), in ascending id order;
- **information state / observation**: the seat's own view (the only redacting function)
  without its log; the information state adds a running digest of the log as that seat sees
  it (perfect recall);
- **resampling**: ``resample_from_infostate`` is :meth:`MakenState.resample_hidden`.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

import numpy as np  # type: ignore[import-not-found, unused-ignore]
import pyspiel  # type: ignore[import-untyped, import-not-found, unused-ignore]

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.maken.cards import CARD, DECKS
from kessen.games.maken.rules import DA_OPTIONS, TA_OPTIONS, bet_word
from kessen.games.maken.state import MakenState

GAME_NAME = "python_kessen_maken"
DEFAULT_SEEDS = 4096
MAX_GAME_LENGTH = 100_000


@cache
def action_table() -> tuple[Action, ...]:
    """Every action Maken can offer, in a fixed order (its index is the OpenSpiel id)."""
    attack = sorted(c.id for c in CARD.values() if c.kind == "attack")
    support = sorted(c.id for c in CARD.values() if c.kind == "support")
    table = [
        Action.of(v)
        for v in (
            "keep",
            "mulligan",
            "end",
            "guard",
            "gb",
            "judge",
            "pay-rest-from-gauge",
            "decline",
        )
    ]
    table += [Action.of("draw", n) for n in (1, 2, 3)]
    table += [
        Action.of(v, CARD[c].slug) for v in ("set", "open", "clear", "clear-set") for c in support
    ]
    table += [Action.of("cancel", CARD[c].slug) for c in attack]
    for verb in ("fb", "attack", "gc", "bonus"):
        for cid in attack:
            table.append(Action.of(verb, bet_word(cid, 1)))
            table += [Action.of(verb, bet_word(cid, 2), o) for o in DA_OPTIONS]
            table += [Action.of(verb, bet_word(cid, 3), o) for o in TA_OPTIONS]
    return tuple(table)


@cache
def action_ids() -> dict[Action, int]:
    """The inverse of :func:`action_table`."""
    return {a: i for i, a in enumerate(action_table())}


_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Kessen Project Maken (プロジェクト魔剣), one game",
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
    parameter_specification={"decks": "SO+GA", "seeds": DEFAULT_SEEDS},
)


class MakenGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game: one Maken game between two starter decks (``decks=SO+GA``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.deck_names = str(params.get("decks", "SO+GA")).split("+")
        self.seeds = int(params.get("seeds", DEFAULT_SEEDS))
        if len(self.deck_names) != 2 or set(self.deck_names) - set(DECKS):
            raise ValueError(f"decks: two of {', '.join(DECKS)} joined by '+'")
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
            _GAME_TYPE, info, {"decks": "+".join(self.deck_names), "seeds": self.seeds}
        )
        self.config: Json = {"decks": self.deck_names}

    def new_initial_state(self) -> MakenSpielState:
        """The chance node that draws the game seed."""
        return MakenSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> MakenObserver:
        """Observer: the view without the log (observation) or with its digest (info state)."""
        perfect_recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return MakenObserver(perfect_recall, params)


def _digest(previous: str, entries: list[Json]) -> str:
    text = previous + json.dumps(entries, sort_keys=True, ensure_ascii=False)
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


class _Box:
    """What a wrapper state carries; deep copies become a cheap :meth:`MakenState.clone`."""

    __slots__ = ("config", "digests", "inner", "seen")

    def __init__(self, config: Json) -> None:
        self.config = config
        self.inner: MakenState | None = None
        self.digests = ["", ""]
        self.seen = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        new = _Box(self.config)
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


class MakenSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around one :class:`MakenState` (none before the seed is drawn)."""

    def __init__(self, game: MakenGame) -> None:
        super().__init__(game)
        self.box = _Box(game.config)
        self.seeds = game.seeds

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
        ids = action_ids()
        return sorted(ids[a] for a in inner.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every game seed, equally likely."""
        return [(i, 1.0 / self.seeds) for i in range(self.seeds)]

    def _apply_action(self, action: int) -> None:
        box = self.box
        if box.inner is None:
            state = registry.get("maken").new_game(box.config, int(action))
            assert isinstance(state, MakenState)
            box.inner = state
        else:
            box.inner.apply(action_table()[action])
        box.extend_digests()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        return str(action_table()[action])

    def is_terminal(self) -> bool:
        """True once the game is decided."""
        inner = self.box.inner
        return inner is not None and inner.pending is None

    def returns(self) -> list[float]:
        """+1 / −1 for the winner and loser; 0 each while it goes on or after a draw."""
        inner = self.box.inner
        if inner is None or inner.outcome is None or inner.outcome.winner is None:
            return [0.0, 0.0]
        winner = inner.outcome.winner
        return [1.0 if winner == 0 else -1.0, 1.0 if winner == 1 else -1.0]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MakenSpielState:
        """A state ``player_id`` cannot tell from this one (our resampler redeals the rest)."""
        new: MakenSpielState = self.clone()
        inner = self.box.inner
        if inner is not None:
            seed = int(float(probability_sampler()) * 2**62)
            new.box.inner = inner.resample_hidden(player_id, seed)
        return new

    def __str__(self) -> str:
        inner = self.box.inner
        return "chance: game seed" if inner is None else f"{inner.state_hash()} {inner.pending}"


class MakenObserver:
    """Strings from a seat's own view; no tensors (this game provides none)."""

    def __init__(self, perfect_recall: bool, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: MakenSpielState, player: int) -> None:
        """No tensor to fill."""

    def string_from(self, state: MakenSpielState, player: int) -> str:
        """The seat's view as JSON (without the log); plus the log digest for perfect recall."""
        inner = state.box.inner
        if inner is None:
            return f"p{player} awaiting the deal"
        view = inner.view(player)
        view.pop("log")
        text = json.dumps(view, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return f"{text}|{state.box.digests[player]}" if self.perfect_recall else text


pyspiel.register_game(_GAME_TYPE, MakenGame)

"""Kessen rulesets as PettingZoo AEC environments, for reinforcement learning.

One environment class serves every ruleset of the registry (Kōbō, TWGP and any later one that
honours the :class:`~kessen.engine.contract.GameState` contract); the optional extra
``kessen[rl]`` installs PettingZoo. The wrapper adds no rules of its own:

- **agents** ``player_0`` and ``player_1`` are seats 0 and 1; the agent to act is the seat of
  the engine's pending decision (a seat may decide several times in a row);
- **actions**: ``Discrete(n)`` over :class:`~kessen.interop.encoding.ActionCodec` (the
  ruleset's fixed action table, then overflow slots); the observation's ``action_mask`` marks
  the legal ids of the agent to act (all zeros for the other agent);
- **observations**: ``{"observation": float32[obs_size], "action_mask": int8[n]}``, built from
  ``view(seat)`` alone (:class:`~kessen.interop.encoding.ViewEncoder`), so two true states
  that look the same to a seat give it the same observation;
- **rewards**: at the end of the match, +1 to the winner and -1 to the loser (0 each without
  a winner); ``max_cycles`` truncates the match once one agent has decided that many times;
- **seeding**: ``reset(seed=s)`` plays the engine's match of seed ``s``; a later ``reset()``
  without a seed plays the next seed of a generator seeded by ``s``, so a run of episodes
  repeats exactly;
- **infos** never tell an agent what it may not see: each agent gets the number of its own
  decisions, the agent to act also the prompt and a hash of its own observation
  (``observation_hash``); the engine's true
  ``state_hash`` (which depends on every hidden card) is given only once the match is over.
  The match seed (which fixes every shuffle) is never in an info: it stays in the environment
  with the actions (:attr:`KessenEnv.match_seed`, :attr:`KessenEnv.actions`), and
  :meth:`KessenEnv.record` writes the match into the match store, where ``kessen store
  check`` replays it;
- **render**: ``render_mode="ansi"`` returns the board as one seat sees it, as ``kessen
  watch`` (Kōbō) and ``kessen replay`` (TWGP) print it.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np  # type: ignore[import-not-found, unused-ignore]
from gymnasium import spaces  # type: ignore[import-not-found, unused-ignore]
from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped, import-not-found, unused-ignore]

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.engine.players import Player
from kessen.engine.replay import Replay
from kessen.interop.encoding import (
    DEFAULT_OBS_SIZE,
    DEFAULT_OVERFLOW,
    FEATURE_BOUND,
    ActionCodec,
    ViewEncoder,
)

SEED_BITS = 62
"""Match seeds drawn by the environment are below ``2**SEED_BITS`` (the store keeps them as
SQLite integers)."""


def obs_hash(obs: Mapping[str, Any]) -> str:
    """A short digest of an observation: of its vector's and its action mask's bytes."""
    digest = hashlib.blake2b(np.ascontiguousarray(obs["observation"]).data, digest_size=12)
    digest.update(np.ascontiguousarray(obs["action_mask"]).data)
    return digest.hexdigest()


class KessenEnv(AECEnv):  # type: ignore[misc]
    """A match of one ruleset between two agents, as a PettingZoo AEC environment.

    ``config`` is the ruleset's match config (its default if not given); ``obs_size`` the
    length of the observation vector; ``overflow`` the action slots after the fixed table;
    ``max_cycles`` truncates the match once one agent has made that many decisions (``None``:
    never); ``render_seat`` the seat whose board :meth:`render` shows (``None``: the agent to
    act); ``lang`` the language of the rendered board.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "kessen_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        ruleset: str = "kobo",
        config: Mapping[str, Any] | None = None,
        *,
        obs_size: int = DEFAULT_OBS_SIZE,
        overflow: int = DEFAULT_OVERFLOW,
        max_cycles: int | None = None,
        render_mode: str | None = None,
        render_seat: int | None = None,
        lang: str = "en",
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' is supported")
        if max_cycles is not None and max_cycles < 1:
            raise ValueError("max_cycles must be 1 or more (or None)")
        self.rules = registry.get(ruleset)
        self.ruleset = ruleset
        self.config: Json = dict(config if config is not None else self.rules.default_config)
        self.codec = ActionCodec.for_ruleset(ruleset, overflow)
        self.encoder = ViewEncoder(obs_size)
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.lang = lang
        self.possible_agents: list[str] = ["player_0", "player_1"]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        n = self.codec.size
        self.observation_spaces: dict[str, Any] = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        -FEATURE_BOUND, FEATURE_BOUND, (obs_size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces: dict[str, Any] = {
            agent: spaces.Discrete(n) for agent in self.possible_agents
        }
        self._seeds: random.Random | None = None
        #: The engine's game (the true state, hidden cards included): for the training code,
        #: never for an agent. PettingZoo's ``state()`` (a global observation) is not offered.
        self.game: GameState | None = None
        #: The seed of the current match (the engine's): with :attr:`actions`, the whole match.
        self.match_seed: int | None = None
        #: The actions of the current match so far, as text.
        self.actions: list[str] = []
        #: Whether ``max_cycles`` cut the current match short (it is then stored unfinished).
        self.truncated = False
        self._decisions = [0, 0]
        self._obs_cache: dict[int, tuple[int, dict[str, Any]]] = {}
        self._legal: list[Action] = []

    # -- spaces -----------------------------------------------------------------------------

    def observation_space(self, agent: str) -> Any:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """The action space of ``agent`` (the same object on every call)."""
        return self.action_spaces[agent]

    # -- episode ----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new match: of seed ``seed`` if given, else the next seed of the run."""
        if seed is not None:
            match_seed = int(seed)
            if not -(2**63) <= match_seed < 2**63:
                raise ValueError("a match seed must fit in 64 signed bits (the store's integers)")
            self._seeds = random.Random(match_seed)
        else:
            if self._seeds is None:
                self._seeds = random.Random()
            match_seed = self._seeds.getrandbits(SEED_BITS)
        self.match_seed = match_seed
        self.game = self.rules.new_game(self.config, match_seed)
        self.actions = []
        self._decisions = [0, 0]
        self._obs_cache = {}
        self.truncated = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, Json] = {agent: {} for agent in self.agents}
        pending = self.game.pending
        if pending is None:  # a config whose match is decided before any decision
            self._finish(None)
            return
        self._select(pending.seat)

    def _select(self, seat: int) -> None:
        """Make ``seat`` the agent to act: its legal actions, its observation and its info."""
        state = self.game
        assert state is not None and state.pending is not None
        agent = self.possible_agents[seat]
        self.agent_selection = agent
        self._legal = state.legal_actions()
        obs = self._observation(seat)
        for other in self.agents:
            # Its own decisions so far (the narrowest count that lines records up).
            self.infos[other] = {"decisions": self._decisions[self._seat[other]]}
        self.infos[agent].update(prompt=state.pending.prompt, observation_hash=obs_hash(obs))

    def _observation(self, seat: int) -> dict[str, Any]:
        """The observation of ``seat`` at the current step (built once per step and seat)."""
        step = len(self.actions)
        cached = self._obs_cache.get(seat)
        if cached is not None and cached[0] == step:
            return cached[1]
        state = self.game
        assert state is not None
        agent = self.possible_agents[seat]
        view = state.decision_view(seat)
        acting = state.pending is not None and agent == self.agent_selection
        if acting and not (self.terminations[agent] or self.truncations[agent]):
            extras = self.codec.extras(self._legal)
            mask = self.codec.mask(self._legal)
        else:
            extras = []
            mask = np.zeros(self.codec.size, dtype=np.int8)
        obs = {"observation": self.encoder.encode(view, extras), "action_mask": mask}
        self._obs_cache[seat] = (step, obs)
        return obs

    def observe(self, agent: str) -> Any:
        """The observation of ``agent`` (a fresh copy): its view as a vector and its action
        mask (all zeros unless it is the agent to act)."""
        if self.game is None:
            raise RuntimeError("reset() must come before observe()")
        obs = self._observation(self._seat[agent])
        return {"observation": obs["observation"].copy(), "action_mask": obs["action_mask"].copy()}

    def step(self, action: Any) -> None:
        """Apply ``action`` (an action id) of the agent to act; ``None`` for a finished agent.

        An id that is not legal now raises ``ValueError`` and changes nothing.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game
        assert state is not None
        if action is None:
            raise ValueError(f"{agent} must act: None is only for a finished agent")
        chosen = self.codec.decode(int(action), self._legal)
        seat = self._seat[agent]
        self._cumulative_rewards[agent] = 0.0
        state.apply(chosen)
        self.actions.append(str(chosen))
        self._decisions[seat] += 1
        pending = state.pending
        if pending is None:
            self._finish(seat)
        elif self.max_cycles is not None and self._decisions[seat] >= self.max_cycles:
            self.truncated = True
            self.truncations = dict.fromkeys(self.agents, True)
            self._select(pending.seat)
            self._accumulate_rewards()
        else:
            self._select(pending.seat)
            self._accumulate_rewards()

    def _finish(self, mover: int | None) -> None:
        """The match is over (``mover`` made the last decision): rewards by its outcome, the
        true state hash now public."""
        state = self.game
        assert state is not None
        outcome = state.outcome
        winner = outcome.winner if outcome is not None else None
        for seat, agent in enumerate(self.possible_agents):
            if winner is not None:
                self.rewards[agent] = 1.0 if seat == winner else -1.0
        self.terminations = dict.fromkeys(self.agents, True)
        final = {
            "steps": len(self.actions),
            "state_hash": state.state_hash(),
            "winner": winner,
            "reason": outcome.reason if outcome is not None else None,
        }
        self.infos = {agent: dict(final) for agent in self.agents}
        # The first agent to be shown the end is the one that did not make the last move.
        self.agent_selection = self.possible_agents[0 if mover is None else 1 - mover]
        self._legal = []
        self._accumulate_rewards()

    # -- helpers for scripted agents ----------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The legal actions of the agent to act (empty once the match is over)."""
        return list(self._legal)

    def action_id(self, action: Action) -> int:
        """The id of the legal ``action`` of the agent to act."""
        return self.codec.encode(action, self._legal)

    def choose_with(self, player: Player) -> int:
        """The id of the action a Kessen COM ``player`` picks for the agent to act, from that
        agent's own view (the same input the player gets in ``kessen sim``)."""
        if self.game is None or self.game.pending is None:
            raise RuntimeError("no decision is pending")
        seat = self._seat[self.agent_selection]
        view = self.game.decision_view(seat)
        return self.action_id(player.choose(view, self._legal))

    # -- replay and store -----------------------------------------------------------------------

    def replay(self) -> Replay:
        """The current match as the engine's replay record (played back to fill its hashes)."""
        if self.match_seed is None:
            raise RuntimeError("reset() must come before replay()")
        state = self.rules.new_game(self.config, self.match_seed)
        record = Replay.start(state, self.config, self.match_seed)
        for text in self.actions:
            action = Action.parse(text)
            state.apply(action)
            record.record(action, state)
        return record

    def record(
        self,
        store: Any,
        players: Sequence[str] = ("rl-agent", "rl-agent"),
        *,
        source: str = "rl",
        meta: Json | None = None,
    ) -> int:
        """Write the current match into ``store`` (a :class:`~kessen.store.MatchStore`).

        The match is played back from its seed and actions, so the record carries the same
        state hashes and event digests as one written while playing; a match cut short by
        ``max_cycles`` is stored unfinished, with ``"truncated": true`` in its meta. Returns
        the match id.
        """
        if self.match_seed is None:
            raise RuntimeError("reset() must come before record()")
        return record_match(
            store,
            self.ruleset,
            self.config,
            self.match_seed,
            self.actions,
            players,
            source=source,
            meta={"env": "pettingzoo", "truncated": self.truncated, **(meta or {})},
        )

    # -- render -------------------------------------------------------------------------------

    def render(self) -> str | None:
        """The board as :attr:`render_seat` (or the agent to act) sees it, as text."""
        if self.render_mode is None:
            return None
        if self.game is None:
            raise RuntimeError("reset() must come before render()")
        seat = self.render_seat
        if seat is None:
            seat = self._seat.get(self.agent_selection, 0)
        return board_text(self.game.view(seat, self.lang), self.lang)

    def close(self) -> None:
        """Nothing to release."""


def record_match(
    store: Any,
    ruleset: str,
    config: Json,
    seed: int,
    actions: Sequence[str],
    players: Sequence[str],
    *,
    source: str = "rl",
    meta: Json | None = None,
) -> int:
    """Play ``actions`` back from ``seed`` and insert the match into ``store`` in one
    transaction (:meth:`MatchStore.add_match`), with a state hash every
    :data:`~kessen.engine.replay.HASH_EVERY` steps and at the end, the digest of each action's
    log events and the result if the match is over; returns the match id."""
    from kessen.engine.contract import Outcome
    from kessen.store.integrity import events_digest
    from kessen.store.model import NewMatch

    rules = registry.get(ruleset)
    state = rules.new_game(config, seed)
    replay = Replay.start(state, config, seed)
    log = state.log_events()
    events0 = events_digest(log)
    seen = len(log)
    events: list[int | None] = []
    for text in actions:
        action = Action.parse(text)
        state.apply(action)
        replay.record(action, state)
        log = state.log_events()
        events.append(events_digest(log[seen:]))
        seen = len(log)
    snapshot = state.to_json()
    decks = snapshot.get("config", {}).get("decks") if isinstance(snapshot, dict) else None
    outcome: Outcome | None = state.outcome
    results: list[list[Any]] | None = None
    if outcome is not None:
        match = state.view_all().get("match")
        games = match.get("results") if isinstance(match, dict) else None
        if games:
            results = [[g.get("winner"), g.get("reason"), g.get("turns")] for g in games]
        else:
            results = [[outcome.winner, outcome.reason, state.view(None).get("turn")]]
    new = NewMatch(
        replay=replay,
        players={str(seat): name for seat, name in enumerate(players)},
        source=source,
        outcome=outcome,
        results=results,
        events0=events0,
        events=events,
        decks=decks,
        meta=dict(meta or {}),
    )
    match_id: int = store.add_match(new)
    return match_id


def board_text(view: Json, lang: str = "en") -> str:
    """A seat's view as plain text: ``kessen watch``'s board for Kōbō, ``kessen replay``'s for
    TWGP and Project Maken, and the view's JSON (without the log) for a ruleset without one."""
    ruleset = view.get("ruleset")
    if ruleset == "kobo":
        from rich.console import Console

        from kessen.cli.matches import render_board

        out = io.StringIO()
        console = Console(file=out, width=120, color_system=None, force_terminal=False)
        console.print(render_board(view, lang))
        return out.getvalue()
    from kessen.cli.replay import text_board

    board = text_board(str(ruleset))
    if board is not None:
        return "\n".join(board(view, lang)) + "\n"
    rest = {k: v for k, v in view.items() if k != "log"}
    return json.dumps(rest, ensure_ascii=False, indent=1) + "\n"


def raw_env(ruleset: str = "kobo", **kwargs: Any) -> KessenEnv:
    """The environment without PettingZoo's wrappers."""
    return KessenEnv(ruleset, **kwargs)


def env(ruleset: str = "kobo", **kwargs: Any) -> Any:
    """The environment with PettingZoo's usual wrappers (action bounds, call order)."""
    wrapped: Any = KessenEnv(ruleset, **kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def kobo_env(**kwargs: Any) -> Any:
    """Kōbō with PettingZoo's usual wrappers (keyword arguments as :class:`KessenEnv`)."""
    return env("kobo", **kwargs)


def twgp_env(**kwargs: Any) -> Any:
    """TWGP with PettingZoo's usual wrappers (keyword arguments as :class:`KessenEnv`)."""
    return env("twgp", **kwargs)


__all__ = [
    "KessenEnv",
    "board_text",
    "env",
    "kobo_env",
    "obs_hash",
    "raw_env",
    "record_match",
    "twgp_env",
]

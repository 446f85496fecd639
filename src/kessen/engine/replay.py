"""Replays: a game is its ruleset, config, seed and actions; replaying reproduces every hash.

A record keeps a state hash every few steps; playing a record back after a rules or card
change reports the first step whose state differs instead of showing another game.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json, RulesError

HASH_EVERY = 10


class ReplayDivergence(RulesError):
    """A record no longer plays back to the same states (rules or cards changed)."""

    def __init__(self, step: int, message: str) -> None:
        super().__init__(f"step {step}: {message}")
        self.step = step


@dataclass
class Replay:
    """A recorded game: enough to rebuild every state exactly."""

    ruleset: str
    config: Json
    seed: int
    actions: list[str] = field(default_factory=list)
    version: str = ""
    data_hash: str = ""
    hashes: dict[int, str] = field(default_factory=dict)

    @staticmethod
    def start(state: GameState, config: Json, seed: int) -> Replay:
        """An empty record for a game just created from ``config`` and ``seed``."""
        rules = registry.get(state.ruleset)
        replay = Replay(state.ruleset, config, seed, [], rules.version, rules.data_hash)
        replay.hashes[0] = state.state_hash()
        return replay

    def record(self, action: Action, state_after: GameState) -> None:
        """Append an action; keep a hash every :data:`HASH_EVERY` steps and at the end."""
        self.actions.append(str(action))
        step = len(self.actions)
        if step % HASH_EVERY == 0 or state_after.pending is None:
            self.hashes[step] = state_after.state_hash()

    def states(self, verify: bool = True) -> Iterator[GameState]:
        """Yield the state before the first action and after every action.

        With ``verify``, raise :class:`ReplayDivergence` at the first step whose hash, or whose
        action's legality, differs from the record.
        """
        rules = registry.get(self.ruleset)
        state = rules.new_game(rules.record_config(self.config, self.data_hash), self.seed)
        self._check(0, state, verify)
        yield state
        for step, text in enumerate(self.actions, start=1):
            action = Action.parse(text)
            if action not in state.legal_actions():
                raise ReplayDivergence(step, f"recorded action {text!r} is not legal any more")
            state = state.clone()
            state.apply(action)
            self._check(step, state, verify)
            yield state

    def final_state(self, verify: bool = True) -> GameState:
        """The state after the last action."""
        states = self.states(verify)
        last = next(states)
        for last in states:  # noqa: B007 - the loop keeps the newest state
            pass
        return last

    def _check(self, step: int, state: GameState, verify: bool) -> None:
        expected = self.hashes.get(step)
        if verify and expected is not None and state.state_hash() != expected:
            raise ReplayDivergence(step, "the state differs from the recorded one")

    def to_json(self) -> Json:
        """JSON form."""
        return {
            "ruleset": self.ruleset,
            "config": self.config,
            "seed": self.seed,
            "version": self.version,
            "data_hash": self.data_hash,
            "actions": self.actions,
            "hashes": {str(k): v for k, v in self.hashes.items()},
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Replay:
        """Inverse of :meth:`to_json`."""
        return Replay(
            ruleset=data["ruleset"],
            config=data["config"],
            seed=int(data["seed"]),
            actions=list(data["actions"]),
            version=data.get("version", ""),
            data_hash=data.get("data_hash", ""),
            hashes={int(k): v for k, v in data.get("hashes", {}).items()},
        )

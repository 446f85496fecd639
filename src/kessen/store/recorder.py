"""The recorder: a match written into the store action by action while it is played."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.engine.replay import HASH_EVERY
from kessen.store.integrity import events_digest

if TYPE_CHECKING:
    from kessen.store.match_store import MatchStore


class Recorder:
    """Writes a match into a store while it is played: one committed row per action.

    Mirrors :meth:`Replay.record`: a state hash every :data:`HASH_EVERY` steps and at the end;
    plus a digest of the log events of every action, for :mod:`kessen.store.integrity`. The
    match is marked finished when the game ends.
    """

    def __init__(self, store: MatchStore, match_id: int, step: int, events_seen: int) -> None:
        self.store = store
        self.match_id = match_id
        self.step = step
        self._seen = events_seen

    @staticmethod
    def start(
        store: MatchStore,
        state: GameState,
        config: Json,
        seed: int,
        *,
        players: Mapping[int, str] | Mapping[str, str] | Sequence[str] = (),
        source: str = "play",
        meta: Json | None = None,
    ) -> Recorder:
        """Register the match of the freshly created ``state`` and return its recorder."""
        match_id = store.create_match(
            state.ruleset, config, seed, players=players, source=source, state=state, meta=meta
        )
        return Recorder(store, match_id, 0, len(state.log_events()))

    @staticmethod
    def resume(store: MatchStore, match_id: int) -> tuple[Recorder, GameState]:
        """The recorder and live state of an unfinished stored match (hashes verified)."""
        replay, state = store.resume(match_id)
        return Recorder(store, match_id, len(replay.actions), len(state.log_events())), state

    def record(self, action: Action | str, state_after: GameState) -> None:
        """Store the action just applied; finish the match if ``state_after`` is over."""
        self.step += 1
        over = state_after.pending is None
        digest = None
        if self.step % HASH_EVERY == 0 or over:
            digest = state_after.state_hash()
        log = state_after.log_events()
        events = events_digest(log[self._seen :])
        self._seen = len(log)
        self.store.append_action(self.match_id, self.step, str(action), digest, events=events)
        if over:
            self.finish(state_after)

    def finish(self, state: GameState) -> None:
        """Mark the match finished with ``state``'s outcome (``None``: abandoned)."""
        results = getattr(state, "results", ())
        self.store.finish_match(self.match_id, state.outcome, list(results))

    def undo_to(self, step: int, state: GameState) -> None:
        """Forget the actions after ``step`` (undo); ``state`` is the state at ``step``."""
        self.store.truncate(self.match_id, step)
        self.step = step
        self._seen = len(state.log_events())

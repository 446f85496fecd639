"""The cheating twin of the search COM, for one experiment only: what does honesty cost?

:class:`CheatingPlayer` runs exactly the same search with exactly the same budget as a level,
but every "sampled" world is a copy of the TRUE game state (the opponent's hands, traps and the
deck orders as they are; only the RNG of future shuffles is fresh). Comparing its win rate
against the heuristic COM with the honest level's gives the price of deciding from the view.

It is deliberately not a player factory: it cannot be built from a seed, it needs the live
game state bound before every decision (:meth:`CheatingPlayer.bind`), and nothing in the
registry, the server or :mod:`kessen.ai.levels` refers to this module. Only the tournament's
honesty experiment imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kessen.ai.ismcts import SearchConfig, SearchHooks, SearchResult, decision_seed, search
from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.engine.rng import Rng


class CheatingPlayer:
    """Search over copies of the true state (bind it before each ``choose``)."""

    def __init__(self, name: str, hooks: SearchHooks, config: SearchConfig, seed: int = 0) -> None:
        self.name = name
        self.hooks = hooks
        self.config = config
        self.seed = seed
        self._state: GameState | None = None
        self.last_result: SearchResult | None = None
        self.last_explanation: list[Json] = []

    def bind(self, state: GameState) -> None:
        """Give the player the true state it will read at its next decision."""
        self._state = state

    def _true_worlds(self, seed: int) -> Callable[[int], GameState]:
        truth = self._state
        if truth is None:
            raise RuntimeError("CheatingPlayer.bind(state) must come before choose()")

        def sample(index: int) -> GameState:
            world = truth.clone()
            rng = getattr(world, "rng", None)
            if isinstance(rng, Rng):
                world.rng = Rng(seed * 1_000_003 + index)  # type: ignore[attr-defined]
            return world

        return sample

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        """The same search as the honest level, over the true state.

        Routine prompts go to the ruleset's rule, exactly as for the honest player.
        """
        if self.hooks.routine is not None and len(legal) > 1:
            action = self.hooks.routine(view, legal)
            if action is not None and action in legal:
                self.last_result = None
                self.last_explanation = []
                return action
        seed = decision_seed(self.seed, view)
        result = search(view, legal, self.hooks, self.config, seed, sampler=self._true_worlds(seed))
        self.last_result = result
        self.last_explanation = result.explanation()
        return result.action

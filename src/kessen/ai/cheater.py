"""The cheating twins of the search COM, for one experiment only: what does honesty cost?

:class:`CheatingPlayer` runs exactly the same search with exactly the same budget as a level,
but its "sampled" worlds come from the TRUE game state instead of its view. It reads the true
state in one of two ways (``knows_draws``):

- **the cheater** (``cheater-<level>`` in tournaments, ``knows_draws=True``): every world is a
  copy of the true state: the opponent's hands and face-down cards *and* the order of every
  deck as it is, so it also knows the draws to come, its own included; only the RNG of future
  shuffles is fresh;
- **the peeker** (``peeker-<level>``, ``knows_draws=False``): every world is the true state
  with what no seat can see redealt by the ruleset (``SearchHooks.redeal_unseen``: in Kōbō the
  order of the four decks, hidden from everyone by rule §7). It sees everything the opponent
  hides from it, and no more.

Comparing their win rates against the heuristic COM with the honest level's gives the price of
deciding from the view; the peeker's is the part a player could ever gain by peeking.

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

_REDEAL_SALT = 0x5DEECE66D
"""Keeps a world's redeal and its future shuffles on different random streams."""


class CheatingPlayer:
    """Search over the true state (bind it before each ``choose``).

    ``knows_draws=False`` makes it the peeker: the ruleset redeals what no seat can see in
    every world, so the true state's deck orders never reach its decisions.
    """

    def __init__(
        self,
        name: str,
        hooks: SearchHooks,
        config: SearchConfig,
        seed: int = 0,
        *,
        knows_draws: bool = True,
    ) -> None:
        if not knows_draws and hooks.redeal_unseen is None:
            raise ValueError(
                f"{name}: this ruleset's search hooks have no redeal_unseen, so a control "
                "that does not know the draws to come cannot be built for it"
            )
        self.name = name
        self.hooks = hooks
        self.config = config
        self.seed = seed
        self.knows_draws = knows_draws
        self._state: GameState | None = None
        self.last_result: SearchResult | None = None
        self.last_explanation: list[Json] = []

    def bind(self, state: GameState) -> None:
        """Give the player the true state it will read at its next decision."""
        self._state = state

    def _true_worlds(self, seed: int) -> Callable[[int], GameState]:
        """The ``index``-th world of a decision searched with ``seed``, from the bound state."""
        truth = self._state
        if truth is None:
            raise RuntimeError("CheatingPlayer.bind(state) must come before choose()")
        redeal = None if self.knows_draws else self.hooks.redeal_unseen

        def sample(index: int) -> GameState:
            world_seed = seed * 1_000_003 + index
            world = truth.clone() if redeal is None else redeal(truth, world_seed ^ _REDEAL_SALT)
            rng = getattr(world, "rng", None)
            if isinstance(rng, Rng):
                world.rng = Rng(world_seed)  # type: ignore[attr-defined]
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

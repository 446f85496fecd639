"""The strongest COM's standby plan: which traps to set and which tactics to take, by fitted worth.

The search leaves the standby's bookkeeping to a rule (:func:`routine`): the order of the hand,
the slots, the deploy targets and the blind pick are the heuristic COM's. Two of those choices
shape the first turn more than the others, and there the heuristic COM's hand-set card values
disagree with what the fitted evaluation (:data:`~kessen.games.kobo.evaluate.FITTED_WEIGHTS`,
fitted on self-play outcomes) says a card is worth while it waits in a slot or in the hand:

- **traps**: the heuristic COM sets at most three and discards the rest, whatever they are;
  the plan sets every trap the fit values at :data:`TRAP_WORTH` or more, up to
  :data:`MAX_TRAPS` (one strategy slot stays free for a tactic), and discards the others;
- **the tactics hand**: the heuristic COM rates a target change among the best tactics; the
  fit finds it nearly worthless in hand. The plan takes, one pick at a time, the tactic whose
  fitted weight, less :data:`SAME_CARD` of it per copy already taken and
  :data:`SAME_ROLE` per card of the same role (buff, debuff, negate, redirect) already taken,
  is highest.

Both read only the deciding seat's view (its own hand and slots, the public deck lists) and the
card pool. Screened with ``bench/standby_screen.py`` on heuristic-vs-heuristic mirror games (the
plan's standby in one seat, the heuristic COM's in the other, both heuristic in play; 5,000
games, card data version 3 and the weights fitted on it): the plan's seat wins 58.5%
(57.1–59.8%), the tactics rule alone 55.6%, the traps rule alone 53.3%. What it gives the
strongest level is measured in ``docs/com-levels.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.kobo import evaluate
from kessen.games.kobo.heuristic import HeuristicPlayer, category
from kessen.games.kobo.heuristic_exchange import card_def

TRAP_WORTH = 0.5
"""The fitted weight a trap needs to be set (the fitted weights run from 0.29 to 1.47; 0.6
left Covering Fire, 0.58, unset and won 55.9%, 0.25 set Decoy too and won 57.1%)."""
MAX_TRAPS = 4
"""Traps set at most in the standby (the heuristic COM sets three)."""
SAME_CARD = 0.2
"""Share of a tactic's fitted weight lost per copy of it already taken."""
SAME_ROLE = 0.15
"""Logit lost per tactic of the same role already taken (a hand of only buffs is weaker)."""


class PlannedStandby(HeuristicPlayer):
    """The heuristic COM with the plan's trap and tactics-hand choices (see the module)."""

    name = "planned-standby"

    def _on_set(self, view: Json, legal: list[Action]) -> Action | None:
        slots = self._by_verb(legal, "slot")
        card = (view["pending"].get("context") or {}).get("card") or {}
        slug = card.get("slug")
        set_already = self._face_down(view, self._me(view))
        worth = evaluate.trap_weight(str(slug)) if slug else 0.0
        if slots and set_already < MAX_TRAPS and worth >= TRAP_WORTH:
            return slots[0]
        return Action.of("discard")

    def tactic_worth(self, slug: str, copies: Counter[str], roles: Counter[str]) -> float:
        """The fitted weight of ``slug``, less :data:`SAME_CARD` of it per copy held and
        :data:`SAME_ROLE` per card of its role held."""
        weight = evaluate.tactic_weight(slug)
        return weight * (1 - SAME_CARD * copies[slug]) - SAME_ROLE * roles[category(card_def(slug))]


@cache
def _planner() -> PlannedStandby:
    return PlannedStandby(0)


def routine(view: Json, legal: Sequence[Action]) -> Action | None:
    """The plan's answer to a routine standby prompt; ``None`` where search decides."""
    pending = view.get("pending") or {}
    if pending.get("prompt") in evaluate.ROUTINE_PROMPTS:
        return _planner().choose(view, legal)
    return None

"""A rule-based Kōbō COM player that decides from its own view and the legal actions only.

:class:`HeuristicPlayer` never sees the game state: it reads the view dict of its seat (its own
hands and face-down traps, the public board, the chain, the public deck lists) and the card pool
(to know what a card does by its slug). In the chain it simulates the resolution of the links on
the board (last activated first, then the attack result) to judge whether it wins or loses the
exchange, and answers only when a card improves the outcome by more than the card is worth.
That simulation, and the card lookup by slug, are in :mod:`kessen.games.kobo.heuristic_exchange`.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.kobo import heuristic_surprise as surprise_rules
from kessen.games.kobo.card_sets import activate
from kessen.games.kobo.cards import (
    CHANGE_TARGET,
    MODIFY_LV,
    NEGATE_ATTACK,
    NEGATE_LAST,
    RETREAT_IF_ZERO,
    SCOPE_CHOSEN,
    SIDE_OWN,
    TIMING_DEFENDING,
    CardDef,
    CardKind,
    Verb,
)
from kessen.games.kobo.heuristic_exchange import (
    BODY,
    ExchangeSim,
    Pos,
    SimLink,
    _material,
    _resolve,
    _sim_from_view,
    card_def,
)
from kessen.games.kobo.opening import STANDARD_PENALTY, penalty

MAX_TRAPS = 3
"""Traps set at most in the standby: the other strategy slots stay free for tactics."""


def _amount(cdef: CardDef) -> int:
    """The total Lv change of a card's ``modify_lv`` steps."""
    return sum(step.amount for step in cdef.steps if step.verb is MODIFY_LV)


def category(cdef: CardDef) -> str:
    """A card's rough role: buff, debuff, negate, redirect or other."""
    if cdef.has(NEGATE_ATTACK) or cdef.has(NEGATE_LAST):
        return "negate"
    if cdef.has(CHANGE_TARGET):
        return "redirect"
    amount = _amount(cdef)
    if amount > 0:
        return "buff"
    if amount < 0:
        return "debuff"
    return "other"


@cache
def chain_card_value(cdef: CardDef) -> float:
    """How much a trap or tactic is worth holding (higher is better)."""
    value = 0.0
    amount = abs(_amount(cdef))
    if amount:
        value += 2.5 * amount
        if cdef.target is not None and cdef.target.scope is not SCOPE_CHOSEN:
            value += 0.5
    if cdef.has(NEGATE_ATTACK):
        value += 7.0
    if cdef.has(NEGATE_LAST):
        value += 6.5
    if cdef.has(CHANGE_TARGET):
        value += 5.5
    if cdef.has(RETREAT_IF_ZERO):
        value += 1.5
    if cdef.chain_again:
        value += 1.0
    if cdef.permanent:
        value *= 1.2
    return value


_COSTS: dict[str, tuple[CardDef, float]] = {}
"""What :func:`card_cost` found, by slug, with the very card record it was found for (a card
set's card of the same slug is another record): a card record hashes all its fields."""


def card_cost(cdef: CardDef) -> float:
    """What spending a trap or tactic in a chain costs: a card, more for stronger cards."""
    known = _COSTS.get(cdef.slug)
    if known is not None and known[0] is cdef:
        return known[1]
    cost = 1.0 + 0.15 * chain_card_value(cdef)
    if cdef.limited:
        cost += 0.3
    _COSTS[cdef.slug] = (cdef, cost)
    return cost


PASS = Action.of("pass")
_CHAIN_VALUES: dict[tuple[Any, ...], float] = {}
"""Chain gains and link outcomes by simulation key, seat, card and choice (see
:meth:`HeuristicPlayer.chain_answer`); they depend on nothing else."""
CHAIN_MEMORY = 20_000
"""Outcomes remembered at most (about 17 MB); the memory starts afresh when full."""


def _remember(key: tuple[Any, ...], value: float) -> float:
    """Store ``value`` as the outcome of ``key`` and return it."""
    if len(_CHAIN_VALUES) >= CHAIN_MEMORY:
        _CHAIN_VALUES.clear()
    _CHAIN_VALUES[key] = value
    return value


def _best(options: list[_Option]) -> _Option | None:
    """The highest-scoring option (ties: lower attacker slots, then lower target slot)."""
    if not options:
        return None
    return max(options, key=lambda o: (o.score, [-s for s in o.attackers], -o.target))


def _attack_score(
    margin: int,
    target_base: int,
    worth: float,
    size: int,
    opp_res: int,
    my_boost: int,
    my_cards: bool,
) -> float | None:
    """Expected material gain of an attack, given how the chain may swing it.

    ``margin`` is attack minus defence on current Lv, ``worth`` what the attackers are worth,
    ``opp_res`` the cards the defender may answer with (tactics hand and face-down traps),
    ``my_boost`` the largest Lv swing a tactic in hand gives. None: not worth considering.
    """
    target_worth = target_base + BODY
    spend = 0.0
    if margin <= 0 and size == 1 and margin + my_boost > 0:
        margin += my_boost  # win it with a card from hand
        spend = 1.5
    if margin > 0:
        flip = 0.0
        if opp_res:
            flip = min(0.85, 0.55 / margin) * min(1.0, 0.4 + opp_res / 5)
            if my_cards:
                flip *= 0.7
        return (1 - flip) * target_worth - flip * worth - spend
    if margin == 0 and size == 1:
        gain = (BODY + 1 if target_base <= 1 else 1) - (BODY + 1 if worth - BODY <= 1 else 1)
        return gain - (0.5 if opp_res else 0)
    return None


# --------------------------------------------------------------------------------------------
# The player
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Option:
    """A possible attack: attacker slots, target slot and its score."""

    score: float
    attackers: tuple[int, ...]
    target: int


class HeuristicPlayer:
    """A sensible Kōbō COM: strong characters, buffs on its best, careful attacks and chains.

    It decides from ``view`` and ``legal`` only; identical views give identical decisions
    (the only random choice, the blind pick, is seeded from ``seed`` and the prompt).
    """

    name = "heuristic"
    #: Traps set at most in the standby.
    max_traps = MAX_TRAPS

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    # --- entry point ----------------------------------------------------------------------

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        """One element of ``legal``, chosen for the pending prompt of ``view``."""
        if not legal:
            raise ValueError("no legal action to choose from")
        activate(view.get("card_set"))  # the match's cards, when it plays a designer's set
        pending = view.get("pending") or {}
        handler = getattr(self, "_on_" + str(pending.get("prompt", "")), None)
        choice: Action | None = None
        if handler is not None:
            choice = handler(view, list(legal))
        if choice is None or choice not in legal:
            return legal[0]
        return choice

    # --- helpers --------------------------------------------------------------------------

    @staticmethod
    def _me(view: Json) -> int:
        return int(view["pending"]["seat"])

    @staticmethod
    def _by_verb(legal: Iterable[Action], verb: str) -> list[Action]:
        return [a for a in legal if a.verb == verb]

    @staticmethod
    def _chars(view: Json, seat: int) -> list[tuple[int, dict[str, Any]]]:
        """(slot 1-5, character dict) of ``seat``'s battle area."""
        battle = view["players"][seat]["battle"]
        return [(i + 1, c) for i, c in enumerate(battle) if c is not None]

    @staticmethod
    def _face_down(view: Json, seat: int) -> int:
        return sum(1 for s in view["players"][seat]["strategy"] if s and s.get("face") == "down")

    @staticmethod
    def _tactics_hand(view: Json, seat: int) -> list[str]:
        cards = view["players"][seat]["tactics_hand"].get("cards") or []
        return [str(c["slug"]) for c in cards]

    def _deck_left(self, view: Json, seat: int) -> Counter[str]:
        """The cards ``seat``'s main deck may still hold: its list minus every card seen."""
        player = view["players"][seat]
        left: Counter[str] = Counter(player["deck"]["main"])
        seen: list[str] = []
        seen += [c["slug"] for c in player["hand"].get("cards") or []]
        seen += [c["slug"] for c in player["battle"] if c]
        seen += [c["slug"] for c in player["strategy"] if c and "slug" in c]
        seen += [c["slug"] for c in player["retreat"]]
        seen += [c["slug"] for c in player["excluded"]]
        seen += [c["slug"] for c in player.get("processing", []) if "slug" in c]
        seen += [c["slug"] for c in player.get("reveal", []) if "slug" in c]
        for slug in seen:
            if left[slug] > 0:
                left[slug] -= 1
        return +left

    # --- standby --------------------------------------------------------------------------

    def _standby_priority(self, view: Json, slug: str) -> float:
        cdef = card_def(slug)
        me = self._me(view)
        if cdef.is_character:
            return 80 + cdef.lv
        if cdef.kind is CardKind.TRAP:
            return 20 + chain_card_value(cdef) / 10
        deck = self._deck_left(view, me)
        chars = sorted(
            (card_def(s).lv for s, n in deck.items() for _ in range(n) if card_def(s).is_character),
            reverse=True,
        )
        if cdef.has(Verb.NOMINATE):
            names = sorted(
                {s for s in deck if card_def(s).is_character}, key=lambda s: -card_def(s).lv
            )[:3]
            if len(names) < 3:
                return 10
            return 80 + sum(card_def(s).lv for s in names) / 3 - 0.1
        if cdef.has(Verb.SUMMON_TOP):
            return 80 + (sum(chars) / len(chars) if chars else -70) - 0.2
        if cdef.has(Verb.DRAW) and _amount(cdef) == 0:
            return 100
        if cdef.has(Verb.DRAW):
            return 70
        return 50

    def _on_standby(self, view: Json, legal: list[Action]) -> Action | None:
        picks = self._by_verb(legal, "pick")
        if not picks:
            return None
        return max(picks, key=lambda a: self._standby_priority(view, str(a.args[0])))

    def _on_place(self, view: Json, legal: list[Action]) -> Action | None:
        return legal[0]

    def _on_set(self, view: Json, legal: list[Action]) -> Action | None:
        slots = self._by_verb(legal, "slot")
        if slots and self._face_down(view, self._me(view)) < self.max_traps:
            return slots[0]
        return Action.of("discard")

    def _on_deploy(self, view: Json, legal: list[Action]) -> Action | None:
        return Action.of("use")

    def _on_deploy_target(self, view: Json, legal: list[Action]) -> Action | None:
        me = self._me(view)
        card = (view["pending"].get("context") or {}).get("card") or {}
        cdef = card_def(card["slug"]) if "slug" in card else None
        slots = [int(a.args[0]) for a in self._by_verb(legal, "slot")]
        if not slots or cdef is None or cdef.target is None:
            return None
        side = me if cdef.target.side is SIDE_OWN else 1 - me
        lv = {slot: int(c["lv"]) for slot, c in self._chars(view, side)}
        helps = (_amount(cdef) >= 0) == (side == me)
        # Buff my best character, weaken the opponent's best; anything else goes to the weakest.
        if helps:
            return Action.of("slot", max(slots, key=lambda s: (lv.get(s, 0), -s)))
        return Action.of("slot", min(slots, key=lambda s: (lv.get(s, 0), s)))

    def _on_nominate(self, view: Json, legal: list[Action]) -> Action | None:
        names = self._by_verb(legal, "name")
        return max(names, key=lambda a: card_def(str(a.args[0])).lv) if names else None

    def _on_blind(self, view: Json, legal: list[Action]) -> Action | None:
        rng = random.Random(f"{self.seed}:{view['match']['game']}:{view['pending']['prompt_id']}")
        return legal[rng.randrange(len(legal))]

    def _on_tactics(self, view: Json, legal: list[Action]) -> Action | None:
        takes = self._by_verb(legal, "take")
        if not takes:
            return None
        hand = self._tactics_hand(view, self._me(view))
        copies = Counter(hand)
        roles = Counter(category(card_def(s)) for s in hand)
        return max(takes, key=lambda action: self.tactic_worth(str(action.args[0]), copies, roles))

    def tactic_worth(self, slug: str, copies: Counter[str], roles: Counter[str]) -> float:
        """What taking ``slug`` into a tactics hand holding ``copies`` (by slug) and ``roles``
        (by :func:`category`) is worth: its card value, less for a copy or a role held."""
        cdef = card_def(slug)
        return chain_card_value(cdef) - 2.0 * roles[category(cdef)] - 2.5 * copies[slug]

    # --- the turn -------------------------------------------------------------------------

    def _options(self, view: Json, chosen: tuple[int, ...], eager: bool) -> list[_Option]:
        """Every attack whose attackers include ``chosen``, with its score.

        Only attacks that win on current Lv count, unless ``eager``: then also an even trade
        (a single attacker tied with its target) and a single attack that a tactic from hand
        would win.
        """
        me = self._me(view)
        mine = {slot: c for slot, c in self._chars(view, me)}
        theirs = {slot: c for slot, c in self._chars(view, 1 - me)}
        if not mine or not theirs:
            return []
        opp_res = int(view["players"][1 - me]["tactics_hand"]["count"]) + self._face_down(
            view, 1 - me
        )
        my_hand = [card_def(s) for s in self._tactics_hand(view, me)]
        free = sum(1 for s in view["players"][me]["strategy"] if s is None)
        boosts = [
            abs(_amount(c))
            for c in my_hand
            if c.target is not None
            and c.target.scope is SCOPE_CHOSEN
            and c.when is not TIMING_DEFENDING
        ]
        my_boost = max(boosts) if boosts and free and eager else 0
        max_d = max(int(c["lv"]) for c in theirs.values())
        out: list[_Option] = []
        slots = sorted(mine)
        for size in range(1, len(slots) + 1):
            for group in itertools.combinations(slots, size):
                if not set(chosen) <= set(group):
                    continue
                attack = sum(int(mine[s]["lv"]) for s in group)
                if size > 1 and attack > max_d + 1:
                    continue
                worth = sum(int(mine[s]["base"]) + BODY for s in group)
                for t, foe in theirs.items():
                    defence = int(foe["lv"])
                    if size > 1 and attack > defence + 1:
                        continue
                    if attack <= defence and not eager:
                        continue
                    score = _attack_score(
                        attack - defence,
                        int(foe["base"]),
                        worth,
                        size,
                        opp_res,
                        my_boost if size == 1 else 0,
                        bool(my_hand),
                    )
                    if score is None:
                        continue
                    # Tie-breaks: fewer attackers, then weaker attackers.
                    score -= 0.01 * size + 0.001 * attack
                    out.append(_Option(score, group, t))
        return out

    def _plan(self, view: Json, chosen: tuple[int, ...]) -> _Option | None:
        """The attack to declare (its attackers including ``chosen``), or None to pass.

        Attack when an attack wins on current Lv and is worth its risk. Once a pass costs
        cards (:meth:`pass_cost`: under the seed's schedule the n-th pass excludes n − 1), an
        even trade or a card-backed attack is better than passing, the more so the more a
        pass costs.
        """
        cost = self.pass_cost(view)
        best = _best(self._options(view, chosen, eager=False))
        if best is not None and best.score > 0.3:
            return best
        if cost == 0:
            return None
        eager = _best(self._options(view, chosen, eager=True))
        if eager is not None and eager.score > -0.6 * cost - 0.5:
            return eager
        return None

    def pass_cost(self, view: Json) -> int:
        """The cards a pass would exclude now, by the match's pass penalty schedule (the
        view names it where it is not the seed's) and the passes made so far."""
        passes = int(view["players"][self._me(view)]["passes"])
        schedule = str((view.get("opening") or {}).get("pass_penalty", STANDARD_PENALTY))
        return penalty(schedule, passes + 1)

    def _on_surprise(self, view: Json, legal: list[Action]) -> Action | None:
        return surprise_rules.flip_choice(view, legal)

    def _on_turn(self, view: Json, legal: list[Action]) -> Action | None:
        if (zone_move := surprise_rules.turn_choice(view, legal)) is not None:
            return zone_move
        plan = self._plan(view, ())
        if plan is None:
            return Action.of("pass")
        return Action.of("attack", plan.attackers[0])

    def _on_declare(self, view: Json, legal: list[Action]) -> Action | None:
        context = view["pending"].get("context") or {}
        chosen = tuple(int(s) for s in context.get("attackers", []))
        plan = self._plan(view, chosen) or _best(self._options(view, chosen, eager=True))
        if plan is not None:
            extra = [s for s in plan.attackers if s not in chosen]
            action = Action.of("attack", extra[0]) if extra else Action.of("target", plan.target)
            if action in legal:
                return action
        targets = self._by_verb(legal, "target")
        if not targets:
            return None
        me = self._me(view)
        theirs = {slot: int(c["lv"]) for slot, c in self._chars(view, 1 - me)}
        total = int(context.get("total", 0))
        beaten = [a for a in targets if theirs.get(int(a.args[0]), 99) < total]
        if beaten:
            return max(beaten, key=lambda a: theirs.get(int(a.args[0]), 0))
        return min(targets, key=lambda a: theirs.get(int(a.args[0]), 99))

    # --- the chain ------------------------------------------------------------------------

    def _cost(self, cdef: CardDef) -> float:
        return card_cost(cdef)

    def _link_value(
        self, sim: ExchangeSim, me: int, cdef: CardDef, chosen: Pos | None, key: Any = None
    ) -> float:
        """``me``'s material after ``cdef`` (choosing ``chosen``) joins the chain and all
        resolves; remembered under ``key`` (the simulation's :meth:`ExchangeSim.key`) if given."""
        memo = (key, me, cdef.slug, chosen)
        if key is not None and (known := _CHAIN_VALUES.get(memo)) is not None:
            return known
        links = sim.links
        negates = len(links) if cdef.has(NEGATE_LAST) else None
        base, temp = dict(sim.base), dict(sim.temp)
        trial = [*links, SimLink(cdef, me, chosen, negates)]
        _resolve(base, temp, sim.attacker_seat, sim.attackers, sim.target, sim.negated, trial)
        value = _material(base, me)
        return _remember(memo, value) if key is not None else value

    def _best_choice(
        self, sim: ExchangeSim, me: int, cdef: CardDef, key: Any = None
    ) -> tuple[float, Pos | None]:
        if not cdef.needs_choice:
            return self._link_value(sim, me, cdef, None, key), None
        best: tuple[float, Pos | None] = (float("-inf"), None)
        for pos in sim.candidates(me, cdef):
            value = self._link_value(sim, me, cdef, pos, key)
            if value > best[0]:
                best = (value, pos)
        return best

    def _on_chain(self, view: Json, legal: list[Action]) -> Action | None:
        me = self._me(view)
        strategy = view["players"][me]["strategy"]
        options: list[tuple[Action, CardDef]] = []
        for action in legal:
            if action.verb == "play":
                options.append((action, card_def(str(action.args[0]))))
            elif action.verb == "trap":
                slot = strategy[int(action.args[0]) - 1]
                if slot and "slug" in slot:
                    options.append((action, card_def(str(slot["slug"]))))
        return self.chain_answer(_sim_from_view(view), me, options)

    def chain_answer(
        self, sim: ExchangeSim, me: int, options: Sequence[tuple[Action, CardDef]]
    ) -> Action:
        """The chain answer of ``me`` on ``sim``: the card that gains most, or ``pass``.

        ``options`` pairs each activation in the legal actions with the card it activates.
        Gains and outcomes are remembered by the simulation's :meth:`ExchangeSim.key` (they
        depend on nothing else), which spares most of the work in rollouts that meet an
        exchange again, and the choice of a target right after the card is played.
        """
        key = sim.key()
        now: float | None = None
        best_action: Action = PASS
        best_gain = 0.05
        for action, cdef in options:
            gain = _CHAIN_VALUES.get((key, me, cdef.slug))
            if gain is None:
                if now is None:
                    resolved = sim.copy()
                    resolved.finish()
                    now = resolved.score(me)
                value = self._best_choice(sim, me, cdef, key)[0]
                gain = _remember((key, me, cdef.slug), value - now - self._cost(cdef))
            if gain > best_gain:
                best_gain, best_action = gain, action
        return best_action

    def _on_target(self, view: Json, legal: list[Action]) -> Action | None:
        me = self._me(view)
        card = (view["pending"].get("context") or {}).get("card") or {}
        slots = [int(a.args[0]) for a in self._by_verb(legal, "slot")]
        if "slug" not in card or not slots:
            return None
        return self.target_answer(_sim_from_view(view), me, card_def(str(card["slug"])), slots)

    def target_answer(self, sim: ExchangeSim, me: int, cdef: CardDef, slots: list[int]) -> Action:
        """The character ``me`` chooses among ``slots`` for ``cdef``, activated on ``sim``."""
        side = sim.side(me, cdef) if cdef.target is not None else 1 - me
        key = sim.key()
        scored = [(self._link_value(sim, me, cdef, (side, s), key), -s) for s in slots]
        best = max(scored)
        return Action.of("slot", -best[1])

    # --- after the exchange ---------------------------------------------------------------

    def _on_tie(self, view: Json, legal: list[Action]) -> Action | None:
        # I defend: one of the opponent's attackers retreats; take its strongest.
        me = self._me(view)
        theirs = {slot: c for slot, c in self._chars(view, 1 - me)}
        slots = [int(a.args[0]) for a in self._by_verb(legal, "slot")]
        if not slots:
            return None
        best = max(
            slots,
            key=lambda s: (
                (int(theirs[s]["base"]), int(theirs[s]["lv"]), -s) if s in theirs else (-1, -1, -s)
            ),
        )
        return Action.of("slot", best)

    def _on_penalty(self, view: Json, legal: list[Action]) -> Action | None:
        me = self._me(view)
        hand = self._by_verb(legal, "exclude")
        if hand:
            counts = Counter(self._tactics_hand(view, me))

            def keep(action: Action) -> float:
                slug = str(action.args[0])
                return chain_card_value(card_def(slug)) - 1.0 * (counts[slug] - 1)

            return min(hand, key=keep)
        traps = self._by_verb(legal, "exclude-trap")
        if not traps:
            return None
        strategy = view["players"][me]["strategy"]

        def trap_value(action: Action) -> float:
            slot = strategy[int(action.args[0]) - 1]
            return chain_card_value(card_def(slot["slug"])) if slot and "slug" in slot else 0.0

        return min(traps, key=trap_value)

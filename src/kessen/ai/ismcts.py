"""Information-set Monte Carlo tree search over the engine contract, for any two-seat ruleset.

The search never sees a true game state. A player hands it its seat's *view* and the legal
actions; the ruleset's ``world_sampler`` turns the view into a source of *determinizations*
(complete, playable states that the seat cannot tell from the truth, hidden parts sampled
afresh for each iteration). Each iteration:

1. samples one determinization;
2. descends one shared tree (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012): a node
   is a sequence of actions from the root, and only the actions legal in *this* determinization
   compete, by UCB1 with availability counts (an action's exploration term counts the visits
   in which it was available, not all the parent's visits); another seat's action is keyed by
   what the searcher will see of it (``SearchHooks.observed``: a flipped card names the card);
3. adds one node, plays a short rollout with the ruleset's policy and asks the ruleset's
   evaluation for seat 0's chance to win;
4. backs the value up the path, each node scored from the seat that chose its action.

The answer is the most visited root action; :class:`SearchResult` carries the top candidates
with their visits and estimated win rates, the "why" of the choice (what the seat knows only).

A budget is a number of iterations and/or seconds. With an iteration budget the search is a
pure function of (view, legal, seed): the random generator is seeded from the player's seed and
the view's prompt id, so a seeded game replays the same decisions. The search stops before its
budget once the most visited root action leads every other by more than the iterations left
(:func:`_settled`): the answer is the one the whole budget gives, found sooner, so a level may
be given a large budget that it spends only on close decisions.
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json

#: Builds, from a seat's view and a seed, a function that returns the i-th sampled world.
WorldSampler = Callable[[Json, int], Callable[[int], GameState]]
#: Seat 0's chance to win from a state, in [0, 1] (two-seat, zero-sum).
Evaluate = Callable[[GameState], float]
#: Plays a state on in place for a while (it may stop anywhere).
Rollout = Callable[[GameState, random.Random], None]
#: Answers a decision without search (routine prompts), or ``None`` to search it.
Routine = Callable[[Json, Sequence[Action]], Action | None]
#: A fast policy's answer for the seat to act in a (sampled or simulated) state.
StatePrior = Callable[[GameState, list[Action]], Action | None]
#: What the searching seat will see of another seat's legal actions in a sampled world: one tree
#: key per action, in order (the list itself where the actions show everything).
Observed = Callable[[GameState, list[Action]], list[Action]]
#: A copy of a true state in which what *no* seat can see (the order of decks, say) is redealt
#: from a seed; every seat's view stays the same. Only the honesty control uses it.
RedealUnseen = Callable[[GameState, int], GameState]
#: What a seat keeps in mind across its decisions of one match, from its own views only: called
#: with each view it decides from and the notes so far (``None`` at first), returns the notes.
Remember = Callable[[Json, Any], Any]
#: The world sampler of a seat that keeps notes: :data:`WorldSampler` with the notes as well.
NotedSampler = Callable[[Json, int, Any], Callable[[int], GameState]]
#: How much of a draw a (finished or leaf) state is, in [0, 1]: 1 for a drawn game, something
#: between where a game's own draw rule is about to end it (for :attr:`SearchConfig.contempt`).
Drawish = Callable[[GameState], float]


@dataclass(frozen=True)
class SearchHooks:
    """What a ruleset provides to be searched: world sampling, evaluation and rollout."""

    world_sampler: WorldSampler
    evaluate: Evaluate
    rollout: Rollout
    routine: Routine | None = None
    #: A fast policy's answer from the view, favoured at the root by ``prior_weight``.
    prior: Routine | None = None
    #: The same policy inside the tree (either seat, from that seat's view of the sampled
    #: world), favoured at the nodes below the root by ``tree_prior_weight``.
    state_prior: StatePrior | None = None
    #: Keys the other seats' actions by what they reveal (say, which face-down card a "flip
    #: the card in slot 2" turns up), so that the tree branches on it and the searcher's later
    #: choices answer the card it will have seen, not an average over the cards it might be.
    observed: Observed | None = None
    #: Redeals what no seat can see, for the honesty control that reads the opponent's hidden
    #: cards but not the draws to come (:mod:`kessen.ai.cheater`); searches never call it.
    redeal_unseen: RedealUnseen | None = None
    #: How drawn a leaf is, for a searcher with contempt for draws (games with a draw rule).
    drawish: Drawish | None = None
    #: Notes a searcher keeps from the views of its earlier decisions (say, the moments the
    #: opponent passed with cards face down), and the sampler that deals worlds respecting them.
    #: Both or neither; a player that lost its notes (a restarted server) simply starts anew.
    remember: Remember | None = None
    noted_sampler: NotedSampler | None = None


@dataclass(frozen=True)
class Budget:
    """How long one decision may search: iterations, seconds, or both (whichever ends first).

    An iteration budget alone is deterministic; a time limit makes the count depend on the
    machine, so the strength levels use iterations and keep ``seconds`` as a safety cap.
    """

    iterations: int | None = 1000
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a budget needs iterations, seconds or both")


@dataclass(frozen=True)
class SearchConfig:
    """Search parameters: the budget and the UCB exploration constant."""

    budget: Budget = field(default_factory=Budget)
    exploration: float = 0.7
    #: PUCT-style bonus of the prior's action at the root: ``w * sqrt(available) / (1 + n)``.
    prior_weight: float = 0.0
    #: The same bonus below the root, for the action ``hooks.state_prior`` names at a node
    #: (asked once per node, in the world of its first visit as a decision); with it, a
    #: node's favoured action, the root's included, is also the first one it expands.
    tree_prior_weight: float = 0.0
    #: The bonus at the opponent's nodes instead, if given (a model of how the opponent plays).
    opponent_prior_weight: float | None = None
    #: Stop once no iteration left can change the answer (:func:`_settled`); off, the search
    #: runs its whole budget (the same answer, more visits: for tests and analyses).
    settle: bool = True
    #: What a draw costs the searching seat, in win chance (0: a draw is worth its one half).
    #: Its own nodes count a leaf as ``value - contempt * drawish(leaf)``; the opponent's keep
    #: the plain value, so the searcher plays on for a win where two even searches would let
    #: a draw rule end the game. Only where the hooks give ``drawish``.
    contempt: float = 0.0


@dataclass(frozen=True)
class Candidate:
    """One root action as the search saw it: visits and the deciding seat's mean value."""

    action: Action
    visits: int
    value: float

    def to_json(self) -> Json:
        """JSON form for the protocol: ``{"action": "attack 2", "visits": 310, "value": 0.64}``."""
        return {"action": str(self.action), "visits": self.visits, "value": round(self.value, 4)}


@dataclass(frozen=True)
class SearchResult:
    """The chosen action, every root candidate (most visited first) and what it cost."""

    action: Action
    candidates: tuple[Candidate, ...]
    iterations: int
    seconds: float

    def explanation(self, top: int = 3) -> list[Json]:
        """The top candidates as JSON, for the "why" of the move."""
        return [c.to_json() for c in self.candidates[:top]]


SETTLED_EVERY: Final = 7
"""The search checks every 8 iterations (a mask) whether its answer is settled."""


def _settled(children: dict[Action, Node], allowed: set[Action], remaining: int) -> bool:
    """Whether the most visited root action leads every other by more than the ``remaining``
    iterations: no iteration left can change the answer (each adds one visit to one root
    action), so the search stops early with the answer the whole budget would give."""
    first = second = 0
    for action, child in children.items():
        if action not in allowed:
            continue
        visits = child.visits
        if visits > first:
            first, second = visits, first
        elif visits > second:
            second = visits
    return first - second > remaining


MISTAKE_SALT: Final = 0x5EED_0F_511B
"""Mixed into the decision seed for a level's slips (a stream apart from the search's)."""

UNASKED = Action.of("?unasked")
"""Marks a node whose state prior has not been asked yet (never a legal action)."""


class Node:
    """A tree node: the action path from the root that leads here, with its statistics.

    ``seat`` is the seat that chose the action into this node; ``value`` sums that seat's
    results; ``available`` counts the visits of the parent in which this action was legal;
    ``favoured`` is the state prior's answer at this node (``UNASKED`` until first asked).
    """

    __slots__ = ("available", "children", "favoured", "seat", "value", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.value = 0.0
        self.available = 0
        self.children: dict[Action, Node] = {}
        self.favoured: Action | None = UNASKED


def decision_seed(seed: int, view: Json) -> int:
    """The per-decision seed: the player's seed mixed with the view's prompt id (if any)."""
    pending = view.get("pending") or {}
    key = f"{seed}:{pending.get('prompt_id', 0)}:{pending.get('prompt', '')}"
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")


def search(
    view: Json,
    legal: Sequence[Action],
    hooks: SearchHooks,
    config: SearchConfig,
    seed: int,
    sampler: Callable[[int], GameState] | None = None,
    notes: Any = None,
) -> SearchResult:
    """Search from ``view`` (the deciding seat's) and return the best of ``legal``.

    ``sampler`` overrides the ruleset's world sampler (the cheating experiment passes one that
    returns the true state); honest players never pass it. ``notes``: what the seat kept from
    its earlier views (:attr:`SearchHooks.remember`), for the ruleset's noted sampler.
    """
    start = time.perf_counter()
    actions = list(legal)
    if not actions:
        raise ValueError("no legal action to choose from")
    me: int = view["viewer"] if isinstance(view.get("viewer"), int) else 0
    if len(actions) == 1:
        only = Candidate(actions[0], 0, float("nan"))
        return SearchResult(actions[0], (only,), 0, time.perf_counter() - start)
    rng = random.Random(seed)
    if sampler is not None:
        sample = sampler
    elif notes is not None and hooks.noted_sampler is not None:
        sample = hooks.noted_sampler(view, rng.randrange(2**62), notes)
    else:
        sample = hooks.world_sampler(view, rng.randrange(2**62))
    evaluate, rollout, observed = hooks.evaluate, hooks.rollout, hooks.observed
    contempt = config.contempt
    drawish = hooks.drawish if contempt else None
    # Per root action (by its node's id), the contempt its values paid: the explanation shows
    # the plain win chance, the choice weighs the contempt.
    contempt_paid: dict[int, float] = {}
    root = Node(1 - me)
    allowed = set(actions)
    favoured: Action | None = None
    if config.prior_weight > 0 and hooks.prior is not None:
        favoured = hooks.prior(view, actions)
    weight = config.prior_weight
    tree_weight = config.tree_prior_weight
    their_weight = (
        config.opponent_prior_weight if config.opponent_prior_weight is not None else tree_weight
    )
    state_prior = hooks.state_prior if max(tree_weight, their_weight) > 0 else None
    budget = config.budget
    limit = budget.iterations if budget.iterations is not None else 1 << 62
    deadline = start + budget.seconds if budget.seconds is not None else math.inf
    c = config.exploration
    settle = config.settle and budget.iterations is not None
    log = math.log
    sqrt = math.sqrt
    done = 0
    while done < limit:
        if done and time.perf_counter() >= deadline:
            break
        if (
            settle
            and done & SETTLED_EVERY == 0
            and done
            and _settled(root.children, allowed, limit - done)
        ):
            break
        state = sample(done)
        node = root
        path = [root]
        first = True
        while True:
            pending = state.pending
            if pending is None:
                break
            options = actions if first else state.legal_actions()
            keys = options
            if observed is not None and pending.seat != me:
                keys = observed(state, options)
            children = node.children
            untried = [i for i, key in enumerate(keys) if key not in children]
            for key in keys:
                child = children.get(key)
                if child is not None:
                    child.available += 1
            if first:
                hint, bonus = favoured, weight
            elif state_prior is not None:
                if node.favoured is UNASKED:
                    node.favoured = state_prior(state, options) if len(options) > 1 else None
                hint = node.favoured
                bonus = tree_weight if pending.seat == me else their_weight
            else:
                hint, bonus = None, 0.0
            if untried:
                pick = -1
                if state_prior is not None and hint is not None:
                    pick = next((i for i in untried if options[i] == hint), -1)
                if pick < 0:
                    pick = untried[rng.randrange(len(untried))]
                child = Node(pending.seat)
                child.available = 1
                children[keys[pick]] = child
                state.apply(options[pick])
                path.append(child)
                break
            best = -1.0
            pick = 0
            for i, key in enumerate(keys):
                child = children[key]
                score = child.value / child.visits + c * sqrt(log(child.available) / child.visits)
                if options[i] == hint:
                    score += bonus * sqrt(child.available) / (1 + child.visits)
                if score > best:
                    best, pick = score, i
            node = children[keys[pick]]
            state.apply(options[pick])
            path.append(node)
            first = False
        if state.pending is not None:
            rollout(state, rng)
        v0 = evaluate(state)
        cost = contempt * drawish(state) if drawish is not None else 0.0
        if cost:
            through = id(path[1])  # the root action this iteration went through
            contempt_paid[through] = contempt_paid.get(through, 0.0) + cost
        for node in path:
            node.visits += 1
            node.value += (v0 if node.seat == 0 else 1.0 - v0) - (cost if node.seat == me else 0.0)
        done += 1
    candidates = sorted(
        (
            Candidate(
                a,
                child.visits,
                (child.value + contempt_paid.get(id(child), 0.0)) / child.visits
                if child.visits
                else 0.0,
            )
            for a, child in root.children.items()
            if a in allowed
        ),
        key=lambda cand: (-cand.visits, -cand.value, actions.index(cand.action)),
    )
    chosen = candidates[0].action if candidates else actions[0]
    return SearchResult(chosen, tuple(candidates), done, time.perf_counter() - start)


class SearchPlayer:
    """A COM player that searches from its own view only (see :func:`search`).

    After each ``choose`` the reasons are in ``last_explanation`` (top candidates with visits
    and estimated win rates) and the whole :class:`SearchResult` in ``last_result``.

    ``mistakes``: the share of searched decisions in which it plays a legal action drawn at
    random instead of the search's answer (the easiest level's slips, where a small search
    alone already beats the rule-based COM); the draw is seeded like the search, so a seeded
    game still replays, and the explanation still shows what the search found.

    With :attr:`SearchHooks.remember` it keeps notes from each view it is shown (one player per
    seat and match), and its worlds respect them.
    """

    def __init__(
        self,
        name: str,
        hooks: SearchHooks,
        config: SearchConfig,
        seed: int = 0,
        top: int = 3,
        mistakes: float = 0.0,
    ) -> None:
        self.name = name
        self.hooks = hooks
        self.config = config
        self.seed = seed
        self.top = top
        self.mistakes = mistakes
        self.last_result: SearchResult | None = None
        self.last_explanation: list[Json] = []
        self.notes: Any = None

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        """Search from ``view`` and return the most visited legal action.

        A prompt the ruleset calls routine (``hooks.routine``) is answered without search.
        """
        if self.hooks.remember is not None:
            self.notes = self.hooks.remember(view, self.notes)
        if self.hooks.routine is not None and len(legal) > 1:
            action = self.hooks.routine(view, legal)
            if action is not None and action in legal:
                self.last_result = None
                self.last_explanation = [
                    {"action": str(action), "visits": 0, "value": None, "by": "rule"}
                ]
                return action
        try:
            result = search(
                view,
                legal,
                self.hooks,
                self.config,
                decision_seed(self.seed, view),
                notes=self.notes,
            )
        except ValueError as err:  # a view the ruleset cannot rebuild: answer, don't crash
            action = self.hooks.prior(view, legal) if self.hooks.prior is not None else None
            action = action if action is not None and action in legal else legal[0]
            self.last_result = None
            self.last_explanation = [
                {"action": str(action), "visits": 0, "value": None, "by": f"fallback: {err}"}
            ]
            return action
        self.last_result = result
        self.last_explanation = result.explanation(self.top)
        if self.mistakes > 0:
            slip = random.Random(decision_seed(self.seed, view) ^ MISTAKE_SALT)
            if slip.random() < self.mistakes:
                return legal[slip.randrange(len(legal))]
        return result.action

    def explain(self) -> list[Json]:
        """The "why" of the last choice: top candidates with visits and win-rate estimates."""
        return list(self.last_explanation)


def hooks_for(ruleset: str, deep: bool = False) -> SearchHooks:
    """The search hooks a ruleset publishes as ``kessen.games.<ruleset>.worlds.search_hooks``.

    ``deep`` asks for the ruleset's deeper (slower, stronger) model where it has one.
    """
    import importlib

    module: Any = importlib.import_module(f"kessen.games.{ruleset}.worlds")
    hooks = module.search_hooks(deep=deep)
    if not isinstance(hooks, SearchHooks):
        raise TypeError(f"{ruleset}: search_hooks() must return SearchHooks")
    return hooks

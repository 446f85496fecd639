#!/usr/bin/env python3
"""Probe a variant of the strongest Kōbō level against the heuristic COM on the tournament's deals.

A variant changes one or more settings of the committed model in the worker processes before
they play (so the committed code stays as it is), then plays the tournament's pairs of
best-of-three matches (``kessen.ai.tournament.pair_jobs``: seed 2026, mirror decks, seats
swapped) of ``ismcts-strong`` against ``heuristic`` and prints the win rate with its Wilson 95%
interval, as one JSON line. Settings, joined with ``+``:

- ``iterations=N``: the search budget of つよい (1500 committed);
- ``exploration=X``: the UCB exploration constant of つよい (0.25 committed);
- ``turns=N``: the deep model's rollout length in turns (``DEEP_TURNS``, 2 committed);
- ``epsilon=X``: the share of random deviations in rollouts (``EPSILON``, 0.1 committed);
- ``search=PROMPT``: the search decides ``PROMPT`` instead of leaving it to the heuristic COM
  (one of ``ROUTINE_PROMPTS``: ``standby``, ``set``, ``deploy_target``, ``tactics`` …);
- ``standby-heuristic``: rollouts that start in the standby finish it with the heuristic COM's
  answers instead of the cheap random policy (for ``search=…`` of standby prompts);
- ``prior=X``: the weight of the heuristic COM's answer at the root (``prior_weight``, 0.3
  committed);
- ``tree-prior=X``: the heuristic COM's answer favoured at every node below the root too, with
  weight ``X`` (``tree_prior_weight``; committed 0.5 in Kōbō, ``levels.STRONG_TREE_PRIORS``,
  since 2026-12-07; ``tree-prior=0`` plays the earlier search; the root's ``prior_weight`` is 0.3);
- ``opponent-prior=X``: another weight at the opponent's nodes (``opponent_prior_weight``);
- ``key-reveals=0|1``: whether the tree keys the opponent's trap flips by the card they show
  (``search_worlds.KEY_REVEALS``, 1 committed; 0 plays the search of the earlier measurements);
- ``trap-model=X``: sampled worlds deal the opponent's face-down traps favouring strong ones,
  ``card_value ** X`` (``TRAP_MODEL_POWER``, 0 committed: uniform);
- ``trap-inference=0|1``: whether sampled worlds deal the opponent's face-down traps among
  those worth at least the best trap it discarded in its standby (``search_worlds.TRAP_INFERENCE``,
  1 committed; 0: uniformly, as in the earlier measurements);
- ``pass-inference=0|1``: whether a sampled world in which the opponent, who has just passed
  in the chain, would have answered by the heuristic COM's chain rule is redealt
  (``search_worlds.PASS_INFERENCE``, 1 committed; 0: every world kept, as in the earlier
  measurements);
- ``planned-standby=0|1``: whether つよい sets its traps and takes its tactics hand by the
  fitted plan (``search_worlds.PLANNED_STANDBY``, 1 committed; 0: the heuristic COM's standby, as in
  the earlier measurements);
- ``hand-model=X``: in a share ``X`` of the deep model's sampled worlds the opponent's tactics
  hand is the one the heuristic COM's rule would have taken from its public list, less what it
  has shown since (``search_worlds.HAND_MODEL_SHARE``, 1 committed; 0: the value-weighted draw,
  as in the earlier measurements);
- ``pass-memory=0|1``: whether the deep model remembers the opponent's past passes in the
  chain over its face-down traps and deals, in those slots, traps it would not have flipped
  (``pass_memory.PASS_MEMORY``, 1 committed; 0: each pass counts only at the decision right
  after it, as in the earlier measurements); ``tactics-memory=0|1``: whether those notes also
  bound the opponent's tactics hand (``pass_memory.TACTICS_MEMORY``, 1 committed; 0: its
  face-down traps only);
- ``cheater=true-state``: probe the cheating control instead of つよい (``cheater-ismcts-strong``:
  it reads the true state, the decks' order included); ``cheater=decks-unknown``: the peeking
  control (``peeker-ismcts-strong``: the true state with the order of every deck redealt in
  each world, so it knows both hands and the face-down traps, not the draws to come), which
  splits the cost of honesty into what the opponent holds and what the decks hold;
- ``value-net=0|1``: whether the deep model judges its leaves with the value network
  (``evaluate.VALUE_NET``, :mod:`kessen.games.kobo.value_model`; 1 committed; 0: the
  logistic curve, as in the earlier measurements);
- ``worlds=K``: perfect-information sampling instead of one shared tree: K worlds sampled from
  the view (the deep model's sampler, inferences included), each searched alone as the
  cheater searches the true state, with a K-th of the budget, and the root visits summed
  (measured on 2026-12-06, not kept);
- ``committed``: nothing changed (the baseline on the same deals).

Usage::

    .venv/bin/python bench/strong_variants.py committed --pairs 20
    .venv/bin/python bench/strong_variants.py iterations=500 --pairs 20
    .venv/bin/python bench/strong_variants.py \\
        standby-heuristic+search=standby+search=set+search=deploy_target+search=tactics
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from kessen.ai import levels, tournament
from kessen.ai.cheater import CheatingPlayer
from kessen.ai.ismcts import SearchPlayer, decision_seed
from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.kobo import evaluate, pass_memory, search_worlds

STANDBY_PROMPTS = frozenset(
    {"standby", "place", "set", "deploy", "deploy_target", "nominate", "tactics"}
)
"""The standby prompts ``standby-heuristic`` hands to the heuristic COM inside rollouts."""


def _change_strong(**changes: Any) -> None:
    """Replace fields of the ``ismcts-strong`` level, in this process."""
    levels.LEVELS = tuple(
        dataclasses.replace(level, **changes) if level.key == "ismcts-strong" else level
        for level in levels.LEVELS
    )


def apply_variant(variant: str) -> None:
    """Change the settings ``variant`` names, in this process."""
    for setting in variant.split("+"):
        name, _, value = setting.partition("=")
        if name == "committed":
            continue
        if name == "iterations":
            _change_strong(iterations=int(value))
        elif name == "exploration":
            _change_strong(exploration=float(value))
        elif name == "prior":
            _change_strong(prior_weight=float(value))
        elif name in ("tree-prior", "opponent-prior"):
            if name == "tree-prior":  # in every ruleset, Kōbō's committed weight included
                _change_strong(tree_prior_weight=float(value), tree_priors=())
            else:
                _change_strong(opponent_prior_weight=float(value))
        elif name == "key-reveals":
            search_worlds.KEY_REVEALS = bool(int(value))
        elif name == "trap-inference":
            search_worlds.TRAP_INFERENCE = bool(int(value))
        elif name == "pass-inference":
            search_worlds.PASS_INFERENCE = bool(int(value))
        elif name == "planned-standby":
            search_worlds.PLANNED_STANDBY = bool(int(value))
        elif name == "hand-model":
            search_worlds.HAND_MODEL_SHARE = float(value)
        elif name == "pass-memory":
            pass_memory.PASS_MEMORY = bool(int(value))
        elif name == "tactics-memory":
            pass_memory.TACTICS_MEMORY = bool(int(value))
        elif name == "cheater":
            if value not in ("true-state", "decks-unknown"):
                raise ValueError(f"cheater={value!r}: true-state or decks-unknown")
            global LEFT
            LEFT = "cheater-ismcts-strong" if value == "true-state" else "peeker-ismcts-strong"
        elif name == "trap-model":
            search_worlds.TRAP_MODEL_POWER = float(value)
        elif name == "turns":
            evaluate.DEEP_TURNS = int(value)
        elif name == "value-net":
            evaluate.VALUE_NET = bool(int(value))
        elif name == "epsilon":
            evaluate.EPSILON = float(value)
        elif name == "worlds":
            _SampledWorldsPlayer.worlds = int(value)
            levels.SearchPlayer = _SampledWorldsPlayer  # type: ignore[attr-defined,assignment]
        elif name == "search":
            if value not in evaluate.ROUTINE_PROMPTS:
                raise ValueError(f"{value!r} is not a routine prompt")
            evaluate.ROUTINE_PROMPTS = frozenset(evaluate.ROUTINE_PROMPTS - {value})
        elif name == "standby-heuristic":
            evaluate.HEURISTIC_PROMPTS = frozenset(evaluate.HEURISTIC_PROMPTS | STANDBY_PROMPTS)
        else:
            raise ValueError(f"unknown setting {setting!r}")


class _SampledWorldsPlayer:
    """``worlds=K``: つよい searches K worlds sampled from its view, each as the cheater searches
    the true state (:class:`kessen.ai.cheater.CheatingPlayer` bound to that world, a K-th of
    the budget), and plays the action with the most visits in all. Built where the levels build
    a :class:`SearchPlayer`; the other levels play the plain search."""

    worlds = 1

    def __init__(self, name: str, hooks: Any, config: Any, seed: int = 0, **rest: Any) -> None:
        self.inner = SearchPlayer(name, hooks, config, seed, **rest)
        self.name, self.hooks, self.config, self.seed = name, hooks, config, seed
        self.last_result: Any = None

    def explain(self) -> list[Json]:
        """The plain search's reasons (this probe keeps none of its own)."""
        return self.inner.explain()

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        """The summed visits of K one-world searches (other levels: the plain search)."""
        if self.name != "ismcts-strong" or self.worlds < 2 or len(legal) < 2:
            action = self.inner.choose(view, legal)
            self.last_result = self.inner.last_result
            return action
        budget = self.config.budget
        share = dataclasses.replace(
            budget,
            iterations=max(1, (budget.iterations or 1) // self.worlds),
            seconds=None if budget.seconds is None else budget.seconds / self.worlds,
        )
        config = dataclasses.replace(self.config, budget=share)
        sampled = self.hooks.world_sampler(view, decision_seed(self.seed, view))
        visits: dict[Action, int] = dict.fromkeys(legal, 0)
        for k in range(self.worlds):
            searcher = CheatingPlayer(self.name, self.hooks, config, self.seed + k)
            searcher.bind(sampled(k))
            action = searcher.choose(view, legal)
            self.last_result = searcher.last_result
            if self.last_result is None:  # a routine prompt, answered by rule
                return action
            for candidate in self.last_result.candidates:
                visits[candidate.action] += candidate.visits
        return max(legal, key=visits.__getitem__)


LEFT = "ismcts-strong"
"""The player whose variant is probed (``cheater=…`` makes it a cheating control)."""


def play(variant: str, job: tournament.Job) -> tuple[int, int, int, list[float]]:
    """One match of the variant: games won and lost, ties, and the variant's decision times."""
    apply_variant(variant)
    result = tournament.play_match(job)
    return result.games_a, result.games_b, result.ties, result.times_a


def main(argv: list[str] | None = None) -> int:
    """Play the variant's matches and print one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", help="settings joined with +, or 'committed'")
    tournament.add_deal_arguments(parser)
    args = parser.parse_args(argv)
    apply_variant(args.variant)  # refuse an unknown setting before playing
    jobs = tournament.dealt_jobs(LEFT, "heuristic", args)
    began = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(play, [args.variant] * len(jobs), jobs))
    won = sum(r[0] for r in results)
    lost = sum(r[1] for r in results)
    ties = sum(r[2] for r in results)
    times = [t for r in results for t in r[3]]
    score = won + 0.5 * ties
    low, high = tournament.wilson(score, won + lost + ties)
    print(
        json.dumps(
            {
                "variant": args.variant,
                "pairs": [args.start, args.start + args.pairs],
                "deck": args.deck,
                "won": won,
                "lost": lost,
                "ties": ties,
                "rate": round(score / max(1, won + lost + ties), 4),
                "ci95": [round(low, 3), round(high, 3)],
                "mean_s": round(sum(times) / max(1, len(times)), 3),
                "max_s": round(max(times, default=0.0), 2),
                "minutes": round((time.perf_counter() - began) / 60, 1),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

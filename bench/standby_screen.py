#!/usr/bin/env python3
"""Screen the strongest COM's standby plan: the plan's seat against the heuristic COM's standby.

Both seats are the heuristic COM in every exchange; one seat answers the standby's trap and
tactics-hand prompts with the plan of :mod:`kessen.games.kobo.standby` (or a variant of it),
the other with the heuristic COM's own choices. The heuristic COM decides in microseconds, so
thousands of games take seconds and the figure is precise (±1.4 points at 5,000 games), which
no probe of the search level can be at its cost. Deals: pairs of one-game matches with the
seats swapped on the same mirror deck and seed (``tournament.pair_jobs``, seed 77 by default,
not the tournament's 2026). A tied game is replayed, as the rules say, and counts half.
Settings, joined with ``+``:

- ``plan``: the committed plan;
- ``trap-worth=X``, ``max-traps=N``, ``same-card=X``, ``same-role=X``: the plan with one of
  its constants changed;
- ``traps=heuristic`` / ``tactics=heuristic``: that half of the plan replaced by the heuristic
  COM's choice (to see what each half gives);
- ``net-tactics=first`` / ``net-tactics=all``: the tactics hand taken one card at a time by
  the value network's judgement (of the first player, or of both seats);
- ``mc-standby=first``: the first player's main-standby choices tried in sampled worlds, each
  finished by the plan against the heuristic COM and judged by the value network at the first
  turn (``net-worlds=N`` worlds per choice for either, 8 by default);
- ``heuristic``: the heuristic COM's standby in both seats (50% by symmetry: a check).

Usage::

    .venv/bin/python bench/standby_screen.py plan --pairs 2500
    .venv/bin/python bench/standby_screen.py plan+tactics=heuristic --pairs 2500
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from kessen.ai import tournament
from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.kobo import standby
from kessen.games.kobo.heuristic import HeuristicPlayer


class _Screened(standby.PlannedStandby):
    """The plan, with either half optionally handed back to the heuristic COM."""

    def __init__(self, seed: int, traps: bool, tactics: bool) -> None:
        super().__init__(seed)
        self.traps, self.tactics = traps, tactics

    def _on_set(self, view: Json, legal: list[Action]) -> Action | None:
        if self.traps:
            return super()._on_set(view, legal)
        return HeuristicPlayer._on_set(self, view, legal)

    def tactic_worth(self, slug: str, copies: Counter[str], roles: Counter[str]) -> float:
        if self.tactics:
            return super().tactic_worth(slug, copies, roles)
        return HeuristicPlayer.tactic_worth(self, slug, copies, roles)


class _NetTactics(_Screened):
    """The plan, its tactics hand taken one card at a time by the value network's judgement of
    the board right after the take, averaged over worlds sampled from the view (``who``: the
    first player only, or both seats)."""

    def __init__(self, seed: int, traps: bool, tactics: bool, who: str, worlds: int) -> None:
        super().__init__(seed, traps, tactics)
        self.who, self.worlds = who, worlds

    def _on_tactics(self, view: Json, legal: list[Action]) -> Action | None:
        from kessen.games.kobo import value_model
        from kessen.games.kobo.worlds import world_from_view

        me = self._me(view)
        if self.who == "first" and view["first_player"] != me:
            return super()._on_tactics(view, legal)
        takes = self._by_verb(legal, "take")
        if len(takes) < 2:
            return super()._on_tactics(view, legal)
        totals = dict.fromkeys(takes, 0.0)
        for k in range(self.worlds):
            world = world_from_view(view, self.seed * 1_000 + k)
            for take in takes:
                trial = world.clone()
                trial.apply(take)
                chance = value_model.net_odds(trial)
                totals[take] += chance if me == 0 else 1.0 - chance
        return max(takes, key=lambda t: totals[t])


class _MonteCarloStandby(_Screened):
    """The plan, but the first player's main-standby choices (the card to process next, where a
    trap goes or whether it is discarded, a deploy card used or not, its target, the
    nomination) are each tried in ``worlds`` worlds sampled from the view: the standby is
    finished in each (the plan for this seat, the heuristic COM for the other) and the value
    network judges the first turn's position; the best average wins."""

    PROMPTS = frozenset({"standby", "set", "deploy", "deploy_target", "nominate"})

    def __init__(self, seed: int, traps: bool, tactics: bool, worlds: int) -> None:
        super().__init__(seed, traps, tactics)
        self.worlds = worlds
        self.calls = 0

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        from kessen.games.kobo import value_model
        from kessen.games.kobo.worlds import world_from_view

        pending = view.get("pending") or {}
        me = self._me(view)
        if (
            pending.get("prompt") not in self.PROMPTS
            or len(legal) < 2
            or view.get("first_player") != me
        ):
            return super().choose(view, legal)
        self.calls += 1
        planner = _Screened(self.seed, self.traps, self.tactics)
        other = HeuristicPlayer(self.seed + 1)
        totals = dict.fromkeys(legal, 0.0)
        for k in range(self.worlds):
            world = world_from_view(view, self.seed * 100_003 + self.calls * 101 + k)
            for action in legal:
                trial = world.clone()
                trial.apply(action)
                games = len(trial.results)
                while (
                    (waiting := trial.pending) is not None
                    and waiting.prompt != "turn"
                    and len(trial.results) == games
                ):
                    player = planner if waiting.seat == me else other
                    options = trial.legal_actions()
                    trial.apply(player.choose(trial.view(waiting.seat), options))
                if trial.pending is None or len(trial.results) != games:
                    continue  # the game ended in the standby: no judgement
                chance = value_model.net_odds(trial)
                totals[action] += chance if me == 0 else 1.0 - chance
        return max(legal, key=lambda a: totals[a])


CONSTANTS = {
    "trap-worth": ("TRAP_WORTH", float),
    "max-traps": ("MAX_TRAPS", int),
    "same-card": ("SAME_CARD", float),
    "same-role": ("SAME_ROLE", float),
}


def _player(variant: str, seed: int) -> HeuristicPlayer:
    """The screened seat's player for ``variant`` (constants are set in this process)."""
    traps = tactics = True
    net_who, net_worlds = "", 8
    monte_carlo = False
    for setting in variant.split("+"):
        name, _, value = setting.partition("=")
        if name == "heuristic":
            return HeuristicPlayer(seed)
        if name in CONSTANTS:
            attribute, kind = CONSTANTS[name]
            setattr(standby, attribute, kind(value))
        elif name == "traps" and value == "heuristic":
            traps = False
        elif name == "tactics" and value == "heuristic":
            tactics = False
        elif name == "net-tactics" and value in ("first", "all"):
            net_who = value
        elif name == "mc-standby" and value == "first":
            monte_carlo = True
        elif name == "net-worlds":
            net_worlds = int(value)
        elif name != "plan":
            raise SystemExit(f"unknown setting {setting!r}")
    if monte_carlo:
        return _MonteCarloStandby(seed, traps, tactics, net_worlds)
    if net_who:
        return _NetTactics(seed, traps, tactics, net_who, net_worlds)
    return _Screened(seed, traps, tactics)


def _play(job: tournament.Job, variant: str) -> tuple[str, list[float]]:
    """One match of the screened seat against the heuristic COM: its score in each game."""
    rules = registry.get("kobo")
    config = dict(rules.default_config)
    config["decks"] = list(job.decks)
    config["best_of"] = job.best_of
    state = rules.new_game(config, job.seed)
    players = {
        job.a_seat: _player(variant, job.seed * 2 + job.a_seat),
        1 - job.a_seat: HeuristicPlayer(job.seed * 2 + 1 - job.a_seat),
    }
    while (pending := state.pending) is not None:
        legal = state.legal_actions()
        state.apply(players[pending.seat].choose(state.view(pending.seat), legal))
    scores = [
        1.0 if winner == job.a_seat else 0.0 if winner == 1 - job.a_seat else 0.5
        for winner, _reason, _turns in state.results  # type: ignore[attr-defined]
    ]
    return job.decks[0], scores


def _play_packed(packed: tuple[tournament.Job, str]) -> tuple[str, list[float]]:
    return _play(*packed)


def main(argv: list[str] | None = None) -> int:
    """Play the deals and print one JSON line: games, win rate, Wilson interval, by deck."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", help="settings joined with '+' (see the module)")
    parser.add_argument("--pairs", type=int, default=2500, help="pairs of matches")
    parser.add_argument("--seed", type=int, default=77, help="the deals' seed")
    parser.add_argument("--best-of", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    _player(args.variant, 0)  # reject a bad setting before starting the workers
    jobs = [
        job
        for index in range(args.pairs)
        for job in tournament.pair_jobs(
            "kobo", "plan", "heuristic", index, args.best_of, 0.0, args.seed, True
        )
    ]
    started = time.perf_counter()
    scores: list[float] = []
    by_deck: dict[str, list[float]] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        packed = [(job, args.variant) for job in jobs]
        for deck, out in pool.map(_play_packed, packed, chunksize=8):
            scores += out
            by_deck.setdefault(deck, []).extend(out)
    won = sum(scores)
    low, high = tournament.wilson(won, len(scores))
    print(
        json.dumps(
            {
                "variant": args.variant,
                "games": len(scores),
                "rate": round(won / len(scores), 4),
                "ci95": [round(low, 4), round(high, 4)],
                "by_deck": {d: round(sum(v) / len(v), 3) for d, v in sorted(by_deck.items())},
                "seconds": round(time.perf_counter() - started, 1),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Tournaments between COM players: win rates with Wilson 95% intervals, on two processes.

Each matchup plays matches until at least ``--games`` games are finished: best-of-N matches
for a ruleset whose config has ``best_of`` (Kōbō), single games otherwise (``--ruleset twgp``,
default switches). Matches come in pairs with the same decks (where the ruleset has decks) and
the same game seed, seats swapped, so neither side profits from the seat or the deal. Every
player decides from its own view, except the two that are *meant* to see more, each only in
its own experiment:

- ``cheater-<level>``: the search of ``<level>`` reading the true state, the order of the decks
  included (see :mod:`kessen.ai.cheater`), to measure the cost of honesty; ``peeker-<level>``:
  the same, but with what no seat can see (the order of the decks) redealt in every world, so
  it peeks at the opponent's hidden cards and knows no draw to come;
- ``openspiel-ismcts``: OpenSpiel's own IS-MCTS bot on our game through
  :mod:`kessen.interop.openspiel`; it gets the true state *object* as OpenSpiel bots do, and
  only ever reads it through ``resample_from_infostate`` (our honest resampler);
  ``openspiel-ismcts-eval`` is the same bot with our rollout and evaluation as its evaluator.

A level may be given another iteration budget as ``KEY=ITERATIONS`` (``ismcts-strong=2000``,
``cheater-ismcts-strong=2000``): what a bigger budget buys, measured on the same deals.

Usage (the lead wires it as ``kessen tournament``)::

    python -m kessen.ai.tournament --suite levels --suite honesty --suite peer --json out.json
    python -m kessen.ai.tournament --match ismcts-strong:heuristic --games 200
    python -m kessen.ai.tournament --ruleset twgp --match ismcts-normal:heuristic@60

Results are written after every match, so an interrupted run still leaves its figures.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from kessen.engine import registry
from kessen.engine.contract import GameState, Json
from kessen.engine.players import Player
from kessen.processes import leave_with_owner

Z95 = 1.959963984540054

SUITES: dict[str, list[str]] = {
    "levels": [
        "ismcts-strong:heuristic@200",
        "ismcts-strong:random@200",
        "ismcts-normal:heuristic@100",
        "ismcts-easy:heuristic@100",
        "ismcts-normal:random@60",
        "ismcts-easy:random@60",
        "ismcts-strong:ismcts-normal@60",
        "ismcts-normal:ismcts-easy@60",
        "heuristic:random@100",
    ],
    "honesty": ["cheater-ismcts-strong:heuristic@200", "peeker-ismcts-strong:heuristic@200"],
    "peer": ["ismcts-strong:openspiel-ismcts@100", "ismcts-strong:openspiel-ismcts-eval@100"],
}
"""Named sets of matchups (``a:b@games``; the win rate is ``a``'s). ``--games`` overrides the
per-matchup goals when given explicitly."""


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (``successes`` may be fractional)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Job:
    """One match to play: the two player names, who sits in seat 0, decks and seeds."""

    ruleset: str
    a: str
    b: str
    a_seat: int
    decks: tuple[str, str]
    seed: int
    best_of: int
    peer_seconds: float


@dataclass
class MatchResult:
    """What one match gave: game results seen from ``a``, the match winner, decision times."""

    a: str
    b: str
    games_a: int = 0
    games_b: int = 0
    ties: int = 0
    match_a: bool = False
    match_b: bool = False
    times_a: list[float] = field(default_factory=list)
    times_b: list[float] = field(default_factory=list)
    #: The times of the decisions a search player searched (not those it answered by rule).
    searched_a: list[float] = field(default_factory=list)
    searched_b: list[float] = field(default_factory=list)


def _build(name: str, ruleset: str, seed: int, peer_seconds: float) -> Player:
    """A player by name: a registry COM, a search level, a cheating control, or OpenSpiel's
    bot."""
    from kessen.ai import levels

    control, _, level_key = name.partition("-")
    if control in ("cheater", "peeker") and level_key:
        from kessen.ai.cheater import CheatingPlayer
        from kessen.ai.ismcts import hooks_for

        chosen = levels.variant(level_key)
        hooks = hooks_for(ruleset, deep=chosen.deep)
        knows_draws = control == "cheater"
        return CheatingPlayer(
            name, hooks, chosen.config(ruleset=ruleset), seed, knows_draws=knows_draws
        )
    if name in ("openspiel-ismcts", "openspiel-ismcts-eval"):
        from kessen.interop.openspiel import OpenSpielISMCTSPlayer

        return OpenSpielISMCTSPlayer(
            seed=seed, seconds=peer_seconds, our_evaluator=name.endswith("-eval")
        )
    if any(item.key == re.split("[=%]", name)[0] for item in levels.LEVELS):
        return levels.make_player(ruleset, name, seed)
    rules = registry.get(ruleset)
    if name not in rules.players:
        raise KeyError(f"unknown player {name!r}")
    return rules.players[name](seed)


def play_match(job: Job, observe: Callable[[GameState], None] | None = None) -> MatchResult:
    """Play one match of ``job`` and report it from ``job.a``'s side.

    ``observe`` (for analyses, never for players) is called with the true state before every
    decision and once more when the match is over.
    """
    rules = registry.get(job.ruleset)
    config = dict(rules.default_config)
    if "decks" in config:
        config["decks"] = list(job.decks)
    if "best_of" in config:
        config["best_of"] = job.best_of
    state: GameState = rules.new_game(config, job.seed)
    seats = {job.a_seat: job.a, 1 - job.a_seat: job.b}
    players = {
        seat: _build(name, job.ruleset, job.seed * 2 + seat, job.peer_seconds)
        for seat, name in seats.items()
    }
    result = MatchResult(job.a, job.b)
    # A peer given ``peer_seconds <= 0`` matches its opponent: each move gets the mean time
    # the opponent has spent per decision so far in this match.
    spent_by = {0: [0.0, 0], 1: [0.0, 0]}
    while (pending := state.pending) is not None:
        seat = pending.seat
        player = players[seat]
        bind = getattr(player, "bind", None)
        if bind is not None:
            bind(state)
        if job.peer_seconds <= 0 and seats[seat].startswith("openspiel-ismcts"):
            total, count = spent_by[1 - seat]
            player.seconds = total / count if count else 0.3  # type: ignore[attr-defined]
        if observe is not None:
            observe(state)
        legal = state.legal_actions()
        start = time.perf_counter()
        action = player.choose(state.decision_view(seat), legal)
        spent = time.perf_counter() - start
        if len(legal) > 1:
            (result.times_a if seat == job.a_seat else result.times_b).append(spent)
            if getattr(player, "last_result", None) is not None:
                (result.searched_a if seat == job.a_seat else result.searched_b).append(spent)
            spent_by[seat][0] += spent
            spent_by[seat][1] += 1
        state.apply(action)
    if observe is not None:
        observe(state)
    outcome = state.outcome
    winners: list[int | None] = [w for w, _reason, _turns in getattr(state, "results", [])]
    if not hasattr(state, "results") and outcome is not None:  # a one-game ruleset
        winners = [outcome.winner]
    for winner in winners:
        if winner == job.a_seat:
            result.games_a += 1
        elif winner == 1 - job.a_seat:
            result.games_b += 1
        else:
            result.ties += 1
    if outcome is not None and outcome.winner is not None:
        result.match_a = outcome.winner == job.a_seat
        result.match_b = not result.match_a
    return result


@dataclass
class Tally:
    """The running totals of one matchup."""

    a: str
    b: str
    games: int = 0
    a_games: int = 0
    b_games: int = 0
    ties: int = 0
    matches: int = 0
    a_matches: int = 0
    b_matches: int = 0
    times_a: list[float] = field(default_factory=list)
    times_b: list[float] = field(default_factory=list)
    searched_a: list[float] = field(default_factory=list)
    searched_b: list[float] = field(default_factory=list)

    def add(self, r: MatchResult) -> None:
        """Count one match."""
        self.games += r.games_a + r.games_b + r.ties
        self.a_games += r.games_a
        self.b_games += r.games_b
        self.ties += r.ties
        self.matches += 1
        self.a_matches += r.match_a
        self.b_matches += r.match_b
        self.times_a += r.times_a
        self.times_b += r.times_b
        self.searched_a += r.searched_a
        self.searched_b += r.searched_b

    def restore(self, old: Json) -> None:
        """Start from the counts of an earlier run's summary (decision times start afresh)."""
        self.games, self.a_games, self.b_games = old["games"], old["a_games"], old["b_games"]
        self.ties, self.matches, self.a_matches = old["ties"], old["matches"], old["a_matches"]
        self.b_matches = old.get("b_matches", self.matches - self.a_matches)

    def summary(self) -> Json:
        """Win rate of ``a`` in games (ties count half) with its Wilson 95% interval."""
        score = self.a_games + 0.5 * self.ties
        lo, hi = wilson(score, self.games)
        mlo, mhi = wilson(self.a_matches, self.matches)

        def times(values: list[float]) -> Json:
            if not values:
                return {"decisions": 0}
            ordered = sorted(values)
            return {
                "decisions": len(values),
                "mean_s": round(statistics.fmean(values), 4),
                "p99_s": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 4),
                "max_s": round(ordered[-1], 4),
            }

        return {
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "a_games": self.a_games,
            "b_games": self.b_games,
            "ties": self.ties,
            "rate": round(score / self.games, 4) if self.games else None,
            "ci95": [round(lo, 4), round(hi, 4)],
            "matches": self.matches,
            "a_matches": self.a_matches,
            "b_matches": self.b_matches,
            "match_rate": round(self.a_matches / self.matches, 4) if self.matches else None,
            "match_ci95": [round(mlo, 4), round(mhi, 4)],
            "time_a": times(self.times_a),
            "searched_a": times(self.searched_a),
            "time_b": times(self.times_b),
            "searched_b": times(self.searched_b),
        }


def pair_jobs(
    ruleset: str,
    a: str,
    b: str,
    index: int,
    best_of: int,
    peer_seconds: float,
    base: int,
    mirror: bool,
) -> list[Job]:
    """The ``index``-th pair of matches of ``a`` vs ``b``: same deal, seats swapped.

    ``mirror``: both seats play the same (random) starter deck, so the figure measures the
    players and not the decks (the starter decks are far from balanced). A ruleset without
    decks in its config (TWGP: each seat's pool is fixed) gets only the seed; the others deal
    from their own starter decks (Kōbō's four, Project Maken's four characters).
    """
    rng = random.Random(f"{base}:{index}")  # the same deals for every matchup
    decks = ("", "")
    rules = registry.get(ruleset)
    if "decks" in rules.default_config:
        names = sorted(rules.catalog("en").get("decks") or {})
        first = rng.choice(names)
        decks = (first, first) if mirror else (first, rng.choice(names))
    seed = rng.randrange(2**31)
    return [
        Job(ruleset, a, b, seat, decks, seed, best_of, peer_seconds)
        for seat in (index % 2, 1 - index % 2)
    ]


def add_deal_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options that pick the tournament's deals a probe plays: ``--pairs``,
    ``--start``, ``--seed``, ``--deck`` (and ``--workers``, its processes)."""
    parser.add_argument("--pairs", type=int, default=20, help="pairs of matches to play")
    parser.add_argument("--start", type=int, default=0, help="index of the first pair")
    parser.add_argument("--seed", type=int, default=2026, help="the tournament's seed")
    parser.add_argument("--deck", help="play only the pairs dealt this (mirror) starter deck")
    parser.add_argument("--workers", type=int, default=2)


def add_games_argument(parser: argparse.ArgumentParser, default: int | None, meaning: str) -> None:
    """Add ``--games`` (``meaning`` says its default; 0 checks without playing) and
    ``--processes``, as the tournament and the ladder take them."""
    parser.add_argument(
        "--games",
        type=int,
        default=default,
        help=f"{meaning}; 0 checks every matchup's players and first deal without playing",
    )
    parser.add_argument("--processes", type=int, default=2)


def dealt_jobs(a: str, b: str, args: argparse.Namespace) -> list[Job]:
    """The Kōbō best-of-three, mirror-deck pairs of ``a`` vs ``b`` that the options of
    :func:`add_deal_arguments` pick, in order."""
    return [
        job
        for index in range(args.start, args.start + args.pairs)
        for job in pair_jobs("kobo", a, b, index, 3, 0.0, args.seed, True)
        if args.deck is None or job.decks[0] == args.deck
    ]


def run(
    matchups: Sequence[str],
    games: int,
    processes: int = 2,
    *,
    ruleset: str = "kobo",
    best_of: int = 3,
    peer_seconds: float = 0.0,
    seed: int = 2026,
    mirror: bool = True,
    resume: Path | None = None,
    json_path: Path | None = None,
    md_path: Path | None = None,
    quiet: bool = False,
) -> list[Json]:
    """Play every matchup ``a:b`` until it has ``games`` finished games; return the summaries.

    A matchup written ``a:b@n`` has its own goal of ``n`` games. ``resume``: the JSON of an
    earlier run with the same seed; its counts are kept and its deals are not replayed.
    """
    goals = {m: int(m.partition("@")[2] or games) for m in matchups}
    matchups = [m.partition("@")[0] for m in matchups]
    goals = {m.partition("@")[0]: n for m, n in goals.items()}
    tallies = {m: Tally(m.split(":", 1)[0], m.split(":", 1)[1]) for m in matchups}
    pairs = dict.fromkeys(matchups, 0)
    if resume is not None:
        for old in json.loads(resume.read_text())["matchups"]:
            m = f"{old['a']}:{old['b']}"
            if m in tallies:
                tallies[m].restore(old)
                # Skip the deals already played (and any that were in flight).
                pairs[m] = old.get("pairs", (old["matches"] + 1) // 2 + 2)
    in_flight = dict.fromkeys(matchups, 0)
    # Games a match gives, to keep enough matches in flight: ~2.2 for a best-of-3, else 1.
    defaults = registry.get(ruleset).default_config
    has_decks = "decks" in defaults
    per_match = 2.2 if best_of > 1 and "best_of" in defaults else 1.0
    errors: dict[str, int] = {}
    started = time.time()

    def wanted(m: str) -> bool:
        # Enough matches out to reach the goal (a pair at a time).
        return tallies[m].games + per_match * in_flight[m] < goals[m]

    def save() -> list[Json]:
        summaries = [tallies[m].summary() | {"pairs": pairs[m]} for m in matchups]
        if json_path is not None:
            json_path.write_text(
                json.dumps(
                    {
                        "ruleset": ruleset,
                        "best_of": best_of,
                        "games_goal": goals,
                        "seed": seed,
                        "decks": ("mirror" if mirror else "random pairs") if has_decks else None,
                        "elapsed_s": round(time.time() - started, 1),
                        "matchups": summaries,
                    },
                    indent=1,
                )
            )
        if md_path is not None:
            md_path.write_text(render_markdown(summaries))
        return summaries

    ctx = mp.get_context("spawn")
    with ctx.Pool(processes, initializer=leave_with_owner, initargs=(os.getpid(),)) as pool:
        pending: list[tuple[str, Any]] = []
        while True:
            # Round robin by progress: the matchup furthest from its goal goes next.
            while sum(in_flight.values()) < 2 * processes:
                open_ = [m for m in matchups if wanted(m)]
                if not open_:
                    break
                m = min(
                    open_, key=lambda k: (tallies[k].games + per_match * in_flight[k]) / goals[k]
                )
                a, b = m.split(":", 1)
                jobs = pair_jobs(ruleset, a, b, pairs[m], best_of, peer_seconds, seed, mirror)
                for job in jobs:
                    pending.append((m, pool.apply_async(play_match, (job,))))
                    in_flight[m] += 1
                pairs[m] += 1
            if not pending:
                break
            time.sleep(0.2)
            still: list[tuple[str, Any]] = []
            for m, handle in pending:
                if handle.ready():
                    in_flight[m] -= 1
                    try:
                        tallies[m].add(handle.get())
                    except Exception as err:  # a broken match is reported, not fatal
                        print(f"{m}: match failed: {err!r}", file=sys.stderr, flush=True)
                        errors[m] = errors.get(m, 0) + 1
                        if errors[m] > 3:
                            goals[m] = 0  # give up on this matchup
                        continue
                    if not quiet:
                        s = tallies[m].summary()
                        print(
                            f"[{time.time() - started:7.0f}s] {m}: {s['a_games']}-{s['b_games']}"
                            f" ({s['ties']} ties) of {s['games']} games, rate {s['rate']}"
                            f" CI {s['ci95']}",
                            flush=True,
                        )
                    save()
                else:
                    still.append((m, handle))
            pending = still
    return save()


def check_matchups(matchups: Sequence[str], ruleset: str, best_of: int, seed: int) -> str:
    """Why ``matchups`` cannot be played in ``ruleset`` ("" when they can): every player is
    built and the first deal of each matchup set up, before any process starts."""
    try:
        rules = registry.get(ruleset)
    except KeyError as err:
        return str(err.args[0])
    for matchup in matchups:
        a, sep, b = matchup.partition("@")[0].partition(":")
        if not (a and sep and b):
            return f"--match {matchup!r}: expected A:B[@GAMES]"
        for name in (a, b):
            if name.startswith("openspiel-") and ruleset != "kobo":
                return f"{name}: OpenSpiel's IS-MCTS bot plays Kōbō only (--ruleset kobo)"
            try:
                _build(name, ruleset, seed, 0.0)
            except KeyError as err:
                known = ", ".join(rules.players)
                return f"{err.args[0]} for --ruleset {ruleset}; known: {known} (and search levels)"
            except ValueError as err:
                return str(err)
        job = pair_jobs(ruleset, a, b, 0, best_of, 0.0, seed, True)[0]
        config: dict[str, Any] = dict(rules.default_config)
        if "decks" in config:
            config["decks"] = list(job.decks)
        if "best_of" in config:
            config["best_of"] = best_of
        try:
            rules.new_game(config, job.seed)
        except ValueError as err:
            return f"{matchup}: {err}"
    return ""


def render_markdown(summaries: Sequence[Json]) -> str:
    """The results as a Markdown table (win rates of the left player, in games)."""
    lines = [
        "| matchup | games | won–lost (ties) | win rate | 95% Wilson | matches won | "
        "mean s/decision (max) | mean s/searched decision |",
        "|---|---:|---:|---:|---|---:|---:|---:|",
    ]
    for s in summaries:
        if not s["games"]:
            continue
        t = s["time_a"]
        timing = f"{t['mean_s']:.3f} ({t['max_s']:.2f})" if t.get("decisions") else "—"
        searched = s.get("searched_a") or {}
        search_timing = f"{searched['mean_s']:.3f}" if searched.get("decisions") else "—"
        lines.append(
            f"| {s['a']} vs {s['b']} | {s['games']} | {s['a_games']}–{s['b_games']}"
            f" ({s['ties']}) | {100 * s['rate']:.1f}% | {100 * s['ci95'][0]:.1f}–"
            f"{100 * s['ci95'][1]:.1f}% | {s['a_matches']}/{s['matches']} | {timing} |"
            f" {search_timing} |"
        )
    return "\n".join(lines) + "\n"


def tournament_main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry: ``kessen tournament [--suite NAME | --match A:B ...] ...``."""
    parser = argparse.ArgumentParser(prog="kessen tournament", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--suite",
        action="append",
        choices=sorted(SUITES),
        default=[],
        help="a named set of matchups (repeatable); peer (OpenSpiel's IS-MCTS) is Kōbō only",
    )
    parser.add_argument("--match", action="append", default=[], metavar="A:B[@GAMES]")
    add_games_argument(parser, None, "games per matchup (default: suite's, or 200)")
    parser.add_argument("--best-of", type=int, default=3)
    parser.add_argument(
        "--peer-seconds",
        type=float,
        default=0.0,
        help="OpenSpiel bot seconds per move; 0: the opponent's mean time per decision",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--resume", type=Path, default=None, help="JSON of an earlier run")
    parser.add_argument("--md", type=Path, default=None)
    parser.add_argument(
        "--ruleset",
        default="kobo",
        help=(
            "a registered ruleset (kobo, twgp or maken); a ruleset without best_of plays"
            " single games"
        ),
    )
    parser.add_argument(
        "--decks",
        choices=("mirror", "random"),
        default="mirror",
        help="mirror: both seats the same random starter deck (default); random: any pair",
    )
    args = parser.parse_args(argv)
    matchups = [m for s in args.suite for m in SUITES[s]] + list(args.match)
    if not matchups:
        parser.error("name a --suite or at least one --match A:B")
    if args.games is not None:
        if args.games < 0:
            parser.error(f"--games: expected 0 or more, got {args.games}")
        matchups = [m.partition("@")[0] + f"@{args.games}" for m in matchups]
    problem = check_matchups(matchups, args.ruleset, args.best_of, args.seed)
    if problem:
        parser.error(problem)
    if args.games == 0:
        print(f"{len(matchups)} matchups of {args.ruleset} checked; no game played (--games 0)")
        return 0
    summaries = run(
        matchups,
        200,
        args.processes,
        ruleset=args.ruleset,
        best_of=args.best_of,
        peer_seconds=args.peer_seconds,
        seed=args.seed,
        mirror=args.decks == "mirror",
        resume=args.resume,
        json_path=args.json,
        md_path=args.md,
    )
    print(render_markdown(summaries))
    return 0


if __name__ == "__main__":
    sys.exit(tournament_main())


__all__ = [
    "Job",
    "MatchResult",
    "Tally",
    "asdict",
    "play_match",
    "run",
    "tournament_main",
    "wilson",
]

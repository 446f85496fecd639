"""Balance search for Kōbō's starter decks: score card numbers and deck lists by a COM matrix.

A *candidate* is a set of changes to the shipped card data and starter decks: characters' Lv,
the Lv amounts of the cards whose numbers the spec leaves free (``FREE_AMOUNTS``) and the four
starter decks' lists. It is scored by the simulator's own tournament (the heuristic COM in both
seats by default, every pair of decks, ``games`` games a pair, the first player drawn at random,
fixed seeds: game ``i`` gets the same seed for every candidate, so two candidates are compared on
the same deals): its *deviation* is the largest ``|win rate - 50 %|`` over the six pairs, and
the first player's win rate is reported beside it. ``search`` is a bounded joint search: each
round it scores a sample of single moves (a Lv or amount step, a card swap inside one deck) and
pairs of them from the current best, and keeps the best if it beats the current one.

Each candidate is played in fresh worker processes whose shipped card pool is replaced by the
candidate's (the shipped ``cards.toml`` with its numbers written in), so the rules engine and the
COM both read them; the decks are given to the games as deck objects. Nothing in the package is
written. With no changes the figures are exactly those of ``kessen sim --players heuristic``
(the same seeds, decks listed in the files' order); a changed deck lists its cards in another
order, so its games are dealt differently than from the edited deck file. Run it niced on a
shared machine::

    nice -n 15 .venv/bin/python bench/balance_search.py score --games 100
    nice -n 15 .venv/bin/python bench/balance_search.py score --candidate c.json --games 400
    nice -n 15 .venv/bin/python bench/balance_search.py search --games 80 --rounds 10 \\
        --start c.json --out best.json

A candidate file is JSON: ``{"lv": {slug: lv}, "amount": {slug: amount}, "decks": {deck:
{"main": {slug: count}, "tactics": {slug: count}}}}``; every key is optional (missing: shipped).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import itertools
import json
import multiprocessing
import random
import re
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kessen.games.kobo.cards import CardDef, CardKind, Verb
from kessen.games.kobo.decks import deck_from_json, deck_to_json, starter_decks, validate_deck
from kessen.games.kobo.schema import CARDS_PATH, CardPool, parse_pool
from kessen.sim.stats import aggregate, wilson
from kessen.sim.tournament import GameSpec, TournamentSpec, play_game

DECKS = ("fortress", "swarm", "tempo", "vanguard")
FREE_AMOUNTS: dict[str, tuple[int, ...]] = {
    "total-war": (1, 2, 3),
    "mass-jamming": (-1, -2, -3),
    "last-stand": (3, 4, 5),
    "hinder": (-1, -2),
    "battle-cry": (1, 2),
    "covering-fire": (-1, -2),
    "training-manual": (1, 2),
}
"""Cards whose Lv amount the spec (kobo-rules.md §8) leaves free, with the values tried."""
FIRST_WEIGHT = 0.25
"""How much the first player's distance from 50 % (beyond 5 points) counts in the objective."""
LV_RANGE = range(1, 7)
"""§8: twelve characters of Lv 1–6."""

Json = dict[str, Any]


# --------------------------------------------------------------------------------------------
# Candidates
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """Changes to the shipped card data and starter decks (empty: the shipped ones)."""

    lv: Mapping[str, int] = field(default_factory=dict)
    amount: Mapping[str, int] = field(default_factory=dict)
    decks: Mapping[str, Mapping[str, Mapping[str, int]]] = field(default_factory=dict)

    def to_json(self) -> Json:
        """The candidate file's form (sorted, so equal candidates print alike)."""
        return {
            "lv": dict(sorted(self.lv.items())),
            "amount": dict(sorted(self.amount.items())),
            "decks": {
                name: {part: dict(sorted(cards.items())) for part, cards in deck.items()}
                for name, deck in sorted(self.decks.items())
            },
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Candidate:
        """Inverse of :meth:`to_json`."""
        return Candidate(
            dict(data.get("lv", {})), dict(data.get("amount", {})), dict(data.get("decks", {}))
        )

    def key(self) -> str:
        """A stable identity (for the search's memory of scored candidates)."""
        return json.dumps(self.to_json(), sort_keys=True)


def pool_text(candidate: Candidate) -> str:
    """The shipped ``cards.toml`` with the candidate's Lv and amounts written in."""
    text = CARDS_PATH.read_text(encoding="utf-8")
    head, *blocks = text.split("\n[[card]]\n")
    out = [head]
    for block in blocks:
        found = re.search(r'^slug = "([a-z0-9-]+)"', block, re.M)
        slug = found.group(1) if found else ""
        if slug in candidate.lv:
            block, count = re.subn(
                r"^lv = \d+$", f"lv = {candidate.lv[slug]}", block, count=1, flags=re.M
            )
            assert count == 1, slug
        if slug in candidate.amount:
            pattern = r'(\{ verb = "modify_lv", amount = )-?\d+( \})'
            block, count = re.subn(pattern, rf"\g<1>{candidate.amount[slug]}\2", block, count=1)
            assert count == 1, slug
        out.append(block)
    return "\n[[card]]\n".join(out)


def candidate_pool(candidate: Candidate) -> CardPool:
    """The candidate's card pool (validated by the loader)."""
    return parse_pool(pool_text(candidate).encode("utf-8"), "candidate cards.toml")


def deck_lists(candidate: Candidate) -> dict[str, Json]:
    """The four starter decks as deck objects, with the candidate's lists."""
    out: dict[str, Json] = {}
    for name, deck in starter_decks().items():
        if name not in DECKS:
            continue
        data = deck_to_json(deck)
        for part, cards in candidate.decks.get(name, {}).items():
            data[part] = dict(cards)
        out[name] = data
    return out


def _permanent_buffs(deck: Json, pool: CardPool) -> int:
    return sum(
        n
        for slug, n in deck["main"].items()
        if pool.get(slug).permanent and _lv_amount(pool.get(slug)) > 0
    )


def _lv_amount(card: CardDef) -> int:
    return sum(s.amount for s in card.steps if s.verb is Verb.MODIFY_LV)


def _characters(deck: Json, pool: CardPool) -> list[int]:
    return [
        pool.get(slug).lv
        for slug, n in deck["main"].items()
        for _ in range(n)
        if pool.get(slug).kind is CardKind.CHARACTER
    ]


def style_problems(candidate: Candidate) -> list[str]:
    """Why the candidate breaks a deck rule or a deck's style (docs/balance.md), if it does."""
    pool = candidate_pool(candidate)
    decks = deck_lists(candidate)
    problems = [
        f"{name}: {e}" for name, d in decks.items() for e in validate_deck(deck_from_json(d), pool)
    ]
    if problems:
        return problems
    chars = {name: _characters(d, pool) for name, d in decks.items()}
    mean = {name: sum(c) / len(c) for name, c in chars.items()}
    traps = {
        name: sum(n for s, n in d["main"].items() if pool.get(s).kind is CardKind.TRAP)
        for name, d in decks.items()
    }
    buffs = {name: _permanent_buffs(d, pool) for name, d in decks.items()}
    again = {
        name: sum(
            n for part in ("main", "tactics") for s, n in d[part].items() if pool.get(s).chain_again
        )
        for name, d in decks.items()
    }
    others = [n for n in DECKS if n != "vanguard"]
    if any(mean["vanguard"] <= mean[n] or max(chars["vanguard"]) < max(chars[n]) for n in others):
        problems.append("vanguard: no longer the highest Lv")
    if any(buffs["vanguard"] <= buffs[n] for n in others):
        problems.append("vanguard: no longer the most permanent buffs")
    if any(len(chars["swarm"]) <= len(chars[n]) for n in DECKS if n != "swarm"):
        problems.append("swarm: no longer the most characters")
    if any(mean["swarm"] >= mean[n] for n in DECKS if n != "swarm"):
        problems.append("swarm: no longer the lowest characters")
    if "total-war" not in decks["swarm"]["tactics"]:
        problems.append("swarm: no 総力戦")
    if any(traps["fortress"] <= traps[n] for n in DECKS if n != "fortress"):
        problems.append("fortress: no longer the most traps")
    if any(again["tempo"] < again[n] for n in DECKS if n != "tempo"):
        problems.append("tempo: fewer consecutive-activation cards than another deck")
    if not {"weaken", "hinder"} <= set(decks["tempo"]["tactics"]):
        problems.append("tempo: no 弱体化 or no 足止め")
    return problems


# --------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------


def _install(text: str) -> None:
    """Worker initializer: make ``text`` the shipped card pool of this (fresh) process."""
    from kessen.games.kobo import schema

    pool = parse_pool(text.encode("utf-8"), "candidate cards.toml")
    for name, module in list(sys.modules.items()):
        if not name.startswith("kessen.games.kobo"):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()
    heuristic = sys.modules.get("kessen.games.kobo.heuristic")
    if heuristic is not None:
        heuristic._CHAIN_VALUES.clear()
    schema._default_pool = lambda: pool  # type: ignore[assignment]


def _play(batch: Sequence[GameSpec]) -> list[Json]:
    """Play a batch of games; their summaries without the per-card details."""
    return [play_game(spec).summary for spec in batch]


@dataclass
class Score:
    """A candidate's matrix: pair win rates, the first player's rate and the deviation."""

    pairs: dict[tuple[str, str], tuple[float, int]]
    first: float
    games: int
    stats: Json

    @property
    def deviation(self) -> float:
        """The largest distance of a pair's win rate from 50 %, in points."""
        return max(abs(rate - 0.5) * 100 for rate, _ in self.pairs.values())

    @property
    def mean_deviation(self) -> float:
        """The mean distance of the pairs' win rates from 50 %, in points."""
        return sum(abs(rate - 0.5) * 100 for rate, _ in self.pairs.values()) / len(self.pairs)

    @property
    def objective(self) -> float:
        """What the search minimises: the deviation, plus a quarter of the mean deviation (a
        smoother guide than the maximum alone) and :data:`FIRST_WEIGHT` times the first
        player's distance from 50 % beyond 5 points."""
        first = max(0.0, abs(self.first - 0.5) * 100 - 5)
        return self.deviation + 0.25 * self.mean_deviation + FIRST_WEIGHT * first

    def lines(self) -> list[str]:
        """A readable table."""
        out = []
        for (a, b), (rate, n) in self.pairs.items():
            lo, hi = wilson(rate * n, n)
            out.append(
                f"  {a:9} {b:9} {rate * 100:5.1f} % [{lo * 100:4.1f}, {hi * 100:4.1f}] n={n}"
            )
        out.append(
            f"  first player {self.first * 100:.1f} %, deviation {self.deviation:.1f}, "
            f"objective {self.objective:.1f}"
        )
        return out


def score(
    candidate: Candidate, games: int, seed: int = 0, workers: int = 2, player: str = "heuristic"
) -> Score:
    """Play the candidate's matrix (``games`` a pair) in ``workers`` fresh processes."""
    decks = deck_lists(candidate)
    entrants = tuple(decks[n] for n in DECKS)
    spec = TournamentSpec(decks=entrants, players=(player,), games=games, seed=seed)
    schedule = spec.schedule()
    size = max(1, min(8, len(schedule) // (workers * 4)))
    batches = [schedule[i : i + size] for i in range(0, len(schedule), size)]
    context = multiprocessing.get_context("spawn")
    summaries: list[Json] = []
    with concurrent.futures.ProcessPoolExecutor(
        workers, mp_context=context, initializer=_install, initargs=(pool_text(candidate),)
    ) as pool:
        for result in pool.map(_play, batches):
            summaries.extend(result)
    stats = aggregate(summaries, spec.matchups, len(spec.entrants))
    pairs = {}
    for m in stats["matchups"]:
        rate = m["games"]
        pairs[(DECKS[m["a"]], DECKS[m["b"]])] = (float(rate["rate"]), int(rate["n"]))
    return Score(pairs, float(stats["first_player"]["rate"]), len(summaries), stats)


# --------------------------------------------------------------------------------------------
# Moves and the search
# --------------------------------------------------------------------------------------------


def _with(candidate: Candidate, **changes: Any) -> Candidate:
    return Candidate(
        changes.get("lv", candidate.lv),
        changes.get("amount", candidate.amount),
        changes.get("decks", candidate.decks),
    )


def moves(candidate: Candidate) -> Iterator[tuple[str, str, Candidate]]:
    """Every single step from ``candidate`` as (kind, name, candidate): a character's Lv ±1
    (``lv``), a free amount to another value (``amount``), one or two copies of a card in a
    deck swapped for another card of the same part, main or tactics (``swap``)."""
    pool = candidate_pool(candidate)
    for card in pool.of_kind(CardKind.CHARACTER):
        for step in (-1, 1):
            lv = card.lv + step
            if lv in LV_RANGE:
                changed = _with(candidate, lv={**candidate.lv, card.slug: lv})
                yield "lv", f"{card.slug} Lv {lv}", changed
    for slug, values in FREE_AMOUNTS.items():
        now = _lv_amount(pool.get(slug))
        for value in values:
            if value != now:
                amount = {**candidate.amount, slug: value}
                yield "amount", f"{slug} {value:+d}", _with(candidate, amount=amount)
    decks = deck_lists(candidate)
    usable = [c for c in pool if not c.surprise]
    for name in DECKS:
        for part in ("main", "tactics"):
            cards = decks[name][part]
            kinds = {CardKind.TACTIC} if part == "tactics" else set(CardKind) - {CardKind.TACTIC}
            for out_slug, in_card, copies in itertools.product(sorted(cards), usable, (1, 2)):
                if in_card.kind not in kinds or in_card.slug == out_slug:
                    continue
                if cards[out_slug] < copies:
                    continue
                new = dict(cards)
                new[out_slug] -= copies
                if not new[out_slug]:
                    del new[out_slug]
                new[in_card.slug] = new.get(in_card.slug, 0) + copies
                if new[in_card.slug] > (1 if in_card.limited else 2):
                    continue
                deck = {**decks[name], part: new}
                lists = {
                    **candidate.decks,
                    name: {"main": deck["main"], "tactics": deck["tactics"]},
                }
                label = f"{name}: {copies}x {out_slug} -> {in_card.slug}"
                yield "swap", label, _with(candidate, decks=lists)


QUOTA = {"lv": 4, "amount": 1, "swap": 6}
"""Moves of each kind scored a round (before the combined ones)."""


def search(
    start: Candidate,
    games: int,
    rounds: int,
    sample: int,
    seed: int,
    workers: int,
    log: Path | None,
) -> tuple[Candidate, Score]:
    """A bounded joint search: each round, ``sample`` single moves (and a few pairs of them)
    from the best so far that keep the styles, each scored on the same seeds; the best is kept
    if it beats the current best's objective."""
    rng = random.Random(seed)
    seen = {start.key()}
    best, best_score = start, score(start, games, seed, workers)
    print("start", *best_score.lines(), sep="\n", flush=True)
    for round_no in range(rounds):
        options = list(moves(best))
        rng.shuffle(options)
        tried: list[tuple[str, Candidate]] = []
        taken = dict.fromkeys(QUOTA, 0)
        for kind, name, cand in options:
            if taken[kind] >= QUOTA[kind] * sample // sum(QUOTA.values()):
                continue
            if cand.key() not in seen and not style_problems(cand):
                tried.append((name, cand))
                taken[kind] += 1
        for (n1, c1), (n2, c2) in itertools.combinations(tried[:], 2):
            merged = _merge(best, c1, c2)
            if merged is not None and rng.random() < 2 / len(tried) and not style_problems(merged):
                tried.append((f"{n1} & {n2}", merged))
        seen.update(c.key() for _, c in tried)
        improved = False
        for name, cand in tried:
            started = time.monotonic()
            result = score(cand, games, seed, workers)
            line = (
                f"round {round_no} {name}: objective {result.objective:.1f} "
                f"(deviation {result.deviation:.1f}, first {result.first * 100:.1f} %) "
                f"{time.monotonic() - started:.0f} s"
            )
            print(line, flush=True)
            if log is not None:
                with log.open("a", encoding="utf-8") as out:
                    entry = {"round": round_no, "move": name, "objective": result.objective}
                    entry |= {"candidate": cand.to_json(), "deviation": result.deviation}
                    out.write(json.dumps(entry | {"first": result.first}) + "\n")
            if result.objective < best_score.objective:
                best, best_score, improved = cand, result, True
                print("new best", *best_score.lines(), sep="\n", flush=True)
        if not improved:
            print(f"round {round_no}: no better move", flush=True)
    return best, best_score


def _merge(base: Candidate, one: Candidate, two: Candidate) -> Candidate | None:
    """The changes of ``one`` and of ``two`` from ``base`` together, if they touch different
    things (``None`` if both change the same card's number or the same deck)."""
    parts: list[dict[str, Any]] = []
    for field_name in ("lv", "amount", "decks"):
        was: Mapping[str, Any] = getattr(base, field_name)
        first = {k: v for k, v in getattr(one, field_name).items() if was.get(k) != v}
        second = {k: v for k, v in getattr(two, field_name).items() if was.get(k) != v}
        if set(first) & set(second):
            return None
        parts.append({**was, **first, **second})
    return Candidate(parts[0], parts[1], parts[2])


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------


def _load(path: Path | None) -> Candidate:
    if path is None:
        return Candidate()
    return Candidate.from_json(json.loads(path.read_text(encoding="utf-8")))


def main(argv: list[str] | None = None) -> None:
    """``score`` a candidate or ``search`` from one."""
    global FIRST_WEIGHT
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("score", "search", "check"))
    parser.add_argument("--candidate", "--start", type=Path, dest="candidate")
    parser.add_argument("--games", type=int, default=100, help="games a pair")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sample", type=int, default=11, help="single moves scored a round")
    parser.add_argument("--first-weight", type=float, default=FIRST_WEIGHT)
    parser.add_argument("--out", type=Path, help="write the best candidate here")
    parser.add_argument("--log", type=Path, help="append every scored move (JSONL)")
    args = parser.parse_args(argv)
    FIRST_WEIGHT = args.first_weight
    candidate = _load(args.candidate)
    problems = style_problems(candidate)
    if args.command == "check" or problems:
        print("\n".join(problems) or "valid, styles kept")
        if problems:
            raise SystemExit(1)
        return
    started = time.monotonic()
    if args.command == "score":
        result = score(candidate, args.games, args.seed, args.workers)
    else:
        candidate, result = search(
            candidate, args.games, args.rounds, args.sample, args.seed, args.workers, args.log
        )
    print(*result.lines(), sep="\n")
    print(f"{result.games} games, {time.monotonic() - started:.0f} s")
    if args.out is not None:
        args.out.write_text(json.dumps(candidate.to_json(), indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

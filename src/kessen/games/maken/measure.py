"""Measurements beside maken.md §17: COM pairings over the 16 deck pairings, with the share of
games in which each supplement mechanic fires, and the search COM against the heuristic.

Run (niced, one at a time)::

    python -m kessen.games.maken.measure pairing heuristic heuristic --games 2000
    python -m kessen.games.maken.measure pairing heuristic random --games 2000
    python -m kessen.games.maken.measure pairing heuristic heuristic --games 500 --option gb=total
    python -m kessen.games.maken.measure search --games 200

Seats alternate between the two players; decks rotate over all 16 pairings. Mechanics are read
from the log and, where the log does not say it (a hit card cancelled, a blocked set, a TP
inside its 無防備 window), from the true state: the measurement sees everything, the players
see their own views only.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.maken.rules import FACE_DOWN_OPTIONS
from kessen.games.maken.state import HIT, INST, MakenState

DECKS = ("SO", "RI", "MI", "GA")
MECHANICS = (
    "da",
    "ta",
    "instant_gauge",
    "helper_paid",
    "helper_exempt",
    "helper_repaid",
    "rv",
    "fb_front0",
    "bonus",
    "bonus_on_gc",
    "down_extras_bonus",
    "down_extras_gc",
    "hit_card_cancelled",
    "tp_in_window",
    "gc",
    "gb",
    "cap_blocked",
)
"""The per-game counters of §17's mechanics table, in its order."""


def _watch(
    state: MakenState, action: Action, counts: Counter[str], seen: set[tuple[str, int]]
) -> None:
    """Counters that need the true state, before ``action`` is applied."""
    bet = state.bet
    if (
        state.phase == "pay"
        and action.verb == "cancel"
        and bet is not None
        and bet["kind"] == "bonus"
    ):
        seat = int(bet["seat"])
        cid = state.pool.by_slug[str(action.args[0])].id
        entry = next(e for e in state.field[seat] if state.cards[e[INST]] == cid)
        counts["hit_card_cancelled"] += entry[HIT]
    if state.phase == "draw" or (state.phase == "pre" and ("tp", state.turn) not in seen):
        seen.add(("tp", state.turn))
        counts["tp_in_window"] += state.defenceless_until[state.tp] >= state.turn
    if state.phase == "pre" and ("cap", state.turn) not in seen:
        cap = state.cfg.support_cap
        tp = state.tp
        holds = any(state.card(i).kind == "support" for i in state.hand[tp])
        if cap is not None and holds and len(state.support[tp]) >= cap:
            seen.add(("cap", state.turn))
            counts["cap_blocked"] += 1


def _from_log(state: MakenState, counts: Counter[str]) -> dict[str, float]:
    """Counters read from the finished game's log; returns exchange figures."""
    left: list[set[str]] = [set(), set()]
    judge_kind = None
    bets_in_exchange = 0
    exchanges: list[tuple[int, str]] = []
    downs = exhaustion = 0
    for event in state.log:
        e = event.public
        kind = event.kind
        if kind == "bet":
            seat = e["seat"]
            counts["da"] += e["n"] == 2
            counts["ta"] += e["n"] == 3
            counts["rv"] += bool(e["rv"])
            if e["helper"]:
                counts["helper_paid"] += 1
                counts["helper_repaid"] += state.pool.card[e["card"]].character in left[seat]
            counts["helper_exempt"] += bool(e["exempt"])
            ambush = state.pool.card[e["card"]].has("ambush")
            counts["fb_front0"] += bool(e["front0"]) and not ambush
            if e["as"] == "bonus":
                counts["bonus"] += 1
                counts["bonus_on_gc"] += judge_kind == "GC"
                counts["down_extras_bonus"] += e["option"] in FACE_DOWN_OPTIONS
            if e["as"] == "gc":
                counts["down_extras_gc"] += e["option"] in FACE_DOWN_OPTIONS
            bets_in_exchange += e["as"] != "bonus"
        elif kind == "open" and e["helper"]:
            counts["helper_paid"] += 1
            counts["helper_repaid"] += state.pool.card[e["card"]].character in left[e["seat"]]
        elif kind == "helper":
            left[e["seat"]] |= {state.pool.card[c].character for c in e["pushed"]}
        elif kind == "pay" and e["cancels"]:
            counts["instant_gauge"] += 1
        elif kind in ("accept", "stop", "gb") or (kind == "bet" and e.get("as") == "gc"):
            pass
        if kind == "judge":
            judge_kind = e["how"]
            counts["gc"] += judge_kind == "GC"
            counts["gb"] += judge_kind == "GB"
            ending = {"NORMAL": "accept", "GC": "gc", "GB": "gb", None: "stop"}[judge_kind]
            exchanges.append((bets_in_exchange, ending))
            bets_in_exchange = 0
        if kind == "turn":
            judge_kind = None
            bets_in_exchange = 0
        if kind == "down":
            downs += 1
            exhaustion += bool(e["exhaustion"])
    return {
        "exchanges": len(exchanges),
        "bets": sum(b for b, _ in exchanges),
        "accepts": sum(1 for _, how in exchanges if how == "accept"),
        "downs": downs,
        "exhaustion_downs": exhaustion,
    }


def play(
    config: Json, seed: int, names: Sequence[str]
) -> tuple[MakenState, Counter[str], dict[str, float]]:
    """One game of ``names[0]`` (seat 0) against ``names[1]``, with its counters."""
    rules = registry.get("maken")
    state = rules.new_game(config, seed)
    assert isinstance(state, MakenState)
    players = [rules.players[n](seed * 2 + i) for i, n in enumerate(names)]
    counts: Counter[str] = Counter()
    seen: set[tuple[str, int]] = set()
    while state.pending is not None:
        seat = state.pending.seat
        legal = state.legal_actions()
        action = (
            players[seat].choose(state.decision_view(seat), legal) if len(legal) > 1 else legal[0]
        )
        _watch(state, action, counts, seen)
        state.apply(action)
    extra = _from_log(state, counts)
    return state, counts, extra


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def pairing(a: str, b: str, games: int, options: dict[str, Any], start: int = 0) -> Json:
    """``games`` games of ``a`` against ``b`` (seats alternate), with §17's figures."""
    firsts = draws = a_wins = 0
    turns: list[int] = []
    fired: Counter[str] = Counter()
    total: Counter[str] = Counter()
    sums: Counter[str] = Counter()
    deck_games: Counter[str] = Counter()
    deck_wins: Counter[str] = Counter()
    for k in range(start, start + games):
        decks = [DECKS[k % 4], DECKS[k // 4 % 4]]
        swap = k // 16 % 2 == 1
        names = (b, a) if swap else (a, b)
        state, counts, extra = play({**options, "decks": decks}, k, names)
        outcome = state.outcome
        assert outcome is not None
        first = next(e.public["tp"] for e in state.log if e.kind == "setup")
        turns.append(state.turn)
        if outcome.winner is None:
            draws += 1
        else:
            firsts += outcome.winner == first
            a_wins += outcome.winner == (1 if swap else 0)
            for seat in (0, 1):
                deck_games[decks[seat]] += 1
                deck_wins[decks[seat]] += outcome.winner == seat
        for key in MECHANICS:
            fired[key] += counts[key] > 0
            total[key] += counts[key]
        sums.update(extra)
        done = k - start + 1
        if done % 10 == 0:
            print(f"{done}/{games}: {a} won {a_wins}, first player {firsts}", file=sys.stderr)
    turns.sort()
    n = games
    return {
        "players": [a, b],
        "games": n,
        "options": options,
        "first_player_wins": firsts / n,
        "first_player_ci": wilson(firsts, n),
        "a_wins": a_wins / n,
        "a_ci": wilson(a_wins, n),
        "stalls": draws / n,
        "median_turns": statistics.median(turns),
        "p90_turns": turns[int(0.9 * (n - 1))],
        "deck_win_rates": {d: round(deck_wins[d] / max(1, deck_games[d]), 3) for d in DECKS},
        "mechanics": {
            key: {"games": fired[key] / n, "per_game": total[key] / n} for key in MECHANICS
        },
        "downs_per_game": sums["downs"] / n,
        "exhaustion_share_of_downs": sums["exhaustion_downs"] / max(1, sums["downs"]),
        "bets_per_exchange": sums["bets"] / max(1, sums["exchanges"]),
        "accept_share": sums["accepts"] / max(1, sums["exchanges"]),
    }


def main() -> None:
    """Command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("what", choices=["pairing", "search"])
    parser.add_argument("players", nargs="*", default=["heuristic", "heuristic"])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], help="KEY=JSON")
    args = parser.parse_args()
    options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
    began = time.perf_counter()
    if args.what == "search":
        result = pairing("ismcts-strong", "heuristic", args.games, options, args.start)
    else:
        result = pairing(args.players[0], args.players[1], args.games, options, args.start)
    result["seconds"] = round(time.perf_counter() - began)
    print(json.dumps(result, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()

"""Search support: rebuild a playable world from one seat's view, sample worlds, evaluate, roll
out, and the :func:`search_hooks` the game-agnostic search of :mod:`kessen.ai.ismcts` uses.

A world from a view places every card the view names (the seat's hand and set supports, dust,
helper fields, attack fields, opened supports); each seat's other cards (its public deck list
less those) are dealt at random to the zones hidden from the seat (§5 "hidden world"), set
support slots getting support cards. The world's log is empty: nothing in the rules reads it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.engine.rng import Rng
from kessen.games.maken.cards import STATS, MakenPool
from kessen.games.maken.state import MakenState


class WorldError(ValueError):
    """A view no world can be rebuilt from (it names cards its deck lists do not hold)."""


def _entry_data(entry: Json, pool: MakenPool) -> list[int]:
    if entry["face"] == "up":
        return [int(entry["data"][k]) for k in STATS]
    data = list(pool.card[entry["copy_of"]].data)
    data[3] = int(entry["atk"])
    return data


def world_from_view(view: Json, seed: int) -> MakenState:
    """A complete state that ``view``'s seat cannot tell from the truth (hidden cards random)."""
    viewer = view["viewer"]
    if not isinstance(viewer, int):
        raise WorldError("a world is rebuilt from a seat's view")
    state = MakenState()
    state.config = view["config"]
    cfg = state.cfg  # checked once per config (a view holds its game's own config)
    state.pool = cfg.pool
    state.rng = Rng(seed)
    state.cards = [
        c
        for deck in cfg.decks
        for c in sorted(cid for cid, n in deck["cards"].items() for _ in range(n))
    ]
    free: list[dict[str, list[int]]] = [{}, {}]
    for inst, cid in enumerate(state.cards):
        free[inst // 50].setdefault(cid, []).append(inst)

    def take(seat: int, cid: str) -> int:
        stock = free[seat].get(cid)
        if not stock:
            raise WorldError(f"seat {seat} shows more {cid} than its deck holds")
        return stock.pop(0)

    rng = Rng(seed ^ 0x2545F4914F6CDD1D)
    players = view["players"]
    state.chars = [p["character"]["code"] for p in players]
    names = ("lp", "stamina", "hand", "gauge", "dust", "damage", "helper")
    for name in names:
        setattr(state, name, [[], []])
    state.field, state.support = [[], []], [[], []]
    for seat, side in enumerate(players):
        state.dust[seat] = [take(seat, c["card"]) for c in side["dust"]]
        state.helper[seat] = [take(seat, c["card"]) for c in side["helper"]]
        for entry in side["field"]:
            cid = entry["card"] if entry["face"] == "up" else entry["copy_of"]
            state.field[seat].append(
                [
                    take(seat, cid),
                    int(entry["face"] == "down"),
                    *_entry_data(entry, cfg.pool),
                    int(entry["hit"]),
                    int(entry["helper_paid"]),
                ]
            )
        slots: list[list[int]] = []
        for entry in side["support"]:
            if entry["face"] == "up":
                row = [
                    take(seat, entry["card"]),
                    1,
                    int(entry["helper_paid"]),
                    int(entry["order"]),
                    int(entry["opened_turn"]),
                ]
            elif "card" in entry:
                row = [take(seat, entry["card"]), 0, 0, 0, 0]
            else:
                row = [-1, 0, 0, 0, 0]
                slots.append(row)
            state.support[seat].append(row)
        if side["hand"]["cards"] is not None:
            state.hand[seat] = [take(seat, c["card"]) for c in side["hand"]["cards"]]
        pool = sorted(i for stock in free[seat].values() for i in stock)
        rng.shuffle(pool)
        supports = [i for i in pool if state.card(i).kind == "support"][: len(slots)]
        if len(supports) < len(slots):
            raise WorldError(f"seat {seat} shows more set support cards than it can hold")
        for row, inst in zip(slots, supports, strict=True):
            row[0] = inst
        rest = [i for i in pool if i not in set(supports)]
        zones = ["lp", "stamina", "gauge", "damage"]
        if side["hand"]["cards"] is None:
            zones.insert(0, "hand")
        for name in zones:
            size = side["hand"]["count"] if name == "hand" else side[name]
            getattr(state, name)[seat] = rest[:size]
            rest = rest[size:]
        if rest:
            raise WorldError(f"seat {seat}'s zones hold fewer cards than its deck")
    state.turn, state.tp, state.phase = view["turn"], view["tp"], view["phase"]
    state.prompt_id = view["prompt_id"]
    state.mulled = [p["mulligan"] for p in players]
    state.open_seq, state.downed_last = view["open_seq"], view["downed_last"]
    state.defenceless_until = [p["defenceless_until"] for p in players]
    sit = view["situation"]
    state.sit = sit["kind"]
    state.guarding = -1 if sit["guarding"] is None else sit["guarding"]
    state.actor = -1 if sit["actor"] is None else sit["actor"]
    state.judge = None if view["judge"] is None else dict(view["judge"])
    state.bet = _bet(state, view["bet"])
    outcome = view["outcome"]
    state.result = None if outcome is None else (outcome["winner"], outcome["reason"])
    state.log = []
    state.legal = None
    return state


def _bet(state: MakenState, bet: Json | None) -> Json | None:
    if bet is None:
        return None
    seat = int(bet["seat"])
    field = state.field[seat]
    n = int(bet["n"])
    main, extras = field[-1][0], [e[0] for e in field[-n:-1]]
    below = field[:-n]

    def inst(cid: str) -> int:
        return next(e[0] for e in below if not e[1] and state.cards[e[0]] == cid)

    return {
        "seat": seat,
        "kind": bet["kind"],
        "cid": bet["card"],
        "n": n,
        "option": bet["option"],
        "main": main,
        "extras": extras,
        "units": bet["units"],
        "cost": bet["cost"],
        "helper": bet["helper"],
        "dash": bet["dash"],
        "rv": bet["rv"],
        "eligible": [inst(c) for c in bet["eligible"]],
        "picks": [inst(c) for c in bet["picks"]],
        "main_cost": field[-1][6],
    }


# -- evaluation and rollouts ------------------------------------------------------------------

SCALE = 1.4
"""Logit per point of the position score below."""


def _score(state: MakenState, seat: int) -> float:
    down_at = state.cfg.down_at
    return (
        len(state.lp[seat])
        - 0.8 * len(state.damage[seat]) / down_at
        + 0.05 * len(state.gauge[seat])
        + 0.06 * len(state.hand[seat])
        - 0.3 * state.defenceless(seat)
    )


def evaluate(state: GameState) -> float:
    """Seat 0's chance to win: the result of a finished game, else a logistic guess from LP,
    damage toward the next down, gauge, hand and 無防備."""
    assert isinstance(state, MakenState)
    if state.result is not None:
        winner = state.result[0]
        return 0.5 if winner is None else 1.0 - winner
    logit = SCALE * (_score(state, 0) - _score(state, 1))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))


ROLLOUT_TURNS = 2
"""Rollouts play until this many new turns have begun, then :func:`evaluate` judges."""
ROLLOUT_CAP = 300
EPSILON = 0.15
"""Share of rollout decisions taken at random instead of by the heuristic policy."""


def rollout(state: GameState, rng: random.Random) -> None:
    """Play on with the heuristic policy (:data:`EPSILON` random) for :data:`ROLLOUT_TURNS`."""
    from kessen.games.maken.heuristic import policy

    assert isinstance(state, MakenState)
    stop = state.turn + ROLLOUT_TURNS
    for _ in range(ROLLOUT_CAP):
        pending = state.pending
        if pending is None or state.turn >= stop:
            return
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        elif rng.random() < EPSILON:
            action = legal[rng.randrange(len(legal))]
        else:
            action = policy(state, pending.seat, legal)
        state.apply(action)


ROUTINE_PROMPTS = frozenset({"mulligan", "draw", "pre", "pay"})
"""Prompts the search leaves to the heuristic policy (bookkeeping and the support step)."""


def routine(view: Json, legal: Sequence[Action]) -> Action | None:
    """The heuristic's answer on :data:`ROUTINE_PROMPTS`, else ``None`` (search it)."""
    pending = view.get("pending") or {}
    if pending.get("prompt") in ROUTINE_PROMPTS:
        from kessen.games.maken.heuristic import policy

        return policy(world_from_view(view, 0), view["viewer"], list(legal))
    return None


def prior(view: Json, legal: Sequence[Action]) -> Action | None:
    """The heuristic policy's answer from the view (the search's root prior)."""
    from kessen.games.maken.heuristic import policy

    return policy(world_from_view(view, 0), view["viewer"], list(legal))


def world_sampler(view: Json, seed: int) -> Callable[[int], GameState]:
    """Rebuild a world from ``view``, then redeal its hidden parts afresh for each sample."""
    base = world_from_view(view, seed)
    seat: int = view["viewer"]

    def sample(index: int) -> GameState:
        world = base.resample_hidden(seat, seed ^ (index * 0x9E3779B97F4A7C15 & (2**63 - 1)))
        world.rng = Rng(seed * 1_000_003 + index)
        return world

    return sample


def search_hooks(deep: bool = False) -> Any:
    """The Maken hooks of the game-agnostic search (one model: ``deep`` changes nothing)."""
    from kessen.ai.ismcts import SearchHooks
    from kessen.games.maken.resample import redeal_unseen

    return SearchHooks(
        world_sampler=world_sampler,
        evaluate=evaluate,
        rollout=rollout,
        routine=routine,
        prior=prior,
        redeal_unseen=redeal_unseen,
    )

"""The heuristic COM of Maken: a greedy policy after §17's greedy player, from its own view.

It answers if it can (the strongest bet by a fixed score), else accepts or guards by comparing
totals; breaks the guard at an excess of 4 or more; takes its bonus bet when it has one; pays
from the gauge while a card stays there, else cancels the weakest card; sets its support cards
and opens those it can pay without emptying its gauge. Unlike the simulator's greedy player it
never reads its own stamina (hidden from everyone, §3).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.maken.rules import (
    BONUS,
    EVEN,
    FACE_DOWN_OPTIONS,
    FB,
    FORCE,
    GC,
    BetPlan,
    open_cost,
    parse_bet,
    plan_bet,
)
from kessen.games.maken.state import ATK, DOWN, INST, S_INST, S_OPEN, MakenState

BREAK_AT = 4
"""Guard-break once the excess reaches this."""


def bet_score(plan: BetPlan) -> float:
    """How much the policy likes a bet: attack (face-down extras counted), speed, reach,
    gauge gain and DA/TA draws, less the gauge it costs."""
    spd, front, _back, atk, _cost, gain = plan.data
    copies = plan.n if plan.option in FACE_DOWN_OPTIONS else 1
    return (
        atk * copies + 0.45 * spd + 0.3 * front + 0.8 * gain + 0.9 * (plan.n - 1) - 1.0 * plan.units
    )


def _plans(
    state: MakenState, seat: int, legal: Sequence[Action], verb: str, mode: str
) -> list[tuple[float, Action]]:
    out = []
    for action in legal:
        if action.verb != verb:
            continue
        cid, n, option = parse_bet(action.args)
        plan = plan_bet(state, seat, cid, n, option, mode)
        if plan is not None:
            out.append((bet_score(plan), action))
    out.sort(key=lambda pair: -pair[0])
    return out


def _pre(state: MakenState, seat: int, legal: Sequence[Action]) -> Action:
    gauge = len(state.gauge[seat])
    for action in legal:
        if action.verb == "open":
            card = state.pool.by_slug[str(action.args[0])]
            inst = next(
                e[S_INST]
                for e in state.support[seat]
                if not e[S_OPEN] and state.cards[e[S_INST]] == card.id
            )
            cost = open_cost(state, seat, inst)
            if cost == 0 or gauge - cost >= 2:
                return action
    for action in legal:
        if action.verb == "set":
            return action
    return Action.of("end")


def policy(state: MakenState, seat: int, legal: list[Action]) -> Action:
    """The greedy answer of ``seat``; reads only what ``seat`` may see of ``state``."""
    if len(legal) == 1:
        return legal[0]
    phase = state.phase
    opp = 1 - seat
    if phase == "mulligan":
        good = [
            i
            for i in state.hand[seat]
            if state.card(i).kind == "attack"
            and state.card(i).front > 0
            and not state.card(i).has("no-fb")
            and not state.card(i).has("rv-only")
        ]
        return Action.of("mulligan" if len(good) < 2 else "keep")
    if phase == "draw":
        return legal[-1]
    if phase == "pre":
        return _pre(state, seat, legal)
    if phase == "fb":
        return _plans(state, seat, legal, "fb", FB)[0][1]
    if phase == "pay":
        if Action.of("pay-rest-from-gauge") in legal:
            return Action.of("pay-rest-from-gauge")
        cancels = [a for a in legal if a.verb == "cancel"]
        field = {state.card(e[INST]).slug: e[ATK] for e in state.field[seat] if not e[DOWN]}
        return min(cancels, key=lambda a: field.get(str(a.args[0]), 0))
    if phase == "bonus":
        plans = _plans(state, seat, legal, "bonus", BONUS)
        return plans[0][1] if plans else Action.of("decline")
    mine, theirs = state.total(seat), state.total(opp)
    if state.sit == "even":
        plans = _plans(state, seat, legal, "attack", EVEN)
        if plans:
            return plans[0][1]
        top = state.top(opp)
        hit = top[ATK] if top is not None else 0
        if Action.of("guard") in legal and theirs - mine < hit:
            return Action.of("guard")
        return Action.of("judge")
    if state.guarding == seat:
        plans = _plans(state, seat, legal, "gc", GC)
        return plans[0][1] if plans else Action.of("guard")
    if Action.of("gb") in legal and mine - theirs >= BREAK_AT:
        return Action.of("gb")
    plans = [p for p in _plans(state, seat, legal, "attack", FORCE) if p[0] > 0]
    if plans:
        return plans[0][1]
    return Action.of("gb") if Action.of("gb") in legal else Action.of("judge")


class HeuristicPlayer:
    """The heuristic COM: rebuilds a world from its own view and answers by :func:`policy`."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "heuristic"
        self.rng = random.Random(seed)
        self.last_explanation: list[Json] = []

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        """The policy's answer from ``view`` (its seat's only)."""
        from kessen.games.maken.worlds import world_from_view

        actions = list(legal)
        world = world_from_view(view, self.rng.randrange(2**32))
        world.legal = actions
        return policy(world, view["viewer"], actions)

    def explain(self) -> list[Json]:
        """No search, no candidates to show."""
        return []

"""Kōbō's cheap judgement for search: a static evaluation of a state and a fast rollout policy.

Search (:mod:`kessen.ai.ismcts`) truncates its playouts: it plays a few actions with
:func:`rollout` and then asks :func:`evaluate` how likely seat 0 is to win the *match*. Both read
the state directly (search only ever hands them sampled or simulated worlds, never the true
state of a game), and both are plain arithmetic, a few microseconds each.

The evaluation turns material into a game-win probability with a logistic curve: characters on
the field count their Lv plus a body bonus (a game is lost when the last one falls), traps and
tactics count what their effect is worth in Lv, the tactics deck a little, passes already paid
for nothing. Search maximizes the chance to win the current game (later games of the match
start afresh); :func:`match_odds` turns it into a match-win chance for display.

The *deep* model (the strongest COM level) judges with :func:`fitted_odds` instead: a logistic
curve over board, trap and tactic features whose weights were fitted on self-play outcomes
(:data:`FITTED_WEIGHTS`, ``bench/fit_kobo_eval.py``), after rollouts of :data:`DEEP_TURNS` turns.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cache

from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.games.kobo.card_sets import active_set_pool
from kessen.games.kobo.cards import (
    CHANGE_TARGET,
    MODIFY_LV,
    NEGATE_ATTACK,
    NEGATE_LAST,
    RETREAT_IF_ZERO,
    SCOPE_CHOSEN,
    CardDef,
    CardKind,
)
from kessen.games.kobo.effects import side_seat
from kessen.games.kobo.heuristic import HeuristicPlayer
from kessen.games.kobo.heuristic_exchange import ExchangeSim, Pos, SimLink, card_def
from kessen.games.kobo.opening import penalty
from kessen.games.kobo.schema import CardPool, load_pool
from kessen.games.kobo.state import EMPTY, HAND, SLOTS, TDECK, THAND, KoboState
from kessen.games.kobo.value_model import battle_summary, net_odds

BODY = 2.0
"""What a character on the field is worth on top of its Lv."""
SLOPE = 0.22
"""Logistic slope: a material lead of one Lv 3 character (5.0) is a ~75% game."""
TACTICS_DECK_CARD = 0.25
"""What one card left in the tactics deck is worth (future draws, pass penalties)."""
TURNS = 1
"""Rollout length: turns begun after the standby before the evaluation takes over (it then
judges a quiet board: no exchange open, no temporary Lv change)."""
DEEP_TURNS = 2
"""Rollout length of the deep model (:func:`deep_rollout`)."""
ROLLOUT_CAP = 300
"""Hard cap on the actions of one rollout (the standby is played out whole)."""

PASS = Action.of("pass")


def card_value(slug: str) -> float:
    """What holding a trap or tactic (or a deploy card, or a character in hand) is worth, in
    Lv (the card of the match's pool: :func:`~kessen.games.kobo.card_sets.active_pool`)."""
    pool = active_set_pool()
    return _shipped_value(slug) if pool is None else _pool_value(pool, slug)


@cache
def _shipped_value(slug: str) -> float:
    return _value(load_pool().get(slug))


@cache
def _pool_value(pool: CardPool, slug: str) -> float:
    return _value(pool.get(slug))


def _value(cdef: CardDef) -> float:
    if cdef.kind is CardKind.CHARACTER:
        return cdef.lv + BODY
    if cdef.kind is CardKind.DEPLOY:
        return 1.2
    value = 0.0
    amount = sum(abs(s.amount) for s in cdef.steps if s.verb is MODIFY_LV)
    if amount:
        value += 0.6 * amount
        if cdef.target is not None and cdef.target.scope is not SCOPE_CHOSEN:
            value += 0.2
    if cdef.has(NEGATE_ATTACK):
        value += 2.0
    if cdef.has(NEGATE_LAST):
        value += 1.6
    if cdef.has(CHANGE_TARGET):
        value += 1.4
    if cdef.has(RETREAT_IF_ZERO):
        value += 0.4
    if cdef.chain_again:
        value += 0.3
    if cdef.permanent:
        value *= 1.2
    return value


def material(state: KoboState, seat: int) -> float:
    """The seat's material in Lv units: field, face-down traps, hands, tactics deck, passes."""
    defs = state.defs
    total = 0.0
    base, temp = state.base, state.temp
    for card in state.battle[seat * SLOTS : seat * SLOTS + SLOTS]:
        if card != EMPTY:
            lv = base[card] + temp[card]
            total += (lv if lv > 0 else 0) + BODY
    faceup = state.faceup
    for card in state.strategy[seat * SLOTS : seat * SLOTS + SLOTS]:
        if card != EMPTY and not faceup[card]:
            total += card_value(defs[card].slug)
    for card in state.zone(seat, THAND):
        total += card_value(defs[card].slug)
    for card in state.zone(seat, HAND):
        total += card_value(defs[card].slug)
    total += TACTICS_DECK_CARD * len(state.zone(seat, TDECK))
    total -= 0.3 * state.passes[seat]
    return total


@cache
def _match_odds(mine: int, theirs: int, need: int) -> float:
    """Chance to take the match from this score if every later game is a coin flip."""
    if mine >= need:
        return 1.0
    if theirs >= need:
        return 0.0
    return 0.5 * _match_odds(mine + 1, theirs, need) + 0.5 * _match_odds(mine, theirs + 1, need)


def game_odds(state: KoboState) -> float:
    """Seat 0's chance to win the current game, from the material balance."""
    diff = material(state, 0) - material(state, 1)
    return 1.0 / (1.0 + math.exp(-SLOPE * diff))


#: Logistic weights of :func:`fitted_odds`, per feature (seat 0's minus seat 1's; ``tempo`` is
#: +1 when seat 0 is to move, else -1). ``trap:…`` counts face-down traps set, ``tac:…``
#: tactics in hand; ``playable`` is min(empty strategy slots, tactics in hand), ``weak`` the
#: characters of Lv ≤ 1. Fitted by ``bench/fit_kobo_eval.py`` (Newton's method, L2 1.0) on
#: 86,557 turn-start positions of 4,000 heuristic self-play matches under card data version 3
#: (random starter-deck pairs, 0-20% random moves). On the 20% held out: log loss 0.349 and
#: 84.3% of game winners called, against 0.368 and 83.1% for the version-2 fit and 0.506 and
#: 75.7% for :func:`game_odds`.
FITTED_WEIGHTS: dict[str, float] = {
    "chars": 0.1065,
    "lv": 0.1582,
    "lv_max": 0.8640,
    "weak": 0.1913,
    "tdeck": -0.0309,
    "passes": -0.2306,
    "playable": 0.3895,
    "trap:battle-cry": 0.9736,
    "trap:counter-seal": 1.4650,
    "trap:covering-fire": 0.5821,
    "trap:decoy": 0.2875,
    "trap:holy-barrier": 0.6688,
    "trap:steadfast": 0.9229,  # in no starter deck of version 3: its version-2 weight
    "trap:thorn-armor": 1.3136,
    "trap:unhealing-wound": 0.9636,
    "tac:ceasefire": 0.2944,
    "tac:counter-spell": 0.5964,
    "tac:hinder": 0.2039,
    "tac:last-stand": 0.7703,
    "tac:mass-jamming": 0.8815,
    "tac:power-surge": 0.5893,
    "tac:swift-step": 0.2813,
    "tac:target-change": -0.0338,
    "tac:total-war": 1.0352,
    "tac:weaken": 0.5602,
    "tempo": -0.0250,
}
BOARD_FEATURES = ("chars", "lv", "lv_max", "weak", "tdeck", "passes", "playable")
"""The features of :func:`features` before the per-card counts, in order."""


def _kind_weights(prefix: str) -> dict[str, float]:
    return {k.removeprefix(prefix): v for k, v in FITTED_WEIGHTS.items() if k.startswith(prefix)}


_TRAP_WEIGHTS = _kind_weights("trap:")
_TACTIC_WEIGHTS = _kind_weights("tac:")
#: A trap or tactic the fit never saw (a custom card pool) counts as the mean of its kind.
_TRAP_UNSEEN = sum(_TRAP_WEIGHTS.values()) / len(_TRAP_WEIGHTS)
_TACTIC_UNSEEN = sum(_TACTIC_WEIGHTS.values()) / len(_TACTIC_WEIGHTS)


def trap_weight(slug: str) -> float:
    """The fitted weight of a face-down trap ``slug`` (the mean of its kind if never fitted)."""
    return _TRAP_WEIGHTS.get(slug, _TRAP_UNSEEN)


def tactic_weight(slug: str) -> float:
    """The fitted weight of ``slug`` in the tactics hand (the mean of its kind if never fitted)."""
    return _TACTIC_WEIGHTS.get(slug, _TACTIC_UNSEEN)


def features(state: KoboState, seat: int) -> dict[str, float]:
    """The fitted evaluation's features of one seat (names as in :data:`FITTED_WEIGHTS`)."""
    defs = state.defs
    lvs = [state.lv(c) for c in state.battle[seat * SLOTS : seat * SLOTS + SLOTS] if c != EMPTY]
    hand = state.zone(seat, THAND)
    free = 0
    out: dict[str, float] = {}
    for card in state.strategy[seat * SLOTS : seat * SLOTS + SLOTS]:
        if card == EMPTY:
            free += 1
        elif not state.faceup[card]:
            key = "trap:" + defs[card].slug
            out[key] = out.get(key, 0.0) + 1.0
    for card in hand:
        key = "tac:" + defs[card].slug
        out[key] = out.get(key, 0.0) + 1.0
    board = (
        len(lvs),
        sum(lvs),
        max(lvs, default=0),
        sum(1 for v in lvs if v <= 1),
        len(state.zone(seat, TDECK)),
        state.passes[seat],
        min(free, len(hand)),
    )
    return {**dict(zip(BOARD_FEATURES, map(float, board), strict=True)), **out}


_W = FITTED_WEIGHTS


def _fitted_side(state: KoboState, seat: int) -> float:
    """One seat's share of the logit: the weighted sum of :func:`features`, computed directly."""
    defs = state.defs
    start = seat * SLOTS
    chars, lv_sum, lv_max, weak = battle_summary(state, seat)
    free = 0
    total = 0.0
    faceup = state.faceup
    for card in state.strategy[start : start + SLOTS]:
        if card == EMPTY:
            free += 1
        elif not faceup[card]:
            total += _TRAP_WEIGHTS.get(defs[card].slug, _TRAP_UNSEEN)
    hand = state.zone(seat, THAND)
    for card in hand:
        total += _TACTIC_WEIGHTS.get(defs[card].slug, _TACTIC_UNSEEN)
    return (
        total
        + _W["chars"] * chars
        + _W["lv"] * lv_sum
        + _W["lv_max"] * lv_max
        + _W["weak"] * weak
        + _W["tdeck"] * len(state.zone(seat, TDECK))
        + _W["passes"] * state.passes[seat]
        + _W["playable"] * min(free, len(hand))
    )


def fitted_odds(state: KoboState) -> float:
    """Seat 0's chance to win the current game, from the fitted logistic curve."""
    logit = _fitted_side(state, 0) - _fitted_side(state, 1)
    logit += _W["tempo"] if state.turn_player == 0 else -_W["tempo"]
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))


def _decided(state: KoboState) -> float | None:
    """The score of a decided position: a finished match, or a game that just ended."""
    if state.turn == 0 and state.results:
        winner = state.results[-1][0]
        return 0.5 if winner < 0 else 1.0 - winner
    result = state.match_result
    if result is not None:
        return 0.5 if result[0] < 0 else 1.0 - result[0]
    return None


def evaluate(state: GameState) -> float:
    """Seat 0's chance to win the game being played (the one search started in).

    A finished match scores its winner; a game that just ended (a fresh standby, turn 0)
    scores that game's winner; otherwise the material balance decides. Games of a match are
    independent but for the score, so winning the current game is what a decision can do.
    """
    assert isinstance(state, KoboState)
    decided = _decided(state)
    return game_odds(state) if decided is None else decided


VALUE_NET = True
"""Whether the deep model judges an undecided position with the value network
(:func:`~kessen.games.kobo.value_model.net_odds`) rather than :func:`fitted_odds` (off: the
earlier measurements' model, for probes: ``strong_variants.py value-net=0``)."""


def deep_evaluate(state: GameState) -> float:
    """As :func:`evaluate`, judging an undecided position with the value network
    (:data:`VALUE_NET`; else :func:`fitted_odds`)."""
    assert isinstance(state, KoboState)
    decided = _decided(state)
    if decided is not None:
        return decided
    return net_odds(state) if VALUE_NET else fitted_odds(state)


def match_odds(state: KoboState) -> float:
    """Seat 0's chance to take the match, from the score and the current game's odds."""
    need = state.config.wins_needed
    a, b = state.wins
    p = 0.5 if state.turn == 0 else game_odds(state)
    return p * _match_odds(a + 1, b, need) + (1 - p) * _match_odds(a, b + 1, need)


# --- rollout policy ---------------------------------------------------------------------------


def _exchange_leader(state: KoboState) -> int:
    """The seat that wins the current exchange if the chain closed now (-1 for a tie)."""
    if state.negated:
        return 1 - state.attacker_seat
    battle = state.battle
    attack = 0
    for card in state.attackers:
        if card in battle:
            attack += state.lv(card)
    target = state.target
    if target == EMPTY or target not in battle or attack == 0:
        return 1 - state.attacker_seat
    defence = state.lv(target)
    if attack > defence:
        return state.attacker_seat
    if defence > attack:
        return 1 - state.attacker_seat
    return -1


def _declare(state: KoboState, legal: list[Action], rng: random.Random) -> Action:
    seat = state.turn_player
    attackers = state.stack[-1][1:]
    total = sum(state.lv(a) for a in attackers)
    foe = (1 - seat) * SLOTS
    best: Action | None = None
    best_lv = -1
    for action in legal:
        if action.verb != "target":
            continue
        card = state.battle[foe + int(action.args[0]) - 1]
        lv = state.lv(card)
        if lv < total and lv > best_lv:
            best, best_lv = action, lv
    if best is not None and rng.random() < 0.85:
        return best
    return legal[rng.randrange(len(legal))]


def _chain_target(state: KoboState, legal: list[Action], rng: random.Random) -> Action:
    """Aim a chain card at a participant of the exchange where that makes sense."""
    _, seat, card = state.stack[-1]
    cdef = state.defs[card]
    if cdef.has(CHANGE_TARGET) or rng.random() < 0.1:
        return legal[rng.randrange(len(legal))]
    amount = sum(s.amount for s in cdef.steps if s.verb is MODIFY_LV)
    if amount > 0:
        wanted = state.attackers if seat == state.attacker_seat else (state.target,)
    else:
        wanted = (state.target,) if seat == state.attacker_seat else state.attackers
    row = side_seat(state, seat, cdef) * SLOTS
    for action in legal:
        if state.battle[row + int(action.args[0]) - 1] in wanted:
            return action
    return legal[rng.randrange(len(legal))]


def policy(state: KoboState, legal: list[Action], rng: random.Random) -> Action:
    """A cheap, biased random answer to the pending prompt (for rollouts)."""
    assert state.prompt is not None
    kind = state.prompt[1]
    if kind == "chain":
        seat = state.prompt[0]
        leader = _exchange_leader(state)
        if leader == seat or len(legal) == 1 or rng.random() < 0.35:
            return PASS
        return legal[rng.randrange(len(legal) - 1)]
    if kind == "turn":
        if len(legal) > 1 and (rng.random() > 0.05 or state.passes[state.turn_player] > 0):
            return legal[rng.randrange(len(legal) - 1)]
        return legal[rng.randrange(len(legal))]
    if kind == "declare":
        return _declare(state, legal, rng)
    if kind == "tactics":
        weights = [card_value(str(a.args[0])) ** 2 for a in legal]
        return rng.choices(legal, weights)[0]
    if kind == "target":
        return _chain_target(state, legal, rng)
    if kind == "deploy":
        return legal[0]
    if kind == "set":
        return legal[0] if rng.random() < 0.8 else legal[-1]
    return legal[rng.randrange(len(legal))]


@cache
def _heuristic() -> HeuristicPlayer:
    return HeuristicPlayer(0)


#: Prompts of the exchange, where rollouts ask the heuristic COM (from the acting seat's view of
#: the simulated world); elsewhere the cheap :func:`policy` answers.
HEURISTIC_PROMPTS = frozenset({"turn", "declare", "chain", "target", "tie", "penalty", "surprise"})
#: Prompts the search leaves to the heuristic COM outright (the standby's routine choices).
ROUTINE_PROMPTS = frozenset(
    {"standby", "place", "set", "deploy", "deploy_target", "nominate", "blind", "tactics"}
)
EPSILON = 0.1
"""Share of rollout decisions in the exchange taken by :func:`policy` instead (diversity)."""


def routine(view: Json, legal: Sequence[Action]) -> Action | None:
    """The heuristic COM's answer to a routine standby prompt; ``None`` where search decides."""
    pending = view.get("pending") or {}
    if pending.get("prompt") in ROUTINE_PROMPTS:
        return _heuristic().choose(view, legal)
    return None


def prior(view: Json, legal: Sequence[Action]) -> Action | None:
    """The heuristic COM's answer from the same view: the search's starting preference."""
    return _heuristic().choose(view, legal)


def state_prior(state: GameState, legal: list[Action]) -> Action | None:
    """The heuristic COM's answer for the seat to act in a sampled world, from its view there.

    The search's preference at the nodes below its root (``tree_prior_weight``).
    """
    assert isinstance(state, KoboState) and state.prompt is not None
    return _ask_heuristic(state, state.prompt[0], legal)


def _lean_side(state: KoboState, s: int, seat: int) -> Json:
    defs = state.defs
    start = s * SLOTS
    battle: list[Json | None] = []
    for card in state.battle[start : start + SLOTS]:
        if card == EMPTY:
            battle.append(None)
        else:
            battle.append(
                {
                    "slug": defs[card].slug,
                    "printed": defs[card].lv,
                    "base": state.base[card],
                    "lv": state.lv(card),
                    "attacking": card in state.attackers,
                    "target": card == state.target,
                }
            )
    strategy: list[Json | None] = []
    for card in state.strategy[start : start + SLOTS]:
        if card == EMPTY:
            strategy.append(None)
        elif state.faceup[card]:
            strategy.append({"face": "up", "slug": defs[card].slug})
        elif s == seat:
            strategy.append({"face": "down", "slug": defs[card].slug})
        else:
            strategy.append({"face": "down"})
    hands: Json = {}
    for key, zone in (("hand", HAND), ("tactics_hand", THAND)):
        cards = state.zone(s, zone)
        hands[key] = {
            "count": len(cards),
            "cards": [{"slug": defs[c].slug} for c in cards] if s == seat else None,
        }
    return {
        "seat": s,
        "battle": battle,
        "strategy": strategy,
        **hands,
        "passes": state.passes[s],
        "tactics_deck": len(state.zone(s, TDECK)),
    }


def lean_view(state: KoboState, seat: int) -> Json:
    """The parts of ``state.view(seat)`` that exchange decisions read, built ~10x faster.

    Same keys and values as the real view for the board, the attack, the chain and the pending
    prompt (no deck lists, no log, no card names): for the heuristic COM inside rollouts.
    """
    defs = state.defs
    attack: Json | None = None
    if state.attackers:
        target = state.slot_of(state.target) if state.target != EMPTY else EMPTY
        attack = {
            "seat": state.attacker_seat,
            "attackers": [state.slot_of(a) + 1 for a in state.attackers if state.on_field(a)],
            "target": target + 1 if target != EMPTY else None,
            "negated": state.negated,
        }
    chain: list[Json] = []
    for index, (card, owner, chosen, negated) in enumerate(state.chain):
        link: Json = {"link": index + 1, "seat": owner, "slug": defs[card].slug, "negated": negated}
        if defs[card].needs_choice and chosen != EMPTY:
            slot = state.slot_of(chosen)
            link["target"] = {"seat": state.owner[chosen], "slot": slot + 1 if slot >= 0 else None}
        elif chosen != EMPTY:
            link["negates"] = chosen + 1
        chain.append(link)
    assert state.prompt is not None
    kind = state.stack[-1][0]
    frame = state.stack[-1]
    context: Json = {}
    if kind == "declare":
        context = {
            "attackers": [state.slot_of(a) + 1 for a in frame[1:]],
            "total": sum(state.lv(a) for a in frame[1:]),
        }
    elif kind == "chain_target":
        context = {"card": {"slug": defs[frame[2]].slug}}
    elif kind == "penalty":
        context = {"left": frame[2]}
    elif kind == "turn_decide":
        context = {"pass_penalty": penalty(state.config.pass_penalty, state.passes[seat] + 1)}
    return {
        # As the real view: the heuristic weighs a pass by the schedule.
        **state.config.opening_view(),
        "viewer": seat,
        "match": {"game": state.game_no, "wins": state.wins[:]},
        "turn": state.turn,
        "turn_player": state.turn_player,
        "players": [_lean_side(state, s, seat) for s in (0, 1)],
        "attack": attack,
        "chain": chain,
        "pending": {
            "seat": state.prompt[0],
            "prompt": state.prompt[1],
            "prompt_id": state.prompt_id,
            "context": context,
        },
    }


def _row_slot(where: dict[int, Pos], owner: tuple[int, ...], card: int) -> int:
    """``state.slot_of(card) + 1`` (0 when off its owner's row), read from ``where``."""
    found = where.get(card)
    return found[1] if found is not None and found[0] == owner[card] else 0


def exchange_sim(state: KoboState) -> ExchangeSim:
    """The heuristic COM's simulation of the current exchange, read straight from ``state``.

    The same simulation it builds from :func:`lean_view` (current Lv clamped at 0, a chosen
    character off the field forgotten), without building the view: for chain answers in
    rollouts.
    """
    defs, owner = state.defs, state.owner
    base: dict[Pos, int] = {}
    temp: dict[Pos, int] = {}
    where: dict[int, Pos] = {}  # card -> (seat of its row, slot 1-5)
    battle, printed_lv, modifier = state.battle, state.base, state.temp
    for index in range(2 * SLOTS):
        card = battle[index]
        if card != EMPTY:
            pos = (index // SLOTS, index % SLOTS + 1)
            printed = printed_lv[card]
            base[pos] = printed
            # As the view reads it: the current Lv is clamped at 0.
            temp[pos] = modifier[card] if printed + modifier[card] > 0 else -printed
            where[card] = pos

    if not state.attackers:
        return ExchangeSim(base, temp, 0, [], None)
    seat = state.attacker_seat
    target = _row_slot(where, owner, state.target) if state.target != EMPTY else 0
    sim = ExchangeSim(
        base,
        temp,
        seat,
        [(seat, _row_slot(where, owner, a)) for a in state.attackers if a in where],
        (1 - seat, target) if target else None,
        bool(state.negated),
    )
    flipped = dict(state.surprise.pending) if state.surprise is not None else {}
    for card, controller, chosen, negated in state.chain:
        cdef = defs[card] if card not in flipped else defs[card].surprise_effect(flipped[card])
        position: Pos | None = None
        negates: int | None = None
        if cdef.needs_choice and chosen != EMPTY:
            chosen_slot = _row_slot(where, owner, chosen)
            position = (owner[chosen], chosen_slot) if chosen_slot else None
        elif chosen != EMPTY:
            negates = chosen + 1
        known = card_def(cdef.slug) if card not in flipped else cdef
        sim.links.append(SimLink(known, controller, position, negates, bool(negated)))
    return sim


def heuristic_chain_answer(state: KoboState, seat: int, legal: list[Action]) -> Action:
    """The heuristic COM's chain answer, as from :func:`lean_view`, built from ``state``."""
    options: list[tuple[Action, CardDef]] = []
    for action in legal:
        if action.verb == "play":
            options.append((action, card_def(str(action.args[0]))))
        elif action.verb == "trap":
            card = state.strategy[seat * SLOTS + int(action.args[0]) - 1]
            if card != EMPTY:
                options.append((action, card_def(state.defs[card].slug)))
    answer = _heuristic().chain_answer(exchange_sim(state), seat, options)
    return answer if answer in legal else legal[0]  # as HeuristicPlayer.choose does


def _target_answer(state: KoboState, seat: int, legal: list[Action]) -> Action:
    """The heuristic COM's choice for the card being activated, built from ``state``."""
    slots = [int(a.args[0]) for a in legal if a.verb == "slot"]
    if not slots:
        return legal[0]
    card = card_def(state.defs[state.stack[-1][2]].slug)
    return _heuristic().target_answer(exchange_sim(state), seat, card, slots)


def _ask_heuristic(state: KoboState, seat: int, legal: list[Action]) -> Action:
    heuristic = _heuristic()
    try:
        if state.prompt is not None and state.prompt[1] == "chain":
            return heuristic_chain_answer(state, seat, legal)
        if state.prompt is not None and state.prompt[1] == "target":
            return _target_answer(state, seat, legal)
        return heuristic.choose(lean_view(state, seat), legal)
    except (KeyError, TypeError, IndexError, AttributeError):
        return heuristic.choose(state.view(seat), legal)


def deep_rollout(state: GameState, rng: random.Random) -> None:
    """:func:`rollout` over :data:`DEEP_TURNS` turns (the deep model)."""
    rollout(state, rng, DEEP_TURNS)


def rollout(state: GameState, rng: random.Random, turns: int = TURNS) -> None:
    """Play on through the standby and ``turns`` more turn starts, then stop.

    Exchange decisions are the heuristic COM's (seeing only its seat's view of this world),
    with :data:`EPSILON` random deviations; the rest follow :func:`policy`. It stops at a turn
    decision (a quiet board), or early when the current game ends (the next game starts even,
    as far as the evaluation knows).
    """
    assert isinstance(state, KoboState)
    games = len(state.results)
    turns = state.turn + turns if state.turn > 0 else turns
    for _ in range(ROLLOUT_CAP):
        prompt = state.prompt
        if prompt is None or len(state.results) != games:
            return
        if prompt[1] == "turn" and state.turn >= turns:
            return
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        elif prompt[1] in HEURISTIC_PROMPTS and rng.random() >= EPSILON:
            action = _ask_heuristic(state, prompt[0], legal)
        else:
            action = policy(state, legal, rng)
        state.apply(action)

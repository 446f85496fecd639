"""Playable TWGP worlds rebuilt from one seat's view, and the hooks that let the search COM play.

:func:`world_from_view` turns the JSON view of the seat that must decide (what
``state.view(seat)`` returns) into a complete :class:`~kessen.games.twgp.state.TwgpState` that
looks exactly the same from that seat: same board, counts, pending prompt and legal actions (in
the same order). Each seat's pool of 26 cards (27 with jokers) is public (twgp-trump.md §2.1),
so every card the seat cannot see is dealt from its owner's pool minus every card the view
shows: the order of the seat's own pile; the opponent's hand, pile, face-down vitals and charge
cards, cards set aside, build pool and stealth-summoned units (a unit of base ≤03 again). No
card id, RNG or private log entry of the opponent is read; the world's RNG is fresh.

What the view does not spell out is rebuilt from public facts:

- the frame stack, from the prompt kind, the phase, the pending attack, the prompt's context
  and, for weapon-cache decisions (switch ``weaponCache``), the log since the event that
  discarded the stacks;
- this turn's counters (reversing moves, deck cards taken, the A16 reload, whether the turn
  was active), by reading the log since the last ``turn`` entry;
- whether an own face-down unit is still a secret (stealth-summoned and never face up), from
  the last ``charge_drive`` or ``stealth`` entry of its square.

:func:`search_hooks` bundles, for the game-agnostic search of :mod:`kessen.ai.ismcts`, the
sampler (:func:`world_sampler`), a logistic evaluation fitted on self-play (:func:`evaluate`),
truncated heuristic rollouts (:func:`rollout`) and the prompts left to the heuristic COM
(:func:`routine`). The own pile's order is dealt at random even where the seat could know part
of it (cards it put on the bottom by a reload): a world never knows more than the seat.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.engine.digest import LogDigest
from kessen.engine.log import Event
from kessen.engine.players import Player
from kessen.engine.poses import NO_MARK, Stack
from kessen.engine.rng import Rng
from kessen.games.twgp.cards import CARDS, CHARGE_DRIVE_MAX, by_slug, pool
from kessen.games.twgp.config import VITALS, parse_config
from kessen.games.twgp.state import (
    ACTIVE,
    ASIDE,
    ATTACK_NAMES,
    EFFECT,
    EMPTY,
    GB,
    HAND,
    HIDDEN,
    LOST,
    PHASE_NAMES,
    PILE,
    POOL,
    SAVE,
    STEALTH,
    STORAGE,
    SURGE,
    ZONES,
    Attack,
    Frame,
    TwgpState,
)
from kessen.games.twgp.vitals import RELOAD, STEP_NAMES

_POSES = {"active": ACTIVE, "save": SAVE, "stealth": STEALTH, "gb": GB}
_STEP_BITS = {name: bit for bit, name in STEP_NAMES.items()}
_TURN_BASE: list[Frame] = [("turn_end",), ("battle_window",)]


class WorldError(ValueError):
    """A view that no TWGP state can match (or that this module cannot rebuild)."""


def _card(entry: Json) -> int:
    return by_slug(str(entry["slug"])).id


def _cards(entries: Sequence[Json] | None) -> list[int]:
    return [_card(e) for e in entries or ()]


def world_from_view(view: Json, seed: int, *, keep_log: bool = False) -> TwgpState:
    """A playable state that ``view``'s seat cannot tell from the true one; hidden parts dealt.

    ``view`` is ``state.view(seat)`` for the seat that must decide now. The world's
    ``view(seat)`` equals ``view`` (the log too if ``keep_log``; search does not need it) and
    its legal actions are the same, in the same order. ``seed`` drives the deal and seeds the
    world's own RNG. Raises :class:`WorldError` for a view it cannot match.
    """
    seat = view.get("viewer")
    pending = view.get("pending")
    if not isinstance(seat, int) or pending is None or pending["seat"] != seat:
        raise WorldError("a world is rebuilt from the view of the seat that decides now")
    if view.get("ruleset") != "twgp":
        raise WorldError("not a TWGP view")
    rng = random.Random(seed)
    config = parse_config(view["config"])
    if config.grid_width != view["width"]:
        raise WorldError("the view's width does not match its config")
    state = TwgpState.blank(config, rng.randrange(2**63))
    state.zones = [[] for _ in range(2 * ZONES)]
    log: list[Json] = view.get("log") or []
    secrets: list[int] = []  # battle cells of the opponent's stealth-summoned units
    free: list[list[int]] = []
    for s, side in enumerate(view["players"]):
        if side["seat"] != s:
            raise WorldError("the view's sides are out of order")
        secrets += _place_side(state, s, side, seat, log)
        shown = _shown(state, s)
        left = [c for c in pool(s, config.jokers) if c not in shown]
        if len(left) + len(shown) != len(pool(s, config.jokers)) or len(set(shown)) < len(shown):
            raise WorldError(f"seat {s}: the view shows a card twice or a foreign card")
        free.append(left)
    _deal_own_pile(state, view["players"][seat], seat, free[seat], rng)
    _deal_opponent(state, view["players"][1 - seat], 1 - seat, free[1 - seat], secrets, rng)
    _scalars(state, view, log)
    state.stack = _frames(state, view, log)
    state.prompt = (pending["seat"], pending["prompt"])
    state.prompt_id = pending["prompt_id"]
    state.legal = None
    state.log_digest = LogDigest()
    if keep_log:
        state.log = [Event(e["kind"], {k: v for k, v in e.items() if k != "kind"}) for e in log]
    return state


def _own_secret(log: Sequence[Json], seat: int, square: int, stack: Json) -> bool:
    """Whether the viewer's own face-down unit in ``square`` (1-based) is still a secret."""
    for entry in reversed(log):
        kind = entry["kind"]
        if (
            kind in ("charge_drive", "stealth")
            and entry.get("seat") == seat
            and entry.get("square") == square
        ):
            return kind == "charge_drive" and entry.get("face") == "down"
    return not log and not stack["frames"]


def _place_side(
    state: TwgpState, s: int, side: Json, viewer: int, log: Sequence[Json]
) -> list[int]:
    """Put every card the view shows of seat ``s``; return the cells of unseen stealth units."""
    w = state.width
    secrets: list[int] = []
    for i, entry in enumerate(side["battle"]):
        if entry is None:
            continue
        pose = _POSES[entry["pose"]]
        mark = entry["gb_turn"] if pose == GB else NO_MARK
        frames = tuple(_cards(entry["frames"]))
        weapons = tuple(_cards(entry["weapons"]))
        if entry["unit"] is None:
            if s == viewer or pose != STEALTH:
                raise WorldError("an unseen unit that is not the opponent's face-down one")
            state.battle[s * w + i] = Stack(EMPTY, frames, weapons, pose, mark, True)
            secrets.append(s * w + i)
            continue
        secret = pose == STEALTH and s == viewer and _own_secret(log, s, i + 1, entry)
        state.battle[s * w + i] = Stack(_card(entry["unit"]), frames, weapons, pose, mark, secret)
    for i, entry in enumerate(side["vitals"]):
        face = entry["face"]
        if face == "empty":
            continue
        index = s * VITALS + i
        if "slug" in entry:
            state.vitals[index] = _card(entry)
        if face == "down":
            state.vpose[index] = HIDDEN
        else:
            state.vpose[index] = EFFECT if entry["status"] == "effect" else LOST
            if "slug" not in entry:
                raise WorldError("a face-up vital without its card")
    for i, entry in enumerate(side["charge"]):
        if entry is not None and "slug" in entry:
            state.charge[s * w + i] = _card(entry)
    for zone, key in ((HAND, "hand"), (ASIDE, "aside"), (POOL, "pool")):
        part = side.get(key)
        if part is not None and part["cards"] is not None:
            state.zone(s, zone).extend(_cards(part["cards"]))
    state.zone(s, SURGE).extend(_cards(side["surge"]))
    state.zone(s, STORAGE).extend(_cards(side["storage"]))
    for i, cached in enumerate(side.get("cache") or ()):  # (not ``weapons``: a tuple above)
        state.cache[s * w + i] = tuple(_cards(cached))
    return secrets


def _shown(state: TwgpState, s: int) -> list[int]:
    """Every card of seat ``s`` placed so far."""
    w = state.width
    out: list[int] = []
    for z in range(ZONES):
        out += state.zone(s, z)
    out += [c for c in state.vitals[s * VITALS : s * VITALS + VITALS] if c != EMPTY]
    out += [c for c in state.charge[s * w : s * w + w] if c != EMPTY]
    for i in range(s * w, s * w + w):
        out += state.cache[i]
        stack = state.battle[i]
        if stack is not None:
            out += [c for c in stack.cards() if c != EMPTY]
    return out


def _deal_own_pile(
    state: TwgpState, side: Json, seat: int, left: list[int], rng: random.Random
) -> None:
    """The seat's own unseen cards are exactly its pile; their order is dealt at random."""
    if len(left) != side["pile"]:
        raise WorldError(f"own pile: {len(left)} cards unaccounted for, view says {side['pile']}")
    if any(v["face"] == "down" and "slug" not in v for v in side["vitals"]):
        raise WorldError("the deciding seat cannot have cards hidden from itself")
    pile = sorted(left)
    rng.shuffle(pile)
    state.zone(seat, PILE).extend(pile)


def _deal_opponent(
    state: TwgpState,
    side: Json,
    opp: int,
    left: list[int],
    secrets: list[int],
    rng: random.Random,
) -> None:
    """Deal the opponent's unseen cards into every place the view hides."""
    w = state.width
    hidden = sorted(left)
    rng.shuffle(hidden)
    small = [c for c in hidden if CARDS[c].is_unit and (CARDS[c].base or 0) <= CHARGE_DRIVE_MAX]
    if len(small) < len(secrets):
        raise WorldError("more face-down opponent units than unseen units of base ≤03")
    chosen = small[: len(secrets)]
    for cell, card in zip(secrets, chosen, strict=True):
        stack = state.battle[cell]
        assert stack is not None
        state.battle[cell] = stack._replace(top=card)
    taken = set(chosen)
    rest = [c for c in hidden if c not in taken]
    vitals = [
        opp * VITALS + i
        for i, v in enumerate(side["vitals"])
        if v["face"] == "down" and "slug" not in v
    ]
    charge = [
        opp * w + i for i, c in enumerate(side["charge"]) if c is not None and "slug" not in c
    ]
    sizes = [
        (POOL, side["pool"]["count"] if "pool" in side else 0),
        (HAND, side["hand"]["count"]),
        (ASIDE, side["aside"]["count"]),
        (PILE, side["pile"]),
    ]
    need = sum(n for _, n in sizes) + len(vitals) + len(charge)
    if need != len(rest):
        raise WorldError(f"opponent: {len(rest)} cards unseen, the view hides {need}")
    start = 0
    for zone, size in sizes:
        state.zone(opp, zone).extend(rest[start : start + size])
        start += size
    for index in vitals:
        state.vitals[index] = rest[start]
        start += 1
    for cell in charge:
        state.charge[cell] = rest[start]
        start += 1


def _this_turn(log: Sequence[Json]) -> Sequence[Json]:
    """The log entries since the last ``turn`` entry (the whole log before turn 1)."""
    for index in range(len(log) - 1, -1, -1):
        if log[index]["kind"] == "turn":
            return log[index + 1 :]
    return log


def _scalars(state: TwgpState, view: Json, log: Sequence[Json]) -> None:
    state.turn = view["turn"]
    state.turn_player = view["turn_player"]
    first = view["first_player"]
    state.first_player = first if first is not None else 0
    state.phase = PHASE_NAMES.index(view["phase"])
    state.quiet = view["quiet"]
    for s, side in enumerate(view["players"]):
        state.wipe_used[s] = bool(side["wipe_used"])
        zero = side["zero_turn"]
        state.zero_turn[s] = zero if zero is not None else EMPTY
    attack = view["attack"]
    if attack is not None:

        def square(value: int | None) -> int:
            return value - 1 if value is not None else EMPTY

        state.attack = Attack(
            ATTACK_NAMES.index(attack["type"]),
            attack["seat"],
            attack["attacker"] - 1,
            square(attack["target"]),
            attack["surge_a"],
            attack["surge_d"],
            attack["downloads"],
            square(attack["interrupter"]),
            bool(attack["lost"]),
            bool(attack["cancelled"]),
        )
    toggles = [0, 0]
    taken = [0, 0]
    for entry in _this_turn(log):
        kind, who = entry["kind"], entry.get("seat")
        if not isinstance(who, int) or who not in (0, 1):
            continue
        s = who
        if kind in ("stealth", "weapon_back", "weapon_move") or (
            kind == "reactive" and entry.get("cancelled_gb")
        ):
            toggles[s] += 1
        elif kind == "download":
            taken[s] += len(entry["squares"])
        elif kind == "reload_take":
            taken[s] += int(entry["took"])
    current = _this_turn(log)
    state.reloaded = any(e["kind"] == "reload_bottom" for e in current)
    state.active_turn = any(e["kind"] in ("discard", "vital_lost") for e in current)
    context = view["pending"]["context"]
    if "toggles_left" in context:
        from kessen.games.twgp.actions import TOGGLE_CAP

        toggles[view["pending"]["seat"]] = TOGGLE_CAP - context["toggles_left"]
    state.toggles = toggles
    state.taken = taken


# --- the frame stack ---------------------------------------------------------------------------


def _window_frames(state: TwgpState) -> list[Frame]:
    """The frames under an inner action of the current window (no decision frames on top)."""
    if state.phase == PHASE_NAMES.index("build"):
        return [*_TURN_BASE, ("build_window",)]
    attack = state.attack
    if attack is None:
        return list(_TURN_BASE)
    if attack.cancelled:
        return [*_TURN_BASE, ("resolve",)]
    return [*_TURN_BASE, ("resolve",), ("response",)]


def _losses(log: Sequence[Json], result_at: int) -> list[tuple[int, int]]:
    """The vital losses a resolution logged at ``result_at`` left to do (seat, count)."""
    result = log[result_at]
    declared: Json | None = None
    surge_d = 0
    interrupted = False
    for entry in reversed(log[:result_at]):
        kind = entry["kind"]
        if kind == "surge_pay":
            surge_d = int(entry["k"])
        elif kind == "interrupt":
            interrupted = True
        elif kind in ("assault", "boost", "direct"):
            declared = entry
            break
    if declared is None:
        raise WorldError("a resolution without its declaration in the log")
    seat = int(declared["seat"])
    outcome = result["outcome"]
    if declared["kind"] == "direct" and not interrupted:
        return [(1 - seat, 1)] if outcome in ("hit", "tie") else []
    if declared["kind"] == "assault":
        if outcome == "attacker" and declared.get("surge"):
            return [(1 - seat, int(declared["surge"]))]
        if outcome == "target" and surge_d:
            return [(seat, surge_d)]
    return []


_DISCARDING = ("result", "grid_blast", "wipe")
_DISCARDING_OR_CACHE = (*_DISCARDING, "cache")
"""Log kinds after which stacks are discarded and decisions about them may wait."""


def _last_discarding(log: Sequence[Json], before: int | None = None) -> int:
    """The index of the latest event that discarded stacks (before ``before``)."""
    end = len(log) if before is None else before
    for index in range(end - 1, -1, -1):
        if log[index]["kind"] in _DISCARDING:
            return index
    raise WorldError("a decision about discarded cards without the event that discarded them")


def _undecided_caches(log: Sequence[Json], trigger: int) -> list[tuple[int, int]]:
    """``(seat, square)`` of the weapon caches left since ``trigger`` whose keep-or-drop
    decision is still to come, in the order they were left."""
    decided: list[tuple[int, int]] = [
        (int(e["seat"]), int(e["square"])) for e in log[trigger:] if e["kind"] == "cache"
    ]
    undecided: list[tuple[int, int]] = []
    for entry in log[trigger:]:
        if entry["kind"] == "discard" and entry.get("cached"):
            key = (int(entry["seat"]), int(entry["square"]))
            if key in decided:
                decided.remove(key)
            else:
                undecided.append(key)
    return undecided


def _below_discards(state: TwgpState, log: Sequence[Json], trigger: int) -> list[Frame]:
    """The frames under the decisions that the discarding event at ``trigger`` left."""
    kind = log[trigger]["kind"]
    below: list[Frame]
    if kind == "result":
        below = list(_TURN_BASE)
        for seat, count in reversed(_losses(log, trigger)):
            below.append(("vloss", seat, count, ()))
    elif kind == "wipe":
        loser = next(
            (int(e["seat"]) for e in reversed(log[:trigger]) if e["kind"] == "vital_lost"), None
        )
        if loser is None:
            raise WorldError("a wipe without the vital loss that caused it")
        below = [*_TURN_BASE, ("damage", loser, 0, 0)]
    else:
        below = _window_frames(state)
    return below


def _cache_frames(state: TwgpState, view: Json, log: Sequence[Json]) -> list[Frame]:
    """The frames of a weapon-cache decision: the undecided caches over what discarded them."""
    trigger = _last_discarding(log)
    undecided = _undecided_caches(log, trigger)
    pending = view["pending"]
    if not undecided or undecided[0] != (pending["seat"], pending["context"]["square"]):
        raise WorldError("the weapon-cache decisions in the log do not match the prompt")
    below = _below_discards(state, log, trigger)
    return below + [("cache", s, q - 1) for s, q in reversed(undecided)]


def _order_frames(state: TwgpState, view: Json, log: Sequence[Json]) -> list[Frame]:
    """The frames of an order decision (§2.3): the current stack's cards still to order, the
    discarded stacks after it, then the undecided caches and what discarded them."""
    pending = view["pending"]
    seat: int = pending["seat"]
    current = tuple(by_slug(c["slug"]).id for c in pending["context"]["cards"])
    last = len(log) - 1
    while last >= 0 and log[last]["kind"] not in _DISCARDING_OR_CACHE:
        last -= 1
    if last < 0:
        raise WorldError("an order decision without the event that discarded the cards")
    groups: list[tuple[int, tuple[int, ...]]]
    if log[last]["kind"] == "cache":  # dropped weapons, after the stacks were ordered
        trigger = _last_discarding(log, last)
        entry = log[last]
        groups = [(int(entry["seat"]), tuple(by_slug(c).id for c in entry["cards"]))]
    else:
        trigger = last
        groups = [
            (int(e["seat"]), tuple(by_slug(c).id for c in e["cards"]))
            for e in log[trigger:]
            if e["kind"] == "discard" and len(e["cards"]) >= 2
        ]
    at = next((k for k, (s, cards) in enumerate(groups) if s == seat and current[0] in cards), None)
    if at is None or not set(current) <= set(groups[at][1]):
        raise WorldError("the order decision does not match the discards in the log")
    undecided = _undecided_caches(log, trigger)
    frames = _below_discards(state, log, trigger)
    frames += [("cache", s, q - 1) for s, q in reversed(undecided)]
    frames += [("order", s, cards) for s, cards in reversed(groups[at + 1 :])]
    return [*frames, ("order", seat, current)]


def _frames(state: TwgpState, view: Json, log: Sequence[Json]) -> list[Frame]:
    """The frame stack under the pending prompt (see :mod:`kessen.games.twgp.flow`)."""
    pending = view["pending"]
    prompt: str = pending["prompt"]
    seat: int = pending["seat"]
    context: Json = pending["context"]
    if prompt == "build":
        return [("deal",), ("build", 1), ("build", 0)] if seat == 0 else [("deal",), ("build", 1)]
    if prompt == "setup":
        below: list[Frame] = [*_TURN_BASE, ("build_window",)]
        if seat == view["turn_player"]:
            return [*below, ("own_setup", seat)]
        if not state.config.setup_anytime:
            below.append(("own_setup", 1 - seat))  # the turn player's set-up comes next
        return [*below, ("opp_setup", seat)]
    if prompt == "build_window":
        return [*_TURN_BASE, ("build_window",)]
    if prompt == "battle_window":
        return list(_TURN_BASE)
    if prompt == "response":
        return [*_TURN_BASE, ("resolve",), ("response",)]
    if prompt == "recharge":
        return [*_TURN_BASE, ("resolve",), ("response",), ("recharge", seat, context["left"])]
    if prompt == "reload":
        return [*_TURN_BASE, ("build_window",), ("reload16", seat, context["put"])]
    if prompt == "vital":
        picked = tuple(p - 1 for p in context["picked"])
        return [*_TURN_BASE, ("vloss", seat, context["count"], picked)]
    if prompt == "effect":
        picked = tuple(p - 1 for p in context["picked"])
        return [*_TURN_BASE, ("veffect", seat, picked)]
    if prompt == "damage":
        finished = sum(_STEP_BITS[name] for name in context["finished"])
        current = _STEP_BITS[context["current"]] if context["current"] is not None else 0
        return [*_TURN_BASE, ("damage", seat, finished, current)]
    if prompt == "damage_reload":
        finished = sum(_STEP_BITS[name] for name in context["finished"])
        return [*_TURN_BASE, ("damage", seat, finished, RELOAD), ("dreload", seat, context["put"])]
    if prompt == "cache":
        return _cache_frames(state, view, log)
    if prompt == "order":
        return _order_frames(state, view, log)
    raise WorldError(f"unknown prompt {prompt!r}")


# --- evaluation, rollout and routine ---------------------------------------------------------

#: Logistic weights of :func:`evaluate`, per feature difference (seat 0 minus seat 1). Fitted by
#: logistic regression on 26,000 turn-start positions of 3,000 games of the heuristic COM
#: against itself with 0-20% random moves (held-out log loss 0.43, 80% of winners called).
WEIGHTS: dict[str, float] = {
    "vitals_0": -5.60,  # no valid vital left: the next damage loses
    "vitals_1": -2.79,
    "vitals_2": -0.88,
    "power": -0.10,  # sum of computed powers (the largest counts through "top")
    "units": 0.99,
    "active": -0.34,
    "any_active": 1.09,  # an ACTIVE unit blocks every direct
    "top": 0.30,  # the strongest unit's computed power
    "hand": 0.26,
    "low_units": 0.53,  # hand units of base ≤03: charge drives and interrupters
    "high_units": -0.27,  # hand units of base ≥04 need materials on the board
    "surge3": -0.55,
    "pile": 0.18,
    "gb": 0.58,
}
TEMPO = 0.27
"""Logit bonus of the turn player (it acts first from the position)."""
QUIET_HORIZON = 6
"""How many quiet turns before the seed's draw (§2.7: 12 turns without a vital lost or a stack
discarded) a leaf's guess starts to fade towards the draw's one half: at ``k`` turns left it
keeps ``k / QUIET_HORIZON`` of its lead (0: never fades). A search that sees a won position
drift into a draw acts while it still can."""
ROLLOUT_TURNS = 1
"""Rollouts play on until this many new turns have begun, then :func:`evaluate` judges."""
DEEP_ROLLOUT_TURNS = 2
"""The strongest level's rollouts (:func:`deep_rollout`): two turns, to see an attack answered."""
ROLLOUT_CAP = 400
"""Hard cap on the actions of one rollout."""
EPSILON = 0.1
"""Share of rollout decisions taken at random instead of by the heuristic COM (diversity)."""
#: Prompts the search leaves to the heuristic COM outright: the build (dozens of choices of a
#: plan), taking charge cards at the opponent's turn start, and small bookkeeping decisions.
ROUTINE_PROMPTS = frozenset(
    {"build", "setup", "cache", "order", "recharge", "reload", "damage_reload", "vital", "effect"}
)


def _features(state: TwgpState, seat: int) -> dict[str, float]:
    w = state.width
    stacks = [s for s in state.battle[seat * w : seat * w + w] if s is not None]
    powers = [(CARDS[s.top].base or 0) + len(s.attached) for s in stacks]
    vitals = state.hidden_vitals(seat)
    hand = state.zone(seat, HAND)
    low = high = 0
    for card in hand:
        cdef = CARDS[card]
        if cdef.is_unit:
            if (cdef.base or 0) <= CHARGE_DRIVE_MAX:
                low += 1
            else:
                high += 1
    return {
        "vitals_0": float(vitals == 0),
        "vitals_1": float(vitals == 1),
        "vitals_2": float(vitals == 2),
        "power": float(sum(powers)),
        "units": float(len(stacks)),
        "active": float(sum(1 for s in stacks if s.pose == ACTIVE)),
        "any_active": float(any(s.pose == ACTIVE for s in stacks)),
        "top": float(max(powers, default=0)),
        "hand": float(len(hand)),
        "low_units": float(low),
        "high_units": float(high),
        "surge3": float(len(state.zone(seat, SURGE)) >= 3),
        "pile": float(len(state.zone(seat, PILE))),
        "gb": float(any(s.pose == GB for s in stacks)),
    }


def evaluate(state: GameState) -> float:
    """Seat 0's chance to win, in [0, 1]: the winner of a finished game, else a logistic guess.

    The guess weighs, for each seat, its valid vitals, its board (units, the strongest power,
    whether one is ACTIVE), its hand (low units above all), its pile and a G-blast in waiting,
    plus the turn player's tempo (:data:`WEIGHTS`). A draw scores 0.5, and the guess fades
    towards it as the quiet turns run out (:data:`QUIET_HORIZON`).
    """
    assert isinstance(state, TwgpState)
    if state.result is not None:
        winner = state.result[0]
        return 0.5 if winner < 0 else 1.0 - winner
    a, b = _features(state, 0), _features(state, 1)
    logit = sum(weight * (a[key] - b[key]) for key, weight in WEIGHTS.items())
    if state.phase != PHASE_NAMES.index("setup"):
        logit += TEMPO if state.turn_player == 0 else -TEMPO
    guess = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))
    left = state.config.quiet_turns - state.quiet
    if QUIET_HORIZON and left < QUIET_HORIZON:
        guess = 0.5 + (guess - 0.5) * max(0, left) / QUIET_HORIZON
    return guess


def drawish(state: GameState) -> float:
    """How much of a draw ``state`` is, for a searcher with contempt for draws: 1 for a drawn
    game, 0 for a won one; in play, the share of :data:`QUIET_HORIZON` already spent of the
    quiet turns that remain before the seed's draw (0 while more than the horizon remain)."""
    assert isinstance(state, TwgpState)
    if state.result is not None:
        return 1.0 if state.result[0] < 0 else 0.0
    if not QUIET_HORIZON:
        return 0.0
    left = state.config.quiet_turns - state.quiet
    return min(1.0, max(0.0, 1.0 - left / QUIET_HORIZON))


_HEURISTICS: dict[int, Player] = {}


def _heuristic(seat: int = -1) -> Player:
    """The heuristic COM used by the hooks (one per seat for builds: they keep a plan)."""
    player = _HEURISTICS.get(seat)
    if player is None:
        from kessen.games.twgp.heuristic import HeuristicPlayer

        player = _HEURISTICS[seat] = HeuristicPlayer(0)
    return player


def routine(view: Json, legal: Sequence[Action]) -> Action | None:
    """The heuristic COM's answer where the search does not decide, else ``None``.

    The heuristic answers the routine prompts (:data:`ROUTINE_PROMPTS`) and any view that no
    world can be rebuilt from (none is known). A build is answered by one heuristic per seat,
    started afresh at a new build's first vital, so a seeded game replays the same build.
    """
    pending = view.get("pending") or {}
    prompt = pending.get("prompt")
    if prompt == "build":
        seat = view["viewer"]
        fresh = all(v["face"] == "empty" for v in view["players"][seat]["vitals"])
        if fresh:
            _HEURISTICS.pop(seat, None)
        return _heuristic(seat).choose(view, legal)
    if prompt in ROUTINE_PROMPTS:
        return _heuristic().choose(view, legal)
    try:
        world_from_view(view, 0)
    except (WorldError, KeyError):  # answer rather than fail
        return _heuristic().choose(view, legal)
    return None


def rollout(state: GameState, rng: random.Random) -> None:
    """Play on until :data:`ROLLOUT_TURNS` new turns have begun (or the game ends), then stop.

    Each decision is the heuristic COM's, seeing only its seat's view of this world, with
    :data:`EPSILON` random deviations. A game still in its build is left to the evaluation.
    """
    _play_on(state, rng, ROLLOUT_TURNS)


def deep_rollout(state: GameState, rng: random.Random) -> None:
    """The strongest level's rollout: as :func:`rollout`, for :data:`DEEP_ROLLOUT_TURNS`
    new turns."""
    _play_on(state, rng, DEEP_ROLLOUT_TURNS)


def _play_on(state: GameState, rng: random.Random, turns: int) -> None:
    assert isinstance(state, TwgpState)
    if state.phase == PHASE_NAMES.index("setup"):
        return
    stop = state.turn + turns
    heuristic = _heuristic()
    for _ in range(ROLLOUT_CAP):
        prompt = state.prompt
        if prompt is None:
            return
        if state.turn >= stop and prompt[1] in ("setup", "build_window"):
            return
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        elif rng.random() < EPSILON:
            action = legal[rng.randrange(len(legal))]
        else:
            action = heuristic.choose(state.view(prompt[0]), legal)
        state.apply(action)


def world_sampler(view: Json, seed: int) -> Callable[[int], GameState]:
    """For search: rebuild one world from ``view``, then redeal its hidden parts per sample.

    Each sample is the ruleset's own resampler (:meth:`TwgpState.resample_hidden`) applied to
    the rebuilt world, with a fresh RNG for the future shuffles: every sample is consistent with
    ``view`` and with nothing else.
    """
    base = world_from_view(view, seed)
    seat: int = view["viewer"]

    def sample(index: int) -> GameState:
        world = base.resample_hidden(seat, seed ^ (index * 0x9E3779B97F4A7C15 & (2**63 - 1)))
        world.rng = Rng(seed * 1_000_003 + index)
        return world

    return sample


def search_hooks(deep: bool = False) -> Any:
    """The TWGP hooks of the game-agnostic search: sampler, evaluation, rollout and routine.

    ``deep`` (asked by the strongest level) plays two turns in a rollout instead of one
    (:func:`deep_rollout`): with contempt for draws both levels attack, and the second turn
    shows how an attack is answered. Against ふつう, つよい at 800 iterations won 16 of 37
    decisive-or-drawn games to 11 with one-turn rollouts (10 drawn) and 12 to 6 of 18 with
    two (docs/com-levels.md). The evaluation is the same (fitted on self-play).

    No root prior: favouring the heuristic COM's answer at the root (the levels' weight 0.3)
    made 60-iteration search weaker: it won 20 of 60 games against the same search without it
    (38 lost, 2 drawn), so the levels search TWGP unbiased.
    """
    from kessen.ai.ismcts import SearchHooks
    from kessen.games.twgp.resample import redeal_unseen

    return SearchHooks(
        world_sampler=world_sampler,
        evaluate=evaluate,
        rollout=deep_rollout if deep else rollout,
        routine=routine,
        redeal_unseen=redeal_unseen,
        drawish=drawish,
    )


__all__ = [
    "WorldError",
    "drawish",
    "evaluate",
    "rollout",
    "routine",
    "search_hooks",
    "world_from_view",
    "world_sampler",
]

"""Playable Kōbō worlds rebuilt from one seat's view: the honest COM's only window on the game.

:func:`world_from_view` turns the JSON view of the seat that must decide (what
``state.view(seat)`` returns) into a complete :class:`~kessen.games.kobo.state.KoboState` that
looks exactly the same from that seat: same board, same counts, same pending prompt, same legal
actions. Everything the seat cannot see is sampled from the two public deck lists minus every
card the view shows: the order of its own decks, the opponent's hands, main deck and face-down
traps, and the order of face-down cards of a blind pick. Nothing else is read: no instance ids
(views carry none), no RNG (the world gets a fresh one from the caller's seed).

What the view does not spell out is rebuilt from public facts:

- the frame stack, from the prompt kind, the phase (turn 0 is the standby), who went first, the
  zones that hold the card being processed, and the prompt's context;
- each character's temporary Lv change, by adding up the log's ``lv`` events of tactics since
  the last ``cleanup`` (the view's ``lv`` is clamped at 0 and cannot say it alone);
- how many seats passed in a row in the chain, from the trailing ``chain_pass`` entries;
- the three names of a blind pick, from the log's ``nominate`` entry.

:func:`search_hooks` bundles the sampler, the evaluation and the rollout for the game-agnostic
search of :mod:`kessen.ai.ismcts`. :func:`public_extras` lists the public facts a future view
could carry directly instead of the log arithmetic above.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.engine.log import Event
from kessen.engine.rng import Rng
from kessen.games.kobo import worlds_surprise as surprise_worlds
from kessen.games.kobo.card_sets import activate, active_set_pool
from kessen.games.kobo.cards import CardKind, Verb
from kessen.games.kobo.config import KoboConfig
from kessen.games.kobo.decks import deck_from_json
from kessen.games.kobo.state import (
    EMPTY,
    EXCLUDED,
    HAND,
    MAIN_DECK,
    RESOLVING,
    RETREAT,
    REVEAL,
    SLOTS,
    TDECK,
    THAND,
    Frame,
    KoboState,
    Link,
)

#: Prompts that belong to the standby phase (the seat's own main standby).
_STANDBY_PROMPTS = {"standby", "place", "set", "deploy", "deploy_target", "nominate", "blind"}


class WorldError(ValueError):
    """A view that no Kōbō state can match (or that this module cannot rebuild)."""


class _Pool:
    """The unassigned card instances of one seat, by slug."""

    def __init__(self, state: KoboState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.free: dict[str, list[int]] = {}
        for card, cdef in enumerate(state.defs):
            if state.owner[card] == seat:
                self.free.setdefault(cdef.slug, []).append(card)

    def take(self, slug: str) -> int:
        """One unassigned instance of ``slug``; raise if the deck list has no copy left."""
        cards = self.free.get(slug)
        if not cards:
            raise WorldError(f"seat {self.seat}: the view shows more {slug} than its deck holds")
        return cards.pop(0)

    def rest(self, kinds: set[CardKind]) -> list[int]:
        """Every unassigned instance whose kind is in ``kinds``, in id order."""
        defs = self.state.defs
        return sorted(c for cards in self.free.values() for c in cards if defs[c].kind in kinds)

    def remove(self, cards: Sequence[int]) -> None:
        """Mark ``cards`` as assigned."""
        for card in cards:
            self.free[self.state.defs[card].slug].remove(card)


_MAIN_KINDS = {CardKind.CHARACTER, CardKind.DEPLOY, CardKind.TRAP}
_TACTIC_KINDS = {CardKind.TACTIC}


def _config(view: Json) -> KoboConfig:
    decks = []
    for side in view["players"]:
        data = {k: v for k, v in side["deck"].items() if k != "name"}
        decks.append(deck_from_json(data))
    match = view["match"]
    return KoboConfig(
        (decks[0], decks[1]),
        best_of=match["best_of"],
        turn_limit=view["turn_limit"],
        **surprise_worlds.options(view),
        **view.get("opening", {}),
        card_set=view.get("card_set", ""),
    )


def _temp_changes(log: Sequence[Json]) -> dict[tuple[int, int], int]:
    """Temporary Lv changes by (seat, slot 1-5) in the current exchange, from the log."""
    out: dict[tuple[int, int], int] = {}
    for entry in reversed(log):
        kind = entry["kind"]
        if kind in ("cleanup", "game_start"):
            break
        if kind == "lv" and not entry["permanent"]:
            key = (entry["seat"], entry["slot"])
            out[key] = out.get(key, 0) + entry["amount"]
    return out


def _chain_passes(view: Json, extras: Mapping[str, Any] | None) -> int:
    """The passes in a row that end the chain so far: ``extras``' count when given, else how
    many ``chain_pass`` entries end the view's log (since the last link or declaration)."""
    if extras is not None:
        return int(extras["chain_passes"])
    count = 0
    for entry in reversed(view["log"]):
        if entry["kind"] != "chain_pass":
            break
        count += 1
    return count


def _last(log: Sequence[Json], kind: str, seat: int) -> Json | None:
    for entry in reversed(log):
        if entry["kind"] == kind and entry.get("seat") == seat:
            return entry
    return None


def world_from_view(
    view: Json, seed: int, *, keep_log: bool = False, extras: Mapping[str, Any] | None = None
) -> KoboState:
    """A playable state that ``view``'s seat cannot tell from the true one; hidden parts sampled.

    ``view`` is ``state.view(seat)`` for the seat that must decide now. The world's
    ``view(seat)`` equals ``view`` (the log too if ``keep_log``; search does not need it, and
    without it the world writes no events either: :attr:`KoboState.quiet`) and
    its legal actions are the same, in the same order. ``seed`` drives the sampling and seeds
    the world's own RNG. ``extras`` (default: ``view.get("extras")``) may carry the fields of
    :func:`public_extras`; they are used instead of the log arithmetic when present.
    """
    seat = view.get("viewer")
    pending = view.get("pending")
    if not isinstance(seat, int) or pending is None or pending["seat"] != seat:
        raise WorldError("a world is rebuilt from the view of the seat that decides now")
    extras = extras if extras is not None else view.get("extras")
    rng = random.Random(seed)
    activate(view.get("card_set"))  # the search's card lookups read the match's set
    config = _config(view)
    lists = [d.main_slugs() + d.tactics_slugs() for d in config.decks]
    state = KoboState.blank(config, rng.randrange(2**63), lists)
    pools = [_Pool(state, 0), _Pool(state, 1)]
    log: list[Json] = view["log"]
    temp = _temp_changes(log) if extras is None else {}
    hidden_traps: list[int] = []  # strategy indices of the opponent's face-down traps
    opp = 1 - seat
    for s, side in enumerate(view["players"]):
        pool = pools[s]
        for slot, entry in enumerate(side["battle"]):
            if entry is None:
                continue
            card = pool.take(entry["slug"])
            state.battle[s * SLOTS + slot] = card
            state.base[card] = entry["base"]
            if extras is not None:
                change = extras["temp"][s][slot]
            else:
                change = temp.get((s, slot + 1), 0)
                if max(0, entry["base"] + change) != entry["lv"]:
                    change = entry["lv"] - entry["base"]
            state.temp[card] = change
        for slot, entry in enumerate(side["strategy"]):
            if entry is None:
                continue
            if "slug" in entry:
                card = pool.take(entry["slug"])
                state.strategy[s * SLOTS + slot] = card
                state.faceup[card] = entry["face"] == "up"
            else:
                hidden_traps.append(s * SLOTS + slot)
        for zone, key in ((RETREAT, "retreat"), (EXCLUDED, "excluded")):
            state.zone(s, zone).extend(pool.take(e["slug"]) for e in side[key])
        for entry in side["processing"]:
            if "slug" not in entry:
                raise WorldError("a face-down card in process cannot be rebuilt")
            state.zone(s, RESOLVING).append(pool.take(entry["slug"]))
        if side["hand"]["cards"] is not None:
            state.zone(s, HAND).extend(pool.take(e["slug"]) for e in side["hand"]["cards"])
        if side["tactics_hand"]["cards"] is not None:
            state.zone(s, THAND).extend(pool.take(e["slug"]) for e in side["tactics_hand"]["cards"])
        reveal = side["reveal"]
        if reveal:
            up = {i: pool.take(e["slug"]) for i, e in enumerate(reveal) if e["face"] == "up"}
            down: list[int] = []
            if len(up) < len(reveal):
                named = _last(log, "nominate", s)
                if named is None:
                    raise WorldError("face-down revealed cards without a nomination")
                left = list(named["cards"])
                for card in up.values():
                    if state.defs[card].slug in left:
                        left.remove(state.defs[card].slug)
                down = [pool.take(slug) for slug in left]
                rng.shuffle(down)
            state.zone(s, REVEAL).extend(
                up[i] if i in up else down.pop() for i in range(len(reveal))
            )
    surprise_worlds.rebuild_zones(state, view, pools, seat, rng)
    _deal_hidden(state, view, pools, seat, opp, hidden_traps, rng)
    _scalars(state, view, extras)
    _attack_and_chain(state, view, pools)
    surprise_worlds.rebuild_pending(state, view)
    state.stack = _stack(state, view)
    state.prompt = (pending["seat"], pending["prompt"])
    state.prompt_id = pending["prompt_id"]
    state.legal = None
    if keep_log:
        state.log = [Event(e["kind"], {k: v for k, v in e.items() if k != "kind"}) for e in log]
    else:
        state.quiet = True  # nor does it write one: search reads no log
    return state


def _deal_hidden(
    state: KoboState,
    view: Json,
    pools: list[_Pool],
    seat: int,
    opp: int,
    hidden_traps: list[int],
    rng: random.Random,
) -> None:
    """Deal what ``seat`` cannot see: its deck orders, the opponent's hidden cards."""
    mine, theirs = view["players"][seat], view["players"][opp]
    for zone, kinds, key in (
        (MAIN_DECK, _MAIN_KINDS, "main_deck"),
        (TDECK, _TACTIC_KINDS, "tactics_deck"),
    ):
        cards = pools[seat].rest(kinds)
        if len(cards) != mine[key]:
            raise WorldError(
                f"own {key}: {len(cards)} cards unaccounted for, view says {mine[key]}"
            )
        rng.shuffle(cards)
        state.zone(seat, zone).extend(cards)
    if any(i // SLOTS != opp for i in hidden_traps):
        raise WorldError("the deciding seat cannot have cards hidden from itself")
    main = pools[opp].rest(_MAIN_KINDS)
    rng.shuffle(main)
    traps = [c for c in main if state.defs[c].kind is CardKind.TRAP]
    if len(traps) < len(hidden_traps):
        raise WorldError("more face-down traps than unseen traps in the deck list")
    for index, card in zip(hidden_traps, traps, strict=False):
        state.strategy[index] = card
    chosen = set(traps[: len(hidden_traps)])
    main = [c for c in main if c not in chosen]
    hand, deck = theirs["hand"]["count"], theirs["main_deck"]
    if len(main) != hand + deck:
        raise WorldError(f"opponent's main cards: {len(main)} unseen, view says {hand + deck}")
    state.zone(opp, HAND).extend(main[:hand])
    state.zone(opp, MAIN_DECK).extend(main[hand:])
    tactics = pools[opp].rest(_TACTIC_KINDS)
    rng.shuffle(tactics)
    hand, deck = theirs["tactics_hand"]["count"], theirs["tactics_deck"]
    if len(tactics) != hand + deck:
        raise WorldError(f"opponent's tactics: {len(tactics)} unseen, view says {hand + deck}")
    state.zone(opp, THAND).extend(tactics[:hand])
    state.zone(opp, TDECK).extend(tactics[hand:])


def _scalars(state: KoboState, view: Json, extras: Mapping[str, Any] | None) -> None:
    match = view["match"]
    state.turn = view["turn"]
    state.turn_player = view["turn_player"]
    state.first_player = view["first_player"]
    state.passes = [side["passes"] for side in view["players"]]
    state.wins = list(match["wins"])
    state.game_no = match["game"]
    state.results = [(r["winner"], r["reason"], r["turns"]) for r in match["results"]]
    state.match_result = None
    pending = view["pending"]
    if view["priority"] is not None:
        state.priority = view["priority"]
    else:
        state.priority = pending["seat"]
    state.chain_passes = _chain_passes(view, extras)


def _battle_card(state: KoboState, seat: int, slot: int | None) -> int:
    if slot is None:
        return EMPTY
    return state.battle[seat * SLOTS + slot - 1]


def _retreated_character(state: KoboState, seat: int) -> int:
    """Some character of ``seat`` off the field: a stand-in for a participant that left."""
    for card in reversed(state.zone(seat, RETREAT)):
        if state.defs[card].is_character:
            return card
    raise WorldError(f"a participant of seat {seat} left the field but no character retreated")


def _attack_and_chain(state: KoboState, view: Json, pools: list[_Pool]) -> None:
    attack = view["attack"]
    if attack is not None:
        seat = attack["seat"]
        attackers = tuple(_battle_card(state, seat, slot) for slot in attack["attackers"])
        if not attackers:
            attackers = (_retreated_character(state, seat),)
        state.attackers = attackers
        state.attacker_seat = seat
        state.target = _battle_card(state, 1 - seat, attack["target"])
        state.negated = bool(attack["negated"])
    else:
        state.attacker_seat = state.turn_player
    used: set[int] = set()

    def link(entry: Json) -> Link:
        seat = entry["seat"]
        if entry.get("surprise"):
            card = surprise_worlds.link_card(state, seat, entry["slug"], used)
        else:
            card = _faceup_card(state, seat, entry["slug"], used)
        chosen = EMPTY
        if "target" in entry:
            target = entry["target"]
            chosen = _battle_card(state, target["seat"], target["slot"])
            if chosen == EMPTY:
                chosen = _retreated_character(state, target["seat"])
        elif "negates" in entry:
            chosen = entry["negates"] - 1
        return (card, seat, chosen, bool(entry["negated"]))

    state.chain = [link(entry) for entry in view["chain"]]
    state.resolved = [link(entry) for entry in view["resolved"]]


def _faceup_card(state: KoboState, seat: int, slug: str, used: set[int]) -> int:
    for card in state.strategy[seat * SLOTS : seat * SLOTS + SLOTS]:
        if (
            card != EMPTY
            and state.faceup[card]
            and card not in used
            and state.defs[card].slug == slug
        ):
            used.add(card)
            return card
    raise WorldError(f"no face-up {slug} of seat {seat} in the strategy area")


def _standby_prefix(state: KoboState, owner: int) -> list[Frame]:
    first = state.first_player
    second = 1 - first
    frames: list[Frame] = [
        ("turn_start",),
        ("end_check",),
        ("tactics", first, state.config.first_tactics),
    ]
    if owner == first:
        frames += [("standby", second), ("tactics", second, state.config.second_tactics)]
    return frames


def _steps_frame(state: KoboState, owner: int, verb: Verb) -> Frame:
    resolving = state.zone(owner, RESOLVING)
    if len(resolving) != 1:
        raise WorldError("a deploy effect is running but no single card is in process")
    card = resolving[0]
    steps = state.defs[card].steps
    index = next((i for i, step in enumerate(steps) if step.verb is verb), None)
    if index is None:
        raise WorldError(f"the card in process has no {verb} step")
    return ("deploy_steps", owner, card, index + 1, EMPTY)


def _processed(state: KoboState, owner: int) -> int:
    resolving = state.zone(owner, RESOLVING)
    if len(resolving) != 1:
        raise WorldError("a standby prompt with no single card in process")
    return resolving[0]


def _stack(state: KoboState, view: Json) -> list[Frame]:
    pending = view["pending"]
    prompt: str = pending["prompt"]
    seat: int = pending["seat"]
    context: Json = pending["context"]
    frames: list[Frame]
    if prompt == "tactics":
        frames = [("turn_start",), ("end_check",)]
        if seat != state.first_player:
            opening = ("tactics", state.first_player, state.config.first_tactics)
            frames += [opening, ("standby", seat)]
        return [*frames, ("tactics", seat, context["left"])]
    if prompt in _STANDBY_PROMPTS:
        owner = 1 - seat if prompt == "blind" else seat
        frames = [*_standby_prefix(state, owner), ("process", owner)]
        if prompt == "standby":
            return frames
        if prompt == "place":
            reveal = state.zone(owner, REVEAL)
            if not reveal:
                return [*frames, ("char", owner, _processed(state, owner))]
            sides = view["players"][owner]["reveal"]
            if all(e["face"] == "up" for e in sides):
                steps = _steps_frame(state, owner, Verb.SUMMON_TOP)
                return [*frames, steps, ("summon_slot", owner, reveal[-1])]
            picked = next(i for i, e in enumerate(sides) if e["face"] == "up")
            steps = _steps_frame(state, owner, Verb.NOMINATE)
            return [*frames, steps, ("blind_slot", owner, reveal[picked])]
        if prompt == "set":
            return [*frames, ("trap", owner, _processed(state, owner))]
        if prompt == "deploy":
            return [*frames, ("deploy", owner, _processed(state, owner))]
        if prompt == "deploy_target":
            return [*frames, ("deploy_go", owner, _processed(state, owner))]
        if prompt == "nominate":
            steps = _steps_frame(state, owner, Verb.NOMINATE)
            return [*frames, steps, ("nominate", owner, *context.get("named", []))]
        steps = _steps_frame(state, owner, Verb.NOMINATE)
        return [*frames, steps, ("blind", owner)]
    if prompt == "turn":
        return [("turn_decide",)]
    if prompt == "surprise":
        return surprise_worlds.stack(view)
    if prompt == "penalty":
        return [("end_turn",), ("penalty", seat, context["left"])]
    if prompt == "declare":
        row = state.turn_player * SLOTS
        return [("declare", *(state.battle[row + s - 1] for s in context["attackers"]))]
    exchange: list[Frame] = [("cleanup",), ("result",), ("resolve",), ("chain",)]
    if prompt == "chain":
        return exchange
    if prompt == "target":
        linked = {link[0] for link in state.chain + state.resolved}
        card = _faceup_card(state, seat, context["card"]["slug"], linked)
        return [*exchange, ("chain_target", seat, card)]
    if prompt == "tie":
        return [("cleanup",), ("sweep",), ("tie_pick",)]
    raise WorldError(f"unknown prompt {prompt!r}")


def public_extras(state: KoboState, seat: int) -> Json:
    """Public facts a view could carry so a world needs no log arithmetic (none is secret).

    ``temp``: each battle slot's temporary Lv change this exchange (the view's ``lv`` is
    clamped at 0, so a debuffed Lv 0 character hides how far below 0 it went);
    ``chain_passes``: passes in a row in the current chain (2 closes it). Both are public:
    they follow from logged events. ``seat`` is accepted for symmetry; the values are the same
    for every viewer.
    """
    del seat
    temp = [
        [state.temp[c] if c != EMPTY else 0 for c in state.battle[s * SLOTS : s * SLOTS + SLOTS]]
        for s in (0, 1)
    ]
    return {"temp": temp, "chain_passes": state.chain_passes}


# --- search hooks ------------------------------------------------------------------------------


@cache
def _key_exponent(slug: str, power: float) -> float:
    """The exponent of a card's sampling key: ``1 / card_value ** power`` (weighted draw)."""
    from kessen.games.kobo.evaluate import card_value

    weight: float = card_value(slug) ** power
    return 1.0 / max(1e-9, weight)


def _weighted_tactics(state: KoboState, opp: int, rng: random.Random, power: float) -> None:
    """Redeal the opponent's tactics hand favouring strong cards (it chose most of them).

    The hand and the deck together hold exactly the unseen tactics of the public list; only
    which of them sit in the hand is redrawn, each pick weighted by ``card_value ** power``.
    """
    hand, deck = state.zone(opp, THAND), state.zone(opp, TDECK)
    pool = hand + deck
    keys = [rng.random() ** _key_exponent(state.defs[c].slug, power) for c in pool]
    order = [c for _, c in sorted(zip(keys, pool, strict=True), reverse=True)]
    size = len(hand)
    hand[:] = order[:size]
    rest = order[size:]
    rng.shuffle(rest)
    deck[:] = rest


def _weighted_traps(state: KoboState, opp: int, rng: random.Random, power: float) -> None:
    """Redeal which of the opponent's unseen traps lie face down in its strategy slots,
    favouring strong ones (a player sets the best traps it drew and discards the rest).

    The face-down slots and the traps in the opponent's hand and main deck together hold
    exactly its unseen traps; only which of them sit in the slots is redrawn, each pick
    weighted by ``card_value ** power``. A trap leaving a slot takes the place of the one that
    replaces it, so the hand and the deck keep their sizes and their random order.
    """
    slots, pool = _unseen_traps(state, opp)
    if not slots:
        return
    keys = [rng.random() ** _key_exponent(state.defs[c].slug, power) for c in pool]
    chosen = [c for _, c in sorted(zip(keys, pool, strict=True), reverse=True)[: len(slots)]]
    _set_face_down(state, opp, slots, chosen)


def _unseen_traps(state: KoboState, opp: int) -> tuple[list[int], list[int]]:
    """The strategy indices of the opponent's face-down traps, and its unseen traps: those in
    the slots first, then those in its main hand and deck."""
    start = opp * SLOTS
    slots = [
        i
        for i in range(start, start + SLOTS)
        if state.strategy[i] != EMPTY and not state.faceup[state.strategy[i]]
    ]
    defs = state.defs
    rest = state.zone(opp, HAND) + state.zone(opp, MAIN_DECK)
    pool = [state.strategy[i] for i in slots] + [c for c in rest if defs[c].kind is CardKind.TRAP]
    return slots, pool


def _set_face_down(state: KoboState, opp: int, slots: list[int], chosen: list[int]) -> None:
    """Put ``chosen`` (unseen traps of the opponent) face down into ``slots``, in order; a trap
    leaving a slot takes the place in the hand or deck of the one that replaces it."""
    set_now = [state.strategy[i] for i in slots]
    hand, deck = state.zone(opp, HAND), state.zone(opp, MAIN_DECK)
    leaving = [c for c in set_now if c not in chosen]
    coming = [c for c in chosen if c not in set_now]
    for index, card in zip(slots, chosen, strict=True):
        state.strategy[index] = card
    for old, new in zip(leaving, coming, strict=True):
        zone = hand if new in hand else deck
        zone[zone.index(new)] = old


def chosen_hand(tactics: tuple[str, ...], size: int) -> tuple[str, ...]:
    """The ``size`` tactics the heuristic COM's rule takes from the list ``tactics`` (slugs,
    one per copy): what a player choosing by card value would hold at the first turn (with
    the cards of the match's set: :func:`~kessen.games.kobo.card_sets.active_pool`)."""
    return _chosen_hand(active_set_pool(), tactics, size)  # None: the shipped cards


@cache
def _chosen_hand(pool: object, tactics: tuple[str, ...], size: int) -> tuple[str, ...]:
    """:func:`chosen_hand` remembered per pool (``pool`` keys the cache only)."""
    from kessen.games.kobo.heuristic import HeuristicPlayer, card_def, category
    from kessen.games.kobo.moves import card_rank

    chooser = HeuristicPlayer(0)
    left = Counter(tactics)
    hand: list[str] = []
    for _ in range(min(size, len(tactics))):
        copies = Counter(hand)
        roles = Counter(category(card_def(slug)) for slug in hand)
        options = sorted((slug for slug, n in left.items() if n > 0), key=card_rank)
        best = max(options, key=lambda slug: chooser.tactic_worth(slug, copies, roles))
        hand.append(best)
        left[best] -= 1
    return tuple(hand)


def _modelled_tactics(state: KoboState, opp: int, rng: random.Random) -> None:
    """Redeal the opponent's tactics hand as :func:`chosen_hand` would have chosen it, less
    the tactics it has shown since (played, excluded), the rest of the hand drawn at random.

    The hand and the deck together hold exactly the unseen tactics of the public list; only
    which of them sit in the hand is redrawn. A probe of an opponent model (``HAND_MODEL_SHARE``).
    """
    hand, deck = state.zone(opp, THAND), state.zone(opp, TDECK)
    if not hand:
        return
    defs, owner = state.defs, state.owner
    mine = [c for c in range(len(defs)) if owner[c] == opp and defs[c].kind is CardKind.TACTIC]
    pool = hand + deck
    unseen = set(pool)
    config = state.config
    size = config.first_tactics if state.first_player == opp else config.second_tactics
    expected = Counter(chosen_hand(tuple(sorted(defs[c].slug for c in mine)), size))
    expected.subtract(defs[c].slug for c in mine if c not in unseen)
    keep: list[int] = []
    rest: list[int] = []
    for card in pool:
        slug = defs[card].slug
        if expected[slug] > 0:
            expected[slug] -= 1
            keep.append(card)
        else:
            rest.append(card)
    rng.shuffle(keep)
    rest += keep[len(hand) :]
    keep = keep[: len(hand)]
    rng.shuffle(rest)
    fill = len(hand) - len(keep)
    hand[:] = keep + rest[:fill]
    deck[:] = rest[fill:]


def discarded_trap_floor(view: Json, seat: int) -> float | None:
    """The highest card value among the traps ``seat`` discarded in this game's standby after
    the last trap it set, or ``None`` if it discarded none then (public: a discarded card is
    shown to both players, and that a trap was set, though not which).

    Players process their traps strongest first by card value (the heuristic COM and the
    standby plan both do) and stop setting them at some point: the heuristic COM sets the
    first :data:`~kessen.games.kobo.heuristic.MAX_TRAPS` and discards the rest, so every trap
    it set is worth at least this floor. A trap discarded *before* a later one was set says
    nothing of the kind (the standby plan discards a trap it rates low whatever its card
    value), so only the discards after the last set count.
    """
    from kessen.games.kobo.evaluate import card_value
    from kessen.games.kobo.heuristic import card_def

    floor: float | None = None
    for entry in reversed(view["log"]):
        kind = entry["kind"]
        if kind == "game_start" or (kind == "set" and entry.get("seat") == seat):
            break
        if kind != "discard" or entry.get("seat") != seat:
            continue
        slug = str(entry["card"])
        if card_def(slug).kind is CardKind.TRAP:
            value = card_value(slug)
            floor = value if floor is None else max(floor, value)
    return floor


def _inferred_traps(state: KoboState, opp: int, rng: random.Random, floor: float) -> None:
    """Redeal the opponent's face-down traps among its unseen traps worth at least ``floor``
    (:func:`discarded_trap_floor`), uniformly; if too few are, the strongest make up the rest.

    The face-down slots and the traps in the opponent's hand and main deck together hold
    exactly its unseen traps; only which of them sit in the slots is redrawn. A trap leaving a
    slot takes the place of the one that replaces it, so the hand and the deck keep their sizes
    and their random order.
    """
    from kessen.games.kobo.evaluate import card_value

    slots, pool = _unseen_traps(state, opp)
    if not slots:
        return
    value = {c: card_value(state.defs[c].slug) for c in pool}
    eligible = [c for c in pool if value[c] >= floor]
    if len(eligible) >= len(slots):
        chosen = rng.sample(eligible, len(slots))
    else:
        weaker = sorted((c for c in pool if value[c] < floor), key=lambda c: -value[c])
        chosen = eligible + weaker[: len(slots) - len(eligible)]
        rng.shuffle(chosen)
    _set_face_down(state, opp, slots, chosen)


HAND_MODEL_SHARE = 0.0
"""Share of sampled worlds whose opponent's tactics hand is the one the heuristic COM's rule
would have taken (:func:`_modelled_tactics`) instead of the value-weighted draw (0: never; a
probe, ``strong_variants.py hand-model=X``)."""
OPPONENT_MODEL_POWER = 2.0
"""How strongly sampled opponent tactics hands favour strong cards (0: uniform)."""
TRAP_MODEL_POWER = 0.0
"""How strongly sampled face-down opponent traps favour strong cards (0: uniform, as dealt by
the resampler)."""
PASS_INFERENCE = True
"""Whether the deep model redeals a sampled world (up to :data:`PASS_REDEALS` times) in which
the opponent, who has just passed in the chain, would have answered by the heuristic COM's
chain rule (:func:`would_pass`); off, every world is kept, as in the earlier measurements."""
PASS_REDEALS = 8
"""How many times a world inconsistent with the opponent's pass is redealt before it is kept."""
TRAP_INFERENCE = True
"""Whether the deep model's sampled worlds deal the opponent's face-down traps among those
worth at least the best trap it discarded in its standby (:func:`_inferred_traps`); off,
uniformly (for probes)."""


def world_sampler(view: Json, seed: int, *, infer: bool = False) -> Callable[[int], GameState]:
    """For search: rebuild one world from ``view``, then redeal its hidden parts per sample.

    Each sample is the ruleset's own resampler (:meth:`KoboState.resample_hidden`) applied to
    the rebuilt world, with a fresh RNG for the future shuffles: every sample is consistent with
    ``view`` and with nothing else. An opponent model then redeals which of the opponent's
    unseen tactics are in its hand, favouring strong cards (a player picks most of its opening
    tactics hand): public deck list and counts only. ``infer`` (the deep model's, see
    :func:`inferring_sampler`): the worlds also respect what the opponent's public choices
    say, the traps it discarded in its standby and a pass it has just made in the chain.
    """
    base = world_from_view(view, seed)
    seat: int = view["viewer"]
    opp = 1 - seat
    floor = discarded_trap_floor(view, opp) if infer and TRAP_INFERENCE else None
    passed = infer and PASS_INFERENCE and opponent_just_passed(view)

    def deal(index: int, attempt: int) -> KoboState:
        salt = index + attempt * 0x5851F42D4C957F2D
        world = base.resample_hidden(seat, seed ^ (salt * 0x9E3779B97F4A7C15 & (2**63 - 1)))
        world.rng = Rng(seed * 1_000_003 + index)
        if OPPONENT_MODEL_POWER or TRAP_MODEL_POWER or HAND_MODEL_SHARE or floor is not None:
            rng = random.Random(seed * 7_919 + salt)
            if HAND_MODEL_SHARE and rng.random() < HAND_MODEL_SHARE:
                _modelled_tactics(world, opp, rng)
            elif OPPONENT_MODEL_POWER:
                _weighted_tactics(world, opp, rng, OPPONENT_MODEL_POWER)
            if floor is not None:
                _inferred_traps(world, opp, rng, floor)
            elif TRAP_MODEL_POWER:
                _weighted_traps(world, opp, rng, TRAP_MODEL_POWER)
        return world

    def sample(index: int) -> GameState:
        world = deal(index, 0)
        attempt = 0
        while passed and attempt < PASS_REDEALS and not would_pass(world, opp):
            attempt += 1
            world = deal(index, attempt)
        return world

    return sample


def opponent_just_passed(view: Json) -> bool:
    """Whether the deciding seat has priority in a chain its opponent has just passed in: the
    board is then the one the opponent saw when it chose to pass (public)."""
    pending = view["pending"]
    if pending["prompt"] != "chain":
        return False
    return _chain_passes(view, view.get("extras")) == 1


def would_pass(world: KoboState, seat: int) -> bool:
    """Whether ``seat``, playing the heuristic COM's chain rule in ``world`` with priority,
    would pass: a world in which it would have answered is unlikely after it passed."""
    from kessen.games.kobo.evaluate import heuristic_chain_answer
    from kessen.games.kobo.flow import PASS, chain_actions

    options = chain_actions(world, seat)
    return len(options) == 1 or heuristic_chain_answer(world, seat, options) == PASS


def inferring_sampler(view: Json, seed: int) -> Callable[[int], GameState]:
    """The deep model's :func:`world_sampler`, with two inferences from the opponent's public
    choices: its face-down traps are dealt among those worth at least the best trap it
    discarded in its standby (:func:`_inferred_traps`, :data:`TRAP_INFERENCE`), and right
    after it passed in the chain a world in which it would have answered is redealt
    (:func:`would_pass`, :data:`PASS_INFERENCE`)."""
    return world_sampler(view, seed, infer=True)


REVEALING_VERBS = frozenset({"trap", "exclude-trap"})
"""Actions on a face-down trap, which show it to the opponent: flipping it, excluding it."""
PLANNED_STANDBY = True
"""Whether the deep model answers the standby's trap and tactics-hand prompts with the fitted
plan (:mod:`kessen.games.kobo.standby`); off, with the heuristic COM's choices, as the search of
the earlier measurements did (for probes)."""
KEY_REVEALS = True
"""Whether the deep model's hooks key the opponent's revealing actions by the card
(:func:`observed`); off, its tree merges every card a flip might show, as the search of the
earlier measurements did (for probes)."""


def observed(state: GameState, legal: list[Action]) -> list[Action]:
    """The searcher's tree keys for the opponent's ``legal`` actions in a sampled world.

    Flipping or excluding the face-down trap in slot *k* shows the card, so its key names it
    (``trap 2 unhealing-wound``): the search then branches on which trap the opponent turns up
    and answers each as it will, seeing it. The other actions show everything already.
    """
    assert isinstance(state, KoboState)
    if not any(action.verb in REVEALING_VERBS for action in legal):
        return legal
    assert state.prompt is not None
    row = state.prompt[0] * SLOTS - 1
    return [
        Action.of(
            action.verb, action.args[0], state.defs[state.strategy[row + int(action.args[0])]].slug
        )
        if action.verb in REVEALING_VERBS
        else action
        for action in legal
    ]


def search_hooks(deep: bool = False) -> Any:
    """The Kōbō hooks of the game-agnostic search: sampler, evaluation, rollout.

    ``deep``: the fitted evaluation after two-turn rollouts (:func:`~kessen.games.kobo.evaluate.
    deep_evaluate`, :func:`~kessen.games.kobo.evaluate.deep_rollout`) instead of the material
    balance after one turn, and a tree that keys the opponent's trap flips by the card they
    show (:func:`observed`), worlds that respect the opponent's public choices
    (:func:`inferring_sampler`), and the standby plan of :mod:`kessen.games.kobo.standby` for
    the routine standby prompts.
    """
    # Modules imported as ``import a.b as c``: in a function, mypyc loses ``from a import b``.
    import kessen.games.kobo.evaluate as judge
    import kessen.games.kobo.standby as standby
    from kessen.ai.ismcts import SearchHooks
    from kessen.games.kobo.resample import redeal_unseen

    return SearchHooks(
        world_sampler=inferring_sampler if deep else world_sampler,
        evaluate=judge.deep_evaluate if deep else judge.evaluate,
        rollout=judge.deep_rollout if deep else judge.rollout,
        routine=standby.routine if deep and PLANNED_STANDBY else judge.routine,
        prior=judge.prior,
        state_prior=judge.state_prior,
        observed=observed if deep and KEY_REVEALS else None,
        redeal_unseen=redeal_unseen,
    )

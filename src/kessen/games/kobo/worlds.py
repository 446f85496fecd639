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

:func:`public_extras` lists the public facts a future view could carry directly instead of the
log arithmetic above. The search's sampler, opponent model and hooks built on these worlds are in
:mod:`kessen.games.kobo.search_worlds`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from kessen.engine.contract import Json
from kessen.engine.log import Event
from kessen.games.kobo import worlds_surprise as surprise_worlds
from kessen.games.kobo.card_sets import activate
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


def chain_passes_of(view: Json, extras: Mapping[str, Any] | None) -> int:
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
    state.chain_passes = chain_passes_of(view, extras)


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


def search_hooks(deep: bool = False) -> Any:
    """The Kōbō hooks of the game-agnostic search, where the kernel looks every ruleset's up
    (:func:`~kessen.ai.ismcts.hooks_for`); built with the opponent model in
    :mod:`~kessen.games.kobo.search_worlds`."""
    # ``import a.b as c``: in a function, mypyc loses ``from a import b``.
    import kessen.games.kobo.search_worlds as opponent_model

    return opponent_model.search_hooks(deep)

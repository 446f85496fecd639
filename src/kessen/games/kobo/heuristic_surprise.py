"""The heuristic COM's rules for the surprise zone: what to set, when to clear, whether to flip.

Read from the deciding seat's view and the legal actions only (the card pool for the printed
abilities). Set: the 【！】 tactic of the hand whose ability is worth most, if any (a plain tactic
is never set: it would lie there unusable). Clear: only a face-up card blocking the zone (a
cancelled surprise under ``cancelled_surprise = stay``). Flip: when the ability does something
useful now (a Lv change that reaches a character the right way, a draw with cards left, a
negation of an attack on the seat); otherwise decline and keep the card armed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.kobo.card_sets import active_pool
from kessen.games.kobo.cards import SCOPE_ALL, CardDef, SurpriseAbility, Verb, named_seat
from kessen.games.kobo.surprise import CLEAR, DECLINE, FLIP, SET

_WORTH = {Verb.MODIFY_LV: 1.0, Verb.NEGATE_ATTACK: 2.5, Verb.DRAW: 0.8, Verb.RETREAT_IF_ZERO: 0.5}


def _card(slug: str) -> CardDef:
    return active_pool().get(slug)


def ability_worth(ability: SurpriseAbility) -> float:
    """A rough value of a 【！】 ability: its steps' sizes (an "all" scope counts double)."""
    worth = 0.0
    for step in ability.steps:
        size = abs(step.amount) or 1
        worth += _WORTH.get(step.verb, 0.5) * size
    if ability.target is not None and ability.target.scope is SCOPE_ALL:
        worth *= 2
    return worth


def turn_choice(view: Json, legal: Sequence[Action]) -> Action | None:
    """Set or Clear at the turn prompt, or ``None`` to go on to the attack or the pass."""
    me = int(view["pending"]["seat"])
    zone: list[dict[str, Any]] = view["players"][me].get("surprise") or []
    clear = Action.of(CLEAR)
    if clear in legal and any(e.get("face") == "up" for e in zone):
        return clear
    options = [a for a in legal if a.verb == SET and _card(str(a.args[0])).surprise]
    if not options:
        return None
    return max(options, key=lambda a: max(ability_worth(x) for x in _card(str(a.args[0])).surprise))


def link_def(view: Json, link: Json) -> CardDef:
    """The flipped 【！】 ability of a chain link as a card (its condition read from the log's
    latest flip of that card), for the exchange simulation."""
    cdef = _card(str(link["slug"]))
    condition = next(
        (
            e.get("condition")
            for e in reversed(view.get("log") or [])
            if e.get("kind") == "surprise_flip" and e.get("card") == cdef.slug
        ),
        None,
    )
    index = next((i for i, a in enumerate(cdef.surprise) if a.on.value == condition), 0)
    return cdef.surprise_effect(index) if cdef.surprise else cdef


def _affected(view: Json, me: int, ability: SurpriseAbility) -> list[dict[str, Any]]:
    target = ability.target
    if target is None:
        return []
    attack = view.get("attack")
    attacker = attack["seat"] if attack else view["turn_player"]
    side = named_seat(target.side, me, attacker)
    chars = [c for c in view["players"][side]["battle"] if c is not None]
    if target.scope is SCOPE_ALL:
        return chars
    if attack is None:
        return []
    if side == attack["seat"]:
        return [c for c in chars if c.get("attacking")]
    return [c for c in chars if c.get("target")]


def flip_choice(view: Json, legal: Sequence[Action]) -> Action:
    """Flip or decline at the surprise prompt."""
    if FLIP not in legal:
        return DECLINE
    me = int(view["pending"]["seat"])
    context = view["pending"].get("context") or {}
    card = context.get("card") or {}
    cdef = _card(str(card.get("slug")))
    condition = context.get("condition")
    ability = next((a for a in cdef.surprise if a.on.value == condition), None)
    if ability is None:
        return DECLINE
    attack = view.get("attack")
    useful = False
    for step in ability.steps:
        if step.verb is Verb.MODIFY_LV:
            hit = _affected(view, me, ability)
            own = (
                ability.target is not None
                and named_seat(ability.target.side, me, attack["seat"] if attack else me) == me
            )
            useful = useful or (bool(hit) and (step.amount > 0) == own)
        elif step.verb is Verb.DRAW:
            useful = useful or view["players"][me]["tactics_deck"] > 0
        elif step.verb is Verb.NEGATE_ATTACK:
            useful = useful or (
                attack is not None and attack["seat"] != me and not attack["negated"]
            )
    return FLIP if useful else DECLINE

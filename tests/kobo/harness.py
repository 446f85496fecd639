"""A one-line scenario harness for Kōbō tests: build a board, script actions, assert.

The scenarios are rules tests written against the printed numbers of card data version 1
(an Oni Warlord of Lv 6, a Power Surge of +2, …): ``board`` and ``fixed_order_match`` here
build their matches with that data, which the engine keeps playing exactly (records made under
it replay), whatever the numbers of the shipped pool are now.
"""

from __future__ import annotations

import functools

from kessen.engine.action import Action
from kessen.games.kobo import game
from kessen.games.kobo.card_versions import LEGACY_VERSION
from kessen.games.kobo.game import Side
from kessen.games.kobo.state import EMPTY, SLOTS, KoboState

SCENARIO_CARD_DATA = LEGACY_VERSION
"""The card data version the scenarios' numbers come from."""
board = functools.partial(game.board, card_data=SCENARIO_CARD_DATA)
fixed_order_match = functools.partial(game.fixed_order_match, card_data=SCENARIO_CARD_DATA)

__all__ = [
    "Side",
    "battle_slugs",
    "board",
    "fixed_order_match",
    "legal",
    "log_kinds",
    "play",
    "slot_lv",
    "slot_slug",
]


def play(state: KoboState, *actions: str) -> KoboState:
    """Apply each action text in turn; fail with the legal list if one is not legal."""
    for text in actions:
        action = Action.parse(text)
        options = state.legal_actions()
        assert action in options, (
            f"{text!r} not legal at {state.pending}; legal: {[str(a) for a in options]}"
        )
        state.apply(action)
    return state


def legal(state: KoboState) -> list[str]:
    """The legal actions as text."""
    return [str(a) for a in state.legal_actions()]


def slot_lv(state: KoboState, seat: int, slot: int) -> tuple[int, int]:
    """(base Lv, current Lv) of the character in ``seat``'s battle slot ``slot`` (1-5)."""
    card = state.battle[seat * SLOTS + slot - 1]
    assert card != EMPTY, f"seat {seat} slot {slot} is empty"
    return state.base[card], state.lv(card)


def slot_slug(state: KoboState, seat: int, slot: int) -> str | None:
    """The card name in a battle slot, or None for a hole."""
    card = state.battle[seat * SLOTS + slot - 1]
    return None if card == EMPTY else state.defs[card].slug


def battle_slugs(state: KoboState, seat: int) -> list[str | None]:
    """The five battle slots of ``seat``."""
    return [slot_slug(state, seat, i) for i in range(1, SLOTS + 1)]


def log_kinds(state: KoboState) -> list[str]:
    """The kinds of all log events so far."""
    return [e.kind for e in state.log]

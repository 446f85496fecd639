"""Creating Kōbō matches: from a config and a seed, or from a scripted board for tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kessen.games.kobo.card_versions import current_version
from kessen.games.kobo.config import KoboConfig, parse_config
from kessen.games.kobo.decks import Deck, deck_cards
from kessen.games.kobo.flow import advance
from kessen.games.kobo.state import (
    HAND,
    MAIN_DECK,
    RETREAT,
    SLOTS,
    TDECK,
    THAND,
    KoboState,
)


def new_game(config: Mapping[str, Any], seed: int) -> KoboState:
    """A new match from a config (see :mod:`.config`) and a seed, at its first decision."""
    parsed = parse_config(config)
    return start(parsed, seed, [list(deck_cards(d)) for d in parsed.decks])


def start(config: KoboConfig, seed: int, cards: list[list[str]]) -> KoboState:
    """A match of ``cards`` (per seat: main deck cards then tactics, top card first)."""
    state = KoboState.blank(config, seed, cards)
    state.stack.append(("game",))
    advance(state)
    return state


def _scratch_deck(name: str, main: Sequence[str], tactics: Sequence[str]) -> Deck:
    return Deck(
        name, name, name, "", "", tuple((s, 1) for s in main), tuple((s, 1) for s in tactics)
    )


def fixed_order_match(
    main: tuple[Sequence[str], Sequence[str]],
    tactics: tuple[Sequence[str], Sequence[str]],
    first_player: int = 0,
    seed: int = 0,
    best_of: int = 1,
    card_data: int | None = None,
) -> KoboState:
    """A match whose decks are not shuffled: each list is drawn from its first card on.

    For scenario tests of the standby; deck rules are not checked. ``card_data`` names the
    card data version (the current one by default).
    """
    decks = (_scratch_deck("p0", main[0], tactics[0]), _scratch_deck("p1", main[1], tactics[1]))
    config = KoboConfig(
        decks,
        best_of=best_of,
        first_player=first_player,
        shuffle=False,
        card_data=current_version() if card_data is None else card_data,
    )
    return start(config, seed, [list(main[s]) + list(tactics[s]) for s in (0, 1)])


@dataclass
class Side:
    """One seat of a scripted board (slugs; lists of slots may hold ``None`` for a hole).

    ``tactics_deck`` and ``main_deck`` are listed top card first. ``base`` overrides the base
    Lv of the characters by slot number (1-5).
    """

    battle: Sequence[str | None] = ()
    traps: Sequence[str | None] = ()
    tactics_hand: Sequence[str] = ()
    tactics_deck: Sequence[str] = ()
    main_deck: Sequence[str] = ()
    hand: Sequence[str] = ()
    retreat: Sequence[str] = ()
    base: dict[int, int] = field(default_factory=dict)
    passes: int = 0


def board(
    p0: Side,
    p1: Side,
    turn_player: int = 0,
    turn: int = 1,
    seed: int = 0,
    turn_limit: int = 200,
    best_of: int = 1,
    card_data: int | None = None,
) -> KoboState:
    """A match set up mid-game: the given boards, at the start of ``turn_player``'s turn.

    The turn starts normally (the tactics draw happens if the hand holds 3 or fewer), so the
    first decision is the turn player's attack or pass. ``card_data`` names the card data
    version (the current one by default).
    """
    sides = (p0, p1)
    lists: list[list[str]] = []
    for s in sides:
        lists.append(
            [x for x in s.battle if x]
            + [x for x in s.traps if x]
            + list(s.tactics_hand)
            + list(s.tactics_deck)
            + list(s.main_deck)
            + list(s.hand)
            + list(s.retreat)
        )
    decks = tuple(_scratch_deck(f"p{i}", lists[i], ()) for i in (0, 1))
    config = KoboConfig(
        (decks[0], decks[1]),
        best_of=best_of,
        turn_limit=turn_limit,
        first_player=turn_player,
        shuffle=False,
        card_data=current_version() if card_data is None else card_data,
    )
    state = KoboState.blank(config, seed, lists)
    state.game_no = 1
    for seat, s in enumerate(sides):
        ids = iter(range(seat * len(lists[0]), seat * len(lists[0]) + len(lists[seat])))
        for slot, slug in enumerate(s.battle):
            if slug:
                card = next(ids)
                state.battle[seat * SLOTS + slot] = card
                if slot + 1 in s.base:
                    state.base[card] = s.base[slot + 1]
        for slot, slug in enumerate(s.traps):
            if slug:
                state.strategy[seat * SLOTS + slot] = next(ids)
        state.zone(seat, THAND).extend(next(ids) for _ in s.tactics_hand)
        state.zone(seat, TDECK).extend(reversed([next(ids) for _ in s.tactics_deck]))
        state.zone(seat, MAIN_DECK).extend(reversed([next(ids) for _ in s.main_deck]))
        state.zone(seat, HAND).extend(next(ids) for _ in s.hand)
        state.zone(seat, RETREAT).extend(next(ids) for _ in s.retreat)
        state.passes[seat] = s.passes
    state.first_player = turn_player
    state.turn_player = turn_player
    state.note("game_start", {"game": 1, "first": turn_player})
    state.turn = turn - 1
    state.stack.append(("turn_start",))
    advance(state)
    return state

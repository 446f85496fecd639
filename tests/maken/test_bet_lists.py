"""The lists of bets are built once per prompt with shared work (``rules.BetContext``): they must
be exactly the bets found one candidate at a time, and the caller's list of legal actions is its
own (the state's cache, which ``apply`` checks against, stays as it was)."""

from __future__ import annotations

import random

import pytest

from kessen.engine.action import Action
from kessen.engine.contract import IllegalAction
from kessen.games.maken.cards import CARD
from kessen.games.maken.game import new_game
from kessen.games.maken.rules import (
    BONUS,
    EVEN,
    FB,
    FORCE,
    GC,
    condition,
    hand_view,
    modify,
    opened_in_order,
    option_table,
    plan_bet,
)
from kessen.games.maken.rules import bets as listed_bets
from kessen.games.maken.state import DOWN, INST, S_INST, MakenState
from tests.maken.playouts import config

MODES = (FB, EVEN, FORCE, GC, BONUS)


def _positions(games: int) -> list[MakenState]:
    """Every decision of ``games`` seeded random games."""
    out = []
    for seed in range(games):
        state = new_game(config(seed), seed)
        chooser = random.Random(seed)
        while state.pending is not None:
            out.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[chooser.randrange(len(legal))])
    return out


def _one_by_one(state: MakenState, seat: int, mode: str) -> list[tuple[str, int, str | None]]:
    """Every candidate bet of the seat's hand tried alone (no shared context)."""
    found = []
    for cid in sorted({state.cards[i] for i in state.hand[seat]}):
        for n in (1, 2, 3):
            for option in option_table(n) or (None,):
                if plan_bet(state, seat, cid, n, option, mode) is not None:
                    found.append((cid, n, option))
    return found


def _reference_view(state: MakenState, seat: int, cid: str) -> list[int]:
    """Steps 1–4 as maken.md §8.1 words them: each source's change applied as it is met."""
    data = list(CARD[cid].data)
    opp = 1 - seat
    sources = (
        (opened_in_order(state, seat), S_INST, "HAND_OWN", seat),
        (opened_in_order(state, opp), S_INST, "HAND_OPP", opp),
        ([e for e in state.field[seat] if not e[DOWN]], INST, "HAND_OWN", seat),
        ([e for e in state.field[opp] if not e[DOWN]], INST, "HAND_OPP", opp),
    )
    for entries, slot, timing, owner in sources:
        for entry in entries:
            for ab in state.card(entry[slot]).abilities:
                if ab.timing == timing and condition(state, ab, owner, None):
                    modify(data, ab.stat or "", ab.n)
    return data


def test_listed_bets_are_the_bets_found_one_by_one() -> None:
    positions = _positions(12)
    checked = 0
    for state in positions[::3]:
        for seat in (0, 1):
            for mode in MODES:
                listed = [(p.cid, p.n, p.option) for p in listed_bets(state, seat, mode)]
                assert listed == _one_by_one(state, seat, mode), (state.turn, seat, mode)
                checked += len(listed)
    assert checked > 1000


def test_hand_views_match_the_rules_wording() -> None:
    changed = 0
    for state in _positions(12)[::5]:
        for seat in (0, 1):
            for cid in {state.cards[i] for i in state.hand[seat]}:
                expected = _reference_view(state, seat, cid)
                assert hand_view(state, seat, cid) == expected
                changed += expected != list(CARD[cid].data)
    assert changed > 0  # some positions have HAND abilities in play


def test_the_returned_legal_list_is_the_callers_own() -> None:
    state = _positions(1)[40]
    expected = state.legal_actions()
    state.legal_actions().clear()
    twin = state.clone()
    twin.legal_actions().append(Action.of("never"))
    assert state.legal_actions() == expected and twin.legal_actions() == expected
    with pytest.raises(IllegalAction):
        state.apply(Action.of("never"))
    state.apply(expected[0])
    twin.apply(expected[0])
    assert twin.state_hash() == state.state_hash()

"""Deploy cards in the standby (kobo-rules.md §4, games/kobo/docs/rules.en.md 4.4, 4.7, 4.8).

rally-banner +1, war-drum +2, supply-wagon draw 2, summoning-horn summon from the top,
training-manual +1 then draw 1; every deploy card may be discarded unused.
(援軍指名 has its own file: test_reinforcement_call.py.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from kessen.engine.contract import Json
from kessen.games.kobo.state import HAND, MAIN_DECK, RETREAT, REVEAL, KoboState
from tests.kobo.harness import battle_slugs, fixed_order_match, legal, play, slot_lv

TACTICS = [
    "total-war",
    "mass-jamming",
    "power-surge",
    "weaken",
    "target-change",
    "swift-step",
    "counter-spell",
    "ceasefire",
    "last-stand",
    "hinder",
]
OPPONENT = [
    "spear-ashigaru",
    "great-tengu",
    "decoy",
    "ashigaru-recruit",
    "thorn-armor",
    "white-fox-miko",
    "steadfast",
    "oni-warlord",
    "warrior-monk",
]
FILLER = [
    "unhealing-wound",
    "decoy",
    "thorn-armor",
    "steadfast",
    "counter-seal",
    "covering-fire",
    "battle-cry",
    "holy-barrier",
]


def match(main0: Sequence[str], main1: Sequence[str] = OPPONENT, first: int = 0) -> KoboState:
    return fixed_order_match(
        (list(main0), list(main1)), (list(TACTICS), list(TACTICS)), first_player=first
    )


def slugs(state: KoboState, cards: Sequence[int]) -> list[str]:
    return [state.defs[c].slug for c in cards]


def hand(state: KoboState, seat: int) -> list[str]:
    return slugs(state, state.zone(seat, HAND))


def prompt(state: KoboState) -> tuple[int, str]:
    assert state.pending is not None
    return state.pending.seat, state.pending.prompt


def finish_standby(state: KoboState) -> KoboState:
    """Run the rest of the standby with the first legal answer (deploys discarded)."""
    while state.pending is not None and state.pending.prompt != "turn":
        options = legal(state)
        play(
            state,
            "discard" if "discard" in options and state.pending.prompt == "deploy" else options[0],
        )
    return state


def view_slot(state: KoboState, viewer: int | None, seat: int, slot: int) -> Json:
    card: Json | None = state.view(viewer)["players"][seat]["battle"][slot - 1]
    assert card is not None
    return card


def log_of(state: KoboState, kind: str, viewer: int | None) -> list[Json]:
    return [e for e in state.view(viewer)["log"] if e["kind"] == kind]


def shuffling(state: KoboState) -> None:
    """From now on the state shuffles as in normal play (the fixed-order test mode does not)."""
    state.config = dataclasses.replace(state.config, shuffle=True)


# --- permanent buffs -------------------------------------------------------------------------


@pytest.mark.parametrize(("card", "amount"), [("rally-banner", 1), ("war-drum", 2)])
def test_buff_raises_the_chosen_own_character_permanently(card: str, amount: int) -> None:
    main0 = ["spear-ashigaru", "great-tengu", card, *FILLER[:4], "oni-warlord"]
    state = match(main0)
    play(state, "pick spear-ashigaru", "slot 2", "pick great-tengu", "slot 4", f"pick {card}")
    assert prompt(state) == (0, "deploy")
    assert legal(state) == ["use", "discard"]
    play(state, "use")
    assert prompt(state) == (0, "deploy_target")
    # only occupied own slots are offered: holes are not
    assert legal(state) == ["slot 2", "slot 4"]
    # the card being resolved is public
    assert state.view(1)["pending"]["context"]["card"]["slug"] == card
    play(state, "slot 2")
    assert slot_lv(state, 0, 2) == (2 + amount, 2 + amount)
    assert slot_lv(state, 0, 4) == (5, 5)
    assert slugs(state, state.zone(0, RETREAT)) == [card]
    lv_events = log_of(state, "lv", 1)
    assert lv_events[-1]["amount"] == amount
    assert lv_events[-1]["permanent"] is True
    assert lv_events[-1]["slot"] == 2
    # visible later, to both seats, and still there after turns went by
    finish_standby(state)
    for viewer in (0, 1, None):
        shown = view_slot(state, viewer, 0, 2)
        assert (shown["printed"], shown["base"], shown["lv"]) == (2, 2 + amount, 2 + amount)
    play(state, "pass")
    play(state, "pass")
    assert prompt(state) == (0, "turn")
    assert slot_lv(state, 0, 2) == (2 + amount, 2 + amount)


def test_buff_of_the_second_player_offers_only_its_own_characters() -> None:
    main1 = ["messenger-tanuki", "rally-banner", *FILLER[:5], "oni-warlord"]
    state = match(OPPONENT, main1)
    finish_standby_of(state, 0)
    play(state, *(f"take {s}" for s in TACTICS[:7]))
    play(state, "pick messenger-tanuki", "slot 5", "pick rally-banner", "use")
    assert prompt(state) == (1, "deploy_target")
    assert legal(state) == ["slot 5"]
    play(state, "slot 5")
    assert slot_lv(state, 1, 5) == (2, 2)
    # the first player's board is untouched
    assert [state.base[c] for c in state.characters(0)] == [
        state.defs[c].lv for c in state.characters(0)
    ]


def finish_standby_of(state: KoboState, seat: int) -> None:
    while prompt(state)[0] == seat and prompt(state)[1] in ("standby", "place", "set", "deploy"):
        options = legal(state)
        play(state, "discard" if prompt(state)[1] == "deploy" else options[0])


def test_war_drum_and_rally_banner_stack_on_one_character() -> None:
    main0 = ["ashigaru-recruit", "war-drum", "rally-banner", *FILLER[:4], "oni-warlord"]
    state = match(main0)
    play(state, "pick ashigaru-recruit", "slot 1")
    play(state, "pick war-drum", "use", "slot 1", "pick rally-banner", "use", "slot 1")
    assert slot_lv(state, 0, 1) == (4, 4)


# --- draw ------------------------------------------------------------------------------------


def test_supply_wagon_draws_two_that_must_be_processed() -> None:
    main0 = [
        "supply-wagon",
        "spear-ashigaru",
        *FILLER[:5],
        "oni-warlord",
        "war-drum",
        "great-tengu",
    ]
    state = match(main0)
    play(state, "pick supply-wagon", "use")
    assert prompt(state) == (0, "standby")
    assert sorted(hand(state, 0)) == sorted(
        ["spear-ashigaru", *FILLER[:5], "oni-warlord", "war-drum"]
    )
    assert hand(state, 0).count("oni-warlord") == 1
    assert len(state.zone(0, MAIN_DECK)) == 1
    # the draw is private: a count for the opponent, the cards for the owner
    assert log_of(state, "draw", 1)[-1] == {"kind": "draw", "seat": 0, "count": 2}
    assert log_of(state, "draw", 0)[-1]["cards"] == ["oni-warlord", "war-drum"]
    assert "pick oni-warlord" in legal(state)
    assert "pick war-drum" in legal(state)
    # the drawn cards are processed like the rest: standby goes on until they are
    play(state, "pick oni-warlord", "slot 1", "pick war-drum", "use", "slot 1")
    assert slot_lv(state, 0, 1) == (8, 8)
    assert slugs(state, state.zone(0, RETREAT)) == ["supply-wagon", "war-drum"]


@pytest.mark.parametrize("left", [0, 1])
def test_supply_wagon_draws_what_there_is(left: int) -> None:
    main0 = ["supply-wagon", "spear-ashigaru", *FILLER[:5], *["oni-warlord"][:left]]
    state = match(main0)
    assert len(state.zone(0, MAIN_DECK)) == left
    play(state, "pick supply-wagon", "use")
    assert prompt(state) == (0, "standby")
    assert state.zone(0, MAIN_DECK) == []
    assert len(hand(state, 0)) == 6 + left
    assert log_of(state, "draw", 1)[-1]["count"] == left
    assert hand(state, 0).count("oni-warlord") == left


def test_supply_wagon_draw_can_bring_another_supply_wagon() -> None:
    main0 = [
        "supply-wagon",
        "spear-ashigaru",
        *FILLER[:5],
        "supply-wagon",
        "great-tengu",
        "oni-warlord",
        "warrior-monk",
    ]
    state = match(main0)
    play(state, "pick supply-wagon", "use", "pick supply-wagon", "use")
    assert sorted(hand(state, 0)) == sorted(
        ["spear-ashigaru", *FILLER[:5], "great-tengu", "oni-warlord", "warrior-monk"]
    )
    assert state.zone(0, MAIN_DECK) == []


# --- summon from the deck --------------------------------------------------------------------


def test_summoning_horn_reveals_until_a_character_and_summons_it() -> None:
    main0 = [
        "summoning-horn",
        "spear-ashigaru",
        *FILLER[:5],
        "counter-seal",
        "war-drum",
        "great-tengu",
        "oni-warlord",
    ]
    state = match(main0)
    play(state, "pick spear-ashigaru", "slot 1", "pick summoning-horn", "use")
    # revealed from the top: two non-characters, then the first character
    assert prompt(state) == (0, "place")
    for viewer in (0, 1, None):
        assert log_of(state, "reveal", viewer)[-1]["cards"] == [
            "counter-seal",
            "war-drum",
            "great-tengu",
        ]
    assert state.view(1)["pending"]["context"]["card"]["slug"] == "great-tengu"
    assert legal(state) == ["slot 2", "slot 3", "slot 4", "slot 5"]
    play(state, "slot 4")
    assert battle_slugs(state, 0) == ["spear-ashigaru", None, None, "great-tengu", None]
    # the other revealed cards went back into the deck; the hand did not change
    assert sorted(slugs(state, state.zone(0, MAIN_DECK))) == sorted(
        ["counter-seal", "war-drum", "oni-warlord"]
    )
    assert state.zone(0, REVEAL) == []
    assert len(hand(state, 0)) == 5
    assert slugs(state, state.zone(0, RETREAT)) == ["summoning-horn"]
    state.audit()


def test_summoning_horn_shuffles_the_deck_after_a_summon() -> None:
    main0 = [
        "summoning-horn",
        "spear-ashigaru",
        *FILLER[:5],
        "counter-seal",
        "war-drum",
        "great-tengu",
        *FILLER,
        "oni-warlord",
    ]
    state = match(main0)
    shuffling(state)
    play(state, "pick summoning-horn", "use")
    before = state.rng.state
    play(state, "slot 1")
    assert state.rng.state != before


def test_summoning_horn_without_character_in_deck_summons_nothing() -> None:
    main0 = ["summoning-horn", "spear-ashigaru", *FILLER[:5], "counter-seal", "war-drum"]
    state = match(main0)
    shuffling(state)
    before = state.rng.state
    play(state, "pick summoning-horn", "use")
    assert prompt(state) == (0, "standby")
    assert log_of(state, "reveal", 1)[-1]["cards"] == ["counter-seal", "war-drum"]
    assert log_of(state, "summon_fail", 1)[-1]["reason"] == "no_character"
    assert state.characters(0) == []
    assert sorted(slugs(state, state.zone(0, MAIN_DECK))) == ["counter-seal", "war-drum"]
    assert state.zone(0, REVEAL) == []
    assert slugs(state, state.zone(0, RETREAT)) == ["summoning-horn"]
    # "nothing is summoned; the deck is still shuffled"
    assert state.rng.state != before


def test_summoning_horn_without_free_slot_summons_nothing() -> None:
    chars = [
        "ashigaru-recruit",
        "messenger-tanuki",
        "spear-ashigaru",
        "shadow-shinobi",
        "white-fox-miko",
    ]
    main0 = [*chars, "summoning-horn", "decoy", "great-tengu", "oni-warlord"]
    state = match(main0)
    for n, slug in enumerate(chars):
        play(state, f"pick {slug}", f"slot {n + 1}")
    deck = list(state.zone(0, MAIN_DECK))
    play(state, "pick summoning-horn", "use")
    assert prompt(state) == (0, "standby")
    assert log_of(state, "summon_fail", 1)[-1]["reason"] == "no_slot"
    assert battle_slugs(state, 0) == chars
    assert sorted(state.zone(0, MAIN_DECK)) == sorted(deck)
    assert slugs(state, state.zone(0, RETREAT)) == ["summoning-horn"]


def test_summoning_horn_without_free_slot_still_shuffles_the_deck() -> None:
    """games/kobo/docs/rules.en.md 4.7 / §16.8: with no free slot, nothing is summoned; the deck is
    still shuffled."""
    chars = [
        "ashigaru-recruit",
        "messenger-tanuki",
        "spear-ashigaru",
        "shadow-shinobi",
        "white-fox-miko",
    ]
    main0 = [*chars, "summoning-horn", "decoy", "great-tengu", "oni-warlord", *FILLER]
    state = match(main0)
    for n, slug in enumerate(chars):
        play(state, f"pick {slug}", f"slot {n + 1}")
    shuffling(state)
    before = state.rng.state
    play(state, "pick summoning-horn", "use")
    assert log_of(state, "summon_fail", 1)[-1]["reason"] == "no_slot"
    assert state.rng.state != before


# --- training manual: +1 then draw 1 ---------------------------------------------------------


def test_training_manual_raises_then_draws_one() -> None:
    main0 = ["training-manual", "shadow-shinobi", *FILLER[:5], "iron-castellan", "oni-warlord"]
    state = match(main0)
    play(state, "pick shadow-shinobi", "slot 3", "pick training-manual", "use")
    assert prompt(state) == (0, "deploy_target")
    assert legal(state) == ["slot 3"]
    play(state, "slot 3")
    assert slot_lv(state, 0, 3) == (3, 3)
    assert sorted(hand(state, 0)) == sorted([*FILLER[:5], "iron-castellan"])
    assert log_of(state, "draw", 1)[-1] == {"kind": "draw", "seat": 0, "count": 1}
    assert log_of(state, "draw", 0)[-1]["cards"] == ["iron-castellan"]
    assert [e["kind"] for e in log_of(state, "lv", 1)] == ["lv"]
    # the drawn card is processed like the rest
    play(state, "pick iron-castellan", "slot 1")
    assert battle_slugs(state, 0)[0] == "iron-castellan"


def test_training_manual_with_empty_deck_still_raises() -> None:
    main0 = ["training-manual", "shadow-shinobi", *FILLER[:5]]
    state = match(main0)
    play(state, "pick shadow-shinobi", "slot 1", "pick training-manual", "use", "slot 1")
    assert slot_lv(state, 0, 1) == (3, 3)
    assert log_of(state, "draw", 1)[-1]["count"] == 0
    assert len(hand(state, 0)) == 5


# --- discarding unused -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "card",
    [
        "rally-banner",
        "war-drum",
        "supply-wagon",
        "summoning-horn",
        "training-manual",
        "reinforcement-call",
    ],
)
def test_deploy_card_can_be_discarded_unused(card: str) -> None:
    main0 = [
        card,
        "spear-ashigaru",
        *FILLER[:5],
        "great-tengu",
        "oni-warlord",
        "warrior-monk",
        "white-fox-miko",
    ]
    state = match(main0)
    play(state, "pick spear-ashigaru", "slot 1")
    deck = list(state.zone(0, MAIN_DECK))
    base = list(state.base)
    play(state, f"pick {card}", "discard")
    assert prompt(state) == (0, "standby")
    assert slugs(state, state.zone(0, RETREAT)) == [card]
    assert state.zone(0, MAIN_DECK) == deck
    assert state.base == base
    assert battle_slugs(state, 0) == ["spear-ashigaru", None, None, None, None]
    assert len(hand(state, 0)) == 5
    assert log_of(state, "discard", 1)[-1] == {"kind": "discard", "seat": 0, "card": card}
    assert not [e for e in state.log if e.kind == "deploy"]


def test_training_manual_without_own_character_still_draws() -> None:
    """Decided: with no character to choose, the Lv step does nothing but the draw happens."""
    main0 = ["training-manual", "shadow-shinobi", *FILLER[:5], "iron-castellan"]
    state = match(main0)
    play(state, "pick training-manual", "use")
    assert prompt(state) == (0, "standby")
    assert log_of(state, "no_target", 1)[-1]["card"] == "training-manual"
    assert log_of(state, "draw", 0)[-1]["cards"] == ["iron-castellan"]
    assert "iron-castellan" in hand(state, 0)

"""援軍指名 (reinforcement-call): kobo-rules.md §4, games/kobo/docs/rules.en.md 4.6 and §16.7.

The owner names 3 characters of 3 different names from its main deck; they are turned face
down and shuffled; the opponent picks one blind by position; the owner chooses its slot; the
other two go back and the deck is shuffled. No 3 different names, or no free slot: nothing.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence

import pytest

from kessen.engine.action import Action
from kessen.engine.contract import IllegalAction, Json
from kessen.games.kobo.state import HAND, MAIN_DECK, RETREAT, REVEAL, KoboState
from tests.kobo.harness import battle_slugs, fixed_order_match, legal, play

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
FILLER = ["unhealing-wound", "decoy", "thorn-armor", "steadfast", "counter-seal"]
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
# hand: the call, one character, 5 traps; deck: 4 character names (great-tengu twice) + a trap
CALLER = [
    "reinforcement-call",
    "spear-ashigaru",
    *FILLER,
    "great-tengu",
    "battle-cry",
    "oni-warlord",
    "great-tengu",
    "warrior-monk",
    "iron-castellan",
]


def match(
    main0: Sequence[str] = CALLER, main1: Sequence[str] = OPPONENT, seed: int = 0, first: int = 0
) -> KoboState:
    return fixed_order_match(
        (list(main0), list(main1)), (list(TACTICS), list(TACTICS)), first_player=first, seed=seed
    )


def slugs(state: KoboState, cards: Sequence[int]) -> list[str]:
    return [state.defs[c].slug for c in cards]


def prompt(state: KoboState) -> tuple[int, str]:
    assert state.pending is not None
    return state.pending.seat, state.pending.prompt


def log_of(state: KoboState, kind: str, viewer: int | None) -> list[Json]:
    return [e for e in state.view(viewer)["log"] if e["kind"] == kind]


def to_blind(
    state: KoboState, names: Sequence[str] = ("great-tengu", "oni-warlord", "warrior-monk")
) -> KoboState:
    play(state, "pick spear-ashigaru", "slot 1", "pick reinforcement-call", "use")
    play(state, *(f"name {n}" for n in names))
    return state


# --- the full flow ---------------------------------------------------------------------------


def test_full_flow_name_three_blind_pick_owner_places() -> None:
    state = match()
    play(state, "pick spear-ashigaru", "slot 1", "pick reinforcement-call", "use")
    # the owner names: character names its main deck holds, in pool order
    assert prompt(state) == (0, "nominate")
    assert legal(state) == [
        "name warrior-monk",
        "name great-tengu",
        "name iron-castellan",
        "name oni-warlord",
    ]
    assert state.view(1)["pending"]["legal"] is None
    play(state, "name great-tengu")
    assert prompt(state) == (0, "nominate")
    play(state, "name oni-warlord")
    assert prompt(state) == (0, "nominate")
    deck_before = len(state.zone(0, MAIN_DECK))
    play(state, "name warrior-monk")
    # the three left the deck and lie face down, shuffled; the opponent picks blind
    assert len(state.zone(0, MAIN_DECK)) == deck_before - 3
    assert sorted(slugs(state, state.zone(0, REVEAL))) == sorted(
        ["great-tengu", "oni-warlord", "warrior-monk"]
    )
    assert prompt(state) == (1, "blind")
    assert legal(state) == ["pick 1", "pick 2", "pick 3"]
    # the nomination is public
    for viewer in (0, 1, None):
        nominated = log_of(state, "nominate", viewer)
        assert nominated == [
            {"kind": "nominate", "seat": 0, "cards": ["great-tengu", "oni-warlord", "warrior-monk"]}
        ]
    picked = state.zone(0, REVEAL)[1]
    play(state, "pick 2")
    for viewer in (0, 1, None):
        blind = log_of(state, "blind_pick", viewer)
        assert blind == [
            {"kind": "blind_pick", "seat": 1, "position": 2, "card": state.defs[picked].slug}
        ]
    # the owner chooses the slot
    assert prompt(state) == (0, "place")
    assert legal(state) == ["slot 2", "slot 3", "slot 4", "slot 5"]
    assert state.view(1)["pending"]["context"]["card"]["slug"] == state.defs[picked].slug
    play(state, "slot 4")
    assert battle_slugs(state, 0) == ["spear-ashigaru", None, None, state.defs[picked].slug, None]
    # the other two went back into the deck
    assert state.zone(0, REVEAL) == []
    assert len(state.zone(0, MAIN_DECK)) == deck_before - 1
    rest = sorted(
        [
            "great-tengu",
            "great-tengu",
            "oni-warlord",
            "warrior-monk",
            "iron-castellan",
            "battle-cry",
        ]
    )
    rest.remove(state.defs[picked].slug)
    assert sorted(slugs(state, state.zone(0, MAIN_DECK))) == rest
    assert slugs(state, state.zone(0, RETREAT)) == ["reinforcement-call"]
    assert prompt(state) == (0, "standby")
    state.audit()


def test_the_second_player_calls_and_the_first_player_picks() -> None:
    state = match(main0=OPPONENT, main1=CALLER)
    while prompt(state)[0] == 0:
        options = legal(state)
        play(state, options[0])
    play(state, *(f"take {s}" for s in TACTICS[:7]))
    play(state, "pick spear-ashigaru", "slot 3", "pick reinforcement-call", "use")
    assert prompt(state) == (1, "nominate")
    play(state, "name great-tengu", "name oni-warlord", "name iron-castellan")
    assert prompt(state) == (0, "blind")
    play(state, "pick 3")
    assert prompt(state) == (1, "place")
    assert "slot 3" not in legal(state)
    play(state, "slot 1")
    assert battle_slugs(state, 1)[0] in ("great-tengu", "oni-warlord", "iron-castellan")


def test_blind_positions_are_shuffled() -> None:
    """The three are turned face down and shuffled: position 1 is not always the first named."""
    at_one = set()
    for seed in range(16):
        state = to_blind(match(seed=seed))
        at_one.add(state.defs[state.zone(0, REVEAL)[0]].slug)
    assert at_one == {"great-tengu", "oni-warlord", "warrior-monk"}


def test_deck_is_shuffled_after_the_other_two_return() -> None:
    state = to_blind(match())
    state.config = dataclasses.replace(state.config, shuffle=True)
    play(state, "pick 1")
    before = state.rng.state
    play(state, "slot 2")
    assert state.rng.state != before


# --- the face-down three carry no identity ---------------------------------------------------


def test_face_down_three_show_no_identity_to_either_seat_until_picked() -> None:
    state = to_blind(match())
    for viewer in (0, 1, None):
        view = state.view(viewer)
        assert view["players"][0]["reveal"] == [{"face": "down"}] * 3
        assert view["pending"]["context"] == {}
    # the blind picker's legal answers are positions only
    assert state.view(1)["pending"]["legal"] == ["pick 1", "pick 2", "pick 3"]
    # nothing in any view depends on the order of the three
    views = {json.dumps(state.view(v), sort_keys=True) for v in (0, 1)}
    for order in ([2, 1, 0], [1, 2, 0], [0, 2, 1]):
        other = state.clone()
        three = state.zone(0, REVEAL)
        other.zone(0, REVEAL)[:] = [three[i] for i in order]
        assert {json.dumps(other.view(v), sort_keys=True) for v in (0, 1)} == views
    # once picked, the picked one is face up for both
    play(state, "pick 3")
    picked = state.defs[state.zone(0, REVEAL)[2]].slug
    for viewer in (0, 1):
        shown = state.view(viewer)["players"][0]["reveal"]
        assert shown[2]["face"] == "up"
        assert shown[2]["slug"] == picked


def test_blind_view_survives_resampling_for_both_seats() -> None:
    state = to_blind(match())
    for seat in (0, 1):
        for seed in range(5):
            assert state.resample_hidden(seat, seed).view(seat) == state.view(seat)


# --- three different names -------------------------------------------------------------------


def test_a_name_already_named_is_not_offered_again() -> None:
    state = match()
    play(
        state, "pick spear-ashigaru", "slot 1", "pick reinforcement-call", "use", "name great-tengu"
    )
    # the deck holds two great-tengu, yet the name is not offered again
    assert slugs(state, state.zone(0, MAIN_DECK)).count("great-tengu") == 2
    assert "name great-tengu" not in legal(state)
    assert legal(state) == ["name warrior-monk", "name iron-castellan", "name oni-warlord"]
    with pytest.raises(IllegalAction):
        state.apply(Action.parse("name great-tengu"))
    play(state, "name iron-castellan")
    assert legal(state) == ["name warrior-monk", "name oni-warlord"]
    # the owner sees what it named so far, the opponent does not
    assert state.view(0)["pending"]["context"] == {"named": ["great-tengu", "iron-castellan"]}


def test_only_character_names_are_offered() -> None:
    state = match()
    play(state, "pick spear-ashigaru", "slot 1", "pick reinforcement-call", "use")
    assert "name battle-cry" not in legal(state)
    with pytest.raises(IllegalAction):
        state.apply(Action.parse("name battle-cry"))


def test_exactly_three_different_names_is_enough() -> None:
    main0 = [
        "reinforcement-call",
        "spear-ashigaru",
        *FILLER,
        "great-tengu",
        "great-tengu",
        "oni-warlord",
        "battle-cry",
        "warrior-monk",
    ]
    state = match(main0=main0)
    play(state, "pick spear-ashigaru", "slot 1", "pick reinforcement-call", "use")
    assert legal(state) == ["name warrior-monk", "name great-tengu", "name oni-warlord"]
    play(state, "name oni-warlord", "name great-tengu", "name warrior-monk")
    assert prompt(state) == (1, "blind")


# --- failures --------------------------------------------------------------------------------


def test_fails_with_only_two_different_character_names_in_the_deck() -> None:
    # four characters in the deck, but only two names; a third name in the hand does not count
    main0 = [
        "reinforcement-call",
        "spear-ashigaru",
        "white-fox-miko",
        *FILLER[:4],
        "great-tengu",
        "oni-warlord",
        "great-tengu",
        "battle-cry",
        "oni-warlord",
    ]
    state = match(main0=main0)
    play(state, "pick spear-ashigaru", "slot 1")
    deck = list(state.zone(0, MAIN_DECK))
    play(state, "pick reinforcement-call", "use")
    assert prompt(state) == (0, "standby")
    for viewer in (0, 1, None):
        fails = log_of(state, "nominate_fail", viewer)
        assert fails == [{"kind": "nominate_fail", "seat": 0, "reason": "fewer_than_3"}]
    assert not [e for e in state.log if e.kind in ("nominate", "blind_pick")]
    assert state.zone(0, MAIN_DECK) == deck
    assert state.zone(0, REVEAL) == []
    assert battle_slugs(state, 0) == ["spear-ashigaru", None, None, None, None]
    assert slugs(state, state.zone(0, RETREAT)) == ["reinforcement-call"]
    assert "white-fox-miko" in slugs(state, state.zone(0, HAND))


def test_fails_with_no_free_battle_slot() -> None:
    chars = [
        "ashigaru-recruit",
        "messenger-tanuki",
        "spear-ashigaru",
        "shadow-shinobi",
        "white-fox-miko",
    ]
    main0 = [
        *chars,
        "reinforcement-call",
        "decoy",
        "great-tengu",
        "oni-warlord",
        "warrior-monk",
        "iron-castellan",
    ]
    state = match(main0=main0)
    for n, slug in enumerate(chars):
        play(state, f"pick {slug}", f"slot {n + 1}")
    deck = list(state.zone(0, MAIN_DECK))
    play(state, "pick reinforcement-call", "use")
    assert prompt(state) == (0, "standby")
    assert log_of(state, "nominate_fail", 1) == [
        {"kind": "nominate_fail", "seat": 0, "reason": "no_slot"}
    ]
    assert state.zone(0, MAIN_DECK) == deck
    assert battle_slugs(state, 0) == chars
    assert slugs(state, state.zone(0, RETREAT)) == ["reinforcement-call"]
    assert not [e for e in state.log if e.kind == "nominate"]


def test_one_free_slot_is_enough() -> None:
    chars = ["ashigaru-recruit", "messenger-tanuki", "spear-ashigaru", "shadow-shinobi"]
    main0 = [
        *chars,
        "reinforcement-call",
        "decoy",
        "steadfast",
        "great-tengu",
        "oni-warlord",
        "warrior-monk",
    ]
    state = match(main0=main0)
    for n, slug in enumerate(chars):
        play(state, f"pick {slug}", f"slot {n + 2}")
    play(
        state,
        "pick reinforcement-call",
        "use",
        "name great-tengu",
        "name oni-warlord",
        "name warrior-monk",
        "pick 1",
    )
    assert prompt(state) == (0, "place")
    assert legal(state) == ["slot 1"]
    play(state, "slot 1")
    assert None not in battle_slugs(state, 0)

"""The standby phase (kobo-rules.md §4, games/kobo/docs/rules.en.md §4): order, redraw,
processing a hand."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from kessen.engine.action import Action
from kessen.engine.contract import IllegalAction, Json
from kessen.games.kobo.config import KoboConfig
from kessen.games.kobo.game import _scratch_deck, start
from kessen.games.kobo.state import HAND, MAIN_DECK, RETREAT, SLOTS, TDECK, THAND, KoboState
from tests.kobo.harness import battle_slugs, fixed_order_match, legal, play

# 15 tactics (10 names, 5 doubled).
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
    "total-war",
    "mass-jamming",
    "power-surge",
    "weaken",
    "hinder",
]
# A first hand of 7 (3 characters, 2 traps, 2 deploys) and 5 more cards below it.
MAIN_A = [
    "spear-ashigaru",
    "unhealing-wound",
    "ashigaru-recruit",
    "rally-banner",
    "great-tengu",
    "decoy",
    "war-drum",
    "oni-warlord",
    "iron-castellan",
    "warrior-monk",
    "white-fox-miko",
    "musket-captain",
]
MAIN_B = [
    "messenger-tanuki",
    "shadow-shinobi",
    "crimson-cavalier",
    "thorn-armor",
    "steadfast",
    "supply-wagon",
    "yamabushi-ascetic",
    "oni-warlord",
    "great-tengu",
    "iron-castellan",
    "warrior-monk",
    "white-fox-miko",
]
NON_CHARACTERS = [
    "unhealing-wound",
    "decoy",
    "thorn-armor",
    "steadfast",
    "rally-banner",
    "war-drum",
    "counter-seal",
]


def match(
    main0: Sequence[str] = MAIN_A, main1: Sequence[str] = MAIN_B, first: int = 0
) -> KoboState:
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


def process_hand(state: KoboState, seat: int) -> None:
    """Process ``seat``'s whole main hand: first card offered, first slot, deploys discarded."""
    while (
        state.pending is not None
        and state.pending.seat == seat
        and state.pending.prompt in ("standby", "place", "set", "deploy")
    ):
        kind = state.pending.prompt
        options = legal(state)
        if kind == "deploy":
            play(state, "discard")
        else:
            play(state, options[0])


def take_tactics(state: KoboState, seat: int, count: int) -> list[str]:
    taken = []
    for _ in range(count):
        assert prompt(state) == (seat, "tactics")
        option = legal(state)[0]
        taken.append(option.split()[1])
        play(state, option)
    return taken


def events(state: KoboState, kind: str, viewer: int | None = None) -> list[Json]:
    return [e for e in state.view(viewer)["log"] if e["kind"] == kind]


# --- the order of the standby ----------------------------------------------------------------


@pytest.mark.parametrize("first", [0, 1])
def test_standby_order_and_who_is_asked(first: int) -> None:
    second = 1 - first
    state = match(first=first)
    assert state.first_player == first
    # 1. the first player's main standby
    assert prompt(state) == (first, "standby")
    assert len(state.zone(first, HAND)) == 7
    assert state.zone(second, HAND) == []
    process_hand(state, first)
    # 2. the second player chooses 7 tactics
    assert prompt(state) == (second, "tactics")
    assert len(take_tactics(state, second, 7)) == 7
    # 3. the second player's main standby
    assert prompt(state) == (second, "standby")
    assert len(state.zone(second, HAND)) == 7
    process_hand(state, second)
    # 4. the first player chooses 5 tactics
    assert prompt(state) == (first, "tactics")
    take_tactics(state, first, 5)
    # 5. turn 1, the first player's
    assert prompt(state) == (first, "turn")
    assert state.turn == 1
    assert state.turn_player == first
    kinds = [e.kind for e in state.log]
    order = [
        (e.kind, e.public.get("seat"))
        for e in state.log
        if e.kind in ("standby", "standby_end", "tactics_hand", "turn")
    ]
    assert order == [
        ("standby", first),
        ("standby_end", first),
        ("tactics_hand", second),
        ("standby", second),
        ("standby_end", second),
        ("tactics_hand", first),
        ("turn", first),
    ]
    assert kinds.count("turn") == 1


def test_second_player_takes_seven_tactics_and_first_player_five() -> None:
    state = match()
    process_hand(state, 0)
    take_tactics(state, 1, 6)
    # after 6 of 7 the second player is still choosing
    assert prompt(state) == (1, "tactics")
    assert state.view(1)["pending"]["context"] == {"left": 1}
    take_tactics(state, 1, 1)
    assert prompt(state) == (1, "standby")
    assert len(state.zone(1, THAND)) == 7
    assert len(state.zone(1, TDECK)) == 8
    process_hand(state, 1)
    take_tactics(state, 0, 4)
    assert prompt(state) == (0, "tactics")
    take_tactics(state, 0, 1)
    assert prompt(state) == (0, "turn")
    # 5 in hand: more than 3, so no tactics draw on turn 1
    assert len(state.zone(0, THAND)) == 5
    assert len(state.zone(0, TDECK)) == 10
    assert len(state.zone(1, THAND)) == 7
    assert len(state.zone(1, TDECK)) == 8
    hands = events(state, "tactics_hand", None)
    assert [(e["seat"], e["count"]) for e in hands] == [(1, 7), (0, 5)]


def test_tactics_choice_takes_exactly_the_named_cards() -> None:
    state = match()
    process_hand(state, 0)
    chosen = ["last-stand", "hinder", "hinder", "ceasefire", "weaken", "total-war", "swift-step"]
    play(state, *(f"take {s}" for s in chosen))
    assert sorted(slugs(state, state.zone(1, THAND))) == sorted(chosen)
    # the single last-stand is gone from the deck, and no longer offered
    assert "last-stand" not in slugs(state, state.zone(1, TDECK))


def test_second_player_chooses_tactics_before_drawing_and_after_the_first_board() -> None:
    state = match()
    play(state, "pick great-tengu", "slot 2")
    # the first board is not finished: the second player is not asked yet
    assert prompt(state) == (0, "standby")
    process_hand(state, 0)
    assert prompt(state) == (1, "tactics")
    # before its own main hand: nothing drawn, the whole main deck still there
    assert state.zone(1, HAND) == []
    assert len(state.zone(1, MAIN_DECK)) == len(MAIN_B)
    assert [e for e in state.log if e.kind == "draw" and e.public["seat"] == 1] == []
    # after the first board: finished, and visible to the second player
    assert state.zone(0, HAND) == []
    view = state.view(1)
    assert view["players"][1]["hand"]["count"] == 0
    assert [c["slug"] if c else None for c in view["players"][0]["battle"]] == battle_slugs(
        state, 0
    )
    assert view["players"][0]["battle"][1]["slug"] == "great-tengu"
    assert any(e["kind"] == "standby_end" and e["seat"] == 0 for e in view["log"])


def test_first_player_chooses_tactics_seeing_both_finished_boards() -> None:
    state = match()
    process_hand(state, 0)
    take_tactics(state, 1, 7)
    process_hand(state, 1)
    assert prompt(state) == (0, "tactics")
    view = state.view(0)
    for seat in (0, 1):
        assert view["players"][seat]["hand"]["count"] == 0
        on_board = [c["slug"] for c in view["players"][seat]["battle"] if c]
        assert on_board and on_board == [s for s in battle_slugs(state, seat) if s]


# --- the first hand: redraw while there is no character ---------------------------------------


def test_hand_without_character_is_revealed_put_back_and_redrawn() -> None:
    main0 = NON_CHARACTERS + MAIN_A
    state = match(main0=main0)
    assert sorted(hand(state, 0)) == sorted(MAIN_A[:7])
    # the revealed hand went under the deck
    deck = slugs(state, state.zone(0, MAIN_DECK))
    assert sorted(deck[:7]) == sorted(NON_CHARACTERS)
    assert len(deck) == len(main0) - 7
    for viewer in (0, 1, None):
        redraws = events(state, "redraw", viewer)
        assert len(redraws) == 1
        assert redraws[0]["seat"] == 0
        assert sorted(redraws[0]["cards"]) == sorted(NON_CHARACTERS)
    # the draws themselves stay private
    draws = events(state, "draw", 1)
    assert [d["count"] for d in draws] == [7, 7]
    assert all("cards" not in d for d in draws)
    assert [sorted(d["cards"]) for d in events(state, "draw", 0)] == [
        sorted(NON_CHARACTERS),
        sorted(MAIN_A[:7]),
    ]


def test_redraw_repeats_until_a_character_is_drawn() -> None:
    others = [
        "covering-fire",
        "battle-cry",
        "holy-barrier",
        "supply-wagon",
        "summoning-horn",
        "training-manual",
        "reinforcement-call",
    ]
    main0 = NON_CHARACTERS + others + ["oni-warlord"] + NON_CHARACTERS[:6]
    state = match(main0=main0)
    assert len(events(state, "redraw", 1)) == 2
    assert "oni-warlord" in hand(state, 0)
    assert prompt(state) == (0, "standby")


def test_one_character_is_enough_no_redraw() -> None:
    main0 = [*NON_CHARACTERS[:6], "ashigaru-recruit", *MAIN_A]
    state = match(main0=main0)
    assert events(state, "redraw", 0) == []
    assert sorted(hand(state, 0)) == sorted(main0[:7])


def test_redraw_in_normal_mode_shuffles_the_revealed_hand_back() -> None:
    main0 = NON_CHARACTERS * 2 + [
        "covering-fire",
        "battle-cry",
        "holy-barrier",
        "supply-wagon",
        "summoning-horn",
        "oni-warlord",
    ]
    decks = (_scratch_deck("p0", main0, TACTICS), _scratch_deck("p1", MAIN_B, TACTICS))
    config = KoboConfig(decks, best_of=1, first_player=0, shuffle=True)
    found = 0
    for seed in range(40):
        state = start(config, seed, [main0 + TACTICS, MAIN_B + TACTICS])
        redraws = [e for e in state.log if e.kind == "redraw"]
        if not redraws:
            continue
        found += 1
        assert "oni-warlord" in hand(state, 0)
        last = redraws[-1].public["cards"]
        # put back and shuffled: unshuffled, the revealed hand would lie at the bottom in order
        deck = slugs(state, state.zone(0, MAIN_DECK))
        assert deck[:7] != last
    assert found >= 3


# --- processing the hand ---------------------------------------------------------------------


def test_hand_is_processed_one_card_at_a_time_in_the_chosen_order() -> None:
    state = match()
    assert sorted(a.split()[1] for a in legal(state)) == sorted(set(MAIN_A[:7]))
    order = [
        ("pick decoy", "slot 4"),
        ("pick great-tengu", "slot 3"),
        ("pick war-drum", "discard"),
        ("pick ashigaru-recruit", "slot 1"),
        ("pick unhealing-wound", "slot 1"),
        ("pick spear-ashigaru", "slot 5"),
    ]
    for count, (pick, answer) in enumerate(order):
        assert prompt(state) == (0, "standby")
        assert len(state.zone(0, HAND)) == 7 - count
        play(state, pick)
        # the picked card is out of the hand; only it is being processed
        assert len(state.zone(0, HAND)) == 6 - count
        assert pick.split()[1] not in legal(state)
        play(state, answer)
    assert hand(state, 0) == ["rally-banner"]
    done = [
        (e.kind, e.public.get("card") or (e.private or {}).get("card"))
        for e in state.log
        if e.kind in ("place", "set", "discard")
    ]
    assert done == [
        ("set", "decoy"),
        ("place", "great-tengu"),
        ("discard", "war-drum"),
        ("place", "ashigaru-recruit"),
        ("set", "unhealing-wound"),
        ("place", "spear-ashigaru"),
    ]


def test_a_card_not_in_hand_cannot_be_picked() -> None:
    state = match()
    with pytest.raises(IllegalAction):
        state.apply(Action.parse("pick oni-warlord"))
    assert prompt(state) == (0, "standby")


def test_character_goes_to_the_chosen_slot_and_holes_are_kept() -> None:
    state = match()
    play(state, "pick great-tengu")
    assert prompt(state) == (0, "place")
    assert legal(state) == [f"slot {i}" for i in range(1, 6)]
    play(state, "slot 5", "pick spear-ashigaru", "slot 2")
    assert battle_slugs(state, 0) == [None, "spear-ashigaru", None, None, "great-tengu"]
    play(state, "pick ashigaru-recruit")
    assert legal(state) == ["slot 1", "slot 3", "slot 4"]
    play(state, "slot 3")
    assert battle_slugs(state, 0) == [
        None,
        "spear-ashigaru",
        "ashigaru-recruit",
        None,
        "great-tengu",
    ]
    view = state.view(1)["players"][0]["battle"]
    assert [c["slug"] if c else None for c in view] == battle_slugs(state, 0)


def test_character_cannot_be_discarded_while_a_slot_is_free() -> None:
    state = match()
    play(state, "pick ashigaru-recruit", "slot 1", "pick spear-ashigaru", "slot 2")
    play(state, "pick great-tengu")
    assert prompt(state) == (0, "place")
    assert "discard" not in legal(state)
    assert legal(state) == ["slot 3", "slot 4", "slot 5"]
    with pytest.raises(IllegalAction):
        state.apply(Action.parse("discard"))
    with pytest.raises(IllegalAction):
        state.apply(Action.parse("slot 1"))  # occupied


def test_character_retreats_when_all_five_slots_are_full() -> None:
    chars = [
        "ashigaru-recruit",
        "messenger-tanuki",
        "spear-ashigaru",
        "shadow-shinobi",
        "white-fox-miko",
        "oni-warlord",
        "great-tengu",
    ]
    state = match(main0=chars + MAIN_A)
    for n, slug in enumerate(chars[:5]):
        play(state, f"pick {slug}")
        # the fifth still has a choice: exactly the one free slot
        assert legal(state) == [f"slot {i}" for i in range(n + 1, 6)]
        play(state, f"slot {n + 1}")
    play(state, "pick oni-warlord")
    # no slot: straight to the retreat area, no question asked
    assert prompt(state) == (0, "standby")
    assert slugs(state, state.zone(0, RETREAT)) == ["oni-warlord"]
    assert "oni-warlord" not in battle_slugs(state, 0)
    for viewer in (0, 1):
        assert state.view(viewer)["players"][0]["retreat"][0]["slug"] == "oni-warlord"
    play(state, "pick great-tengu")
    assert slugs(state, state.zone(0, RETREAT)) == ["oni-warlord", "great-tengu"]
    assert state.zone(0, HAND) == []
    assert prompt(state) == (1, "tactics")


def test_trap_is_set_face_down_in_the_chosen_slot() -> None:
    state = match()
    play(state, "pick decoy")
    assert prompt(state) == (0, "set")
    assert legal(state) == ["slot 1", "slot 2", "slot 3", "slot 4", "slot 5", "discard"]
    play(state, "slot 3")
    card = state.strategy[2]
    assert state.defs[card].slug == "decoy"
    assert state.faceup[card] is False
    own = state.view(0)["players"][0]["strategy"][2]
    assert own["face"] == "down"
    assert own["slug"] == "decoy"
    assert state.view(1)["players"][0]["strategy"][2] == {"face": "down"}
    assert state.view(None)["players"][0]["strategy"][2] == {"face": "down"}
    assert state.view(1)["players"][0]["strategy"][0] is None
    set_event = events(state, "set", 1)[-1]
    assert set_event == {"kind": "set", "seat": 0, "slot": 3}
    assert events(state, "set", 0)[-1]["card"] == "decoy"


def test_trap_can_be_discarded_instead() -> None:
    state = match()
    play(state, "pick unhealing-wound", "discard")
    assert slugs(state, state.zone(0, RETREAT)) == ["unhealing-wound"]
    assert all(c == -1 for c in state.strategy[:SLOTS])
    # discarded cards are public
    assert events(state, "discard", 1)[-1]["card"] == "unhealing-wound"


def test_with_five_traps_set_a_sixth_can_only_be_discarded() -> None:
    traps = [
        "unhealing-wound",
        "decoy",
        "thorn-armor",
        "steadfast",
        "counter-seal",
        "covering-fire",
        "oni-warlord",
    ]
    state = match(main0=traps + MAIN_A)
    for n, slug in enumerate(traps[:5]):
        play(state, f"pick {slug}")
        assert legal(state) == [*(f"slot {i}" for i in range(n + 1, 6)), "discard"]
        play(state, f"slot {n + 1}")
    play(state, "pick covering-fire")
    assert legal(state) == ["discard"]
    play(state, "discard")
    assert len(state.face_down_traps(0)) == 5


# --- the tactics deck after the choice --------------------------------------------------------


def test_tactics_not_chosen_stay_in_order_in_fixed_order_mode() -> None:
    state = match()
    process_hand(state, 0)
    before = list(state.zone(1, TDECK))
    take_tactics(state, 1, 7)
    kept = [c for c in before if c not in state.zone(1, THAND)]
    assert state.zone(1, TDECK) == kept


def test_tactics_not_chosen_are_shuffled_in_normal_mode() -> None:
    decks = (_scratch_deck("p0", MAIN_A, TACTICS), _scratch_deck("p1", MAIN_B, TACTICS))
    config = KoboConfig(decks, best_of=1, first_player=0, shuffle=True)
    reshuffled = 0
    for seed in range(5):
        state = start(config, seed, [MAIN_A + TACTICS, MAIN_B + TACTICS])
        process_hand(state, 0)
        before = list(state.zone(1, TDECK))
        take_tactics(state, 1, 7)
        assert prompt(state) == (1, "standby")
        after = state.zone(1, TDECK)
        kept = [c for c in before if c not in state.zone(1, THAND)]
        assert sorted(after) == sorted(kept)
        reshuffled += after != kept
    assert reshuffled >= 4


# --- the end of the standby ------------------------------------------------------------------


def test_standby_ends_exactly_when_the_hand_is_empty() -> None:
    state = match(main1=MAIN_B)
    process_hand(state, 0)
    take_tactics(state, 1, 7)
    # seat 1 holds a supply wagon: its 2 drawn cards must be processed too
    play(state, "pick supply-wagon", "use")
    assert sorted(hand(state, 1)) == sorted(
        [s for s in MAIN_B[:7] if s != "supply-wagon"] + MAIN_B[7:9]
    )
    while len(state.zone(1, HAND)) > 1:
        assert not any(e.kind == "standby_end" and e.public["seat"] == 1 for e in state.log)
        play(state, legal(state)[0])
        if prompt(state)[1] in ("place", "set"):
            play(state, legal(state)[0])
        elif prompt(state)[1] == "deploy":
            play(state, "discard")
    assert prompt(state) == (1, "standby")
    assert not any(e.kind == "standby_end" and e.public["seat"] == 1 for e in state.log)
    play(state, legal(state)[0])
    if prompt(state)[1] in ("place", "set"):
        play(state, legal(state)[0])
    assert state.zone(1, HAND) == []
    assert [e.public["seat"] for e in state.log if e.kind == "standby_end"] == [0, 1]
    assert prompt(state) == (0, "tactics")

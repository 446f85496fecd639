"""Public and private information (kobo-rules.md §7, games/kobo/docs/rules.en.md §12).

A seat sees its own hands and face-down traps; of the opponent only counts and face-down
backs; decks are counts; private log events show their cards only to their owner; no card
instance number appears in any view; an observer sees no hand at all; deck lists are public;
a seat's view does not change when only things hidden from it are redealt.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kessen.engine.players import RandomPlayer
from kessen.games.kobo.decks import starter_decks
from kessen.games.kobo.game import new_game
from kessen.games.kobo.state import EMPTY, HAND, MAIN_DECK, TDECK, THAND, KoboState
from tests.kobo.harness import Side, board, fixed_order_match, legal, play

STARTERS = sorted(starter_decks())
PRIVATE = {"draw": "cards", "set": "card", "tactics_draw": "card", "tactics_hand": "cards"}
CARD_FRAMES = {"char", "trap", "deploy", "deploy_go", "summon_slot", "blind_slot", "chain_target"}
PLAIN_FRAMES = {
    "game",
    "standby",
    "process",
    "nominate",
    "blind",
    "tactics",
    "end_check",
    "turn_start",
    "turn_decide",
    "penalty",
    "end_turn",
    "chain",
    "resolve",
    "result",
    "tie_pick",
    "sweep",
    "cleanup",
    "summon_top",
}


# --- driving a real game and looking at it at every decision ---------------------------------


def moments(seed: int, games: int = 1) -> Iterator[KoboState]:
    """Every decision of a real match (starter decks, shuffled) played by random players."""
    decks = [STARTERS[seed % len(STARTERS)], STARTERS[(seed + 1) % len(STARTERS)]]
    state = new_game({"decks": decks, "best_of": 3}, seed)
    players = {0: RandomPlayer(seed), 1: RandomPlayer(seed + 99)}
    while state.pending is not None and state.game_no <= games:
        yield state
        seat = state.pending.seat
        state.apply(players[seat].choose(state.view(seat), state.legal_actions()))


def slugs(state: KoboState, cards: list[int]) -> list[str]:
    return [state.defs[c].slug for c in cards]


def walk(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from walk(item, f"{path}[{i}]")
    else:
        yield path, value


def relabel(state: KoboState, shift: int = 1) -> KoboState:
    """The same position with every card instance renumbered (i -> i + shift mod N)."""
    n = len(state.defs)

    def m(card: int) -> int:
        return card if card == EMPTY else (card + shift) % n

    new = state.clone()
    for attr in ("defs", "owner", "base", "temp", "faceup"):
        old = getattr(state, attr)
        arr = [None] * n
        for i in range(n):
            arr[m(i)] = old[i]
        setattr(new, attr, tuple(arr) if isinstance(old, tuple) else arr)
    new.zones = [[m(c) for c in zone] for zone in state.zones]
    new.battle = [m(c) for c in state.battle]
    new.strategy = [m(c) for c in state.strategy]
    new.attackers = tuple(m(c) for c in state.attackers)
    new.target = m(state.target)

    def link(lk: tuple[int, int, int, bool]) -> tuple[int, int, int, bool]:
        card, seat, chosen, negated = lk
        if state.defs[card].needs_choice:
            chosen = m(chosen)
        return (m(card), seat, chosen, negated)

    new.chain = [link(lk) for lk in state.chain]
    new.resolved = [link(lk) for lk in state.resolved]
    frames = []
    for frame in state.stack:
        kind = frame[0]
        if kind in CARD_FRAMES:
            frame = (*frame[:2], m(frame[2]), *frame[3:])
        elif kind == "deploy_steps":
            frame = (kind, frame[1], m(frame[2]), frame[3], m(frame[4]))
        elif kind == "declare":
            frame = (kind, *(m(c) for c in frame[1:]))
        else:
            assert kind in PLAIN_FRAMES, kind
        frames.append(frame)
    new.stack = frames
    new.legal = None
    return new


def check_seat_view(state: KoboState, seat: int) -> None:
    foe = 1 - seat
    view = state.view(seat)
    me, them = view["players"][seat], view["players"][foe]
    # the opponent's hands: a count only
    for key, zone in (("hand", HAND), ("tactics_hand", THAND)):
        assert them[key] == {"count": len(state.zone(foe, zone)), "cards": None}
        assert me[key]["count"] == len(state.zone(seat, zone))
        assert [c["slug"] for c in me[key]["cards"]] == slugs(state, state.zone(seat, zone))
    # decks: counts
    for side, s in ((me, seat), (them, foe)):
        assert side["main_deck"] == len(state.zone(s, MAIN_DECK))
        assert side["tactics_deck"] == len(state.zone(s, TDECK))
    # face-down traps: no identity for the opponent, visible to the owner
    for i in range(5):
        card = state.strategy[foe * 5 + i]
        if card != EMPTY and not state.faceup[card]:
            assert them["strategy"][i] == {"face": "down"}
        own = state.strategy[seat * 5 + i]
        if own != EMPTY and not state.faceup[own]:
            assert me["strategy"][i]["face"] == "down"
            assert me["strategy"][i]["slug"] == state.defs[own].slug
    # the opponent's card being processed in its standby is hidden unless public
    for entry in them["processing"]:
        assert entry == {"face": "down"} or entry["kind"] == "deploy"
    # private log events: the cards only for their owner
    for event, shown in zip(state.log, view["log"], strict=True):
        private_key = PRIVATE.get(event.kind)
        if private_key is not None:
            owner = event.public["seat"]
            assert (private_key in shown) == (owner == seat), (event.kind, owner, seat)
    # the legal list of a decision is only for the one who decides
    if view["pending"] is not None and view["pending"]["seat"] != seat:
        assert view["pending"]["legal"] is None


def check_observer_view(state: KoboState) -> None:
    view = state.view(None)
    for side in view["players"]:
        assert side["hand"]["cards"] is None
        assert side["tactics_hand"]["cards"] is None
        for slot in side["strategy"]:
            if slot is not None and slot["face"] == "down":
                assert slot == {"face": "down"}
        for entry in side["processing"]:
            assert entry == {"face": "down"} or entry["kind"] == "deploy"
    for event in view["log"]:
        assert PRIVATE.get(event["kind"]) not in event
    if view["pending"] is not None:
        assert view["pending"]["legal"] is None


def check_no_instance_numbers(state: KoboState) -> None:
    """Card references are names, never numbers; renumbering instances changes no view."""
    for viewer in (0, 1, None):
        for path, value in walk(state.view(viewer)):
            leaf = path.rsplit(".", 1)[-1]
            assert leaf not in ("id", "instance", "card_id"), path
            if leaf in ("card", "slug"):
                assert isinstance(value, str), path
            if "cards[" in path and isinstance(value, int):
                raise AssertionError(f"a number in a card list: {path}")
    shifted = relabel(state, 7)
    shifted.audit()
    for viewer in (0, 1, None):
        assert shifted.view(viewer) == state.view(viewer)


# --- properties over whole games -------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_decision_of_a_real_game_hides_what_it_must(seed: int) -> None:
    seen: Counter[str] = Counter()
    for state in moments(seed):
        assert state.pending is not None
        seen[state.pending.prompt] += 1
        for seat in (0, 1):
            check_seat_view(state, seat)
        check_observer_view(state)
    # the game went through the standby and real turns with chains
    assert seen["standby"] and seen["tactics"] and seen["turn"] and seen["chain"]


@pytest.mark.parametrize("seed", [3, 4])
def test_no_card_instance_number_appears_in_any_view(seed: int) -> None:
    count = 0
    for state in moments(seed):
        check_no_instance_numbers(state)
        count += 1
    assert count > 20


@pytest.mark.parametrize("seed", [5, 6])
def test_resampling_hidden_cards_keeps_the_seats_view(seed: int) -> None:
    for step, state in enumerate(moments(seed)):
        for seat in (0, 1):
            other = state.resample_hidden(seat, seed * 1000 + step)
            other.audit()
            assert other.view(seat) == state.view(seat)
            if state.pending is not None and state.pending.seat == seat:
                # the seat's own choices do not depend on hidden things either
                assert [str(a) for a in other.legal_actions()] == legal(state)


def test_resampling_does_change_hidden_things() -> None:
    """The check above would be empty if nothing were ever redealt."""
    changed = 0
    for state in moments(8):
        if state.pending is None or state.pending.prompt != "turn":
            continue
        seat = state.pending.seat
        other = state.resample_hidden(seat, 1)
        foe = 1 - seat
        changed += other.zone(foe, THAND) != state.zone(foe, THAND) or other.zone(
            foe, MAIN_DECK
        ) != state.zone(foe, MAIN_DECK)
    assert changed > 0


# --- particular moments, scripted ------------------------------------------------------------

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
MAIN0 = [
    "spear-ashigaru",
    "unhealing-wound",
    "great-tengu",
    "decoy",
    "supply-wagon",
    "ashigaru-recruit",
    "rally-banner",
    "oni-warlord",
    "thorn-armor",
    "warrior-monk",
]
MAIN1 = [
    "messenger-tanuki",
    "steadfast",
    "white-fox-miko",
    "counter-seal",
    "war-drum",
    "shadow-shinobi",
    "covering-fire",
    "iron-castellan",
    "crimson-cavalier",
]


def scripted() -> KoboState:
    return fixed_order_match((MAIN0, MAIN1), (TACTICS, TACTICS))


def run_standby(state: KoboState, until: Callable[[KoboState], bool]) -> KoboState:
    while not until(state):
        assert state.pending is not None
        options = legal(state)
        play(state, "use" if "use" in options else options[0])
    return state


def without_deck_lists(view: dict[str, Any]) -> str:
    """The view as text, without the public deck lists (which name every card)."""
    players = [{k: v for k, v in p.items() if k != "deck"} for p in view["players"]]
    return json.dumps({**view, "players": players})


def test_mid_standby_own_hand_visible_opponent_hand_a_count() -> None:
    state = scripted()
    play(state, "pick decoy", "slot 2")
    mine, theirs, nobody = state.view(0), state.view(1), state.view(None)
    assert sorted(c["slug"] for c in mine["players"][0]["hand"]["cards"]) == sorted(
        s for s in MAIN0[:7] if s != "decoy"
    )
    assert theirs["players"][0]["hand"] == {"count": 6, "cards": None}
    assert nobody["players"][0]["hand"] == {"count": 6, "cards": None}
    assert mine["players"][0]["strategy"][1]["slug"] == "decoy"
    assert theirs["players"][0]["strategy"][1] == {"face": "down"}
    assert nobody["players"][0]["strategy"][1] == {"face": "down"}
    # the first draw: count public, cards private
    draw0 = next(e for e in mine["log"] if e["kind"] == "draw")
    draw1 = next(e for e in theirs["log"] if e["kind"] == "draw")
    assert sorted(draw0["cards"]) == sorted(MAIN0[:7])
    assert draw1 == {"kind": "draw", "seat": 0, "count": 7}
    assert "decoy" not in without_deck_lists(theirs)
    assert "decoy" not in without_deck_lists(nobody)
    assert "decoy" in without_deck_lists(mine)


def test_a_picked_card_being_placed_is_not_shown_to_the_opponent() -> None:
    state = scripted()
    play(state, "pick unhealing-wound")
    assert state.pending is not None
    assert state.pending.prompt == "set"
    assert state.view(0)["pending"]["context"]["card"]["slug"] == "unhealing-wound"
    assert state.view(1)["pending"]["context"] == {}
    assert "unhealing-wound" not in without_deck_lists(state.view(1))
    assert "unhealing-wound" not in without_deck_lists(state.view(None))


def test_at_turn_one_tactics_hands_are_private_and_decks_are_counts() -> None:
    state = run_standby(scripted(), lambda s: s.pending is not None and s.pending.prompt == "turn")
    for seat in (0, 1):
        check_seat_view(state, seat)
        view = state.view(seat)
        foe = view["players"][1 - seat]
        assert foe["tactics_hand"]["cards"] is None
        assert foe["tactics_hand"]["count"] == len(state.zone(1 - seat, THAND)) > 0
        assert isinstance(foe["tactics_deck"], int)
        assert isinstance(foe["main_deck"], int)
        # the tactics_hand event: count for all, cards for the owner only
        for event in view["log"]:
            if event["kind"] == "tactics_hand":
                assert ("cards" in event) == (event["seat"] == seat)
    check_observer_view(state)
    nobody = state.view(None)
    assert all(
        p["hand"]["cards"] is None and p["tactics_hand"]["cards"] is None for p in nobody["players"]
    )
    # the face-down traps of each seat: backs for the other seat and the observer
    for seat in (0, 1):
        downs = [
            i
            for i, c in enumerate(state.strategy[seat * 5 : seat * 5 + 5])
            if c != EMPTY and not state.faceup[c]
        ]
        assert downs
        for i in downs:
            assert state.view(1 - seat)["players"][seat]["strategy"][i] == {"face": "down"}
            assert nobody["players"][seat]["strategy"][i] == {"face": "down"}
            assert state.view(seat)["players"][seat]["strategy"][i]["slug"]


@pytest.mark.parametrize("owner", [0, 1])
def test_tactics_draw_is_private_to_its_owner(owner: int) -> None:
    # 3 in the tactics hand at the start of the turn: the turn player draws one
    sides = [
        Side(
            battle=["great-tengu"],
            tactics_hand=["hinder", "weaken", "total-war"],
            tactics_deck=["last-stand", "ceasefire"],
        ),
        Side(battle=["spear-ashigaru"], tactics_deck=["power-surge"]),
    ]
    p0, p1 = sides if owner == 0 else sides[::-1]
    state = board(p0, p1, turn_player=owner)
    event = next(e for e in state.log if e.kind == "tactics_draw")
    assert event.public["seat"] == owner
    shown = {
        v: next(x for x in state.view(v)["log"] if x["kind"] == "tactics_draw")
        for v in (0, 1, None)
    }
    assert shown[owner]["card"] == "last-stand"
    assert "card" not in shown[1 - owner]
    assert "card" not in shown[None]


def test_deck_lists_are_public_names_and_counts() -> None:
    decks = [STARTERS[0], STARTERS[1]]
    state = new_game({"decks": decks, "best_of": 3}, 0)
    starters = starter_decks()
    for viewer in (0, 1, None):
        for seat in (0, 1):
            shown = state.view(viewer)["players"][seat]["deck"]
            deck = starters[decks[seat]]
            assert shown["main"] == dict(Counter(deck.main_slugs()))
            assert shown["tactics"] == dict(Counter(deck.tactics_slugs()))
            assert sum(shown["main"].values()) == 20
            assert sum(shown["tactics"].values()) == 15
    # a list, not an order: the same whatever the shuffle
    other = new_game({"decks": decks, "best_of": 3}, 1)
    assert other.view(0)["players"][1]["deck"] == state.view(0)["players"][1]["deck"]


def test_own_deck_order_is_hidden_from_its_owner_too() -> None:
    state = scripted()
    view = state.view(0)
    assert view["players"][0]["main_deck"] == len(MAIN0) - 7
    assert view["players"][0]["tactics_deck"] == len(TACTICS)
    deck_rest = set(MAIN0[7:]) - set(MAIN0[:7])
    blob = json.dumps({k: v for k, v in view["players"][0].items() if k != "deck"})
    for slug in deck_rest:
        assert slug not in blob

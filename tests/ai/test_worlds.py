"""Worlds rebuilt from a seat's view look the same from that seat and play on legally."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable

import pytest

from kessen.engine import registry
from kessen.engine.contract import GameState, Json
from kessen.games.kobo.decks import starter_decks
from kessen.games.kobo.search_worlds import REVEALING_VERBS, observed, world_sampler
from kessen.games.kobo.state import SLOTS, KoboState
from kessen.games.kobo.worlds import public_extras, world_from_view

LOGLESS: dict[str, object] = {"log": [], "previews": None}
"""What a search world's view lacks: the log, and the option previews whose records it reads."""


def _dump(view: dict[str, object]) -> str:
    return json.dumps(view, sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize("seed", range(6))
def test_world_from_view_matches_the_view_at_every_decision(seed: int) -> None:
    rules = registry.get("kobo")
    names = sorted(starter_decks())
    chooser = random.Random(seed)
    config = {"decks": [chooser.choice(names), chooser.choice(names)], "best_of": 3}
    state = rules.new_game(config, seed)
    assert isinstance(state, KoboState)
    steps = 0
    while state.pending is not None:
        seat = state.pending.seat
        view = state.view(seat)
        world = world_from_view(view, chooser.randrange(2**32), keep_log=True)
        world.audit()
        assert _dump(world.view(seat)) == _dump(view)
        assert world.legal_actions() == state.legal_actions()
        with_extras = world_from_view(view | {"extras": public_extras(state, seat)}, 1)
        assert with_extras.legal_actions() == state.legal_actions()
        for _ in range(8):  # the world plays on
            if world.pending is None:
                break
            options = world.legal_actions()
            world.apply(options[chooser.randrange(len(options))])
        world.audit()
        legal = state.legal_actions()
        state.apply(legal[chooser.randrange(len(legal))])
        steps += 1
    assert steps > 50


def test_sampled_worlds_differ_from_the_truth_and_from_each_other() -> None:
    rules = registry.get("kobo")
    state = rules.new_game(rules.default_config, 3)
    assert isinstance(state, KoboState)
    chooser = random.Random(0)
    while state.pending is not None and (state.turn < 3 or state.pending.prompt != "turn"):
        legal = state.legal_actions()
        state.apply(legal[chooser.randrange(len(legal))])
    assert state.pending is not None
    seat = state.pending.seat
    sample = world_sampler(state.view(seat), 5)
    worlds = [sample(i) for i in range(20)]
    truth = state.state_hash()
    assert all(w.state_hash() != truth for w in worlds)
    assert len({w.state_hash() for w in worlds}) > 10
    # Search worlds carry no log, nor the last exchange's resolution panel read from it.
    truth_view = state.view(seat) | {"log": [], "resolution": None, "previews": None}
    for world in worlds:
        assert _dump(world.view(seat)) == _dump(truth_view)
        assert world.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("seed", range(3))
def test_a_world_rebuilt_without_its_log_plays_the_same_and_writes_none(seed: int) -> None:
    """Search worlds write no events (``quiet``); apart from the log they play identically."""
    rules = registry.get("kobo")
    chooser = random.Random(seed)
    state = rules.new_game(rules.default_config, seed)
    assert isinstance(state, KoboState)
    while state.pending is not None and (state.turn < 3 or state.pending.prompt != "turn"):
        legal = state.legal_actions()
        state.apply(legal[chooser.randrange(len(legal))])
    assert state.pending is not None
    view = state.view(state.pending.seat)
    quiet = world_from_view(view, 9)
    logged = world_from_view(view, 9, keep_log=True)
    assert quiet.quiet and not logged.quiet
    written = len(logged.log)
    while logged.pending is not None:
        legal = logged.legal_actions()
        assert quiet.legal_actions() == legal
        action = legal[chooser.randrange(len(legal))]
        logged.apply(action)
        quiet.apply(action)
    assert quiet.pending is None and quiet.outcome == logged.outcome
    assert quiet.log == [] and len(logged.log) > written + 20
    assert quiet.clone().quiet and not KoboState.from_json(quiet.to_json()).quiet


def test_the_trap_model_keeps_worlds_consistent_and_favours_strong_traps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``TRAP_MODEL_POWER`` the sampled opponent's face-down traps lean to strong cards;
    every world still looks like the truth from the searcher's seat and holds every card once."""
    from kessen.games.kobo import search_worlds
    from kessen.games.kobo.state import EMPTY, SLOTS

    rules = registry.get("kobo")
    config = {**rules.default_config, "decks": ["fortress", "fortress"]}
    chooser = random.Random(4)
    for seed in range(40):
        state = rules.new_game(config, seed)
        assert isinstance(state, KoboState)
        while state.pending is not None and state.turn < 1:
            legal = state.legal_actions()
            state.apply(legal[chooser.randrange(len(legal))])
        if state.pending is None:
            continue
        seat = state.pending.seat
        row = range((1 - seat) * SLOTS, (2 - seat) * SLOTS)
        if sum(1 for i in row if state.strategy[i] != EMPTY) >= 2:
            break
    assert state.pending is not None
    view = state.view(seat)

    def mean_set_value(power: float) -> float:
        monkeypatch.setattr(search_worlds, "TRAP_MODEL_POWER", power)
        values = _face_down_values(world_sampler(view, 8), view, row, 150)
        return sum(values) / len(values)

    assert mean_set_value(4.0) > mean_set_value(0.0) + 0.1


def _face_down_values(
    sample: Callable[[int], GameState], view: Json, row: range, count: int
) -> list[float]:
    """The card values of the face-down traps in strategy indices ``row`` over ``count``
    sampled worlds, each checked to hold every card once and to look like ``view``."""
    from kessen.games.kobo.evaluate import card_value
    from kessen.games.kobo.state import EMPTY

    values: list[float] = []
    for index in range(count):
        world = sample(index)
        assert isinstance(world, KoboState)
        world.audit()
        assert _dump(world.view(view["viewer"])) == _dump(view | LOGLESS)
        values += [
            card_value(world.defs[world.strategy[i]].slug)
            for i in row
            if world.strategy[i] != EMPTY and not world.faceup[world.strategy[i]]
        ]
    return values


def test_observed_keys_name_the_trap_a_flip_would_show() -> None:
    """At a chain prompt with face-down traps to flip, the opponent's ``trap k`` actions get
    keys naming the card in slot k; every other action keeps its own key, and a list without
    such actions comes back as it is."""
    rules = registry.get("kobo")
    chooser = random.Random(3)
    seen = 0
    for _ in range(40):
        state = rules.new_game(rules.default_config, chooser.randrange(2**31))
        assert isinstance(state, KoboState)
        while state.pending is not None:
            legal = state.legal_actions()
            keys = observed(state, legal)
            if any(a.verb in REVEALING_VERBS for a in legal):
                seen += 1
                assert state.prompt is not None
                seat = state.prompt[0]
                assert len(keys) == len(legal) == len(set(keys))
                for action, key in zip(legal, keys, strict=True):
                    if action.verb in REVEALING_VERBS:
                        card = state.strategy[seat * SLOTS + int(action.args[0]) - 1]
                        assert not state.faceup[card]
                        assert key.args == (action.args[0], state.defs[card].slug)
                    else:
                        assert key is action
            else:
                assert keys is legal
            state.apply(legal[chooser.randrange(len(legal))])
    assert seen > 20


def test_the_hand_model_deals_the_hand_a_value_rule_would_take(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``HAND_MODEL_SHARE`` 1 the opponent's tactics hand in every world the deep model
    samples is the one the heuristic COM's rule takes from the public list: against the
    heuristic COM itself, at its first turn, that is its true hand. Every world still looks like
    the truth and holds every card once; with the share at 0, or in the shallow model's worlds,
    the weighted draw rarely finds the hand."""
    from kessen.games.kobo import search_worlds
    from kessen.games.kobo.cards import CardKind
    from kessen.games.kobo.heuristic import HeuristicPlayer
    from kessen.games.kobo.state import THAND

    rules = registry.get("kobo")
    config = {**rules.default_config, "decks": ["fortress", "fortress"]}
    state = rules.new_game(config, 3)
    assert isinstance(state, KoboState)
    heuristic = HeuristicPlayer(0)
    while state.pending is not None and state.pending.prompt != "turn":
        state.apply(heuristic.choose(state.view(state.pending.seat), state.legal_actions()))
    assert state.pending is not None
    seat = state.turn_player  # the searcher, at its first turn
    opponent = 1 - seat  # its hand of seven, taken after the searcher's board was set
    truth = sorted(state.defs[c].slug for c in state.zone(opponent, THAND))
    listed = sorted(
        state.defs[c].slug
        for c in range(len(state.defs))
        if state.owner[c] == opponent and state.defs[c].kind is CardKind.TACTIC
    )
    assert sorted(search_worlds.chosen_hand(tuple(listed), len(truth))) == truth
    view = state.view(seat)

    def hands_found(share: float, *, infer: bool = True) -> int:
        monkeypatch.setattr(search_worlds, "HAND_MODEL_SHARE", share)
        sample = world_sampler(view, 8, infer=infer)
        found = 0
        for index in range(60):
            world = sample(index)
            assert isinstance(world, KoboState)
            world.audit()
            assert _dump(world.view(seat)) == _dump(view | LOGLESS)
            found += sorted(world.defs[c].slug for c in world.zone(opponent, THAND)) == truth
        return found

    assert hands_found(1.0) == 60
    assert hands_found(0.0) < 30
    assert hands_found(1.0, infer=False) < 30  # ふつう's worlds keep the weighted draw


def test_the_hand_model_gives_way_once_the_shown_tactics_contradict_it() -> None:
    """A shown tactic outside the modelled opening hand must have been drawn: the model holds
    while the opponent has drawn enough tactics to explain every such card, and not after."""
    from kessen.games.kobo.search_worlds import _fits_chosen_hand

    expected = Counter({"a": 2, "b": 1, "c": 2})  # an opening hand of five
    assert _fits_chosen_hand(expected, [], 5, 5)
    assert _fits_chosen_hand(expected, ["a", "c"], 3, 5)  # played two of the hand, no draw
    assert not _fits_chosen_hand(expected, ["d"], 4, 5)  # played one it never held or drew
    assert _fits_chosen_hand(expected, ["d"], 5, 5)  # ... unless it drew one since
    assert not _fits_chosen_hand(expected, ["b", "b"], 3, 5)  # a second "b" needs a draw
    assert _fits_chosen_hand(expected, ["b", "b", "d"], 4, 5)  # two draws explain both


def test_a_world_deals_the_weighted_draw_once_the_opponent_contradicts_the_hand_model() -> None:
    """End to end: while the opponent's shown tactics fit the modelled opening hand, a world
    deals that hand; once it has shown more tactics from outside it than it can have drawn,
    the world's hand is exactly the value-weighted draw's."""
    from kessen.games.kobo.heuristic import HeuristicPlayer
    from kessen.games.kobo.search_worlds import (
        OPPONENT_MODEL_POWER,
        _modelled_tactics,
        _weighted_tactics,
        chosen_hand,
    )
    from kessen.games.kobo.state import RETREAT, TDECK, THAND

    rules = registry.get("kobo")
    state = rules.new_game({**rules.default_config, "decks": ["fortress", "fortress"]}, 3)
    assert isinstance(state, KoboState)
    heuristic = HeuristicPlayer(0)
    while state.pending is not None and state.pending.prompt != "turn":
        state.apply(heuristic.choose(state.view(state.pending.seat), state.legal_actions()))
    opp = 1 - state.turn_player
    hand, deck = state.zone(opp, THAND), state.zone(opp, TDECK)
    size = len(hand)
    expected = Counter(chosen_hand(tuple(sorted(state.defs[c].slug for c in hand + deck)), size))

    def dealt(world: KoboState, deal: Callable[[KoboState], None]) -> list[str]:
        deal(world)
        return sorted(world.defs[c].slug for c in world.zone(opp, THAND))

    fits = state.clone()
    assert dealt(fits, lambda w: _modelled_tactics(w, opp, random.Random(1))) == sorted(
        expected.elements()
    )
    # Two tactics the model's hand lacks go to the retreat from the deck, and two cards leave
    # the hand for the deck: shown from outside the hand with no draw to explain them.
    contradicted = state.clone()
    c_hand, c_deck = contradicted.zone(opp, THAND), contradicted.zone(opp, TDECK)
    outside = [c for c in c_deck if expected[contradicted.defs[c].slug] == 0][:2]
    assert len(outside) == 2
    for card in outside:
        c_deck.remove(card)
        contradicted.zone(opp, RETREAT).append(card)
    c_deck.extend([c_hand.pop(), c_hand.pop()])
    weighted = contradicted.clone()
    modelled_hand = dealt(contradicted, lambda w: _modelled_tactics(w, opp, random.Random(2)))
    weighted_hand = dealt(
        weighted, lambda w: _weighted_tactics(w, opp, random.Random(2), OPPONENT_MODEL_POWER)
    )
    assert modelled_hand == weighted_hand and len(modelled_hand) == size - 2


def test_trap_inference_deals_only_traps_at_least_as_strong_as_a_discarded_one() -> None:
    """Against the heuristic COM, which sets its strongest traps and discards the rest, every
    trap it set is worth at least the best one it discarded (public). The deep model's sampler
    deals the face-down traps accordingly; the plain one also deals weaker ones. Every world
    still looks like the truth from the searcher's seat and holds every card once."""
    from kessen.games.kobo.card_versions import starters_for
    from kessen.games.kobo.decks import deck_to_json
    from kessen.games.kobo.evaluate import card_value
    from kessen.games.kobo.heuristic import HeuristicPlayer
    from kessen.games.kobo.search_worlds import discarded_trap_floor, inferring_sampler
    from kessen.games.kobo.state import EMPTY

    rules = registry.get("kobo")
    # Card data version 2's fortress list (over today's cards): its weak traps (不動の構え)
    # are ones a floor can rule out.
    fortress = deck_to_json(starters_for(2)["fortress"])
    config = {**rules.default_config, "decks": [fortress, fortress]}
    heuristic = HeuristicPlayer(0)
    found = None
    for seed in range(60):
        state = rules.new_game(config, seed)
        assert isinstance(state, KoboState)
        while state.pending is not None and state.pending.prompt != "turn":
            state.apply(heuristic.choose(state.view(state.pending.seat), state.legal_actions()))
        assert state.pending is not None
        seat = state.pending.seat
        floor = discarded_trap_floor(state.view(seat), 1 - seat)
        row = range((1 - seat) * SLOTS, (2 - seat) * SLOTS)
        down = [state.strategy[i] for i in row if state.strategy[i] != EMPTY]
        if floor is None or not down:
            continue
        assert all(card_value(state.defs[c].slug) >= floor for c in down)  # the heuristic's rule
        found = (state, seat, floor, row)
        if floor > min(card_value(s) for s in ("steadfast", "unhealing-wound")):
            break  # a floor that rules some traps out
    assert found is not None
    state, seat, floor, row = found
    view = state.view(seat)

    assert min(_face_down_values(inferring_sampler(view, 8), view, row, 80)) >= floor
    assert min(_face_down_values(world_sampler(view, 8), view, row, 80)) < floor


def test_the_trap_floor_reads_only_this_games_discarded_traps() -> None:
    """Only this game's trap discards by the seat, after its last trap set, make the floor."""
    log = [
        {"kind": "game_start", "game": 1, "first": 0},
        {"kind": "discard", "seat": 1, "card": "holy-barrier"},
        {"kind": "game_start", "game": 2, "first": 1},
        {"kind": "discard", "seat": 1, "card": "supply-wagon"},  # a deploy card: no floor
        {"kind": "discard", "seat": 0, "card": "counter-seal"},  # the other seat's
        {"kind": "discard", "seat": 1, "card": "holy-barrier"},  # a later trap was set
        {"kind": "set", "seat": 1, "slot": 1},
        {"kind": "set", "seat": 0, "slot": 2},  # the other seat's
        {"kind": "discard", "seat": 1, "card": "steadfast"},
        {"kind": "discard", "seat": 1, "card": "thorn-armor"},
    ]
    from kessen.games.kobo.evaluate import card_value
    from kessen.games.kobo.search_worlds import discarded_trap_floor

    assert discarded_trap_floor({"log": log}, 1) == card_value("thorn-armor")
    assert discarded_trap_floor({"log": log[:5]}, 1) is None
    assert discarded_trap_floor({"log": log[:6]}, 1) == card_value("holy-barrier")
    assert discarded_trap_floor({"log": log[:7]}, 1) is None
    assert discarded_trap_floor({"log": log[:2]}, 1) == card_value("holy-barrier")


def test_pass_inference_keeps_worlds_in_which_the_opponent_would_have_passed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whenever the heuristic COM has just passed in a chain, the true state is one in which
    its chain rule passes (:func:`would_pass` reads it right). With ``PASS_INFERENCE`` the deep
    model's worlds at such a moment are more often ones in which it would pass than without;
    every world still looks like the truth from the deciding seat."""
    from kessen.games.kobo import search_worlds
    from kessen.games.kobo.flow import chain_actions
    from kessen.games.kobo.heuristic import HeuristicPlayer
    from kessen.games.kobo.search_worlds import inferring_sampler, opponent_just_passed, would_pass

    rules = registry.get("kobo")
    heuristic = HeuristicPlayer(0)
    moments: list[tuple[KoboState, int]] = []
    for seed in range(30):
        state = rules.new_game({**rules.default_config, "best_of": 1}, seed)
        assert isinstance(state, KoboState)
        while state.pending is not None:
            seat = state.pending.seat
            view = state.view(seat)
            just_passed = state.pending.prompt == "chain" and state.chain_passes == 1
            assert opponent_just_passed(view) == just_passed  # the log tells what the state does
            if just_passed:
                assert would_pass(state, 1 - seat)
                if len(chain_actions(state, 1 - seat)) > 1:
                    moments.append((state.clone(), seat))
            state.apply(heuristic.choose(view, state.legal_actions()))
    assert len(moments) > 20

    def consistent(on: bool) -> int:
        monkeypatch.setattr(search_worlds, "PASS_INFERENCE", on)
        kept = 0
        for state, seat in moments[:20]:
            view = state.view(seat)
            sample = inferring_sampler(view, 3)
            for index in range(10):
                world = sample(index)
                assert isinstance(world, KoboState)
                world.audit()
                assert _dump(world.view(seat)) == _dump(view | LOGLESS)
                kept += would_pass(world, 1 - seat)
        return kept

    off, on = consistent(False), consistent(True)
    assert on > off and on >= 190


def test_the_trap_floor_holds_for_the_heuristic_com_and_for_the_standby_plan() -> None:
    """Both standby rules process traps strongest first; the heuristic COM stops setting after
    three, the plan skips traps it rates low. Either way no trap set is worth less than the
    floor, while counting every discarded trap (the plan's early ones too) would be wrong."""
    from kessen.games.kobo.cards import CardKind
    from kessen.games.kobo.evaluate import card_value
    from kessen.games.kobo.heuristic import HeuristicPlayer
    from kessen.games.kobo.heuristic_exchange import card_def
    from kessen.games.kobo.search_worlds import discarded_trap_floor
    from kessen.games.kobo.standby import PlannedStandby
    from kessen.games.kobo.state import EMPTY

    rules = registry.get("kobo")
    config = {**rules.default_config, "decks": ["fortress", "fortress"], "best_of": 1}
    floors = Counter[str]()
    every_discard_wrong = 0  # standbys where a floor over all trap discards is broken
    for seed in range(40):
        state = rules.new_game(config, seed)
        assert isinstance(state, KoboState)
        players = (HeuristicPlayer(seed), PlannedStandby(seed))
        while state.pending is not None and state.pending.prompt != "turn":
            seat = state.pending.seat
            state.apply(players[seat].choose(state.view(seat), state.legal_actions()))
        for seat, name in ((0, "heuristic"), (1, "plan")):
            view = state.view(1 - seat)
            row = range(seat * SLOTS, seat * SLOTS + SLOTS)
            lowest_set = min(
                (
                    card_value(state.defs[state.strategy[i]].slug)
                    for i in row
                    if state.strategy[i] != EMPTY
                ),
                default=None,
            )
            discarded = [
                card_value(e["card"])
                for e in view["log"]
                if e["kind"] == "discard"
                and e["seat"] == seat
                and card_def(e["card"]).kind is CardKind.TRAP
            ]
            if lowest_set is not None and discarded and max(discarded) > lowest_set:
                every_discard_wrong += 1
                assert name == "plan"  # the heuristic COM never discards a stronger trap
            floor = discarded_trap_floor(view, seat)
            if floor is None:
                continue
            floors[name] += 1
            assert lowest_set is None or lowest_set >= floor, name
    assert floors["heuristic"] >= 10 and floors["plan"] >= 1
    assert every_discard_wrong >= 1

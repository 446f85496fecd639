"""The state as data: clone, JSON, hash, audit and hidden-world resampling; the kernel helpers."""

from __future__ import annotations

import json
import random

import pytest

from kessen.engine.action import Action
from kessen.engine.contract import IllegalAction
from kessen.engine.digest import LogDigest, combined_hash
from kessen.engine.log import Event
from kessen.engine.poses import Pose, Stack
from kessen.games.twgp.cards import card
from kessen.games.twgp.game import new_game
from kessen.games.twgp.state import HAND, PILE, TwgpState
from tests.twgp.harness import Side, U, board


def _midgame(seed: int = 3) -> TwgpState:
    state = new_game({"weaponCache": True}, seed)
    chooser = random.Random(seed)
    for _ in range(120):
        if state.pending is None:
            break
        legal = state.legal_actions()
        state.apply(legal[chooser.randrange(len(legal))])
    return state


def test_json_round_trip_clone_and_hash() -> None:
    s = _midgame()
    copy = TwgpState.from_json(json.loads(json.dumps(s.to_json())))
    assert copy.state_hash() == s.state_hash() and copy.legal_actions() == s.legal_actions()
    twin = s.clone()
    assert twin.state_hash() == s.state_hash()
    if twin.pending is not None:
        twin.apply(twin.legal_actions()[-1])
        assert twin.state_hash() != s.state_hash()
        assert copy.state_hash() == s.state_hash()


def test_the_returned_legal_list_is_the_callers_own() -> None:
    """Changing the list ``legal_actions()`` returned changes neither the state nor a clone
    (they share the cached list that ``apply`` checks against)."""
    s = _midgame()
    expected = s.legal_actions()
    s.legal_actions().clear()
    twin = s.clone()
    twin.legal_actions().append(Action.of("never"))
    assert s.legal_actions() == expected and twin.legal_actions() == expected
    with pytest.raises(IllegalAction):
        s.apply(Action.of("never"))
    s.apply(expected[0])
    twin.apply(expected[0])
    assert twin.state_hash() == s.state_hash()


def test_the_hash_covers_the_log() -> None:
    s = _midgame()
    t = s.clone()
    t.log.append(Event("note"))
    assert t.state_hash() != s.state_hash()


def test_audit_catches_a_card_in_two_places_and_a_foreign_card() -> None:
    s = board(Side(hand=["sa"]), Side())
    s.audit()
    s.zone(0, PILE).append(s.zone(0, HAND)[0])
    with pytest.raises(AssertionError, match="two places"):
        s.audit()
    t = board(Side(hand=["sa"]), Side())
    t.zone(0, HAND).append(t.zone(1, 3).pop())
    with pytest.raises(AssertionError, match="hold"):
        t.audit()


def test_resampling_keeps_the_view_and_moves_hidden_cards() -> None:
    s = board(
        Side(hand=["sa", "s9"], pile=["c2", "c3", "c4"], charge=["c5"]),
        Side(
            hand=["ha", "h9"],
            pile=["d2", "d3", "d4"],
            charge=["d5"],
            battle=[U("h2", pose="stealth", secret=True)],
        ),
    )
    views = {json.dumps(s.view(0), sort_keys=True)}
    moved = False
    for seed in range(20):
        other = s.resample_hidden(0, seed)
        other.audit()
        views.add(json.dumps(other.view(0), sort_keys=True))
        stack = other.square(1, 0)
        assert stack is not None and (card(stack.top).base or 0) <= 3  # still a stealth unit
        moved |= other.zone(1, HAND) != s.zone(1, HAND)
    assert len(views) == 1 and moved


def test_pose_and_stack_helpers() -> None:
    assert Pose.DOWN_SIDEWAYS.turned(False) is Pose.DOWN
    assert Pose.UP_SIDEWAYS_REVERSED.face_up and Pose.UP_SIDEWAYS_REVERSED.reversed
    assert Pose.UP.flipped(False) is Pose.DOWN
    stack = Stack(1, (2,), (3,), Pose.DOWN, 4, True)
    assert stack.with_pose(Pose.UP).secret is False
    assert Stack.from_json(json.loads(json.dumps(stack.to_json()))) == stack


def test_log_digest_is_incremental_and_order_sensitive() -> None:
    a, b = Event("a", {"x": 1}), Event("b", {"y": 2})
    assert LogDigest().updated([a, b]) == LogDigest().updated([a]).updated([a, b])
    assert LogDigest().updated([a, b]) != LogDigest().updated([b, a])
    assert combined_hash({"k": 1}, LogDigest()) != combined_hash({"k": 2}, LogDigest())

"""Kernel unit tests: action text, the RNG, replays, answer refusals, copies and the registry.

Games come from the registry (Kōbō is the only ruleset so far); nothing here reaches into a
ruleset's internals, so the same checks hold for any ruleset that keeps the engine contract.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any, cast

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from kessen.engine import registry
from kessen.engine.action import Action, ActionParseError
from kessen.engine.contract import (
    GameOver,
    GameState,
    IllegalAction,
    NotYourDecision,
    RulesError,
    StalePrompt,
)
from kessen.engine.replay import HASH_EVERY, Replay, ReplayDivergence
from kessen.engine.rng import Rng

RULESET = "kobo"
CONFIG: dict[str, Any] = {"decks": ["swarm", "vanguard"], "best_of": 1}


def new_game(seed: int = 1, config: dict[str, Any] | None = None) -> GameState:
    """A fresh game of the test ruleset."""
    return registry.get(RULESET).new_game(config or CONFIG, seed)


def json_copy(state: GameState) -> GameState:
    """``state`` rebuilt from its JSON text."""
    text = json.dumps(state.to_json())
    return registry.get(state.ruleset).from_json(json.loads(text))


def play_random(state: GameState, seed: int, steps: int | None = None) -> list[Action]:
    """Play random legal actions to the end (or for ``steps`` actions); return them."""
    chooser = random.Random(seed)
    done: list[Action] = []
    while state.pending is not None and (steps is None or len(done) < steps):
        legal = state.legal_actions()
        action = legal[chooser.randrange(len(legal))]
        state.apply(action)
        done.append(action)
    return done


def recorded_game(seed: int) -> tuple[Replay, GameState]:
    """A finished random game and its replay record."""
    state = new_game(seed)
    replay = Replay.start(state, CONFIG, seed)
    chooser = random.Random(seed)
    while state.pending is not None:
        legal = state.legal_actions()
        action = legal[chooser.randrange(len(legal))]
        state.apply(action)
        replay.record(action, state)
    return replay, state


# --------------------------------------------------------------------------------------------
# Action text
# --------------------------------------------------------------------------------------------

WORDS = st.from_regex(r"[a-z][a-z0-9_-]{0,14}", fullmatch=True)
ARGS = st.lists(st.one_of(st.integers(), WORDS), max_size=6)


@given(verb=WORDS, args=ARGS)
def test_action_text_round_trips(verb: str, args: list[str | int]) -> None:
    action = Action.of(verb, *args)
    text = str(action)
    assume(len(text) <= 200)
    parsed = Action.parse(text)
    assert parsed == action
    assert hash(parsed) == hash(action)
    assert str(parsed) == text
    assert [type(a) for a in parsed.args] == [type(a) for a in args]


@given(text=st.text(max_size=60))
def test_any_text_parses_to_a_round_tripping_action_or_fails_with_a_message(text: str) -> None:
    try:
        action = Action.parse(text)
    except ActionParseError as err:
        assert str(err).strip()
        return
    assert Action.parse(str(action)) == action


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("   \t ", "empty"),
        ("Attack 1", "'Attack'"),
        ("1st", "'1st'"),
        ("-x", "'-x'"),
        ("slot x!", "'x!'"),
        ("slot 3.5", "'3.5'"),
        ("slot -", "'-'"),
        ("slot 3a", "'3a'"),
        ("pick Oni", "'Oni'"),
        ("pick ō", "'ō'"),
        ("x " * 101, "longer than 200"),
    ],
)
def test_malformed_action_texts_are_refused_with_a_reason(text: str, fragment: str) -> None:
    with pytest.raises(ActionParseError) as caught:
        Action.parse(text)
    assert fragment in str(caught.value)


def test_non_text_is_refused() -> None:
    with pytest.raises(ActionParseError, match="must be text"):
        Action.parse(cast(Any, 3))


def test_action_text_is_normalized() -> None:
    assert Action.parse("  slot \t 03 ") == Action.of("slot", 3)
    assert str(Action.parse("slot -0")) == "slot 0"
    assert Action.parse("pick reinforcement-call").args == ("reinforcement-call",)
    assert str(Action.of("pass")) == "pass"


# --------------------------------------------------------------------------------------------
# Rng
# --------------------------------------------------------------------------------------------


def test_rng_is_deterministic_and_seed_dependent() -> None:
    a, b, c = Rng(12345), Rng(12345), Rng(12346)
    first = [a.next64() for _ in range(50)]
    assert first == [b.next64() for _ in range(50)]
    assert first != [c.next64() for _ in range(50)]
    assert all(0 <= x < 2**64 for x in first)


def test_rng_clone_continues_independently() -> None:
    rng = Rng(7)
    rng.next64()
    twin = rng.clone()
    assert [twin.below(100) for _ in range(20)] == [rng.below(100) for _ in range(20)]
    twin.next64()
    assert twin.state != rng.state


def test_rng_state_is_one_64_bit_integer() -> None:
    assert Rng(-1).state == 2**64 - 1
    assert Rng(2**64 + 5).state == 5


@given(seed=st.integers(min_value=-(2**70), max_value=2**70), n=st.integers(1, 2**62))
def test_rng_below_stays_in_range(seed: int, n: int) -> None:
    rng = Rng(seed)
    for _ in range(20):
        assert 0 <= rng.below(n) < n


def test_rng_below_one_is_zero_and_below_is_roughly_uniform() -> None:
    rng = Rng(99)
    assert {rng.below(1) for _ in range(100)} == {0}
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_500 < n < 10_500 for n in counts.values()), counts


def test_rng_shuffle_is_a_deterministic_permutation() -> None:
    items = list(range(30))
    a, b = items[:], items[:]
    Rng(3).shuffle(a)
    Rng(3).shuffle(b)
    assert a == b != items
    assert sorted(a) == items


def test_rng_shuffle_is_fisher_yates_over_below() -> None:
    """The inlined shuffle draws the same stream as ``below`` (recorded games depend on it)."""
    for seed in range(300):
        fast, slow = Rng(seed), Rng(seed)
        items = list(range(seed % 40))
        expected = items[:]
        fast.shuffle(items)
        for i in range(len(expected) - 1, 0, -1):
            j = slow.below(i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert items == expected and fast.state == slow.state


# --------------------------------------------------------------------------------------------
# Replays
# --------------------------------------------------------------------------------------------


def test_replay_round_trips_through_json_and_reproduces_the_game() -> None:
    replay, final = recorded_game(seed=5)
    steps = len(replay.actions)
    assert set(replay.hashes) >= {0, steps} | set(range(HASH_EVERY, steps + 1, HASH_EVERY))
    rules = registry.get(RULESET)
    assert (replay.ruleset, replay.version, replay.data_hash) == (
        RULESET,
        rules.version,
        rules.data_hash,
    )
    copy = Replay.from_json(json.loads(json.dumps(replay.to_json())))
    assert copy == replay
    assert copy.final_state().state_hash() == final.state_hash()
    states = list(copy.states())
    assert len(states) == steps + 1
    assert states[0].state_hash() == replay.hashes[0]


def test_replay_reports_a_tampered_hash_at_its_step() -> None:
    replay, _ = recorded_game(seed=6)
    replay.hashes[HASH_EVERY] = "0" * 24
    with pytest.raises(ReplayDivergence, match=rf"^step {HASH_EVERY}: ") as caught:
        replay.final_state()
    assert caught.value.step == HASH_EVERY
    replay.final_state(verify=False)  # without verification it plays back regardless


def test_replay_reports_a_different_seed_at_step_zero() -> None:
    replay, _ = recorded_game(seed=6)
    replay.seed += 1
    with pytest.raises(ReplayDivergence) as caught:
        next(iter(replay.states()))
    assert caught.value.step == 0


def test_replay_reports_an_action_that_is_no_longer_legal() -> None:
    replay, _ = recorded_game(seed=8)
    replay.actions[3] = "no-such-verb 9"
    with pytest.raises(ReplayDivergence, match="not legal any more") as caught:
        replay.final_state()
    assert caught.value.step == 4


def test_replay_reports_a_different_legal_choice_at_the_next_recorded_hash() -> None:
    replay, _ = recorded_game(seed=9)
    states = list(replay.states())
    # Find a step with a real choice and put another legal action there.
    step = next(i for i in range(1, len(replay.actions)) if len(states[i].legal_actions()) > 1)
    other = next(a for a in states[step].legal_actions() if str(a) != replay.actions[step])
    replay.actions[step] = str(other)
    next_hash = min(k for k in replay.hashes if k > step)
    with pytest.raises(ReplayDivergence) as caught:
        replay.final_state()
    assert step + 1 <= caught.value.step <= next_hash


# --------------------------------------------------------------------------------------------
# GameState.answer: refusals leave the state unchanged
# --------------------------------------------------------------------------------------------


def _refuse(state: GameState, seat: int, prompt_id: int, action: Action) -> RulesError:
    before = state.state_hash()
    with pytest.raises(RulesError) as caught:
        state.answer(seat, prompt_id, action)
    assert state.state_hash() == before, f"a refused answer changed the state: {caught.value}"
    return caught.value


@pytest.mark.parametrize("seed", [11, 12])
def test_answer_refuses_bad_answers_at_every_step_of_a_game(seed: int) -> None:
    state = new_game(seed)
    chooser = random.Random(seed)
    bogus = Action.of("no-such-verb", 99)
    while (pending := state.pending) is not None:
        legal = state.legal_actions()
        texts = [str(a) for a in legal]
        seat, pid = pending.seat, pending.prompt_id

        for stale in (pid - 1, pid + 1):
            err = _refuse(state, seat, stale, legal[0])
            assert isinstance(err, StalePrompt)
            assert str(pid) in str(err)

        for other in [s for s in range(state.seats) if s != seat] + [state.seats]:
            err = _refuse(state, other, pid, legal[0])
            assert isinstance(err, NotYourDecision)
            message = str(err)
            assert "legal" not in message
            for text in texts:
                assert not re.search(rf"(?<![\w-]){re.escape(text)}(?![\w-])", message), (
                    f"a foreign seat's refusal names the legal action {text!r}: {message}"
                )
            # A foreign seat never learns the legal list, not even with an illegal action.
            err = _refuse(state, other, pid, bogus)
            assert isinstance(err, NotYourDecision)
            assert "legal" not in str(err)

        err = _refuse(state, seat, pid, bogus)
        assert isinstance(err, IllegalAction)
        assert str(bogus) in str(err)
        assert all(text in str(err) for text in texts)

        before = state.state_hash()
        with pytest.raises(IllegalAction):
            state.apply(bogus)
        assert state.state_hash() == before

        state.answer(seat, pid, legal[chooser.randrange(len(legal))])
        assert state.pending is None or state.pending.prompt_id > pid

    assert state.outcome is not None
    assert state.legal_actions() == []
    err = _refuse(state, 0, 0, Action.of("pass"))
    assert isinstance(err, GameOver)
    before = state.state_hash()
    with pytest.raises(RulesError):
        state.apply(Action.of("pass"))
    assert state.state_hash() == before


def test_refusals_are_rules_errors() -> None:
    for cls in (IllegalAction, StalePrompt, NotYourDecision, GameOver, ReplayDivergence):
        assert issubclass(cls, RulesError)
    assert issubclass(RulesError, ValueError)


def test_prompt_ids_rise_with_every_decision() -> None:
    state = new_game(13)
    seen: list[int] = []
    chooser = random.Random(13)
    while (pending := state.pending) is not None:
        seen.append(pending.prompt_id)
        legal = state.legal_actions()
        state.apply(legal[chooser.randrange(len(legal))])
    assert seen == sorted(set(seen))


# --------------------------------------------------------------------------------------------
# Copies: clone and JSON list the same legal actions and evolve independently
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_clone_and_json_copy_list_the_same_legal_actions(seed: int) -> None:
    state = new_game(seed, {"decks": ["tempo", "fortress"], "best_of": 3})
    chooser = random.Random(seed)
    while state.pending is not None:
        legal = list(state.legal_actions())
        for copy in (state.clone(), json_copy(state)):
            assert copy.pending == state.pending
            assert copy.legal_actions() == legal
            assert copy.state_hash() == state.state_hash()
        action = legal[chooser.randrange(len(legal))]
        twin = state.clone()
        state.apply(action)
        assert twin.legal_actions() == legal, "applying to the original changed its clone"
        twin.apply(action)
        assert twin.state_hash() == state.state_hash()


def test_same_seed_same_game_different_seed_different_game() -> None:
    a, b, c = new_game(31), new_game(31), new_game(32)
    assert a.state_hash() == b.state_hash() != c.state_hash()
    assert play_random(a, 4) == play_random(b, 4)
    assert a.state_hash() == b.state_hash()


def test_parsing_client_text_does_not_grow_the_intern_table() -> None:
    from kessen.engine import action as action_module

    before = len(action_module._interned)
    for i in range(500):
        Action.parse(f"never-seen-verb {i}")
    assert len(action_module._interned) == before


def test_mutating_the_returned_legal_list_does_not_change_the_state() -> None:
    state = new_game(41)
    expected = list(state.legal_actions())
    state.legal_actions().clear()
    assert state.legal_actions() == expected


# --------------------------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------------------------


def test_registry_knows_the_ruleset() -> None:
    rules = registry.get(RULESET)
    assert rules.name == RULESET
    state = rules.new_game(rules.default_config, 1)
    assert state.ruleset == RULESET
    assert state.pending is not None


@pytest.mark.parametrize("name", ["nope", "no such thing", ""])
def test_registry_names_the_known_rulesets_for_an_unknown_name(name: str) -> None:
    with pytest.raises(KeyError) as caught:
        registry.get(name)
    message = caught.value.args[0]
    assert message.startswith(f"unknown ruleset {name!r}; known: ")
    assert RULESET in message.split("known: ")[1].split(", ")


def test_an_event_whose_private_part_shadows_a_public_key_is_refused() -> None:
    from kessen.engine.log import Event

    with pytest.raises(ValueError, match=r"built event: private keys \['hand'\]"):
        Event("built", {"hand": 3}, private_to=0, private={"hand": ["ca"], "vitals": []})
    event = Event("built", {"hand": 3}, private_to=0, private={"hand_cards": ["ca"]})
    assert event.visible(0) == {"kind": "built", "hand": 3, "hand_cards": ["ca"]}
    assert event.visible(1) == {"kind": "built", "hand": 3}

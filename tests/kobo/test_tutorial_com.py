"""The guided match's scripted COM decides from its own seat's view, and plays its script.

Like every COM it is handed ``state.view(seat)`` and the legal actions, nothing else. These
tests hold it to that: at every one of its decisions (in the guided match and in matches
against a random player), a world redealt where only what its seat cannot see differs gets
the same decision; a JSON round trip of the view changes nothing (it reads plain data only);
and its script (一斉妨害, then 足止め, so that a chain of three forms) runs in the guided match
and only there, the rest of its play being honest and legal.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from kessen.engine.action import Action
from kessen.engine.players import RandomPlayer
from kessen.games.kobo.game import new_game
from kessen.games.kobo.state import HAND, MAIN_DECK, TDECK, THAND, KoboState
from kessen.games.kobo.tutorial import (
    SCRIPT_TACTICS,
    TUTORIAL_SEED,
    TutorialPlayer,
    tutorial_config,
)
from kessen.games.kobo.tutorial_guide import guided_action

COM = 1


def com_moments(state: KoboState, seed: int, guided: bool) -> Iterator[KoboState]:
    """Every decision of the tutorial COM (seat 1) in a match against the coach (``guided``)
    or a random player; the COM's own choice is applied after each."""
    other = RandomPlayer(seed)
    com = TutorialPlayer(seed)
    while state.pending is not None:
        seat = state.pending.seat
        if seat == COM:
            yield state
            state.apply(com.choose(state.view(COM), state.legal_actions()))
        elif guided:
            action = guided_action(state.view(seat))
            assert action is not None
            state.apply(Action.parse(action))
        else:
            state.apply(other.choose(state.view(seat), state.legal_actions()))


def hidden_from_com(state: KoboState) -> tuple[object, ...]:
    """What seat 1 may not see: the player's hands, both decks' order."""
    return (
        state.zone(0, HAND)[:],
        state.zone(0, THAND)[:],
        state.zone(0, MAIN_DECK)[:],
        state.zone(0, TDECK)[:],
        state.zone(COM, MAIN_DECK)[:],
        state.zone(COM, TDECK)[:],
    )


MATCHES = [
    ("guided", tutorial_config(), TUTORIAL_SEED, True),
    ("random-1", {"decks": ["fortress", "swarm"], "best_of": 1}, 11, False),
    ("random-2", {"decks": ["tempo", "vanguard"], "best_of": 1}, 12, False),
]


@pytest.mark.parametrize(("name", "config", "seed", "guided"), MATCHES, ids=[m[0] for m in MATCHES])
def test_it_decides_from_its_own_view_only(
    name: str, config: dict[str, object], seed: int, guided: bool
) -> None:
    redealt = 0
    decisions = 0
    for step, state in enumerate(com_moments(new_game(config, seed), seed, guided)):
        view = state.view(COM)
        legal = state.legal_actions()
        action = TutorialPlayer(seed).choose(view, legal)
        assert action in legal
        decisions += 1
        # Plain data in, the same decision out: it holds no reference to anything else.
        assert TutorialPlayer(seed).choose(json.loads(json.dumps(view)), legal) == action
        for k in range(2):
            other = state.resample_hidden(COM, seed * 1000 + step * 7 + k)
            assert other.view(COM) == view
            redealt += hidden_from_com(other) != hidden_from_com(state)
            assert TutorialPlayer(seed).choose(other.view(COM), other.legal_actions()) == action
    assert decisions > 10
    assert redealt > 0, "no world differed in what COM cannot see: the check would be empty"


def test_its_script_forms_a_chain_of_three_in_the_guided_match() -> None:
    state = new_game(tutorial_config(), TUTORIAL_SEED)
    played: list[tuple[int, str]] = []
    for moment in com_moments(state, TUTORIAL_SEED, guided=True):
        view = moment.view(COM)
        action = TutorialPlayer(TUTORIAL_SEED).choose(view, moment.legal_actions())
        if view["pending"]["prompt"] == "turn":
            assert str(action) == "pass"  # gentle: it never attacks
        if action.verb == "play":
            played.append((moment.turn, str(action.args[0])))
    assert played == [(1, SCRIPT_TACTICS[0]), (1, SCRIPT_TACTICS[1])]
    links = [e for e in state.view(0)["log"] if e["kind"] == "activate"]
    assert [(e["link"], e["seat"], e["card"]) for e in links] == [
        (1, 1, "mass-jamming"),
        (2, 0, "total-war"),
        (3, 1, "hinder"),
    ]
    assert state.view(0)["match"]["winner"] == 0


def test_it_takes_its_script_tactics_first() -> None:
    state = new_game(tutorial_config(), TUTORIAL_SEED)
    com = TutorialPlayer(TUTORIAL_SEED)
    while state.pending is not None and state.pending.seat == 0:
        guided = guided_action(state.view(0))
        assert guided is not None
        state.apply(Action.parse(guided))
    assert state.pending is not None and state.pending.prompt == "tactics"
    taken = []
    for _ in SCRIPT_TACTICS:
        action = com.choose(state.view(COM), state.legal_actions())
        taken.append(str(action))
        state.apply(action)
    assert taken == [f"take {slug}" for slug in SCRIPT_TACTICS]


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_its_honest_play_is_legal_to_the_end_of_any_match(seed: int) -> None:
    state = new_game({"decks": ["swarm", "fortress"], "best_of": 3}, seed)
    for _ in com_moments(state, seed, guided=False):
        pass
    assert state.outcome is not None

"""Kōbō's opening switches (games/kobo/opening.py): the tactics counts of each seat and the pass
penalty's schedule as match options, checked by the ruleset; the standard plays as before."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from kessen.engine import registry
from kessen.engine.contract import GameState
from kessen.games.kobo.catalog import catalog
from kessen.games.kobo.config import ConfigError, default_config, parse_config
from kessen.games.kobo.state import EXCLUDED, THAND, KoboState
from kessen.games.kobo.worlds import _config as world_config
from kessen.sim.tournament import TournamentSpec, parse_option
from tests.kobo.harness import Side, board, play

HAND4 = ["total-war", "mass-jamming", "swift-step", "last-stand"]
DECK8 = [
    "weaken",
    "power-surge",
    "counter-spell",
    "ceasefire",
    "target-change",
    "hinder",
    "swift-step",
    "total-war",
]


def config(**opening: Any) -> dict[str, Any]:
    """The default config with some opening keys set."""
    return {**default_config(), **opening}


def to_first_turn(state: GameState, seed: int = 7) -> KoboState:
    """Play random legal actions until the first player's first turn decision."""
    assert isinstance(state, KoboState)
    rng = random.Random(seed)
    while state.pending is not None and state.pending.prompt != "turn":
        state.apply(rng.choice(state.legal_actions()))
    return state


def hands(state: KoboState) -> tuple[int, int]:
    """The tactics hands of the first and the second player."""
    first = state.first_player
    return len(state.zone(first, THAND)), len(state.zone(1 - first, THAND))


# --- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("first_tactics", 0, "first_tactics: expected a whole number from 1 to 15, not 0"),
        ("second_tactics", 16, "second_tactics: expected a whole number from 1 to 15, not 16"),
        ("second_tactics", "7", 'second_tactics: expected a whole number from 1 to 15, not "7"'),
        ("first_tactics", True, "first_tactics: expected a whole number from 1 to 15, not true"),
        ("first_tactics", 5.0, "first_tactics: expected a whole number from 1 to 15, not 5.0"),
        (
            "pass_penalty",
            "harsh",
            'pass_penalty: expected one of growing, immediate, flat, none, not "harsh"',
        ),
    ],
)
def test_a_bad_value_is_refused_naming_the_option_and_range(
    key: str, value: Any, message: str
) -> None:
    with pytest.raises(ConfigError) as err:
        registry.get("kobo").new_game(config(**{key: value}), 0)
    assert str(err.value) == message


def test_sim_option_reaches_the_ruleset_and_is_checked() -> None:
    from kessen.sim.tournament import SimError

    def spec(*options: str) -> TournamentSpec:
        return TournamentSpec(
            decks=("fortress",),
            players=("heuristic",),
            games=1,
            ruleset="kobo",
            mirror=True,
            options=dict(parse_option(o) for o in options),
        )

    spec("second_tactics=6", "first_tactics=6", "pass_penalty=flat").validate()
    with pytest.raises(SimError, match="second_tactics: expected a whole number from 1 to 15"):
        spec("second_tactics=20").validate()
    cfg = spec("second_tactics=5").config("fortress", "fortress")
    assert parse_config(cfg).second_tactics == 5


# --- defaults unchanged ------------------------------------------------------------------------


def test_the_standard_is_the_seeds_and_leaves_the_record_as_before() -> None:
    parsed = parse_config(default_config())
    assert (parsed.first_tactics, parsed.second_tactics, parsed.pass_penalty) == (
        5,
        7,
        "growing",
    )
    assert parsed.variant == []
    written = parsed.to_json()
    assert not {"first_tactics", "second_tactics", "pass_penalty"} & set(written)
    # The standard values given explicitly are the same config, with the same record.
    same = parse_config(config(first_tactics=5, second_tactics=7, pass_penalty="growing"))
    assert same.to_json() == written
    rules = registry.get("kobo")
    a = to_first_turn(rules.new_game(default_config(), 11))
    b = to_first_turn(rules.new_game(config(first_tactics=5, second_tactics=7), 11))
    assert a.state_hash() == b.state_hash()
    assert hands(a) == (5, 7)
    assert "opening" not in a.view(a.first_player)


# --- the variant's effect --------------------------------------------------------------------


@pytest.mark.parametrize(("first", "second"), [(5, 5), (6, 6), (4, 9)])
def test_each_seat_chooses_the_count_its_option_sets(first: int, second: int) -> None:
    rules = registry.get("kobo")
    state = rules.new_game(config(first_tactics=first, second_tactics=second), 3)
    state = to_first_turn(state)
    assert hands(state) == (first, second)
    view = state.view(0)
    assert view["opening"] == {
        "first_tactics": first,
        "second_tactics": second,
        "pass_penalty": "growing",
    }


@pytest.mark.parametrize(
    ("schedule", "excluded_by_pass"),
    [("growing", [0, 1, 2]), ("immediate", [1, 2, 3]), ("flat", [0, 1, 1]), ("none", [0, 0, 0])],
)
def test_the_pass_penalty_follows_its_schedule(schedule: str, excluded_by_pass: list[int]) -> None:
    s = board(
        Side(battle=["white-fox-miko"], tactics_hand=HAND4, tactics_deck=DECK8),
        Side(battle=["musket-captain"], tactics_hand=HAND4, tactics_deck=DECK8),
    )
    s.config = dataclasses.replace(s.config, pass_penalty=schedule)
    seen = []
    for _ in excluded_by_pass:
        assert s.pending is not None
        before = len(s.zone(0, EXCLUDED))
        preview = s.view(0)["pending"]["context"]["pass_penalty"]
        play(s, "pass")
        seen.append(len(s.zone(0, EXCLUDED)) - before)
        assert preview == seen[-1]
        play(s, "pass")  # the other seat passes too
    assert seen == excluded_by_pass


def test_a_variant_record_replays_under_its_config() -> None:
    rules = registry.get("kobo")
    state = rules.new_game(config(first_tactics=6, second_tactics=6, pass_penalty="flat"), 5)
    state = to_first_turn(state)
    again = rules.from_json(state.to_json())
    assert isinstance(again, KoboState)
    assert again.config == state.config
    assert again.state_hash() == state.state_hash()
    written = state.config.to_json()
    assert (written["first_tactics"], written["second_tactics"], written["pass_penalty"]) == (
        6,
        6,
        "flat",
    )


def test_the_worlds_of_a_search_keep_the_variant() -> None:
    rules = registry.get("kobo")
    state = to_first_turn(rules.new_game(config(second_tactics=5, pass_penalty="none"), 9))
    guessed = world_config(state.view(0))
    assert (guessed.first_tactics, guessed.second_tactics, guessed.pass_penalty) == (
        5,
        5,
        "none",
    )


def test_the_catalogue_names_each_switch_in_both_languages() -> None:
    for lang, seven in (("ja", "7枚"), ("en", "7 cards")):
        switches = {s["key"]: s for s in catalog(lang)["opening"]}
        assert set(switches) == {"first_tactics", "second_tactics", "pass_penalty"}
        second = switches["second_tactics"]
        assert second["default"] == 7
        assert second["value_names"][second["values"].index(7)] == seven
        assert switches["pass_penalty"]["values"][0] == "growing"
    assert catalog("ja")["opening"][2]["name"] == "パスのペナルティ"
    assert catalog("en")["opening"][2]["name"] == "Pass penalty"

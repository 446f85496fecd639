"""Setting up a game (§2.2): the secret build, fixed builds, the quick start, the first player."""

from __future__ import annotations

import pytest

from kessen.games.twgp.config import ConfigError, parse_config
from kessen.games.twgp.game import new_game
from kessen.games.twgp.state import ASIDE, BUILD, HAND, PILE
from tests.twgp.harness import asked, hand, legal, play, zone


def test_each_player_builds_vitals_then_aside_then_a_chosen_hand() -> None:
    s = new_game({"firstPlayer": 0}, 5)
    assert s.pending is not None and (s.pending.seat, s.pending.prompt) == (0, "build")
    assert legal(s)[0].startswith("vital ") and len(legal(s)) == 26
    play(s, "vital s10", "vital c10", "vital sk")
    assert all(a.startswith("aside ") for a in legal(s))
    play(s, "aside s9", "aside c9", "aside s8")
    assert "done" in legal(s)
    play(s, "hand sa", "hand c2", "done")
    assert hand(s, 0) == ["c2", "sa"] and len(s.zone(0, PILE)) == 18
    assert len(s.zone(0, ASIDE)) == 3
    assert (s.pending.seat, s.pending.prompt) == (1, "build")


def test_a_sixth_hand_card_finishes_the_build() -> None:
    s = new_game({"firstPlayer": 1}, 5)
    play(s, "vital s10", "vital c10", "vital sk", "aside s9", "aside c9", "aside s8")
    play(s, "hand sa", "hand s2", "hand s3", "hand ca", "hand c2", "hand c3")
    assert len(s.zone(0, HAND)) == 6 and len(s.zone(0, PILE)) == 14
    assert asked(s)[0] == 1


def test_the_opponent_sees_no_build_choice() -> None:
    s = new_game({}, 5)
    play(s, "vital s10", "vital c10", "vital sk", "aside s9")
    side = s.view(1)["players"][0]
    assert side["pool"]["cards"] is None and side["aside"]["cards"] is None
    assert side["vitals"][0] == {"face": "down"}
    assert s.view(0)["players"][0]["vitals"][0]["slug"] == "s10"


def test_a_fixed_build_and_the_first_player() -> None:
    build = {"vitals": ["s10", "c10", "sk"], "hand": ["sa"], "aside": ["s9", "c9", "s8"]}
    s = new_game({"builds": [build, None], "firstPlayer": 0}, 1)
    assert asked(s)[0] == 1 and hand(s, 0) == ["sa"] and len(s.zone(0, PILE)) == 19
    assert zone(s, 0, ASIDE) == ["s9", "c9", "s8"]


def test_quick_start_deals_three_vitals_a_twenty_card_deck_and_its_top_six() -> None:
    s = new_game({"quickStart": True}, 9)
    assert s.phase == BUILD and s.turn == 1
    for seat in (0, 1):
        assert len(s.zone(seat, HAND)) == 6 and len(s.zone(seat, PILE)) == 14
        assert len(s.zone(seat, ASIDE)) == 3
    jokers = new_game({"quickStart": True, "jokers": True}, 9)
    assert len(jokers.zone(0, ASIDE)) == 4


def test_the_first_player_is_drawn_at_random() -> None:
    firsts = {new_game({"quickStart": True}, seed).first_player for seed in range(20)}
    assert firsts == {0, 1}


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"gridWidth": 4}, "gridWidth"),
        ({"jokers": "yes"}, "jokers"),
        ({"colour": 1}, "unknown config keys"),
        ({"builds": [{"vitals": ["s10"], "hand": [], "aside": []}, None]}, "vitals"),
        ({"builds": [{"vitals": ["h10", "c10", "sk"], "hand": []}, None]}, "pool"),
        (
            {
                "quickStart": True,
                "builds": [{"vitals": ["s10", "c10", "sk"], "aside": ["s9", "c9", "s8"]}, None],
            },
            "quick",
        ),
    ],
)
def test_bad_configs_are_refused_with_a_reason(config: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config(config)


@pytest.mark.parametrize("key", ["turnLimit", "quietTurns"])
@pytest.mark.parametrize("value", [0, 1001, 10**12, True, "12"])
def test_game_length_switches_are_bounded(key: str, value: object) -> None:
    with pytest.raises(ConfigError, match=f"{key}: expected a whole number from 1 to 1000"):
        parse_config({key: value})
    assert parse_config({key: 1000}).to_json()[key] == 1000

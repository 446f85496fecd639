"""Why a TWGP hand card cannot be used now: one reason per unusable card, matching
``legal_actions``, in the seat's own view only."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from kessen.engine import registry
from kessen.games.twgp.cards import CARDS
from kessen.games.twgp.reasons import REASON_CODES, reason_text, unplayable_reasons
from kessen.games.twgp.state import HAND, TwgpState
from tests.twgp.harness import Side, U, board

CONFIGS: list[dict[str, object]] = [
    {},
    {"quickStart": True},
    {"vitalEffect": True, "weaponCache": True},
    {"strictMatrix05": True, "buildReload": True, "jokers": True},
    {"gridWidth": 3, "variantB": True},
]


def _random_states(games: int) -> Iterator[TwgpState]:
    rules = registry.get("twgp")
    for game in range(games):
        config = CONFIGS[game % len(CONFIGS)]
        state = rules.new_game(config, game)
        assert isinstance(state, TwgpState)
        rnd = random.Random(game)
        while state.pending is not None:
            yield state
            options = state.legal_actions()
            state.apply(options[rnd.randrange(len(options))])


def test_each_unusable_hand_card_has_one_reason_and_no_usable_card_has_one() -> None:
    codes: Counter[str] = Counter()
    checked = 0
    for state in _random_states(25):
        pending = state.pending
        assert pending is not None
        named = {a for action in state.legal_actions() for a in action.args if isinstance(a, str)}
        for seat in (0, 1):
            hand = [CARDS[c].slug for c in state.zone(seat, HAND)]
            entries = unplayable_reasons(state, seat)
            indexes = [e["index"] for e in entries]
            assert len(indexes) == len(set(indexes))
            usable = {i for i, s in enumerate(hand) if seat == pending.seat and s in named}
            assert set(indexes) == set(range(len(hand))) - usable, (pending, entries)
            for entry in entries:
                assert entry["slug"] == hand[entry["index"]]
                codes[entry["code"]] += 1
            checked += len(hand)
    assert checked > 5_000
    # The checks explain every unusable card the games met: the guard code never shows.
    assert codes["no_use"] == 0, codes
    common = {"not_your_turn", "busy", "no_core", "drive_power", "no_armable", "charge_full"}
    assert common <= set(codes), codes


def test_a_weapon_with_no_stack_to_hold_it_and_a_unit_too_strong_to_drive() -> None:
    s = board(
        Side(battle=[U("s2"), U("s3", pose="save")], hand=["sj", "s9"], pile=["s4", "s5"]),
        Side(battle=[U("h5")], pile=["h4"]),
    )
    reasons = {e["slug"]: (e["code"], e["params"]) for e in unplayable_reasons(s, s.turn_player)}
    assert reasons["s9"] == ("drive_power", {"needs": 9, "most": 5})
    assert "sj" not in reasons  # the Lv2 unit upright can hold it
    s2 = board(
        Side(battle=[U("s2", pose="save")], hand=["sj"], pile=["s4"]),
        Side(battle=[U("h5")], pile=["h4"]),
    )
    codes = {e["slug"]: e["code"] for e in unplayable_reasons(s2, s2.turn_player)}
    assert codes == {"sj": "no_armable"}


def test_the_reasons_are_in_the_seats_own_view_only() -> None:
    s = board(
        Side(battle=[U("s2", pose="save")], hand=["sj"], pile=["s4"]),
        Side(battle=[U("h5")], hand=["hq"], pile=["h4"]),
    )
    me = s.turn_player
    mine = s.view(me, "en")["why_not"]
    assert [(e["slug"], e["code"]) for e in mine] == [("sj", "no_armable")]
    assert mine[0]["text"].startswith("None of your face-up upright units can hold a weapon")
    assert [e["slug"] for e in s.view(1 - me)["why_not"]] == ["hq"]
    assert s.view(None)["why_not"] is None and s.view_all()["why_not"] is None


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_reason_code_has_words(lang: str) -> None:
    params: dict[str, dict[str, object]] = {
        "busy": {"prompt": "order"},
        "banned": {"rank": 3},
        "charge_full": {"cost": 2, "free": 1},
        "deck_limit": {"cost": 2, "room": 1},
        "drive_power": {"needs": 7, "most": 5},
        "no_armable": {"cap": 6},
    }
    for code in REASON_CODES:
        words = reason_text(code, params.get(code, {}), lang)
        assert words and "{" not in words

"""How a config departs from its ruleset's standard rules (``Ruleset.departures``): none for the
standard rules of each game, a label per opening switch, rule switch or designer's card set
otherwise, none for a config that does not parse, and never a word of a TWGP build."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kessen.engine import card_sets, registry
from kessen.engine.contract import Json
from kessen.games.kobo import card_sets as kobo_sets
from kessen.games.maken import card_sets as maken_sets

BUILD = {"vitals": ["s10", "c10", "sk"], "hand": ["sa"], "aside": ["s9", "c9", "s8"]}


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(card_sets.CACHE_ENV, str(tmp_path / "set-cache"))
    monkeypatch.setattr(card_sets, "_KNOWN", {})
    yield


def labels(ruleset: str, config: Json) -> list[Json]:
    return registry.get(ruleset).departures(config)


def keys(found: list[Json]) -> list[tuple[str, Any]]:
    return [(label["code"], label.get("key", label.get("name"))) for label in found]


def a_set(ruleset: str, name: str, data: Json) -> str:
    """A designer's set made known to this process: its ``NAME@HASH``."""
    text, digest = card_sets.canonical(card_sets.format_for(ruleset), data)
    card_sets.remember(ruleset, text)
    return f"{name}@{digest}"


@pytest.mark.parametrize("ruleset", ["kobo", "twgp", "maken"])
def test_the_standard_rules_depart_from_nothing(ruleset: str) -> None:
    rules = registry.get(ruleset)
    assert rules.departures(rules.default_config) == []


def test_kobo_opening_switches_are_labelled_by_their_names() -> None:
    standard = {"decks": ["swarm", "tempo"], "first_tactics": 5, "pass_penalty": "growing"}
    assert labels("kobo", standard) == []
    found = labels(
        "kobo", {"decks": ["swarm", "tempo"], "second_tactics": 9, "pass_penalty": "none"}
    )
    assert found == [
        {
            "code": "opening",
            "key": "second_tactics",
            "value": 9,
            "name_ja": "後攻の戦術手札",
            "name_en": "Second player's tactics hand",
            "value_ja": "9枚",
            "value_en": "9 cards",
        },
        {
            "code": "opening",
            "key": "pass_penalty",
            "value": "none",
            "name_ja": "パスのペナルティ",
            "name_en": "Pass penalty",
            "value_ja": "なし",
            "value_en": "none",
        },
    ]


def test_a_designers_card_set_is_labelled_by_its_name() -> None:
    kobo = a_set("kobo", "balance-2", kobo_sets.normalize(kobo_sets.shipped("v3")))
    found = labels("kobo", {"decks": ["swarm", "tempo"], "card_set": kobo, "first_tactics": 4})
    assert keys(found) == [("card_set", "balance-2"), ("opening", "first_tactics")]
    assert found[0] == {"code": "card_set", "name": "balance-2", "ref": kobo}
    maken = a_set("maken", "調整案 A", maken_sets.normalize(maken_sets.shipped()))
    assert labels("maken", {"card_set": maken}) == [
        {"code": "card_set", "name": "調整案 A", "ref": maken}
    ]


def test_twgp_and_maken_switches_away_from_their_defaults() -> None:
    found = labels("twgp", {"variantA": True, "gridWidth": 3, "jokers": False, "turnLimit": 50})
    assert keys(found) == [("switch", "gridWidth"), ("switch", "variantA")]
    assert found[1]["name_ja"] == "変則ルールA" and found[1]["value_en"] == "on"
    wipe = labels("twgp", {"vitalEffect": True, "vitalWipe": False})
    assert keys(wipe) == [("switch", "vitalEffect"), ("switch", "vitalWipe")]
    assert labels("twgp", {"vitalWipe": False}) == []  # no vital effect: nothing to wipe
    found = labels("maken", {"decks": ["SO", "GA"], "supportCap": None, "turnLimit": 40})
    assert keys(found) == [("switch", "supportCap")]  # a turn limit is no rules departure
    assert found[0]["value_ja"] == "なし（Ver1.2のみで遊ぶ場合）" and found[0]["value"] is None


def test_a_secret_build_never_shows_in_a_label() -> None:
    config = {"builds": [BUILD, None], "variantB": True}
    found = labels("twgp", config)
    assert keys(found) == [("switch", "variantB")]
    text = json.dumps(found)
    assert not any(slug in text for part in BUILD.values() for slug in part)
    # A broken build does not hide the rules either: the builds are not read at all.
    assert keys(labels("twgp", {**config, "builds": "nonsense"})) == [("switch", "variantB")]


@pytest.mark.parametrize(
    ("ruleset", "config"),
    [
        ("kobo", {"decks": ["swarm", "no-such-deck"], "first_tactics": 6}),
        ("kobo", {"decks": ["swarm", "tempo"], "card_set": "gone@" + "0" * 64}),
        ("kobo", {"decks": ["swarm", "tempo"], "pass_penalty": "sometimes"}),
        ("twgp", {"variantA": "yes"}),
        ("twgp", {"colour": 1, "jokers": True}),
        ("maken", {"gb": "half", "downAt": 8}),
        ("maken", {"card_set": "just-a-name"}),
        ("maken", ["not", "a", "config"]),
    ],
)
def test_a_config_that_does_not_parse_gives_no_labels(ruleset: str, config: Any) -> None:
    assert labels(ruleset, config) == []

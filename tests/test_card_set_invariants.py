"""A card set cannot break the engine's invariants: the shared random-playout checks
(:func:`kessen.engine.invariants.random_playout`: legal actions, the audit, view secrecy, JSON
round trips, clones, replays) on sets edited at random by Hypothesis, for Kōbō and Maken.

Each example starts from the shipped data and changes numbers the way a designer would (a
character's Lv, an effect's amount, a trap's timing; an attack card's speed, distance, attack,
cost and gain), adds a new card and puts a copy of it in a starter deck; every edited set is
valid by the ruleset's own checks (an edit that the checks refuse is not a set that can play).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kessen.engine import card_sets
from kessen.engine.invariants import random_playout
from kessen.games.kobo import card_sets as kobo_sets
from kessen.games.maken import card_sets as maken_sets

EXAMPLES = 10
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(card_sets.CACHE_ENV, str(tmp_path / "set-cache"))
    yield


def _play(ruleset: str, data: dict[str, Any], decks: list[str], seed: int) -> None:
    fmt = card_sets.format_for(ruleset)
    problems = fmt.validate(data)
    assert problems == [], problems  # the edits keep the set valid
    text, digest = card_sets.canonical(fmt, data)
    card_sets.remember(ruleset, text)
    config: dict[str, Any] = {"decks": decks, "card_set": f"random@{digest}"}
    if ruleset == "kobo":
        config["best_of"] = 1
    report = random_playout(ruleset, config, seed, deep_every=7)
    assert report.outcome is not None


# --------------------------------------------------------------------------------------------
# Kōbō
# --------------------------------------------------------------------------------------------

KOBO = kobo_sets.normalize(kobo_sets.shipped("v3"))


@st.composite
def kobo_edits(draw: st.DrawFn) -> dict[str, Any]:
    """The shipped cards with random numbers, a new character and a copy of it in a deck."""
    data = copy.deepcopy(KOBO)
    for card in data["cards"]:
        if card["kind"] == "character" and draw(st.booleans()):
            card["lv"] = draw(st.integers(1, 9))
        for step in card.get("steps", []):
            if step["verb"] == "modify_lv" and draw(st.booleans()):
                step["amount"] = draw(st.sampled_from([-4, -3, -2, -1, 1, 2, 3, 4]))
            elif step["verb"] == "draw" and draw(st.booleans()):
                step["amount"] = draw(st.integers(1, 3))
        if card["kind"] in ("trap", "tactic") and draw(st.booleans()):
            card["chain_again"] = draw(st.booleans())
        if card["kind"] == "trap" and draw(st.booleans()):
            card["when"] = draw(st.sampled_from(["any", "defending", "attacking"]))
    data["cards"].append(
        {
            "slug": "designed-ronin",
            "kind": "character",
            "name_ja": "設計の浪人",
            "name_en": "Designed Ronin",
            "lv": draw(st.integers(1, 9)),
        }
    )
    deck = draw(st.sampled_from([d for d in data["decks"] if "requires" not in d]))
    characters = {c["slug"] for c in data["cards"] if c["kind"] == "character"}
    swapped = draw(st.sampled_from(sorted(s for s in deck["main"] if s in characters)))
    deck["main"][swapped] -= 1
    if deck["main"][swapped] == 0:
        del deck["main"][swapped]
    deck["main"]["designed-ronin"] = 1
    data["chosen"] = deck["slug"]
    return data


@SETTINGS
@given(data=kobo_edits(), seed=st.integers(0, 2**31))
def test_random_kobo_sets_keep_the_invariants(data: dict[str, Any], seed: int) -> None:
    chosen = data.pop("chosen")
    other = "fortress" if chosen != "fortress" else "swarm"
    _play("kobo", data, [chosen, other], seed)


# --------------------------------------------------------------------------------------------
# Maken
# --------------------------------------------------------------------------------------------

MAKEN = maken_sets.normalize(maken_sets.shipped())


@st.composite
def maken_edits(draw: st.DrawFn) -> dict[str, Any]:
    """The shipped cards with random data, a new generic attack card in a starter deck."""
    data = copy.deepcopy(MAKEN)
    for card in data["cards"]:
        if card["kind"] == "attack" and draw(st.booleans()):
            card["spd"] = draw(st.integers(0, 9))
            card["front"] = draw(st.integers(0, 5))
            card["back"] = draw(st.integers(0, 5))
            card["atk"] = draw(st.integers(0, 10))
            card["gain"] = draw(st.integers(0, 2))
        if draw(st.booleans()):
            card["cost"] = draw(st.integers(0, 4))
        for ability in card.get("abilities", []):
            if ability["effect"] == "mod" and draw(st.booleans()):
                ability["n"] = draw(st.integers(-3, 3))
            elif ability["effect"] != "mod" and draw(st.booleans()):
                ability["n"] = draw(st.integers(1, 2))
    data["cards"].append(
        {
            "id": "GE09",
            "name_ja": "設計の一撃",
            "name_en": "Designed Strike",
            "character": "GE",
            "kind": "attack",
            "spd": draw(st.integers(0, 9)),
            "front": draw(st.integers(0, 5)),
            "back": draw(st.integers(0, 5)),
            "atk": draw(st.integers(0, 10)),
            "cost": draw(st.integers(0, 4)),
            "gain": draw(st.integers(0, 2)),
        }
    )
    name = draw(st.sampled_from(sorted(data["decks"])))
    cards = data["decks"][name]["cards"]
    cards["GE01"] -= 1
    cards["GE09"] = 1
    data["chosen"] = name
    return data


@SETTINGS
@given(data=maken_edits(), seed=st.integers(0, 2**31))
def test_random_maken_sets_keep_the_invariants(data: dict[str, Any], seed: int) -> None:
    chosen = data.pop("chosen")
    other = "GA" if chosen != "GA" else "SO"
    _play("maken", data, [chosen, other], seed)

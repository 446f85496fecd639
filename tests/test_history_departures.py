"""The match history says how a match departs from its game's standard rules: each listed
match (``GET /api/matches`` and ``GET /api/matches/{id}``) carries ``departures`` computed from
its stored config (a Kōbō opening switch, a designer's card set of Kōbō or Maken, a TWGP rule
switch), none for a standard match, and never a word of a secret TWGP build; on an SQLite store
and on a PostgreSQL one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import httpx2
import pytest

from kessen.engine import card_sets, registry
from kessen.engine.contract import Json
from kessen.engine.replay import Replay
from kessen.server.run import running
from kessen.store.records import MatchStore, NewMatch
from tests.conftest import BACKENDS, new_store_target

T0 = datetime(2024, 7, 1, 9, 0).timestamp()
BUILD = {"vitals": ["s10", "c10", "sk"], "hand": ["sa"], "aside": ["s9", "c9", "s8"]}
"""Seat 0's fixed build in the match between two people: its player's secret."""


@dataclass
class Listed:
    """The server URL, its store, and the id of each stored match by name."""

    url: str
    store: MatchStore
    ids: dict[str, int]


def add(store: MatchStore, ruleset: str, config: Json, created: float, **players: str) -> int:
    """A match of ``ruleset`` under ``config``, recorded at its start."""
    state = registry.get(ruleset).new_game(config, 7)
    return store.add_match(
        NewMatch(
            replay=Replay.start(state, config, 7),
            players={"0": players.get("p0", "heuristic"), "1": players.get("p1", "random")},
            source="sim",
            created=created,
        )
    )


@pytest.fixture(scope="module", params=BACKENDS)
def listed(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Listed]:
    tmp = tmp_path_factory.mktemp("departures")
    target = new_store_target(request.param, request, tmp)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(card_sets.CACHE_ENV, str(tmp / "set-cache"))
        store = MatchStore(target)
        kobo_set = str(store.card_sets().derive("balance-2", "kobo", "v3").ref)
        maken_set = str(store.card_sets().derive("調整案 A", "maken", "shipped").ref)
        decks = {"decks": ["swarm", "tempo"]}
        configs: dict[str, tuple[str, Json]] = {
            "kobo": ("kobo", decks),
            "kobo_opening": ("kobo", {**decks, "second_tactics": 9, "pass_penalty": "none"}),
            "kobo_set": ("kobo", {**decks, "card_set": kobo_set}),
            "twgp": ("twgp", {}),
            "twgp_switch": ("twgp", {"variantA": True, "gridWidth": 3}),
            "maken": ("maken", {"decks": ["SO", "GA"]}),
            "maken_set": ("maken", {"decks": ["SO", "GA"], "card_set": maken_set}),
        }
        ids = {
            name: add(store, ruleset, config, T0 + i * 60)
            for i, (name, (ruleset, config)) in enumerate(configs.items())
        }
        secret = {"builds": [BUILD, None], "weaponCache": True}
        ids["twgp_secret"] = add(store, "twgp", secret, T0 + 3600, p0="human", p1="human")
        with running(pace=0.0, store=store) as url:
            yield Listed(url, store, ids)
        store.close()


def listing(listed: Listed) -> dict[int, Json]:
    response = httpx2.get(f"{listed.url}/api/matches", params={"limit": 50}, timeout=30)
    assert response.status_code == 200, response.text
    return {m["id"]: m for m in response.json()["matches"]}


def labels(match: Json) -> list[tuple[str, Any]]:
    return [(d["code"], d.get("key", d.get("name"))) for d in match["departures"]]


def test_a_standard_match_lists_no_departures(listed: Listed) -> None:
    found = listing(listed)
    for name in ("kobo", "twgp", "maken"):
        assert found[listed.ids[name]]["departures"] == [], name


def test_each_departure_is_listed_with_its_names(listed: Listed) -> None:
    found = listing(listed)
    opening = found[listed.ids["kobo_opening"]]["departures"]
    assert labels({"departures": opening}) == [
        ("opening", "second_tactics"),
        ("opening", "pass_penalty"),
    ]
    assert opening[0]["name_ja"] == "後攻の戦術手札" and opening[0]["value_en"] == "9 cards"
    kobo_set = found[listed.ids["kobo_set"]]["departures"]
    ref = listed.store.get(listed.ids["kobo_set"]).config["card_set"]
    assert kobo_set == [{"code": "card_set", "name": "balance-2", "ref": ref}]
    assert labels(found[listed.ids["maken_set"]]) == [("card_set", "調整案 A")]
    switch = found[listed.ids["twgp_switch"]]
    assert labels(switch) == [("switch", "gridWidth"), ("switch", "variantA")]
    assert switch["departures"][1]["name_en"] == "Variant A"
    # A match's own answer carries the same listing.
    for name in ("kobo", "kobo_opening", "twgp_switch"):
        match_id = listed.ids[name]
        one = httpx2.get(f"{listed.url}/api/matches/{match_id}", timeout=30).json()["match"]
        assert one["departures"] == found[match_id]["departures"], name


def test_a_secret_build_stays_secret_beside_the_rules(listed: Listed) -> None:
    match = listing(listed)[listed.ids["twgp_secret"]]
    assert labels(match) == [("switch", "weaponCache")]
    assert "seed" not in match  # the seed deals the secret build's pile
    text = json.dumps(match["departures"])
    assert not any(slug in text for part in BUILD.values() for slug in part)


def test_the_store_reads_the_configs_of_a_page_in_one_go(listed: Listed) -> None:
    ids = list(listed.ids.values())
    configs = listed.store.configs([*ids, 999_999])
    assert set(configs) == set(ids)  # an unknown id is left out
    assert configs[listed.ids["twgp_switch"]] == {"variantA": True, "gridWidth": 3}
    assert listed.store.configs([]) == {}

"""TWGP's builds in the deck builder's API: the config's own build rule as the live check, build
files in and out, saved builds that survive a restart, and games started from saved builds
(for either seat, never shown to the other seat, refused when they cannot be played)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kessen.games.kobo.decks import deck_to_json, starter_decks
from kessen.games.twgp.build_book import from_toml, to_toml
from kessen.games.twgp.build_rules import build_problems
from kessen.games.twgp.cards import CARDS
from kessen.games.twgp.config import ConfigError, parse_config
from kessen.games.twgp.state import ASIDE, HAND, PHASE_NAMES, TwgpState
from kessen.server.app import create_app
from kessen.server.hub import Hub
from kessen.store import MatchStore
from tests.test_leak_oracle import hidden_twgp

BASE = "http://127.0.0.1"


def build(**changes: Any) -> dict[str, Any]:
    """A valid build of seat 0's pool: three tens... and a few low units in hand."""
    return {
        "name": "Tens",
        "jokers": False,
        "vitals": ["s10", "c10", "sk"],
        "hand": ["sa", "c2", "s3"],
        "aside": ["s9", "c9", "s8"],
        **changes,
    }


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "store.sqlite3"


@pytest.fixture
def app_and_http(store_path: Path) -> Iterator[tuple[Hub, TestClient]]:
    with MatchStore(store_path) as store:
        app = create_app(0.0, store)
        with TestClient(app, base_url=BASE) as client:
            yield app.state.hub, client


@pytest.fixture
def http(app_and_http: tuple[Hub, TestClient]) -> TestClient:
    return app_and_http[1]


def check(http: TestClient, deck: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    answer = http.post("/api/decks/twgp/check", json={"deck": deck, "lang": lang})
    assert answer.status_code == 200
    result: dict[str, Any] = answer.json()
    return result


def test_a_valid_build_has_no_problems_and_comes_back_normalised(http: TestClient) -> None:
    assert check(http, build()) == {"deck": build(), "problems": []}
    hearts = {"vitals": ["h10", "d10", "hk"], "hand": ["ha"], "aside": ["h9", "d9", "h8"]}
    answer = check(http, hearts)
    assert answer["problems"] == []
    assert answer["deck"] == build(name="", hand=["sa"])


def test_the_check_is_the_configs_own_rule_in_the_players_language(http: TestClient) -> None:
    bad = build(vitals=["s10", "c10"], hand=["sa", "s2", "s3", "s4", "s5", "s6", "s7"])
    en = check(http, bad)["problems"]
    ja = check(http, bad, "ja")["problems"]
    engine = build_problems(0, False, bad["vitals"], bad["hand"], bad["aside"], None)
    assert [p["code"] for p in en] == [p.code for p in engine] == ["vitals", "hand", "deck"]
    assert [p["section"] for p in en] == ["vitals", "hand", "deck"]
    assert en[0]["text"] == "vitals: expected 3 cards (2 given)"
    assert en[1]["params"] == {"cards": [], "count": 7, "need": 6}
    assert ja[0]["text"] == "ヴァイタルは3枚です（いま2枚）。"
    assert ja[2]["text"] == "山札は初期手札を含めて20枚です（いま21枚）。"
    with pytest.raises(ConfigError, match=r"builds\[0\]\.vitals: expected 3 cards \(2 given\)"):
        parse_config({"builds": [{k: bad[k] for k in ("vitals", "hand", "aside")}, None]})
    twice = check(http, build(hand=["sa", "s10"]))["problems"]
    assert [p["code"] for p in twice] == ["twice"]
    assert twice[0]["slug"] == "s10" and twice[0]["text"] == "a card is named twice: ♠10"
    mixed = check(http, build(hand=["ha"]))["problems"]
    assert [p["code"] for p in mixed] == ["foreign"] and "♥A" in mixed[0]["text"]


def test_the_joker_belongs_to_builds_for_games_with_jokers(http: TestClient) -> None:
    off = check(http, build(aside=["s9", "c9", "joker-b"]))["problems"]
    assert off[0]["code"] == "joker-off"
    assert "jokers switch" in off[0]["text"]
    on = check(http, build(jokers=True))["problems"]
    assert [(p["code"], p["params"]["count"], p["params"]["need"]) for p in on] == [
        ("aside", 3, 4),
        ("deck", 21, 20),
    ]
    assert check(http, build(jokers=True, aside=["s9", "c9", "s8", "joker-b"]))["problems"] == []


def test_a_malformed_build_is_named_not_crashed_on(http: TestClient) -> None:
    answer = check(http, {"vitals": "s10", "hand": ["zz"], "colour": 1})
    assert answer["deck"] is None
    texts = [p["text"] for p in answer["problems"]]
    assert texts == [
        "unknown key 'colour'",
        "vitals: expected a list of card slugs",
        "hand[0]: no card 'zz' in the pack",
    ]
    assert (
        http.post("/api/decks/twgp", json={"name": "x", "deck": {"vitals": 1}}).status_code == 422
    )


def test_build_files_in_and_out(http: TestClient) -> None:
    mine = build(name='Tens "and" ♠', jokers=True, aside=["s9", "c9", "s8", "joker-b"])
    exported = http.post("/api/decks/twgp/export", json={"deck": mine})
    assert exported.status_code == 200
    assert exported.headers["content-disposition"] == 'attachment; filename="build.toml"'
    text = exported.text
    assert 'vitals = ["s10", "c10", "sk"]' in text and "jokers = true" in text
    assert from_toml(text) == mine == from_toml(to_toml(mine))
    back = http.post("/api/decks/twgp/import", json={"toml": text}).json()
    assert back == {"deck": mine, "problems": []}
    broken = http.post(
        "/api/decks/twgp/import", json={"toml": text.replace("jokers = true", "jokers =")}
    )
    assert broken.status_code == 422
    line = broken.json()["detail"]["problems"][0]
    assert line.startswith("build file:") and "line 5" in line
    unknown = http.post("/api/decks/twgp/import", json={"toml": text.replace('"sk"', '"sx"')})
    assert unknown.json()["detail"]["problems"] == [
        "build file: vitals[2]: no card 'sx' in the pack"
    ]


def test_a_saved_build_survives_a_server_restart(store_path: Path) -> None:
    with MatchStore(store_path) as store, TestClient(create_app(0.0, store), base_url=BASE) as c:
        assert c.post("/api/decks/twgp", json={"name": "Kept", "deck": build()}).status_code == 200
        c.post(
            "/api/decks/kobo", json={"name": "Kōbō", "deck": deck_to_json(starter_decks()["swarm"])}
        )
    with MatchStore(store_path) as store, TestClient(create_app(0.0, store), base_url=BASE) as c:
        decks = c.get("/api/decks/twgp").json()["decks"]
    assert [(d["name"], d["deck"], d["problems"]) for d in decks] == [("Kept", build(), [])]


def _slugs(cards: list[int]) -> list[str]:
    return [CARDS[c].slug for c in cards]


def test_a_game_from_saved_builds_for_both_seats(app_and_http: tuple[Hub, TestClient]) -> None:
    hub, http = app_and_http
    mine = http.post("/api/decks/twgp", json={"name": "Mine", "deck": build()}).json()
    other = build(vitals=["s2", "c2", "cq"], hand=[], aside=["sj", "cj", "sq"])
    com = http.post("/api/decks/twgp", json={"name": "COM", "deck": other}).json()
    answer = http.post(
        "/api/games",
        json={
            "ruleset": "twgp",
            "config": {"builds": [{"saved": mine["id"]}, {"saved": com["id"]}], "firstPlayer": 0},
            "seed": 4,
        },
    )
    assert answer.status_code == 200, answer.text
    session = hub.sessions[answer.json()["id"]]
    state = session.state_at(0)
    assert isinstance(state, TwgpState) and PHASE_NAMES[state.phase] != "setup"
    assert _slugs(state.vitals[:3]) == ["s10", "c10", "sk"]
    assert sorted(_slugs(state.zone(0, HAND))) == sorted(["sa", "c2", "s3"])
    assert _slugs(state.zone(0, ASIDE)) == ["s9", "c9", "s8"]
    # Seat 1 plays the same build in its own suits (♠→♥, ♣→♦).
    assert _slugs(state.vitals[3:]) == ["h2", "d2", "dq"]
    assert state.zone(1, HAND) == [] and _slugs(state.zone(1, ASIDE)) == ["hj", "dj", "hq"]
    # The other seat sees none of seat 0's secret build (the leak oracle's truth).
    secret = {"s10", "c10", "sk", "sa", "c2", "s3", "s9", "c9", "s8"}
    assert secret <= hidden_twgp(state, 1)
    seen = json.dumps(session.view_for(1, "en", False), ensure_ascii=False)
    assert not [slug for slug in secret if f'"{slug}"' in seen]
    assert "builds" not in seen
    assert '"s10"' in json.dumps(session.view_for(0, "en", False))


def test_builds_that_cannot_be_played_are_refused(http: TestClient) -> None:
    wip = http.post("/api/decks/twgp", json={"name": "WIP", "deck": build(hand=[])}).json()
    wip = http.put(f"/api/decks/twgp/{wip['id']}", json={"deck": build(vitals=["s10"])}).json()
    refused = http.post(
        "/api/games", json={"ruleset": "twgp", "config": {"builds": [{"saved": wip["id"]}, None]}}
    )
    assert refused.status_code == 422
    assert "builds[0].vitals: expected 3 cards (1 given)" in refused.text
    good = http.post("/api/decks/twgp", json={"name": "Good", "deck": build()}).json()
    jokers = http.post(
        "/api/games",
        json={
            "ruleset": "twgp",
            "config": {"jokers": True, "builds": [None, {"saved": good["id"]}]},
        },
    )
    assert jokers.status_code == 422
    assert "builds[1]: saved deck 'Good': it is a build without jokers (26 cards)" in jokers.text
    kobo = http.post(
        "/api/decks/kobo", json={"name": "K", "deck": deck_to_json(starter_decks()["swarm"])}
    )
    foreign = http.post(
        "/api/games",
        json={"ruleset": "twgp", "config": {"builds": [{"saved": kobo.json()["id"]}, None]}},
    )
    assert foreign.status_code == 422 and f"no saved twgp deck {kobo.json()['id']}" in foreign.text
    back = http.post(
        "/api/games", json={"ruleset": "kobo", "decks": [{"saved": good["id"]}, "swarm"]}
    )
    assert back.status_code == 422 and "no saved kobo deck" in back.text
    assert (
        http.post(
            "/api/games",
            json={"ruleset": "twgp", "config": {"builds": [{"saved": good["id"]}, None]}},
        ).status_code
        == 200
    )


def test_between_two_people_the_creator_fixes_only_their_own_build(http: TestClient) -> None:
    """A build is hidden information: the creator of a match between two people may not
    choose (and so know) the other player's; the other seat builds in the game."""
    good = http.post("/api/decks/twgp", json={"name": "Good", "deck": build()}).json()
    for theirs in ({"saved": good["id"]}, {"vitals": ["h10", "d10", "hK"], "hand": []}):
        refused = http.post(
            "/api/games",
            json={"ruleset": "twgp", "mode": "vs_human", "config": {"builds": [None, theirs]}},
        )
        assert refused.status_code == 422
        assert "builds[1]: in a match between two people the other player makes" in refused.text
    mine = http.post(
        "/api/games",
        json={
            "ruleset": "twgp",
            "mode": "vs_human",
            "config": {"builds": [{"saved": good["id"]}, None]},
        },
    )
    assert mine.status_code == 200 and "invite" in mine.json()
    # Against COM either seat's build may be fixed, as before.
    com = http.post(
        "/api/games",
        json={"ruleset": "twgp", "config": {"builds": [None, {"saved": good["id"]}]}},
    )
    assert com.status_code == 200


def test_a_server_on_the_network_keeps_its_saved_decks_to_its_own_machine(
    store_path: Path,
) -> None:
    """Served to other machines (``kessen play --host 0.0.0.0``), the saved decks answer only
    this machine's browser: a friend on another machine can neither read the host's secret
    builds nor change or play anyone's saved decks; checking, import and export still work."""
    with MatchStore(store_path) as store:
        app = create_app(pace=0.0, store=store, host="0.0.0.0", port=8765)
        base = "http://192.168.1.10:8765"
        with (
            TestClient(app, base_url=base, client=("127.0.0.1", 50000)) as local,
            TestClient(app, base_url=base, client=("192.168.1.20", 50000)) as friend,
        ):
            assert local.get("/api/meta").json()["saved_decks"] is True
            assert friend.get("/api/meta").json()["saved_decks"] is False
            saved = local.post("/api/decks/twgp", json={"name": "Mine", "deck": build()})
            assert saved.status_code == 200
            deck_id = saved.json()["id"]
            refused = [
                friend.get("/api/decks/twgp"),
                friend.post("/api/decks/twgp", json={"name": "X", "deck": build()}),
                friend.put(f"/api/decks/twgp/{deck_id}", json={"name": "Gone"}),
                friend.post(f"/api/decks/twgp/{deck_id}/copy", json={"name": "Copy"}),
                friend.delete(f"/api/decks/twgp/{deck_id}"),
                friend.post(
                    "/api/games",
                    json={"ruleset": "twgp", "config": {"builds": [{"saved": deck_id}, None]}},
                ),
            ]
            for answer in refused:
                assert answer.status_code == 403, answer.text
                assert "saved decks belong to the player at the machine" in answer.text
                assert "s10" not in answer.text and "Mine" not in answer.text
            assert friend.post("/api/decks/twgp/check", json={"deck": build()}).status_code == 200
            assert friend.post("/api/games", json={"ruleset": "twgp"}).status_code == 200
            mine = local.get("/api/decks/twgp").json()["decks"]
            assert [d["name"] for d in mine] == ["Mine"]  # nothing changed

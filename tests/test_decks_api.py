"""The deck builder's API: live checks from the engine's deck rules, saved decks that survive a
restart (kept in an SQLite store and in a PostgreSQL one), deck files in and out, and no
invalid deck in a game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kessen.games.kobo.deck_rules import deck_problems
from kessen.games.kobo.decks import deck_to_json, starter_decks
from kessen.games.kobo.schema import load_pool
from kessen.server.app import create_app
from kessen.store import MatchStore

BASE = "http://127.0.0.1"


def starter(name: str = "swarm") -> dict[str, Any]:
    return deck_to_json(starter_decks()[name])


def short_deck() -> dict[str, Any]:
    """Swarm with a third battle-cry in place of its covering-fire: 20 cards, one copy too many."""
    deck = starter()
    deck["main"] = {**deck["main"], "covering-fire": 0, "battle-cry": 3}
    del deck["main"]["covering-fire"]
    return deck


@pytest.fixture
def store_path(store_target: str) -> str:
    return store_target


@pytest.fixture
def http(store_path: str) -> Iterator[TestClient]:
    with MatchStore(store_path) as store, TestClient(create_app(0.0, store), base_url=BASE) as c:
        yield c


def test_the_check_is_the_engines_deck_rule_in_the_players_language(http: TestClient) -> None:
    ok = http.post("/api/decks/kobo/check", json={"deck": starter()}).json()
    assert ok == {"deck": starter(), "problems": []}
    deck = short_deck()
    ja = http.post("/api/decks/kobo/check", json={"deck": deck}).json()["problems"]
    en = http.post("/api/decks/kobo/check", json={"deck": deck, "lang": "en"}).json()["problems"]
    engine = deck_problems(tuple(deck["main"].items()), tuple(deck["tactics"].items()), load_pool())
    assert [p["code"] for p in ja] == [p.code for p in engine] == ["copies"]
    assert en[0]["text"] == engine[0].text("en")
    assert "3 copies of 'battle-cry'" in en[0]["text"]
    assert ja[0]["text"] == "メインデッキ：「鬨の声」が3枚あります。同じカードは2枚までです。"
    deck["main"]["battle-cry"] = 1
    sizes = http.post("/api/decks/kobo/check", json={"deck": deck, "lang": "en"}).json()
    assert [p["text"] for p in sizes["problems"]] == [
        "main deck has 18 cards; it must hold exactly 20"
    ]


def test_a_malformed_deck_is_named_not_crashed_on(http: TestClient) -> None:
    bad = {**starter(), "main": {"oni-warlord": "two"}, "slug": "Not A Slug"}
    answer = http.post("/api/decks/kobo/check", json={"deck": bad, "lang": "en"}).json()
    assert answer["deck"] is None
    texts = " | ".join(p["text"] for p in answer["problems"])
    assert "slug" in texts and "main.oni-warlord" in texts
    refused = http.post("/api/decks/kobo", json={"name": "x", "deck": bad})
    assert refused.status_code == 422
    assert http.get("/api/decks/kobo").json() == {"decks": []}
    assert http.post("/api/decks/maken/check", json={"deck": starter()}).status_code == 404
    assert http.post("/api/decks/nope/check", json={"deck": starter()}).status_code == 404


def test_save_rename_copy_delete(http: TestClient) -> None:
    saved = http.post("/api/decks/kobo", json={"name": "  My   swarm ", "deck": starter()}).json()
    assert saved["name"] == "My swarm" and saved["deck"] == starter()
    wip = http.post("/api/decks/kobo", json={"name": "WIP", "deck": short_deck()}).json()
    listed = http.get("/api/decks/kobo", params={"lang": "en"}).json()["decks"]
    assert [(d["name"], len(d["problems"])) for d in listed] == [("My swarm", 0), ("WIP", 1)]
    renamed = http.put(f"/api/decks/kobo/{saved['id']}", json={"name": "Night parade"}).json()
    assert renamed["name"] == "Night parade" and renamed["deck"] == starter()
    copied = http.post(f"/api/decks/kobo/{saved['id']}/copy", json={"name": "Copy"}).json()
    assert copied["id"] not in (saved["id"], wip["id"]) and copied["deck"] == starter()
    fixed = http.put(f"/api/decks/kobo/{wip['id']}", json={"deck": starter("tempo")}).json()
    assert fixed["deck"] == starter("tempo") and fixed["name"] == "WIP"
    assert http.delete(f"/api/decks/kobo/{copied['id']}").json() == {"deleted": copied["id"]}
    assert http.delete(f"/api/decks/kobo/{copied['id']}").status_code == 404
    names = [d["name"] for d in http.get("/api/decks/kobo").json()["decks"]]
    assert names == ["Night parade", "WIP"]
    assert http.post("/api/decks/kobo", json={"name": "   ", "deck": starter()}).status_code == 422
    too_long = http.post("/api/decks/kobo", json={"name": "x" * 61, "deck": starter()})
    assert too_long.status_code == 422


def test_a_saved_deck_survives_a_server_restart(store_path: str) -> None:
    with MatchStore(store_path) as store, TestClient(create_app(0.0, store), base_url=BASE) as c:
        c.post("/api/decks/kobo", json={"name": "Kept", "deck": starter("fortress")})
    with MatchStore(store_path) as store, TestClient(create_app(0.0, store), base_url=BASE) as c:
        decks = c.get("/api/decks/kobo").json()["decks"]
    assert [(d["name"], d["deck"]) for d in decks] == [("Kept", starter("fortress"))]


def test_deck_files_in_and_out(http: TestClient) -> None:
    exported = http.post("/api/decks/kobo/export", json={"deck": starter("vanguard")})
    assert exported.headers["content-disposition"] == 'attachment; filename="vanguard.toml"'
    text = exported.text
    assert text.startswith('slug = "vanguard"\nname_ja = "先鋒突撃"')
    back = http.post("/api/decks/kobo/import", json={"toml": text}).json()
    assert back == {"deck": starter("vanguard"), "problems": []}
    broken = http.post("/api/decks/kobo/import", json={"toml": text.replace("= 2\n", "= \n", 1)})
    assert broken.status_code == 422
    assert "deck file:" in broken.json()["detail"]["problems"][0]
    unknown = http.post("/api/decks/kobo/import", json={"toml": text.replace("oni-", "onni-")})
    assert "did you mean oni-warlord" in unknown.json()["detail"]["problems"][0]


def test_an_invalid_deck_cannot_start_a_game(http: TestClient) -> None:
    answer = http.post(
        "/api/games", json={"ruleset": "kobo", "config": {"decks": [short_deck(), "swarm"]}}
    )
    assert answer.status_code == 422
    assert "decks[0] (swarm): main deck: 3 copies of 'battle-cry'" in answer.text
    good = http.post(
        "/api/games", json={"ruleset": "kobo", "config": {"decks": [starter("tempo"), "swarm"]}}
    )
    assert good.status_code == 200


def test_without_a_store_decks_are_checked_but_not_kept() -> None:
    with TestClient(create_app(0.0), base_url=BASE) as c:
        assert c.post("/api/decks/kobo/check", json={"deck": starter()}).status_code == 200
        assert c.get("/api/decks/kobo").status_code == 503
        assert c.post("/api/decks/kobo", json={"name": "x", "deck": starter()}).status_code == 503

"""The design screen's HTTP API: card sets listed, derived, checked, saved (every problem by
field, 422, nothing saved), previewed, exported, imported, compared and deleted; a new game
played with a set; and a client of another machine refused (403) on every route."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kessen.engine import card_sets
from kessen.server.app import create_app
from kessen.store import MatchStore

BASE = "http://192.168.1.10:8765"
NAMED = "/api/design/sets/mine"
ROUTES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/api/design/sets", None),
    ("POST", "/api/design/sets", {"name": "x", "ruleset": "kobo", "from": "v3"}),
    ("GET", "/api/design/games/kobo/parents", None),
    ("GET", "/api/design/games/kobo/shipped/v3", None),
    ("POST", "/api/design/games/kobo/check", {"data": {}}),
    ("POST", "/api/design/games/kobo/preview", {"card": {"slug": "x"}}),
    ("GET", "/api/design/games/kobo/form", None),
    ("GET", NAMED, None),
    ("PUT", NAMED, {"data": {}}),
    ("DELETE", NAMED, None),
    ("GET", f"{NAMED}/export", None),
    ("POST", "/api/design/sets/import", {"name": "x", "toml": "", "ruleset": "kobo"}),
    ("GET", "/api/design/diff?a=v3&b=mine", None),
]
"""Every design route, with a body it accepts."""


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(card_sets.CACHE_ENV, str(tmp_path / "set-cache"))
    yield


@pytest.fixture
def clients(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient, MatchStore]]:
    """A server that serves the network: a client of its own machine and one of another."""
    with MatchStore(tmp_path / "m.sqlite3") as store:
        app = create_app(pace=0.0, store=store, host="0.0.0.0", port=8765)
        with (
            TestClient(app, base_url=BASE, client=("127.0.0.1", 50000)) as local,
            TestClient(app, base_url=BASE, client=("192.168.1.20", 50000)) as friend,
        ):
            yield local, friend, store


def _call(client: TestClient, method: str, url: str, body: dict[str, Any] | None) -> Any:
    return client.request(method, url, json=body)


def test_a_client_of_another_machine_gets_403_on_every_design_route(
    clients: tuple[TestClient, TestClient, MatchStore],
) -> None:
    local, friend, store = clients
    assert local.post("/api/design/sets", json={"name": "mine", "from": "v3"}).status_code == 200
    routes = {(method, path.split("?")[0]) for method, path, _ in ROUTES}
    paths = local.app.openapi()["paths"]  # type: ignore[attr-defined]
    served = {
        (method.upper(), path.replace("{name}", "mine").replace("{ruleset}", "kobo"))
        for path, methods in paths.items()
        if path.startswith("/api/design")
        for method in methods
    }
    served = {(m, p.replace("{label}", "v3")) for m, p in served}
    assert served == routes  # ROUTES covers every design route the server has
    for method, url, body in ROUTES:
        answer = _call(friend, method, url, body)
        assert answer.status_code == 403, (method, url, answer.text)
        assert "not served to other machines" in answer.text
    game = {"ruleset": "kobo", "mode": "vs_com", "config": {"card_set": "mine"}}
    assert friend.post("/api/games", json=game).status_code == 403
    assert store.card_sets().info("mine").revisions == 1  # nothing changed


def test_derive_check_save_preview_export_import_diff_delete(
    clients: tuple[TestClient, TestClient, MatchStore],
) -> None:
    local, _, store = clients
    assert local.get("/api/design/games/kobo/parents").json() == {"parents": ["v3", "v2", "v1"]}
    assert local.get("/api/design/games/maken/parents").json() == {"parents": ["shipped"]}
    assert local.get("/api/design/games/twgp/parents").status_code == 404
    made = local.post("/api/design/sets", json={"name": "mine", "ruleset": "kobo", "from": "v3"})
    assert made.status_code == 200
    body = made.json()
    assert body["revisions"] == 1 and body["ref"].startswith("mine@")
    data = body["data"]
    assert [s["name"] for s in local.get("/api/design/sets").json()["sets"]] == ["mine"]
    taken = local.post("/api/design/sets", json={"name": "mine", "from": "v3"})
    assert taken.status_code == 422
    assert taken.json()["detail"]["problems"][0]["path"] == "name"
    # The checks: every problem by field, in both languages; nothing is saved.
    data["cards"][0]["lv"] = 10
    data["decks"][1]["tactics"]["weaken"] = 5
    checked = local.post("/api/design/games/kobo/check", json={"data": data}).json()
    paths = {p["path"] for p in checked["problems"]}
    assert "cards[0].lv" in paths and "decks[1].tactics.weaken" in paths
    refused = local.put("/api/design/sets/mine", json={"data": data})
    assert refused.status_code == 422
    problems = refused.json()["detail"]["problems"]
    assert {"path": "cards[0].lv", "en": "Input should be less than or equal to 9",
            "ja": "9以下にしてください"} in problems  # fmt: skip
    assert store.card_sets().info("mine").revisions == 1
    data = local.get("/api/design/sets/mine").json()["data"]
    data["cards"][0]["lv"] = 5
    saved = local.put("/api/design/sets/mine", json={"data": data, "note": "stronger"})
    assert saved.status_code == 200, saved.text
    assert saved.json()["revisions"] == 2
    assert saved.json()["changes"][0]["text"]["ja"] == "カード ashigaru-recruit：lv 4 → 5"
    # A draft card's text, no save.
    draft = {"slug": "new-card", "kind": "tactic", "name_ja": "新", "name_en": "New",
             "target": {"side": "own", "scope": "chosen"},
             "steps": [{"verb": "modify_lv", "amount": 2}]}  # fmt: skip
    preview = local.post("/api/design/games/kobo/preview", json={"card": draft}).json()
    assert preview["problems"] == [] and "Lvを、この攻防の間だけ2上げる" in preview["text"]["ja"]
    assert preview["text"]["en"].endswith("+2 Lv until the end of this exchange.")
    draft["steps"] = [{"verb": "draw", "amount": 1}]
    bad = local.post("/api/design/games/kobo/preview", json={"card": draft}).json()
    assert bad["text"] is None and bad["problems"][0]["path"] == "steps[0].verb"
    # Export and import (a new set from the file; the same data: no new revision).
    exported = local.get("/api/design/sets/mine/export")
    assert exported.status_code == 200 and exported.text.startswith("# Kessen card set")
    again = local.post(
        "/api/design/sets/import", json={"name": "mine", "toml": exported.text}
    ).json()
    assert again["new"] is False and again["changes"] == [] and again["revisions"] == 2
    copy = local.post(
        "/api/design/sets/import",
        json={"name": "copy", "toml": exported.text, "ruleset": "kobo", "from": "v3"},
    ).json()
    assert copy["new"] is True and copy["head"] == saved.json()["head"]
    broken = local.post(
        "/api/design/sets/import",
        json={"name": "x", "toml": "version = [", "ruleset": "kobo"},
    )
    assert broken.status_code == 422 and "TOML" in broken.json()["detail"]["problems"][0]["ja"]
    changes = local.get("/api/design/diff", params={"a": "v3", "b": "mine"}).json()["changes"]
    assert [c["text"]["en"] for c in changes] == ["card ashigaru-recruit: lv 4 → 5"]
    # A game played with the set (named by its name: pinned to its revision).
    game = local.post(
        "/api/games",
        json={"ruleset": "kobo", "mode": "vs_com", "config": {"card_set": "mine"}},
    )
    assert game.status_code == 200, game.text
    record = store.list_matches()[0]
    assert store.get(record.id).config["card_set"] == saved.json()["ref"]
    unknown = local.post(
        "/api/games", json={"ruleset": "kobo", "mode": "vs_com", "config": {"card_set": "nope"}}
    )
    assert unknown.status_code == 422
    assert unknown.json()["detail"]["problems"][0]["ja"] == "カードセット「nope」はありません"
    assert local.delete("/api/design/sets/copy").json()["deleted"] == "copy"
    assert local.get("/api/design/sets/copy").status_code == 404


def test_without_a_store_the_design_routes_answer_503() -> None:
    app = create_app(pace=0.0)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get("/api/design/sets").status_code == 503
        assert client.post("/api/design/sets", json={"name": "x"}).status_code == 503
        preview = client.post("/api/design/games/maken/preview", json={"card": {"id": "SO01"}})
        assert preview.status_code == 200 and preview.json()["text"] is None


def test_a_match_on_a_set_reads_the_sets_cards_from_the_catalogue(
    clients: tuple[TestClient, TestClient, MatchStore],
) -> None:
    local, friend, _ = clients
    local.post("/api/design/sets", json={"name": "renamed", "ruleset": "kobo", "from": "v3"})
    data = local.get("/api/design/sets/renamed").json()["data"]
    data["cards"][0]["name_ja"] = "古参足軽"
    data["cards"][0]["lv"] = 6
    ref = local.put("/api/design/sets/renamed", json={"data": data}).json()["ref"]
    slug = data["cards"][0]["slug"]
    shipped = local.get("/api/catalog/kobo", params={"lang": "ja"}).json()["cards"][slug]
    assert shipped["name"] == "見習い足軽"
    # The set a match names is public, like its deck lists: any seat (a friend's too) reads it.
    for client in (local, friend):
        designed = client.get("/api/catalog/kobo", params={"lang": "ja", "set": ref}).json()
        assert designed["card_set"] == ref and designed["cards"][slug]["name"] == "古参足軽"
    unknown = local.get("/api/catalog/kobo", params={"lang": "ja", "set": "nope@" + "0" * 64})
    assert unknown.status_code == 404 and "nope" in unknown.json()["detail"]
    assert local.get("/api/catalog/kobo", params={"set": "x" * 201}).status_code == 422

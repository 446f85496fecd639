"""``POST /api/tutorial``: the server deals Kōbō's guided match and records it as a tutorial.

Over a real server with a store: the answer opens seat 0 of a vs-COM session whose deal is the
tutorial's (its config and seed, never the client's) and whose COM is the scripted
``tutorial`` level; the start screen's COM levels do not offer that level; the record's
listing says ``tutorial`` and names that COM; the player's views show nothing of COM's hand;
and a request that tries to choose the deal is refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from websockets.sync.client import connect
from websockets.typing import Origin

from kessen.games.kobo.tutorial import TUTORIAL_LEVEL, TUTORIAL_SEED, tutorial_config
from kessen.server.run import running
from kessen.store.records import MatchStore


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[tuple[str, MatchStore]]:
    with MatchStore(tmp_path / "m.sqlite3") as store, running(pace=0.0, store=store) as url:
        yield url, store


def first_view(url: str, game: str, token: str) -> dict[str, Any]:
    ws_url = url.replace("http", "ws") + f"/ws/{game}?token={token}"
    with connect(ws_url, origin=Origin(url)) as ws:
        while True:
            message = json.loads(ws.recv(timeout=20))
            assert message["type"] != "error", message
            if message["type"] == "state":
                view: dict[str, Any] = message["view"]
                return view


def test_the_server_deals_the_guided_match(server: tuple[str, MatchStore]) -> None:
    url, store = server
    meta = httpx2.get(f"{url}/api/meta", timeout=10).json()
    assert TUTORIAL_LEVEL not in meta["rulesets"]["kobo"]["com_levels"]
    assert "heuristic" in meta["rulesets"]["kobo"]["com_levels"]

    answer = httpx2.post(f"{url}/api/tutorial", timeout=20).json()
    assert answer["seat"] == 0 and answer["tutorial"] is True
    listed = httpx2.get(f"{url}/api/matches", timeout=10).json()["matches"]
    assert len(listed) == 1
    match = listed[0]
    assert match["tutorial"] is True and match["open_deal"] is False
    assert match["players"] == {"0": "human", "1": TUTORIAL_LEVEL}
    assert "seed" not in match  # an open match hides its seed, the tutorial's too
    record = store.get(match["id"])
    assert record.info.seed == TUTORIAL_SEED
    assert record.meta["tutorial"] is True
    assert record.config["best_of"] == 1
    assert record.config["decks"] == tutorial_config()["decks"]

    view = first_view(url, answer["id"], answer["token"])
    assert view["session"]["com"] == {"1": TUTORIAL_LEVEL}
    assert view["pending"]["seat"] == 0 and view["pending"]["prompt"] == "standby"
    assert view["players"][1]["hand"]["cards"] is None
    assert view["players"][1]["tactics_hand"]["cards"] is None


def test_a_client_cannot_choose_the_deal(server: tuple[str, MatchStore]) -> None:
    url, _ = server
    for body in ({"seed": 1}, {"config": {"decks": ["fortress", "swarm"]}}, {"pace": -1}):
        answer = httpx2.post(f"{url}/api/tutorial", json=body, timeout=10)
        assert answer.status_code == 422, body
    assert httpx2.get(f"{url}/api/matches", timeout=10).json()["matches"] == []
    slow = httpx2.post(f"{url}/api/tutorial", json={"pace": 0.5}, timeout=10)
    assert slow.status_code == 200

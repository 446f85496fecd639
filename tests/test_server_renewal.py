"""A ``kessen play`` server renews its process in place once every match has left memory and it
has grown (:mod:`kessen.server.renewal`): the same process and port, every request answered
across the renewal, the records intact, and a late connection to a match that left still told
where its record is; a renewed server does not renew again without a new load."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx2
from websockets.sync.client import connect
from websockets.typing import Origin

from kessen.server.hub import Hub
from kessen.server.renewal import Renewal, load_gone, save_gone
from kessen.server.run import free_port
from kessen.store.records import MatchStore

ROOT = Path(__file__).resolve().parents[1]
RENEWED = "renewed its process in place"


def _wait_for(predicate: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def _resign_a_match(base: str, seed: int) -> dict[str, Any]:
    answer = httpx2.post(
        f"{base}/api/games",
        json={"mode": "vs_com", "com": "heuristic", "pace": 0, "seed": seed},
        timeout=30,
    )
    answer.raise_for_status()
    game: dict[str, Any] = answer.json()
    with connect(_ws(base, game["id"], game["token"]), origin=Origin(base)) as ws:
        assert json.loads(ws.recv(timeout=30))["type"] == "state"
        ws.send(json.dumps({"type": "resign"}))
        while True:
            message = json.loads(ws.recv(timeout=30))
            if message["type"] == "state" and message["view"]["session"].get("ended"):
                break
    return game


def _ws(base: str, game_id: str, token: str) -> str:
    return f"{base.replace('http', 'ws', 1)}/ws/{game_id}?token={token}"


def _first_message(base: str, game_id: str, token: str) -> dict[str, Any]:
    with connect(_ws(base, game_id, token), origin=Origin(base)) as ws:
        message: dict[str, Any] = json.loads(ws.recv(timeout=30))
        return message


def test_an_emptied_server_renews_in_place_and_loses_nothing(tmp_path: Path) -> None:
    port = free_port(0)
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "server.log"
    db = tmp_path / "store.db"
    command = [
        *(sys.executable, "-m", "kessen.cli", "play", "--no-browser", "--pace", "0"),
        *("--port", str(port), "--db", str(db)),
        *("--renew-after", "0.5", "--keep-finished", "0.5"),
    ]
    with log.open("wb") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
    answers: list[int | str] = []
    asking = threading.Event()
    try:
        _wait_for(lambda: "Kessen is running" in log.read_text(), 60, "the server to start")
        games = [_resign_a_match(base, seed) for seed in (1, 2)]

        def ask() -> None:  # the whole time the server renews, requests keep coming
            while not asking.is_set():
                try:
                    answers.append(httpx2.get(f"{base}/api/meta", timeout=10).status_code)
                except httpx2.HTTPError as err:
                    answers.append(repr(err))
                time.sleep(0.02)

        asker = threading.Thread(target=ask)
        asker.start()
        _wait_for(lambda: RENEWED in log.read_text(), 60, "the renewal")
        time.sleep(1.0)
        asking.set()
        asker.join()
        assert server.poll() is None, log.read_text()
        assert answers and all(a == 200 for a in answers), [a for a in answers if a != 200]
        # What the old image remembered of the matches that left crossed over (digests only).
        for game in games:
            told = _first_message(base, game["id"], game["token"])
            assert told["type"] == "error" and told["code"] == "evicted", told
            assert "match history" in told["message"]
            wrong = _first_message(base, game["id"], "0" * len(game["token"]))
            assert wrong["code"] == "unknown_game"
        listed = httpx2.get(f"{base}/api/matches", timeout=10).json()
        assert len(listed["matches"]) == 2
        # The renewed server plays on, and without a new load does not renew again.
        _resign_a_match(base, 3)
        time.sleep(1.0)
        assert log.read_text().count(RENEWED) == 1
    finally:
        asking.set()
        server.terminate()
        server.wait(timeout=30)
    with MatchStore(db) as store:
        finished = store.list_matches(finished=True)
        assert len(finished) == 3
        assert all(store.check(info.id) is None for info in finished)  # each replays exactly


def test_renewal_waits_for_every_match_and_run() -> None:
    hub = Hub()
    runs = {"busy": False}
    renewal = Renewal(1, busy=lambda: runs["busy"])
    assert not renewal.quiet(hub)  # nothing has come and gone yet
    hub.left = 1
    assert renewal.quiet(hub)
    hub.sessions["live"] = object()  # type: ignore[assignment]
    assert not renewal.quiet(hub)
    del hub.sessions["live"]
    runs["busy"] = True
    assert not renewal.quiet(hub)


def test_the_sessions_gone_cross_over_as_digests() -> None:
    before, after = Hub(), Hub()
    before.gone["abc"] = (7, frozenset({"d1", "d2"}))
    before.gone["def"] = (None, frozenset())
    path = save_gone(before)
    assert "d1" in Path(path).read_text()
    load_gone(after, path)
    assert after.gone == before.gone
    assert not Path(path).exists()

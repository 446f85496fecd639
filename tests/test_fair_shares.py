"""Fair shares of one server: no client can take the table from the others.

Each attack here worked before its fix: 60 games started by one client filled the session cap,
so every other player got 503, still after a restart; abandoned games stayed for ever; 100
connections of one client, each within its own rate limit, made the server push hundreds of
thousands of states; COM-vs-COM matches at pace 0 starved a person's COM; and a session evicted
while one of its seats was leaving killed the sweeper.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from kessen.server.app import create_app
from kessen.server.com_pool import ONLY_WATCHED, PERSON_WAITS, ComPool
from kessen.server.hub import Hub
from kessen.server.limits import (
    CLIENT_BURST,
    MAX_CONNECTIONS_PER_CLIENT,
    MAX_SESSIONS_PER_CLIENT,
    MIN_WATCH_PACE,
)
from kessen.store import MatchStore
from tests.fresh_loop import run_fresh
from tests.serving import running

KOBO: dict[str, Any] = {"ruleset": "kobo", "config": {"decks": ["fortress", "swarm"], "best_of": 1}}


def client_at(app: Any, address: str) -> TestClient:
    return TestClient(app, base_url="http://127.0.0.1", client=(address, 40000))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MatchStore]:
    with MatchStore(tmp_path / "store.sqlite3") as opened:
        yield opened


# --- one client cannot fill the server ---------------------------------------------------


def test_one_client_cannot_fill_the_server_and_others_still_start_games(
    store: MatchStore,
) -> None:
    app = create_app(30.0, store)
    hub: Hub = app.state.hub
    with client_at(app, "198.51.100.7") as attacker, client_at(app, "198.51.100.8") as other:
        made = [attacker.post("/api/games", json=KOBO) for _ in range(60)]
        codes = [answer.status_code for answer in made]
        assert codes == [200] * MAX_SESSIONS_PER_CLIENT + [429] * (60 - MAX_SESSIONS_PER_CLIENT)
        assert "at once" in made[-1].json()["detail"]
        assert len(hub.sessions) == MAX_SESSIONS_PER_CLIENT
        assert other.post("/api/games", json=KOBO).status_code == 200
        # An ordinary player who leaves each game for a new one: the game left longest ago
        # is abandoned (its record says so), and the new one starts.
        theirs = [answer.json() for answer in made[:MAX_SESSIONS_PER_CLIENT]]
        for game in theirs:
            with attacker.websocket_connect(
                f"ws://127.0.0.1/ws/{game['id']}?token={game['token']}"
            ) as ws:
                ws.receive_json()
        again = attacker.post("/api/games", json=KOBO)
        assert again.status_code == 200
        assert theirs[0]["id"] not in hub.sessions
        abandoned = [m for m in store.list_matches(limit=100) if m.reason == "abandoned"]
        assert len(abandoned) == 1
    # After a restart the abandoned game stays ended: only the live ones come back, and
    # another client still starts a game.
    restarted = create_app(30.0, store)
    with client_at(restarted, "198.51.100.9") as late:
        assert len(restarted.state.hub.sessions) == MAX_SESSIONS_PER_CLIENT + 1
        assert late.post("/api/games", json=KOBO).status_code == 200


def test_a_full_server_makes_room_from_a_game_nobody_came_back_to(store: MatchStore) -> None:
    app = create_app(30.0, store, max_sessions=4)
    hub: Hub = app.state.hub
    with client_at(app, "192.0.2.1") as first, client_at(app, "192.0.2.2") as second:
        for _ in range(2):
            assert first.post("/api/games", json=KOBO).status_code == 200
            assert second.post("/api/games", json=KOBO).status_code == 200
        with client_at(app, "192.0.2.3") as third:
            full = third.post("/api/games", json=KOBO)
            assert full.status_code == 503  # every game is young: nobody is pushed out
            for sid in hub.idle_since:
                hub.idle_since[sid] -= 3600  # an hour without a connection
            assert third.post("/api/games", json=KOBO).status_code == 200
    assert len(hub.sessions) == 4


# --- idle games end ------------------------------------------------------------------------

IDLE_AFTER = 2.0
"""Seconds a game nobody connects to lives: long enough to outlive the time between its
creation and the test's own connection on a loaded machine (0.3 s once ran out first)."""


@pytest.mark.parametrize("mode", ["vs_com", "vs_human", "com_vs_com"])
def test_a_game_nobody_connects_to_is_abandoned_and_not_restored(
    store: MatchStore, mode: str
) -> None:
    app = create_app(30.0, store, idle_after=IDLE_AFTER)
    hub: Hub = app.state.hub
    with client_at(app, "203.0.113.5") as http:
        game = http.post("/api/games", json={**KOBO, "mode": mode}).json()
        session = hub.sessions[game["id"]]
        assert session.recorder is not None
        match = session.recorder.match_id
        with http.websocket_connect(f"ws://127.0.0.1/ws/{game['id']}?token={game['token']}") as ws:
            ws.receive_json()
            time.sleep(IDLE_AFTER * 1.25)  # connected: never idle
            assert game["id"] in hub.sessions
        deadline = time.monotonic() + 10
        while game["id"] in hub.sessions:
            assert time.monotonic() < deadline, "the idle game stayed"
            time.sleep(0.05)
        info = store.info(match)
        assert info.is_finished and info.reason == "abandoned" and info.winner is None
        listed = http.get("/api/matches").json()["matches"]
        assert next(m for m in listed if m["id"] == match)["reason"] == "abandoned"
        with http.websocket_connect(f"ws://127.0.0.1/ws/{game['id']}?token={game['token']}") as ws:
            assert ws.receive_json()["code"] == "evicted"
    assert not create_app(30.0, store).state.hub.sessions or all(
        s.recorder is None or s.recorder.match_id != match
        for s in create_app(30.0, store).state.hub.sessions.values()
    )
    with TestClient(create_app(30.0, store)) as restarted:
        assert restarted.app.state.hub.sessions == {}  # type: ignore[attr-defined]


# --- connections and messages per client ---------------------------------------------------


def test_connections_and_messages_are_limited_per_client_address() -> None:
    app = create_app(30.0)  # COM waits: only the flood moves anything
    hub: Hub = app.state.hub
    sent: list[int] = []
    with running(app) as url, client_at(app, "127.0.0.1") as http:
        game = http.post("/api/games", json=KOBO).json()
        address = url.replace("http", "ws") + f"/ws/{game['id']}?token={game['token']}"
        opened: list[Any] = []
        refused = 0
        stack = contextlib.ExitStack()
        for _ in range(MAX_CONNECTIONS_PER_CLIENT + 8):
            ws = stack.enter_context(connect(address, open_timeout=10))
            first = json.loads(ws.recv(timeout=10))
            if first["type"] == "error":
                assert first["code"] == "too_many_connections"
                refused += 1
                ws.close()
            else:
                opened.append(ws)
        assert len(opened) == MAX_CONNECTIONS_PER_CLIENT and refused == 8
        assert hub.connections["127.0.0.1"] == MAX_CONNECTIONS_PER_CLIENT
        # 40 pings from each connection at once: each within its own limit, together not.
        states = 0
        for ws in opened:
            for _ in range(40):
                ws.send(json.dumps({"type": "ping"}))
        deadline = time.monotonic() + 3
        for ws in opened:
            while time.monotonic() < deadline:
                try:
                    message = json.loads(ws.recv(timeout=0.05))
                except TimeoutError:
                    break
                except ConnectionClosed:
                    break
                states += message["type"] == "state"
        sent.append(states)
        stack.close()
    # Every connection answered its burst within the address's shared bucket only.
    assert states <= CLIENT_BURST + 3 * 40 + MAX_CONNECTIONS_PER_CLIENT * 2, sent


# --- COM's thinking is shared fairly -------------------------------------------------------


def test_a_person_waiting_for_com_goes_before_com_against_com() -> None:
    order: list[str] = []

    async def scenario() -> None:
        pool = ComPool(workers=1)
        gate = asyncio.Event()

        async def fake_run(far: bool, job: Any, *args: Any) -> Any:
            order.append(args[1])
            if args[1] == "first":
                await gate.wait()
            return args[1], None

        pool._run = fake_run  # type: ignore[method-assign]
        busy = asyncio.create_task(pool.choose(ONLY_WATCHED, "kobo", "first", 0, {}, []))
        await asyncio.sleep(0)
        watched = [
            asyncio.create_task(pool.choose(ONLY_WATCHED, "kobo", f"cvc{i}", 0, {}, []))
            for i in range(12)
        ]
        await asyncio.sleep(0)
        person = asyncio.create_task(pool.choose(PERSON_WAITS, "kobo", "person", 0, {}, []))
        await asyncio.sleep(0)
        assert pool.waiting == 13
        gate.set()
        await asyncio.gather(busy, person, *watched)

    run_fresh(scenario())
    assert order[:2] == ["first", "person"]  # only the decision already running went before
    assert order[2:] == [f"cvc{i}" for i in range(12)]  # the rest in arrival order


def test_com_against_com_is_never_faster_than_the_floor(store: MatchStore) -> None:
    app = create_app(3.0, store)
    hub: Hub = app.state.hub
    with client_at(app, "203.0.113.20") as http:
        watched = http.post("/api/games", json={**KOBO, "mode": "com_vs_com", "pace": 0}).json()
        played = http.post("/api/games", json={**KOBO, "mode": "vs_com", "pace": 0}).json()
        assert hub.sessions[watched["id"]].pace == MIN_WATCH_PACE
        assert hub.sessions[played["id"]].pace == 0  # a person's own COM answers at once
    quick = create_app(0.0)  # an operator's own default below the floor stands
    with client_at(quick, "203.0.113.21") as http:
        watched = http.post("/api/games", json={**KOBO, "mode": "com_vs_com"}).json()
        assert quick.state.hub.sessions[watched["id"]].pace == 0


def test_a_worker_process_thinks_as_a_thread_does() -> None:
    from kessen.engine import registry

    state = registry.get("kobo").new_game(KOBO["config"], 11)
    assert state.pending is not None
    seat = state.pending.seat
    view, legal = state.decision_view(seat), state.legal_actions()

    async def both() -> tuple[Any, Any]:
        in_process = ComPool(workers=1, processes=True)
        try:
            far = await in_process.choose(PERSON_WAITS, "kobo", "ismcts-easy", 5, view, legal)
        finally:
            in_process.close()
        near = await ComPool(workers=1).choose(PERSON_WAITS, "kobo", "ismcts-easy", 5, view, legal)
        return far, near

    far, near = run_fresh(both())
    assert far[0] == near[0] and far[0] in legal


# --- the sweeper ---------------------------------------------------------------------------


def test_an_eviction_during_a_departure_does_not_stop_the_sweeper(store: MatchStore) -> None:
    app = create_app(30.0, store, evict_after=0.1)
    hub: Hub = app.state.hub
    with client_at(app, "203.0.113.30") as http:
        game = http.post("/api/games", json={**KOBO, "mode": "vs_human"}).json()
        sid = game["id"]
        session = hub.sessions[sid]
        with http.websocket_connect(f"ws://127.0.0.1/ws/{sid}?token={game['token']}") as ws:
            ws.receive_json()
            assert session.table is not None
            session.table.claimed = True
            session.resign(0)
            portal = http.portal
            assert portal is not None
            portal.call(hub.changed, session)
            portal.call(hub.evict, sid, "a race")  # evicted while the seat is still leaving
            portal.call(hub.evict, sid, "twice")  # nothing left to evict: no KeyError
        portal.call(hub.sweep, time.monotonic() + 3600)
        # The sweeper task still runs: a finished game still leaves memory.
        other = http.post("/api/games", json={**KOBO, "mode": "vs_human"}).json()
        made = hub.sessions[other["id"]]
        assert made.table is not None
        made.table.claimed = True
        made.resign(1)
        portal.call(hub.changed, made)
        deadline = time.monotonic() + 5
        while other["id"] in hub.sessions:
            assert time.monotonic() < deadline, "the sweeper stopped"
            time.sleep(0.05)

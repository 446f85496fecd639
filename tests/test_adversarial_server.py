"""The server against a hostile client, over a real uvicorn server and a temporary store.

Protocol fuzz on the WebSocket (malformed, binary, nested, oversized, stale, foreign, replayed,
after the game is over, spam), hostile HTTP requests (huge numbers, unbounded configs, nested
and oversized bodies), the ownership of unfinished matches with the branch bypass of issue 19,
Origin and Host allow-lists, security headers, the generic 500, session limits and eviction.
For every input: a clear refusal, the live state unchanged (``state_hash()`` of the session in
the server's hub, before and after) and the server still answering. The module keeps a tally
(inputs tried, state changes, crashes) and prints it at the end of the run.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx2
import pytest
from fastapi import FastAPI
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from kessen.engine import registry
from kessen.games.kobo.decks import deck_to_json, starter_decks
from kessen.games.kobo.state import KoboState
from kessen.server.app import create_app
from kessen.server.hub import Hub
from kessen.server.protocol import MAX_MESSAGE
from kessen.server.run import free_port
from kessen.server.session import Session
from kessen.store.records import MatchStore
from tests.serving import running
from tests.test_protocol import _hidden_slugs, _known_slugs

RULES = registry.get("kobo")
SLOW = 30.0  # a COM pace that keeps COM from moving during a test
TALLY: Counter[str] = Counter()
"""What this module tried: ``inputs``, ``state_changes``, ``crashes`` (5xx or no answer)."""


@pytest.fixture(scope="module", autouse=True)
def _report(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    line = (
        f"adversarial server: {TALLY['inputs']} inputs tried, {TALLY['state_changes']} state "
        f"changes, {TALLY['crashes']} crashes"
    )
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None:
        print(line)
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line("\n" + line)


@contextmanager
def serving(store: MatchStore | None = None, **options: Any) -> Iterator[tuple[str, FastAPI]]:
    """A real server on 127.0.0.1 in a thread (as ``kessen play`` runs it); yields its URL
    and the application (whose hub holds the live sessions)."""
    port = free_port(0)
    options.setdefault("default_com", "heuristic")  # COM-vs-COM games here play out quickly
    app = create_app(pace=options.pop("pace", SLOW), store=store, port=port, **options)
    with running(app, port, log_level="critical") as url:
        yield url, app


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, FastAPI, MatchStore]]:
    store = MatchStore(tmp_path_factory.mktemp("adversarial") / "matches.sqlite3")
    with serving(store) as (url, app):
        yield url, app, store
    store.close()


def hub_of(app: FastAPI) -> Hub:
    hub: Hub = app.state.hub
    return hub


def snapshot(app: FastAPI, game_id: str) -> tuple[str, int]:
    """The live state's hash and the number of actions of a session."""
    session = hub_of(app).sessions[game_id]
    return session.live.state_hash(), len(session.actions)


def alive(url: str) -> None:
    """The server still answers a normal request."""
    response = httpx2.get(f"{url}/api/meta", timeout=10)
    if response.status_code != 200:
        TALLY["crashes"] += 1
    assert response.status_code == 200


def new_game(url: str, **body: Any) -> dict[str, Any]:
    response = httpx2.post(f"{url}/api/games", json=body, timeout=30)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def first_mover(url: str, **body: Any) -> dict[str, Any]:
    """A vs-COM game (slow COM) in which seat 0 decides first: nothing moves by itself."""
    for seed in range(40):
        session = Session.create("kobo", dict(RULES.default_config), seed, "vs_com", "heuristic", 0)
        pending = session.live.pending
        if pending is not None and pending.seat == 0:
            return new_game(url, seed=seed, pace=SLOW, **body)
    raise AssertionError("no seed where seat 0 moves first")


def ws_url(url: str, game_id: str, token: str) -> str:
    return "ws" + url.removeprefix("http") + f"/ws/{game_id}?token={token}"


@contextmanager
def socket(url: str, game: dict[str, Any], **extra: Any) -> Iterator[ClientConnection]:
    with connect(ws_url(url, game["id"], game["token"]), max_size=None, **extra) as ws:
        yield ws


def receive(ws: ClientConnection, timeout: float = 10) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return message


def state(ws: ClientConnection) -> dict[str, Any]:
    message = receive(ws)
    assert message["type"] == "state", message
    view: dict[str, Any] = message["view"]
    return view


# --- protocol fuzz -------------------------------------------------------------------------


def _fuzz_inputs(pending: dict[str, Any]) -> list[tuple[str | bytes, str]]:
    """Hostile messages and the error code each must get."""
    pid, legal = pending["prompt_id"], pending["legal"][0]
    act: dict[str, Any] = {"type": "act", "prompt_id": pid, "action": legal}
    deep = "[" * 2000 + "]" * 2000
    return [
        ("", "malformed"),
        ("{", "malformed"),
        ("not json", "malformed"),
        ("{'type': 'ping'}", "malformed"),
        ('{"type": "ping"} trailing', "malformed"),
        ("NaN", "invalid"),
        ("null", "invalid"),
        ("[]", "invalid"),
        ("42", "invalid"),
        ('"ping"', "invalid"),
        (json.dumps({"type": "dance"}), "invalid"),
        (json.dumps({"type": "act"}), "invalid"),
        (json.dumps({**act, "prompt_id": "1"}), "invalid"),
        (json.dumps({**act, "prompt_id": 1.5}), "invalid"),
        (json.dumps({**act, "prompt_id": None}), "invalid"),
        (json.dumps({**act, "action": ""}), "invalid"),
        (json.dumps({**act, "action": "x" * 201}), "invalid"),
        (json.dumps({**act, "action": ["pass"]}), "invalid"),
        (json.dumps({**act, "extra": 1}), "invalid"),
        (json.dumps({"type": "lang", "lang": "fr"}), "invalid"),
        (json.dumps({"type": "show_all", "on": "yes"}), "invalid"),
        (json.dumps({"type": ["act"]}), "invalid"),
        (deep, "too_deep"),
        ('{"type": "ping", "pad": ' + "[" * 100 + "]" * 100 + "}", "too_deep"),
        (
            json.dumps({**act, "action": {"a": {"b": {"c": {"d": {"e": {"f": {"g": {}}}}}}}}}),
            "too_deep",
        ),
        ('{"type": "ping", "pad": "' + "x" * MAX_MESSAGE + '"}', "too_large"),
        ("[" * (MAX_MESSAGE + 1), "too_large"),
        (b"\x00\x01\x02", "binary"),
        (json.dumps({"type": "ping"}).encode(), "binary"),
        (b"\xff" * 100, "binary"),
        (json.dumps({**act, "prompt_id": pid - 1}), "refused"),
        (json.dumps({**act, "prompt_id": pid + 5}), "refused"),
        (json.dumps({**act, "prompt_id": -1}), "refused"),
        (json.dumps({**act, "prompt_id": 10**30}), "refused"),
        (json.dumps({**act, "action": "attack 99"}), "refused"),
        (json.dumps({**act, "action": "((("}), "refused"),
        (json.dumps({**act, "action": "pass pass pass"}), "refused"),
        (json.dumps({**act, "action": "\u0000"}), "refused"),
        (json.dumps({**act, "action": "take 𝕏"}), "refused"),
        (json.dumps({"type": "redo"}), "refused"),
        (json.dumps({"type": "undo"}), "refused"),
    ]


def test_protocol_fuzz_refuses_clearly_and_changes_nothing(srv: Any) -> None:
    url, app, _ = srv
    game = first_mover(url)
    with socket(url, game) as ws:
        pending = state(ws)["pending"]
    before = snapshot(app, game["id"])
    cases = _fuzz_inputs(pending)
    for start in range(0, len(cases), 12):  # a fresh connection per batch: within its rate
        with socket(url, game) as ws:
            state(ws)
            for payload, code in cases[start : start + 12]:
                TALLY["inputs"] += 1
                ws.send(payload)
                answer = receive(ws)
                assert answer["type"] == "error" and answer["code"] == code, (payload, answer)
                assert answer["message"] and "Traceback" not in answer["message"]
                if snapshot(app, game["id"]) != before:
                    TALLY["state_changes"] += 1
                assert snapshot(app, game["id"]) == before, payload
            ws.send(json.dumps({"type": "ping"}))  # the connection is still usable
            assert state(ws)["pending"] == pending
    alive(url)
    # A frame over the server's WebSocket limit closes that connection (1009); the game and
    # the server carry on, and a new connection plays on.
    TALLY["inputs"] += 1
    with socket(url, game) as ws:
        state(ws)
        ws.send("x" * 70_000)
        with pytest.raises(ConnectionClosed) as closed:
            receive(ws)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert snapshot(app, game["id"]) == before
    with socket(url, game) as ws:
        assert state(ws)["pending"] == pending
        ws.send(json.dumps({**{"type": "act"}, **pending_act(pending)}))
        assert state(ws)["pending"]["prompt_id"] > pending["prompt_id"]
    alive(url)


def pending_act(pending: dict[str, Any]) -> dict[str, Any]:
    return {"prompt_id": pending["prompt_id"], "action": pending["legal"][0]}


def test_foreign_games_and_tokens_are_refused(srv: Any) -> None:
    url, app, _ = srv
    mine, other = first_mover(url), first_mover(url)
    before = snapshot(app, mine["id"]), snapshot(app, other["id"])
    for game_id, token in [
        ("nope", mine["token"]),
        (mine["id"], other["token"]),
        (other["id"], mine["token"]),
        (mine["id"], ""),
        (mine["id"], mine["token"][:-1]),
        (mine["id"], mine["token"] + "x"),
        ("../" + mine["id"], mine["token"]),
        (mine["id"].upper(), mine["token"]),
    ]:
        TALLY["inputs"] += 1
        if "/" in game_id:  # no such route: the handshake itself is refused
            with pytest.raises(InvalidStatus), connect(ws_url(url, game_id, token)):
                pass
            continue
        with connect(ws_url(url, game_id, token)) as ws:
            answer = receive(ws)
            assert answer["type"] == "error" and answer["code"] == "unknown_game", answer
            with pytest.raises(ConnectionClosed):
                receive(ws)
    assert (snapshot(app, mine["id"]), snapshot(app, other["id"])) == before
    alive(url)


def test_a_replayed_message_is_applied_once(srv: Any) -> None:
    url, app, _ = srv
    game = first_mover(url)
    with socket(url, game) as ws:
        pending = state(ws)["pending"]
        message = json.dumps({"type": "act", **pending_act(pending)})
        ws.send(message)
        assert state(ws)["pending"]["prompt_id"] > pending["prompt_id"]
        after = snapshot(app, game["id"])
        for _ in range(5):
            TALLY["inputs"] += 1
            ws.send(message)
            answer = receive(ws)
            assert answer["type"] == "error" and answer["code"] == "refused", answer
            assert snapshot(app, game["id"]) == after
    alive(url)


def test_messages_after_the_game_is_over_change_nothing(srv: Any) -> None:
    url, app, _ = srv
    game = new_game(url, config={"best_of": 1}, pace=0, seed=11)
    with socket(url, game) as ws:
        view = state(ws)
        while view["pending"] is not None:
            if view["pending"]["seat"] == 0:
                ws.send(json.dumps({"type": "act", **pending_act(view["pending"])}))
            view = state(ws)
        last = view
        over = snapshot(app, game["id"])
        assert hub_of(app).sessions[game["id"]].live.outcome is not None
        acts: list[dict[str, Any]] = [
            {"type": "act", "prompt_id": 0, "action": "pass"},
            {"type": "act", "prompt_id": 10**6, "action": "pass"},
            {"type": "redo"},
            {"type": "undo"},
            {"type": "undo"},
        ]
        for message in acts:
            TALLY["inputs"] += 1
            ws.send(json.dumps(message))
            answer = receive(ws)
            # The history buttons say the match is over (a code the page words itself).
            code = "over" if message["type"] in ("undo", "redo") else "refused"
            assert answer["type"] == "error" and answer["code"] == code, (message, answer)
            if snapshot(app, game["id"]) != over:
                TALLY["state_changes"] += 1
            assert snapshot(app, game["id"]) == over, message
        ws.send(json.dumps({"type": "ping"}))
        assert state(ws)["match"] == last["match"]
    alive(url)


def test_a_flood_is_cut_and_does_not_stall_another_game(srv: Any) -> None:
    url, app, _ = srv
    flooded, other = first_mover(url), first_mover(url)
    before = snapshot(app, flooded["id"])
    sent = 400
    with socket(url, flooded) as ws, socket(url, other) as calm:
        state(ws)
        state(calm)
        started = time.monotonic()
        for _ in range(sent):
            ws.send(json.dumps({"type": "redo"}))  # refused each time: it costs a token
        # Meanwhile the other game answers at once.
        slowest = 0.0
        for _ in range(5):
            ping = time.monotonic()
            calm.send(json.dumps({"type": "ping"}))
            state(calm)
            slowest = max(slowest, time.monotonic() - ping)
        codes: Counter[str] = Counter()
        while True:
            try:
                codes[receive(ws, timeout=1.5)["code"]] += 1
            except TimeoutError:
                break
        elapsed = time.monotonic() - started
        TALLY["inputs"] += sent
        assert codes["rate_limited"] >= 1, codes
        assert codes["rate_limited"] <= elapsed + 1  # one notice per flood (a second)
        assert codes["refused"] <= 40 + 20 * elapsed + 1, (codes, elapsed)
        assert sum(codes.values()) < sent  # the excess was dropped, not answered or queued
        assert slowest < 1.0, slowest
        if snapshot(app, flooded["id"]) != before:
            TALLY["state_changes"] += 1
        assert snapshot(app, flooded["id"]) == before
        time.sleep(1.0)  # the bucket refills: the same connection plays on
        ws.send(json.dumps({"type": "ping"}))
        assert state(ws)["pending"] is not None
    alive(url)


def test_undo_redo_spam_leaves_one_consistent_state(srv: Any) -> None:
    url, app, store = srv
    game, other = first_mover(url), first_mover(url)
    with socket(url, game) as ws, socket(url, other) as calm:
        pending = state(ws)["pending"]
        state(calm)
        ws.send(json.dumps({"type": "act", **pending_act(pending)}))
        state(ws)
        undone_hash = None
        for number in range(1000):
            ws.send(json.dumps({"type": "undo" if number % 2 == 0 else "redo"}))
        slowest = 0.0
        for _ in range(5):
            ping = time.monotonic()
            calm.send(json.dumps({"type": "ping"}))
            state(calm)
            slowest = max(slowest, time.monotonic() - ping)
        while True:
            try:
                receive(ws, timeout=1.5)
            except TimeoutError:
                break
        TALLY["inputs"] += 1000
        assert slowest < 1.0, slowest
    session = hub_of(app).sessions[game["id"]]
    undone_hash = session.state_at(0).state_hash()
    assert session.live.state_hash() in (undone_hash, session.states[-1].state_hash())
    assert session.recorder is not None
    assert len(store.get(session.recorder.match_id).actions) == len(session.actions)
    alive(url)


# --- HTTP ----------------------------------------------------------------------------------


def _huge_deck() -> dict[str, Any]:
    deck = deck_to_json(starter_decks()["vanguard"])
    deck["main"] = {slug: 10_000_000 for slug in deck["main"]}
    return deck


def test_hostile_http_requests_get_clear_4xx(srv: Any) -> None:
    url, app, _ = srv
    game = first_mover(url)
    before = snapshot(app, game["id"])
    recorder = hub_of(app).sessions[game["id"]].recorder
    assert recorder is not None
    match = recorder.match_id  # its player's token opens it: only the bounds refuse
    gets = [
        "/api/matches?offset=1e20",
        "/api/matches?offset=99999999999999999999",
        "/api/matches?offset=-1",
        "/api/matches?limit=0",
        "/api/matches?limit=100000",
        "/api/matches?since=1e400",
        "/api/matches?since=nan",
        "/api/matches?until=-inf",
        "/api/matches?since=9e99",
        "/api/matches?since=99999-01-01",
        "/api/matches?result=2",
        "/api/matches?finished=maybe",
        "/api/matches?deck=" + "x" * 5000,
        "/api/matches/1e23",
        "/api/matches/99999999999999999999",
        "/api/matches/-1",
        "/api/matches/0",
        "/api/matches/abc",
        "/api/matches/99999999",
        f"/api/matches/{match}/step/-1",
        f"/api/matches/{match}/step/99999999999999999999",
        f"/api/matches/{match}/step/1e3",
        f"/api/matches/{match}/step/0?log_from=99999999999999999999&base=0",
        f"/api/matches/{match}/step/0?log_from=1&base=-5",
        f"/api/matches/{match}/step/0?base=99999999999999999999",
        f"/api/matches/{match}/step/0?seat=2",
        f"/api/matches/{match}/step/0?lang=fr",
        f"/api/matches/{match}/replay?seat=all",
        "/api/catalog/nope",
        "/api/catalog/kobo?lang=xx",
    ]
    posts: list[tuple[str, Any]] = [
        ("/api/games", {"config": {"validate": False, "decks": [_huge_deck(), "fortress"]}}),
        ("/api/games", {"config": {"decks": [_huge_deck(), "fortress"]}}),
        ("/api/games", {"config": {"validate": False}}),
        ("/api/games", {"config": {"best_of": 1_000_000_001}, "mode": "com_vs_com", "pace": 0}),
        ("/api/games", {"config": {"best_of": 11}}),
        ("/api/games", {"config": {"best_of": 2}}),
        ("/api/games", {"config": {"turn_limit": 10**9}}),
        ("/api/games", {"pace": -1}),
        ("/api/games", {"pace": 1e9}),
        ("/api/games", {"seed": -1}),
        ("/api/games", {"seed": 2**63}),
        ("/api/games", {"ruleset": "chess"}),
        ("/api/games", {"mode": "com_vs_human"}),
        ("/api/games", {"com": "x" * 100}),
        ("/api/games", {"decks": ["vanguard"]}),
        ("/api/games", {"decks": ["vanguard", "fortress", "swarm"]}),
        ("/api/games", {"config": {str(k): k for k in range(40)}}),
        ("/api/games", {"ruleset": "twgp", "decks": ["vanguard", "fortress"]}),
        ("/api/games", [1, 2]),
        (f"/api/matches/{match}/continue", {"step": -1}),
        (f"/api/matches/{match}/continue", {"step": 10**12}),
        (f"/api/matches/{match}/continue", {"step": 0, "seat": 2}),
        ("/api/matches/99999999/continue", {"step": 0}),
    ]
    raw: list[tuple[str, bytes, dict[str, str]]] = [
        ("/api/games", b"[" * 200_000, {"content-type": "application/json"}),
        ("/api/games", b'{"pace": NaN}', {"content-type": "application/json"}),
        ("/api/games", b'{"pace": Infinity}', {"content-type": "application/json"}),
        ("/api/games", b"\xff\xfe", {"content-type": "application/json"}),
        ("/api/games", b"{}" + b" " * 300_000, {"content-type": "application/json"}),
        ("/api/games", b"ruleset=kobo", {"content-type": "application/x-www-form-urlencoded"}),
    ]
    answers: list[httpx2.Response] = []
    own = {"X-Kessen-Token": game["token"]}
    with httpx2.Client(base_url=url, timeout=30, headers=own) as client:
        answers += [client.get(path) for path in gets]
        for path, body in posts:
            started = time.monotonic()
            answers.append(client.post(path, json=body))
            assert time.monotonic() - started < 2.0, path  # refused fast, nothing expanded
        answers += [client.post(path, content=body, headers=h) for path, body, h in raw]

        def chunks() -> Iterator[bytes]:
            yield b'{"pad": "'
            for _ in range(64):
                yield b"x" * 8192
            yield b'"}'

        answers.append(client.post("/api/games", content=chunks()))  # no Content-Length
    for response in answers:
        TALLY["inputs"] += 1
        if response.status_code >= 500:
            TALLY["crashes"] += 1
        request = f"{response.request.method} {response.request.url}"[:200]
        assert 400 <= response.status_code < 500, (request, response.text[:300])
        assert "Traceback" not in response.text
        detail = response.json()["detail"]
        assert detail, request
    if snapshot(app, game["id"]) != before:
        TALLY["state_changes"] += 1
    assert snapshot(app, game["id"]) == before
    unfinished = [s for s in hub_of(app).sessions.values() if s.live.outcome is None]
    assert all(s.pace <= 30 for s in unfinished)
    alive(url)


def test_an_unhandled_error_is_a_bare_500(tmp_path: Path) -> None:
    with serving() as (url, app):

        @app.get("/__test__/boom")
        async def boom() -> None:
            raise RuntimeError("COM holds last-stand and iron-wall")

        response = httpx2.get(f"{url}/__test__/boom", timeout=10)
        TALLY["inputs"] += 1
        assert response.status_code == 500
        assert response.json() == {
            "detail": "internal server error; the server log has the details"
        }
        assert "last-stand" not in response.text
        assert response.headers["x-content-type-options"] == "nosniff"
        alive(url)


# --- ownership of unfinished matches -------------------------------------------------------


def _secret_slugs(app: FastAPI, game_id: str) -> set[str]:
    """COM's cards hidden from seat 0 now (hand, tactics hand, deck, face-down traps)."""
    live = hub_of(app).sessions[game_id].live
    assert isinstance(live, KoboState)
    return _hidden_slugs(live) - _known_slugs(live)


def _without_deck_lists(value: Any) -> Any:
    """``value`` without the public deck lists (a deck list names every card of a deck)."""
    if isinstance(value, dict):
        return {k: _without_deck_lists(v) for k, v in value.items() if k != "deck"}
    if isinstance(value, list):
        return [_without_deck_lists(v) for v in value]
    return value


def _leaks(body: Any, secrets: set[str]) -> set[str]:
    text = json.dumps(_without_deck_lists(body), ensure_ascii=False)
    return {slug for slug in secrets if f'"{slug}"' in text or f" {slug}" in text}


def test_a_running_match_shows_only_its_players_own_seat(srv: Any) -> None:
    url, app, store = srv
    game = new_game(url, decks=["fortress", "vanguard"], seed=4, pace=0)
    with socket(url, game) as ws:  # play until COM holds cards and has set one face down
        view = state(ws)
        for _ in range(400):
            live = hub_of(app).sessions[game["id"]].live
            assert isinstance(live, KoboState)
            pending = view["pending"]
            if live.face_down_traps(1) and pending and pending["seat"] == 0:
                break
            if pending and pending["seat"] == 0:
                ws.send(json.dumps({"type": "act", **pending_act(pending)}))
            view = state(ws)
        else:
            raise AssertionError("COM never set a trap")
    session = hub_of(app).sessions[game["id"]]
    assert session.recorder is not None
    match = session.recorder.match_id
    secrets = _secret_slugs(app, game["id"])
    live = session.live
    assert isinstance(live, KoboState) and live.face_down_traps(1) and secrets
    steps = len(session.actions)
    before = snapshot(app, game["id"])
    other = first_mover(url)
    own = {"X-Kessen-Token": game["token"]}
    no_token: dict[str, str] = {}
    wrong = {"X-Kessen-Token": "not-a-token"}
    foreign = {"X-Kessen-Token": other["token"]}
    with httpx2.Client(base_url=url, timeout=30) as client:
        listed = client.get("/api/matches", params={"limit": 100}).json()["matches"]
        entry = next(m for m in listed if m["id"] == match)
        assert "seed" not in entry and entry["open"] is True
        assert "tokens" not in json.dumps(listed) and game["token"] not in json.dumps(listed)
        bodies: list[Any] = [listed]
        for headers in (no_token, wrong, foreign, own):
            TALLY["inputs"] += 1
            info = client.get(f"/api/matches/{match}", headers=headers)
            assert info.status_code == 200 and "seed" not in info.json()["match"]
            assert info.json()["seats"] == (["0"] if headers is own else [])
            bodies.append(info.json())
            for seat in ("0", "1", "all"):
                for path in (f"/api/matches/{match}/step/{steps}", f"/api/matches/{match}/replay"):
                    TALLY["inputs"] += 1
                    response = client.get(path, params={"seat": seat}, headers=headers)
                    bodies.append(response.json())
                    if headers is own and seat == "0":
                        assert response.status_code == 200, response.text
                    else:
                        assert response.status_code == 403, (headers, seat, path)
                        assert "not finished" in response.json()["detail"]
                for step in (0, steps // 2, steps):
                    TALLY["inputs"] += 1
                    response = client.get(
                        f"/api/matches/{match}/step/{step}", params={"seat": seat}, headers=headers
                    )
                    bodies.append(response.json())
                    if response.status_code == 200:  # the engine's own view for seat 0
                        shown = response.json()["view"]
                        shown["log"] = [
                            {k: v for k, v in e.items() if k != "text"} for e in shown["log"]
                        ]
                        replayed = list(store.load_replay(match).states())[step]
                        assert shown == replayed.view(0, "ja")
            for as_seat in (0, 1):
                TALLY["inputs"] += 1
                response = client.post(
                    f"/api/matches/{match}/continue",
                    json={"step": steps, "seat": as_seat},
                    headers=headers,
                )
                bodies.append(response.json())
                # A running match is never branched, not even by its own player: the branch
                # would give COM the opponent's real hidden cards to play.
                assert response.status_code == 403, response.text
                if headers is own and as_seat == 0:
                    assert "not finished" in response.json()["detail"]
        for body in bodies:
            assert not _leaks(body, secrets), _leaks(body, secrets)
        assert snapshot(app, game["id"]) == before
        # Once the match is over, everything is shown, as before.
        store.finish_match(match, None)
        everything = client.get(f"/api/matches/{match}/step/{steps}?seat=all")
        assert everything.status_code == 200
        assert "seed" in client.get(f"/api/matches/{match}").json()["match"]
    alive(url)


# --- Origin, Host, headers -----------------------------------------------------------------


def test_origin_and_host_allow_lists(srv: Any) -> None:
    url, app, _ = srv
    game = first_mover(url)
    port = url.rsplit(":", 1)[1]
    for origin in (
        "http://evil.example",
        f"http://evil.example:{port}",
        "null",
        f"https://127.0.0.1:{port}",
        "http://127.0.0.1:1",
        f"http://127.0.0.1.evil.example:{port}",
        "file://",
    ):
        TALLY["inputs"] += 1
        with pytest.raises(InvalidStatus) as refused, socket(url, game, origin=origin):
            pass
        assert refused.value.response.status_code == 403
        assert b"Origin" in refused.value.response.body
    for origin in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
        with socket(url, game, origin=origin) as ws:
            assert state(ws)["pending"] is not None
    with socket(url, game) as ws:  # no Origin: a program, not a browser page
        assert state(ws)["pending"] is not None
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.nip.io", "[::2]"):
        TALLY["inputs"] += 1
        response = httpx2.get(f"{url}/api/meta", headers={"host": host}, timeout=10)
        assert response.status_code == 400 and "DNS rebinding" in response.json()["detail"]
        with (
            pytest.raises(InvalidStatus) as refused,
            socket(url, game, additional_headers={"host": host}),
        ):
            pass
        assert refused.value.response.status_code == 400
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
        assert httpx2.get(f"{url}/api/meta", headers={"host": host}, timeout=10).status_code == 200
    # A page of another origin cannot start games either (no cross-site request forgery).
    count = len(hub_of(app).sessions)
    TALLY["inputs"] += 1
    forged = httpx2.post(f"{url}/api/games", json={}, headers={"origin": "http://evil.example"})
    assert forged.status_code == 403 and "Origin" in forged.json()["detail"]
    assert len(hub_of(app).sessions) == count
    own = httpx2.post(f"{url}/api/games", json={"pace": SLOW}, headers={"origin": url})
    assert own.status_code == 200
    alive(url)


def test_allow_origin_adds_one() -> None:
    with serving(allow_origins=["http://kessen.lan:8080"]) as (url, _app):
        game = first_mover(url)
        with socket(url, game, origin="http://kessen.lan:8080") as ws:
            assert state(ws)["pending"] is not None
        assert httpx2.get(f"{url}/", headers={"host": "kessen.lan:8080"}).status_code == 200
        TALLY["inputs"] += 1
        with pytest.raises(InvalidStatus), socket(url, game, origin="http://kessen.lan:9090"):
            pass
    with pytest.raises(ValueError, match="not an origin"):
        create_app(allow_origins=["kessen.lan"])


def test_security_headers_on_every_response(srv: Any) -> None:
    url, _, _ = srv
    for path in ("/", "/static/app.js", "/api/meta", "/api/matches/0", "/nothing"):
        headers = httpx2.get(f"{url}{path}", timeout=10).headers
        csp = headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "script-src 'self';" in csp and "unsafe-inline" not in csp
        assert f"ws://{url.removeprefix('http://')}" in csp
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"
    page = httpx2.get(url, timeout=10).text
    assert "<script>" not in page and " onclick=" not in page and "style=" not in page


# --- limits --------------------------------------------------------------------------------


def _play_out(url: str, **body: Any) -> dict[str, Any]:
    """A COM-vs-COM match played to its end at pace 0."""
    game = new_game(url, mode="com_vs_com", pace=0, config={"best_of": 1}, **body)
    with socket(url, game) as ws:
        while state(ws)["pending"] is not None:
            pass
    return game


def test_sessions_are_capped_and_finished_ones_evicted(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "m.sqlite3")
    # The server's own pace is 0, so its COM-vs-COM games may be asked to play at once.
    with serving(store, pace=0.0, max_sessions=3, evict_after=0.5) as (url, app):
        hub = hub_of(app)
        first = _play_out(url, seed=1)
        _play_out(url, seed=2)
        waiting = first_mover(url)
        # Full: the finished game that ended first makes room.
        fourth = first_mover(url)
        assert first["id"] not in hub.sessions and fourth["id"] in hub.sessions
        with connect(ws_url(url, first["id"], first["token"])) as ws:
            answer = receive(ws)
            assert answer["code"] == "evicted" and "match 1" in answer["message"]
        # A token with any character is compared as bytes: a clear refusal, not an error.
        with connect(ws_url(url, first["id"], quote("トークン"))) as ws:
            assert receive(ws)["type"] == "error"
        # Full of unfinished games: a new one is refused, clearly, and nothing is recorded.
        time.sleep(1.5)  # the other finished game leaves after its grace period
        first_mover(url)
        count = store.count()
        TALLY["inputs"] += 1
        response = httpx2.post(f"{url}/api/games", json={}, timeout=10)
        assert response.status_code == 503 and "limit" in response.json()["detail"]
        assert store.count() == count
        assert waiting["id"] in hub.sessions
    store.close()


def test_restored_sessions_get_a_bounded_pace(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "m.sqlite3")
    session = Session.create(
        "kobo", dict(RULES.default_config), 3, "vs_com", "heuristic", 1e9, store
    )
    assert session.recorder is not None
    with serving(store) as (_url, app):
        assert hub_of(app).sessions[session.id].pace == 30.0
    store.close()

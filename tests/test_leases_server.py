"""Several servers on one PostgreSQL store, in one test process: each app has its own store
connection and owner id, as each ``kessen play`` process has. A match moves to the process its
players reach while its owner lives (handed over), is refused while a silent owner's lease
runs, and resumes on another process at the exact step once it has expired, for a match
against COM and one between two people; a process that lost a match writes nothing into it.
(Real processes killed with ``kill -9``, and nginx in front of them:
``tests/test_leases_processes.py``.)"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from kessen.cli import app as cli
from kessen.server.app import create_app
from kessen.server.hub import Hub
from kessen.server.leases import HANDOVER_WAIT, Keeper, Sharing
from kessen.store.pg_server import LocalServer
from kessen.store.records import MatchStore
from tests.leasing import MOVED, act, holder, new_game, next_state, served, turn_of, ws_url
from tests.serving import running


@contextmanager
def process(url: str, owner: str, seconds: float) -> Iterator[tuple[str, FastAPI, MatchStore]]:
    """A server sharing the store ``url`` as ``owner``; yields its URL, app and store."""
    store = MatchStore(url)
    app = create_app(pace=0.0, store=store, sharing=Sharing(owner, seconds))
    try:
        with running(app) as base:
            yield base, app, store
    finally:
        store.close()


def hub_of(app: FastAPI) -> Hub:
    hub: Hub = app.state.hub
    return hub


def freeze(app: FastAPI) -> None:
    """The process stops renewing its leases and answering requests for them, as a dead one
    would (its sessions stay in its memory: a paused process, not a clean exit)."""
    keeper = hub_of(app).leases
    assert isinstance(keeper, Keeper) and keeper.task is not None
    task = keeper.task
    task.get_loop().call_soon_threadsafe(task.cancel)


def closed_code(ws: ClientConnection) -> int | None:
    """Read ``ws`` until the server closes it; its close code."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ws.recv(timeout=20)
    return closed.value.rcvd.code if closed.value.rcvd is not None else None


def after(ws: ClientConnection, steps: int) -> dict[str, Any]:
    """The first view on ``ws`` past step ``steps``."""
    while True:
        view = next_state(ws)
        if view["history"]["steps"] > steps:
            return view


def moves(ws: ClientConnection, seat: int, count: int) -> dict[str, Any]:
    """Play ``count`` decisions of ``seat`` against COM; the view where it must decide next."""
    view = turn_of(ws, seat)
    for _ in range(count):
        act(ws, view)
        view = turn_of(ws, seat)
    return view


def test_a_match_moves_to_the_process_its_players_reach(postgres: LocalServer) -> None:
    """Made on A (the proxy sent its POST there), played on A, then reached on B: A hands
    it over at once, closing its connection with 4409; B goes on from the same prompt."""
    url = postgres.new_store()
    with process(url, "a", 10) as (a, app_a, store), process(url, "b", 10) as (b, app_b, _):
        game = new_game(a, mode="vs_com", pace=0, seed=5, com="heuristic")
        assert holder(store, game["id"]) == "a"
        with connect(ws_url(a, game)) as ws_a:
            view = moves(ws_a, 0, 3)
            started = time.monotonic()
            ws_b, first = served(ws_url(b, game), started + 10)
            took = time.monotonic() - started
            assert took < HANDOVER_WAIT, took  # handed over, not waited out
            assert closed_code(ws_a) == MOVED
        with ws_b:
            assert first["pending"]["prompt_id"] == view["pending"]["prompt_id"]
            assert [e["text"] for e in first["log"]] == [e["text"] for e in view["log"]]
            assert holder(store, game["id"]) == "b"
            assert game["id"] in hub_of(app_b).sessions and game["id"] not in hub_of(app_a).sessions
            act(ws_b, first)
            after = turn_of(ws_b, 0)
        (info,) = store.unfinished(source="server")
        assert info.steps == after["history"]["steps"]
        assert store.check(info.id) is None  # every action stored once, in order


def test_a_silent_process_s_matches_resume_elsewhere_within_the_bound(
    postgres: LocalServer,
) -> None:
    """A stops answering (as if killed): B refuses its matches (409 over HTTP, 4409 on the
    WebSocket) while A's lease runs, then serves them from the exact step; both seats of a
    match between two people reconnect to B. A, still holding the old state in memory,
    cannot write into them any more."""
    url = postgres.new_store()
    lease = 8.0
    with process(url, "a", lease) as (a, app_a, store), process(url, "b", lease) as (b, _, _):
        com_game = new_game(a, mode="vs_com", pace=0, seed=7, com="heuristic")
        pair = new_game(a, mode="vs_human")
        joined = httpx2.post(f"{a}/api/games/{pair['id']}/join", json={"code": pair["invite"]})
        joined.raise_for_status()
        guest = joined.json()
        ws_com = connect(ws_url(a, com_game), legacy=True)  # closed by the stale owner below
        host_ws = connect(ws_url(a, pair), legacy=True)
        guest_ws = connect(ws_url(a, pair, guest["token"]), legacy=True)
        com_view = moves(ws_com, 0, 2)
        views = {0: next_state(host_ws), 1: next_state(guest_ws)}
        for _ in range(4):  # the two people play a few decisions
            seat, steps = views[0]["pending"]["seat"], views[0]["history"]["steps"]
            act(host_ws if seat == 0 else guest_ws, views[seat])
            views = {0: after(host_ws, steps), 1: after(guest_ws, steps)}
        freeze(app_a)
        died = time.monotonic()
        refused: list[int] = []
        ws_b, first = served(ws_url(b, com_game), died + lease + 10, refused)
        resumed = time.monotonic() - died
        assert refused and set(refused) == {MOVED}  # refused while A's lease ran
        assert resumed <= lease + HANDOVER_WAIT + 3, resumed  # the bound
        assert first["pending"]["prompt_id"] == com_view["pending"]["prompt_id"]
        assert [e["text"] for e in first["log"]] == [e["text"] for e in com_view["log"]]
        # The stale owner: its player's next action is refused by the store's fence, and its
        # connection is closed so that the page goes to the new owner.
        steps = first["history"]["steps"]
        act(ws_com, com_view)
        assert closed_code(ws_com) == MOVED
        with ws_b:
            act(ws_b, first)
            assert turn_of(ws_b, 0)["history"]["steps"] > steps
        # Two people: both seats reconnect to B and play on.
        deadline = time.monotonic() + lease + 10
        (host_b, host_first), (guest_b, guest_first) = (
            served(ws_url(b, pair), deadline),
            served(ws_url(b, pair, guest["token"]), deadline),
        )
        for old in (host_ws, guest_ws):
            old.close()
        with host_b, guest_b:
            assert host_first["pending"]["prompt_id"] == views[0]["pending"]["prompt_id"]
            assert guest_first["pending"]["prompt_id"] == views[1]["pending"]["prompt_id"]
            seat, steps = host_first["pending"]["seat"], host_first["history"]["steps"]
            mover, watcher = (host_b, guest_b) if seat == 0 else (guest_b, host_b)
            act(mover, host_first if seat == 0 else guest_first)
            assert after(watcher, steps)["history"]["steps"] == steps + 1  # seen by the other
        assert holder(store, pair["id"]) == "b" and holder(store, com_game["id"]) == "b"
        for info in store.unfinished(source="server"):
            assert store.check(info.id) is None


def test_the_routes_of_a_match_say_where_it_is(postgres: LocalServer) -> None:
    """An HTTP route of a match another live, silent process holds: 409, in both languages,
    with when to try again; once the lease has run out, the route is served here."""
    url = postgres.new_store()
    lease = 6.0
    with process(url, "a", lease) as (a, app_a, _), process(url, "b", lease) as (b, app_b, _):
        pair = new_game(a, mode="vs_human")
        freeze(app_a)
        answer = httpx2.post(
            f"{b}/api/games/{pair['id']}/invite", json={"code": pair["invite"]}, timeout=30
        )
        assert answer.status_code == 409, answer.text
        body = answer.json()
        assert body["code"] == "elsewhere" and set(body["messages"]) == {"ja", "en"}
        assert "別のサーバープロセス" in body["messages"]["ja"]
        assert 1 <= int(answer.headers["Retry-After"]) <= lease
        time.sleep(body["retry_after"] + 0.5)
        answer = httpx2.post(
            f"{b}/api/games/{pair['id']}/invite", json={"code": pair["invite"]}, timeout=30
        )
        assert answer.status_code == 200, answer.text
        assert pair["id"] in hub_of(app_b).sessions
        # An unknown id is no match anywhere: the route's own 404, nothing taken.
        missing = httpx2.post(f"{b}/api/games/0123456789abcdef/invite", json={"code": "x"})
        assert missing.status_code == 404


def test_only_a_credential_of_the_match_moves_it(postgres: LocalServer) -> None:
    """A stranger who knows a match's id cannot pull it from process to process: a game
    route or a game connection reaching B without one of the match's credentials (no token,
    a wrong one, another match's) is answered 404 there and the match stays on A; the
    unused invite, a seat's token (header or body) moves it, as its players' requests do."""
    url = postgres.new_store()
    with process(url, "a", 10) as (a, app_a, store), process(url, "b", 10) as (b, app_b, _):
        game = new_game(a, mode="vs_com", pace=0, seed=3, com="heuristic")
        other = new_game(a, mode="vs_com", pace=0, seed=4, com="heuristic")
        pair = new_game(a, mode="vs_human")
        route = f"{b}/api/games/{{}}/{{}}"
        strangers = [
            ("leave", game["id"], {}, {}),
            ("leave", game["id"], {"X-Kessen-Token": "not-a-token"}, {}),
            ("leave", game["id"], {"X-Kessen-Token": other["token"]}, {}),
            ("rematch", game["id"], {}, {"token": "not-a-token", "accept": True}),
            ("invite", pair["id"], {}, {"code": "not-the-invite"}),
            ("join", pair["id"], {}, {"code": other["token"]}),
            ("invite", pair["id"], {"Content-Type": "application/json"}, "{not json"),
        ]
        for path, game_id, headers, body in strangers:
            sent = {"content": body} if isinstance(body, str) else {"json": body}
            answer = httpx2.post(route.format(game_id, path), headers=headers, timeout=30, **sent)
            assert answer.status_code in (404, 422), (path, headers, body, answer.text)
            assert holder(store, game_id) == "a", (path, headers, body)
        with connect(ws_url(b, game, "not-a-token")) as ws:
            assert json.loads(ws.recv(timeout=20))["code"] == "unknown_game"
            assert closed_code(ws) == 4404
        assert holder(store, game["id"]) == "a" and game["id"] in hub_of(app_a).sessions
        assert game["id"] not in hub_of(app_b).sessions
        # The match's own credentials move it: the invite in the body, a token in the header.
        invited = httpx2.post(route.format(pair["id"], "invite"), json={"code": pair["invite"]})
        assert invited.status_code == 200, invited.text
        assert holder(store, pair["id"]) == "b" and pair["id"] in hub_of(app_b).sessions
        left = httpx2.post(
            route.format(game["id"], "leave"), headers={"X-Kessen-Token": game["token"]}
        )
        assert left.status_code == 200, left.text
        assert left.json()["abandoned"] is True and game["id"] not in hub_of(app_a).sessions


def test_two_processes_racing_for_an_expired_match_leave_one_owner(
    postgres: LocalServer,
) -> None:
    url = postgres.new_store()
    lease = 2.0
    with (
        process(url, "a", lease) as (a, app_a, store),
        process(url, "b", lease) as (b, app_b, _),
        process(url, "c", lease) as (c, app_c, _),
    ):
        game = new_game(a, mode="vs_com", pace=0, seed=11, com="heuristic")
        with connect(ws_url(a, game)) as ws_a:
            moves(ws_a, 0, 1)
        freeze(app_a)
        deadline = time.monotonic() + lease + 5
        while (found := store.leases("reader").holder(game["id"])) is not None and found.left > 0:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        answers: dict[str, Any] = {}
        barrier = threading.Barrier(2)

        def reach(name: str, base: str) -> None:
            barrier.wait()
            try:
                with connect(ws_url(base, game)) as ws:
                    answers[name] = json.loads(ws.recv(timeout=20))["type"]
                    ws.recv(timeout=3)  # served until handed over, or for 3 seconds
            except ConnectionClosed as closed:
                answers.setdefault(name, closed.rcvd.code if closed.rcvd else None)
            except TimeoutError:
                pass

        threads = [threading.Thread(target=reach, args=x) for x in (("b", b), ("c", c))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert set(answers) == {"b", "c"} and "state" in answers.values(), answers
        serving = [
            n for n, app in (("b", app_b), ("c", app_c)) if game["id"] in hub_of(app).sessions
        ]
        assert len(serving) == 1, serving
        assert holder(store, game["id"]) == serving[0]


def test_the_lease_flags_are_for_a_postgresql_store(tmp_path: Path) -> None:
    """An SQLite file has one server: ``--owner-id`` and ``--lease-seconds`` are refused
    there, before anything is served; out-of-range values are refused by the options."""
    runner = CliRunner()
    for flags in (["--owner-id", "a"], ["--lease-seconds", "5"]):
        db_file = str(tmp_path / "one.sqlite3")
        result = runner.invoke(cli, ["play", "--no-browser", "--db", db_file, *flags])
        assert result.exit_code == 2, result.output
        assert "for servers sharing a PostgreSQL store" in result.output
    short = runner.invoke(cli, ["play", "--no-browser", "--lease-seconds", "0.1"])
    assert short.exit_code == 2 and "--lease-seconds" in short.output
    helped = runner.invoke(cli, ["play", "--help"], env={"COLUMNS": "200"})
    for flag in ("--owner-id", "--lease-seconds", "--proxy"):
        assert flag in helped.output

"""Several real ``kessen play`` processes on one PostgreSQL store: one killed with ``kill -9``
mid-game, its matches (against COM, and between two people: both seats) resume on another
within the lease's bound with no action lost; and ``deploy/nginx-kessen.conf``: its routing
read against the server's own routes, then nginx itself in front of two processes (skipped,
saying why, where nginx is not installed)."""

from __future__ import annotations

import re
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.routing import APIWebSocketRoute
from websockets.sync.client import connect

from kessen.server.app import create_app
from kessen.server.leases import GAME_ROUTES, HANDOVER_WAIT, game_id_of
from kessen.server.run import free_port
from kessen.store.pg_server import LocalServer
from kessen.store.records import MatchStore
from tests.leasing import (
    CONF,
    LEASE,
    NGINX,
    NO_NGINX,
    act,
    holder,
    kessen_play,
    kill_9,
    new_game,
    next_state,
    nginx,
    served,
    turn_of,
    ws_url,
)

BOUND = LEASE + HANDOVER_WAIT + 4.0
"""A killed process's match is served again within its lease, one refused wait and the
page's retry (plus a margin for a busy test machine)."""


def after(ws: Any, steps: int) -> dict[str, Any]:
    """The first view on ``ws`` past step ``steps``."""
    while True:
        view = next_state(ws)
        if view["history"]["steps"] > steps:
            return view


def test_kill_9_and_the_matches_resume_on_another_process(postgres: LocalServer) -> None:
    url = postgres.new_store()
    with kessen_play(url, "a") as (proc_a, a), kessen_play(url, "b") as (_, b):
        output = proc_a.stdout
        com_game = new_game(a, mode="vs_com", pace=0, seed=3, com="heuristic")
        pair = new_game(a, mode="vs_human")
        guest = httpx2.post(f"{a}/api/games/{pair['id']}/join", json={"code": pair["invite"]})
        guest.raise_for_status()
        guest_token = guest.json()["token"]
        with connect(ws_url(a, com_game)) as ws:
            view = turn_of(ws, 0)
            for _ in range(3):
                act(ws, view)
                view = turn_of(ws, 0)
        with connect(ws_url(a, pair)) as host_ws, connect(ws_url(a, pair, guest_token)) as g_ws:
            views = {0: next_state(host_ws), 1: next_state(g_ws)}
            for _ in range(3):
                seat, steps = views[0]["pending"]["seat"], views[0]["history"]["steps"]
                act(host_ws if seat == 0 else g_ws, views[seat])
                views = {0: after(host_ws, steps), 1: after(g_ws, steps)}
            died = kill_9(proc_a)
        refused: list[int] = []
        # B is asked at once, while A's lease still runs (at least three quarters of it: A
        # renewed it every quarter). A's output is read after: its end comes only once every
        # process that shares the pipe is gone, which on a loaded machine can outlast the lease.
        ws_b, first = served(ws_url(b, com_game), died + BOUND + 5, refused)
        assert time.monotonic() - died <= BOUND, time.monotonic() - died
        assert refused  # A's lease still ran at first: refused, then served
        assert output is not None and b"Sharing the store" in output.read()
        with ws_b:
            assert first["pending"]["prompt_id"] == view["pending"]["prompt_id"]
            assert [e["text"] for e in first["log"]] == [e["text"] for e in view["log"]]
            act(ws_b, first)
            turn_of(ws_b, 0)
        (host_b, host_view) = served(ws_url(b, pair), died + BOUND + 5)
        (guest_b, guest_view) = served(ws_url(b, pair, guest_token), died + BOUND + 5)
        assert time.monotonic() - died <= BOUND + HANDOVER_WAIT
        with host_b, guest_b:
            assert host_view["pending"]["prompt_id"] == views[0]["pending"]["prompt_id"]
            assert guest_view["history"]["steps"] == views[1]["history"]["steps"]
            seat, steps = host_view["pending"]["seat"], host_view["history"]["steps"]
            act(host_b if seat == 0 else guest_b, host_view if seat == 0 else guest_view)
            assert after(guest_b if seat == 0 else host_b, steps)["history"]["steps"] == steps + 1
    with MatchStore(url) as store:
        for game in (com_game, pair):  # B stopped: it let its leases go, anyone's to take
            lease = store.leases("reader").holder(game["id"])
            assert lease is not None and lease.owner == "b" and lease.left < 0
        recorded = store.unfinished(source="server")
        assert len(recorded) == 2
        for info in recorded:
            assert store.check(info.id) is None  # nothing lost, nothing written twice


# --- the proxy ---------------------------------------------------------------------------


def _conf() -> str:
    return CONF.read_text(encoding="utf-8")


def _nginx_map(text: str) -> list[tuple[re.Pattern[str], str]]:
    """The ``map $uri $kessen_match`` of the configuration as Python patterns."""
    block = re.search(r"map \$uri \$kessen_match \{(.*?)\}", text, re.S)
    assert block is not None, "no map of the match id"
    entries = []
    for line in block.group(1).splitlines():
        line = line.split("#", 1)[0].strip().rstrip(";").strip()
        if line.startswith("~"):
            pattern, value = line[1:].split()
            entries.append((re.compile(pattern.replace("(?<", "(?P<")), value))
    return entries


def _extract(entries: list[tuple[re.Pattern[str], str]], path: str) -> str:
    """What nginx's map gives for ``path``: the first matching pattern's value."""
    for pattern, value in entries:
        found = pattern.search(path)
        if found is not None:
            return found.expand(re.sub(r"\$(\w+)", r"\\g<\1>", value))
    return ""


def test_the_proxy_routes_every_game_route_of_the_server_by_its_match() -> None:
    entries = _nginx_map(_conf())
    assert [p.pattern for p, _ in entries] == [p.pattern for p in GAME_ROUTES]
    app = create_app()
    sockets = [r.path for r in app.routes if isinstance(r, APIWebSocketRoute)]
    game_paths = []
    other_paths = []
    for path in [*app.openapi()["paths"], *sockets]:  # every HTTP route, every WebSocket
        if "{game_id}" in path:
            game_paths.append(path.replace("{game_id}", "0123abcd89ef4567"))
        elif path.startswith(("/api", "/ws")):
            other_paths.append(re.sub(r"\{(\w+)(:\w+)?\}", "7", path))
    assert {"/ws/0123abcd89ef4567", "/api/games/0123abcd89ef4567/join"} <= set(game_paths)
    for path in game_paths:  # every route of a live match: routed by its id, here and there
        assert _extract(entries, path) == "0123abcd89ef4567", path
        assert game_id_of(path) == "0123abcd89ef4567", path
    for path in other_paths:  # the rest: any process
        assert _extract(entries, path) == "" and game_id_of(path) is None, path
    text = _conf()
    assert "hash $kessen_match consistent;" in text
    assert "proxy_set_header Upgrade $http_upgrade;" in text
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in text


@pytest.mark.skipif(NGINX is None, reason=NO_NGINX)
def test_nginx_routes_matches_to_their_process_and_around_a_dead_one(
    postgres: LocalServer, tmp_path: Path
) -> None:
    url = postgres.new_store()
    ports = [free_port(0), free_port(0)]
    with ExitStack() as stack:
        procs = {}
        for owner, port in zip(("a", "b"), ports, strict=True):
            process, _ = stack.enter_context(kessen_play(url, owner, port, "--proxy", "127.0.0.1"))
            procs[owner] = process
        proxy = stack.enter_context(nginx(tmp_path, ports))
        store = stack.enter_context(MatchStore(url))
        games = [new_game(proxy, mode="vs_com", pace=0, seed=s, com="heuristic") for s in range(6)]
        views: dict[str, dict[str, Any]] = {}
        owners: dict[str, str | None] = {}
        for game in games:  # each reached through the proxy: it lands on its hashed process
            ws, first = served(ws_url(proxy, game), time.monotonic() + 20)
            with ws:
                act(ws, turn_of(ws, 0) if first["pending"]["seat"] != 0 else first)
                views[game["id"]] = turn_of(ws, 0)
            owners[game["id"]] = holder(store, game["id"])
        assert set(owners.values()) <= {"a", "b"}, owners
        for game in games:  # a route of the match: the same process (nothing moves)
            answer = httpx2.post(f"{proxy}/api/games/{game['id']}/leave", timeout=30)
            assert answer.status_code == 404  # no token: refused by the match's own process
            assert holder(store, game["id"]) == owners[game["id"]]
        victim = owners[games[0]["id"]]
        assert victim is not None
        survivor = "b" if victim == "a" else "a"
        died = kill_9(procs[victim])
        for game in games:  # every match: served again, by the survivor, where it stood
            ws, first = served(ws_url(proxy, game), died + BOUND + 10)
            with ws:
                assert first["pending"]["prompt_id"] == views[game["id"]]["pending"]["prompt_id"]
                act(ws, first)
                turn_of(ws, 0)
            assert holder(store, game["id"]) == survivor
        assert time.monotonic() - died <= BOUND + 10
        for info in store.unfinished(source="server"):
            assert store.check(info.id) is None

"""Real servers for the tests: an application served by uvicorn in a thread on 127.0.0.1, and
one that also opens hand-built positions as sessions (for the browser tests of prompts)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import httpx2
import uvicorn
from fastapi import FastAPI

from kessen.engine.contract import GameState
from kessen.server.app import create_app
from kessen.server.hub import Hub
from kessen.server.run import free_port
from kessen.server.session import Session

Load = Callable[[GameState], tuple[str, str]]
"""Open a position as a new session: its id and seat 0's token."""


@contextmanager
def running(app: FastAPI, port: int | None = None, log_level: str = "warning") -> Iterator[str]:
    """Serve ``app`` (as ``kessen play`` does) until the block ends; yields its URL."""
    port = port or free_port(0)
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level=log_level, ws_max_size=65536)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextmanager
def position_server(prefix: str) -> Iterator[tuple[str, Hub, Load]]:
    """A server whose COM moves at once and whose hub takes hand-built positions (sessions
    named ``<prefix><n>``, COM random in seat 1); yields its URL, hub and the loader."""
    app = create_app(pace=0.0)
    hub: Hub = app.state.hub
    loops: list[asyncio.AbstractEventLoop] = []

    @app.get("/__test__/loop")
    async def _loop() -> dict[str, bool]:
        loops.append(asyncio.get_running_loop())
        return {"ok": True}

    async def _register(session: Session) -> None:
        hub.add(session)

    def load(state: GameState) -> tuple[str, str]:
        ruleset = str(state.view_all().get("ruleset") or "kobo")
        session = Session(
            f"{prefix}{len(hub.sessions)}", ruleset, {}, 0, "vs_com", {1: "random"}, 0
        )
        session.states.append(state)
        token = session.new_token(0)
        asyncio.run_coroutine_threadsafe(_register(session), loops[0]).result(5)
        return session.id, token

    with running(app) as url:
        httpx2.get(f"{url}/__test__/loop", timeout=5)
        yield url, hub, load

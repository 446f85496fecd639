"""The server records every match; a killed server comes back with its games where they stood.

The server runs as a real ``kessen play`` process on a temporary store; it is killed with
SIGKILL in the middle of a chain and started again on the same store, and the same browser
token rejoins the same game at the same prompt, with no action lost.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
from websockets.sync.client import ClientConnection, connect

from kessen.server.run import free_port
from kessen.store.records import MatchStore


@contextmanager
def server_process(db: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``kessen play`` on ``db`` with COM at pace 0, no browser; yields (process, base URL)."""
    port = free_port(0)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kessen.cli",
            "play",
            "--no-browser",
            "--pace",
            "0",
            "--port",
            str(port),
            "--db",
            str(db),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx2.get(f"{url}/api/meta", timeout=1).raise_for_status()
            break
        except httpx2.HTTPError as err:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                output = process.stdout.read() if process.stdout else b""
                raise RuntimeError(f"server did not start: {output!r}") from err
            time.sleep(0.1)
    try:
        yield process, url
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=10)


def receive_state(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=20))
        assert message["type"] != "error", message
        if message["type"] == "state":
            view: dict[str, Any] = message["view"]
            return view


def my_turn(ws: ClientConnection) -> dict[str, Any]:
    """The next view in which seat 0 must decide (COM plays at pace 0 in between)."""
    while True:
        view = receive_state(ws)
        pending = view["pending"]
        if pending is None or pending["seat"] == 0:
            return view


def test_sigkill_mid_chain_then_restart_resumes_the_same_game(tmp_path: Path) -> None:
    db = tmp_path / "matches.sqlite3"
    with server_process(db) as (process, url):
        game = httpx2.post(f"{url}/api/games", json={"mode": "vs_com", "pace": 0, "seed": 5}).json()
        ws_url = url.replace("http", "ws") + f"/ws/{game['id']}?token={game['token']}"
        with connect(ws_url) as ws:
            view = my_turn(ws)
            steps = 0
            # Play the first legal action until seat 0 answers inside a chain.
            while view["pending"]["prompt"] != "chain":
                pending = view["pending"]
                choice = pending["legal"][0]
                if pending["prompt"] == "turn":  # attack, so that an exchange starts
                    choice = next(a for a in pending["legal"] if a.startswith("attack"))
                ws.send(
                    json.dumps({"type": "act", "prompt_id": pending["prompt_id"], "action": choice})
                )
                view = my_turn(ws)
                steps += 1
                assert steps < 400
        before = view["pending"]["prompt_id"]
        before_log = [e["text"] for e in view["log"]]
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    store = MatchStore(db)
    (stored,) = store.unfinished(source="server")
    assert store.check(stored.id) is None  # intact: replays exactly, every hash verified
    _replay, state = store.resume(stored.id)
    assert state.pending is not None and state.pending.prompt_id == before
    store.close()
    with server_process(db) as (_process, url):
        ws_url = url.replace("http", "ws") + f"/ws/{game['id']}?token={game['token']}"
        with connect(ws_url) as ws:
            view = receive_state(ws)
    assert view["pending"]["prompt"] == "chain"
    assert view["pending"]["prompt_id"] == before
    assert [e["text"] for e in view["log"]] == before_log

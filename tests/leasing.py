"""Helpers of the tests of several server processes on one store: play over a WebSocket,
reconnect until a match is served, read who holds a lease, run ``kessen play`` processes and
nginx (with ``deploy/nginx-kessen.conf``) in front of them."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from kessen.server.run import free_port
from kessen.store.records import MatchStore

MOVED = 4409
ROOT = Path(__file__).resolve().parents[1]
CONF = ROOT / "deploy" / "nginx-kessen.conf"
LEASE = 3.0
"""The lease of the test's ``kessen play`` processes (seconds)."""
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
NO_NGINX = (
    "nginx is not installed (Debian: apt install nginx-light); the configuration's routing "
    "is still checked against the server's routes"
)


def ws_url(base: str, game: dict[str, Any], token: str | None = None) -> str:
    """The WebSocket URL of ``game`` (its first token, or ``token``) on server ``base``."""
    return base.replace("http", "ws", 1) + f"/ws/{game['id']}?token={token or game['token']}"


def next_state(ws: ClientConnection, timeout: float = 30) -> dict[str, Any]:
    """The next view sent on ``ws`` (an error message fails the test)."""
    while True:
        message = json.loads(ws.recv(timeout=timeout))
        assert message["type"] != "error", message
        if message["type"] == "state":
            view: dict[str, Any] = message["view"]
            return view


def turn_of(ws: ClientConnection, seat: int) -> dict[str, Any]:
    """The next view in which ``seat`` must decide, or the match is over."""
    while True:
        view = next_state(ws)
        pending = view["pending"]
        if pending is None or pending["seat"] == seat:
            return view


def act(ws: ClientConnection, view: dict[str, Any], pick: int = 0) -> str:
    """Answer the pending prompt of ``view`` with its ``pick``-th legal action (the last one
    if there are fewer); the action sent."""
    pending = view["pending"]
    legal = pending["legal"]
    action = str(legal[min(pick, len(legal) - 1)])
    ws.send(json.dumps({"type": "act", "prompt_id": pending["prompt_id"], "action": action}))
    return action


def served(
    url: str, deadline: float, refused: list[int] | None = None
) -> tuple[ClientConnection, dict[str, Any]]:
    """A connection to ``url`` and the first view it got, trying again (once a tenth of a
    second, as the page does once a second) while the server answers "served elsewhere"
    (4409) or is unreachable; the refusals' close codes go to ``refused``."""
    while True:
        try:
            ws = connect(url, open_timeout=10, legacy=True)  # the caller closes it
        except (OSError, InvalidStatus):
            assert time.monotonic() < deadline, "never reached a server"
            time.sleep(0.1)
            continue
        try:
            message = json.loads(ws.recv(timeout=30))
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            assert code == MOVED, f"closed with {code}"
            if refused is not None:
                refused.append(code)
            assert time.monotonic() < deadline, "the match was never served"
            time.sleep(0.1)
            continue
        assert message["type"] == "state", message
        view: dict[str, Any] = message["view"]
        return ws, view


def holder(store: MatchStore, session: str) -> str | None:
    """The owner of ``session``'s lease, as the store says."""
    found = store.leases("reader").holder(session)
    return None if found is None else found.owner


def new_game(base: str, **body: Any) -> dict[str, Any]:
    """``POST /api/games`` on ``base``; its answer."""
    answer = httpx2.post(f"{base}/api/games", json=body, timeout=30)
    answer.raise_for_status()
    game: dict[str, Any] = answer.json()
    return game


@contextmanager
def kessen_play(
    url: str, owner: str, port: int | None = None, *extra: str, lease: float = LEASE
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``kessen play`` sharing the store ``url`` as ``owner`` (COM at pace 0, no browser,
    ``lease`` seconds); yields the process and its URL."""
    port = port or free_port(0)
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
            url,
            "--owner-id",
            owner,
            "--lease-seconds",
            str(lease),
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=ROOT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx2.get(f"{base}/api/meta", timeout=1).raise_for_status()
            break
        except httpx2.HTTPError as err:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                output = process.stdout.read() if process.stdout else b""
                raise RuntimeError(f"server did not start: {output!r}") from err
            time.sleep(0.1)
    try:
        yield process, base
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=20)


def kill_9(process: subprocess.Popen[bytes]) -> float:
    """``kill -9`` the process; when it died (monotonic seconds)."""
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
    return time.monotonic()


def nginx_conf(tmp: Path, listen: int, backends: list[int]) -> Path:
    """The deploy configuration with this test's ports, in a main configuration of its own."""
    text = CONF.read_text(encoding="utf-8")
    servers = "".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=10s;\n" for p in backends)
    text = re.sub(r"(?m)^\s*server 127\.0\.0\.1:\d+ [^\n]*# kessen-backend\n", "", text)
    hashed = "hash $kessen_match consistent;\n"
    text = text.replace(hashed, hashed + servers)
    text = re.sub(r"listen 80;", f"listen 127.0.0.1:{listen};", text)
    site = tmp / "kessen.conf"
    site.write_text(text, encoding="utf-8")
    for name in ("body", "proxy"):
        (tmp / name).mkdir(exist_ok=True)
    main = tmp / "nginx.conf"
    main.write_text(
        f"""worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 256; }}
http {{
    log_format routed "$request_method $uri match=$kessen_match to=$upstream_addr $status";
    access_log {tmp}/access.log routed;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    include {site};
}}
""",
        encoding="utf-8",
    )
    return main


@contextmanager
def nginx(tmp: Path, backends: list[int]) -> Iterator[str]:
    """nginx with the deploy configuration in front of ``backends``; yields its URL."""
    program = NGINX
    assert program is not None, NO_NGINX
    listen = free_port(0)
    conf = nginx_conf(tmp, listen, backends)
    check = subprocess.run([program, "-t", "-c", str(conf)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    process = subprocess.Popen([program, "-c", str(conf)], stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{listen}"
    deadline = time.monotonic() + 20
    while True:
        try:
            httpx2.get(f"{base}/api/meta", timeout=1)
            break
        except httpx2.HTTPError:
            assert process.poll() is None and time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.1)
    try:
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)
        for name in ("access.log", "error.log"):  # shown with a failure's captured output
            log = tmp / name
            print(log.read_text(encoding="utf-8") if log.exists() else f"no nginx {name}")

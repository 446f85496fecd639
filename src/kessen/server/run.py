"""Running the server: pick a port on 127.0.0.1, print the URL, open a browser, serve."""

from __future__ import annotations

import os
import socket
import threading
import time
import webbrowser
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from kessen.server.app import DEFAULT_PACE, create_app
from kessen.store.records import MatchStore

DEFAULT_PORT = 8765


def free_port(preferred: int = DEFAULT_PORT, host: str = "127.0.0.1") -> int:
    """``preferred`` if it can be bound, else any free port."""
    for port in (preferred, 0):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((host, port))
            except OSError:
                continue
            bound: int = sock.getsockname()[1]
            return bound
    raise OSError("no free port")


def _config(port: int, pace: float, host: str, store: MatchStore | None = None) -> uvicorn.Config:
    return uvicorn.Config(
        create_app(pace=pace, store=store),
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=65536,
    )


def serve(
    port: int = DEFAULT_PORT,
    pace: float = DEFAULT_PACE,
    open_browser: bool = True,
    host: str = "127.0.0.1",
    store: MatchStore | None = None,
) -> None:
    """Serve until interrupted; print the URL and open it in a browser when possible.

    Matches are recorded in ``store`` (unfinished ones resume when the server starts again).
    """
    port = free_port(port, host)
    url = f"http://{host}:{port}/"
    print(f"Kessen is running at {url}  (Ctrl+C to stop)", flush=True)
    if open_browser and (
        os.environ.get("DISPLAY")
        or os.environ.get("WAYLAND_DISPLAY")
        or os.name == "nt"
        or os.uname().sysname == "Darwin"
    ):
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    if store is not None:
        print(f"Matches are recorded in {store.path}", flush=True)
    uvicorn.Server(_config(port, pace, host, store)).run()


@contextmanager
def running(
    pace: float = 0.0, host: str = "127.0.0.1", store: MatchStore | None = None
) -> Iterator[str]:
    """A server in a background thread for tests; yields its base URL."""
    port = free_port(0, host)
    server = uvicorn.Server(_config(port, pace, host, store))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("server did not start")
        time.sleep(0.02)
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)

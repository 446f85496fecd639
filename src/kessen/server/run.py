"""Running the server: bind its port on 127.0.0.1, print the URL, open a browser, serve.

With ``host`` another address (``0.0.0.0``: every interface) it serves other machines of the
network: it starts only behind the Origin and Host checks of :mod:`kessen.server.security`
(:func:`guarded`; refused with a message otherwise) and prints the address to share
(:func:`kessen.server.share.share_origin`).

The port is bound with ``SO_REUSEADDR`` (as uvicorn binds), so a server restarted after a
crash gets its own port back although the old connections linger in ``TIME_WAIT``: the
browser's page, tied to that origin, finds its game again. A port that another live program
listens on is refused when asked for, and otherwise replaced by a free one, said so.

The socket listens from the moment it is bound, before the URL is printed: a browser or
script that connects at once (while the application still starts) waits in the backlog
until the server accepts, instead of being refused.
"""

from __future__ import annotations

import errno
import os
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import uvicorn

from kessen.server.app import DEFAULT_COM, DEFAULT_PACE, create_app
from kessen.server.com_pool import ComPool
from kessen.server.leases import Sharing
from kessen.server.leases import describe as describe_sharing
from kessen.server.limits import EVICT_AFTER
from kessen.server.renewal import Renewal, inherited, load_gone, resident_bytes, supported
from kessen.server.security import LOOPBACK, WILDCARDS, Guard
from kessen.server.share import share_origin
from kessen.store.records import MatchStore

DEFAULT_PORT = 8765
BACKLOG = 2048
"""Connections the kernel queues before the server accepts them (uvicorn's default)."""
SWITCH_INTERVAL = 0.0005
"""Seconds a thread may hold the GIL before another may take it (the default is 0.005)."""


class Unguarded(RuntimeError):
    """An application without the Origin and Host checks asked to serve other machines."""


def guarded(app: object) -> bool:
    """Whether ``app`` runs behind :class:`~kessen.server.security.Guard` (Origin and Host)."""
    middleware = getattr(app, "user_middleware", ())
    return any(getattr(m, "cls", None) is Guard for m in middleware)


class PortInUseError(OSError):
    """The port is held by another live program (not merely lingering in ``TIME_WAIT``)."""


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


def _bind(port: int, host: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Every connection accepted from it sends at once (no Nagle): a view followed by a
        # second small frame would otherwise wait for the client's delayed ACK (40 ms).
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except BaseException:
        sock.close()
        raise
    return sock


def listening_socket(
    port: int | None = None, host: str = "127.0.0.1", *, notice: list[str] | None = None
) -> socket.socket:
    """The server's bound socket: on ``port`` if given (:class:`PortInUseError` if another
    program holds it), else on :data:`DEFAULT_PORT` or, when that one is held, on a free port
    (the reason appended to ``notice``)."""
    if port is not None and not 0 <= port <= 65535:
        raise ValueError(f"port {port} is out of range (0-65535)")
    wanted = DEFAULT_PORT if port is None else port
    try:
        return _bind(wanted, host)
    except OSError as err:
        if err.errno not in (errno.EADDRINUSE, errno.EACCES):
            raise
        why = "is in use by another program" if err.errno == errno.EADDRINUSE else "is not allowed"
        if port is not None:
            raise PortInUseError(
                err.errno,
                f"port {port} {why}; stop that program or choose another port with --port",
            ) from None
        sock = _bind(0, host)
        if notice is not None:
            notice.append(
                f"port {wanted} {why}; using port {sock.getsockname()[1]} instead (a game left "
                f"open at port {wanted} is still in the store: open the new address)"
            )
        return sock


def _config(
    port: int,
    pace: float,
    host: str,
    store: MatchStore | None = None,
    allow_origins: Sequence[str] = (),
    default_com: str = DEFAULT_COM,
    com_pool: ComPool | None = None,
    sharing: Sharing | None = None,
    proxy: str | None = None,
    keep_finished: float = EVICT_AFTER,
) -> uvicorn.Config:
    app = create_app(
        evict_after=keep_finished,
        pace=pace,
        store=store,
        host=host,
        port=port,
        allow_origins=allow_origins,
        com_processes=True,
        default_com=default_com,
        sharing=sharing,
        behind_proxy=proxy is not None,
    )
    if com_pool is not None:  # COM on a cluster, or another width (kessen play --ray ...)
        app.state.hub.com_pool = com_pool
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=65536,
        # A view is sent after every action: compressing each one costs more CPU than the
        # bytes it saves on a local or home network.
        ws_per_message_deflate=False,
        # Behind a reverse proxy, its X-Forwarded-For names each player (quotas, local-only);
        # None: uvicorn's default (127.0.0.1, or $FORWARDED_ALLOW_IPS).
        forwarded_allow_ips=proxy,
    )


def serve(
    port: int | None = None,
    pace: float = DEFAULT_PACE,
    open_browser: bool = True,
    host: str = "127.0.0.1",
    store: MatchStore | None = None,
    allow_origins: Sequence[str] = (),
    com_pool: ComPool | None = None,
    sharing: Sharing | None = None,
    proxy: str | None = None,
    renew_after_mb: float | None = None,
    keep_finished: float = EVICT_AFTER,
) -> Renewal | None:
    """Serve until interrupted; print the URL and open it in a browser when possible.

    Matches are recorded in ``store`` (unfinished ones resume when the server starts again).
    ``port``: see :func:`listening_socket` (:class:`PortInUseError` if it is held); ``pace``
    must not be negative.
    ``allow_origins`` are origins besides the server's own that may open game connections.
    ``com_pool`` thinks for COM (default: worker processes, one per core).
    ``sharing``: one of several processes sharing ``store`` (:mod:`kessen.server.leases`);
    ``proxy``: the address of the reverse proxy in front of it (its ``X-Forwarded-For`` is
    trusted, and the server answers as one serving the network).
    ``renew_after_mb``: once every match has left memory and the process has grown by that
    many MB, it stops serving and returns its :class:`~kessen.server.renewal.Renewal`, to be
    executed once the store is closed (:mod:`kessen.server.renewal`); None: never.
    A server so renewed serves on the socket handed over, and says so in one line.
    ``keep_finished``: seconds a finished match stays in memory for its page.
    """
    if not pace >= 0:
        raise ValueError(f"pace must be a number of seconds, 0 or more, not {pace}")
    notice: list[str] = []
    handed = inherited()
    sock = handed[0] if handed is not None else listening_socket(port, host, notice=notice)
    port = int(sock.getsockname()[1])
    config = _config(
        port,
        pace,
        host,
        store,
        allow_origins,
        com_pool=com_pool,
        sharing=sharing,
        proxy=proxy,
        keep_finished=keep_finished,
    )
    app: Any = config.app
    wide = host.strip("[]") not in LOOPBACK
    if wide and not guarded(config.app):
        sock.close()
        raise Unguarded(
            f"refusing to serve other machines on {host}: the application has no Origin and "
            "Host checks (kessen.server.security.Guard)"
        )
    local = "127.0.0.1" if host.strip("[]") in WILDCARDS else host
    url = f"http://{local}:{port}/"
    if handed is not None:
        _, before, gone = handed
        if gone is not None:
            load_gone(app.state.hub, gone)
        print(_renewed_line(url, before), flush=True)
    else:
        _announce(url, notice, host, port, wide, open_browser, store, sharing)
    # COM thinks in worker threads. With the interpreter's default switch interval (5 ms), a
    # thinking COM holds the GIL that long whenever the event loop gives it up (at every
    # socket write), which adds up to tens of milliseconds per answer under load.
    sys.setswitchinterval(SWITCH_INTERVAL)
    server = uvicorn.Server(config)
    renewal = None
    if renew_after_mb is not None and renew_after_mb > 0 and supported():
        balance = app.state.balance
        renewal = Renewal(
            int(renew_after_mb * 1_000_000),
            busy=balance.busy if balance is not None else lambda: False,
        )
        renewal.watch(server, app.state.hub, sock)
    try:
        server.run(sockets=[sock])
    finally:
        if renewal is not None:
            renewal.stop()
        sock.close()
    return renewal if renewal is not None and renewal.due else None


def _renewed_line(url: str, before: int | None) -> str:
    """What a renewed server says: its memory before and now, and that it serves on."""
    now = resident_bytes()
    sizes = (
        f"{before / 1e6:.0f} MB -> {now / 1e6:.0f} MB"
        if before is not None and now is not None
        else "a fresh heap"
    )
    return (
        f"Kessen renewed its process in place ({sizes}; every match had left memory, their "
        f"records are in the store) and still serves {url}"
    )


def _announce(
    url: str,
    notice: list[str],
    host: str,
    port: int,
    wide: bool,
    open_browser: bool,
    store: MatchStore | None,
    sharing: Sharing | None,
) -> None:
    """Print the notices and the URL of a server started anew, and open it in a browser."""
    for line in notice:
        print(line, flush=True)
    print(f"Kessen is running at {url}  (Ctrl+C to stop)", flush=True)
    if wide:
        share = share_origin(host, port)
        print(
            "Other machines of your network may connect"
            + (f": share {share}/" if share else "")
            + " (pages of other sites are refused: Origin and Host checks are on; "
            "a 友達と対戦 invite link names this address)",
            flush=True,
        )
    if open_browser and (
        os.environ.get("DISPLAY")
        or os.environ.get("WAYLAND_DISPLAY")
        or os.name == "nt"
        or os.uname().sysname == "Darwin"
    ):
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    if store is not None:
        print(f"Matches are recorded in {store.path}", flush=True)
    if sharing is not None:
        print(describe_sharing(sharing), flush=True)


@contextmanager
def running(
    pace: float = 0.0,
    host: str = "127.0.0.1",
    store: MatchStore | None = None,
    allow_origins: Sequence[str] = (),
    default_com: str = "heuristic",
) -> Iterator[str]:
    """A server in a background thread for tests; yields its base URL. Its start screen offers
    the rule-based COM first (``default_com``: quick games), where ``kessen play`` offers ふつう."""
    sock = _bind(0, host)  # held from here on: no other test's server can take the port
    port = int(sock.getsockname()[1])
    server = uvicorn.Server(_config(port, pace, host, store, allow_origins, default_com))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
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
        sock.close()

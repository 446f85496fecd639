"""The server's gate: Host and Origin allow-lists, security headers, body size, last-resort 500.

:class:`Guard` is an ASGI middleware in front of every route, HTTP and WebSocket alike:

- **Host** (DNS rebinding). An HTTP request or WebSocket handshake whose ``Host`` header names
  a host that is not this server's is refused with 400 and a message saying which hosts are
  served. The server's hosts are ``127.0.0.1``, ``localhost`` and ``::1``, the ``--host``
  address it listens on, and the host of every ``--allow-origin``. Listening on every
  interface (``0.0.0.0`` or ``::``), any IP address is also accepted as a host: DNS rebinding
  needs a domain name. A request without ``Host`` (HTTP/1.0, never a browser) passes.
- **Origin** (cross-site WebSocket hijacking). A WebSocket handshake whose ``Origin`` is not
  one of the server's own origins (``http://<host>:<port>`` for the hosts above, any port while
  the port is not known) nor an ``--allow-origin`` is refused with 403. Browsers always send
  ``Origin`` on a WebSocket handshake, so a handshake without one comes from a program (tests,
  scripts) and passes: it could as well have sent any Origin it liked.
  The same check refuses a request that changes something (``POST`` and the like) sent by a
  page of another origin (cross-site request forgery).
- **Headers** on every HTTP response: a ``Content-Security-Policy`` that allows only the
  server's own scripts, styles, images and connections (no inline script, no framing),
  ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY`` and
  ``Referrer-Policy: no-referrer``.
- **Body size**: a request body larger than :data:`MAX_BODY` bytes gets 413 before it is read.
- **Last resort**: an exception no route handled is logged with its traceback and answered
  with a generic 500 JSON body that carries nothing of the exception (its text could name a
  hidden card).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK: Final = ("127.0.0.1", "localhost", "::1")
"""The names of this machine a local browser uses."""
WILDCARDS: Final = ("0.0.0.0", "::", "")
"""Bind addresses that mean every interface."""
MAX_BODY: Final = 256 * 1024
"""The largest request body accepted (a new game with two inline decks is a few KB)."""

_log = logging.getLogger(__name__)


def same_secret(given: str, known: str) -> bool:
    """Whether a secret a client sent (a token, an invite code) is ``known``, compared in
    constant time. Compared as UTF-8 bytes: ``secrets.compare_digest`` refuses ``str`` with
    non-ASCII characters (a TypeError), and what a client sends may hold any character.

    >>> same_secret("abc", "abc"), same_secret("é", "abc")
    (True, False)
    """
    return secrets.compare_digest(given.encode(), known.encode())


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _host_name(value: str) -> str:
    """The host part of a ``Host`` header (``[::1]:8765`` → ``::1``), lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def normalize_origin(origin: str) -> str:
    """``origin`` as browsers send it: ``scheme://host[:port]``, lower case, no default port.

    Raises :class:`ValueError` saying why for anything that is not an http(s) origin.

    >>> normalize_origin("HTTP://Example.org:80/"), normalize_origin("https://a.example:8443")
    ('http://example.org', 'https://a.example:8443')
    """
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{origin!r} is not an origin such as http://192.168.1.5:8765")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError(f"{origin!r} is not an origin: scheme, host and port only")
    try:
        port = parts.port
    except ValueError as err:
        raise ValueError(f"{origin!r} has no valid port") from err
    host = parts.hostname
    shown = f"[{host}]" if ":" in host else host
    default = {"http": 80, "https": 443}[parts.scheme]
    return f"{parts.scheme}://{shown}" + ("" if port in (None, default) else f":{port}")


@dataclass(frozen=True)
class AllowList:
    """The hosts and origins this server answers to."""

    hosts: frozenset[str]
    origins: frozenset[str]
    port: int | None
    any_ip: bool

    @staticmethod
    def build(
        host: str = "127.0.0.1", port: int | None = None, extra: Iterable[str] = ()
    ) -> AllowList:
        """The allow-list of a server listening on ``host``:``port`` (``None``: not known
        yet, any port of the server's hosts is its own), plus the ``extra`` origins
        (``--allow-origin``). Raises :class:`ValueError` for an extra that is no origin.

        >>> allowed = AllowList.build("127.0.0.1", 8765, ["http://pc.lan:8765"])
        >>> allowed.host_ok("localhost:8765"), allowed.host_ok("evil.example:8765")
        (True, False)
        >>> allowed.origin_ok("http://pc.lan:8765"), allowed.origin_ok("http://localhost:9")
        (True, False)
        """
        extras = frozenset(normalize_origin(o) for o in extra)
        hosts = {*LOOPBACK, _host_name(host)} - {""}
        hosts.update(_host_name(urlsplit(o).netloc) for o in extras)
        return AllowList(frozenset(hosts), extras, port, host.strip("[]") in WILDCARDS)

    def host_ok(self, header: str) -> bool:
        """Whether a ``Host`` header names this server."""
        name = _host_name(header)
        return name in self.hosts or (self.any_ip and _is_ip(name))

    def origin_ok(self, origin: str) -> bool:
        """Whether ``origin`` is one of the server's own origins or an allowed extra."""
        try:
            normal = normalize_origin(origin)
        except ValueError:
            return False
        if normal in self.origins:
            return True
        parts = urlsplit(normal)
        name = parts.hostname or ""
        if parts.scheme != "http" or not (name in self.hosts or (self.any_ip and _is_ip(name))):
            return False
        return self.port is None or (parts.port or 80) == self.port

    def describe(self) -> str:
        """The accepted hosts, for refusal messages."""
        listed = sorted(self.hosts) + (["any IP address"] if self.any_ip else [])
        return ", ".join(listed)


def content_security_policy(host: str) -> str:
    """The CSP of every response, for a request that reached the server as ``host``."""
    connect = "'self'" + (f" ws://{host} wss://{host}" if host else "")
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src {connect}; font-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    )


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


class Guard:
    """ASGI middleware: see the module docstring."""

    def __init__(self, app: ASGIApp, allow: AllowList, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.allow = allow
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check, then pass on to the application."""
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if host is not None and not self.allow.host_ok(host):
            _log.warning("refused a request for host %r (not this server's)", host)
            await self._refuse(
                scope,
                send,
                400,
                f"Host {host!r} is not this server's (DNS rebinding protection); "
                f"it answers to {self.allow.describe()}",
            )
            return
        if kind == "websocket":
            origin = _header(scope, b"origin")
            if origin is not None and not self.allow.origin_ok(origin):
                _log.warning("refused a WebSocket from origin %r", origin)
                await self._refuse(
                    scope,
                    send,
                    403,
                    f"Origin {origin!r} may not open a game connection; start the server with "
                    "--allow-origin to allow it",
                )
                return
            await self.app(scope, receive, send)
            return
        await self._http(scope, receive, send, host or "")

    async def _http(self, scope: Scope, receive: Receive, send: Send, host: str) -> None:
        origin = _header(scope, b"origin")
        unsafe = scope.get("method") not in ("GET", "HEAD", "OPTIONS")
        if unsafe and origin is not None and not self.allow.origin_ok(origin):
            _log.warning("refused a %s from origin %r", scope.get("method"), origin)
            await self._refuse(
                scope, send, 403, f"Origin {origin!r} may not start or continue games here"
            )
            return
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await self._refuse(scope, send, 413, f"request body over {self.max_body} bytes")
            return
        extra = [
            (b"content-security-policy", content_security_policy(host).encode("latin-1")),
            (b"x-content-type-options", b"nosniff"),
            (b"x-frame-options", b"DENY"),
            (b"referrer-policy", b"no-referrer"),
        ]
        started = False
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:  # the route's own handling answers 413 with this
                    raise HTTPException(413, f"request body over {self.max_body} bytes")
            return message

        async def headed(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                names = {bytes(k).lower() for k, _ in message.get("headers", ())}
                message["headers"] = [
                    *message.get("headers", ()),
                    *((k, v) for k, v in extra if k not in names),
                ]
            await send(message)

        try:
            await self.app(scope, counted, headed)
        except Exception:
            _log.exception("unhandled error on %s %s", scope.get("method"), scope.get("path"))
            if not started:
                await self._refuse(
                    scope, headed, 500, "internal server error; the server log has the details"
                )

    @staticmethod
    async def _refuse(scope: Scope, send: Send, status: int, detail: str) -> None:
        """Answer ``status`` with ``{"detail": ...}`` (a WebSocket handshake: before accepting)."""
        body = json.dumps({"detail": detail}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        if scope["type"] == "websocket":
            if "websocket.http.response" in scope.get("extensions", {}):
                await send(
                    {"type": "websocket.http.response.start", "status": status, "headers": headers}
                )
                await send({"type": "websocket.http.response.body", "body": body})
            else:
                await send({"type": "websocket.close", "code": 1008, "reason": detail[:120]})
            return
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

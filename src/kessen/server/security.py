"""The server's gate: Host and Origin allow-lists, security headers, body size, last-resort 500.

:class:`Guard` is an ASGI middleware in front of every route, HTTP and WebSocket alike:

- **Host** (DNS rebinding). An HTTP request or WebSocket handshake whose ``Host`` header names
  a host that is not this server's is refused with 400 and a message saying which hosts are
  served. The server's hosts are ``127.0.0.1``, ``localhost`` and ``::1``, the ``--host``
  address it listens on, and the host of every ``--allow-origin``. Listening on every
  interface (``0.0.0.0`` or ``::``), any IP address is also accepted as a host: DNS rebinding
  needs a domain name. A request without ``Host`` (HTTP/1.0, never a browser) passes.
- **Origin** (cross-site WebSocket hijacking). A WebSocket handshake whose ``Origin`` is not
  one of the server's own origins nor an ``--allow-origin`` is refused with 403. The server's
  own origins are ``http://<host>:<port>`` for the names above (any port while the port is not
  known); listening on every interface, also for this machine's own addresses (loopback and
  :func:`machine_addresses`), never for just any IP address: a page at
  ``http://203.0.113.9:<port>`` is another machine's. An ``Origin`` equal to the request's own
  ``Host`` (``http://<Host>``, for a Host the check above accepted) is the page's own origin,
  whatever address the browser reached the server at. Browsers always send
  ``Origin`` on a WebSocket handshake, so a handshake without one comes from a program (tests,
  scripts) and passes: it could as well have sent any Origin it liked.
  The same check refuses a request that changes something (``POST`` and the like) sent by a
  page of another origin (cross-site request forgery).
- **Headers** on every HTTP response, the Guard's own refusals included: a
  ``Content-Security-Policy`` that allows only the server's own scripts, styles, images and
  connections (no inline script, no framing), ``X-Content-Type-Options: nosniff``,
  ``X-Frame-Options: DENY`` and ``Referrer-Policy: no-referrer``.
- **Body size**: a request body larger than :data:`MAX_BODY` bytes gets 413 before it is read.
- **Last resort**: an exception no route handled is logged with its traceback and answered
  with a generic 500 JSON body that carries nothing of the exception (its text could name a
  hidden card).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
import secrets
import socket
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
_HOST_HEADER: Final = re.compile(
    r"(\[[0-9a-z:.%]+\]|[^\s\[\]:/;,@]+)(:[0-9]{1,5})?|[0-9a-f:.]+", re.I
)
"""A well-formed ``Host`` header: a name, an IPv4 address or a bracketed IPv6 address, and an
optional port (or a bare IPv6 address); nothing a header built from it could be split at."""


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


def _ip_text(name: str) -> str | None:
    """``name`` as the canonical text of an IP address (no IPv6 zone), ``None`` if it is none."""
    try:
        return str(ipaddress.ip_address(name.split("%", 1)[0]))
    except ValueError:
        return None


_ROUTE_PROBES: Final = ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1"))
"""Documentation addresses (RFC 5737, RFC 3849): a UDP socket "connected" to one picks the
interface of the default route without sending anything."""


def machine_addresses() -> frozenset[str]:
    """The IP addresses of this machine that other machines reach it at, as far as it can tell
    without privileges: what its host name resolves to, and the address of each default route
    (IPv4, IPv6). Loopback addresses are left to the caller; a lookup that fails adds nothing.
    """
    found: set[str] = set()
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None)
    except (OSError, UnicodeError):
        infos = []
    found.update(str(info[4][0]) for info in infos)
    for family, target in _ROUTE_PROBES:
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.connect((target, 9))
                found.add(str(probe.getsockname()[0]))
        except OSError:
            continue
    texts = (_ip_text(address) for address in found)
    return frozenset(t for t in texts if t is not None and not ipaddress.ip_address(t).is_loopback)


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
    own_ips: frozenset[str] = frozenset()
    """Listening on every interface: this machine's own addresses (canonical text), whose
    origins on the server's port are the server's own too."""

    @staticmethod
    def build(
        host: str = "127.0.0.1",
        port: int | None = None,
        extra: Iterable[str] = (),
        own: Iterable[str] | None = None,
    ) -> AllowList:
        """The allow-list of a server listening on ``host``:``port`` (``None``: not known
        yet, any port of the server's hosts is its own), plus the ``extra`` origins
        (``--allow-origin``). Raises :class:`ValueError` for an extra that is no origin.
        Listening on every interface, ``own`` are this machine's addresses
        (:func:`machine_addresses` when not given).

        >>> allowed = AllowList.build("127.0.0.1", 8765, ["http://pc.lan:8765"])
        >>> allowed.host_ok("localhost:8765"), allowed.host_ok("evil.example:8765")
        (True, False)
        >>> allowed.origin_ok("http://pc.lan:8765"), allowed.origin_ok("http://localhost:9")
        (True, False)
        >>> lan = AllowList.build("0.0.0.0", 8765, own=["192.168.1.5"])
        >>> lan.origin_ok("http://192.168.1.5:8765"), lan.origin_ok("http://203.0.113.9:8765")
        (True, False)
        >>> lan.origin_ok("http://203.0.113.9:8765", host="203.0.113.9:8765")
        True
        """
        extras = frozenset(normalize_origin(o) for o in extra)
        hosts = {*LOOPBACK, _host_name(host)} - {""}
        hosts.update(_host_name(urlsplit(o).netloc) for o in extras)
        any_ip = host.strip("[]") in WILDCARDS
        own_ips: frozenset[str] = frozenset()
        if any_ip:
            texts = (_ip_text(a) for a in (machine_addresses() if own is None else own))
            own_ips = frozenset(t for t in texts if t is not None)
        return AllowList(frozenset(hosts), extras, port, any_ip, own_ips)

    def host_ok(self, header: str) -> bool:
        """Whether a ``Host`` header names this server."""
        if _HOST_HEADER.fullmatch(header.strip()) is None:
            return False
        name = _host_name(header)
        return name in self.hosts or (self.any_ip and _is_ip(name))

    def _own_ip(self, name: str) -> bool:
        """Listening on every interface, whether ``name`` is an address of this machine."""
        if not self.any_ip:
            return False
        text = _ip_text(name)
        return text is not None and (text in self.own_ips or ipaddress.ip_address(text).is_loopback)

    def origin_ok(self, origin: str, host: str | None = None) -> bool:
        """Whether ``origin`` is one of the server's own origins or an allowed extra; ``host``
        is the request's ``Host`` header (an origin equal to it is the page's own)."""
        try:
            normal = normalize_origin(origin)
        except ValueError:
            return False
        if normal in self.origins:
            return True
        if host is not None and self.host_ok(host) and _same_as_host(normal, host):
            return True
        parts = urlsplit(normal)
        name = parts.hostname or ""
        if parts.scheme != "http" or not (name in self.hosts or self._own_ip(name)):
            return False
        return self.port is None or (parts.port or 80) == self.port

    def describe(self) -> str:
        """The accepted hosts, for refusal messages."""
        listed = sorted(self.hosts) + (["any IP address"] if self.any_ip else [])
        return ", ".join(listed)


def _same_as_host(normal: str, host: str) -> bool:
    """Whether the normalized origin ``normal`` is ``http://`` + the ``Host`` header ``host``."""
    try:
        return normal == normalize_origin(f"http://{host.strip()}")
    except ValueError:
        return False


def content_security_policy(host: str) -> str:
    """The CSP of every response, for a request that reached the server as ``host``."""
    connect = "'self'" + (f" ws://{host} wss://{host}" if host else "")
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src {connect}; font-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    )


def security_headers(host: str) -> list[tuple[bytes, bytes]]:
    """The headers every HTTP response carries, for a request that reached the server as
    ``host`` (empty: not known, or not the server's)."""
    return [
        (b"content-security-policy", content_security_policy(host).encode("latin-1")),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"no-referrer"),
    ]


def header(scope: Scope, name: bytes) -> str | None:
    """The value of the request header ``name`` (lower-case bytes) in ``scope``, if sent."""
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
        host = header(scope, b"host")
        if host is not None and not self.allow.host_ok(host):
            _log.warning("refused a request for host %r (not this server's)", host)
            await self._refuse(
                scope,
                send,
                400,
                f"Host {host!r} is not this server's (DNS rebinding protection); "
                f"it answers to {self.allow.describe()}",
                "",  # not this server's name: no ws:// source for it in the CSP
            )
            return
        if kind == "websocket":
            origin = header(scope, b"origin")
            if origin is not None and not self.allow.origin_ok(origin, host):
                _log.warning("refused a WebSocket from origin %r", origin)
                await self._refuse(
                    scope,
                    send,
                    403,
                    f"Origin {origin!r} may not open a game connection; start the server with "
                    "--allow-origin to allow it",
                    host or "",
                )
                return
            await self.app(scope, receive, send)
            return
        await self._http(scope, receive, send, host or "")

    async def _http(self, scope: Scope, receive: Receive, send: Send, host: str) -> None:
        origin = header(scope, b"origin")
        unsafe = scope.get("method") not in ("GET", "HEAD", "OPTIONS")
        if unsafe and origin is not None and not self.allow.origin_ok(origin, host or None):
            _log.warning("refused a %s from origin %r", scope.get("method"), origin)
            await self._refuse(
                scope, send, 403, f"Origin {origin!r} may not start or continue games here", host
            )
            return
        length = header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await self._refuse(scope, send, 413, f"request body over {self.max_body} bytes", host)
            return
        extra = security_headers(host)
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
                    scope, send, 500, "internal server error; the server log has the details", host
                )

    @staticmethod
    async def _refuse(scope: Scope, send: Send, status: int, detail: str, host: str) -> None:
        """Answer ``status`` with ``{"detail": ...}`` and the security headers for ``host``
        (a WebSocket handshake: before accepting)."""
        body = json.dumps({"detail": detail}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *security_headers(host),
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

"""The address other machines reach this server at, for the links a player shares.

A server started with ``kessen play --host 0.0.0.0`` (every interface) or ``--host <address>``
serves other machines of the network. The page of the person who started it is usually open at
``127.0.0.1``, an address that means *this* machine to whoever opens it: the links it shares
(a 友達と対戦 invite) must name the server's network address instead. :func:`share_origin` is
that address (``None`` for a server that serves this machine only).
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Final

from kessen.server.security import LOOPBACK, WILDCARDS

_PROBE: Final = ("192.0.2.1", 9)
"""A documentation address (RFC 5737): a UDP socket "connected" to it picks the interface of
the default route without sending anything."""


def lan_address() -> str | None:
    """This machine's address on its network (the default route's interface), if any."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback else address


def share_origin(host: str, port: int | None) -> str | None:
    """The origin other machines open this server at: the network address when it listens on
    every interface, the ``host`` itself when that is not a loopback name; ``None`` when it
    serves this machine only (or its port is not known).

    >>> share_origin("127.0.0.1", 8765), share_origin("192.168.1.5", 8765)
    (None, 'http://192.168.1.5:8765')
    >>> share_origin("fe80::1", 80)
    'http://[fe80::1]:80'
    """
    name = host.strip("[]")
    if port is None or name in LOOPBACK:
        return None
    if name in WILDCARDS:
        found = lan_address()
        if found is None:
            return None
        name = found
    shown = f"[{name}]" if ":" in name else name
    return f"http://{shown}:{port}"

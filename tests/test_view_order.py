"""Views reach every connection in the order they were made, even when broadcasts overlap."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any, cast

import pytest

from kessen.engine.contract import Json
from kessen.server.hub import Client, Hub


@dataclass
class SlowFirstSocket:
    """A WebSocket whose first message takes ``delay`` seconds to leave (a slow connection);
    keeps what it sent."""

    delay: float
    calls: int = 0
    sent: list[Json] = field(default_factory=list)

    async def send_text(self, text: str) -> None:
        self.calls += 1
        if self.delay and self.calls == 1:
            await asyncio.sleep(self.delay)
        self.sent.append(json.loads(text))


@dataclass
class CountingSession:
    """A session whose state is a number; each view shows it."""

    id: str = "s1"
    state: int = 0

    def view_for(self, seat: int, lang: str, show_all: bool) -> Json:
        return {"state": self.state, "seat": seat, "log": [{"n": i} for i in range(self.state)]}


def shown(socket: SlowFirstSocket, delta: bool) -> list[int]:
    """The states a page shows, message by message (a delta page applies each delta)."""
    states: list[int] = []
    for message in socket.sent:
        if not delta or message["type"] == "state":
            states.append(int(message["view"]["state"]))
        else:
            states.append(int(message["set"]["state"]) if "state" in message["set"] else states[-1])
    return states


async def overlapping_broadcasts(delta: bool, second: str) -> tuple[list[int], list[int]]:
    """A broadcast, then (``second``) another broadcast or one connection's own view made from
    a later state while the first still waits on a slow connection; the states each
    connection's page shows, in order."""
    hub: Any = Hub(pace=0.0)
    session: Any = CountingSession(state=1)
    slow, fast = SlowFirstSocket(0.05), SlowFirstSocket(0.0)
    sockets: tuple[Any, ...] = (slow, fast)
    clients = [Client(ws=socket, seat=seat, delta=delta) for seat, socket in enumerate(sockets)]
    hub.clients[session.id] = clients  # a list: the slow connection is sent to first
    first = asyncio.create_task(hub.broadcast(session))
    await asyncio.sleep(0.01)  # the first broadcast made its views and waits on the slow one
    session.state = 2
    if second == "broadcast":
        await hub.broadcast(session)
    else:  # the fast page asked for its view (a reconnection, a language switch)
        await hub.send_state(session, clients[1])
    await first
    return shown(slow, delta), shown(fast, delta)


@pytest.mark.parametrize("delta", [False, True], ids=["full views", "deltas"])
def test_an_overlapping_broadcast_never_takes_a_page_back(delta: bool) -> None:
    """Every page shows the states in the order they happened and ends on the later one: the
    older view waits for the slow connection before the newer one is sent."""
    for page in asyncio.run(overlapping_broadcasts(delta, "broadcast")):
        assert page == sorted(page) and page[-1] == 2, page


@pytest.mark.parametrize("delta", [False, True], ids=["full views", "deltas"])
def test_a_view_made_before_one_already_sent_is_dropped(delta: bool) -> None:
    """The fast page got its own view of the later state while the broadcast of the earlier
    one waited on the slow page: the broadcast's older view is not sent to it after."""
    slow_page, fast_page = asyncio.run(overlapping_broadcasts(delta, "own view"))
    assert slow_page == [1]
    assert fast_page == [2]


def test_views_made_in_order_all_arrive() -> None:
    """Nothing is dropped when views are sent in the order they were made."""

    async def run() -> list[int]:
        hub: Any = Hub(pace=0.0)
        session: Any = CountingSession()
        socket = SlowFirstSocket(0.0)
        client = Client(ws=cast(Any, socket), seat=0)
        hub.clients[session.id] = [client]
        for state in range(1, 5):
            session.state = state
            await hub.broadcast(session)
        await hub.send_state(session, client)
        return shown(socket, False)

    assert asyncio.run(run()) == [1, 2, 3, 4, 4]

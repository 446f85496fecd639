"""The live sessions of a server: their connections, their COM tasks, their locks, their end.

Every change to a session and every view of it is made under the session's own
``asyncio.Lock``. The short work (a person's action, undo and redo, applying COM's move,
computing the views sent out, a quick COM's decision: a millisecond or so each) runs on the
event loop, where a worker thread would only add hand-overs of the interpreter lock to every
action; the one long piece of work, a search COM's thinking, goes outside the lock (from its
own view) to :mod:`kessen.server.com_pool`'s worker processes, so it never delays another game,
nor a person's ping or reload. No thread of the server holds the interpreter for long: what
leaves memory is collected on the loop in small steps while games are played, and in full
only when none is (:meth:`Hub.sweeper`).

At most :data:`~kessen.server.limits.MAX_SESSIONS` sessions live at once. A finished session
(its live state has an outcome) leaves memory :data:`~kessen.server.limits.EVICT_AFTER`
seconds after its end once nobody is connected to it, or at once when a new game needs its
place (its connections get an ``evicted`` message first). The store keeps its record; a later
connection to it is told the record's match id (:meth:`Hub.evicted_message`).

A match between two people has no COM task: its task watches the table instead (a clock that
runs out, a grace period that ends: :meth:`Hub._watch`), and every connection that opens or
closes is told to the session (:meth:`Hub.arrived`, :meth:`Hub.departed`) and shown to all.

A server that shares its PostgreSQL store with other server processes holds a lease on each of
its sessions (:attr:`Hub.leases`, :mod:`kessen.server.leases`): a session joining the hub takes
its lease, one leaving it drops it, and one that moved to another process (handed over, or
taken over while this one was silent) leaves with its connections closed by code 4409, so
that the pages reconnect and find it there.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import hashlib
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Protocol

import pydantic_core
from fastapi import HTTPException, Request, WebSocket, WebSocketDisconnect

from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.server.com_pool import ONLY_WATCHED, PERSON_WAITS, ComPool
from kessen.server.deltas import Encoded, encode
from kessen.server.deltas import message as delta_message
from kessen.server.limits import (
    CLIENT_BURST,
    CLIENT_RATE,
    EVICT_AFTER,
    FIRST_VISIT,
    IDLE_AFTER,
    MAX_CONNECTIONS_PER_CLIENT,
    MAX_SESSIONS,
    MAX_SESSIONS_PER_CLIENT,
    ROOM_IDLE,
    TokenBucket,
)
from kessen.server.protocol import error
from kessen.server.security import same_secret
from kessen.server.session import Session, com_notes
from kessen.store.leases import LeaseLostError

DEFAULT_PACE = 3.0
RELEASE_AFTER = 20
"""Sessions leaving memory between two releases of their memory to the system."""
EVICTED_KEPT = 4096
"""How many evicted sessions the hub still recognises (to point a reconnect to the record)."""

_log = logging.getLogger(__name__)


class Full(RuntimeError):
    """No room for another session: every session in memory is still being played."""


class Crowded(Full):
    """One client already plays as many sessions at once as one client may."""


class Leases(Protocol):
    """Leases on the sessions of a server that shares its store with other server processes
    (:class:`kessen.server.leases.Keeper`)."""

    def claim(self, session: Session) -> None:
        """A session joins the hub: hold its lease."""
        ...

    def rekey(self, session: Session) -> None:
        """The session may have a new record: the lease follows it."""
        ...

    def forget(self, session_id: str, moved: bool) -> None:
        """A session left the hub (``moved``: to another process)."""
        ...

    def live_elsewhere(self) -> set[int]:
        """The matches other live processes serve."""
        ...


@dataclass(eq=False)
class Client:
    """One open WebSocket: its seat, language and spectator switch, and whether it takes its
    views as deltas (:mod:`kessen.server.deltas`)."""

    ws: WebSocket
    seat: int
    lang: str = "ja"
    show_all: bool = False
    delta: bool = False
    sent: Encoded | None = None
    """The last view sent on this connection (a delta connection's base)."""
    sending: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held from choosing a view to send (and making a delta connection's message) to sending
    it: messages leave in the order of their serials, a delta in the order of its bases."""
    sent_serial: int = -1
    """The serial of the newest view sent on this connection (:attr:`Hub.serial`)."""

    async def send_view(self, text: str | None, encoded: Encoded | None, serial: int) -> None:
        """Send this connection its view: ``text`` (the full ``state`` message) or, on a delta
        connection, the message made from ``encoded`` and its last view. ``serial`` says when
        the view was made; a view made before one this connection was already sent is dropped
        (two broadcasts overlap when one waits on a slow connection while the next, made from a
        later state, reaches the others first: the page would go back to the older state)."""
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            async with self.sending:
                if serial < self.sent_serial:
                    return
                self.sent_serial = serial
                if not self.delta or encoded is None:
                    assert text is not None
                    await self.ws.send_text(text)
                    return
                out = delta_message(self.sent, encoded)
                self.sent = encoded
                await self.ws.send_text(out)


@dataclass
class Hub:
    """All sessions of this server, their connections and their COM tasks."""

    pace: float = DEFAULT_PACE
    max_sessions: int = MAX_SESSIONS
    evict_after: float = EVICT_AFTER
    sessions: dict[str, Session] = field(default_factory=dict)
    clients: dict[str, set[Client]] = field(default_factory=dict)
    wake: dict[str, asyncio.Event] = field(default_factory=dict)
    tasks: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    locks: dict[str, asyncio.Lock] = field(default_factory=dict)
    ended: dict[str, float] = field(default_factory=dict)
    """When each finished session was first seen finished (monotonic seconds)."""
    gone: OrderedDict[str, tuple[int | None, frozenset[str]]] = field(default_factory=OrderedDict)
    """Evicted sessions: their record's match id and the digests of their tokens
    (:func:`token_digest`: what a renewed process is handed holds no token)."""
    closing: set[asyncio.Task[None]] = field(default_factory=set)
    """Connections of evicted sessions being told and closed, and departures being told."""
    idle_after: float = IDLE_AFTER
    per_client: int = MAX_SESSIONS_PER_CLIENT
    connections_per_client: int = MAX_CONNECTIONS_PER_CLIENT
    com_pool: ComPool = field(default_factory=ComPool)
    owners: dict[str, str] = field(default_factory=dict)
    """The client (address) that started each session; none for a session restored on
    start-up."""
    serial: int = 0
    """The serial of the last view made (:meth:`next_serial`): a connection never gets a view
    made before one it was sent."""
    idle_since: dict[str, float] = field(default_factory=dict)
    """Sessions without any open connection, and since when (monotonic seconds)."""
    visited: set[str] = field(default_factory=set)
    """Sessions that have had a connection (a player who left one went elsewhere; a new one
    waits :data:`~kessen.server.limits.FIRST_VISIT` seconds for its first)."""
    connections: dict[str, int] = field(default_factory=dict)
    """Open WebSockets per client address."""
    buckets: dict[str, TokenBucket] = field(default_factory=dict)
    """The message rate limit of each client address, over all its connections."""
    leases: Leases | None = None
    """The leases of a server sharing its store with other processes (none alone)."""
    left: int = 0
    """Sessions that have left this process's memory (evicted, abandoned or moved)."""

    def add(self, session: Session, owner: str | None = None) -> None:
        """Register a session (started by client ``owner``) and start driving its COM seats;
        :class:`Full` if there is no room (:meth:`make_room`)."""
        if session.id in self.sessions:
            raise ValueError(f"session {session.id} is already live")
        self.make_room(owner)
        if self.leases is not None:
            self.leases.claim(session)
        if owner is not None:
            self.owners[session.id] = owner
        self.idle_since[session.id] = time.monotonic()
        self.sessions[session.id] = session
        self.clients[session.id] = set()
        self.locks[session.id] = asyncio.Lock()
        self.wake[session.id] = asyncio.Event()
        drive = self._watch if session.table is not None else self._drive
        self.tasks[session.id] = asyncio.create_task(drive(session))
        self.wake[session.id].set()
        self._note_end(session)

    def make_room(self, owner: str | None = None) -> None:
        """Make sure one more session of client ``owner`` fits.

        A client plays at most :attr:`per_client` unfinished sessions at once: beyond, its
        own session left longest without a connection is abandoned (it went to another game),
        and if all of them are open, :class:`Crowded`. The server holds at most
        :attr:`max_sessions`: beyond, the finished session that ended first is evicted, else
        the session left longest without a connection (for at least
        :data:`~kessen.server.limits.ROOM_IDLE` seconds) is abandoned, else :class:`Full`.
        """
        if owner is not None:
            mine = [
                sid for sid, who in self.owners.items() if who == owner and sid not in self.ended
            ]
            if len(mine) >= self.per_client:
                now = time.monotonic()
                left = [
                    sid
                    for sid in mine
                    if sid in self.idle_since
                    and (sid in self.visited or now - self.idle_since[sid] >= FIRST_VISIT)
                ]
                if not left:
                    raise Crowded(
                        f"you already play {len(mine)} games at once on this server, the most "
                        "one player may; finish or leave one of them first"
                    )
                self.abandon(
                    min(left, key=self.idle_since.__getitem__), "its player started another game"
                )
        if len(self.sessions) < self.max_sessions or self._evict_oldest():
            return
        now = time.monotonic()
        idle = [
            sid
            for sid, since in self.idle_since.items()
            if now - since >= ROOM_IDLE and sid not in self.ended
        ]
        if idle:
            self.abandon(min(idle, key=self.idle_since.__getitem__), "the server needed room")
            return
        raise Full(
            f"the server already runs {len(self.sessions)} unfinished games, its limit; "
            "finish one, or try again later"
        )

    def live_match_ids(self) -> set[int]:
        """The records of the sessions this server holds (a match being played, or one just
        ended and still on screen): the history's ``live`` state."""
        here = {
            session.recorder.match_id
            for session in self.sessions.values()
            if session.recorder is not None
        }
        return here if self.leases is None else here | self.leases.live_elsewhere()

    def abandon(self, session_id: str, why: str) -> None:
        """End an unfinished session that its players left: its record is finished as
        abandoned (no winner, never resumed), and it leaves memory."""
        session = self.sessions.get(session_id)
        if session is None:
            return
        if not session.over and session.recorder is not None:
            recorder = session.recorder
            try:
                recorder.store.finish_match(recorder.match_id, None)
            except Exception:  # the store's trouble must not keep the room taken
                _log.exception("session %s: its record could not be marked abandoned", session_id)
        self.evict(session_id, f"abandoned: {why}")

    # --- clients ------------------------------------------------------------------------

    def connect(self, address: str) -> bool:
        """Count one more open WebSocket of client ``address``; False (nothing counted) if it
        already holds as many as one client may."""
        count = self.connections.get(address, 0)
        if count >= self.connections_per_client:
            return False
        self.connections[address] = count + 1
        return True

    def disconnect(self, address: str) -> None:
        """One WebSocket of ``address`` closed."""
        count = self.connections.get(address, 0) - 1
        if count > 0:
            self.connections[address] = count
        else:
            self.connections.pop(address, None)
            self.buckets.pop(address, None)

    def bucket(self, address: str) -> TokenBucket:
        """The rate limit shared by every connection of client ``address``."""
        found = self.buckets.get(address)
        if found is None:
            found = self.buckets[address] = TokenBucket(rate=CLIENT_RATE, burst=CLIENT_BURST)
        return found

    def lock(self, session: Session) -> asyncio.Lock:
        """The lock every change to ``session`` and every view of it is made under (an evicted
        session, finished and unreachable, gets a fresh one)."""
        return self.locks.get(session.id) or asyncio.Lock()

    async def view(self, session: Session, client: Client) -> Json:
        """``client``'s own view of the session."""
        async with self.lock(session):
            return session.view_for(client.seat, client.lang, client.show_all)

    def next_serial(self) -> int:
        """A new view serial: views made later (under their session's lock) get larger ones."""
        self.serial += 1
        return self.serial

    async def send_state(self, session: Session, client: Client) -> None:
        """Send ``client`` its own view of the session (as a delta, if it asked for them)."""
        async with self.lock(session):
            view = session.view_for(client.seat, client.lang, client.show_all)
            text, encoded = (None, encode(view)) if client.delta else (state_message(view), None)
            serial = self.next_serial()
        await client.send_view(text, encoded, serial)

    async def broadcast(self, session: Session, but: Client | None = None) -> None:
        """Send every client of the session (``but`` one) its own view."""
        clients = [c for c in self.clients.get(session.id, ()) if c is not but]
        if not clients:
            return

        # Each view is made and encoded once (spectators share theirs); each delta connection's
        # message is made from its own last view.
        views: dict[tuple[int, str, bool], Json] = {}
        texts: dict[tuple[int, str, bool], str] = {}
        encoded: dict[tuple[int, str, bool], Encoded] = {}
        async with self.lock(session):
            # Read once: a client may switch its language while the others are sent theirs.
            keys = [(c.seat, c.lang, c.show_all) for c in clients]
            for c, key in zip(clients, keys, strict=True):
                if key not in views:
                    views[key] = session.view_for(*key)
                if c.delta and key not in encoded:
                    encoded[key] = encode(views[key])
                elif not c.delta and key not in texts:
                    texts[key] = state_message(views[key])
            serial = self.next_serial()
        for client, key in zip(clients, keys, strict=True):
            await client.send_view(texts.get(key), encoded.get(key), serial)

    def changed(self, session: Session) -> None:
        """Something changed: the COM task looks again, and the end is noted (or forgotten,
        if an undo re-opened the match)."""
        if session.id in self.wake:
            self.wake[session.id].set()
        self._note_end(session)
        if self.leases is not None and session.id in self.sessions:
            self.leases.rekey(session)

    def _note_end(self, session: Session) -> None:
        if not session.over:
            self.ended.pop(session.id, None)
        else:
            self.ended.setdefault(session.id, time.monotonic())

    async def _drive(self, session: Session) -> None:
        """Play the COM seats of ``session`` at its pace until the match ends."""
        wake = self.wake[session.id]
        lock = self.lock(session)
        while True:
            await wake.wait()
            wake.clear()
            while (seat := session.com_to_move()) is not None:
                version = session.version
                await asyncio.sleep(session.pace)
                async with lock:
                    if session.version != version or session.com_to_move() != seat:
                        continue
                    view, legal = _com_input(session.live, seat)
                    com_seed = session.com_seed()
                    level = session.com[seat]
                    notes = com_notes(session.ruleset, level, view, session.com_notes.get(seat))
                priority = PERSON_WAITS if session.human_seats else ONLY_WATCHED
                try:
                    action, why = await self.com_pool.choose(
                        priority, session.ruleset, level, com_seed, view, legal, notes
                    )
                except Exception:  # com_choice already falls back; this is a last guard
                    _log.exception("COM of session %s failed", session.id)
                    await asyncio.sleep(1.0)
                    continue
                async with lock:
                    if session.version != version or session.com_to_move() != seat:
                        continue
                    session.com_notes[seat] = notes
                    try:
                        session.apply_com(seat, action, why)
                    except LeaseLostError:  # another process serves it now: nothing written
                        self.evict(session.id, "another server process took it over", moved=True)
                        return
                self._note_end(session)
                await self.broadcast(session)

    async def _watch(self, session: Session) -> None:
        """Between two people: wake when a clock may run out or a grace period ends (or
        anything changed), let the session look, and show everyone the result."""
        wake = self.wake[session.id]
        lock = self.lock(session)
        while True:
            at = session.next_wake()
            timeout = None if at is None else max(0.0, at - session.now()) + 0.01
            timed_out = False
            try:
                await asyncio.wait_for(wake.wait(), timeout)
            except TimeoutError:
                timed_out = True
            wake.clear()
            async with lock:
                try:
                    ended = session.tick()
                except LeaseLostError:  # another process serves it now: nothing written
                    self.evict(session.id, "another server process took it over", moved=True)
                    return
            if ended or timed_out:
                self._note_end(session)
                await self.broadcast(session)

    async def arrived(self, session: Session, client: Client) -> None:
        """A connection opened: its seat is present (the others see it, once it has its
        own first view)."""
        self.idle_since.pop(session.id, None)
        self.visited.add(session.id)
        async with self.lock(session):
            session.arrive(client.seat)
        if session.table is not None:
            self.changed(session)
            await self.broadcast(session, but=client)

    def departed(self, session: Session, client: Client) -> None:
        """A connection closed: the session is told (a seat left alone starts its grace
        period) and the others are shown it."""
        self.clients.get(session.id, set()).discard(client)
        if session.id in self.sessions and not self.clients.get(session.id):
            self.idle_since[session.id] = time.monotonic()
        if session.table is None or session.id not in self.sessions:
            return

        async def tell() -> None:
            async with self.lock(session):
                if session.id not in self.sessions:
                    return  # evicted meanwhile: nobody is left to tell
                session.leave(client.seat)
            self.changed(session)
            await self.broadcast(session)

        task = asyncio.get_running_loop().create_task(tell())
        self.closing.add(task)
        task.add_done_callback(self.closing.discard)

    # --- eviction ---------------------------------------------------------------------

    def _evict_oldest(self) -> bool:
        """Evict the finished session that ended first; False if none has ended."""
        finished = [sid for sid in self.ended if sid in self.sessions]
        if not finished:
            return False
        oldest = min(finished, key=lambda sid: self.ended[sid])
        self.evict(oldest, "the server needed room for a new game")
        return True

    def evict(self, session_id: str, why: str, *, moved: bool = False) -> None:
        """Remove a session from memory, telling its connections (the store keeps its record);
        nothing if it already left. A session that ``moved`` to another server process (one
        sharing the store) closes its connections with
        :data:`~kessen.server.leases.MOVED_CODE`: the pages reconnect and find it there."""
        session = self.sessions.pop(session_id, None)
        if session is None:
            return
        if self.leases is not None:
            self.leases.forget(session_id, moved)
        task = self.tasks.pop(session_id, None)
        if task is not None and task is not _current_task():
            task.cancel()
        self.wake.pop(session_id, None)
        self.locks.pop(session_id, None)
        self.ended.pop(session_id, None)
        self.idle_since.pop(session_id, None)
        self.visited.discard(session_id)
        self.owners.pop(session_id, None)
        self.left += 1
        if moved:
            for client in self.clients.pop(session_id, set()):
                closing = asyncio.get_running_loop().create_task(_close_moved(client.ws))
                self.closing.add(closing)
                closing.add_done_callback(self.closing.discard)
            _log.info("session %s left this process: %s", session_id, why)
            return
        match_id = session.recorder.match_id if session.recorder is not None else None
        self.gone[session_id] = (match_id, frozenset(map(token_digest, session.tokens)))
        while len(self.gone) > EVICTED_KEPT:
            self.gone.popitem(last=False)
        message = error("evicted", self.evicted_message(session_id) + f" ({why})")
        for client in self.clients.pop(session_id, set()):
            closing = asyncio.get_running_loop().create_task(_close(client.ws, message))
            self.closing.add(closing)  # held until done (the loop keeps only weak references)
            closing.add_done_callback(self.closing.discard)
        _log.info("session %s evicted: %s", session_id, why)

    def evicted_message(self, session_id: str) -> str:
        """What a connection to an evicted session is told."""
        match_id, _ = self.gone[session_id]
        where = (
            f"its record is match {match_id} in the match history"
            if match_id is not None
            else "it was not recorded"
        )
        return f"this game has finished and was closed on the server; {where}"

    def was_evicted(self, session_id: str, token: str) -> bool:
        """Whether ``session_id`` was evicted and ``token`` was one of its tokens."""
        entry = self.gone.get(session_id)
        if entry is None:
            return False
        digest = token_digest(token)
        return any(same_secret(digest, known) for known in entry[1])

    def sweep(self, now: float | None = None) -> list[str]:
        """Evict the finished sessions whose grace period is over and that nobody watches,
        and abandon the unfinished ones nobody has connected to for :attr:`idle_after`
        seconds; return their ids."""
        now = time.monotonic() if now is None else now
        out = [
            sid
            for sid, ended in list(self.ended.items())
            if now - ended >= self.evict_after and not self.clients.get(sid)
        ]
        for sid in out:
            self.evict(sid, "finished and left unwatched")
        idle = [
            sid
            for sid, since in list(self.idle_since.items())
            if now - since >= self.idle_after
            and not self.clients.get(sid)
            and sid not in self.ended
        ]
        for sid in idle:
            self.abandon(sid, f"nobody connected to it for {self.idle_after:g} seconds")
        return out + idle

    async def sweeper(self) -> None:
        """Sweep now and then, for as long as the server runs (a failure is logged, and the
        next sweep comes all the same). Once the sessions that left memory are many, what
        they held goes back to the system (:func:`release_memory`): while games are played,
        only after a collection of the young generations (a fraction of a millisecond; a full
        one pauses every game for tens of milliseconds); once none is, after a full one."""
        every = max(0.05, min(self.evict_after / 4, self.idle_after / 4, 30.0))
        gone = 0
        while True:
            await asyncio.sleep(every)
            try:
                gone += len(self.sweep())
                if gone >= RELEASE_AFTER or (gone and not self.sessions):
                    gone = 0
                    gc.collect(2 if not self.sessions else 1)
                    await asyncio.to_thread(release_memory)
            except Exception:
                _log.exception("sweeping the sessions failed")

    async def close(self) -> None:
        """Stop every COM task and COM's workers."""
        for task in self.tasks.values():
            task.cancel()
        self.com_pool.close()


def state_message(view: Json) -> str:
    """The ``state`` message of ``view`` as JSON text (pydantic-core's encoder: a view is sent
    after every action, and this is a few times faster than the standard library's)."""
    return pydantic_core.to_json({"type": "state", "view": view}).decode()


def _com_input(state: GameState, seat: int) -> tuple[Json, list[Action]]:
    """What COM decides from: its own view and the legal actions."""
    return state.decision_view(seat), state.legal_actions()


async def _close(ws: WebSocket, message: Any) -> None:
    with contextlib.suppress(Exception):
        await ws.send_json(message)
        await ws.close(code=4410)


MOVED_CODE = 4409
"""The close code of a connection whose match another server process serves now."""
MOVED_REASON = "this match is served by another server process; reconnect"


async def _close_moved(ws: WebSocket) -> None:
    with contextlib.suppress(Exception):
        await ws.close(code=MOVED_CODE, reason=MOVED_REASON)


def _current_task() -> asyncio.Task[Any] | None:
    with contextlib.suppress(RuntimeError):
        return asyncio.current_task()
    return None


def token_digest(token: str) -> str:
    """The digest of a session token that an evicted session is recognised by."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def release_memory() -> None:
    """Give the freed memory of sessions that left back to the system: glibc's ``malloc_trim``
    where there is one (CPython keeps freed memory for reuse, so a server that once held many
    games would otherwise keep their size for ever). It runs in a thread without holding the
    interpreter (a foreign call); the collection that frees cycles comes before, on the loop
    (:meth:`Hub.sweeper`)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)


def client_address(request: Request) -> str:
    """The address a request came from (the key of the per-client quotas)."""
    return request.client.host if request.client is not None else "?"


def make_room(hub: Hub, owner: str) -> None:
    """Room for one more session of client ``owner``, or the HTTP error saying why not
    (429: that client plays too many at once; 503: the server is full)."""
    try:
        hub.make_room(owner)
    except Crowded as err:
        raise HTTPException(429, str(err)) from err
    except Full as err:
        raise HTTPException(503, str(err)) from err

"""Several ``kessen play`` processes on one PostgreSQL store: which process serves which match.

Each process draws an owner id when it starts (:func:`default_owner`, or ``--owner-id``) and
holds a lease (:mod:`kessen.store.leases`) on every session it serves: taken when it makes or
resumes one, renewed for all of them in one statement every quarter of the lease's length, so
a lease outlives its process by at most ``--lease-seconds``
(:data:`~kessen.store.leases.LEASE_SECONDS` by default). Nothing else decides who serves a
match: no process resumes every unfinished match when it starts, as a lone server does; a match
comes back where its players next reach (:meth:`Keeper.find`):

- on a request for a session it does not serve (a WebSocket ``/ws/{id}``, or one of the
  :data:`GAME_ROUTES`) that presents one of the match's credentials (a seat's token, or the
  unused invite or the spectator code of a match between two people: :func:`credentials_of`),
  a process **takes** the lease if nobody live holds it (its owner died
  and nobody renewed it, or let it go) and resumes the match from the store, exactly where its
  record stands (every action is stored as it is applied);
- if another live process holds it, it **asks** for it and waits up to :data:`HANDOVER_WAIT`
  seconds. The owner looks at what others asked every :data:`POLL` seconds: it closes the
  session's connections with :data:`MOVED_CODE` (the page reconnects at once and lands on the
  asking process through the proxy), lets the lease go, and the asker takes it. This is how a
  match made by whichever process the proxy's ``POST /api/games`` reached moves to the process
  its id routes to, and how matches find their way back when a process joins or comes back;
- a request without a credential of the match moves nothing: the process it reached answers
  as if the match were not there (404), and the match stays where it is played (a stranger
  who knows a match's id cannot pull it from process to process);
- if the owner neither renews nor answers (it is dead, or cut off), the request is refused:
  HTTP 409 with a JSON body naming the situation in both languages, or the WebSocket closed
  with :data:`MOVED_CODE`; the page tries again every second, and gets the match once the dead
  owner's lease has expired.

A process that finds one of its sessions missing from its renewal (another took it over while
it was paused or cut off from the database) stops serving it and closes its connections the
same way; the store's fence (:attr:`kessen.store.match_store.MatchStore.fence`) makes sure it
never wrote into it meanwhile. A process that stops lets all its leases go, so the next
request for each of its matches is served at once by another process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import re
import secrets
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse

from kessen.server.hub import MOVED_CODE, MOVED_REASON, Full
from kessen.server.matches_api import TOKEN_HEADER
from kessen.server.security import header, same_secret
from kessen.store.leases import LEASE_SECONDS, Holder, LeaseTable
from kessen.store.model import StoreError

if TYPE_CHECKING:
    from kessen.server.hub import Hub
    from kessen.server.security import ASGIApp, Message, Receive, Scope, Send
    from kessen.server.session import Session
    from kessen.store.records import MatchStore

POLL: Final = 0.2
"""Seconds between two looks at the sessions other processes asked this one for."""
TAKE_EVERY: Final = 0.1
"""Seconds between two tries to take a lease another process was asked to let go."""
HANDOVER_WAIT: Final = 2.0
"""How long a request waits for another live process to hand its match over."""
GAME_ROUTES: Final = (
    re.compile(r"^/ws/(?P<id>[^/]+)$"),
    re.compile(r"^/api/games/(?P<id>[^/]+)/[^/]+$"),
)
"""The paths that name a live session (its id): the reverse proxy routes each to the process
serving that session (``deploy/nginx-kessen.conf`` extracts the id the same way)."""
MAX_ID: Final = 64
ELSEWHERE_WORDS: Final = {
    "ja": "この対戦は別のサーバープロセスが進行中です（引き渡しを依頼しました）。"
    "少し待ってから、もう一度お試しください。",
    "en": "This match is being served by another server process (it has been asked to hand "
    "it over); try again in a moment.",
}
"""What a request for a match another live process serves is told, in each language."""

_log = logging.getLogger(__name__)

__all__ = [
    "GAME_ROUTES",
    "MOVED_CODE",
    "MOVED_REASON",
    "Elsewhere",
    "Keeper",
    "Routing",
    "Sharing",
    "Unresumable",
    "credentials_of",
    "default_owner",
    "describe",
    "game_id_of",
]


def default_owner() -> str:
    """A new owner id: this machine, this process, and a random part (a process that starts
    again with the same pid is another owner)."""
    return f"{socket.gethostname()[:80]}:{os.getpid()}:{secrets.token_hex(4)}"


def game_id_of(path: str) -> str | None:
    """The session id a request path names (:data:`GAME_ROUTES`), or ``None``."""
    for pattern in GAME_ROUTES:
        found = pattern.match(path)
        if found is not None:
            return found["id"]
    return None


@dataclass(frozen=True)
class Sharing:
    """A server that shares its PostgreSQL store with other server processes."""

    owner: str
    """This process's owner id."""
    seconds: float = LEASE_SECONDS
    """How long a lease lasts unless renewed."""


class Elsewhere(RuntimeError):
    """Another live process serves the match: the request goes there (or waits)."""

    def __init__(self, holder: Holder) -> None:
        super().__init__(ELSEWHERE_WORDS["en"])
        self.holder = holder

    @property
    def retry_after(self) -> int:
        """Whole seconds after which the lease expires unless its owner renews it."""
        return max(1, math.ceil(min(self.holder.left, 60.0)))

    def answer(self) -> JSONResponse:
        """The HTTP answer: 409, the words in both languages, when to try again."""
        return JSONResponse(
            {
                "detail": ELSEWHERE_WORDS["en"],
                "code": "elsewhere",
                "messages": dict(ELSEWHERE_WORDS),
                "retry_after": self.retry_after,
            },
            status_code=409,
            headers={"Retry-After": str(self.retry_after)},
        )


class Unresumable(RuntimeError):
    """A leased record that cannot be played on (finished, or no longer replays)."""


Resume = Callable[[int], "Session"]
"""Bring a recorded session back from the store (blocking: run in a thread)."""
Orphans = Callable[[LeaseTable], list[tuple[str, int]]]
"""The resumable sessions recorded without a lease: ``(session id, match id)``."""


class Keeper:
    """This process's leases and the sessions it takes over or hands over (see the module's
    text). It installs itself as the hub's :attr:`~kessen.server.hub.Hub.leases` and as the
    store's fence."""

    def __init__(
        self,
        store: MatchStore,
        hub: Hub,
        sharing: Sharing,
        resume: Resume,
        orphans: Orphans | None = None,
    ) -> None:
        self.table = store.leases(sharing.owner, sharing.seconds)
        self.store = store
        self.hub = hub
        self.resume = resume
        self.orphans = orphans
        self.every = max(0.2, sharing.seconds / 4)
        """Seconds between two renewals."""
        self.elsewhere: set[int] = set()
        """The matches other live processes served at the last renewal."""
        self._claimed: dict[str, float] = {}
        self._records: dict[str, int] = {}
        self._unserved: dict[str, float] = {}
        self._finding: dict[str, asyncio.Task[Session | None]] = {}
        self._task: asyncio.Task[None] | None = None
        store.fence = self.table
        hub.leases = self

    @property
    def owner(self) -> str:
        """This process's owner id."""
        return self.table.owner

    @property
    def task(self) -> asyncio.Task[None] | None:
        """The background task renewing the leases (``None`` before :meth:`start`)."""
        return self._task

    # --- the hub's hooks (on the event loop) ---------------------------------------------

    def claim(self, session: Session) -> None:
        """A session joins the hub: hold its lease (:class:`Elsewhere` if another live
        process does)."""
        recorder = session.recorder
        if recorder is None:
            return
        if not self.table.claim(session.id, recorder.match_id):
            holder = self.table.holder(session.id)
            raise Elsewhere(holder or Holder("?", self.table.seconds, recorder.match_id))
        self._claimed[session.id] = time.monotonic()
        self._records[session.id] = recorder.match_id

    def rekey(self, session: Session) -> None:
        """The session may have a new record (a guest joined): the lease follows it."""
        recorder = session.recorder
        known = self._records.get(session.id)
        if recorder is not None and known is not None and known != recorder.match_id:
            self.claim(session)

    def forget(self, session_id: str, moved: bool) -> None:
        """A session left the hub; unless it ``moved`` to another process, its lease goes."""
        self._claimed.pop(session_id, None)
        self._records.pop(session_id, None)
        if not moved:
            try:
                self.table.drop(session_id)
            except Exception:  # it only lingers: a take finds its record finished
                _log.exception("session %s: its lease could not be dropped", session_id)

    def live_elsewhere(self) -> set[int]:
        """The matches other live processes serve (as of the last renewal)."""
        return self.elsewhere

    # --- finding a session this process does not serve ------------------------------------

    async def find(self, game_id: str, credentials: Sequence[str]) -> Session | None:
        """The session ``game_id``, taken over from the store if nobody live serves it, or
        handed over by its live owner within :data:`HANDOVER_WAIT`; ``None`` if no live
        server session has that id, or if none of ``credentials`` is one of its record's
        (:meth:`_knows`: a request without one moves no match). Raises :class:`Elsewhere` if
        its owner keeps it, and the hub's :class:`~kessen.server.hub.Full` if it does not fit
        here."""
        session = self.hub.sessions.get(game_id)
        if session is not None or len(game_id) > MAX_ID:
            return session
        if not credentials or not await asyncio.to_thread(self._knows, game_id, credentials):
            return None
        task = self._finding.get(game_id)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._find(game_id))
            self._finding[game_id] = task
            task.add_done_callback(lambda _done: self._finding.pop(game_id, None))
        return await asyncio.shield(task)

    def _knows(self, game_id: str, credentials: Sequence[str]) -> bool:
        """Whether the record of leased session ``game_id`` gave out one of ``credentials``:
        a seat's (or the spectator's) token, or, between two people, the guest's token, the
        spectator code or the invite while unused."""
        holder = self.table.holder(game_id)
        if holder is None:
            return False
        meta = self.store.metas([holder.match_id]).get(holder.match_id, {})
        tokens = meta.get("tokens")
        secrets_of_match = [str(t) for t in tokens] if isinstance(tokens, dict) else []
        secrets_of_match += [
            str(meta[key]) for key in ("guest", "spectate", "invite") if meta.get(key)
        ]
        return any(same_secret(given, known) for given in credentials for known in secrets_of_match)

    async def _find(self, game_id: str) -> Session | None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + HANDOVER_WAIT
        asked = False
        while True:
            found = self.hub.sessions.get(game_id)
            if found is not None:
                return found
            got = await asyncio.to_thread(self.table.take, game_id)
            if got is None:
                return None
            if isinstance(got, int):
                return await self._resume(game_id, got)
            if not asked:
                await asyncio.to_thread(self.table.ask, game_id)
                asked = True
            if loop.time() >= deadline:
                raise Elsewhere(got)
            await asyncio.sleep(TAKE_EVERY)

    async def _resume(self, game_id: str, match_id: int) -> Session | None:
        """Bring back the session whose lease this process just took."""
        try:
            session = await asyncio.to_thread(self.resume, match_id)
            if session.id != game_id:
                raise Unresumable(f"its record names session {session.id}")
        except Unresumable as err:
            _log.warning("session %s (match %s) cannot be resumed: %s", game_id, match_id, err)
            await asyncio.to_thread(self.table.drop, game_id)
            return None
        except BaseException:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.table.release, game_id)
            raise
        try:
            self.hub.add(session)
        except BaseException:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.table.release, game_id)
            raise
        _log.info("session %s (match %s) taken over at step %s", game_id, match_id, session.steps)
        return session

    # --- the background task --------------------------------------------------------------

    def start(self) -> None:
        """Start renewing and answering hand-over requests (on the running loop)."""
        self._task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        """Stop, and let every lease of this process go (another takes each match at once)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        try:
            await asyncio.to_thread(self.table.release_all)
        except Exception:  # they expire by themselves
            _log.exception("the leases could not be released")

    async def run(self) -> None:
        """Renew every :attr:`every` seconds; hand over what others ask for every
        :data:`POLL` seconds; first, give the sessions recorded without a lease one."""
        if self.orphans is not None:
            try:
                orphans = await asyncio.to_thread(self.orphans, self.table)
                if orphans:
                    added = await asyncio.to_thread(self.table.adopt, orphans)
                    _log.info("%s unfinished sessions recorded without a lease got one", added)
            except Exception:
                _log.exception("the sessions recorded without a lease could not be adopted")
        renew_at = 0.0
        while True:
            try:
                if time.monotonic() >= renew_at:
                    renew_at = time.monotonic() + self.every
                    await self.renew()
                for session_id in await asyncio.to_thread(self.table.wanted):
                    await self.hand_over(session_id)
            except Exception:
                _log.exception("the leases could not be renewed or handed over")
            await asyncio.sleep(POLL)

    async def renew(self) -> None:
        """Renew every lease; stop serving the sessions another process took over; let go of
        leases held for nothing (a session handed here that no request followed)."""
        started = time.monotonic()
        held = await asyncio.to_thread(self.table.renew)
        hub = self.hub
        for session_id in list(hub.sessions):
            if session_id in held or self._claimed.get(session_id, math.inf) >= started:
                continue
            holder = await asyncio.to_thread(self.table.holder, session_id)
            session = hub.sessions.get(session_id)
            if holder is None and session is not None:  # its record was just replaced (a
                self.claim(session)  # guest joined: the old one went with its lease)
            elif holder is not None and holder.owner != self.owner:
                hub.evict(session_id, "another server process took this match over", moved=True)
        idle = held - set(hub.sessions) - set(self._finding)
        for session_id in list(self._unserved):
            if session_id not in idle:
                del self._unserved[session_id]
        for session_id in idle:
            since = self._unserved.setdefault(session_id, started)
            if started - since >= self.table.seconds:
                await asyncio.to_thread(self.table.release, session_id)
                del self._unserved[session_id]
        self.elsewhere = await asyncio.to_thread(self.table.live_elsewhere)

    async def hand_over(self, session_id: str) -> None:
        """Another process asked for ``session_id``: close it here and let its lease go."""
        hub = self.hub
        session = hub.sessions.get(session_id)
        if session is None:
            if session_id not in self._finding:
                await asyncio.to_thread(self.table.release, session_id)
            return
        async with hub.lock(session):
            if hub.sessions.get(session_id) is not session:
                return
            hub.evict(session_id, "handed over to another server process", moved=True)
            await asyncio.to_thread(self.table.release, session_id)
        _log.info("session %s handed over", session_id)


class Routing:
    """ASGI middleware: a request for a game route (:data:`GAME_ROUTES`) of a session this
    process does not serve finds it first (:meth:`Keeper.find`) with the credentials it
    presents (:func:`credentials_of`), or is answered 409 while another live process keeps
    it."""

    def __init__(self, app: ASGIApp, keeper: Keeper) -> None:
        self.app = app
        self.keeper = keeper

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Find the session the path names, then pass on."""
        if scope["type"] == "http":
            game_id = game_id_of(str(scope.get("path", "")))
            if game_id is not None and game_id not in self.keeper.hub.sessions:
                try:
                    messages = await _read_body(receive)
                except HTTPException as err:  # over the body bound (the guard's count)
                    answer = JSONResponse({"detail": err.detail}, status_code=err.status_code)
                    await answer(scope, receive, send)
                    return
                receive = _replaying(messages, receive)
                try:
                    await self.keeper.find(game_id, credentials_of(scope, messages))
                except Elsewhere as err:
                    await err.answer()(scope, receive, send)
                    return
                except (Full, StoreError) as err:  # no room here, or the store's trouble
                    await JSONResponse({"detail": str(err)}, status_code=503)(scope, receive, send)
                    return
        await self.app(scope, receive, send)


async def _read_body(receive: Receive) -> list[Message]:
    """The request's body messages, read whole (the guard bounds their size)."""
    messages: list[Message] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request" or not message.get("more_body", False):
            return messages


def _replaying(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that gives ``messages`` again first, then reads on."""
    queued = list(messages)

    async def replayed() -> Message:
        return queued.pop(0) if queued else await receive()

    return replayed


def credentials_of(scope: Scope, messages: list[Message]) -> tuple[str, ...]:
    """What a game route's request presents as a credential of its match: the token header
    (:data:`~kessen.server.matches_api.TOKEN_HEADER`, as for leaving) and the ``token`` or
    ``code`` of a JSON body (a rematch answer; an invite or spectator code)."""
    found: list[str] = []
    token = header(scope, TOKEN_HEADER.lower().encode())
    if token:
        found.append(token)
    body = b"".join(bytes(m.get("body", b"")) for m in messages if m["type"] == "http.request")
    try:
        data = json.loads(body) if body else None
    except ValueError:  # not JSON: the route refuses it in its own words
        data = None
    if isinstance(data, dict):
        found += [v for k in ("token", "code") if isinstance(v := data.get(k), str) and v]
    return tuple(found)


def describe(sharing: Sharing) -> str:
    """One line for the server's start: who this process is among the others."""
    return (
        f"Sharing the store with other server processes as {sharing.owner} "
        f"(a match of a stopped process resumes on another within {sharing.seconds:g} s)"
    )

"""The ASGI application: HTTP endpoints to start games, a WebSocket per seat, the static UI.

Every connection is a seat or a spectator and only ever receives ``Session.view_for`` of its
seat. The sessions, their COM seats and their locks live in the :class:`~kessen.server.hub.Hub`
(all heavy work off the event loop, one lock per session). The server knows the rulesets it
offers only by name (:data:`RULESETS`): a new game takes the ruleset's default config,
overridden by the request's ``config`` (screened by :mod:`~kessen.server.limits`, then
validated and bounded by the ruleset), and its COM levels are the ruleset's registered
players.

With a :class:`~kessen.store.records.MatchStore`, the recorded matches can be listed and
replayed (:mod:`~kessen.server.matches_api`), and unfinished ones come back on start-up; or,
for one of several servers sharing a PostgreSQL store (``sharing``), each comes back on the
server its players reach, which takes it over or has it handed over first
(:mod:`~kessen.server.leases`). The
:class:`~kessen.server.security.Guard` in front of everything checks Host and Origin, adds the
security headers and answers any unhandled error with a bare 500.

A WebSocket (``/ws/{game_id}?token=...``) carries the messages of :mod:`kessen.server.protocol`
(``&lang=en`` sets its language; ``&delta=1`` asks for views as deltas:
:mod:`~kessen.server.deltas`).
Every refused message gets an ``error`` back and changes nothing; the connection stays usable
after binary frames, bad JSON, over-deep nesting, too many messages (``rate_limited``, the
excess dropped) and even a server-side failure (``internal``). A connection to a finished game
that left memory is told which record holds it (``evicted``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from kessen.engine import registry
from kessen.engine.card_sets import CardSetError
from kessen.engine.contract import RulesError
from kessen.engine.registry import Ruleset
from kessen.server import deal
from kessen.server.balance_api import balance_router
from kessen.server.balance_runs import BalanceRuns
from kessen.server.com_pool import ComPool
from kessen.server.content_api import content_router
from kessen.server.deal import open_deal, refuse_chosen_deal
from kessen.server.decks_api import (
    SavedRef,
    decks_router,
    may_use_saved,
    refuse_fixed_secret,
    refuse_remote,
    uses_saved_decks,
    with_saved_decks,
)
from kessen.server.design_api import DESIGN_REFUSED, design_router, with_card_set
from kessen.server.friend_api import ClockSpec, friend_router
from kessen.server.history_api import history_router
from kessen.server.hub import DEFAULT_PACE, Client, Crowded, Full, Hub, client_address, make_room
from kessen.server.leases import (
    MOVED_CODE,
    MOVED_REASON,
    Elsewhere,
    Keeper,
    Routing,
    Sharing,
    Unresumable,
)
from kessen.server.leave_api import leave_router
from kessen.server.limits import (
    BURST,
    EVICT_AFTER,
    IDLE_AFTER,
    MAX_PACE,
    MAX_SESSIONS,
    MIN_WATCH_PACE,
    NOTICE_EVERY,
    RATE,
    ConfigRefused,
    TokenBucket,
    bounded_pace,
    screen_config,
)
from kessen.server.matches_api import PAGE_MAX, REPLAYS_KEPT, continue_level, matches_router
from kessen.server.protocol import (
    Act,
    ClientMessage,
    Lang,
    Live,
    Ping,
    ProtocolError,
    Redo,
    Resign,
    ShowAll,
    Undo,
    UndoAnswer,
    error,
    parse_message,
)
from kessen.server.security import LOOPBACK, AllowList, Guard
from kessen.server.session import SPECTATOR, Mode, Session
from kessen.server.share import share_origin
from kessen.server.tutorial_api import UNLISTED_LEVELS, tutorial_router
from kessen.store.leases import LeaseLostError, LeaseTable
from kessen.store.records import MatchInfo, MatchStore, StoreError, StoreFault

DEFAULT_COM: Final = "ismcts-normal"
"""The COM level the start screen offers first: ふつう (Normal)."""

__all__ = [
    "DEFAULT_COM",
    "DEFAULT_PACE",
    "PAGE_MAX",
    "REPLAYS_KEPT",
    "RULESETS",
    "Client",
    "Hub",
    "continue_level",
    "create_app",
]

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"
RULESETS: Final = ("kobo", "twgp", "maken")
"""The rulesets the server offers, in the order the start screen lists them."""

_log = logging.getLogger(__name__)


class NewGame(BaseModel):
    """A request to start a match.

    ``config`` overrides keys of the ruleset's default config (Kōbō: ``decks``, ``best_of``;
    TWGP: its rule switches such as ``quickStart`` or ``gridWidth``; Maken: ``decks`` and its §14
    switches); the ruleset validates the result. ``decks`` is the shorthand for
    ``config["decks"]`` of the rulesets with decks. A deck there (or in ``config["decks"]``) may
    be a saved deck, ``{"saved": <id>}``: the server plays the list its store keeps.
    """

    model_config = ConfigDict(extra="forbid")

    ruleset: Literal["kobo", "twgp", "maken"] = "kobo"
    mode: Mode = "vs_com"
    decks: list[str | SavedRef] | None = Field(default=None, min_length=2, max_length=2)
    config: dict[str, Any] | None = Field(default=None, max_length=32)
    com: str = Field(default="heuristic", max_length=64)
    pace: float | None = Field(default=None, ge=0, le=MAX_PACE, allow_inf_nan=False)
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    """A chosen deal: refused between two people, an open deal otherwise (:mod:`.deal`)."""
    clock: ClockSpec | None = None
    """A match clock between two people (``mode`` ``vs_human``); none by default."""


def _resumable(store: MatchStore, info: MatchInfo) -> bool:
    """Whether an unfinished match is a server session to bring back: a ``server`` match, or
    a ``branch`` one that :meth:`Session.from_branch` created (its meta names its own parent;
    other branches only copy their parent's meta)."""
    if info.source == "server":
        return True
    meta = store.get(info.id).meta
    return "session" in meta and info.parent is not None and meta.get("branch") == list(info.parent)


def _restored(store: MatchStore, hub: Hub, match_id: int) -> Session:
    """The recorded session of ``match_id`` brought back, at the pace this server allows."""
    session = Session.restore(store, match_id)
    session.pace = bounded_pace(session.pace, hub.pace)
    if session.mode == "com_vs_com":
        session.pace = max(session.pace, watch_floor(hub.pace))
    return session


def _resume_leased(store: MatchStore, hub: Hub, match_id: int) -> Session:
    """The session whose lease this process just took (:class:`Unresumable` for a record
    that is finished, no server session, or no longer replays)."""
    try:
        info = store.info(match_id)
        if info.finished is not None:
            raise Unresumable("its record is finished")
        if not _resumable(store, info):
            raise Unresumable("its record is no server session")
        return _restored(store, hub, match_id)
    except (Unresumable, StoreFault):
        raise
    except Exception as err:  # a bad record: nobody can play it on
        raise Unresumable(str(err)) from err


def _unleased(store: MatchStore, table: LeaseTable) -> list[tuple[str, int]]:
    """The resumable sessions recorded without a lease (before leases, or copied)."""
    found: list[tuple[str, int]] = []
    for match_id in table.unleased():
        info = store.info(match_id)
        session = store.metas([match_id]).get(match_id, {}).get("session")
        if isinstance(session, str) and _resumable(store, info):
            found.append((session, match_id))
    return found


def _restore_all(store: MatchStore, hub: Hub) -> None:
    """Bring back the unfinished server sessions of ``store`` (as many as fit)."""
    unfinished = [*store.unfinished(source="server"), *store.unfinished(source="branch")]
    for info in sorted(unfinished, key=lambda i: i.id):
        if not _resumable(store, info):
            continue
        try:
            session = _restored(store, hub, info.id)
        except Exception as err:  # a bad record must not keep the server from starting
            _log.warning("match %s cannot be resumed: %s", info.id, err)
            continue
        if session.id in hub.sessions:
            _log.warning("match %s cannot be resumed: session %s is taken", info.id, session.id)
            continue
        try:
            hub.add(session)
        except Full:
            _log.warning("match %s is not resumed: the server's session limit is reached", info.id)


def ruleset_meta(rules: Ruleset, default_com: str) -> dict[str, Any]:
    """What ``/api/meta`` says of one ruleset: the COM levels a start screen offers (not the
    tutorial's scripted one), the default COM and decks, the default config, the version."""
    return {
        "com_levels": [p for p in rules.players if p not in UNLISTED_LEVELS],
        "default_com": default_com if default_com in rules.players else "heuristic",
        "default_decks": rules.default_config.get("decks"),
        "default_config": dict(rules.default_config),
        "version": rules.version,
    }


def create_app(
    pace: float = DEFAULT_PACE,
    store: MatchStore | None = None,
    *,
    host: str = "127.0.0.1",
    port: int | None = None,
    allow_origins: Sequence[str] = (),
    max_sessions: int = MAX_SESSIONS,
    evict_after: float = EVICT_AFTER,
    idle_after: float = IDLE_AFTER,
    com_processes: bool = False,
    default_com: str = DEFAULT_COM,
    sharing: Sharing | None = None,
    behind_proxy: bool = False,
) -> FastAPI:
    """The application; ``pace`` is the default seconds per COM action. With a ``store``,
    every match is recorded as it is played, and unfinished ones come back on start-up.

    ``host`` and ``port`` are where the server listens (``port=None``: any port of its hosts
    counts as its own), ``allow_origins`` the extra origins that may open a game connection
    (``kessen play --allow-origin``; :class:`ValueError` for one that is not an origin).
    ``max_sessions``, ``evict_after`` and ``idle_after`` bound the sessions kept in memory.
    ``com_processes`` thinks for COM in worker processes (``kessen play`` does), not threads.
    ``default_com`` is the COM level the start screen offers first (a ruleset without that
    level offers its rule-based player).

    ``sharing``: this server is one of several processes sharing ``store`` (PostgreSQL); it
    serves the matches it holds leases on and takes the others over as their players reach it
    (:mod:`kessen.server.leases`), instead of bringing every unfinished match back on start-up.
    ``behind_proxy``: its requests come through a reverse proxy (whose ``X-Forwarded-For``
    names the players), so it answers as a server of the network: what is this machine's
    (the saved decks, the records' deletion) only answers this machine's own browsers.
    """
    allow = AllowList.build(host, port, allow_origins)
    serves_network = behind_proxy or host.strip("[]") not in LOOPBACK
    hub = Hub(
        pace=bounded_pace(pace, DEFAULT_PACE),
        max_sessions=max_sessions,
        evict_after=evict_after,
        idle_after=idle_after,
        com_pool=ComPool(processes=com_processes),
    )
    # The design screen's balance runs: games in worker processes, or on the Ray cluster COM
    # thinks on (kessen play --ray).
    balance = (
        None
        if store is None
        else BalanceRuns(store, on_cluster=lambda: hub.com_pool.cluster is not None)
    )
    keeper: Keeper | None = None
    if sharing is not None:
        if store is None:
            raise ValueError("a server sharing its store needs the store")
        shared = store
        keeper = Keeper(
            shared,
            hub,
            sharing,
            resume=lambda match_id: _resume_leased(shared, hub, match_id),
            orphans=lambda table: _unleased(shared, table),
        )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        if keeper is not None:
            keeper.start()  # matches come back as their players reach this process
        elif store is not None:
            _restore_all(store, hub)
        # What is alive now (modules, card pools, restored sessions) stays: the collector's
        # full passes need not scan it again, and they no longer pause every game for long.
        gc.freeze()
        # A live server allocates many small short-lived objects (views, log texts, JSON) and
        # few cycles: collecting the young generation every 700 allocations paused every game
        # for its share of each pass; rarer passes keep the tail of action -> view short.
        gc.set_threshold(50_000, 20, 100)
        sweeper = asyncio.create_task(hub.sweeper())
        yield
        sweeper.cancel()
        if balance is not None:  # a run in progress stops (resumable), its workers with it
            await asyncio.to_thread(balance.close)
        await hub.close()
        if keeper is not None:
            await keeper.stop()

    app = FastAPI(title="Kessen", lifespan=lifespan)
    app.add_middleware(GZipMiddleware, minimum_size=4096)
    if keeper is not None:  # behind the Guard: only requests it let through take a match over
        app.add_middleware(Routing, keeper=keeper)
    app.add_middleware(Guard, allow=allow)
    app.state.hub = hub
    app.state.allow = allow
    app.state.balance = balance

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own answer echoes the input: NaN is not JSON (a 500), and a huge input
        # would come back whole. Where and what is wrong is enough.
        detail = [
            {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": e.get("type")}
            for e in exc.errors()[:20]
        ]
        return JSONResponse({"detail": detail}, status_code=422)

    @app.get("/")
    async def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/api/meta")
    async def meta(http: Request) -> dict[str, Any]:
        out: dict[str, Any] = {"pace": hub.pace, "rulesets": {}, "store": store is not None}
        # Whether this client may use the saved decks (not a browser of another machine when
        # the server serves the network: decks_api.refuse_remote).
        out["saved_decks"] = store is not None and may_use_saved(http, serves_network)
        out["share"] = share_origin(host, port)  # what shared links name (docs/two-player.md)
        for name in RULESETS:
            try:
                rules = registry.get(name)
            except (KeyError, ImportError) as err:  # one broken ruleset must not hide the others
                _log.warning("ruleset %s is not available: %s", name, err)
                continue
            out["rulesets"][name] = ruleset_meta(rules, default_com)
        return out

    @app.get("/api/catalog/{ruleset}")
    async def catalog(
        ruleset: str,
        lang: Literal["ja", "en"] = "ja",
        card_set: Annotated[str | None, Query(alias="set", max_length=200)] = None,
    ) -> dict[str, Any]:
        """The game's cards and decks in ``lang``: the shipped ones, or those of the card set
        a match names (``set``: its ``NAME@sha256`` reference, public like its deck lists)."""
        if ruleset not in RULESETS:
            raise HTTPException(404, f"unknown ruleset {ruleset!r}")
        if not card_set:
            return registry.get(ruleset).catalog(lang)
        try:
            return registry.get(ruleset).catalog(lang, {"card_set": card_set})
        except CardSetError as err:
            raise HTTPException(404, f"card set {card_set!r}: {err}") from err

    @app.post("/api/games")
    async def new_game(request: NewGame, http: Request) -> dict[str, Any]:
        rules = registry.get(request.ruleset)
        config = dict(rules.default_config)
        try:
            if request.config is not None:
                screen_config(request.config)
                config.update(request.config)
        except ConfigRefused as err:
            raise HTTPException(422, str(err)) from err
        if request.decks is not None:
            if "decks" not in rules.default_config:
                raise HTTPException(422, f"{request.ruleset} has no decks to choose")
            config["decks"] = request.decks
        refuse_fixed_secret(request.ruleset, config, request.mode)
        dealt_open = open_deal(request.ruleset, request.mode, request.seed is not None, config)
        refuse_chosen_deal(request.mode, dealt_open)
        if uses_saved_decks(request.ruleset, config):
            refuse_remote(http, serves_network)
        if "card_set" in config:  # a designer's set: theirs, like the saved decks
            refuse_remote(http, serves_network, DESIGN_REFUSED)
            config = await asyncio.to_thread(with_card_set, store, request.ruleset, config)
        config = await asyncio.to_thread(with_saved_decks, store, request.ruleset, config)
        seed = request.seed if request.seed is not None else deal.draw_seed()
        pace = request.pace if request.pace is not None else hub.pace
        if request.mode == "com_vs_com":  # watched, not played: the server sets the floor
            pace = max(pace, watch_floor(hub.pace))
        owner = client_address(http)
        make_room(hub, owner)
        try:
            session = await asyncio.to_thread(
                Session.create,
                request.ruleset,
                config,
                seed,
                request.mode,
                request.com,
                pace,
                store,
                clock=None if request.clock is None else request.clock.pair(),
                open_deal=dealt_open,
            )
        except RulesError as err:
            raise HTTPException(422, str(err)) from err
        try:
            hub.add(session, owner)
        except Full as err:  # filled up while this one was made: it goes, nothing was played
            if store is not None and session.recorder is not None:
                await asyncio.to_thread(store.delete_match, session.recorder.match_id)
            raise HTTPException(429 if isinstance(err, Crowded) else 503, str(err)) from err
        seat = SPECTATOR if request.mode == "com_vs_com" else 0
        invites = {} if session.table is None else {"invite": session.table.invite}
        if session.table is not None:
            invites["spectate"] = session.table.spectate_token
        return {"id": session.id, "token": session.first_token, "seat": seat, **invites}

    @app.get("/api/games")
    async def list_games() -> list[dict[str, Any]]:
        return [s.summary() for s in hub.sessions.values()]

    app.include_router(matches_router(store, hub))
    app.include_router(history_router(store, hub, local_only=serves_network))
    app.include_router(friend_router(hub))
    app.include_router(tutorial_router(store, hub))
    app.include_router(leave_router(hub))
    app.include_router(content_router(RULESETS))
    app.include_router(decks_router(store, RULESETS, local_only=serves_network))
    app.include_router(design_router(store, RULESETS, local_only=serves_network))
    app.include_router(balance_router(balance, RULESETS, local_only=serves_network))

    @app.websocket("/ws/{game_id}")
    async def play(
        ws: WebSocket, game_id: str, token: str = "", lang: str = "ja", delta: str = ""
    ) -> None:
        refused = await _reach(hub, keeper, game_id, token)  # the socket opens once decided
        await ws.accept()
        if refused is not None:
            code, reason, message = refused
            if message is not None:
                await ws.send_json(message)
            await ws.close(code=code, reason=reason)
            return
        address = ws.client.host if ws.client is not None else "?"
        if not hub.connect(address):
            await ws.send_json(
                error(
                    "too_many_connections",
                    f"this address already holds {hub.connections_per_client} connections to "
                    "the server, the most one client may; close some pages first",
                )
            )
            await ws.close(code=4429)
            return
        try:
            language = "en" if lang == "en" else "ja"
            await _serve(hub, ws, game_id, token, address, language, delta == "1")
        finally:
            hub.disconnect(address)

    return app


async def _reach(
    hub: Hub, keeper: Keeper | None, game_id: str, token: str
) -> tuple[int, str, dict[str, Any] | None] | None:
    """Before a game connection opens, on a server sharing its store: bring the session here
    if another process served it (:meth:`Keeper.find`); or the close code, reason and message
    that say why not (:data:`MOVED_CODE`: its live owner keeps it for now, the page tries
    again; 1013: no room here, or the store failed)."""
    if keeper is None or not token or game_id in hub.sessions or hub.was_evicted(game_id, token):
        return None
    try:  # served by another process, or by none since its owner stopped: take it over
        await keeper.find(game_id, (token,))
    except Elsewhere:
        return MOVED_CODE, MOVED_REASON, None
    except (Full, StoreError) as err:
        return (
            1013,
            "try again later",
            error("unavailable", f"this game cannot be served now: {err}"),
        )
    return None


async def _serve(
    hub: Hub, ws: WebSocket, game_id: str, token: str, address: str, lang: str, delta: bool = False
) -> None:
    """One game connection, from its first view to its close (see the module docstring); its
    views are in ``lang`` (the page's language, given when it connects) until it asks for
    another, and sent as deltas if it asked for them (``delta=1``: :mod:`kessen.server.deltas`)."""
    session = hub.sessions.get(game_id)
    if session is None and hub.was_evicted(game_id, token):
        await ws.send_json(error("evicted", hub.evicted_message(game_id)))
        await ws.close(code=4410)
        return
    if session is None or token not in session.tokens:
        await ws.send_json(error("unknown_game", "no such game, or a wrong token"))
        await ws.close(code=4404)
        return
    client = Client(ws, session.seat_of(token), lang, delta=delta)
    hub.clients[game_id].add(client)
    await hub.arrived(session, client)
    bucket = TokenBucket()
    shared = hub.bucket(address)
    noticed = -NOTICE_EVERY
    try:
        await hub.send_state(session, client)
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            if not (bucket.take() and shared.take()):
                now = time.monotonic()
                if now - noticed >= NOTICE_EVERY:  # one notice per flood, the rest dropped
                    noticed = now
                    await ws.send_json(
                        error(
                            "rate_limited",
                            f"too many messages: at most {RATE:g} a second ({BURST:g} at "
                            "once); the extra ones were dropped, not queued",
                        )
                    )
                continue
            if frame.get("text") is None:
                await ws.send_json(
                    error("binary", "binary frames are not accepted; send JSON text")
                )
                continue
            if await _handle(hub, session, client, frame["text"]):
                bucket.refund()  # a move forward is bounded by the game's own length
                shared.refund()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        hub.clients.get(game_id, set()).discard(client)
        hub.departed(session, client)


def watch_floor(server_pace: float) -> float:
    """The fastest COM-vs-COM pace a client may ask for: :data:`MIN_WATCH_PACE`, or the
    server's own default pace if that is faster (the operator's choice)."""
    return min(MIN_WATCH_PACE, server_pace)


def _apply(session: Session, seat: int, message: ClientMessage) -> None:
    """Apply a message that changes the session (under its lock, on the event loop: a few
    milliseconds at most, where a worker thread would only add hand-overs of the GIL)."""
    if isinstance(message, Act):
        session.act(seat, message.prompt_id, message.action)
    elif isinstance(message, Undo):
        session.undo(seat)
    elif isinstance(message, Redo):
        session.redo(seat)
    elif isinstance(message, Live):
        session.go_live()
    elif isinstance(message, UndoAnswer):
        session.answer_undo(seat, message.accept)
    elif isinstance(message, Resign):
        session.resign(seat)


async def _handle(hub: Hub, session: Session, client: Client, raw: str) -> bool:
    """Apply one client message; refusals go back to that client only. True if it was an
    ``act`` the session accepted (the game moved forward)."""
    if hub.leases is not None and hub.sessions.get(session.id) is not session:
        return False  # it moved to another process: its connections are being closed
    try:
        message = parse_message(raw)
        if isinstance(message, Lang):
            client.lang = message.lang
        elif isinstance(message, ShowAll):
            client.show_all = message.on
        if isinstance(message, Lang | ShowAll | Ping):
            await hub.send_state(session, client)
            return False
        async with hub.lock(session):
            _apply(session, client.seat, message)
    except ProtocolError as err:
        await client.ws.send_json(error(err.code, str(err)))
        return False
    except RulesError as err:
        await client.ws.send_json(error(getattr(err, "code", "refused"), str(err)))
        return False
    except LeaseLostError:  # another process took the match over: nothing was written here
        hub.evict(session.id, "another server process took it over", moved=True)
        return False
    except Exception:  # a defect must not close the connection, nor tell what it saw
        _log.exception("session %s: a message could not be handled", session.id)
        await client.ws.send_json(
            error("internal", "the server failed on this message; the server log says why")
        )
        hub.changed(session)
        await hub.send_state(session, client)
        return False
    hub.changed(session)
    await hub.broadcast(session)
    return isinstance(message, Act)

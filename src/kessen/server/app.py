"""The ASGI application: HTTP endpoints to start games, a WebSocket per seat, the static UI.

Every connection is a seat or a spectator and only ever receives ``Session.view_for`` of its
seat. COM seats are driven here, one task per session, at the session's pace.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from kessen.engine import registry
from kessen.engine.contract import RulesError
from kessen.server.protocol import (
    Act,
    Lang,
    Live,
    Ping,
    ProtocolError,
    Redo,
    ShowAll,
    Undo,
    error,
    parse_message,
)
from kessen.server.session import SPECTATOR, Mode, Session
from kessen.store.records import MatchStore

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"
DEFAULT_PACE = 3.0
RULESETS = ("kobo",)


class NewGame(BaseModel):
    """A request to start a match."""

    model_config = ConfigDict(extra="forbid")

    ruleset: Literal["kobo"] = "kobo"
    mode: Mode = "vs_com"
    decks: list[str] | None = Field(default=None, min_length=2, max_length=2)
    com: str = "heuristic"
    pace: float | None = Field(default=None, ge=0, le=30)
    seed: int | None = Field(default=None, ge=0, lt=2**63)


@dataclass(eq=False)
class Client:
    """One open WebSocket: its seat, language and spectator switch."""

    ws: WebSocket
    seat: int
    lang: str = "ja"
    show_all: bool = False


@dataclass
class Hub:
    """All sessions of this server, their connections and their COM tasks."""

    pace: float = DEFAULT_PACE
    sessions: dict[str, Session] = field(default_factory=dict)
    clients: dict[str, set[Client]] = field(default_factory=dict)
    wake: dict[str, asyncio.Event] = field(default_factory=dict)
    tasks: dict[str, asyncio.Task[None]] = field(default_factory=dict)

    def add(self, session: Session) -> None:
        """Register a session and start driving its COM seats."""
        self.sessions[session.id] = session
        self.clients[session.id] = set()
        self.wake[session.id] = asyncio.Event()
        self.tasks[session.id] = asyncio.create_task(self._drive(session))
        self.wake[session.id].set()

    async def send_state(self, session: Session, client: Client) -> None:
        """Send ``client`` its own view of the session."""
        view = session.view_for(client.seat, client.lang, client.show_all)
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await client.ws.send_json({"type": "state", "view": view})

    async def broadcast(self, session: Session) -> None:
        """Send every client of the session its own view."""
        for client in list(self.clients.get(session.id, ())):
            await self.send_state(session, client)

    def changed(self, session: Session) -> None:
        """Something changed: the COM task looks again."""
        self.wake[session.id].set()

    async def _drive(self, session: Session) -> None:
        """Play the COM seats of ``session`` at its pace until the match ends."""
        wake = self.wake[session.id]
        rules = registry.get(session.ruleset)
        while True:
            await wake.wait()
            wake.clear()
            while (seat := session.com_to_move()) is not None:
                version = session.version
                await asyncio.sleep(session.pace)
                if session.version != version or session.com_to_move() != seat:
                    continue
                state = session.live
                player = rules.players[session.com[seat]](session.com_seed())
                view, legal = state.view(seat), state.legal_actions()
                action = await asyncio.to_thread(player.choose, view, legal)
                if session.version != version:
                    continue
                session.apply_com(seat, action, getattr(player, "last_explanation", None))
                await self.broadcast(session)

    async def close(self) -> None:
        """Stop every COM task."""
        for task in self.tasks.values():
            task.cancel()


def create_app(pace: float = DEFAULT_PACE, store: MatchStore | None = None) -> FastAPI:
    """The application; ``pace`` is the default seconds per COM action. With a ``store``,
    every match is recorded as it is played, and unfinished ones come back on start-up."""
    hub = Hub(pace=pace)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        if store is not None:
            for info in store.unfinished(source="server"):
                try:
                    hub.add(Session.restore(store, info.id))
                except (RulesError, KeyError, ValueError) as err:
                    logging.getLogger(__name__).warning(
                        "match %s cannot be resumed: %s", info.id, err
                    )
        yield
        await hub.close()

    app = FastAPI(title="Kessen", lifespan=lifespan)
    app.state.hub = hub

    @app.get("/")
    async def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        out: dict[str, Any] = {"pace": hub.pace, "rulesets": {}}
        for name in RULESETS:
            rules = registry.get(name)
            out["rulesets"][name] = {
                "com_levels": list(rules.players),
                "default_decks": rules.default_config.get("decks"),
                "version": rules.version,
            }
        return out

    @app.get("/api/catalog/{ruleset}")
    async def catalog(ruleset: str, lang: Literal["ja", "en"] = "ja") -> dict[str, Any]:
        if ruleset not in RULESETS:
            raise HTTPException(404, f"unknown ruleset {ruleset!r}")
        return registry.get(ruleset).catalog(lang)

    @app.post("/api/games")
    async def new_game(request: NewGame) -> dict[str, Any]:
        rules = registry.get(request.ruleset)
        config = dict(rules.default_config)
        if request.decks is not None:
            config["decks"] = request.decks
        seed = request.seed if request.seed is not None else random.SystemRandom().randrange(2**62)
        pace = request.pace if request.pace is not None else hub.pace
        try:
            session = Session.create(
                request.ruleset, config, seed, request.mode, request.com, pace, store
            )
        except RulesError as err:
            raise HTTPException(422, str(err)) from err
        hub.add(session)
        seat = 0 if request.mode == "vs_com" else SPECTATOR
        return {"id": session.id, "token": session.first_token, "seat": seat}

    @app.get("/api/games")
    async def list_games() -> list[dict[str, Any]]:
        return [s.summary() for s in hub.sessions.values()]

    @app.websocket("/ws/{game_id}")
    async def play(ws: WebSocket, game_id: str, token: str = "") -> None:
        await ws.accept()
        session = hub.sessions.get(game_id)
        if session is None or token not in session.tokens:
            await ws.send_json(error("unknown_game", "no such game, or a wrong token"))
            await ws.close(code=4404)
            return
        client = Client(ws, session.seat_of(token))
        hub.clients[game_id].add(client)
        try:
            await hub.send_state(session, client)
            while True:
                raw = await ws.receive_text()
                await _handle(hub, session, client, raw)
        except WebSocketDisconnect:
            pass
        finally:
            hub.clients[game_id].discard(client)

    return app


async def _handle(hub: Hub, session: Session, client: Client, raw: str) -> None:
    """Apply one client message; refusals go back to that client only."""
    try:
        message = parse_message(raw)
        if isinstance(message, Act):
            session.act(client.seat, message.prompt_id, message.action)
        elif isinstance(message, Undo):
            session.undo(client.seat)
        elif isinstance(message, Redo):
            session.redo(client.seat)
        elif isinstance(message, Live):
            session.go_live()
        elif isinstance(message, Lang):
            client.lang = message.lang
            await hub.send_state(session, client)
            return
        elif isinstance(message, ShowAll):
            client.show_all = message.on
            await hub.send_state(session, client)
            return
        elif isinstance(message, Ping):
            await hub.send_state(session, client)
            return
    except ProtocolError as err:
        await client.ws.send_json(error(err.code, str(err)))
        return
    except RulesError as err:
        await client.ws.send_json(error("refused", str(err)))
        return
    hub.changed(session)
    await hub.broadcast(session)

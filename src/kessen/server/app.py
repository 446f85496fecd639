"""The ASGI application: HTTP endpoints to start games, a WebSocket per seat, the static UI.

Every connection is a seat or a spectator and only ever receives ``Session.view_for`` of its
seat. COM seats are driven here, one task per session, at the session's pace. The server knows
the rulesets it offers only by name (:data:`RULESETS`): a new game takes the ruleset's default
config, overridden by the request's ``config`` (validated by the ruleset), and its COM levels
are the ruleset's registered players.

With a :class:`~kessen.store.records.MatchStore`, the recorded matches can be listed and
replayed (``/api/matches...``): a match is replayed through the engine, and each step is sent
as one seat's view (or everything, once the match is finished), never more than that seat
could see. Any step can be continued as a new game against COM, recorded as a branch.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from fastapi import FastAPI, HTTPException, Query, WebSocket, WebSocketDisconnect
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from kessen.engine import registry
from kessen.engine.contract import GameState, Json, RulesError
from kessen.engine.replay import ReplayDivergence
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
from kessen.server.session import (
    SPECTATOR,
    Mode,
    Session,
    SessionError,
    com_choice,
    redact_action,
)
from kessen.store.html_replay import shown_action
from kessen.store.records import NO_RESULT, MatchInfo, MatchRecord, MatchStore, StoreError

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"
DEFAULT_PACE = 3.0
RULESETS: Final = ("kobo", "twgp")
"""The rulesets the server offers, in the order the start screen lists them."""
PAGE_MAX: Final = 100
"""The most matches one page of ``GET /api/matches`` lists."""
REPLAYS_KEPT: Final = 8
"""How many replayed matches the server keeps in memory for stepping through them."""
SeatKey = Literal["0", "1", "all"]


class NewGame(BaseModel):
    """A request to start a match.

    ``config`` overrides keys of the ruleset's default config (Kōbō: ``decks``, ``best_of``;
    TWGP: its rule switches such as ``quickStart`` or ``gridWidth``); the ruleset validates the
    result. ``decks`` is Kōbō's shorthand for ``config["decks"]``.
    """

    model_config = ConfigDict(extra="forbid")

    ruleset: Literal["kobo", "twgp"] = "kobo"
    mode: Mode = "vs_com"
    decks: list[str] | None = Field(default=None, min_length=2, max_length=2)
    config: dict[str, Any] | None = Field(default=None, max_length=32)
    com: str = "heuristic"
    pace: float | None = Field(default=None, ge=0, le=30)
    seed: int | None = Field(default=None, ge=0, lt=2**63)


class Continue(BaseModel):
    """A request to play on from a step of a recorded match, as ``seat``, against COM."""

    model_config = ConfigDict(extra="forbid")

    step: int = Field(ge=0)
    seat: Literal[0, 1] = 0


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
        while True:
            await wake.wait()
            wake.clear()
            while (seat := session.com_to_move()) is not None:
                version = session.version
                await asyncio.sleep(session.pace)
                if session.version != version or session.com_to_move() != seat:
                    continue
                state = session.live
                view, legal = state.view(seat), state.legal_actions()
                action, why = await asyncio.to_thread(
                    com_choice, session.ruleset, session.com[seat], session.com_seed(), view, legal
                )
                if session.version != version:
                    continue
                session.apply_com(seat, action, why)
                await self.broadcast(session)

    async def close(self) -> None:
        """Stop every COM task."""
        for task in self.tasks.values():
            task.cancel()


@dataclass(frozen=True)
class Replayed:
    """A recorded match replayed through the engine: every state, who chose each action, and
    the game, turn and turn player at every step."""

    info: MatchInfo
    meta: Json
    states: list[GameState]
    actions: list[str]
    actors: list[int]
    prompts: list[str]
    marks: list[tuple[int, int, int | None]]

    @property
    def steps(self) -> int:
        """The number of actions (the last step)."""
        return len(self.actions)

    def turns(self) -> list[Json]:
        """Where each turn of each game begins: ``{step, game, turn, player}`` in order."""
        out: list[Json] = []
        for step, (game, turn, player) in enumerate(self.marks):
            if not out or (out[-1]["game"], out[-1]["turn"]) != (game, turn):
                out.append({"step": step, "game": game, "turn": turn, "player": player})
        return out


def _replayed(record: MatchRecord) -> Replayed:
    """Replay ``record`` (every recorded hash verified; :class:`ReplayDivergence` if not)."""
    replay = record.replay()
    states = list(replay.states(verify=True))
    actors: list[int] = []
    prompts: list[str] = []
    for state in states[:-1]:
        pending = state.pending
        assert pending is not None  # a state followed by an action had a decision pending
        actors.append(pending.seat)
        prompts.append(pending.prompt)
    marks: list[tuple[int, int, int | None]] = []
    for state in states:
        view = state.view(0)
        match = view.get("match") or {}
        marks.append((int(match.get("game", 1)), int(view.get("turn", 0)), view.get("turn_player")))
    return Replayed(record.info, record.meta, states, list(replay.actions), actors, prompts, marks)


class Replays:
    """Recorded matches replayed on demand; the few last asked for stay in memory.

    An unfinished match keeps growing (or shrinks on undo): a cached replay is used only while
    the stored actions are still exactly the ones it was built from.
    """

    def __init__(self, store: MatchStore, size: int = REPLAYS_KEPT) -> None:
        self.store = store
        self.size = size
        self._kept: OrderedDict[int, tuple[str, Replayed]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, match_id: int) -> Replayed:
        """Match ``match_id`` replayed; :class:`StoreError` if there is no such match,
        :class:`ReplayDivergence` if it does not replay under the current rules."""
        record = self.store.get(match_id)
        digest = hashlib.sha256(
            "\n".join([str(record.info.finished), *(row.action for row in record.actions)]).encode()
        ).hexdigest()
        with self._lock:
            kept = self._kept.get(match_id)
            if kept is not None and kept[0] == digest:
                self._kept.move_to_end(match_id)
                return kept[1]
        replayed = _replayed(record)
        with self._lock:
            self._kept[match_id] = (digest, replayed)
            self._kept.move_to_end(match_id)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return replayed


def viewable_seats(info: MatchInfo) -> list[SeatKey]:
    """The views of a recorded match anyone may open.

    A finished match shows everything: each seat, and ``all``. Before the end, hidden cards
    stay hidden: never ``all``, and when people play in it only their own seats (a COM seat's
    view would show its hand to the person playing against it).
    """
    if info.is_finished:
        return ["0", "1", "all"]
    people = sorted(seat for seat, player in info.players.items() if player == "human")
    return [s for s in ("0", "1") if s in people] if people else ["0", "1"]


def _check_seat(info: MatchInfo, seat: SeatKey) -> None:
    """Refuse (403) a view of ``info`` that would show hidden cards."""
    if seat in viewable_seats(info):
        return
    if seat == "all":
        raise HTTPException(
            403,
            f"match {info.id} is not finished: the view of everything would show hidden "
            "cards; choose seat 0 or 1 (all is available once the match is over)",
        )
    raise HTTPException(
        403,
        f"match {info.id} is not finished and seat {seat} is played by COM: its view would "
        f"show that COM's hidden cards; choose seat {' or '.join(viewable_seats(info))}",
    )


def _step_view(
    rep: Replayed, step: int, seat: SeatKey, lang: str, log_from: int = 0, base: int | None = None
) -> Json:
    """Step ``step`` of a replayed match as ``seat`` saw it, with log texts.

    With ``log_from`` and ``base`` (a step whose log the client already has, the first
    ``log_from`` entries of it), only the entries from ``log_start`` on are sent when the two
    logs agree that far; ``log_total`` is the length of this step's log.
    """
    rules = registry.get(rep.info.ruleset)
    viewer = None if seat == "all" else int(seat)
    state = rep.states[step]
    view = state.view_all(lang) if viewer is None else state.view(viewer, lang)
    log: list[Json] = view["log"]
    start = 0
    if log_from > 0 and base is not None and 0 <= base <= rep.steps:
        known = rep.states[base]
        known_log = (known.view_all(lang) if viewer is None else known.view(viewer, lang))["log"]
        k = min(log_from, len(log))
        if len(known_log) >= log_from and known_log[:k] == log[:k]:
            start = k
    sent = log[start:]
    for entry in sent:
        entry["text"] = rules.describe(entry, lang, viewer)
    view["log"] = sent
    actor = rep.actors[step - 1] if step > 0 else None
    action = None
    if actor is not None:
        action = shown_action(rep.actions[step - 1], actor, viewer, rep.info.ruleset)
        if viewer is not None and actor != viewer:
            action = redact_action(action, view)
    game, turn, _player = rep.marks[step]
    return {
        "match": rep.info.id,
        "step": step,
        "steps": rep.steps,
        "seat": seat,
        "lang": lang,
        "game": game,
        "turn": turn,
        "actor": actor,
        "prompt": None if actor is None else rep.prompts[step - 1],
        "action": action,
        "log_start": start,
        "log_total": len(log),
        "view": view,
    }


def _whole_replay(rep: Replayed, seat: SeatKey, lang: str) -> Json:
    """Every step of a replayed match as ``seat`` saw it, compactly: the views without their
    log, and the log once (each step's length; a step whose log is not a beginning of it is
    sent whole in ``log_overrides``)."""
    frames: list[Json] = []
    views: list[Json] = []
    logs: list[list[Json]] = []
    for step in range(rep.steps + 1):
        data = _step_view(rep, step, seat, lang)
        view = data.pop("view")
        logs.append(view.pop("log"))
        for key in ("match", "steps", "seat", "lang", "log_start", "log_total"):
            data.pop(key)
        frames.append(data)
        views.append(view)
    final = logs[-1]
    lengths: list[int] = []
    overrides: dict[str, list[Json]] = {}
    for step, log in enumerate(logs):
        if final[: len(log)] == log:
            lengths.append(len(log))
        else:
            lengths.append(-1)
            overrides[str(step)] = log
    return {
        "match": rep.info.to_json(),
        "steps": rep.steps,
        "seat": seat,
        "lang": lang,
        "turns": rep.turns(),
        "frames": frames,
        "views": views,
        "log": final,
        "log_lengths": lengths,
        "log_overrides": overrides,
    }


def _timestamp(text: str | None, name: str) -> float | None:
    """A ``since``/``until`` filter: a date (YYYY-MM-DD, local time), a date-time or a Unix
    time; 422 otherwise."""
    if text is None or not text.strip():
        return None
    try:
        return float(text)
    except ValueError:
        pass
    try:
        return datetime.fromisoformat(text.strip()).timestamp()
    except ValueError as err:
        raise HTTPException(
            422, f"{name}: {text!r} is not a date (YYYY-MM-DD), a date-time or a Unix time"
        ) from err


def continue_level(info: MatchInfo, seat: int) -> str:
    """The COM level that plays against a person continuing ``info`` as ``seat``: the level
    that played the other seat, or ``heuristic`` when that was a person (or is unknown)."""
    rules = registry.get(info.ruleset)
    level = info.players.get(str(1 - seat), "")
    if level in rules.players:
        return level
    return "heuristic" if "heuristic" in rules.players else next(iter(rules.players))


def _resumable(store: MatchStore, info: MatchInfo) -> bool:
    """Whether an unfinished match is a server session to bring back: a ``server`` match, or
    a ``branch`` one that :meth:`Session.from_branch` created (its meta names its own parent;
    other branches only copy their parent's meta)."""
    if info.source == "server":
        return True
    meta = store.get(info.id).meta
    return "session" in meta and info.parent is not None and meta.get("branch") == list(info.parent)


def create_app(pace: float = DEFAULT_PACE, store: MatchStore | None = None) -> FastAPI:
    """The application; ``pace`` is the default seconds per COM action. With a ``store``,
    every match is recorded as it is played, and unfinished ones come back on start-up."""
    hub = Hub(pace=pace)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        if store is not None:
            unfinished = [*store.unfinished(source="server"), *store.unfinished(source="branch")]
            for info in sorted(unfinished, key=lambda i: i.id):
                if not _resumable(store, info):
                    continue
                try:
                    session = Session.restore(store, info.id)
                except (RulesError, KeyError, ValueError) as err:
                    logging.getLogger(__name__).warning(
                        "match %s cannot be resumed: %s", info.id, err
                    )
                    continue
                if session.id in hub.sessions:
                    logging.getLogger(__name__).warning(
                        "match %s cannot be resumed: session %s is taken", info.id, session.id
                    )
                    continue
                hub.add(session)
        yield
        await hub.close()

    app = FastAPI(title="Kessen", lifespan=lifespan)
    app.add_middleware(GZipMiddleware, minimum_size=4096)
    app.state.hub = hub
    replays = Replays(store) if store is not None else None

    @app.get("/")
    async def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        out: dict[str, Any] = {"pace": hub.pace, "rulesets": {}, "store": store is not None}
        for name in RULESETS:
            try:
                rules = registry.get(name)
            except (KeyError, ImportError) as err:  # one broken ruleset must not hide the others
                logging.getLogger(__name__).warning("ruleset %s is not available: %s", name, err)
                continue
            out["rulesets"][name] = {
                "com_levels": list(rules.players),
                "default_decks": rules.default_config.get("decks"),
                "default_config": dict(rules.default_config),
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
        if request.config is not None:
            config.update(request.config)
        if request.decks is not None:
            if "decks" not in rules.default_config:
                raise HTTPException(422, f"{request.ruleset} has no decks to choose")
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

    def recorded() -> tuple[MatchStore, Replays]:
        if store is None or replays is None:
            raise HTTPException(
                503, "this server keeps no match records (it was started without a store)"
            )
        return store, replays

    async def replayed(match_id: int) -> Replayed:
        _, kept = recorded()
        try:
            return await asyncio.to_thread(kept.get, match_id)
        except StoreError as err:
            raise HTTPException(404, str(err)) from err
        except ReplayDivergence as err:
            raise HTTPException(
                409,
                f"match {match_id} no longer replays under the current rules ({err}); "
                f"`kessen store check {match_id}` says which cards changed",
            ) from err

    def step_of(rep: Replayed, step: int) -> int:
        if not 0 <= step <= rep.steps:
            raise HTTPException(404, f"match {rep.info.id} has steps 0 to {rep.steps}, not {step}")
        return step

    @app.get("/api/matches")
    async def list_matches(
        deck: str | None = None,
        result: str | None = None,
        since: str | None = None,
        until: str | None = None,
        source: str | None = None,
        finished: bool | None = None,
        ruleset: str | None = None,
        offset: Annotated[int, Query(ge=0)] = 0,
        limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 20,
    ) -> dict[str, Any]:
        matches, _ = recorded()
        if result is not None and result not in ("", "0", "1", NO_RESULT):
            raise HTTPException(
                422, f"result: {result!r} is not a winning seat (0 or 1) or {NO_RESULT!r}"
            )
        rows = matches.list_matches(
            deck=deck or None,
            result=result or None,
            since=_timestamp(since, "since"),
            until=_timestamp(until, "until"),
            source=source or None,
            finished=finished,
            ruleset=ruleset or None,
            limit=limit + 1,
            offset=offset,
        )
        return {
            "matches": [info.to_json() for info in rows[:limit]],
            "offset": offset,
            "limit": limit,
            "more": len(rows) > limit,
        }

    @app.get("/api/matches/{match_id}")
    async def match_info(match_id: int) -> dict[str, Any]:
        rep = await replayed(match_id)
        return {
            "match": rep.info.to_json(),
            "steps": rep.steps,
            "finished": rep.info.is_finished,
            "seats": viewable_seats(rep.info),
            "turns": rep.turns(),
            "continue_com": {str(s): continue_level(rep.info, s) for s in (0, 1)},
        }

    @app.get("/api/matches/{match_id}/replay")
    async def match_replay(
        match_id: int, seat: SeatKey = "0", lang: Literal["ja", "en"] = "ja"
    ) -> dict[str, Any]:
        rep = await replayed(match_id)
        _check_seat(rep.info, seat)
        return await asyncio.to_thread(_whole_replay, rep, seat, lang)

    @app.get("/api/matches/{match_id}/step/{step}")
    async def match_step(
        match_id: int,
        step: int,
        seat: SeatKey = "0",
        lang: Literal["ja", "en"] = "ja",
        log_from: Annotated[int, Query(ge=0)] = 0,
        base: int | None = None,
    ) -> dict[str, Any]:
        rep = await replayed(match_id)
        _check_seat(rep.info, seat)
        return _step_view(rep, step_of(rep, step), seat, lang, log_from, base)

    @app.post("/api/matches/{match_id}/continue")
    async def continue_match(match_id: int, request: Continue) -> dict[str, Any]:
        matches, _ = recorded()
        rep = await replayed(match_id)
        step = step_of(rep, request.step)
        _check_seat(rep.info, "0" if request.seat == 0 else "1")
        level = continue_level(rep.info, request.seat)
        pace = rep.meta.get("pace")
        seconds = float(pace) if isinstance(pace, int | float) else hub.pace
        try:
            session = await asyncio.to_thread(
                Session.from_branch, matches, match_id, step, request.seat, level, seconds
            )
        except StoreError as err:
            raise HTTPException(404, str(err)) from err
        except SessionError as err:
            raise HTTPException(409, str(err)) from err
        except RulesError as err:
            raise HTTPException(409, f"match {match_id} cannot be continued: {err}") from err
        hub.add(session)
        assert session.recorder is not None
        return {
            "id": session.id,
            "token": session.first_token,
            "seat": request.seat,
            "match_id": session.recorder.match_id,
            "parent": [match_id, step],
            "com": level,
        }

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

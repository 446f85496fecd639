"""The recorded matches over HTTP: list, replay step by step, continue from a step against COM.

A match is replayed through the engine, and each step is sent as one seat's view, never more
than that seat could see. What may be seen depends on whether the match is *open*:

- A **closed** match (it and every match it branched from are finished) shows everything:
  either seat's view, and ``all``.
- An **open** match (it, or a match it branched from, is unfinished) belongs to the browser
  that plays it. Its listing carries no ``seed`` (which rebuilds both decks' order and every
  hidden card). Its steps (``/step/{n}``, ``/replay``) are served only as the view of the seat
  whose token the request presents in the header :data:`TOKEN_HEADER` (``X-Kessen-Token``,
  the token ``POST /api/games`` or ``/continue`` handed out, or several comma-separated: a
  browser sends those of its recent games; a COM-vs-COM spectator's token opens seat 0's view,
  as the live table shows it): never ``all``, never a COM seat, nothing
  without the token. ``/continue`` needs that token too and continues only as its seat. A
  branch of an open match is open as long as its parent is, whatever its own state: it starts
  from the parent's hidden state and so shows what the parent hides.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Final, Literal

from fastapi import APIRouter, Header, HTTPException, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from kessen.engine import card_sets, registry
from kessen.engine.contract import GameState, Json, RulesError
from kessen.engine.replay import ReplayDivergence
from kessen.server.hub import Crowded, Full, Hub, client_address, make_room
from kessen.server.limits import bounded_pace
from kessen.server.security import same_secret
from kessen.server.session import SPECTATOR, Session, SessionError
from kessen.store.html_replay import shown_action
from kessen.store.records import (
    NO_RESULT,
    STATES,
    MatchInfo,
    MatchRecord,
    MatchStore,
    StoreError,
)

TOKEN_HEADER: Final = "X-Kessen-Token"
"""The request header that carries a match's token (the browser's proof it plays the match)."""
PAGE_MAX: Final = 100
"""The most matches one page of ``GET /api/matches`` lists."""
REPLAYS_KEPT: Final = 8
"""How many replayed matches the server keeps in memory for stepping through them."""
MAX_ID: Final = 2**62
"""The largest match id or offset a request may name (SQLite integers are 64-bit)."""
MAX_STEP: Final = 10**7
"""The largest step number or log position a request may name."""
MAX_TOKENS: Final = 16
"""How many comma-separated tokens one request may present."""
SeatKey = Literal["0", "1", "all"]

MatchId = Annotated[int, Path(ge=1, le=MAX_ID, description="a match id")]
Token = Annotated[str | None, Header(alias=TOKEN_HEADER, max_length=1024)]


class Continue(BaseModel):
    """A request to play on from a step of a recorded match, as ``seat``, against COM."""

    model_config = ConfigDict(extra="forbid")

    step: int = Field(ge=0, le=MAX_STEP)
    seat: Literal[0, 1] = 0


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
    config: Json

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


def replay_record(record: MatchRecord) -> Replayed:
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
    return Replayed(
        record.info,
        record.meta,
        states,
        list(replay.actions),
        actors,
        prompts,
        marks,
        record.config,
    )


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
        replayed = replay_record(record)
        with self._lock:
            self._kept[match_id] = (digest, replayed)
            self._kept.move_to_end(match_id)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return replayed


# --- who may see what ---------------------------------------------------------------------


def is_open(store: MatchStore, info: MatchInfo) -> bool:
    """Whether ``info`` or any match it branched from is unfinished."""
    seen: set[int] = set()
    current: MatchInfo | None = info
    while current is not None and current.id not in seen:
        if not current.is_finished:
            return True
        seen.add(current.id)
        if current.parent is None:
            return False
        try:
            current = store.info(current.parent[0])
        except StoreError:
            return False  # a deleted parent hides nothing any more
    return False


def token_seat(meta: Json, token: str | None) -> int | None:
    """The seat that ``token`` plays in a match whose stored meta is ``meta`` (None if
    none). ``token`` may list several tokens, comma-separated (a browser sends those of its
    recent games); the first that belongs to the match counts.

    >>> meta = {"tokens": {"abc": 0, "xyz": -1}}
    >>> token_seat(meta, "nope, abc"), token_seat(meta, "xyz"), token_seat(meta, "ab")
    (0, -1, None)
    """
    tokens = meta.get("tokens")
    if not token or not isinstance(tokens, dict):
        return None
    for given in [t.strip() for t in token.split(",")][:MAX_TOKENS]:
        found = None
        for known, seat in tokens.items():
            if given and same_secret(given, str(known)):
                found = seat
        if isinstance(found, int) and not isinstance(found, bool):
            return found
    return None


def secret_seats(info: MatchInfo, config: Json) -> list[int]:
    """The seats whose fixed list in ``config`` is their player's secret from everyone else:
    a secret deck format's entry (a TWGP build chosen before the game) of a seat whose
    opponent was a person, who did not choose it and may not see it (twgp-trump.md §2.2).
    Against COM the one person chose both lists, and nothing is secret from them."""
    found = registry.get(info.ruleset).decks
    if found is None or not found.secret:
        return []
    entries = config.get(found.config_key)
    if not isinstance(entries, list):
        return []
    return [
        seat
        for seat, entry in enumerate(entries[:2])
        if entry is not None and info.players.get(str(1 - seat)) == "human"
    ]


def viewable_seats(
    info: MatchInfo, open_: bool, meta: Json, token: str | None, secret: list[int] | None = None
) -> list[SeatKey]:
    """The views of a recorded match this request may open (see the module docstring). A
    ``secret`` seat's view and ``all`` (which show its secret build) are its player's alone,
    even once the match is over."""
    if not open_:
        seats: list[SeatKey] = ["0", "1", "all"]
        owner = token_seat(meta, token) if secret else None
        for hidden in secret or []:
            if owner != hidden:
                seats = [s for s in seats if s not in ("all", "0" if hidden == 0 else "1")]
        return seats
    seat = token_seat(meta, token)
    if seat == SPECTATOR and meta.get("mode") == "com_vs_com":
        return ["0"]
    if seat in (0, 1) and info.players.get(str(seat)) == "human":
        return ["0" if seat == 0 else "1"]
    return []


def match_state(info: MatchInfo, live: set[int]) -> str:
    """A listed match's state (:data:`STATES`): ``live`` while a session of this server plays
    it, ``abandoned`` when it was left unfinished for good, ``finished`` otherwise."""
    if info.is_finished:
        return "abandoned" if info.reason == "abandoned" else "finished"
    return "live" if info.id in live else "abandoned"


def departures(info: MatchInfo, config: Json | None) -> list[Json]:
    """How a match's stored ``config`` departs from its ruleset's standard rules (the
    ruleset's :attr:`~kessen.engine.registry.Ruleset.departures` labels; none for a ruleset
    this server does not know). The config is public (both players chose the match's rules);
    the labels name rules only, never a seat's list."""
    if config is None:
        return []
    try:
        rules = registry.get(info.ruleset)
    except (KeyError, ImportError):
        return []
    return rules.departures(config)


def public_info(
    info: MatchInfo,
    open_: bool,
    meta: Json | None = None,
    secret: bool = False,
    config: Json | None = None,
) -> Json:
    """A match's listing: without the seed while it is open, or when it holds a ``secret``
    build (the seed deals that build's pile); ``open_deal`` when a client chose the deal
    (:mod:`kessen.server.deal`, from the match's stored ``meta``); ``departures``, how its
    ``config`` departs from the standard rules (:func:`departures`); ``waiting_guest`` and no
    second deck for a match between two people whose guest has not chosen yet. The seed is a
    string of its decimal digits: a 64-bit integer does not survive a JavaScript number."""
    data = info.to_json()
    data["seed"] = str(info.seed)  # 64 bits: a JavaScript number would round it
    data["open_deal"] = bool((meta or {}).get("open_deal"))
    data["tutorial"] = bool((meta or {}).get("tutorial"))  # the guided match (tutorial_api)
    data["departures"] = departures(info, config)
    if (meta or {}).get("waiting_guest") is True and info.steps == 0:
        # The placeholder of a match between two people: the guest's deck is not chosen yet
        # (the record holds the default it was checked with, not the guest's choice).
        data["decks"] = [data["decks"][0], None]
        data["waiting_guest"] = True
    if secret:
        data.pop("seed", None)
    if open_:
        data.pop("seed", None)
        data["open"] = True
    else:
        data["open"] = False
    return data


def _refuse_seat(
    info: MatchInfo, seat: str, seats: list[SeatKey], token: str | None, open_: bool = True
) -> None:
    """Refuse (403) a view of a recorded match that this request may not open."""
    if seat in seats:
        return
    if not open_:  # over, but a secret build stays its player's (viewable_seats)
        raise HTTPException(
            403,
            f"match {info.id}: a build chosen before the game is its player's secret, and "
            f"this view would show it; only that player's token opens it (this request may "
            f"open: {', '.join(seats)})",
        )
    head = f"match {info.id} is not finished, so its hidden cards stay hidden"
    if not seats:
        if token:
            raise HTTPException(
                403, f"{head}: this token is not the token of its player; nothing is shown"
            )
        raise HTTPException(
            403,
            f"{head}: only its player sees it, by sending its token in the {TOKEN_HEADER} "
            "header; everything is shown once the match is over",
        )
    if seat == "all":
        raise HTTPException(
            403,
            f"{head}: the view of everything waits for the end; your token opens seat {seats[0]}",
        )
    if info.players.get(seat, "human") != "human":
        raise HTTPException(
            403,
            f"{head}: seat {seat} is played by COM, and its view would show that COM's hidden "
            f"cards; your token opens seat {seats[0]}",
        )
    raise HTTPException(403, f"{head}: your token opens seat {seats[0]} only, not seat {seat}")


# --- views --------------------------------------------------------------------------------


def _step_view(
    rep: Replayed,
    step: int,
    seat: SeatKey,
    lang: str,
    log_from: int = 0,
    base: int | None = None,
    texts: bool = True,
) -> Json:
    """Step ``step`` of a replayed match as ``seat`` saw it, with log texts (unless not
    ``texts``: :func:`whole_replay` writes them once, on the entries it sends).

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
    if texts:
        card_sets.activate(rep.info.ruleset, rep.config)  # a designer's set names its cards
    for entry in sent if texts else ():
        entry["text"] = rules.describe(entry, lang, viewer)
    view["log"] = sent
    actor = rep.actors[step - 1] if step > 0 else None
    action = None
    if actor is not None:
        action = shown_action(rep.actions[step - 1], actor, viewer, rep.info.ruleset)
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


def whole_replay(rep: Replayed, seat: SeatKey, lang: str, info: Json) -> Json:
    """Every step of a replayed match as ``seat`` saw it, compactly: the views without their
    log, and the log once (each step's length; a step whose log is not a beginning of it is
    sent whole in ``log_overrides``). ``info`` is the match's listing as this request may
    see it. What ``GET /api/matches/{id}/replay`` answers, and what an exported replay
    (:mod:`kessen.store.html_replay`) embeds."""
    rules = registry.get(rep.info.ruleset)
    viewer = None if seat == "all" else int(seat)
    frames: list[Json] = []
    views: list[Json] = []
    logs: list[list[Json]] = []
    for step in range(rep.steps + 1):
        data = _step_view(rep, step, seat, lang, texts=False)
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
    # Each entry's text once (a step's text is its entry's: describe reads nothing else).
    card_sets.activate(rep.info.ruleset, rep.config)  # a designer's set names its own cards
    for entry in [*final, *(e for log in overrides.values() for e in log)]:
        entry["text"] = rules.describe(entry, lang, viewer)
    return {
        "match": info,
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
        value = float(text)
    except ValueError:
        pass
    else:
        if not -1e11 < value < 1e11:  # NaN and times beyond year 5000 included
            raise HTTPException(422, f"{name}: {text!r} is not a Unix time this server knows")
        return value
    try:
        return datetime.fromisoformat(text.strip()).timestamp()
    except (ValueError, OverflowError, OSError) as err:
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


def _has_secret(info: MatchInfo, config: Json | None) -> bool:
    """Whether a listed match holds a secret build (:func:`secret_seats`) in its stored
    ``config`` (``None``: the match is gone)."""
    if config is None:
        return False
    try:
        return bool(secret_seats(info, config))
    except (KeyError, ImportError):  # a ruleset this server does not know
        return False


def continue_refusal(info: MatchInfo, open_: bool, seat: int) -> str | None:
    """Why ``seat`` may not continue ``info`` against COM (a code; None when it may).

    A branch starts from the recorded hidden state and gives COM the other seat, which then
    plays that seat's real hidden cards in front of the continuing player. So only matches
    whose hidden cards are no secret of anyone else may be continued: ``"open"`` while the
    match (or one it branched from) is unfinished, ``"person"`` when a person played the other
    seat (their cards, a TWGP build among them, stay theirs).
    """
    if open_:
        return "open"
    if info.players.get(str(1 - seat)) == "human":
        return "person"
    return None


CONTINUE_REFUSED: Final = {
    "open": "match {id} is not finished: a branch would play from its real hidden state, so "
    "COM would play the cards your opponent holds hidden; continue it once it is over",
    "person": "match {id} was played against a person: a branch would give COM that "
    "person's hidden cards (and their secret build), so it cannot be continued",
}
"""What a refused ``/continue`` answers, per :func:`continue_refusal` code."""


def match_answer(rep: Replayed, open_: bool, seats: list[SeatKey], listing: Json) -> Json:
    """What ``GET /api/matches/{id}`` answers: the ``listing`` (:func:`public_info`), the
    steps and turns, the ``seats`` whose views this request may open, and who continues a
    branch from it."""
    return {
        "match": listing,
        "steps": rep.steps,
        "finished": rep.info.is_finished,
        "seats": seats,
        "turns": rep.turns(),
        "continue_com": {str(s): continue_level(rep.info, s) for s in (0, 1)},
        "continue_refused": {str(s): continue_refusal(rep.info, open_, s) for s in (0, 1)},
    }


# --- routes -------------------------------------------------------------------------------


def matches_router(store: MatchStore | None, hub: Hub) -> APIRouter:
    """The ``/api/matches`` routes over ``store`` (503 without one); continued matches become
    sessions of ``hub``."""
    router = APIRouter()
    replays = Replays(store) if store is not None else None

    def recorded() -> tuple[MatchStore, Replays]:
        if store is None or replays is None:
            raise HTTPException(
                503, "this server keeps no match records (it was started without a store)"
            )
        return store, replays

    async def replayed(match_id: int) -> tuple[Replayed, bool]:
        """The match replayed, and whether it is open."""
        matches, kept = recorded()
        try:
            info = await asyncio.to_thread(matches.info, match_id)
            open_ = await asyncio.to_thread(is_open, matches, info)
        except StoreError as err:
            raise HTTPException(404, str(err)) from err
        try:
            return await asyncio.to_thread(kept.get, match_id), open_
        except StoreError as err:
            raise HTTPException(404, str(err)) from err
        except ReplayDivergence as err:
            why = "" if open_ else f" ({err})"  # a divergence names actions, hidden ones too
            raise HTTPException(
                409,
                f"match {match_id} no longer replays under the current rules{why}; "
                f"`kessen store check {match_id}` says which cards changed",
            ) from err

    def step_of(rep: Replayed, step: int) -> int:
        if not 0 <= step <= rep.steps:
            raise HTTPException(404, f"match {rep.info.id} has steps 0 to {rep.steps}, not {step}")
        return step

    @router.get("/api/matches")
    async def list_matches(
        deck: Annotated[str | None, Query(max_length=200)] = None,
        result: Annotated[str | None, Query(max_length=20)] = None,
        since: Annotated[str | None, Query(max_length=40)] = None,
        until: Annotated[str | None, Query(max_length=40)] = None,
        source: Annotated[str | None, Query(max_length=40)] = None,
        finished: bool | None = None,
        state: Annotated[str | None, Query(max_length=20)] = None,
        ruleset: Annotated[str | None, Query(max_length=40)] = None,
        offset: Annotated[int, Query(ge=0, le=MAX_ID)] = 0,
        limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 20,
        token: Token = None,
    ) -> dict[str, Any]:
        matches, _ = recorded()
        if result is not None and result not in ("", "0", "1", NO_RESULT):
            raise HTTPException(
                422, f"result: {result!r} is not a winning seat (0 or 1) or {NO_RESULT!r}"
            )
        if state and state not in STATES:
            raise HTTPException(422, f"state: {state!r} is none of {', '.join(STATES)}")
        live = hub.live_match_ids()

        def page() -> list[Json]:
            rows = matches.list_matches(
                deck=deck or None,
                result=result or None,
                since=_timestamp(since, "since"),
                until=_timestamp(until, "until"),
                source=source or None,
                finished=finished,
                state=state or None,
                live=live,
                ruleset=ruleset or None,
                limit=limit + 1,
                offset=offset,
            )
            metas = matches.metas([info.id for info in rows])
            configs = matches.configs([info.id for info in rows])
            listed = [
                public_info(
                    info,
                    is_open(matches, info),
                    metas.get(info.id),
                    _has_secret(info, configs.get(info.id)),
                    configs.get(info.id),
                )
                for info in rows
            ]
            for data, info in zip(listed, rows, strict=True):
                data["state"] = match_state(info, live)
            if token:  # the seat this browser played (its tokens), where it played one
                for data, info in zip(listed, rows, strict=True):
                    seat = token_seat(metas.get(info.id, {}), token)
                    if seat in (0, 1) and info.players.get(str(seat)) == "human":
                        data["yours"] = seat
            return listed

        rows = await asyncio.to_thread(page)
        return {
            "matches": rows[:limit],
            "offset": offset,
            "limit": limit,
            "more": len(rows) > limit,
        }

    def access(rep: Replayed, open_: bool, token: str | None) -> tuple[list[SeatKey], Json]:
        """The views this request may open, and the match's listing as it may see it."""
        secret = secret_seats(rep.info, rep.config)
        seats = viewable_seats(rep.info, open_, rep.meta, token, secret)
        return seats, public_info(rep.info, open_, rep.meta, bool(secret), rep.config)

    @router.get("/api/matches/{match_id}")
    async def match_info(match_id: MatchId, token: Token = None) -> dict[str, Any]:
        rep, open_ = await replayed(match_id)
        seats, listing = access(rep, open_, token)
        return match_answer(rep, open_, seats, listing)

    @router.get("/api/matches/{match_id}/replay")
    async def match_replay(
        match_id: MatchId,
        seat: SeatKey = "0",
        lang: Literal["ja", "en"] = "ja",
        token: Token = None,
    ) -> dict[str, Any]:
        rep, open_ = await replayed(match_id)
        seats, listing = access(rep, open_, token)
        _refuse_seat(rep.info, seat, seats, token, open_)
        return await asyncio.to_thread(whole_replay, rep, seat, lang, listing)

    @router.get("/api/matches/{match_id}/step/{step}")
    async def match_step(
        match_id: MatchId,
        step: Annotated[int, Path(ge=0, le=MAX_STEP)],
        seat: SeatKey = "0",
        lang: Literal["ja", "en"] = "ja",
        log_from: Annotated[int, Query(ge=0, le=MAX_STEP)] = 0,
        base: Annotated[int | None, Query(ge=0, le=MAX_STEP)] = None,
        token: Token = None,
    ) -> dict[str, Any]:
        rep, open_ = await replayed(match_id)
        seats, _ = access(rep, open_, token)
        _refuse_seat(rep.info, seat, seats, token, open_)
        at = step_of(rep, step)
        return await asyncio.to_thread(_step_view, rep, at, seat, lang, log_from, base)

    @router.post("/api/matches/{match_id}/continue")
    async def continue_match(
        match_id: MatchId, request: Continue, http: Request, token: Token = None
    ) -> dict[str, Any]:
        matches, _ = recorded()
        rep, open_ = await replayed(match_id)
        step = step_of(rep, request.step)
        seats, _ = access(rep, open_, token)
        _refuse_seat(rep.info, "0" if request.seat == 0 else "1", seats, token, open_)
        refused = continue_refusal(rep.info, open_, request.seat)
        if refused is not None:
            raise HTTPException(403, CONTINUE_REFUSED[refused].format(id=match_id))
        owner = client_address(http)
        make_room(hub, owner)
        level = continue_level(rep.info, request.seat)
        seconds = bounded_pace(rep.meta.get("pace"), hub.pace)
        try:
            session = await asyncio.to_thread(
                Session.from_branch, matches, match_id, step, request.seat, level, seconds
            )
        except StoreError as err:
            raise HTTPException(404, str(err)) from err
        except SessionError as err:
            raise HTTPException(409, str(err)) from err
        except RulesError as err:
            why = "" if open_ else f": {err}"
            raise HTTPException(409, f"match {match_id} cannot be continued{why}") from err
        assert session.recorder is not None
        try:
            hub.add(session, owner)
        except Full as err:  # filled up while the branch was made: it goes, nothing was played
            await asyncio.to_thread(matches.delete_match, session.recorder.match_id)
            raise HTTPException(429 if isinstance(err, Crowded) else 503, str(err)) from err
        return {
            "id": session.id,
            "token": session.first_token,
            "seat": request.seat,
            "match_id": session.recorder.match_id,
            "parent": [match_id, step],
            "com": level,
        }

    return router

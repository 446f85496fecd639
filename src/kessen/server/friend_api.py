"""Joining a match between two people over HTTP, with one's own deck, and asking for a rematch.

``POST /api/games`` with ``"mode": "vs_human"`` (and optionally ``"clock": {"bank": 300,
"increment": 5}``) answers the creator's token (seat 0) with two codes: ``invite`` (seat 1,
once) and ``spectate``. The page puts a code in a link (``/#join=<game id>.<code>``, the part
after ``#`` never reaches a server's log). Whoever opens it:

- ``POST /api/games/{id}/invite`` ``{"code", "options": [...]}`` reads what the code opens
  without using it: for the unused invite, the game, the creator's settings, the creator's
  deck when it is public, the guest seat's default and the clock, and whether each of the
  ``options`` (starter names, ``{"saved": <id>}``, or ``null``) could be the guest's (checked
  by the ruleset's own validation); for anything else that opens the spectator's view, just
  that (``"seat": -1``).
- ``POST /api/games/{id}/join`` ``{"code", "deck"}`` takes seat 1 with ``deck`` as the guest's
  own deck, build or character (left out: the seat's default): the game starts then. A choice
  the match cannot take is refused (422, the ruleset's reason) and uses nothing: the invite
  still opens the seat. The first opening of the invite answers seat 1's token; a used invite
  or the spectator code the spectator's token. A wrong code gets 404 and nothing else.

A saved deck (``{"saved": <id>}``) is one of the server's machine: a client of another machine
of a server that serves the network may not name one (403), as on the start screen.

Once the match is over, ``POST /api/games/{id}/rematch`` ``{"token", "accept"}`` asks for a
rematch or accepts the other seat's (``accept: true``), or declines it or withdraws one's own
(``false``). When both seats have asked, the next match is made (the same settings, the seats
swapped, each person's own deck, a fresh seed) and every view of this match names its id and
spectator code; each seat then asks again (``accept: true``) and gets its own token of it. A
spectator's token is refused (403), an unknown one gets 404.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from kessen.server import two_people
from kessen.server.decks_api import SavedRef, refuse_remote, with_saved_decks
from kessen.server.hub import Crowded, Full, Hub, client_address, make_room
from kessen.server.limits import MAX_BANK, MAX_INCREMENT
from kessen.server.security import LOOPBACK, same_secret
from kessen.server.session import SPECTATOR, Session, SessionError
from kessen.store.records import StoreError

GameId = Annotated[str, Path(min_length=1, max_length=64)]
Entry = Annotated[str, Field(min_length=1, max_length=64)] | SavedRef | None
"""A seat's choice: a starter's name, a saved deck, or none (a build made in the game)."""
MAX_OPTIONS = 64
"""The most choices one invite request may have checked."""


class ClockSpec(BaseModel):
    """A match clock: a bank of seconds per seat and an increment per decision."""

    model_config = ConfigDict(extra="forbid")

    bank: float = Field(ge=1, le=MAX_BANK, allow_inf_nan=False)
    increment: float = Field(default=0, ge=0, le=MAX_INCREMENT, allow_inf_nan=False)

    def pair(self) -> tuple[float, float]:
        """``(bank, increment)`` as :meth:`Session.create` takes it."""
        return self.bank, self.increment


class Invite(BaseModel):
    """A code from a shared link, and the choices the guest's join screen may offer."""

    model_config = ConfigDict(extra="forbid")

    code: str = Field(min_length=1, max_length=64)
    options: list[Entry] = Field(default_factory=list, max_length=MAX_OPTIONS)


class Join(BaseModel):
    """A code from a shared link, and the guest's own choice (left out: the default)."""

    model_config = ConfigDict(extra="forbid")

    code: str = Field(min_length=1, max_length=64)
    deck: Entry = None


class RematchAnswer(BaseModel):
    """A seat's rematch request or answer, by its token."""

    model_config = ConfigDict(extra="forbid")

    token: str = Field(min_length=1, max_length=64)
    accept: StrictBool


def serves_network(request: Request) -> bool:
    """Whether this server answers other machines (its allow-list names a host other than
    this machine's loopback names, or every interface)."""
    allow = getattr(request.app.state, "allow", None)
    return allow is not None and bool(allow.any_ip or set(allow.hosts) - set(LOOPBACK))


def resolve(session: Session, entry: Any, request: Request) -> Any:
    """The guest's ``entry`` as the game takes it: a saved deck becomes its list for seat 1
    (403 for a client of another machine, 422 for a deck that is not saved for this game,
    503 without a store); a starter's name or ``None`` stays as it is."""
    if not isinstance(entry, SavedRef):
        return entry
    refuse_remote(request, serves_network(request))
    store = None if session.recorder is None else session.recorder.store
    ruleset = session.ruleset
    config = two_people.with_guest(ruleset, session.config, {"saved": entry.saved})
    return two_people.entries(ruleset, with_saved_decks(store, ruleset, config))[1]


def check(session: Session, entry: Any, request: Request) -> dict[str, Any]:
    """Whether ``entry`` could be the guest's choice: ``{"ok": true}``, or ``false`` with
    ``why`` (the ruleset's words)."""
    try:
        problem = two_people.choice_problem(session, resolve(session, entry, request))
    except HTTPException as err:
        problem = str(err.detail)
    return {"ok": True} if problem is None else {"ok": False, "why": problem}


def seat_of(session: Session, token: str) -> int:
    """The seat ``token`` plays in ``session`` (404 for a token of no seat here)."""
    for known, seat in session.tokens.items():
        if same_secret(token, known):
            return seat
    raise HTTPException(404, "no such game for this token (it may have closed already)")


def friend_router(hub: Hub) -> APIRouter:
    """The invite, join and rematch routes over ``hub``'s live sessions."""
    router = APIRouter()

    def table_session(game_id: str) -> Session:
        session = hub.sessions.get(game_id)
        if session is None or session.table is None:
            raise HTTPException(404, "no such game, or it has finished and closed")
        return session

    @router.post("/api/games/{game_id}/invite")
    async def invite(game_id: GameId, request: Invite, http: Request) -> dict[str, Any]:
        session = table_session(game_id)
        async with hub.lock(session):
            assert session.table is not None
            seat = session.table.peek(request.code)
            if seat is None:
                raise HTTPException(404, "no such invite for this game")
            if seat == SPECTATOR:
                return {"id": session.id, "ruleset": session.ruleset, "seat": SPECTATOR}
            out = two_people.invitation(session)
            if out["choose"]:  # each choice is a game built and dropped: off the event loop

                def checked() -> list[dict[str, Any]]:
                    return [check(session, entry, http) for entry in request.options]

                out["options"] = await asyncio.to_thread(checked)
            return out

    @router.post("/api/games/{game_id}/join")
    async def join(game_id: GameId, request: Join, http: Request) -> dict[str, Any]:
        session = table_session(game_id)
        async with hub.lock(session):
            assert session.table is not None
            choice: Any = two_people.KEEP
            if "deck" in request.model_fields_set and session.table.peek(request.code) == 1:
                choice = await asyncio.to_thread(resolve, session, request.deck, http)
            try:  # the game is built and recorded: off the event loop, under the lock
                token, seat = await asyncio.to_thread(session.join, request.code, choice)
            except SessionError as err:
                raise HTTPException(422 if err.code == "choice" else 404, str(err)) from err
            except StoreError as err:
                raise HTTPException(503, f"the match could not be recorded: {err}") from err
        hub.changed(session)
        await hub.broadcast(session)
        return {"id": session.id, "token": token, "seat": seat, "ruleset": session.ruleset}

    @router.post("/api/games/{game_id}/rematch")
    async def rematch(game_id: GameId, request: RematchAnswer, http: Request) -> dict[str, Any]:
        session = table_session(game_id)
        seat = seat_of(session, request.token)
        if seat == SPECTATOR:
            raise HTTPException(
                403, "a spectator does not play a seat: only the two players ask for a rematch"
            )
        async with hub.lock(session):
            table = session.table
            assert table is not None
            try:
                answer = session.answer_rematch(seat, request.accept)
            except SessionError as err:
                raise HTTPException(409, str(err)) from err
            if answer == "both":
                await start_rematch(session, client_address(http))
                answer = "made"
        hub.changed(session)
        await hub.broadcast(session)
        made = table.rematch.next
        if answer != "made" or made is None:
            return {"state": answer, "next": None}
        token, new_seat = made.seats[seat]
        return {
            "state": answer,
            "next": {"id": made.id, "token": token, "seat": new_seat, "ruleset": session.ruleset},
        }

    async def start_rematch(session: Session, owner: str) -> None:
        """Make the rematch of ``session`` (under its lock) and let ``hub`` drive it; the
        asking seat's request stays open if it cannot be made now."""
        table = session.table
        assert table is not None
        make_room(hub, owner)
        try:
            new = await asyncio.to_thread(two_people.make_rematch, session)
        except SessionError as err:
            raise HTTPException(409, str(err)) from err
        try:
            hub.add(new, owner)
        except Full as err:  # filled up meanwhile: it goes, nothing was played
            if new.recorder is not None:
                await asyncio.to_thread(new.recorder.store.delete_match, new.recorder.match_id)
            raise HTTPException(429 if isinstance(err, Crowded) else 503, str(err)) from err
        table.rematch.next = two_people.seats_of_next(session, new)
        session.version += 1

    return router

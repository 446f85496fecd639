"""Joining a match between two people over HTTP: an invite or spectator code for a token.

``POST /api/games`` with ``"mode": "vs_human"`` (and optionally ``"clock": {"bank": 300,
"increment": 5}``) answers the creator's token (seat 0) with two codes: ``invite`` (seat 1,
once) and ``spectate``. The page puts a code in a link (``/#join=<game id>.<code>``, the part
after ``#`` never reaches a server's log); whoever opens it posts the code here and gets a
token: seat 1's for the first opening of the invite, the spectator's for a used invite or the
spectator code. A wrong code gets 404 and nothing else.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path
from pydantic import BaseModel, ConfigDict, Field

from kessen.server.hub import Hub
from kessen.server.limits import MAX_BANK, MAX_INCREMENT
from kessen.server.session import SessionError

GameId = Annotated[str, Path(min_length=1, max_length=64)]


class ClockSpec(BaseModel):
    """A match clock: a bank of seconds per seat and an increment per decision."""

    model_config = ConfigDict(extra="forbid")

    bank: float = Field(ge=1, le=MAX_BANK, allow_inf_nan=False)
    increment: float = Field(default=0, ge=0, le=MAX_INCREMENT, allow_inf_nan=False)

    def pair(self) -> tuple[float, float]:
        """``(bank, increment)`` as :meth:`Session.create` takes it."""
        return self.bank, self.increment


class Join(BaseModel):
    """A code from a shared link."""

    model_config = ConfigDict(extra="forbid")

    code: str = Field(min_length=1, max_length=64)


def friend_router(hub: Hub) -> APIRouter:
    """The join route over ``hub``'s live sessions."""
    router = APIRouter()

    @router.post("/api/games/{game_id}/join")
    async def join(game_id: GameId, request: Join) -> dict[str, Any]:
        session = hub.sessions.get(game_id)
        if session is None or session.table is None:
            raise HTTPException(404, "no such game, or it has finished and closed")
        async with hub.lock(session):
            try:
                token, seat = session.join(request.code)
            except SessionError as err:
                raise HTTPException(404, str(err)) from err
        hub.changed(session)
        await hub.broadcast(session)
        return {"id": session.id, "token": token, "seat": seat, "ruleset": session.ruleset}

    return router

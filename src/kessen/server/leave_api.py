"""Leaving a match for good: ``POST /api/games/{id}/leave`` closes a session its player left.

The page calls it when its player leaves a match against COM through 新しい対戦 before the end
(or the creator of a COM-vs-COM match leaves it): the page forgets the match's token then, so
nobody can come back to it, and the server stops holding it. Its record stays in the store,
unfinished, and the history shows it as abandoned (not 「進行中」). The request must present the
match's token (header ``X-Kessen-Token``) for the seat that plays it (the COM-vs-COM creator's
spectator token); between two people a seat resigns instead (409), since the other person is
still at the table.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Header, HTTPException, Path

from kessen.server.hub import Hub
from kessen.server.matches_api import TOKEN_HEADER
from kessen.server.security import same_secret
from kessen.server.session import SPECTATOR

GameId = Annotated[str, Path(min_length=1, max_length=64)]

LEFT: Final = "its player left it"
"""Why a session left this way was closed (the hub's log and its connections' notice)."""


def leave_router(hub: Hub) -> APIRouter:
    """The leave route over ``hub``'s live sessions."""
    router = APIRouter()

    @router.post("/api/games/{game_id}/leave")
    async def leave(
        game_id: GameId,
        token: Annotated[str | None, Header(alias=TOKEN_HEADER, max_length=64)] = None,
    ) -> dict[str, Any]:
        session = hub.sessions.get(game_id)
        seat = None
        if session is not None and token:
            seat = next((s for t, s in session.tokens.items() if same_secret(token, t)), None)
        if session is None or seat is None:
            raise HTTPException(404, "no such game for this token (it may have closed already)")
        if session.mode == "vs_human":
            raise HTTPException(
                409, "a match between two people is left by resigning: your opponent is waiting"
            )
        plays = seat == SPECTATOR if session.mode == "com_vs_com" else seat not in session.com
        if not plays:
            raise HTTPException(403, "only the match's player may close it")
        match_id = session.recorder.match_id if session.recorder is not None else None
        finished = session.over
        hub.evict(game_id, LEFT)
        return {"id": game_id, "match": match_id, "abandoned": not finished}

    return router

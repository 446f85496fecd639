"""The guided first match over HTTP: ``POST /api/tutorial`` starts Kōbō's tutorial against COM.

The server decides the whole deal (:mod:`kessen.games.kobo.tutorial`: its starter decks, one
game, the fixed seed chosen so that the lessons come in order) and the COM (the scripted,
gentle ``tutorial`` level, which like every COM decides from its own seat's view). A client
chooses nothing but COM's pace; the answer is that of ``POST /api/games`` (the game's id, the
player's token, seat 0) with ``"tutorial": true``. The match is an ordinary vs-COM session,
recorded like any other; its record's meta says ``tutorial`` so the history can name it.

The tutorial's COM level is not one a start screen offers (:data:`UNLISTED_LEVELS`).
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from kessen.engine.contract import RulesError
from kessen.games.kobo.tutorial import TUTORIAL_LEVEL, TUTORIAL_SEED, tutorial_config
from kessen.server.hub import Crowded, Full, Hub, client_address, make_room
from kessen.server.limits import MAX_PACE
from kessen.server.session import Session
from kessen.store.records import MatchStore

TUTORIAL_PACE: Final = 1.5
"""The slowest COM pace of a guided match, in seconds per move (the server's own pace when it
is faster): the coach marks explain COM's moves, so COM need not be slow to be followed."""
UNLISTED_LEVELS: Final = frozenset({TUTORIAL_LEVEL})
"""COM levels that play only where the server puts them, never offered on a start screen."""


class TutorialStart(BaseModel):
    """``POST /api/tutorial``: nothing to choose but COM's pace (the server's by default)."""

    model_config = ConfigDict(extra="forbid")

    pace: float | None = Field(default=None, ge=0, le=MAX_PACE, allow_inf_nan=False)


def tutorial_router(store: MatchStore | None, hub: Hub) -> APIRouter:
    """``POST /api/tutorial``: a new guided match, a session of ``hub`` recorded in ``store``."""
    router = APIRouter()

    @router.post("/api/tutorial")
    async def start_tutorial(http: Request, request: TutorialStart | None = None) -> dict[str, Any]:
        asked = None if request is None else request.pace
        pace = min(hub.pace, TUTORIAL_PACE) if asked is None else asked
        owner = client_address(http)
        make_room(hub, owner)
        try:
            session = await asyncio.to_thread(
                Session.create,
                "kobo",
                tutorial_config(),
                TUTORIAL_SEED,
                "vs_com",
                TUTORIAL_LEVEL,
                pace,
                store,
            )
        except RulesError as err:
            raise HTTPException(422, str(err)) from err
        recorder = session.recorder
        try:
            if store is not None and recorder is not None:
                await asyncio.to_thread(store.update_meta, recorder.match_id, {"tutorial": True})
            hub.add(session, owner)
        except Full as err:  # filled up while this one was made: it goes, nothing was played
            if store is not None and recorder is not None:
                await asyncio.to_thread(store.delete_match, recorder.match_id)
            raise HTTPException(429 if isinstance(err, Crowded) else 503, str(err)) from err
        return {"id": session.id, "token": session.first_token, "seat": 0, "tutorial": True}

    return router

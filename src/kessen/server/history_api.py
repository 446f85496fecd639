"""Deleting recorded matches: one (``DELETE /api/matches/{id}``) or many at once
(``POST /api/matches/delete`` with ``{"ids": [...]}``), for good.

The history belongs to the player at the machine that runs the server, as saved decks do: a
server that serves the network answers these only to that machine (403 to other clients). A
match a session of this server is playing now is refused (409: leave it first), and so is the
whole request, so that a selection is deleted entirely or not at all. Unknown ids are 404 for
one match and listed as ``missing`` for many.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Final

from fastapi import APIRouter, HTTPException, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from kessen.server.decks_api import refuse_remote
from kessen.server.hub import Hub
from kessen.store.records import MatchStore, StoreError

DELETE_MAX: Final = 100
"""The most matches one request may delete (a page of the history is 20)."""

MAX_ID: Final = 2**63 - 1

REMOTE_DELETE: Final = (
    "the match records belong to the player at the machine that runs this server: "
    "only that machine may delete them"
)


class DeleteMany(BaseModel):
    """``POST /api/matches/delete``: the ids of the matches to delete."""

    model_config = ConfigDict(extra="forbid")
    ids: list[Annotated[int, Field(ge=1, le=MAX_ID)]] = Field(min_length=1, max_length=DELETE_MAX)


def history_router(store: MatchStore | None, hub: Hub, local_only: bool) -> APIRouter:
    """The delete routes over ``store`` (503 without one)."""
    router = APIRouter()

    def checked(request: Request, ids: list[int]) -> MatchStore:
        refuse_remote(request, local_only, REMOTE_DELETE)
        if store is None:
            raise HTTPException(
                503, "this server keeps no match records (it was started without a store)"
            )
        playing = sorted(set(ids) & hub.live_match_ids())
        if playing:
            listed = ", ".join(str(i) for i in playing)
            raise HTTPException(
                409,
                f"match {listed} is being played on this server; leave it first (nothing deleted)",
            )
        return store

    @router.delete("/api/matches/{match_id}")
    async def delete_one(
        request: Request, match_id: Annotated[int, Path(ge=1, le=MAX_ID)]
    ) -> dict[str, Any]:
        matches = checked(request, [match_id])
        deleted = await asyncio.to_thread(matches.delete_matches, [match_id])
        if not deleted:
            raise HTTPException(404, f"no match {match_id}")
        return {"deleted": deleted}

    @router.post("/api/matches/delete")
    async def delete_many(request: Request, body: DeleteMany) -> dict[str, Any]:
        matches = checked(request, body.ids)
        try:
            deleted = await asyncio.to_thread(matches.delete_matches, body.ids)
        except StoreError as err:
            raise HTTPException(503, str(err)) from None
        missing = sorted(set(body.ids) - set(deleted))
        return {"deleted": deleted, "missing": missing}

    return router

"""The design screen's endpoints: designers' card sets, kept in the match store.

Every route is under ``/api/design`` and answers only clients of the server's own machine
when the server serves the network (403 to the others, as the saved decks do: a set is its
designer's work in progress). A set is read and written in its JSON form
(``{"version", "cards": [...], "decks": [...]}`` for Kōbō, ``{"cards": [...], "decks": {...}}``
for Maken: :mod:`kessen.games.kobo.card_sets`, :mod:`kessen.games.maken.card_sets`):

- ``GET /api/design/sets[?ruleset=]``: the sets; ``GET /api/design/games/{ruleset}/parents``:
  the shipped versions a set derives from; ``GET /api/design/games/{ruleset}/shipped/{label}``:
  one's data;
- ``POST /api/design/sets`` ``{name, ruleset, from, note}``: derive a new set;
- ``GET /api/design/sets/{name}``: the set, its changelog and its data;
- ``POST /api/design/games/{ruleset}/check`` ``{data}``: the ruleset's checks, nothing saved;
- ``PUT /api/design/sets/{name}`` ``{data, note}``: save the next revision (422 with every
  problem by field, ``{"detail": {"problems": [{"path", "en", "ja"}]}}``, saving nothing);
- ``DELETE /api/design/sets/{name}``;
- ``GET /api/design/games/{ruleset}/form``: the card editor's fields (the ruleset's schema,
  :mod:`kessen.server.design_forms`);
- ``POST /api/design/games/{ruleset}/preview`` ``{card}``: a draft card's generated ja/en text;
- ``GET /api/design/sets/{name}/export``: the TOML file; ``POST /api/design/sets/import``
  ``{name, toml, ruleset, from, note}``: a TOML file as a new set or the next revision;
- ``GET /api/design/diff?ruleset=&a=&b=``: what changes from one card data to another.

Without a store every route that reads or writes sets answers 503.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field

from kessen.engine.card_sets import MAX_NAME, SHIPPED, CardSetError, SetProblems, format_for
from kessen.engine.set_data import diff
from kessen.server.decks_api import refuse_remote
from kessen.server.design_forms import card_form
from kessen.store.card_sets import MAX_NOTE, CardSets, CardSetStoreError, pin
from kessen.store.records import MatchStore

SET_RULESETS = ("kobo", "maken")
"""The games with card sets (TWGP's pool is a deck of playing cards)."""
MAX_TOML = 200_000
"""The longest set file accepted for import, in characters."""
DESIGN_REFUSED = (
    "card sets belong to the designer at the machine that runs this server; they are not "
    "served to other machines"
)
"""Why a client of another machine may not reach the design routes."""

SetName = Annotated[str, Path(min_length=1, max_length=MAX_NAME * 2)]


class DeriveBody(BaseModel):
    """A new set from a shipped version or another set."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    name: str = Field(min_length=1, max_length=MAX_NAME * 2)
    ruleset: Literal["kobo", "maken"] = "kobo"
    source: str = Field(default=SHIPPED, alias="from", min_length=1, max_length=MAX_NAME * 2)
    note: str = Field(default="", max_length=MAX_NOTE * 2)


class SaveBody(BaseModel):
    """A set's data to save as its next revision."""

    model_config = ConfigDict(extra="forbid")
    data: dict[str, Any] = Field(max_length=8)
    note: str = Field(default="", max_length=MAX_NOTE * 2)


class CheckBody(BaseModel):
    """A set's data to check."""

    model_config = ConfigDict(extra="forbid")
    data: dict[str, Any] = Field(max_length=8)


class PreviewBody(BaseModel):
    """A draft card."""

    model_config = ConfigDict(extra="forbid")
    card: dict[str, Any] = Field(max_length=32)


class ImportBody(BaseModel):
    """A set's TOML file."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    name: str = Field(min_length=1, max_length=MAX_NAME * 2)
    toml: str = Field(max_length=MAX_TOML)
    ruleset: Literal["kobo", "maken"] | None = None
    source: str = Field(default=SHIPPED, alias="from", min_length=1, max_length=MAX_NAME * 2)
    note: str = Field(default="", max_length=MAX_NOTE * 2)


def _refused(err: CardSetStoreError) -> HTTPException:
    """404 for a set that does not exist, else 422 naming the field."""
    if err.missing:
        return HTTPException(404, {"problems": [err.to_json()]})
    return HTTPException(422, {"problems": [err.to_json()]})


def _invalid(err: SetProblems) -> HTTPException:
    return HTTPException(422, {"problems": [p.to_json() for p in err.problems]})


def design_router(
    store: MatchStore | None,
    rulesets: tuple[str, ...] = SET_RULESETS,
    local_only: bool = False,
) -> APIRouter:
    """The design routes over ``store`` (may be ``None``: 503) for the offered ``rulesets``
    that have card sets. With ``local_only`` (a server that serves other machines) every route
    answers only this machine's clients (:func:`~kessen.server.decks_api.refuse_remote`)."""
    offered = tuple(r for r in rulesets if r in SET_RULESETS)

    def this_machine(request: Request) -> None:
        refuse_remote(request, local_only, DESIGN_REFUSED)

    router = APIRouter(prefix="/api/design", dependencies=[Depends(this_machine)])

    def game(ruleset: str) -> str:
        if ruleset not in offered:
            raise HTTPException(
                404, f"no card sets for {ruleset!r}; these games have them: {', '.join(offered)}"
            )
        return ruleset

    def book() -> CardSets:
        if store is None:
            raise HTTPException(503, "this server keeps no card sets (started without a store)")
        return store.card_sets()

    async def call(fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a store call in a thread; its refusals as HTTP answers."""
        try:
            return await asyncio.to_thread(fn, *args, **kwargs)
        except CardSetStoreError as err:
            raise _refused(err) from None
        except SetProblems as err:
            raise _invalid(err) from None
        except CardSetError as err:
            raise HTTPException(422, str(err)) from None

    async def whole(name: str) -> dict[str, Any]:
        sets = book()
        info = await call(sets.info, name, with_log=True)
        data = await call(sets.data, name)
        return {**info.to_json(), "data": data}

    @router.get("/sets")
    async def list_sets(ruleset: str | None = None) -> dict[str, Any]:
        if ruleset is not None:
            game(ruleset)
        found = await call(book().list_sets, ruleset)
        return {"sets": [info.to_json() for info in found if info.ruleset in offered]}

    @router.get("/games/{ruleset}/parents")
    async def parents(ruleset: str) -> dict[str, Any]:
        return {"parents": format_for(game(ruleset)).parents()}

    @router.get("/games/{ruleset}/shipped/{label}")
    async def shipped(ruleset: str, label: str) -> dict[str, Any]:
        fmt = format_for(game(ruleset))
        if label not in fmt.parents():
            raise HTTPException(404, f"no shipped version {label!r}: {', '.join(fmt.parents())}")
        return {"ruleset": ruleset, "label": label, "data": fmt.normalize(fmt.shipped(label))}

    @router.post("/sets")
    async def derive(body: DeriveBody) -> dict[str, Any]:
        sets = book()
        await call(sets.derive, body.name, game(body.ruleset), body.source, body.note)
        return await whole(" ".join(body.name.split()))

    @router.get("/sets/{name}")
    async def get_set(name: SetName) -> dict[str, Any]:
        return await whole(name)

    @router.put("/sets/{name}")
    async def save(name: SetName, body: SaveBody) -> dict[str, Any]:
        sets = book()
        info = await call(sets.info, name)
        game(info.ruleset)
        _, changes = await call(sets.save, name, body.data, body.note)
        out = await whole(name)
        out["changes"] = [
            {**c.to_json(), "text": {"ja": c.text("ja"), "en": c.text("en")}} for c in changes
        ]
        return out

    @router.delete("/sets/{name}")
    async def delete(name: SetName) -> dict[str, Any]:
        gone = await call(book().delete, name)
        return {"deleted": name, "revisions_removed": gone}

    @router.post("/games/{ruleset}/check")
    async def check(ruleset: str, body: CheckBody) -> dict[str, Any]:
        fmt = format_for(game(ruleset))
        problems = await asyncio.to_thread(fmt.validate, body.data)
        return {"problems": [p.to_json() for p in problems]}

    @router.get("/games/{ruleset}/form")
    async def form(ruleset: str) -> dict[str, Any]:
        found: dict[str, Any] = card_form(game(ruleset))
        return found

    @router.post("/games/{ruleset}/preview")
    async def preview(ruleset: str, body: PreviewBody) -> dict[str, Any]:
        found: dict[str, Any] = format_for(game(ruleset)).card_preview(body.card)
        return found

    @router.get("/sets/{name}/export")
    async def export(name: SetName) -> PlainTextResponse:
        text = await call(book().export, name)
        filename = quote(f"{name}.toml")
        return PlainTextResponse(
            text,
            media_type="application/toml; charset=utf-8",
            headers={"Content-Disposition": f"attachment; filename*=UTF-8''{filename}"},
        )

    @router.post("/sets/import")
    async def import_set(body: ImportBody) -> dict[str, Any]:
        sets = book()
        if body.ruleset is not None:
            game(body.ruleset)
        info, changes, new = await call(
            sets.import_toml,
            body.name,
            body.toml,
            ruleset=body.ruleset,
            source=body.source,
            note=body.note,
        )
        out = await whole(info.name)
        out["new"] = new
        out["changes"] = [
            {**c.to_json(), "text": {"ja": c.text("ja"), "en": c.text("en")}} for c in changes
        ]
        return out

    @router.get("/diff")
    async def compare(
        a: Annotated[str, Query(min_length=1, max_length=MAX_NAME * 2)],
        b: Annotated[str, Query(min_length=1, max_length=MAX_NAME * 2)],
        ruleset: str = "kobo",
    ) -> dict[str, Any]:
        sets = book()
        fmt = format_for(game(ruleset))
        first, _ = await call(sets.source_data, ruleset, a)
        second, _ = await call(sets.source_data, ruleset, b)
        changes = diff(fmt.normalize(first), fmt.normalize(second), fmt.card_key)
        return {
            "changes": [
                {**c.to_json(), "text": {"ja": c.text("ja"), "en": c.text("en")}} for c in changes
            ]
        }

    return router


def with_card_set(store: MatchStore | None, ruleset: str, config: dict[str, Any]) -> dict[str, Any]:
    """``config`` with its ``card_set`` pinned to one revision: a set's name alone becomes its
    current ``NAME@HASH`` (a record names the data it was played with); 422 for a set this
    server does not keep or of another game, 503 without a store."""
    if store is None:
        raise HTTPException(503, "this server keeps no card sets (started without a store)")
    if ruleset not in SET_RULESETS:
        raise HTTPException(422, f"card_set: {ruleset} has no card sets")
    try:
        ref = pin(store.card_sets(), ruleset, config["card_set"])
    except CardSetStoreError as err:
        raise HTTPException(422, {"problems": [{**err.to_json(), "path": "card_set"}]}) from None
    except CardSetError as err:
        raise HTTPException(422, str(err)) from None
    return {**config, "card_set": ref}

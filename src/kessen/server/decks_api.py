"""The deck builder's endpoints: check a deck live, keep decks in the store, import and export.

Every ruleset with deck lists (``Ruleset.decks``) gets the same routes under
``/api/decks/{ruleset}``. A check never changes anything and needs no store; saving,
renaming, copying and deleting need the match store (503 without one). A deck may be saved
with problems (work in progress); the engine refuses it at the start of a game, and the
builder offers only decks without problems for play. A check's ``warnings`` are about a deck
the rules allow that still cannot play (TWGP: a build that cannot act); it stays playable.
Deck names are the player's own text: the page shows them with ``textContent`` only.

A new game names a saved deck for a seat with ``{"saved": <id>}`` in place of a starter deck's
name, or of TWGP's build (:func:`with_saved_decks`; the ruleset's ``DeckFormat`` says which
config list it fills and what it becomes there): the server plays the list it keeps.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Request
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field

from kessen.engine import registry
from kessen.engine.contract import Json
from kessen.server.security import LOOPBACK
from kessen.store.records import MatchStore
from kessen.store.saved_decks import MAX_NAME, DeckStoreError, SavedDecks

MAX_TOML = 20_000
"""The longest deck file accepted for import, in characters."""
MAX_ID = 2**62

DeckId = Annotated[int, Path(ge=1, le=MAX_ID)]


class SavedRef(BaseModel):
    """A saved deck chosen for a seat of a new game: ``{"saved": <id>}``."""

    model_config = ConfigDict(extra="forbid")
    saved: int = Field(ge=1, le=MAX_ID)


class DeckBody(BaseModel):
    """A deck list to check."""

    model_config = ConfigDict(extra="forbid")
    deck: dict[str, Any] = Field(max_length=16)
    lang: Literal["ja", "en"] = "ja"


class SaveBody(BaseModel):
    """A deck to keep under a name."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=MAX_NAME * 2)
    deck: dict[str, Any] = Field(max_length=16)


class UpdateBody(BaseModel):
    """A new name and/or a new list for a saved deck."""

    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, min_length=1, max_length=MAX_NAME * 2)
    deck: dict[str, Any] | None = Field(default=None, max_length=16)


class CopyBody(BaseModel):
    """The name of a copy."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=MAX_NAME * 2)


class ImportBody(BaseModel):
    """A deck file's text."""

    model_config = ConfigDict(extra="forbid")
    toml: str = Field(max_length=MAX_TOML)
    lang: Literal["ja", "en"] = "ja"


def with_saved_decks(store: MatchStore | None, ruleset: str, config: Json) -> Json:
    """``config`` with every ``{"saved": <id>}`` of its per-seat deck list (the ruleset's
    ``DeckFormat.config_key``: ``decks``, TWGP's ``builds``) replaced by what that saved deck
    becomes in its seat (``DeckFormat.for_seat``; a deck list named by its saved name); 422
    for a deck that is not saved for ``ruleset`` or cannot go into this game (503 when the
    server keeps no decks). Whether the list is legal is the ruleset's check, as for any deck
    object."""
    found = registry.get(ruleset).decks
    key, decks = _seat_entries(ruleset, config)
    if decks is None or not any(_is_ref(item) for item in decks):
        return config
    if found is None:
        raise HTTPException(422, f"{key}: {ruleset} keeps no saved decks")
    if store is None:
        raise HTTPException(503, "this server keeps no decks (it was started without a store)")
    resolved: list[Any] = []
    for seat, item in enumerate(decks):
        if not _is_ref(item):
            resolved.append(item)
            continue
        deck_id = item.saved if isinstance(item, SavedRef) else item["saved"]
        try:
            saved = store.saved_decks().get(deck_id)
        except DeckStoreError:
            saved = None
        if saved is None or saved.ruleset != ruleset or not isinstance(saved.deck, dict):
            raise HTTPException(422, f"{key}[{seat}]: no saved {ruleset} deck {deck_id}")
        try:
            resolved.append(found.for_seat(saved.deck, seat, saved.name, config))
        except ValueError as err:
            raise HTTPException(422, f"{key}[{seat}]: saved deck {saved.name!r}: {err}") from None
    return {**config, key: resolved}


def refuse_fixed_secret(ruleset: str, config: Mapping[str, Any], mode: str) -> None:
    """422 when a match between two people (``vs_human``) fixes the second seat's secret list
    (a TWGP build: its owner's hidden information, which the creator must not choose or know);
    that seat builds its own in the game."""
    found = registry.get(ruleset).decks
    if mode != "vs_human" or found is None or not found.secret:
        return
    _, entries = _seat_entries(ruleset, config)
    if entries is not None and len(entries) > 1 and entries[1] is not None:
        raise HTTPException(
            422,
            f"{found.config_key}[1]: in a match between two people the other player makes "
            "their own (a build is hidden information); leave it null",
        )


def uses_saved_decks(ruleset: str, config: Mapping[str, Any]) -> bool:
    """Whether ``config`` names a saved deck (``{"saved": <id>}``) for a seat."""
    _, entries = _seat_entries(ruleset, config)
    return entries is not None and any(_is_ref(item) for item in entries)


def _seat_entries(ruleset: str, config: Any) -> tuple[str, Sequence[Any] | None]:
    """The config key of ``ruleset``'s per-seat deck list (``decks``, TWGP's ``builds``) and
    that list in ``config`` (``None`` when absent or not a list)."""
    found = registry.get(ruleset).decks
    key = "decks" if found is None else found.config_key
    entries = config.get(key) if isinstance(config, Mapping) else None
    if not isinstance(entries, Sequence) or isinstance(entries, str):
        return key, None
    return key, entries


def _is_ref(item: Any) -> bool:
    """Whether a deck of a config names a saved deck (``{"saved": <positive id>}``)."""
    if isinstance(item, SavedRef):
        return True
    if not isinstance(item, Mapping) or set(item) != {"saved"}:
        return False
    deck_id = item["saved"]
    return isinstance(deck_id, int) and not isinstance(deck_id, bool) and 1 <= deck_id <= MAX_ID


REMOTE_REFUSED = (
    "saved decks belong to the player at the machine that runs this server; from another "
    "machine the deck builder checks, imports and exports decks but cannot list, save or play "
    "saved ones"
)
"""Why a client of another machine may not reach the saved decks of a server it was invited to."""


def answer(checked: registry.DeckCheck) -> dict[str, Any]:
    """A check's answer: ``{deck, problems}``, and ``warnings`` when there are any (a deck
    the rules allow that cannot play, e.g. TWGP's builds that cannot act: still usable)."""
    out: dict[str, Any] = {"deck": checked.deck, "problems": checked.problems}
    if checked.warnings:
        out["warnings"] = checked.warnings
    return out


def refuse_remote(request: Request, local_only: bool, message: str = REMOTE_REFUSED) -> None:
    """403 (saying ``message``) for a client of another machine when the server serves the
    network (``local_only``): the saved decks are its own player's (a friend must not read the
    host's secret TWGP builds, nor change or delete anyone's decks), and so are the records."""
    if not may_use_saved(request, local_only):
        raise HTTPException(403, message)


def may_use_saved(request: Request, local_only: bool) -> bool:
    """Whether ``request``'s client may reach the saved decks: any client of a local server,
    only this machine's of a server that serves the network (``local_only``)."""
    client = request.client.host if request.client is not None else ""
    return not local_only or client in LOOPBACK


def decks_router(
    store: MatchStore | None, rulesets: tuple[str, ...], local_only: bool = False
) -> APIRouter:
    """The deck routes for the offered ``rulesets`` over ``store`` (may be ``None``). With
    ``local_only`` (a server that serves other machines) the saved decks answer only clients
    of this machine (:func:`refuse_remote`); checking, import and export answer everyone."""
    router = APIRouter()

    def this_machine(request: Request) -> None:
        refuse_remote(request, local_only)

    mine = [Depends(this_machine)]

    def deck_format(ruleset: str) -> registry.DeckFormat:
        if ruleset not in rulesets:
            raise HTTPException(404, "unknown ruleset")
        found = registry.get(ruleset).decks
        if found is None:
            raise HTTPException(404, f"{ruleset} has no deck lists to build")
        return found

    def book() -> SavedDecks:
        if store is None:
            raise HTTPException(503, "this server keeps no decks (it was started without a store)")
        return store.saved_decks()

    def shaped(ruleset: str, deck: Mapping[str, Any], lang: str = "en") -> tuple[Json, Json]:
        """The normalised deck and the check's answer; 422 if the deck's shape is wrong."""
        checked = deck_format(ruleset).check(deck, lang)
        if checked.deck is None:
            raise HTTPException(422, {"problems": checked.problems})
        return checked.deck, answer(checked)

    def owned(ruleset: str, deck_id: int) -> Json:
        try:
            saved = book().get(deck_id)
        except DeckStoreError as err:
            raise HTTPException(404, str(err)) from None
        if saved.ruleset != ruleset:
            raise HTTPException(404, f"no saved deck {deck_id}")
        return saved.to_json()

    @router.post("/api/decks/{ruleset}/check")
    async def check(ruleset: str, body: DeckBody) -> dict[str, Any]:
        checked = deck_format(ruleset).check(body.deck, body.lang)
        return answer(checked)

    @router.get("/api/decks/{ruleset}", dependencies=mine)
    async def list_decks(ruleset: str, lang: Literal["ja", "en"] = "ja") -> dict[str, Any]:
        found = deck_format(ruleset)
        saved = await asyncio.to_thread(book().list, ruleset)
        out = []
        for deck in saved:
            entry = deck.to_json()
            assert isinstance(entry, dict)
            checked = found.check(deck.deck, lang)
            entry["problems"] = checked.problems
            if checked.warnings:
                entry["warnings"] = checked.warnings
            out.append(entry)
        return {"decks": out}

    @router.post("/api/decks/{ruleset}", dependencies=mine)
    async def save(ruleset: str, body: SaveBody) -> dict[str, Any]:
        deck, _ = shaped(ruleset, body.deck)
        try:
            deck_id = await asyncio.to_thread(book().save, ruleset, body.name, deck)
        except DeckStoreError as err:
            raise HTTPException(422, str(err)) from None
        saved = owned(ruleset, deck_id)
        assert isinstance(saved, dict)
        return saved

    @router.put("/api/decks/{ruleset}/{deck_id}", dependencies=mine)
    async def update(ruleset: str, deck_id: DeckId, body: UpdateBody) -> dict[str, Any]:
        owned(ruleset, deck_id)
        deck = None if body.deck is None else shaped(ruleset, body.deck)[0]
        try:
            await asyncio.to_thread(book().update, deck_id, name=body.name, deck=deck)
        except DeckStoreError as err:
            raise HTTPException(422, str(err)) from None
        saved = owned(ruleset, deck_id)
        assert isinstance(saved, dict)
        return saved

    @router.post("/api/decks/{ruleset}/{deck_id}/copy", dependencies=mine)
    async def copy(ruleset: str, deck_id: DeckId, body: CopyBody) -> dict[str, Any]:
        owned(ruleset, deck_id)
        try:
            new_id = await asyncio.to_thread(book().copy, deck_id, body.name)
        except DeckStoreError as err:
            raise HTTPException(422, str(err)) from None
        saved = owned(ruleset, new_id)
        assert isinstance(saved, dict)
        return saved

    @router.delete("/api/decks/{ruleset}/{deck_id}", dependencies=mine)
    async def delete(ruleset: str, deck_id: DeckId) -> dict[str, Any]:
        owned(ruleset, deck_id)
        await asyncio.to_thread(book().delete, deck_id)
        return {"deleted": deck_id}

    @router.post("/api/decks/{ruleset}/import")
    async def import_deck(ruleset: str, body: ImportBody) -> dict[str, Any]:
        found = deck_format(ruleset)
        try:
            deck = found.from_toml(body.toml)
        except ValueError as err:
            raise HTTPException(422, {"problems": [str(err)]}) from None
        checked = found.check(deck, body.lang)
        return answer(checked)

    @router.post("/api/decks/{ruleset}/export")
    async def export_deck(ruleset: str, body: DeckBody) -> PlainTextResponse:
        deck, _ = shaped(ruleset, body.deck)
        found = deck_format(ruleset)
        slug = deck.get("slug") if isinstance(deck, dict) else None
        slug = str(slug) if slug else found.file_stem
        return PlainTextResponse(
            found.to_toml(deck),
            media_type="application/toml; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{slug}.{found.extension}"'},
        )

    return router

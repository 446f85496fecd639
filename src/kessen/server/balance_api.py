"""The design screen's balance runs over HTTP: the run form's choices, start, progress, cancel,
resume and the result pages' figures (:mod:`kessen.server.balance_runs`).

Every route is under ``/api/balance`` and answers only clients of the server's own machine
when the server serves the network (403 to the others, as the card sets and the saved decks
do: a run plays the designer's unpublished sets, and its records are theirs):

- ``GET /api/balance/form?ruleset=&a=&b=&lang=``: what the form offers for a ruleset (card
  data: its shipped versions and the store's sets; the starter decks that A and B both have;
  COM levels; rule switches from the ruleset's catalogue; where the games run);
- ``GET /api/balance/runs``: every run (those of ``kessen sim`` too), newest first, with its
  state (``queued``, ``running``, ``done``, ``stopped``, ``failed``) and progress;
- ``POST /api/balance/runs`` ``{ruleset, sides: [A] or [A, B], decks, players, games, seed,
  best_of, mirror, turn_limit, options, name}``: start a run (422 with the problem by field,
  ``{"detail": {"problems": [{"path", "en", "ja"}]}}``);
- ``GET /api/balance/runs/{id}``: one run's state, games done, rate and time left;
- ``POST /api/balance/runs/{id}/cancel`` and ``/resume``;
- ``GET /api/balance/runs/{id}/results?lang=``: its figures (:mod:`.balance_results`).

Without a store every route answers 503.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from kessen.engine import registry
from kessen.engine.contract import Json
from kessen.server.balance_results import (
    RunRefused,
    Side,
    deck_choices,
    resolve_side,
    shipped_labels,
)
from kessen.server.balance_runs import MAX_NAME, BalanceRuns, request_from
from kessen.server.decks_api import refuse_remote
from kessen.server.limits import ConfigRefused, screen_config
from kessen.server.tutorial_api import UNLISTED_LEVELS
from kessen.store.card_sets import CardSetStoreError

BALANCE_REFUSED = (
    "balance runs belong to the designer at the machine that runs this server; they are not "
    "served to other machines"
)
"""Why a client of another machine may not reach the balance routes."""
MAX_ID = 2**62

RunId = Annotated[int, Path(ge=1, le=MAX_ID)]
Lang = Literal["ja", "en"]
T = TypeVar("T")


class RunBody(BaseModel):
    """A run to start (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")
    ruleset: Literal["kobo", "twgp", "maken"] = "kobo"
    sides: list[Annotated[str, Field(max_length=MAX_NAME * 2)]] = Field(
        default_factory=lambda: [""], min_length=1, max_length=2
    )
    decks: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(
        default_factory=list, max_length=32
    )
    players: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(
        min_length=1, max_length=8
    )
    games: int = Field(ge=1, le=1_000_000)
    seed: int = Field(default=0, ge=0, lt=2**63)
    best_of: int = Field(default=1, ge=1, le=9)
    mirror: bool = False
    turn_limit: int | None = Field(default=None, ge=1, le=1000)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    name: str = Field(default="", max_length=MAX_NAME * 2)


def switches(ruleset: str, lang: str) -> list[Json]:
    """The rule switches the ruleset's catalogue names, each ``{"key", "name", "text",
    "default", "values", "value_names"}`` (``value_names`` may be ``None``: the page words
    the values itself), the default value first."""
    catalog = registry.get(ruleset).catalog(lang)
    out: list[Json] = []
    options = catalog.get("options")
    if ruleset == "kobo" and isinstance(options, dict):  # Kōbō's match options: on or off
        for key, entry in options.items():
            if isinstance(entry, dict) and isinstance(entry.get("default"), bool):
                default = entry["default"]
                out.append(
                    {
                        "key": key,
                        "name": str(entry.get("label") or key),
                        "text": str(entry.get("help") or ""),
                        "default": default,
                        "values": [default, not default],
                        "value_names": None,
                    }
                )
    opening = catalog.get("opening")
    for entry in opening if isinstance(opening, list) else ():
        if isinstance(entry, dict) and "key" in entry:
            values = list(entry.get("values") or [])
            names = list(entry.get("value_names") or [])
            out.append(
                {
                    "key": str(entry["key"]),
                    "name": str(entry.get("name") or entry["key"]),
                    "text": str(entry.get("text") or ""),
                    "default": entry.get("default"),
                    "values": values,
                    "value_names": names if len(names) == len(values) else None,
                }
            )
    found = catalog.get("switches")
    for key, entry in found.items() if isinstance(found, dict) else ():
        if not isinstance(entry, dict):
            continue
        default = entry.get("default")
        others = entry.get("alternatives")
        if not isinstance(others, list):
            others = [entry["alternative"]] if "alternative" in entry else []
        values = [default, *others]
        words = entry.get("value_names")
        out.append(
            {
                "key": str(entry.get("key") or key),
                "name": str(entry.get("name") or key),
                "text": str(entry.get("text") or ""),
                "default": default,
                "values": values,
                "value_names": list(words)
                if isinstance(words, list) and len(words) == len(values)
                else None,
            }
        )
    return out


def _problem(err: RunRefused) -> HTTPException:
    return HTTPException(404 if err.missing else 422, {"problems": [err.to_json()]})


def balance_router(
    runs: BalanceRuns | None, rulesets: tuple[str, ...], local_only: bool = False
) -> APIRouter:
    """The balance routes over ``runs`` (``None``: a server without a store, 503) for the
    offered ``rulesets``. With ``local_only`` (a server that serves other machines) every
    route answers only this machine's clients."""

    def this_machine(request: Request) -> None:
        refuse_remote(request, local_only, BALANCE_REFUSED)

    router = APIRouter(prefix="/api/balance", dependencies=[Depends(this_machine)])

    def manager() -> BalanceRuns:
        if runs is None:
            raise HTTPException(503, "this server keeps no runs (started without a store)")
        return runs

    def game(ruleset: str) -> str:
        if ruleset not in rulesets:
            raise HTTPException(404, f"unknown ruleset {ruleset!r}; known: {', '.join(rulesets)}")
        return ruleset

    async def call(fn: Callable[..., T], *args: Any) -> T:
        try:
            return await asyncio.to_thread(fn, *args)
        except RunRefused as err:
            raise _problem(err) from None

    def form(ruleset: str, a: str, b: str, lang: str) -> Json:
        found = manager()
        store = found.store
        labels = shipped_labels(ruleset)
        sources: list[Json] = [{"value": label, "kind": "shipped"} for label in labels]
        if labels:
            for info in store.card_sets().list_sets(ruleset):
                sources.append(
                    {"value": info.name, "kind": "set", "ref": str(info.ref), "parent": info.parent}
                )
        sides: list[Side] = []
        for value in (a, b):
            if not value:
                continue
            try:
                sides.append(resolve_side(store, ruleset, value, "a"))
            except (RunRefused, CardSetStoreError):
                continue
        if not sides:
            sides = [resolve_side(store, ruleset, "", "a")]
        rules = registry.get(ruleset)
        return {
            "ruleset": ruleset,
            "sources": sources,
            "decks": deck_choices(ruleset, sides, lang),
            "players": [p for p in rules.players if p not in UNLISTED_LEVELS],
            "switches": switches(ruleset, lang),
            "has_decks": "decks" in rules.default_config,
            "best_of": "best_of" in rules.default_config,
            "backend": found.backend_kind(),
        }

    @router.get("/form")
    async def get_form(
        ruleset: str = "kobo",
        a: Annotated[str, Query(max_length=MAX_NAME * 2)] = "",
        b: Annotated[str, Query(max_length=MAX_NAME * 2)] = "",
        lang: Lang = "ja",
    ) -> Json:
        return await call(form, game(ruleset), a, b, lang)

    @router.get("/runs")
    async def list_runs() -> Json:
        found = manager()
        return {"runs": await call(found.list), "backend": found.backend_kind()}

    @router.post("/runs")
    async def start(body: RunBody) -> Json:
        found = manager()
        game(body.ruleset)
        try:
            screen_config(body.options)
        except ConfigRefused as err:
            raise HTTPException(
                422, {"problems": [{"path": "options", "en": str(err), "ja": str(err)}]}
            ) from None
        return await call(found.start, request_from(body.model_dump()))

    @router.get("/runs/{run_id}")
    async def status(run_id: RunId) -> Json:
        return await call(manager().status, run_id)

    @router.post("/runs/{run_id}/cancel")
    async def cancel(run_id: RunId) -> Json:
        return await call(manager().cancel, run_id)

    @router.post("/runs/{run_id}/resume")
    async def resume(run_id: RunId) -> Json:
        return await call(manager().resume, run_id)

    @router.get("/runs/{run_id}/results")
    async def results(run_id: RunId, lang: Lang = "ja") -> Json:
        return await call(manager().results, run_id, lang)

    return router

"""Matches that ended and left the server's memory leave nothing of theirs behind.

A server under load plays many matches one after the other; each must go, whole, when it
leaves the hub (:meth:`kessen.server.hub.Hub.evict`): no session, state or per-session entry of
the hub may stay reachable, and no module-level cache may grow with the matches played (one
keyed by a session or by one match's objects would grow for as long as the server runs). A
session must also go by reference counting alone: the server collects its old generation only
when no game is played (:meth:`~kessen.server.hub.Hub.sweeper`), so a session caught in a
reference cycle would stay in memory for as long as games go on.
"""

from __future__ import annotations

import asyncio
import gc
import random
import sys
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kessen.engine import registry
from kessen.engine.contract import GameState
from kessen.server import hub as hub_module
from kessen.server.hub import Hub
from kessen.server.session import Session
from kessen.store.records import MatchStore
from tests.fresh_loop import run_fresh

RULESETS = ("kobo", "twgp", "maken")
BOUNDED: dict[str, int] = {"kessen.games.maken.state._CONFIGS": 257}
"""Module-level caches that hold one entry per match's config, and their bound (the parsed
config of the last matches, cleared when full)."""
PER_SESSION = ("sessions", "clients", "wake", "tasks", "locks", "ended", "owners", "idle_since")


def _config(ruleset: str) -> dict[str, Any]:
    config = dict(registry.get(ruleset).default_config)
    if ruleset == "kobo":
        config["best_of"] = 1
    return config


async def _play_batch(hub: Hub, store: MatchStore | None, seed: int) -> list[weakref.ref[Any]]:
    """Nine short matches on ``hub``, three per game: against COM (its person plays a few
    random moves, then resigns), COM against COM (played to its end), and between two people
    (nobody joins: abandoned); all of them then leave the hub. Weak references to each session
    (its states are counted instead: see :func:`_live_states`)."""
    refs: list[weakref.ref[Any]] = []
    rng = random.Random(seed)
    for n, ruleset in enumerate(RULESETS):
        for mode in ("vs_com", "com_vs_com", "vs_human"):
            session = Session.create(
                ruleset, _config(ruleset), seed + n, mode, "heuristic", 0.0, store
            )
            hub.add(session, owner=f"127.0.0.{n + 1}")
            if mode == "vs_com":
                for _ in range(12):
                    while session.com_to_move() is not None:
                        await asyncio.sleep(0)
                    pending = session.live.pending
                    if session.over or pending is None:
                        break
                    async with hub.lock(session):
                        action = rng.choice(session.live.legal_actions())
                        session.act(0, pending.prompt_id, str(action))
                        session.view_for(0, "ja", False)
                        session.view_for(0, "en", False)
                    hub.changed(session)
                while session.com_to_move() is not None:
                    await asyncio.sleep(0)
                if not session.over:
                    async with hub.lock(session):
                        session.resign(0)
                    hub.changed(session)
            elif mode == "com_vs_com":
                for _ in range(20_000):
                    if session.over:
                        break
                    await asyncio.sleep(0)
                assert session.over, f"COM against COM in {ruleset} did not end"
                session.view_for(-1, "ja", True)
            refs.append(weakref.ref(session))
    await asyncio.sleep(0)
    later = time.monotonic() + 10 * max(hub.evict_after, hub.idle_after) + 1
    assert len(hub.sweep(later)) == 3 * len(RULESETS)
    for _ in range(3):  # the cancelled COM tasks finish
        await asyncio.sleep(0)
    return refs


def _live_states() -> int:
    """How many game states are alive. Counted among the objects the collector tracks, not by
    weak references: the compiled build's states do not clear weak references to them when
    they go (reading one then crashes the process)."""
    return sum(1 for obj in gc.get_objects() if isinstance(obj, GameState))


def _module_sizes() -> dict[str, int]:
    """The size of every module-level container and function cache of Kessen's modules."""
    sizes: dict[str, int] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("kessen") or module is None:
            continue
        for attr, value in list(vars(module).items()):
            if attr.startswith("__"):
                continue
            info = getattr(value, "cache_info", None)
            if callable(info) and getattr(value, "__module__", None) == name:
                sizes[f"{name}.{attr}()"] = info().currsize
            elif isinstance(value, dict | set | list):
                sizes[f"{name}.{attr}"] = len(value)
    return sizes


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MatchStore]:
    """A fresh store: the matches are recorded as a server records them."""
    yield MatchStore(tmp_path / "store.db")


def test_matches_that_left_leave_nothing_reachable(store: MatchStore) -> None:
    async def main() -> tuple[list[weakref.ref[Any]], Hub]:
        hub = Hub(pace=0.0, evict_after=0.0, idle_after=0.0)
        try:
            return await _play_batch(hub, store, 0), hub
        finally:
            await hub.close()

    gc.collect()
    before = _live_states()
    gc.disable()  # what goes must go by reference counting alone
    try:
        refs, hub = run_fresh(main())
        left = [r() for r in refs if r() is not None]
        assert left == [], f"{len(left)} of {len(refs)} sessions stayed reachable"
        states = _live_states() - before
        assert states <= 0, f"{states} game states of the matches stayed reachable"
    finally:
        gc.enable()
    assert {name: len(getattr(hub, name)) for name in PER_SESSION} == dict.fromkeys(PER_SESSION, 0)
    assert not hub.visited and not hub.connections and not hub.buckets and not hub.closing
    assert len(hub.gone) == 3 * len(RULESETS)  # what a later visit to each is told


def test_module_caches_do_not_grow_with_the_matches_played(store: MatchStore) -> None:
    async def batch() -> None:
        hub = Hub(pace=0.0, evict_after=0.0, idle_after=0.0)
        try:
            await _play_batch(hub, store, 7)
        finally:
            await hub.close()

    for _ in range(2):  # the first matches fill what every match shares (card data, wordings;
        run_fresh(batch())  # twice: a bounded memory that started afresh during one is full)
    first = _module_sizes()
    run_fresh(batch())  # the same matches again, as new sessions
    run_fresh(batch())
    grown = {
        name: (first.get(name, 0), size)
        for name, size in _module_sizes().items()
        if size > first.get(name, 0) and name not in BOUNDED
    }
    assert grown == {}, f"module-level caches grew with the matches played: {grown}"
    sizes = _module_sizes()
    over = {name: sizes.get(name, 0) for name in BOUNDED if sizes.get(name, 0) > BOUNDED[name]}
    assert over == {}, f"bounded caches past their bound: {over}"


def test_the_evicted_sessions_the_hub_recognises_are_bounded(
    store: MatchStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_module, "EVICTED_KEPT", 4)

    async def main() -> Hub:
        hub = Hub(pace=0.0, evict_after=0.0, idle_after=0.0)
        try:
            await _play_batch(hub, store, 3)
            return hub
        finally:
            await hub.close()

    hub = run_fresh(main())
    assert len(hub.gone) == 4  # the last four evicted; the older ones forgotten

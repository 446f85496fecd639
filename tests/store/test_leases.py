"""Leases on live matches (``match_leases``), on both databases: claimed, renewed, expired,
taken by exactly one of several processes, asked for and handed over, and the fence that keeps
a process that lost a match from writing into it. Each "process" is a store of its own (its
own connection), as each ``kessen play`` process has."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest

from kessen.engine import registry
from kessen.store import MatchStore, StoreError, db
from kessen.store.leases import Holder, LeaseLostError
from kessen.store.pg_server import LocalServer
from tests.store.helpers import com_action, config

SHORT = 1.0
"""The shortest lease (seconds): what the tests wait for to see one expire."""


@pytest.fixture
def stores(store_target: str) -> Iterator[list[MatchStore]]:
    """Four stores on one database, each with its own connection (four processes)."""
    opened = [MatchStore(store_target) for _ in range(4)]
    yield opened
    for store in opened:
        store.close()


def _match(store: MatchStore, seed: int = 5, *, source: str = "server") -> int:
    game = registry.get("kobo").new_game(config(), seed)
    return store.create_match("kobo", config(), seed, state=game, source=source)


def _tables(store_target: str) -> set[str]:
    if store_target.startswith("postgresql://"):
        with psycopg.connect(store_target) as conn:
            rows = conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            ).fetchall()
    else:
        conn_lite = sqlite3.connect(store_target)
        rows = conn_lite.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        conn_lite.close()
    return {str(r[0]) for r in rows}


def test_the_schema_has_the_leases_on_both(store_target: str) -> None:
    with MatchStore(store_target) as store:
        assert store.schema_version == db.SCHEMA_VERSION
    assert db.LEASES_TABLE in db.expected_tables(db.SCHEMA_VERSION)
    assert db.LEASES_TABLE not in db.expected_tables(db.MIGRATIONS.index(db._v6_match_leases))
    assert _tables(store_target) == db.expected_tables(db.SCHEMA_VERSION)


def test_claim_renew_release_drop(stores: list[MatchStore]) -> None:
    a, b = stores[0].leases("a", SHORT), stores[1].leases("b", SHORT)
    match_id = _match(stores[0])
    assert a.claim("s1", match_id)
    assert not b.claim("s1", match_id)  # a live lease of another process is not claimed
    holder = b.holder("s1")
    assert holder is not None and holder.owner == "a" and holder.match_id == match_id
    assert 0 < holder.left <= SHORT
    assert b.live_elsewhere() == {match_id} and a.live_elsewhere() == set()
    assert a.renew() == {"s1"} and b.renew() == set()
    taken = b.take("s1")
    assert isinstance(taken, Holder) and taken.owner == "a"  # still live: not taken
    assert a.release("s1") and not b.release("s1")
    assert b.live_elsewhere() == set()  # released: no process serves it
    assert b.take("s1") == match_id  # free: taken at once
    assert b.renew() == {"s1"} and a.renew() == set()
    a.drop("s1")  # only its owner drops a lease
    assert b.holder("s1") is not None
    b.drop("s1")
    assert b.holder("s1") is None and b.take("s1") is None  # no such session any more
    with pytest.raises(ValueError, match="seconds"):
        stores[0].leases("a", 0.1)
    with pytest.raises(ValueError, match="owner"):
        stores[0].leases("", SHORT)


def test_a_lease_nobody_renews_expires_and_is_taken(stores: list[MatchStore]) -> None:
    a, b = stores[0].leases("a", SHORT), stores[1].leases("b", SHORT)
    match_id = _match(stores[0])
    assert a.claim("s1", match_id)
    started = time.monotonic()
    while isinstance(got := b.take("s1"), Holder):
        assert time.monotonic() - started < SHORT + 2, "the lease never expired"
        time.sleep(0.05)
    waited = time.monotonic() - started
    assert got == match_id and SHORT - 0.3 <= waited <= SHORT + 1.0, waited
    assert a.renew() == set()  # the old owner learns it lost the lease
    assert b.renew() == {"s1"}


def test_a_live_owner_hands_over_what_another_asks_for(stores: list[MatchStore]) -> None:
    a, b = stores[0].leases("a"), stores[1].leases("b")
    match_id = _match(stores[0])
    assert a.claim("s1", match_id) and a.claim("s2", _match(stores[0], 6))
    assert a.wanted() == []
    b.ask("s1")
    assert a.wanted() == ["s1"]
    assert isinstance(b.take("s1"), Holder)  # asked is not given
    a.release("s1")
    assert a.wanted() == [] and b.take("s1") == match_id
    a.ask("s1")
    assert b.wanted() == ["s1"]
    assert b.take("s1") == match_id and b.wanted() == []  # taking again forgets the ask
    assert a.release_all() == 1 and b.take("s2") is not None


def test_exactly_one_of_several_processes_takes_an_expired_lease(
    stores: list[MatchStore],
) -> None:
    tables = [store.leases(f"p{i}", SHORT) for i, store in enumerate(stores)]
    for round_ in range(3):
        session = f"race{round_}"
        match_id = _match(stores[0], 10 + round_)
        assert tables[0].claim(session, match_id)
        assert tables[0].release(session)  # expired now: anyone's

        def take(i: int, session: str = session) -> Any:
            return tables[i].take(session)

        got = _together(len(tables), take)
        winners = [i for i, g in enumerate(got) if g == match_id]
        assert len(winners) == 1, got
        for i, g in enumerate(got):
            if i != winners[0]:
                assert isinstance(g, Holder) and g.owner == f"p{winners[0]}", got
        assert tables[winners[0]].renew() >= {session}


def test_the_fence_keeps_a_process_that_lost_a_match_from_writing(
    stores: list[MatchStore],
) -> None:
    first, second = stores[0], stores[1]
    a, b = first.leases("a", SHORT), second.leases("b", SHORT)
    first.fence, second.fence = a, b
    game = registry.get("kobo").new_game(config(), 7)
    match_id = first.create_match("kobo", config(), 7, state=game, source="server")
    with pytest.raises(LeaseLostError, match="no longer serves"):  # no lease yet: no write
        first.append_action(match_id, 1, str(com_action(game, 7)))
    assert a.claim("s1", match_id)
    actions = []
    for step in (1, 2):
        action = com_action(game, 7)
        game.apply(action)
        actions.append(str(action))
        first.append_action(match_id, step, str(action))
    a.release("s1")  # or expired: either way another process takes it
    assert b.take("s1") == match_id
    action = com_action(game, 7)
    with pytest.raises(LeaseLostError):
        first.append_action(match_id, 3, str(action))
    with pytest.raises(LeaseLostError):
        first.truncate(match_id, 1)
    with pytest.raises(LeaseLostError):
        first.finish_match(match_id, None)
    info = second.info(match_id)
    assert info.steps == 2 and info.finished is None  # nothing of the old owner's written
    second.append_action(match_id, 3, str(action))  # the new owner goes on from the same step
    assert second.load_replay(match_id).actions == [*actions, str(action)]
    assert isinstance(second.truncate(match_id, 2), int)
    second.finish_match(match_id, None)
    with pytest.raises(StoreError):
        second.append_action(match_id, 3, str(action))


def test_a_take_waits_for_the_action_being_written(postgres: LocalServer) -> None:
    """The take locks the match's row: an append the old owner has begun is stored first,
    so the new owner reads it (PostgreSQL; SQLite has one writer at a time anyway)."""
    store_target = postgres.new_store()
    with MatchStore(store_target) as old, MatchStore(store_target) as new:
        a, b = old.leases("a", SHORT), new.leases("b", SHORT)
        old.fence = a
        game = registry.get("kobo").new_game(config(), 9)
        match_id = old.create_match("kobo", config(), 9, state=game, source="server")
        assert a.claim("s1", match_id)
        a.release("s1")
        action = com_action(game, 9)
        done: list[Any] = []
        with old.database.transaction() as conn:  # an append in flight: the row is locked
            conn.execute("SELECT id FROM matches WHERE id = ? FOR UPDATE", (match_id,))
            a.fence(conn, match_id)  # the fence passes: the lease is still a's
            conn.execute(
                "INSERT INTO actions (match_id, step, action) VALUES (?, 1, ?)",
                (match_id, str(action)),
            )
            taker = threading.Thread(target=lambda: done.append(b.take("s1")))
            taker.start()
            time.sleep(0.5)
            assert done == []  # the take waits for the append to commit
        taker.join(timeout=30)
        assert done == [match_id]
        assert new.load_replay(match_id).actions == [str(action)]


def test_records_without_a_lease_are_adopted_once(stores: list[MatchStore]) -> None:
    store = stores[0]
    table = store.leases("a", SHORT)
    served = _match(store, 1)
    other = _match(store, 2)
    _match(store, 3, source="play")  # not a server's session
    finished = _match(store, 4)
    store.finish_match(finished, None)
    assert table.claim("held", served)
    assert table.unleased() == [other]
    assert table.adopt([("old", other)]) == 1
    assert table.unleased() == [] and table.adopt([("old", other)]) == 0
    holder = table.holder("old")
    assert holder is not None and holder.owner == "" and holder.left < 0  # free
    assert stores[1].leases("b", SHORT).take("old") == other


def test_a_deleted_match_takes_its_lease_along(stores: list[MatchStore]) -> None:
    table = stores[0].leases("a", SHORT)
    match_id = _match(stores[0])
    assert table.claim("s1", match_id)
    stores[1].delete_match(match_id)
    assert table.holder("s1") is None and table.renew() == set()


def _together(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` for ``i`` in ``range(count)`` on as many threads started at once; each
    result or the exception it raised."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = work(i)
        except Exception as err:
            results[i] = err

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results

"""The store on PostgreSQL: one schema with SQLite's, what it refuses to open, passwords kept
out of messages, a server's hold, a lost connection, and several writers at once (on both
databases: the same answers whether SQLite serializes them or PostgreSQL's locks do)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest
import typer
from typer.testing import CliRunner

from kessen.engine import registry
from kessen.sim.commands import mount
from kessen.store import MatchStore, StoreError, db, saved_decks
from kessen.store import postgres as pg_store
from kessen.store.lock import StoreLockedError
from kessen.store.pg_server import LocalServer
from kessen.store.records import StoreFault
from tests.store.helpers import com_action, config, play_plain

ROOT = Path(__file__).resolve().parents[2]


def _columns_pg(url: str) -> dict[str, list[str]]:
    with psycopg.connect(url) as conn:
        found: dict[str, list[str]] = {}
        for table, column in conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() ORDER BY table_name, column_name"
        ):
            found.setdefault(table, []).append(column)
        return found


def _columns_sqlite(path: Path) -> dict[str, list[str]]:
    conn = sqlite3.connect(path)
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    found = {t: sorted(r[1] for r in conn.execute(f"PRAGMA table_info({t})")) for t in tables}
    conn.close()
    return found


def test_one_schema_on_both_databases(postgres: LocalServer, tmp_path: Path) -> None:
    url = postgres.new_store()
    with MatchStore(url) as store, MatchStore(tmp_path / "s.sqlite3") as lite:
        assert store.schema_version == lite.schema_version == db.SCHEMA_VERSION
        assert store.database.kind == "postgresql" and lite.database.kind == "sqlite"
    # Every SQLite migration after the PostgreSQL baseline needs its PostgreSQL step.
    assert pg_store.BASELINE + len(pg_store.STEPS) == db.SCHEMA_VERSION == len(db.MIGRATIONS)
    assert _columns_pg(url) == _columns_sqlite(tmp_path / "s.sqlite3")
    assert set(_columns_pg(url)) == db.expected_tables(db.SCHEMA_VERSION)
    with MatchStore(url) as again:  # opening an existing store changes nothing
        assert again.schema_version == db.SCHEMA_VERSION and again.count() == 0


def test_what_a_postgresql_store_refuses_to_open(postgres: LocalServer) -> None:
    newer = postgres.new_store()
    MatchStore(newer).close()
    with psycopg.connect(newer, autocommit=True) as conn:
        conn.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(db.SchemaError, match="newer than this Kessen knows"):
        MatchStore(newer)
    foreign = postgres.new_store()
    with psycopg.connect(foreign, autocommit=True) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER)")
    with pytest.raises(db.ForeignFileError, match=r"another program's tables \(invoices\)"):
        MatchStore(foreign)
    with psycopg.connect(foreign) as conn:  # left as it was
        found = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        assert [r[0] for r in found] == ["invoices"]
    damaged = postgres.new_store()
    MatchStore(damaged).close()
    with psycopg.connect(damaged, autocommit=True) as conn:
        conn.execute("DROP TABLE saved_decks")
    with pytest.raises(db.DamagedStoreError, match="table saved_decks missing"):
        MatchStore(damaged)
    nowhere = f"{postgres.url}?options=-csearch_path%3Dno_such_schema"
    with pytest.raises(db.SchemaError, match="no schema of its search_path exists"):
        MatchStore(nowhere)


def test_a_password_never_appears_in_a_message() -> None:
    url = (
        "postgresql://player:s3cret-word@127.0.0.1:9/kessen?password=other-s3cret&connect_timeout=3"
    )
    with pytest.raises(pg_store.StoreUnreachableError) as raised:
        MatchStore(url)
    text = str(raised.value)
    assert "cannot connect to the PostgreSQL server" in text and "127.0.0.1:9" in text
    assert "s3cret" not in text
    cli = typer.Typer()
    mount(cli)
    for args in (["store", "list", "--db", url], ["store", "path", "--db", url]):
        result = CliRunner().invoke(cli, args)
        assert "s3cret" not in result.output and "Traceback" not in result.output
    listed = CliRunner().invoke(cli, ["store", "list", "--db", url])
    assert listed.exit_code == 2 and "error:" in listed.output


def test_kessen_db_may_name_a_postgresql_store(
    postgres: LocalServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres.new_store()
    monkeypatch.setenv(db.ENV_VAR, url)
    with MatchStore() as store:
        assert store.path == url and store.database.kind == "postgresql"
        assert store.create_match("kobo", config(), 3) == 1


HOLDER = """
import sys, time
from kessen.store import MatchStore
store = MatchStore(sys.argv[1], exclusive=True)
print("held", flush=True)
time.sleep(120)
"""


def test_one_server_per_store_and_a_killed_one_lets_go(postgres: LocalServer) -> None:
    url = postgres.new_store()
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'src'}"}
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, url], stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "held"
        with pytest.raises(StoreLockedError, match=rf"another Kessen server \(kessen {child.pid}@"):
            MatchStore(url, exclusive=True)
        with MatchStore(url) as reader:  # other commands share the store freely
            assert reader.count() == 0
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    deadline = time.monotonic() + 30
    while True:  # the database notices the closed socket and drops the dead session's hold
        try:
            server = MatchStore(url, exclusive=True)
            break
        except StoreLockedError:
            assert time.monotonic() < deadline, "the killed server's hold was never released"
            time.sleep(0.1)
    with pytest.raises(StoreLockedError):
        MatchStore(url, exclusive=True)
    server.close()
    MatchStore(url, exclusive=True).close()  # closing lets go too
    other = postgres.new_store()  # another schema is another store
    with MatchStore(url, exclusive=True), MatchStore(other, exclusive=True):
        pass


def test_a_lost_connection_is_said_then_opened_again(postgres: LocalServer) -> None:
    url = postgres.new_store()
    with MatchStore(url, exclusive=True) as store:
        match_id = store.create_match("kobo", config(), 8)
        with psycopg.connect(postgres.url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name LIKE %s AND pid <> pg_backend_pid()",
                (f"kessen {os.getpid()}@%",),
            )
        with pytest.raises(StoreFault, match="lost the connection to the PostgreSQL server"):
            store.append_action(match_id, 1, "pick a")
        store.append_action(match_id, 1, "pick a")  # a new connection; the hold taken again
        assert store.info(match_id).steps == 1
        with pytest.raises(StoreLockedError):
            MatchStore(url, exclusive=True)


def _together(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` for ``i`` in ``range(count)`` on as many threads, started at once;
    each result or the exception it raised."""
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


def test_several_writers_at_once_get_the_same_answers_on_both(
    store_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each writer has its own connection (a process of its own would too)."""
    stores = [MatchStore(store_target) for _ in range(6)]
    try:
        # Six matches recorded side by side into a new store (its first card snapshot raced).
        def record(i: int) -> int:
            store = stores[i]
            game = registry.get("kobo").new_game(config(), 20 + i)
            match_id = store.create_match("kobo", config(), 20 + i, state=game)
            for step in range(1, 41):
                action = com_action(game, 20 + i)
                game.apply(action)
                store.append_action(match_id, step, str(action), game.state_hash())
            return match_id

        ids = _together(6, record)
        assert sorted(ids) == list(range(1, 7))
        for seed, match_id in zip(range(20, 26), ids, strict=True):
            assert stores[0].load_replay(match_id).actions == play_plain(seed)[0][:40]
        # Six writers of the same step: one text is kept, the others are told it is stored.
        texts = _together(6, lambda i: stores[i].append_action(ids[0], 41, f"pick {i}"))
        assert sum(1 for t in texts if t is None) == 1
        assert all(isinstance(t, StoreError) and "stored as" in str(t) for t in texts if t)

        # An action racing the end of its match: appended before, or refused after.
        def act_or_finish(i: int) -> None:
            if i:
                stores[i].finish_match(ids[1], None)
            else:
                stores[i].append_action(ids[1], 41, "pass")

        raced = _together(2, act_or_finish)
        steps = stores[0].info(ids[1]).steps
        assert stores[0].info(ids[1]).is_finished
        assert steps == 41 if raced[0] is None else (steps == 40 and "finished" in str(raced[0]))
        # The same simulation run started by six processes: one run.
        runs = _together(6, lambda i: stores[i].sim_run("shared", {"games": 4}))
        assert len(set(runs)) == 1 and len(stores[0].sim_runs()) == 1
        # Saved decks to their limit: never one more.
        monkeypatch.setattr(saved_decks, "MAX_DECKS", 4)
        saved = _together(6, lambda i: stores[i].saved_decks().save("kobo", f"d{i}", {"i": i}))
        assert sum(1 for s in saved if isinstance(s, int)) == 4
        assert len(stores[0].saved_decks().list("kobo")) == 4
    finally:
        for store in stores:
            store.close()


def test_the_schema_is_created_once_and_whole(
    postgres: LocalServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres.new_store()
    opened = _together(4, lambda i: MatchStore(url))  # four processes starting at once
    assert all(isinstance(s, MatchStore) for s in opened), opened
    for store in opened:
        store.close()
    with MatchStore(url) as store:
        assert store.schema_version == db.SCHEMA_VERSION
    broken = postgres.new_store()
    monkeypatch.setattr(pg_store, "BASELINE_SCRIPT", pg_store.BASELINE_SCRIPT + ";SELECT 1/0")
    with pytest.raises(StoreFault, match="division by zero"):
        MatchStore(broken)
    with psycopg.connect(broken) as conn:  # all or nothing: not a table was left
        found = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        assert list(found) == []

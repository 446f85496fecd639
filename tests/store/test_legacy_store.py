"""A store written before the store ran on PostgreSQL (``data/v4-store.sqlite3``, see
``tests/store/legacy.py``): today's code opens it without changing a record, writes the same
rows for the same calls, and copies it to PostgreSQL and back byte for byte."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from kessen.store import MatchStore, db
from kessen.store.copy import copy_store
from kessen.store.pg_server import LocalServer
from tests.store.legacy import FIXED_MATCHES, FIXTURE, rows, write_fixed


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    """A copy of the old store (a test may write to it)."""
    path = tmp_path / "old.sqlite3"
    shutil.copyfile(FIXTURE, path)
    return path


def test_the_old_store_opens_with_every_record_unchanged(old_store: Path) -> None:
    before = rows(old_store)
    assert before["schema_version"] == [(4,)]
    with MatchStore(old_store, verify=True) as store:
        assert store.schema_version == db.SCHEMA_VERSION  # upgraded from version 4
        infos = store.list_matches()
        assert sorted(i.id for i in infos) == [1, 2, 3, 4, 5, 6, 7]
        assert [i.id for i in store.list_matches(ruleset="kobo", finished=True)] == [5, 4, 1]
        assert [i.id for i in store.list_matches(player="random")] == [4, 2]
        assert [i.id for i in store.list_matches(deck="自分の山")] == [1]
        assert [i.id for i in store.unfinished()] == [7, 6, 3, 2]
        first = store.get(1)
        assert list(first.config["decks"][0]["main"]) == ["b-card", "a-card"]  # key order kept
        assert first.meta == {"a": [1, "日本語"], "seat": 0}
        assert [r.events for r in first.actions] == [1, None, 4_294_967_295]
        assert store.info(2).seed == 2**63 - 25 and store.info(2).parent == (1, 2)
        assert store.recorded_cards("kobo", "legacy-data") == {
            "a-card": {"lv": 1},
            "b-card": {"lv": 2, "kind": "character"},
        }
        (run,) = store.sim_runs()
        assert run["spec"] == {"b": 1, "a": [1, 2], "name": "試合"} and run["games"] == 2
        assert store.sim_done(run["id"]) == {
            0: (4, {"index": 0, "winner": 1}),
            1: (None, {"index": 1, "winner": 1, "again": True}),
        }
        decks = store.saved_decks().list("kobo")
        assert [(d.name, d.deck) for d in decks] == [
            ("Renamed", {"slug": "mine", "main": {"a": 2}}),
            ("Third", {"slug": "third"}),
        ]
        assert store.branch(5, 3) == 8  # and it takes new records on the next id
    after = rows(old_store)
    changed = ("matches", "actions", "schema_version")  # the version: upgraded on opening
    assert {t: r for t, r in after.items() if t not in changed} == {
        t: r for t, r in before.items() if t not in changed
    }
    assert after["schema_version"] == [(db.SCHEMA_VERSION,)]
    assert [r for r in after["matches"] if r[0] != 8] == before["matches"]
    assert [r for r in after["actions"] if r[0] != 8] == before["actions"]
    conn = sqlite3.connect(old_store)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == db.APPLICATION_ID
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_todays_code_writes_the_rows_the_old_code_wrote(tmp_path: Path, old_store: Path) -> None:
    fresh = tmp_path / "fresh.sqlite3"
    with MatchStore(fresh) as store:
        write_fixed(store)
    new, old = rows(fresh, clock=False), rows(old_store, clock=False)
    assert new["matches"] == [r for r in old["matches"] if r[0] <= FIXED_MATCHES]
    assert new["actions"] == [r for r in old["actions"] if r[0] <= FIXED_MATCHES]
    assert set(new["blobs"]) <= set(old["blobs"])
    assert new["card_data"] == [r for r in old["card_data"] if r[1] == "legacy-data"]
    for table in ("sim_runs", "sim_games", "saved_decks"):
        assert new[table] == old[table], table
    assert new["schema_version"] == [(db.SCHEMA_VERSION,)]  # the old file says 4


def test_the_old_store_goes_to_postgresql_and_back_byte_for_byte(
    tmp_path: Path, old_store: Path, postgres: LocalServer
) -> None:
    url = postgres.new_store()
    back = tmp_path / "back.sqlite3"
    with MatchStore(old_store) as source, MatchStore(url) as pg:
        there = copy_store(source, pg)
        assert there.counts["matches"] == there.verified == 7
        for match_id in range(1, 8):
            assert pg.get(match_id) == source.get(match_id)
            assert pg.export_match(match_id) == source.export_match(match_id)
        for match_id in range(FIXED_MATCHES + 1, 8):  # played under real rules: replayable
            assert pg.check(match_id) == source.check(match_id)
        assert pg.sim_done(1) == source.sim_done(1)
        with MatchStore(back) as home:
            again = copy_store(pg, home)
            assert again.counts == there.counts
    assert rows(back) == rows(old_store)

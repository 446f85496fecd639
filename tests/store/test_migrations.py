"""The versioned schema: a v1 file is upgraded in place, its matches still load and replay."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from kessen.store import MatchStore, db
from tests.store.helpers import config, play_plain


def _v1_file(path: Path) -> tuple[list[str], str, object]:
    """A store file at schema version 1 holding one finished match, written as v1 code did."""
    conn = db.connect(str(path))
    assert db.migrate(conn, target=1) == 1
    actions, final = play_plain(4)
    from kessen.engine import registry

    rules = registry.get("kobo")
    hash0 = rules.new_game(config(), 4).state_hash()
    conn.execute(
        "INSERT INTO matches (id, ruleset, config, seed, engine_version, data_hash, deck0, deck1, "
        "decks, players, source, hash0, created, finished, winner, reason, results) "
        "VALUES (1, 'kobo', ?, 4, ?, ?, 'swarm', 'tempo', ?, ?, 'play', ?, 1.0, 2.0, ?, ?, '[]')",
        (
            json.dumps(config()),
            rules.version,
            rules.data_hash,
            json.dumps(final.to_json()["config"]["decks"]),
            json.dumps({"0": "heuristic", "1": "heuristic"}),
            hash0,
            final.outcome.winner if final.outcome else None,
            final.outcome.reason if final.outcome else None,
        ),
    )
    conn.executemany(
        "INSERT INTO actions (match_id, step, action, state_hash) VALUES (1, ?, ?, ?)",
        [
            (step, text, final.state_hash() if step == len(actions) else None)
            for step, text in enumerate(actions, start=1)
        ],
    )
    # An old import without players: v2 labels its source.
    conn.execute(
        "INSERT INTO matches (id, ruleset, config, seed, engine_version, data_hash, created) "
        "VALUES (2, 'kobo', ?, 5, '0', 'x', 3.0)",
        (json.dumps(config()),),
    )
    conn.close()
    return actions, final.state_hash(), final.to_json()["config"]["decks"]


def test_migrations_are_ordered_and_versioned() -> None:
    assert db.SCHEMA_VERSION == len(db.MIGRATIONS) >= 2
    conn = db.connect(db.MEMORY)
    assert db.current_version(conn) == 0
    for target in range(1, db.SCHEMA_VERSION + 1):
        assert db.migrate(conn, target) == target
        assert db.current_version(conn) == target
    assert db.migrate(conn) == db.SCHEMA_VERSION  # idempotent
    with pytest.raises(ValueError):
        db.migrate(conn, db.SCHEMA_VERSION + 1)


def test_upgrade_from_v1_keeps_every_match(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    actions, final_hash, decks = _v1_file(path)
    with MatchStore(path) as store:
        assert store.schema_version == db.SCHEMA_VERSION
        record = store.get(1)
        assert record.info.players == {"0": "heuristic", "1": "heuristic"}
        assert record.info.source == "play"
        assert record.decks == decks  # moved to the shared blobs, same content
        blobs = store._conn.execute("SELECT COUNT(*) FROM blobs").fetchone()[0]
        assert blobs == 1
        assert record.events0 is None and record.event_digests is None
        replay = record.replay()
        assert replay.actions == actions
        assert replay.final_state(verify=True).state_hash() == final_hash
        assert store.check(1) is None
        assert store.info(2).source == "import"
        # What v2 added works on the upgraded file.
        run = store.sim_run("after-upgrade", {"x": 1})
        store.record_sim_game(run, 0, {"index": 0}, None)
        assert store.sim_done(run) == {0: (None, {"index": 0})}
        new_id = store.branch(1, 5)
        assert store.info(new_id).parent == (1, 5)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_a_failed_migration_leaves_the_previous_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "half.sqlite3"
    _v1_file(path)

    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE half_done (x INTEGER)")
        raise RuntimeError("power cut")

    monkeypatch.setattr(db, "MIGRATIONS", (db.MIGRATIONS[0], broken))
    conn = db.connect(str(path))
    with pytest.raises(RuntimeError):
        db.migrate(conn, 2)
    assert db.current_version(conn) == 1
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "half_done" not in tables
    conn.close()
    monkeypatch.undo()
    with MatchStore(path) as store:
        assert store.schema_version == db.SCHEMA_VERSION

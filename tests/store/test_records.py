"""The match store API: every field round-trips, filters, errors, branches, undo, paths.

The store-level tests run on both databases (``store_target``: an SQLite file and a schema of a
real PostgreSQL server); the file-level ones (paths, pragmas) on SQLite.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path

import pytest

from kessen.engine import registry
from kessen.engine.contract import Outcome
from kessen.engine.replay import Replay
from kessen.store import MatchInfo, MatchStore, NewMatch, Recorder, StoreError, db
from tests.store.helpers import com_action, config, play_plain, play_recorded


@pytest.fixture
def store(store_target: str) -> Iterator[MatchStore]:
    with MatchStore(store_target) as s:
        yield s


def test_a_recorded_match_round_trips_every_field(store: MatchStore) -> None:
    before = datetime.now().timestamp()
    match_id, state, _ = play_recorded(store, 11, source="server", meta={"pace": 0.5})
    record = store.get(match_id)
    info = record.info
    rules = registry.get("kobo")
    assert info.id == match_id
    assert info.ruleset == "kobo"
    assert info.seed == 11
    assert info.decks == ("swarm", "tempo")
    assert info.players == {"0": "heuristic", "1": "heuristic"}
    assert info.source == "server"
    assert before <= info.created <= info.finished  # type: ignore[operator]
    assert info.is_finished
    assert state.outcome is not None
    assert (info.winner, info.reason) == (state.outcome.winner, state.outcome.reason)
    assert info.engine_version == rules.version
    assert info.data_hash == rules.data_hash
    assert info.parent is None
    assert record.config == config()
    assert record.meta == {"pace": 0.5}
    assert record.results == [list(r) for r in state.results]  # type: ignore[attr-defined]
    assert record.decks == state.to_json()["config"]["decks"]
    assert info.steps == len(record.actions)
    # The replay is the engine's own record of the same game.
    actions, final = play_plain(11)
    replay = store.load_replay(match_id)
    assert replay.actions == actions
    assert replay.hashes[0] == rules.new_game(config(), 11).state_hash()
    assert replay.hashes[len(actions)] == final.state_hash()
    assert all(step % 10 == 0 or step == len(actions) for step in replay.hashes)
    assert replay.final_state(verify=True).state_hash() == final.state_hash()
    assert record.event_digests is not None and len(record.event_digests) == len(actions) + 1
    assert store.check(match_id) is None


def test_add_match_round_trips_every_field(store: MatchStore) -> None:
    actions, _ = play_plain(3)
    replay = Replay("kobo", config(), 3, actions, "v-test", "hash-test", {0: "h0", 10: "h10"})
    new = NewMatch(
        replay=replay,
        players={"0": "random", "1": "human"},
        source="sim",
        outcome=Outcome(None, "turn_limit"),
        results=[[-1, "turn_limit", 200]],
        events0=7,
        events=list(range(1, len(actions) + 1)),
        decks=[{"slug": "x"}, {"slug": "y"}],
        meta={"k": [1, 2]},
        created=1_700_000_000.5,
        finished=1_700_000_100.25,
        parent=None,
    )
    match_id = store.add_match(new)
    record = store.get(match_id)
    assert record.replay() == replay
    assert record.info.players == new.players
    assert record.info.source == "sim"
    assert (record.info.winner, record.info.reason) == (None, "turn_limit")
    assert record.results == [[-1, "turn_limit", 200]]
    assert record.events0 == 7
    assert [row.events for row in record.actions] == list(range(1, len(actions) + 1))
    assert record.decks == [{"slug": "x"}, {"slug": "y"}]
    assert record.meta == {"k": [1, 2]}
    assert (record.info.created, record.info.finished) == (1_700_000_000.5, 1_700_000_100.25)
    assert (record.info.engine_version, record.info.data_hash) == ("v-test", "hash-test")


def test_append_refuses_gaps_conflicts_and_finished_matches(store: MatchStore) -> None:
    match_id = store.create_match("kobo", config(), 1, players=["human", "random"])
    with pytest.raises(StoreError, match="does not follow"):
        store.append_action(match_id, 2, "pass")
    store.append_action(match_id, 1, "pick a")
    store.append_action(match_id, 1, "pick a")  # a retry of the same step is harmless
    with pytest.raises(StoreError, match="stored as"):
        store.append_action(match_id, 1, "pick b")
    with pytest.raises(StoreError, match="no match"):
        store.append_action(9999, 1, "pick a")
    store.finish_match(match_id, None)
    with pytest.raises(StoreError, match="finished"):
        store.append_action(match_id, 2, "pick c")
    info = store.info(match_id)
    assert (info.reason, info.winner, info.steps) == ("abandoned", None, 1)
    with pytest.raises(StoreError):
        store.truncate(match_id, 0)


def test_undo_truncates_and_recording_goes_on(store: MatchStore) -> None:
    rules = registry.get("kobo")
    state = rules.new_game(config(), 5)
    recorder = Recorder.start(store, state, config(), 5, players={1: "heuristic"})
    states = [state.clone()]
    for _ in range(15):
        action = com_action(state, 5)
        state.apply(action)
        recorder.record(action, state)
        states.append(state.clone())
    recorder.undo_to(12, states[12])
    state = states[12].clone()
    assert store.info(recorder.match_id).steps == 12
    while state.pending is not None:
        action = com_action(state, 5)
        state.apply(action)
        recorder.record(action, state)
    assert store.load_replay(recorder.match_id).final_state().state_hash() == state.state_hash()
    assert store.info(recorder.match_id).is_finished


def test_filters(store: MatchStore) -> None:
    a, state_a, _ = play_recorded(store, 1)
    b = store.create_match(
        "kobo",
        {"decks": ["fortress", "swarm"], "best_of": 1},
        2,
        players={"0": "random", "1": "random"},
        source="sim",
        created=datetime(2020, 1, 1),
    )
    c = store.create_match("kobo", {"decks": ["tempo", "vanguard"], "best_of": 1}, 3)
    store.finish_match(c, Outcome(None, "both_wiped"), [[-1, "both_wiped", 4]])

    def ids(rows: Iterable[MatchInfo]) -> list[int]:
        return [r.id for r in rows]

    assert ids(store.list_matches()) == [c, a, b]  # newest first
    assert ids(store.list_matches(deck="swarm")) == [a, b]
    assert ids(store.list_matches(deck="vanguard")) == [c]
    assert state_a.outcome is not None
    assert ids(store.list_matches(result=state_a.outcome.winner)) == [a]
    assert ids(store.list_matches(result="none")) == [c]
    assert ids(store.list_matches(until=datetime(2021, 1, 1))) == [b]
    assert ids(store.list_matches(since=datetime(2021, 1, 1))) == [c, a]
    assert ids(store.list_matches(ruleset="kobo")) == [c, a, b]
    assert ids(store.list_matches(ruleset="other")) == []
    assert ids(store.list_matches(finished=True)) == [c, a]
    assert ids(store.list_matches(finished=False)) == [b]
    assert ids(store.unfinished()) == [b]
    assert ids(store.unfinished(source="play")) == []
    assert ids(store.list_matches(source="sim")) == [b]
    assert ids(store.list_matches(player="random")) == [b]
    assert ids(store.list_matches(limit=1, offset=1)) == [a]
    assert store.count() == 3


def test_branch_continues_from_a_step(store: MatchStore) -> None:
    match_id, _, _ = play_recorded(store, 21)
    new_id = store.branch(match_id, 17)
    info = store.info(new_id)
    assert info.parent == (match_id, 17)
    assert not info.is_finished and info.steps == 17
    replay, state = store.resume(new_id)
    assert replay.actions == store.load_replay(match_id).actions[:17]
    assert 17 in replay.hashes  # the branch point is hashed
    recorder, live = Recorder.resume(store, new_id)
    assert live.state_hash() == state.state_hash()
    while live.pending is not None:  # play on differently: the first legal action each time
        action = live.legal_actions()[0]
        live.apply(action)
        recorder.record(action, live)
    assert store.check(new_id) is None
    with pytest.raises(StoreError):
        store.branch(match_id, 10_000)


def test_path_from_argument_env_var_and_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(db.ENV_VAR, str(tmp_path / "env" / "k.sqlite3"))
    with MatchStore() as store:
        assert store.path == str(tmp_path / "env" / "k.sqlite3")
    assert (tmp_path / "env" / "k.sqlite3").exists()
    monkeypatch.delenv(db.ENV_VAR)
    assert db.default_path().name == db.FILE_NAME
    assert "kessen" in str(db.default_path())
    with MatchStore(tmp_path / "arg.sqlite3") as store:
        assert store.path.endswith("arg.sqlite3")
        mode = store._conn.execute("PRAGMA journal_mode").fetchone()[0]
        sync = store._conn.execute("PRAGMA synchronous").fetchone()[0]
        assert (mode, sync) == ("wal", 1)  # NORMAL
    with MatchStore(tmp_path / "full.sqlite3", synchronous="FULL") as store:
        assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2
    with MatchStore(":memory:") as store:
        assert store.count() == 0


def test_a_file_from_a_newer_kessen_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    MatchStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE schema_version SET version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(db.SchemaError, match="newer"):
        MatchStore(path)

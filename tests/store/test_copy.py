"""``kessen store copy``: a whole store into an empty one, either way between SQLite and
PostgreSQL, every record verified; a copy that would not verify keeps nothing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from kessen.engine.contract import Outcome
from kessen.store import MatchStore, NewMatch, copy, exchange
from kessen.store.encoding import dumps
from tests.conftest import BACKENDS, new_store_target
from tests.store.exported import record_com_match
from tests.store.helpers import play_recorded

runner = CliRunner()


def _cli() -> typer.Typer:
    from kessen.sim.commands import mount

    cli = typer.Typer()
    mount(cli)
    return cli


def fill(store: MatchStore) -> dict[str, int]:
    """A store with one of everything: matches of the three games (finished, unfinished, a
    branch, an import, a deleted one), a simulation run and saved decks."""
    ids: dict[str, int] = {}
    ids["played"], _, _ = play_recorded(store, 3, source="server", meta={"pace": 0.5})
    ids["gone"] = store.create_match("kobo", {"decks": ["tempo", "swarm"], "best_of": 1}, 4)
    ids["twgp"] = record_com_match(store, "twgp", steps=25)
    ids["maken"] = record_com_match(store, "maken", steps=12)
    ids["branch"] = store.branch(ids["played"], 6)
    ids["import"] = store.import_match(store.export_match(ids["played"]))
    store.delete_match(ids["gone"])
    run = store.sim_run("copied-run", {"games": 2, "players": ["random"]})
    replay = store.load_replay(ids["played"])
    store.record_sim_game(run, 0, {"index": 0}, NewMatch(replay=replay, outcome=Outcome(0, "x")))
    store.record_sim_game(run, 1, {"index": 1, "note": "日本語"}, None)
    store.finish_sim_run(run)
    decks = store.saved_decks()
    decks.save("kobo", "Mine", {"slug": "mine", "main": {"z": 1, "a": 2}})
    decks.delete(decks.save("kobo", "Gone", {"slug": "gone"}))
    decks.save("twgp", "Build", {"p1": ["s10"]})
    return ids


def same_records(a: MatchStore, b: MatchStore) -> None:
    """Everything the API reads is the same in both stores."""
    assert [i.id for i in a.list_matches()] == [i.id for i in b.list_matches()]
    for info in a.list_matches():
        assert b.get(info.id) == a.get(info.id)
        assert b.export_match(info.id) == a.export_match(info.id)
    assert [i.id for i in b.list_matches(player="heuristic", finished=True)] == [
        i.id for i in a.list_matches(player="heuristic", finished=True)
    ]
    assert b.sim_runs() == a.sim_runs()
    for run in a.sim_runs():
        assert b.sim_done(run["id"]) == a.sim_done(run["id"])
    for ruleset in ("kobo", "twgp"):
        assert b.saved_decks().list(ruleset) == a.saved_decks().list(ruleset)


@pytest.mark.parametrize(("source_db", "dest_db"), [BACKENDS, BACKENDS[::-1]])
def test_a_whole_store_copies_either_way_and_verifies(
    tmp_path: Path, request: pytest.FixtureRequest, source_db: str, dest_db: str
) -> None:
    src = new_store_target(source_db, request, tmp_path)
    dst = new_store_target(dest_db, request, tmp_path)
    with MatchStore(src) as source:
        ids = fill(source)
        with MatchStore(dst) as target:
            seen: list[tuple[int, int]] = []
            report = copy.copy_store(source, target, progress=lambda d, t: seen.append((d, t)))
            assert report.counts["matches"] == report.verified == source.count() == 6
            assert report.counts["saved_decks"] == 2 and report.counts["sim_games"] == 2
            assert seen[-1] == (6, 6)
            assert f"copied 6 matches ({report.counts['actions']} actions)" in report.describe()
            same_records(source, target)
            assert target.check(ids["played"]) is None
            assert target.check(ids["twgp"]) is None
            # New records continue after the largest copied id, on either database.
            assert target.create_match("kobo", {"decks": ["swarm", "tempo"]}, 1) > ids["import"]
            kept = [d.id for r in ("kobo", "twgp") for d in target.saved_decks().list(r)]
            assert target.saved_decks().save("kobo", "New", {"slug": "new"}) > max(kept)
            assert target.sim_run("another", {}) == 2


def test_the_cli_copies_and_refuses_a_store_that_is_not_empty(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    cli = _cli()
    src = new_store_target("sqlite", request, tmp_path)
    dst = new_store_target("postgresql", request, tmp_path)
    with MatchStore(src) as store:
        match_id, _, _ = play_recorded(store, 9)
    done = runner.invoke(cli, ["store", "copy", src, dst])
    assert done.exit_code == 0, done.output
    assert "copied 1 matches" in done.stdout and dst in done.stdout
    listed = runner.invoke(cli, ["store", "list", "--db", dst, "--json"])
    assert json.loads(listed.stdout.splitlines()[0])["id"] == match_id
    again = runner.invoke(cli, ["store", "copy", src, dst])
    assert again.exit_code == 2
    assert "is not empty (" in again.output and "matches: 1," in again.output
    assert "Traceback" not in again.output
    same = runner.invoke(cli, ["store", "copy", src, src])
    assert same.exit_code == 2 and "the same store" in same.output
    back = tmp_path / "back.sqlite3"
    home = runner.invoke(cli, ["store", "copy", dst, str(back)])
    assert home.exit_code == 0, home.output
    checked = runner.invoke(cli, ["store", "check", str(match_id), "--db", str(back)])
    assert checked.exit_code == 0 and "replays exactly" in checked.stdout


@pytest.mark.parametrize("dest_db", BACKENDS)
def test_a_copy_that_does_not_read_back_keeps_nothing(
    tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, dest_db: str
) -> None:
    src = new_store_target("sqlite", request, tmp_path)
    dst = new_store_target(dest_db, request, tmp_path)
    original = copy._insert

    def corrupting(table: str) -> str:  # one action text changes on its way
        sql = original(table)
        return (
            sql.replace("VALUES (?, ?, ?,", "VALUES (?, ?, ? || 'x',")
            if table == "actions"
            else sql
        )

    monkeypatch.setattr(copy, "_insert", corrupting)
    with MatchStore(src) as source, MatchStore(dst) as target:
        match_id, _, _ = play_recorded(source, 2)
        with pytest.raises(copy.CopyError, match=f"match {match_id} does not read back") as err:
            copy.copy_store(source, target)
        assert not err.value.verified
        assert target.count() == 0 and target.saved_decks().list("kobo") == []
        assert target.recorded_cards("kobo", source.info(match_id).data_hash) is None


def test_forward_parents_and_old_text_summaries_copy_to_postgresql(
    tmp_path: Path, postgres: object, request: pytest.FixtureRequest
) -> None:
    """A parent with a larger id than its branch (SQLite reuses a deleted largest id) and a
    simulation summary kept as JSON text by an older version both survive the copy."""
    src = tmp_path / "odd.sqlite3"
    dst = new_store_target("postgresql", request, tmp_path)
    with MatchStore(src) as store:
        first, _, _ = play_recorded(store, 5)
        second = store.branch(first, 4)
        run = store.sim_run("old", {})
        store.record_sim_game(run, 0, {"index": 0}, None)
    conn = sqlite3.connect(src)
    conn.execute("UPDATE matches SET parent_id = ?, parent_step = 4 WHERE id = ?", (second, first))
    conn.execute("UPDATE sim_games SET summary = ?", (dumps({"index": 0, "text": True}),))
    conn.commit()
    conn.close()
    with MatchStore(src) as source, MatchStore(dst) as target:
        report = copy.copy_store(source, target)
        assert report.verified == 2
        assert target.info(first).parent == (second, 4)
        assert target.sim_done(1) == {0: (None, {"index": 0, "text": True})}
        assert exchange.export_match(target, first) == exchange.export_match(source, first)

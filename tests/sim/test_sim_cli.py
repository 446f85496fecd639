"""``kessen sim`` through typer's test runner: run, report, interrupt, resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from kessen.sim import tournament
from kessen.sim.commands import mount
from kessen.store import MatchStore

runner = CliRunner()
app = typer.Typer()
mount(app)
ARGS = ["sim", "--decks", "swarm,tempo", "--players", "random", "-n", "6", "--workers", "1"]


def test_sim_runs_reports_and_resumes_after_an_interrupt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store_target: str
) -> None:
    db = store_target  # an SQLite file, then a PostgreSQL store
    out = tmp_path / "rep"
    args = [*ARGS, "--db", db, "--run", "t1", "--report", str(out), "--quiet"]
    real = tournament.play_batch
    calls = {"n": 0}

    def flaky(specs: list[tournament.GameSpec]) -> list[tournament.GameRecord]:
        calls["n"] += 1
        if calls["n"] > 3:
            raise KeyboardInterrupt
        return real(specs)

    monkeypatch.setattr(tournament, "play_batch", flaky)
    result = runner.invoke(app, args)
    assert result.exit_code == 130, result.output
    assert "--run t1" in result.output and "resume" in result.output
    monkeypatch.setattr(tournament, "play_batch", real)
    with MatchStore(db) as store:
        kept = store.sim_runs()[0]["games"]
    assert 0 < kept < 6

    result = runner.invoke(app, [*args, "--html-replays", "2"])
    assert result.exit_code == 0, result.output
    assert f"{kept} of 6 games done" in result.output
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert data["complete"] and data["played"] == 6 - kept and data["resumed"] == kept
    replays = sorted((out / "replays").glob("*.html"))
    assert len(replays) == 2
    assert 'href="replays/' in (out / "report.html").read_text(encoding="utf-8")
    with MatchStore(db) as store:
        assert store.count() == 6
        assert all(store.check(m.id) is None for m in store.list_matches(source="sim"))


def test_sim_jsonl_journal_without_store_and_bad_input(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    args = [*ARGS, "--no-store", "--journal", str(journal), "--report", str(tmp_path / "r")]
    result = runner.invoke(app, [*args, "--quiet"])
    assert result.exit_code == 0, result.output
    assert len(journal.read_text(encoding="utf-8").splitlines()) == 7
    for bad, message in (
        (["--players", "random,nobody"], "unknown player"),
        (["--decks", "swarm,nonesuch"], "unknown deck"),
    ):
        result = runner.invoke(app, [*ARGS, "--no-store", "--report", str(tmp_path / "x"), *bad])
        assert result.exit_code == 2, (bad, result.output)
        assert message in result.output


@pytest.mark.parametrize(("ruleset", "starters"), [("kobo", 4), ("maken", 4)])
def test_sim_defaults_to_the_rulesets_own_starter_decks(
    tmp_path: Path, ruleset: str, starters: int
) -> None:
    """`kessen sim --ruleset maken --players heuristic --mirror` as a newcomer types it: the
    default decks are the ruleset's own (Maken's characters, not Kōbō's fortress)."""
    out = tmp_path / "report"
    args = ["sim", "--ruleset", ruleset, "--players", "random", "--mirror", "-n", "1"]
    result = CliRunner().invoke(
        app, [*args, "--workers", "1", "--no-store", "--report", str(out), "--quiet"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    decks = {entrant.split("/")[0] for entrant in report["entrants"]}
    assert len(decks) == starters, decks

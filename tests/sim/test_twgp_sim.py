"""TWGP トランプ版 in the simulator: players only, switches, report fields, resume, backends."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from kessen.sim import report
from kessen.sim.backends import InlineBackend, LocalBackend
from kessen.sim.commands import mount
from kessen.sim.facts import TWGP_FACTS_HELP, twgp_facts
from kessen.sim.tournament import (
    MemoryJournal,
    SimError,
    StoreJournal,
    TournamentSpec,
    play_game,
    run,
    uses_decks,
)
from kessen.store import MatchStore
from tests.sim.helpers import identity

runner = CliRunner()
app = typer.Typer()
mount(app)

SPEC = TournamentSpec(
    decks=(), players=("random", "heuristic"), games=3, seed=4, ruleset="twgp", mirror=True
)


def test_players_are_the_entrants_and_configs_are_the_options() -> None:
    assert not uses_decks("twgp") and uses_decks("kobo")
    assert [e.label for e in SPEC.entrants] == ["random", "heuristic"]
    assert SPEC.matchups == [(0, 0), (0, 1), (1, 1)]
    games = SPEC.schedule()
    assert len(games) == 9 and all(g.config == {} for g in games)
    strict = TournamentSpec(
        (), ("heuristic",), 2, ruleset="twgp", mirror=True, options={"strictMatrix05": True}
    )
    assert strict.schedule()[0].config == {"strictMatrix05": True}
    assert TournamentSpec.from_json(strict.to_json()) == strict
    assert "options" not in SPEC.to_json()  # runs without options keep their identity
    SPEC.validate()
    strict.validate()


def test_bad_twgp_specs_are_refused_with_a_clear_message() -> None:
    def refused(**kwargs: Any) -> str:
        spec: dict[str, Any] = {"decks": (), "players": ("heuristic",), "games": 1}
        spec.update(ruleset="twgp", mirror=True, **kwargs)
        with pytest.raises(SimError) as err:
            TournamentSpec(**spec).validate()
        return str(err.value)

    assert "unknown config keys: colour" in refused(options={"colour": "red"})
    assert "strictMatrix05" in refused(options={"colour": "red"})  # the switches are listed
    assert "gridWidth: expected 5 or 3" in refused(options={"gridWidth": 4})
    assert "has no decks" in refused(decks=("swarm",))
    assert "--best-of" in refused(best_of=3)
    assert "--option" in refused(turn_limit=20)
    with pytest.raises(SimError, match="mirror"):
        TournamentSpec((), ("heuristic",), 1, ruleset="twgp")
    with pytest.raises(SimError, match="needs decks"):
        TournamentSpec((), ("random", "heuristic"), 1).validate()  # Kōbō without decks


def test_a_twgp_game_summary_has_turns_first_player_and_facts() -> None:
    spec = SPEC.schedule()[8]  # heuristic against heuristic
    record = play_game(spec)
    assert record.summary == play_game(spec).summary
    (game,) = record.summary["games"]
    state = record.replay().final_state(verify=True)
    public = state.view(None)
    assert game["turns"] == public["turn"] >= 1
    assert game["first"] == public["first_player"] in (0, 1)
    assert game["winner"] == record.summary["winner"] and game["reason"] == "vitals"
    assert "cards" not in game  # TWGP has no per-card statistics
    assert set(game["facts"]) == set(TWGP_FACTS_HELP)
    full = [e.visible(None, everything=True) for e in state.log_events()]
    assert game["facts"] == twgp_facts(full)
    assert game["turns"] == sum(1 for e in full if e["kind"] == "turn")  # turn 1 = first player's
    assert game["facts"]["vitals_lost"] >= 3 and game["facts"]["directs"] >= 1
    assert record.decks is None


def test_a_small_twgp_run_reports_and_resumes(tmp_path: Path) -> None:
    reference = run(SPEC, MemoryJournal(), InlineBackend())
    with MatchStore(tmp_path / "t.sqlite3") as store:
        first = run(SPEC, StoreJournal(store, "twgp", SPEC), InlineBackend(), limit=4)
        assert (first.played, first.complete) == (4, False)
        with LocalBackend(2) as backend:
            second = run(SPEC, StoreJournal(store, "twgp", SPEC), backend)
        assert (second.played, second.resumed, second.complete) == (5, 4, True)
        assert identity(second) == identity(reference)
        assert second.stats == reference.stats
        assert store.count() == 9
        assert all(store.check(s["match_id"]) is None for s in second.summaries)
        html_path, json_path = report.write(second, tmp_path / "out")
    data = json.loads(json_path.read_text(encoding="utf-8"))
    sides = data["stats"]["sides"]
    assert sides["n"] == 9
    counts = [sides[k]["count"] for k in ("first", "second", "draws")]
    assert sum(counts) == 9
    for key in ("first", "second", "draws"):
        assert set(sides[key]) == {"count", "n", "rate", "ci95"}
    assert {"median", "p90"} <= set(sides["turns"]) and sides["turns"]["n"] == 9
    assert data["stats"]["cards"] == {}
    assert set(data["stats"]["facts"]) == set(TWGP_FACTS_HELP)
    assert data["entrants"] == ["random", "heuristic"]
    page = html_path.read_text(encoding="utf-8")
    assert "Sides and draws" in page and "second player wins" in page
    assert "No per-card statistics" in page and "<h2>Cards</h2>" not in page
    assert "first_turn_dig" in page and "single games" in page


def test_kessen_sim_on_twgp_with_an_option_and_resume(tmp_path: Path) -> None:
    db = str(tmp_path / "c.sqlite3")
    out = tmp_path / "rep"
    base = ["sim", "--ruleset", "twgp", "--players", "heuristic", "--mirror", "-n", "4"]
    base += ["--workers", "1", "--quiet"]
    args = [*base, "--db", db, "--run", "strict", "--report", str(out)]
    args += ["--option", "strictMatrix05=true"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "first player wins" in result.output and "draws" in result.output
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert data["spec"]["options"] == {"strictMatrix05": True}
    assert data["spec"]["decks"] == [] and data["stats"]["sides"]["n"] == 4
    with MatchStore(db) as store:
        records = store.list_matches(ruleset="twgp")
        assert len(records) == 4
        assert store.get(records[0].id).config == {"strictMatrix05": True}
    again = runner.invoke(app, args)
    assert again.exit_code == 0 and "4 of 4 games done" in again.output
    listing = runner.invoke(app, ["store", "list", "--db", db])
    assert "(twgp)" in listing.output and "None" not in listing.output
    for bad, message in (
        (["--option", "jokers=maybe"], "jokers: expected true or false"),
        (["--option", "nothing"], "expected KEY=VALUE"),
        (["--decks", "swarm"], "has no decks"),
    ):
        result = runner.invoke(app, [*base, "--no-store", "--report", str(out), *bad])
        assert result.exit_code == 2, (bad, result.output)
        assert message in result.output


@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="Ray is not installed (pip install 'kessen[ray]' or pip install ray)",
)
def test_twgp_on_ray_gives_the_local_results() -> None:
    import ray

    from kessen.sim.backends import RayBackend

    spec = TournamentSpec((), ("heuristic",), 4, seed=11, ruleset="twgp", mirror=True)
    local = run(spec, MemoryJournal(), InlineBackend())
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = run(spec, MemoryJournal(), RayBackend())
    finally:
        ray.shutdown()
    assert on_ray.backend == "ray"
    assert identity(on_ray) == identity(local) and on_ray.stats == local.stats

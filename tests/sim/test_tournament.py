"""Tournaments: seeding, schedule, identical results on every backend, resuming."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kessen.sim.backends import InlineBackend, LocalBackend, make_backend
from kessen.sim.tournament import (
    JsonlJournal,
    MemoryJournal,
    SimError,
    StoreJournal,
    TournamentSpec,
    derive_seed,
    play_game,
    run,
)
from kessen.store import MatchStore
from tests.sim.helpers import identity

SPEC = TournamentSpec(decks=("swarm", "tempo"), players=("random", "heuristic"), games=2, seed=9)


def test_schedule_seats_and_seeds() -> None:
    games = SPEC.schedule()
    assert [e.label for e in SPEC.entrants] == [
        "swarm/random",
        "swarm/heuristic",
        "tempo/random",
        "tempo/heuristic",
    ]
    assert len(SPEC.matchups) == 6 and len(games) == 12
    assert [g.index for g in games] == list(range(12))
    assert all(g.seed == derive_seed(9, g.index) for g in games)
    assert [g.seat_a for g in games[:4]] == [0, 1, 0, 1]
    first, second = games[0], games[1]  # swarm/random vs swarm/heuristic, seats swapped
    assert first.players == ("random", "heuristic") and second.players == ("heuristic", "random")
    assert games[2].config["decks"] == ["swarm", "tempo"]
    assert games[3].config["decks"] == ["tempo", "swarm"]
    assert len(set(g.seed for g in games)) == 12
    other = TournamentSpec(decks=SPEC.decks, players=SPEC.players, games=2, seed=10)
    assert other.schedule()[0].seed != first.seed
    mirror = TournamentSpec(decks=("swarm",), players=("random",), games=1, mirror=True)
    assert mirror.matchups == [(0, 0)]
    assert TournamentSpec.from_json(SPEC.to_json()) == SPEC


def test_bad_specs_are_refused() -> None:
    with pytest.raises(SimError, match="unknown player"):
        TournamentSpec(decks=("swarm",), players=("random", "nobody"), games=1).validate()
    with pytest.raises(SimError, match="deck"):
        TournamentSpec(decks=("swarm", "nonesuch"), players=("random",), games=1).validate()
    with pytest.raises(SimError, match="one entrant"):
        TournamentSpec(decks=("swarm",), players=("random",), games=1)
    with pytest.raises(SimError):
        TournamentSpec(decks=("swarm", "tempo"), players=("random",), games=0)


def test_a_game_depends_on_its_spec_only_and_replays() -> None:
    spec = SPEC.schedule()[3]
    one, two = play_game(spec), play_game(spec)
    assert one.summary == two.summary and one.actions == two.actions
    replay = one.replay()
    assert replay.final_state(verify=True).state_hash() == one.summary["final_hash"]
    assert len(one.events) == len(one.actions) == one.summary["steps"]
    game = one.summary["games"][0]
    assert game["first"] in (0, 1) and game["turns"] >= 1
    assert any(game["cards"][0]["draw"]) and any(game["cards"][1]["draw"])


def test_inline_and_local_processes_give_identical_results() -> None:
    inline = run(SPEC, MemoryJournal(), InlineBackend())
    with LocalBackend(2) as backend:
        local = run(SPEC, MemoryJournal(), backend)
    assert local.backend == "local" and inline.backend == "inline"
    assert identity(local) == identity(inline)
    assert local.stats == inline.stats
    assert local.complete and len(local.summaries) == 12


def test_an_interrupted_run_resumes_without_replaying_finished_games(tmp_path: Path) -> None:
    reference = run(SPEC, MemoryJournal(), InlineBackend())
    with MatchStore(tmp_path / "sim.sqlite3") as store:
        first = run(SPEC, StoreJournal(store, "r1", SPEC), InlineBackend(), limit=5)
        assert (first.played, first.resumed, first.complete) == (5, 0, False)
        assert store.sim_runs()[0]["finished"] is None
        calls: list[int] = []
        second = run(
            SPEC,
            StoreJournal(store, "r1", SPEC),
            InlineBackend(),
            progress=lambda done, total, entry: calls.append(entry["index"]),
        )
        assert (second.played, second.resumed, second.complete) == (7, 5, True)
        assert sorted(calls) == sorted(set(range(12)) - {s["index"] for s in first.summaries})
        assert identity(second) == identity(reference)
        assert store.count() == 12  # every game stored once
        assert store.sim_runs()[0]["finished"] is not None
        for summary in second.summaries[:3]:
            match_id = summary["match_id"]
            assert store.check(match_id) is None
            assert store.get(match_id).meta["sim"]["index"] == summary["index"]
        with pytest.raises(Exception, match="other settings"):
            StoreJournal(store, "r1", TournamentSpec(SPEC.decks, SPEC.players, 3, seed=9))


def test_jsonl_journal_resumes_after_a_line_cut_short(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    reference = run(SPEC, MemoryJournal(), InlineBackend())
    journal = JsonlJournal(path, SPEC)
    run(SPEC, journal, InlineBackend(), limit=4)
    journal.close()
    with path.open("a", encoding="utf-8") as f:
        f.write('{"index": 7, "winn')  # a kill in the middle of a line
    journal = JsonlJournal(path, SPEC)
    assert sorted(journal.done()) == sorted(s["index"] for s in reference.summaries[:4])
    result = run(SPEC, journal, InlineBackend())
    journal.close()
    assert result.played == 8 and identity(result) == identity(reference)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]) == {"spec": SPEC.to_json()} and len(lines) == 13
    with pytest.raises(SimError, match="another tournament"):
        JsonlJournal(path, TournamentSpec(SPEC.decks, SPEC.players, 3))


def test_make_backend() -> None:
    assert isinstance(make_backend(None, 1), InlineBackend)
    backend = make_backend(None, 2)
    assert isinstance(backend, LocalBackend) and backend.workers == 2
    backend.close()

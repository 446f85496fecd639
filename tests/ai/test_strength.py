"""Smoke test of the levels' strength on a few games (the real figures: docs/com-levels.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kessen.ai.tournament import Job, play_match, render_markdown, wilson


def test_wilson_interval() -> None:
    lo, hi = wilson(160, 200)
    assert 0.738 < lo < 0.740 and 0.849 < hi < 0.850
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("level", ["ismcts-easy", "ismcts-normal"])
def test_levels_beat_the_random_player(level: str) -> None:
    """Deterministic (seeded) games on mirror decks: a level wins at least 3 of 4."""
    won = lost = 0
    for index, deck in enumerate(("vanguard", "fortress", "tempo", "swarm")):
        job = Job("kobo", level, "random", index % 2, (deck, deck), 40 + index, 1, 1.0)
        result = play_match(job)
        won += result.games_a
        lost += result.games_b
        assert result.times_a
    assert won >= 3 and won > lost


def test_searched_decision_times_leave_out_the_answers_by_rule() -> None:
    """A search level answers the standby by rule in microseconds; the searched decisions'
    times are kept apart (counted here, not timed), so their mean is not diluted by those.
    A player that never searches (the heuristic COM) has none."""
    from kessen.ai.tournament import MatchResult, Tally

    job = Job("kobo", "ismcts-easy", "heuristic", 0, ("tempo", "tempo"), 5, 1, 1.0)
    result = play_match(job)
    assert result.searched_a and not result.searched_b
    assert len(result.searched_a) < len(result.times_a)  # the standby was answered by rule
    tally = Tally("ismcts-easy", "heuristic")
    tally.add(result)
    summary = tally.summary()
    assert summary["searched_a"]["decisions"] == len(result.searched_a)
    assert summary["searched_b"] == {"decisions": 0}
    assert f"| {summary['searched_a']['mean_s']:.3f} |" in render_markdown([summary])
    mirrored = Tally("heuristic", "ismcts-easy")
    mirrored.add(MatchResult("heuristic", "ismcts-easy", searched_b=list(result.searched_a)))
    assert mirrored.summary()["searched_b"]["decisions"] == len(result.searched_a)


def test_markdown_table_has_one_row_per_matchup() -> None:
    from kessen.ai.tournament import MatchResult, Tally

    tally = Tally("a", "b")
    tally.add(MatchResult("a", "b", games_a=2, games_b=1, match_a=True, times_a=[0.1]))
    text = render_markdown([tally.summary()])
    assert "| a vs b | 3 | 2–1 (0) |" in text


def test_an_observer_sees_every_decision_and_the_end_but_changes_nothing() -> None:
    """``play_match(observe=...)`` reads the true state between decisions only: the match is
    the same as without it, and the observer's last call sees the finished match."""
    from kessen.engine.contract import GameState

    job = Job("kobo", "heuristic", "random", 0, ("tempo", "tempo"), 7, 3, 1.0)
    over: list[bool] = []  # per call: is the match over?

    def observe(state: GameState) -> None:
        over.append(state.pending is None)

    plain = play_match(job)
    watched = play_match(job, observe)
    assert (watched.games_a, watched.games_b, watched.ties) == (
        plain.games_a,
        plain.games_b,
        plain.ties,
    )
    assert len(over) >= len(plain.times_a) + len(plain.times_b) + 1
    assert over[-1] and not any(over[:-1])


def test_start_odds_buckets_the_games_by_first_turn_chance() -> None:
    """The analysis script (bench/kobo_start_odds.py) records one chance per decided game,
    from the left player's side, and buckets the games with their win rate."""
    module = _load_bench("kobo_start_odds")
    left, right = (
        module.play(Job("kobo", "heuristic", "random", seat, ("vanguard", "vanguard"), 11, 3, 1.0))
        for seat in (0, 1)
    )
    # The same deal seats the left player in the other seat: the first game's first player,
    # drawn from the same seed, is the left player in exactly one of the two matches.
    assert left[0].first != right[0].first
    games = left + right
    assert games and all(0.0 <= g.chance <= 1.0 and g.score in (0.0, 0.5, 1.0) for g in games)
    assert {g.deck for g in games} == {"vanguard"}
    rows = module.table([(g.chance, g.score) for g in games])
    assert sum(count for _, count, _ in rows) == len(games)
    # The heuristic COM against random wins most games.
    assert sum(g.score for g in games) > len(games) / 2
    first, second, deck = module.split(games)
    assert first[1] + second[1] == deck[1] == len(games) and deck[0] == "deck vanguard"
    start = module.Start
    assert module.split([start(0.2, 1.0, True, "a"), start(0.7, 0.0, False, "b")]) == [
        ("moved first", 1, 1.0),
        ("moved second", 1, 0.0),
        ("deck a", 1, 1.0),
        ("deck b", 1, 0.0),
    ]
    assert module.table([(0.1, 0.0), (0.5, 1.0), (1.0, 1.0)]) == [
        ("0.00–0.25", 1, 0.0),
        ("0.25–0.40", 0, None),
        ("0.40–0.60", 1, 1.0),
        ("0.60–0.75", 0, None),
        ("0.75–1.00", 1, 1.0),
    ]


def test_start_odds_plays_a_variant_of_strong_variants(monkeypatch: pytest.MonkeyPatch) -> None:
    """``kobo_start_odds.py --variant`` applies bench/strong_variants.py's settings in the
    process that plays (so a probe gets a per-game record), and refuses an unknown one."""
    from kessen.games.kobo import search_worlds

    module = _load_bench("kobo_start_odds")
    monkeypatch.setattr(search_worlds, "PASS_INFERENCE", True)
    job = Job("kobo", "heuristic", "random", 0, ("tempo", "tempo"), 12, 1, 1.0)
    assert module.play(job, "pass-inference=0") == module.play(job)
    assert search_worlds.PASS_INFERENCE is False
    with pytest.raises(ValueError, match="unknown setting"):
        module.play(job, "no-such-setting=1")


def _load_bench(name: str) -> Any:
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).parents[2] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (a dataclass of the script looks itself up there)
    spec.loader.exec_module(module)
    return module


def test_strong_variants_change_only_the_named_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe script (bench/strong_variants.py) changes exactly the settings it is given,
    and refuses an unknown one."""
    from kessen.ai import levels
    from kessen.games.kobo import evaluate, search_worlds

    for name in ("DEEP_TURNS", "EPSILON", "ROUTINE_PROMPTS", "HEURISTIC_PROMPTS"):
        monkeypatch.setattr(evaluate, name, getattr(evaluate, name))
    monkeypatch.setattr(levels, "LEVELS", levels.LEVELS)
    monkeypatch.setattr(search_worlds, "TRAP_MODEL_POWER", search_worlds.TRAP_MODEL_POWER)
    monkeypatch.setattr(search_worlds, "KEY_REVEALS", search_worlds.KEY_REVEALS)
    probe = _load_bench("strong_variants")
    before = {item.key: item.iterations for item in levels.LEVELS}
    probe.apply_variant("committed")
    assert {item.key: item.iterations for item in levels.LEVELS} == before
    probe.apply_variant("iterations=500+turns=3+epsilon=0.2+search=tactics+standby-heuristic")
    assert {item.key: item.iterations for item in levels.LEVELS} == {
        **before,
        "ismcts-strong": 500,
    }
    assert (evaluate.DEEP_TURNS, evaluate.EPSILON) == (3, 0.2)
    assert "tactics" not in evaluate.ROUTINE_PROMPTS and "set" in evaluate.ROUTINE_PROMPTS
    assert "standby" in evaluate.HEURISTIC_PROMPTS
    assert search_worlds.search_hooks(deep=True).observed is search_worlds.observed
    assert search_worlds.search_hooks(deep=False).observed is None
    probe.apply_variant("exploration=0.4+tree-prior=0.5+opponent-prior=2+trap-model=3+prior=0.15")
    assert search_worlds.TRAP_MODEL_POWER == 3.0
    probe.apply_variant("key-reveals=0")
    assert search_worlds.search_hooks(deep=True).observed is None
    strong = levels.level("ismcts-strong").config()
    assert (
        strong.exploration,
        strong.tree_prior_weight,
        strong.opponent_prior_weight,
        strong.prior_weight,
    ) == (0.4, 0.5, 2.0, 0.15)
    assert levels.level("ismcts-normal").config().tree_prior_weight == 0.0
    assert levels.level("ismcts-normal").config().prior_weight == 0.3
    with pytest.raises(ValueError, match="unknown setting"):
        probe.apply_variant("budget=3")
    with pytest.raises(ValueError, match="not a routine prompt"):
        probe.apply_variant("search=chain")


def test_strong_variants_probe_the_plan_the_hand_model_and_the_cheaters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``planned-standby``, ``hand-model``, ``trap-inference``, ``pass-inference`` and
    ``cheater`` change what they name (only the deep model infers traps); ``cheater`` picks
    the tournament's cheating or peeking control as the probed player."""
    from kessen.games.kobo import evaluate, search_worlds, standby

    monkeypatch.setattr(search_worlds, "PLANNED_STANDBY", search_worlds.PLANNED_STANDBY)
    monkeypatch.setattr(search_worlds, "HAND_MODEL_SHARE", search_worlds.HAND_MODEL_SHARE)
    monkeypatch.setattr(search_worlds, "TRAP_INFERENCE", search_worlds.TRAP_INFERENCE)
    monkeypatch.setattr(search_worlds, "PASS_INFERENCE", search_worlds.PASS_INFERENCE)
    probe = _load_bench("strong_variants")
    monkeypatch.setattr(probe, "LEFT", probe.LEFT)
    assert search_worlds.search_hooks(deep=True).routine is standby.routine
    assert search_worlds.search_hooks(deep=True).world_sampler is search_worlds.inferring_sampler
    assert search_worlds.search_hooks(deep=False).world_sampler is search_worlds.world_sampler
    assert search_worlds.TRAP_INFERENCE
    assert search_worlds.PASS_INFERENCE
    probe.apply_variant("planned-standby=0+hand-model=0.5+trap-inference=0+pass-inference=0")
    assert search_worlds.search_hooks(deep=True).routine is evaluate.routine
    assert search_worlds.HAND_MODEL_SHARE == 0.5
    assert not search_worlds.TRAP_INFERENCE and not search_worlds.PASS_INFERENCE
    assert probe.LEFT == "ismcts-strong"
    probe.apply_variant("cheater=true-state")
    assert probe.LEFT == "cheater-ismcts-strong"
    probe.apply_variant("cheater=decks-unknown")
    assert probe.LEFT == "peeker-ismcts-strong"
    with pytest.raises(ValueError, match="true-state or decks-unknown"):
        probe.apply_variant("cheater=half")


def test_strong_variants_worlds_search_each_sampled_world_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``worlds=K`` makes つよい search K worlds sampled from its view, each in a tree of its own
    with a K-th of the budget, every iteration of a search in that one world; other levels keep
    the plain search."""
    from kessen.ai import cheater, levels
    from kessen.ai.ismcts import SearchPlayer, search
    from kessen.engine import registry
    from kessen.games.kobo.state import KoboState

    monkeypatch.setattr(levels, "LEVELS", levels.LEVELS)
    monkeypatch.setattr(levels, "SearchPlayer", SearchPlayer)
    probe = _load_bench("strong_variants")
    monkeypatch.setattr(probe._SampledWorldsPlayer, "worlds", 1)
    probe.apply_variant("iterations=30+worlds=3")
    strong = levels.make_player("kobo", "ismcts-strong", 7)
    assert isinstance(strong, probe._SampledWorldsPlayer)
    normal = levels.make_player("kobo", "ismcts-normal", 8)
    searched: list[tuple[int, list[str]]] = []
    plain = search

    def recording(view: Any, legal: Any, hooks: Any, config: Any, seed: int, sampler: Any) -> Any:
        seen = [json.dumps(sampler(i).view(1 - view["viewer"]), sort_keys=True) for i in (0, 4)]
        searched.append((config.budget.iterations, seen))
        return plain(view, legal, hooks, config, seed, sampler=sampler)

    monkeypatch.setattr(cheater, "search", recording)
    rules = registry.get("kobo")
    state = rules.new_game(rules.default_config, 5)
    assert isinstance(state, KoboState)
    while (pending := state.pending) is not None and state.turn < 4:
        legal = state.legal_actions()
        view = state.view(pending.seat)
        before = len(searched)
        player = strong if pending.seat == 0 else normal
        action = player.choose(view, legal)
        assert action in legal
        assert len(searched) - before in ((0, 3) if pending.seat == 0 else (0,))
        if len(searched) > before:  # the tournament counts it as a searched decision
            assert getattr(player, "last_result", None) is not None
        state.apply(action)
    assert searched, "no decision of the first turns was searched"
    assert all(budget == 10 and seen[0] == seen[1] for budget, seen in searched)


def test_dealt_jobs_pick_the_tournament_pairs_and_filter_by_deck() -> None:
    """The probes' deal options select the tournament's own pairs, and ``--deck`` keeps the
    pairs dealt that deck only (both matches of each)."""
    import argparse

    from kessen.ai import tournament

    parser = argparse.ArgumentParser()
    tournament.add_deal_arguments(parser)
    every = tournament.dealt_jobs("a", "b", parser.parse_args(["--pairs", "6", "--start", "2"]))
    assert every == [
        job
        for index in range(2, 8)
        for job in tournament.pair_jobs("kobo", "a", "b", index, 3, 0.0, 2026, True)
    ]
    deck = every[0].decks[0]
    chosen = tournament.dealt_jobs(
        "a", "b", parser.parse_args(["--pairs", "6", "--start", "2", "--deck", deck])
    )
    assert chosen == [job for job in every if job.decks[0] == deck]
    assert chosen and len(chosen) % 2 == 0


def test_paired_gap_cuts_records_into_matches_and_pairs_the_same_deals() -> None:
    """bench/paired_gap.py cuts a record into best-of-three matches at the second win, pairs the
    two matches of each deal, and gives the gap with an interval that holds it; records of
    different deals, or one cut inside a match, are refused."""
    module = _load_bench("paired_gap")

    def game(score: float, first: bool, deck: str = "tempo") -> dict[str, Any]:
        return {"chance": 0.5, "score": score, "first": first, "deck": deck}

    honest = [game(1, True), game(0, False), game(0.5, True), game(1, False)]  # 2–1 with a tie
    honest += [game(0, False), game(0, True)]  # 0–2
    cheater = [game(1, True), game(1, False), game(1, False), game(0, True), game(1, False)]
    pairs_a, pairs_b = module.pairs_of(honest), module.pairs_of(cheater)
    assert [len(p) for p in pairs_a] == [6] and [len(p) for p in pairs_b] == [5]
    gap, low, high = module.paired_gap(pairs_a, pairs_b, 200, 1)
    assert gap == pytest.approx(100 * (4 / 5 - 2.5 / 6))
    assert low <= gap <= high
    with pytest.raises(ValueError, match="inside a match"):
        module.pairs_of(honest[:-1])
    with pytest.raises(ValueError, match="same deals"):
        module.paired_gap(
            pairs_a, module.pairs_of([game(1, False, "swarm")] * 2 + cheater[2:]), 10, 1
        )


def test_paired_gap_compares_the_first_pairs_of_a_longer_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--first N`` pairs the first N deals of two records that hold different numbers of
    pairs (a probe of 67 pairs against a record of 100); without it they are refused."""
    module = _load_bench("paired_gap")

    def game(score: float, first: bool, deck: str) -> dict[str, Any]:
        return {"chance": 0.5, "score": score, "first": first, "deck": deck}

    pair_one = [game(1, True, "tempo"), game(1, False, "tempo")]  # 2–0
    pair_one += [game(0, False, "tempo"), game(0, True, "tempo")]  # 0–2
    pair_two = [game(1, True, "swarm"), game(1, False, "swarm")] * 2
    longer, shorter = tmp_path / "a.json", tmp_path / "b.json"
    longer.write_text(json.dumps(pair_one + pair_two), encoding="utf-8")
    shorter.write_text(json.dumps([game(1, True, "tempo")] * 4), encoding="utf-8")
    with pytest.raises(ValueError, match="2 and 1 pairs"):
        module.main([str(longer), str(shorter), "--rounds", "10"])
    assert module.main([str(longer), str(shorter), "--rounds", "10", "--first", "1"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["pairs"] == 1 and line["a"] == {"games": 4, "rate": 50.0}
    assert line["gap"] == 50.0
    with pytest.raises(SystemExit):
        module.main([str(longer), str(shorter), "--first", "0"])
    assert "--first must be at least 1 (got 0)" in capsys.readouterr().err

"""The deep Kōbō model's value network: its inputs, its arithmetic, and that it reads no more
than the deciding seat's view."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kessen.ai.ismcts import Budget, SearchConfig, search
from kessen.engine.contract import GameState
from kessen.games.kobo import evaluate as judge
from kessen.games.kobo import search_worlds, value_model
from kessen.games.kobo.state import KoboState
from tests.ai.test_deep_model import _positions
from tests.ai.test_search import _mid_game

NET = json.loads(value_model.WEIGHTS_PATH.read_text(encoding="utf-8"))


def _dense_chance(mover: dict[str, float], other: dict[str, float]) -> float:
    """The network written out plainly: every input, every hidden unit, from the JSON."""
    names = NET["features"]
    inputs = [mover.get(k, 0.0) for k in names] + [other.get(k, 0.0) for k in names]
    hidden = [
        max(
            0.0,
            bias + sum(x * row[j] for x, row in zip(inputs, NET["hidden_weights"], strict=True)),
        )
        for j, bias in enumerate(NET["hidden_bias"])
    ]
    logit = NET["out_bias"] + sum(h * w for h, w in zip(hidden, NET["out_weights"], strict=True))
    return 1 / (1 + math.exp(-logit))


def test_the_network_reads_the_curves_features_for_the_mover_then_the_other_seat() -> None:
    """The fast sparse pass equals the plain one over :func:`evaluate.features`, seen from the
    seat to move (seat 0's chance is the complement when seat 1 moves)."""
    assert tuple(k for k in judge.FITTED_WEIGHTS if k != "tempo") == value_model.FEATURES
    chances = []
    for state in _positions(40):
        a, b = judge.features(state, 0), judge.features(state, 1)
        mover, other = (a, b) if state.turn_player == 0 else (b, a)
        plain = _dense_chance(mover, other)
        expected = plain if state.turn_player == 0 else 1 - plain
        assert value_model.net_odds(state) == pytest.approx(expected, abs=1e-9)
        chances.append(expected)
    assert min(chances) < 0.3 and max(chances) > 0.7  # it tells positions apart


def test_a_card_the_network_never_saw_counts_as_an_even_share_of_its_kind() -> None:
    traps = [i for name, i in value_model._INDEX.items() if name.startswith("trap:")]
    shares = value_model.card_inputs("trap", "no-such-trap")
    assert [i for i, _ in shares] == traps
    assert sum(share for _, share in shares) == pytest.approx(1.0)
    assert value_model.card_inputs("tac", "weaken") == ((value_model._INDEX["tac:weaken"], 1.0),)


def _leaf_inputs(
    state: KoboState, monkeypatch: pytest.MonkeyPatch
) -> list[tuple[tuple[tuple[int, float], ...], ...]]:
    """Every input the value network is given in one deep search from ``state``'s deciding
    seat's view (the search is handed the view only, as every player is)."""
    monkeypatch.setattr(judge, "VALUE_NET", True)
    seen: list[tuple[tuple[tuple[int, float], ...], ...]] = []
    hooks = search_worlds.search_hooks(deep=True)
    evaluate: Callable[[GameState], float] = hooks.evaluate

    def recording(leaf: GameState) -> float:
        assert isinstance(leaf, KoboState)
        seen.append(tuple(tuple(sorted(value_model.seat_inputs(leaf, s).items())) for s in (0, 1)))
        return evaluate(leaf)

    assert state.pending is not None
    seat = state.pending.seat
    search(
        state.view(seat),
        state.legal_actions(),
        dataclasses.replace(hooks, evaluate=recording),
        SearchConfig(Budget(40), settle=False),
        seed=17,
    )
    return seen


@pytest.mark.parametrize("seed", range(3))
def test_the_networks_inputs_come_from_the_view_alone(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Swap every card hidden from the deciding seat for another consistent one (the ruleset's
    own resampler): the view stays the same, and so does every input the network is given in
    a whole search, although the swapped truth itself gives the network other inputs."""
    truth = _mid_game(seed)
    assert truth.pending is not None
    seat = truth.pending.seat
    other = truth.resample_hidden(seat, 1000 + seed)
    assert json.dumps(other.view(seat), sort_keys=True) == json.dumps(
        truth.view(seat), sort_keys=True
    )
    assert value_model.seat_inputs(other, 1 - seat) != value_model.seat_inputs(truth, 1 - seat)
    leaves = _leaf_inputs(truth, monkeypatch)
    assert len(leaves) == 40
    assert _leaf_inputs(other, monkeypatch) == leaves


def test_the_probe_setting_switches_the_deep_model_back_to_the_curve(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``strong_variants.py value-net=0`` gives the earlier measurements' judge, ``=1`` the
    network (the committed one)."""
    from tests.ai.test_strength import _load_bench

    monkeypatch.setattr(judge, "VALUE_NET", judge.VALUE_NET)
    assert judge.VALUE_NET
    probe = _load_bench("strong_variants")
    states = _positions(10)
    probe.apply_variant("value-net=0")
    assert [judge.deep_evaluate(s) for s in states] == [judge.fitted_odds(s) for s in states]
    probe.apply_variant("value-net=1")
    assert [judge.deep_evaluate(s) for s in states] == [value_model.net_odds(s) for s in states]
    assert any(value_model.net_odds(s) != judge.fitted_odds(s) for s in states)


def _screened_game(monkeypatch: pytest.MonkeyPatch, seed: int) -> tuple[Any, KoboState, list[int]]:
    """``bench/standby_screen.py`` loaded, a new Kōbō game of ``seed``, and the list that
    grows by one at each judgement of the value network (skips on the compiled build: the
    screen subclasses the plan's class)."""
    from kessen.engine import registry
    from tests.ai.test_strength import _load_bench
    from tests.test_compiled import running_compiled

    if running_compiled():
        pytest.skip("the screen subclasses the plan's class, so it runs on the sources only")
    screen = _load_bench("standby_screen")
    rules = registry.get("kobo")
    state = rules.new_game(rules.default_config, seed)
    assert isinstance(state, KoboState)
    calls: list[int] = []
    judged = value_model.net_odds

    def counting(world: KoboState) -> float:
        calls.append(1)
        return judged(world)

    monkeypatch.setattr(value_model, "net_odds", counting)
    return screen, state, calls


def test_the_screened_tactics_probe_asks_the_network_for_the_first_player_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``standby_screen.py plan+net-tactics=first``: at the first player's tactics prompt the
    probe takes a legal card by the network's judgement; the second player keeps the plan's."""
    from kessen.games.kobo.standby import PlannedStandby

    screen, state, calls = _screened_game(monkeypatch, 21)
    asked: dict[str, bool] = {}
    while (pending := state.pending) is not None and state.turn == 0:
        legal = state.legal_actions()
        view = state.view(pending.seat)
        probe = screen._player("plan+net-tactics=first", 5)
        before = len(calls)
        choice = probe.choose(view, legal)
        assert choice in legal
        if pending.prompt == "tactics" and len(legal) > 1:
            first = pending.seat == state.first_player
            plan = PlannedStandby(5).choose(view, legal)
            asked["first" if first else "second"] = True
            assert (len(calls) > before) == first
            if not first:
                assert choice == plan
        state.apply(choice)
    assert asked == {"first": True, "second": True}


def test_the_searched_standby_probe_tries_the_first_players_main_standby_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``standby_screen.py plan+mc-standby=first+net-worlds=2``: each main-standby choice of
    the first player is judged by the network in the sampled worlds (at most one judgement per
    world and legal choice) and the probe answers a legal one; the second player, and the first
    player's tactics hand, keep the plan's answers."""
    from kessen.games.kobo.standby import PlannedStandby

    screen, state, calls = _screened_game(monkeypatch, 33)
    probe = screen._player("plan+mc-standby=first+net-worlds=2", 5)
    searched = kept = 0
    while (pending := state.pending) is not None and state.turn == 0:
        legal = state.legal_actions()
        view = state.view(pending.seat)
        before = len(calls)
        choice = probe.choose(view, legal)
        assert choice in legal
        asked = len(calls) - before
        main = pending.prompt in probe.PROMPTS and len(legal) > 1
        if main and pending.seat == state.first_player:
            assert 0 < asked <= 2 * len(legal)
            searched += 1
        else:
            assert asked == 0
            assert choice == PlannedStandby(5).choose(view, legal)
            kept += 1
        state.apply(choice)
    assert searched > 0 and kept > 0


def test_the_training_matches_can_give_seats_the_plans_standby() -> None:
    """``fit_kobo_value_net.py --plan-share X`` plays the same seeded self-play matches with
    each seat's standby the plan's with chance X: at 0 the very matches of before; at 1 other
    positions (the plan sets other traps and takes another tactics hand), labelled the same way."""
    from tests.ai.test_strength import _load_bench

    fit = _load_bench("fit_kobo_eval")
    seeds = range(1_000_000, 1_000_003)
    plain = [fit.play(seed) for seed in seeds]
    assert plain == [fit.play(seed, plan_share=0.0) for seed in seeds]
    planned = [fit.play(seed, plan_share=1.0) for seed in seeds]
    assert all(rows for rows in planned) and planned != plain
    for rows in planned:
        for seat0, seat1, mover, winner in rows:
            assert mover in (0, 1) and winner in (0, 1) and seat0 and seat1


def test_search_self_play_positions_are_written_resumed_and_read_back(tmp_path: Path) -> None:
    """``kobo_selfplay.py`` plays matches of a search level against itself and appends each
    match's labelled positions as a line; a second run skips the seeds already written; and
    ``fit_kobo_value_net.py --extra`` reads the very rows back, split by match."""
    from tests.ai.test_strength import _load_bench

    selfplay = _load_bench("kobo_selfplay")
    out = tmp_path / "strong.jsonl"
    args = ["--level", "ismcts-strong=12", "--matches", "2", "--seed", "31", "--workers", "1"]
    assert selfplay.main([*args, "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert [json.loads(line)["seed"] for line in lines] == [31, 32]
    assert selfplay.main([*args, "--matches", "3", "--out", str(out)]) == 0
    assert [json.loads(line)["seed"] for line in out.read_text().splitlines()] == [31, 32, 33]
    fit = _load_bench("fit_kobo_value_net")
    matches = fit.read_extra(out)
    assert len(matches) == 3 and all(matches)
    assert matches[0] == selfplay.fit_kobo_eval.play(31, level="ismcts-strong=12")
    heuristic = selfplay.fit_kobo_eval.play(31)
    assert matches[0] != heuristic  # the search's own play, not the heuristic COM's
    with pytest.raises(ValueError, match="plan_share"):
        selfplay.fit_kobo_eval.play(31, plan_share=0.5, level="ismcts-strong=12")
    train, test = fit.held_out(matches)
    assert sorted(map(repr, train + test)) == sorted(repr(r) for m in matches for r in m)

"""The search COM on TWGP: worlds rebuilt from a view, honest decisions, whole games to the end."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest

from kessen.ai.ismcts import Budget, SearchConfig, SearchPlayer, hooks_for
from kessen.ai.levels import LEVELS
from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.engine.players import Player, RandomPlayer, play_out
from kessen.games.twgp.state import ASIDE, HAND, PILE, TwgpState
from kessen.games.twgp.worlds import (
    evaluate,
    routine,
    world_from_view,
    world_sampler,
)
from tests.twgp.harness import Side, U, board, play
from tests.twgp.suite import CONFIGS

#: Prompts the search decides (the others are answered by rule).
SEARCHED = {"build_window", "battle_window", "response", "damage"}


def _dump(view: Json) -> str:
    return json.dumps(view, sort_keys=True, ensure_ascii=False)


def _mid_game(seed: int, turn: int = 3) -> TwgpState:
    """A state at a searched decision with a choice, reached by seeded mixed play."""
    rules = registry.get("twgp")
    chooser = random.Random(seed)
    heuristic = {s: rules.players["heuristic"](seed + s) for s in (0, 1)}
    while True:
        state = rules.new_game(rules.default_config, chooser.randrange(2**31))
        assert isinstance(state, TwgpState)
        while state.pending is not None:
            seat = state.pending.seat
            legal = state.legal_actions()
            if state.turn >= turn and state.pending.prompt in SEARCHED and len(legal) > 1:
                return state
            if chooser.random() < 0.5:
                action = heuristic[seat].choose(state.view(seat), legal)
            else:
                action = legal[chooser.randrange(len(legal))]
            state.apply(action)


def _player(iterations: int = 40, seed: int = 11) -> SearchPlayer:
    return SearchPlayer("test", hooks_for("twgp"), SearchConfig(Budget(iterations), 0.25), seed)


def _hidden(state: GameState, seat: int) -> list[int]:
    """The opponent's hand, cards set aside and pile (cards ``seat`` cannot see)."""
    assert isinstance(state, TwgpState)
    opp = 1 - seat
    hand, aside, pile = (sorted(state.zone(opp, z)) for z in (HAND, ASIDE, PILE))
    return [*hand, -1, *aside, -1, *pile]


# --- (a) honesty -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_honesty_same_view_same_decision(seed: int) -> None:
    """Two true states that look the same from COM's seat make COM decide identically."""
    a = _mid_game(seed)
    assert a.pending is not None
    seat = a.pending.seat
    b = a.resample_hidden(seat, 1000 + seed)
    assert b.state_hash() != a.state_hash()  # the truths differ ...
    assert _hidden(b, seat) != _hidden(a, seat)
    assert _dump(b.view(seat)) == _dump(a.view(seat))  # ... but look the same from COM's seat
    assert b.legal_actions() == a.legal_actions()
    player_a, player_b = _player(), _player()
    choice_a = player_a.choose(a.view(seat), a.legal_actions())
    choice_b = player_b.choose(b.view(seat), b.legal_actions())
    assert choice_a == choice_b
    assert player_a.last_explanation == player_b.last_explanation
    assert player_b.last_result is not None and player_b.last_result.iterations == 40
    # COM does not reconstruct the truth: its sampled worlds differ from both true states.
    sample = world_sampler(a.view(seat), 5)
    worlds = [sample(i) for i in range(10)]
    truths = {a.state_hash(), b.state_hash()}
    assert not truths & {w.state_hash() for w in worlds}
    assert any(_hidden(w, seat) != _hidden(a, seat) for w in worlds)


def test_choices_are_reproducible_with_a_seed() -> None:
    state = _mid_game(7)
    assert state.pending is not None
    view, legal = state.view(state.pending.seat), state.legal_actions()
    first = [_player(seed=s).choose(view, legal) for s in (1, 2, 3)]
    again = [_player(seed=s).choose(view, legal) for s in (1, 2, 3)]
    assert first == again


# --- (b) worlds rebuilt from a view ------------------------------------------------------------


def _walk(config: Json, seed: int, full_every: int) -> int:
    """Rebuild a world at every decision of one game; return the decisions checked."""
    rules = registry.get("twgp")
    state = rules.new_game({**rules.default_config, **config}, seed)
    chooser = random.Random(seed)
    heuristic = {s: rules.players["heuristic"](seed + s) for s in (0, 1)}
    mix = chooser.random()
    steps = 0
    while state.pending is not None:
        seat = state.pending.seat
        view = state.view(seat)
        world = world_from_view(view, chooser.randrange(2**32), keep_log=True)
        world.audit()  # every card in exactly one place, owned by its seat
        assert _dump(world.view(seat)) == _dump(view)
        assert world.legal_actions() == state.legal_actions()
        # The world plays on legally: a few steps, or to the end now and then.
        for _ in range(10_000 if steps % full_every == 0 else 8):
            if world.pending is None:
                assert world.outcome is not None
                break
            options = world.legal_actions()
            assert options
            world.apply(options[chooser.randrange(len(options))])
        world.audit()
        legal = state.legal_actions()
        if chooser.random() < mix:
            action = heuristic[seat].choose(view, legal)
        else:
            action = legal[chooser.randrange(len(legal))]
        state.apply(action)
        steps += 1
    return steps


@pytest.mark.parametrize(("label", "config"), CONFIGS[2:], ids=[c[0] for c in CONFIGS[2:]])
def test_world_from_view_matches_the_view_at_every_decision(label: str, config: Json) -> None:
    """At every decision of seeded games, the rebuilt world looks the same and plays on."""
    del label
    steps = sum(_walk(config, 40 + index, full_every=40) for index in range(3))
    assert steps > 150


def _same_world(state: TwgpState, seed: int = 0) -> None:
    """The world rebuilt from the deciding seat's view looks the same and plays to the end."""
    assert state.pending is not None
    seat = state.pending.seat
    view = state.view(seat)
    world = world_from_view(view, seed, keep_log=True)
    world.audit()
    assert _dump(world.view(seat)) == _dump(view)
    assert world.legal_actions() == state.legal_actions()
    chooser = random.Random(seed)
    while world.pending is not None:
        options = world.legal_actions()
        world.apply(options[chooser.randrange(len(options))])
    assert world.outcome is not None


def test_rare_decisions_are_rebuilt_too() -> None:
    """Weapon caches over a two-vital loss, the vital-effect choice, a cancelled attack."""
    cache = {"weaponCache": True}
    s = board(
        Side(battle=["s6"], surge=["c4", "c5", "c6", "c7", "c8", "c9"]),
        Side(battle=[U("h3", weapons=["hj"])]),
        config=cache,
    )
    seen: list[str] = []
    actions = ("battle", "surge-assault 1 1 2", "accept", "keep-weapons", "flip 1", "flip 2")
    for action in actions:
        _same_world(s)
        assert s.pending is not None
        seen.append(s.pending.prompt)
        play(s, action)
    _same_world(s)
    assert s.pending is not None
    seen.append(s.pending.prompt)
    assert seen == [
        "build_window",
        "battle_window",
        "response",
        "cache",
        "vital",
        "vital",
        "effect",
    ]
    blast = board(
        Side(battle=[U("s6", weapons=["sj"])], surge=["c4", "c5", "c6"]),
        Side(battle=["h9", U("h8", pose="gb", gb_turn=1)], hand=["ha", "h2", "h3", "d2"]),
        turn=2,
        config=cache,
    )
    play(blast, "battle", "surge-assault 1 1 1", "grid-blast 2")
    assert blast.pending is not None and blast.pending.prompt == "cache"
    _same_world(blast)


def test_sampled_worlds_match_the_view_and_differ_from_the_truth() -> None:
    state = _mid_game(3, turn=4)
    assert state.pending is not None
    seat = state.pending.seat
    sample = world_sampler(state.view(seat), 5)
    worlds = [sample(i) for i in range(20)]
    truth = state.state_hash()
    assert all(w.state_hash() != truth for w in worlds)
    assert len({w.state_hash() for w in worlds}) > 10
    # Search worlds carry no log, nor what a view reads from it: the record of the last fight
    # and the option previews (whose basis names the fight's entries).
    from_log: Json = {"log": [], "resolution": None, "previews": None}
    truth_view = state.view(seat) | from_log
    for world in worlds:
        world.audit()
        assert _dump(world.view(seat) | from_log) == _dump(truth_view)
        assert world.legal_actions() == state.legal_actions()


def test_a_view_of_another_seat_is_refused() -> None:
    state = _mid_game(1)
    assert state.pending is not None
    with pytest.raises(ValueError):
        world_from_view(state.view(1 - state.pending.seat), 1)
    with pytest.raises(ValueError):
        world_from_view(state.view(None), 1)


# --- evaluation and routine answers ------------------------------------------------------------


def test_evaluation_is_a_probability_and_scores_a_finished_game() -> None:
    rules = registry.get("twgp")
    state = rules.new_game(rules.default_config, 4)
    values: list[float] = []
    play_out(
        state,
        {0: rules.players["heuristic"](1), 1: rules.players["random"](2)},
        on_step=lambda s, _seat, _a: values.append(evaluate(s)),
    )
    assert all(0.0 <= v <= 1.0 for v in values)
    outcome = state.outcome
    assert outcome is not None
    expected = 0.5 if outcome.winner is None else 1.0 - outcome.winner
    assert evaluate(state) == expected


def test_a_reload_in_progress_is_rebuilt_and_left_to_the_heuristic() -> None:
    """The search decides whether to reload; the reload's own prompt is a routine answer,
    and the world rebuilt there has the same view and legal actions as the truth."""
    s = board(Side(battle=["s5"]), Side(hand=["h9", "h8"], pile=["h5", "h6", "h7"]))
    play(s, "battle", "direct 1", "accept", "flip 1")
    assert s.pending is not None and s.pending.prompt == "damage"
    assert routine(s.view(1), s.legal_actions()) is None  # the search decides
    play(s, "reload h9")
    assert s.pending is not None and s.pending.prompt == "damage_reload"
    view, legal = s.view(1), s.legal_actions()
    world = world_from_view(view, 3, keep_log=True)
    assert _dump(world.view(1)) == _dump(view)
    assert world.legal_actions() == legal
    assert routine(view, legal) == Action.of("reload-take", 1)


# --- (c) whole games ---------------------------------------------------------------------------


class _Checked:
    """Wraps a player and checks each of its answers is legal."""

    name = "checked"

    def __init__(self, inner: SearchPlayer) -> None:
        self.inner = inner
        self.seen: list[Action] = []

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        action = self.inner.choose(view, legal)
        assert action in legal
        self.seen.append(action)
        return action


@pytest.mark.parametrize("seed", range(3))
def test_search_plays_whole_games_against_random(seed: int) -> None:
    rules = registry.get("twgp")
    state = rules.new_game(rules.default_config, seed)
    checked = _Checked(_player(12, seed))
    play_out(state, {seed % 2: checked, 1 - seed % 2: RandomPlayer(seed)})
    assert state.outcome is not None and state.outcome.reason != "turn_limit"
    assert checked.seen


def test_every_level_is_registered_and_plays_a_game() -> None:
    rules = registry.get("twgp")
    assert {"random", "heuristic"} | {x.key for x in LEVELS} <= set(rules.players)
    state = rules.new_game({**rules.default_config, "gridWidth": 3}, 9)
    players = {0: rules.players["ismcts-easy"](1), 1: rules.players["heuristic"](2)}
    play_out(state, players)
    assert state.outcome is not None


def test_whole_games_replay_identically() -> None:
    rules = registry.get("twgp")

    def hashes() -> list[str]:
        state = rules.new_game(rules.default_config, 21)
        out: list[str] = []
        players: dict[int, Player] = {0: _player(12, seed=1), 1: RandomPlayer(2)}
        play_out(state, players, on_step=lambda s, _seat, _a: out.append(s.state_hash()))
        return out

    assert hashes() == hashes()


def test_the_tournament_plays_twgp_games() -> None:
    """``kessen tournament --ruleset twgp``: one game a match, counted from the outcome."""
    from kessen.ai.tournament import Job, play_match

    result = play_match(Job("twgp", "ismcts-easy", "random", 1, ("", ""), 5, 1, 0.0))
    assert result.games_a + result.games_b + result.ties == 1
    assert result.times_a and result.times_b


def test_a_position_grows_drawn_as_the_quiet_turns_run_out() -> None:
    """``drawish`` (the contempt hook): 0 with many quiet turns left, rising to 1 at the
    draw; the leaf guess fades towards one half alike; a finished game is all or nothing."""
    from kessen.games.twgp.worlds import QUIET_HORIZON, drawish

    rules = registry.get("twgp")
    state = rules.new_game(rules.default_config, 4)
    assert isinstance(state, TwgpState)
    players = {0: rules.players["heuristic"](1), 1: rules.players["heuristic"](2)}
    while state.phase == 0 and state.pending is not None:  # past the build
        seat = state.pending.seat
        state.apply(players[seat].choose(state.decision_view(seat), state.legal_actions()))
    limit = state.config.quiet_turns
    shares, leads = [], []
    for quiet in range(limit + 1):
        state.quiet = quiet
        shares.append(drawish(state))
        leads.append(abs(evaluate(state) - 0.5))
    assert shares[: limit - QUIET_HORIZON + 1] == [0.0] * (limit - QUIET_HORIZON + 1)
    assert shares == sorted(shares) and shares[-1] == 1.0
    assert leads == sorted(leads, reverse=True) and leads[-1] == 0.0
    assert leads[0] > 0.0
    state.result = (-1, "quiet")
    assert drawish(state) == 1.0
    state.result = (0, "vitals")
    assert drawish(state) == 0.0


def test_the_strongest_level_rolls_out_two_turns() -> None:
    """つよい's hooks (``deep``) play two new turns in a rollout, the others one; both stop at a
    turn's start (or the game's end) and leave the build to the evaluation."""
    from kessen.games.twgp.worlds import deep_rollout, rollout

    assert hooks_for("twgp", deep=True).rollout is deep_rollout
    assert hooks_for("twgp").rollout is rollout
    rules = registry.get("twgp")
    checked = 0
    for seed in range(6):
        state = rules.new_game(rules.default_config, seed)
        assert isinstance(state, TwgpState)
        players = {0: rules.players["heuristic"](1), 1: rules.players["heuristic"](2)}
        while state.pending is not None and state.turn < 3:
            seat = state.pending.seat
            state.apply(players[seat].choose(state.decision_view(seat), state.legal_actions()))
        if state.pending is None:
            continue
        start = state.turn
        short, deep = state.clone(), state.clone()
        rollout(short, random.Random(seed))
        deep_rollout(deep, random.Random(seed))
        assert short.result is not None or short.turn == start + 1
        assert deep.result is not None or deep.turn == start + 2
        checked += 1
    assert checked >= 3

"""The search COM: honest (decides from its view only), deterministic, within budget, legal."""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Sequence

import pytest

from kessen.ai.ismcts import (
    Budget,
    SearchConfig,
    SearchHooks,
    SearchPlayer,
    SearchResult,
    hooks_for,
    search,
)
from kessen.ai.levels import LEVELS, factory, level, player_factories
from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.engine.players import Player, RandomPlayer, play_out
from kessen.games.kobo.search_worlds import world_sampler
from kessen.games.kobo.state import KoboState

EXCHANGE = {"turn", "declare", "chain", "target"}


def _mid_game(seed: int, prompts: set[str] = EXCHANGE, turn: int = 3) -> KoboState:
    """A state at an exchange decision with a choice, reached by seeded random play."""
    rules = registry.get("kobo")
    chooser = random.Random(seed)
    while True:
        state = rules.new_game(rules.default_config, chooser.randrange(2**31))
        assert isinstance(state, KoboState)
        while state.pending is not None:
            legal = state.legal_actions()
            if state.turn >= turn and state.pending.prompt in prompts and len(legal) > 1:
                return state
            state.apply(legal[chooser.randrange(len(legal))])


def _player(iterations: int = 60, seed: int = 11, deep: bool = False) -> SearchPlayer:
    hooks = hooks_for("kobo", deep=deep)
    return SearchPlayer("test", hooks, SearchConfig(Budget(iterations)), seed)


@pytest.mark.parametrize("deep", [False, True], ids=["standard", "deep"])
@pytest.mark.parametrize("seed", range(4))
def test_honesty_same_view_same_decision(seed: int, deep: bool) -> None:
    """Two true states that look the same from COM's seat make COM decide identically
    (with either model: the standard one and the strongest level's deep one)."""
    a = _mid_game(seed)
    assert a.pending is not None
    seat = a.pending.seat
    b = a.resample_hidden(seat, 1000 + seed)
    assert b.state_hash() != a.state_hash()  # the truths differ ...
    assert b.view(seat) == a.view(seat)  # ... but look the same from COM's seat
    choice_a = _player(deep=deep).choose(a.view(seat), a.legal_actions())
    player_b = _player(deep=deep)
    choice_b = player_b.choose(b.view(seat), b.legal_actions())
    assert choice_a == choice_b
    # COM does not reconstruct the truth: its sampled worlds differ from both true states.
    sample = world_sampler(a.view(seat), 5)
    hidden = {a.state_hash(), b.state_hash()}
    worlds = [sample(i) for i in range(10)]
    assert not hidden & {w.state_hash() for w in worlds}
    opp = 1 - seat

    def hidden_cards(state: GameState) -> list[str]:
        assert isinstance(state, KoboState)
        return sorted(state.defs[c].slug for c in state.zone(opp, 3))  # tactics hand

    assert any(hidden_cards(w) != hidden_cards(a) for w in worlds)
    assert player_b.last_explanation
    assert all(set(item) >= {"action", "visits", "value"} for item in player_b.last_explanation)


def test_choices_are_reproducible_with_a_seed() -> None:
    state = _mid_game(7)
    assert state.pending is not None
    view, legal = state.view(state.pending.seat), state.legal_actions()
    first = [_player(seed=s).choose(view, legal) for s in (1, 2, 3)]
    again = [_player(seed=s).choose(view, legal) for s in (1, 2, 3)]
    assert first == again


def test_whole_matches_replay_identically() -> None:
    rules = registry.get("kobo")

    def hashes() -> list[str]:
        state = rules.new_game({**rules.default_config, "best_of": 1}, 21)
        out: list[str] = []
        players: dict[int, Player] = {0: _player(30, seed=1), 1: RandomPlayer(2)}
        play_out(state, players, on_step=lambda s, _seat, _a: out.append(s.state_hash()))
        return out

    assert hashes() == hashes()


def test_iteration_budget_is_exact_and_time_budget_is_respected() -> None:
    state = _mid_game(3)
    assert state.pending is not None
    view, legal = state.view(state.pending.seat), state.legal_actions()
    hooks = hooks_for("kobo")
    result = search(view, legal, hooks, SearchConfig(Budget(37), settle=False), seed=1)
    assert result.iterations == 37
    start = time.perf_counter()
    timed = search(view, legal, hooks, SearchConfig(Budget(None, 0.3)), seed=1)
    assert time.perf_counter() - start < 0.3 + 0.25
    assert timed.iterations > 0
    assert sum(c.visits for c in timed.candidates) == timed.iterations
    assert result.action in legal and timed.action in legal


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


def test_only_legal_actions_over_random_games() -> None:
    rules = registry.get("kobo")
    for seed in range(2):
        state = rules.new_game({**rules.default_config, "best_of": 1}, seed)
        checked = _Checked(_player(12, seed))
        play_out(state, {0: checked, 1: RandomPlayer(seed)})
        assert state.outcome is not None and checked.seen


def test_levels_are_ordered_and_registrable() -> None:
    assert [x.key for x in LEVELS] == ["ismcts-easy", "ismcts-normal", "ismcts-strong"]
    budgets = [x.iterations for x in LEVELS]
    assert budgets == sorted(budgets)
    assert level("ismcts-strong").seconds < 3.0
    factories = player_factories("kobo")
    assert list(factories) == [x.key for x in LEVELS]
    player = factory("kobo", "ismcts-easy")(5)
    assert player.name == "ismcts-easy"
    with pytest.raises(KeyError):
        level("nope")


def test_tree_prior_is_asked_once_per_node_and_only_when_weighted() -> None:
    """``tree_prior_weight`` asks the ruleset's state prior below the root, once per node it
    visits as a decision; at weight 0 the prior is never asked and the search is unchanged."""
    state = _mid_game(5)
    assert state.pending is not None
    view, legal = state.view(state.pending.seat), state.legal_actions()
    hooks = hooks_for("kobo", deep=True)
    assert hooks.state_prior is not None
    asked: list[int] = []

    def counted(world: GameState, options: list[Action]) -> Action | None:
        assert world is not state and world.pending is not None
        asked.append(len(options))
        assert hooks.state_prior is not None
        answer = hooks.state_prior(world, options)
        assert answer in options
        return answer

    counting = dataclasses.replace(hooks, state_prior=counted)
    plain = search(view, legal, hooks, SearchConfig(Budget(80), 0.25, 0.3), seed=3)
    unweighted = search(view, legal, counting, SearchConfig(Budget(80), 0.25, 0.3), seed=3)
    assert not asked and unweighted.candidates == plain.candidates
    weighted = search(view, legal, counting, SearchConfig(Budget(80), 0.25, 0.3, 0.5), seed=3)
    assert 0 < len(asked) < 80 and all(n > 1 for n in asked)
    again = search(view, legal, counting, SearchConfig(Budget(80), 0.25, 0.3, 0.5), seed=3)
    assert again.candidates == weighted.candidates


def test_observed_keys_are_asked_at_the_other_seats_nodes_only() -> None:
    """The ``observed`` hook is asked at the opponent's nodes only (the searcher knows its
    own actions); keys equal to the actions leave the search exactly as without the hook."""
    state = _mid_game(7)
    assert state.pending is not None
    me = state.pending.seat
    view, legal = state.view(me), state.legal_actions()
    hooks = hooks_for("kobo", deep=True)
    asked: list[int] = []

    def same(world: GameState, options: list[Action]) -> list[Action]:
        assert world.pending is not None and world.pending.seat != me
        asked.append(len(options))
        return options

    config = SearchConfig(Budget(120), 0.25, 0.3)
    plain = search(view, legal, dataclasses.replace(hooks, observed=None), config, seed=3)
    keyed = search(view, legal, dataclasses.replace(hooks, observed=same), config, seed=3)
    assert asked and keyed.candidates == plain.candidates


def test_keyed_reveals_leave_the_cheating_control_unchanged() -> None:
    """Over the true state a flip always shows the same card, so keying reveals changes no
    decision of the cheating control: its measured figures stand for the deep model too."""
    deep = hooks_for("kobo", deep=True)
    observed = deep.observed
    assert observed is not None
    revealed: list[bool] = []

    def counted(world: GameState, options: list[Action]) -> list[Action]:
        assert observed is not None
        keys = observed(world, options)
        revealed.append(keys is not options)
        return keys

    hooks = dataclasses.replace(deep, observed=counted)
    for seed in range(6):
        truth = _mid_game(seed, {"chain", "turn"})
        assert truth.pending is not None
        view, legal = truth.view(truth.pending.seat), truth.legal_actions()

        def true_world(index: int, truth: KoboState = truth) -> GameState:
            return truth.clone()

        config = SearchConfig(Budget(80), 0.25, 0.3)
        keyed = search(view, legal, hooks, config, 9, sampler=true_world)
        merged = search(
            view, legal, dataclasses.replace(hooks, observed=None), config, 9, true_world
        )
        assert keyed.candidates == merged.candidates
    assert any(revealed)  # some searched world did flip a trap


def test_a_level_may_be_given_another_iteration_budget() -> None:
    from kessen.ai.levels import level, variant
    from kessen.ai.tournament import check_matchups

    bigger = variant("ismcts-strong=2000")
    assert bigger.iterations == 2000 and bigger.key == "ismcts-strong=2000"
    assert bigger.deep and bigger.seconds == level("ismcts-strong").seconds
    assert variant("ismcts-normal") == level("ismcts-normal")
    for bad in ("ismcts-strong=0", "ismcts-strong=x", "ismcts-strong="):
        with pytest.raises(ValueError, match="positive integer"):
            variant(bad)
    with pytest.raises(KeyError):
        variant("ismcts-mighty=10")
    assert check_matchups(["ismcts-strong=40:heuristic@2"], "twgp", 1, 1) == ""
    assert "positive integer" in check_matchups(["ismcts-strong=-1:heuristic"], "twgp", 1, 1)


@pytest.mark.parametrize("ruleset", ["kobo", "twgp", "maken"])
def test_a_settled_search_stops_early_with_the_whole_budgets_answer(ruleset: str) -> None:
    """Stopping once no iteration left can change the most visited action gives the answer of
    the whole budget in every position (a mutation that stops 20 iterations sooner fails it)."""
    from kessen.ai.levels import level
    from kessen.engine import registry

    rules = registry.get(ruleset)
    hooks = hooks_for(ruleset)
    normal = level("ismcts-normal").config(timed=False)
    whole = SearchConfig(Budget(160), normal.exploration, normal.prior_weight, settle=False)
    settled = SearchConfig(Budget(160), normal.exploration, normal.prior_weight)
    positions = saved = 0
    for seed in range(2):
        state = rules.new_game(rules.default_config, seed)
        players = {s: rules.players["heuristic"](seed + s) for s in (0, 1)}
        step = 0
        while state.pending is not None and step < 60:
            pending, legal = state.pending, state.legal_actions()
            view = state.view(pending.seat)
            if len(legal) > 1 and step % 5 == 0:
                full = search(view, legal, hooks, whole, seed=step)
                short = search(view, legal, hooks, settled, seed=step)
                assert short.action == full.action, (seed, step)
                assert short.iterations <= full.iterations
                positions += 1
                saved += full.iterations - short.iterations
            state.apply(players[pending.seat].choose(state.decision_view(pending.seat), legal))
            step += 1
    assert positions >= 6 and saved > 0, (positions, saved)


def test_the_easiest_level_slips_where_a_small_search_beats_the_heuristic() -> None:
    """やさしい answers some decisions with a random legal action in TWGP and Project Maken
    (seeded: the same view gives the same slip), never in Kōbō; the explanation still shows the
    search's candidates."""
    from kessen.ai.levels import level, make_player, variant

    easy = level("ismcts-easy")
    assert easy.mistakes_in("kobo") == 0.0 and easy.mistakes_in("maken") > 0
    assert easy.mistakes_in("twgp") > 0
    assert variant("ismcts-easy%30").mistakes_in("kobo") == 0.3
    with pytest.raises(ValueError, match="percentage"):
        variant("ismcts-easy%101")
    state = _mid_game(3)
    assert state.pending is not None
    view, legal = state.view(state.pending.seat), state.legal_actions()
    always = SearchPlayer("slips", hooks_for("kobo"), SearchConfig(Budget(12)), 4, mistakes=1.0)
    never = SearchPlayer("sure", hooks_for("kobo"), SearchConfig(Budget(12)), 4)
    picks = set()
    for seed in range(12):
        always.seed = never.seed = seed
        slip = always.choose(view, legal)
        assert slip == always.choose(view, legal) and slip in legal  # seeded
        never.choose(view, legal)
        assert always.last_explanation == never.last_explanation  # the same search shown
        picks.add(slip)
    assert len(picks) > 1  # drawn, not the search's one answer
    kobo_easy = make_player("kobo", "ismcts-easy", 1)
    assert isinstance(kobo_easy, SearchPlayer) and kobo_easy.mistakes == 0.0


def test_a_level_may_search_another_budget_in_one_game() -> None:
    from kessen.ai.levels import level, make_player, variant

    strong = level("ismcts-strong")
    assert strong.iterations_in("twgp") < strong.iterations == strong.iterations_in("kobo")
    for ruleset in ("kobo", "twgp", "maken"):
        player = make_player(ruleset, "ismcts-strong", 1)
        assert isinstance(player, SearchPlayer)
        assert player.config.budget.iterations == strong.iterations_in(ruleset)
    assert variant("ismcts-strong=300").iterations_in("twgp") == 300  # one budget everywhere


def test_the_strong_level_favours_the_heuristic_below_the_root_in_kobo_only() -> None:
    """つよい's tree prior is Kōbō's (``STRONG_TREE_PRIORS``), for the honest level and for the
    controls that read the true state alike (the same search); the other games search without
    it, and so does every other level."""
    from kessen.ai.cheater import CheatingPlayer
    from kessen.ai.levels import STRONG_TREE_PRIORS, level, make_player
    from kessen.ai.tournament import _build

    weights = dict(STRONG_TREE_PRIORS)
    assert weights == {"kobo": 0.5}
    for ruleset in ("kobo", "twgp", "maken"):
        expected = weights.get(ruleset, 0.0)
        player = make_player(ruleset, "ismcts-strong", 1)
        assert isinstance(player, SearchPlayer)
        assert player.config.tree_prior_weight == expected
        for control in ("cheater", "peeker"):
            cheat = _build(f"{control}-ismcts-strong", ruleset, 1, 0.0)
            assert isinstance(cheat, CheatingPlayer)
            assert cheat.config.tree_prior_weight == expected
        normal = make_player(ruleset, "ismcts-normal", 1)
        assert isinstance(normal, SearchPlayer) and normal.config.tree_prior_weight == 0.0
    assert level("ismcts-strong").config().tree_prior_weight == 0.0  # no game named: the base


def test_contempt_costs_the_searcher_a_draw_and_the_explanation_keeps_the_win_chance() -> None:
    """With every leaf fully drawn, contempt shifts all of the searching seat's values alike,
    so the tree it grows is the same visit for visit, and the explanation shows the plain win
    chances; where only some leaves are drawn, it searches otherwise. Without a ``drawish``
    hook, or at 0, nothing changes."""
    state = _mid_game(3)
    assert state.pending is not None
    view, legal = state.view(state.pending.seat), state.legal_actions()
    hooks = hooks_for("kobo")
    drawn = dataclasses.replace(hooks, drawish=lambda _state: 1.0)
    some = dataclasses.replace(
        hooks, drawish=lambda leaf: float(int(leaf.state_hash()[:8], 16) % 3 == 0)
    )

    def run(with_hooks: SearchHooks, contempt: float) -> SearchResult:
        config = SearchConfig(Budget(80), settle=False, contempt=contempt)
        return search(view, legal, with_hooks, config, 5)

    plain = run(drawn, 0.0)
    spite = run(drawn, 0.2)
    assert all(
        (a.action, a.visits) == (b.action, b.visits) and a.value == pytest.approx(b.value)
        for a, b in zip(spite.candidates, plain.candidates, strict=True)
    )
    assert run(hooks, 0.2).candidates == plain.candidates
    assert [c.visits for c in run(some, 0.4).candidates] != [
        c.visits for c in run(some, 0.0).candidates
    ]
    assert all(lv.contempt >= 0 for lv in LEVELS)
    assert level("ismcts-strong").config(ruleset="twgp").contempt == level("ismcts-strong").contempt

"""The rollouts' shortcuts to the heuristic COM's chain answers change no decision.

Inside rollouts the answers to chain and chain-target prompts are built straight from the state
(``evaluate.exchange_sim``) instead of from a view, and outcomes are remembered by the
simulation's key. Both must give exactly what the heuristic COM answers from the seat's real
view, and the search must find the same candidates, visits and values with them as without.
"""

from __future__ import annotations

import random

import pytest

from kessen.ai.ismcts import Budget, SearchConfig, hooks_for, search
from kessen.engine import registry
from kessen.engine.action import Action
from kessen.games.kobo import evaluate as judge
from kessen.games.kobo import heuristic, heuristic_exchange
from kessen.games.kobo.heuristic import HeuristicPlayer
from kessen.games.kobo.state import EMPTY, KoboState
from tests.ai.test_search import _mid_game


def _chain_prompts(count: int, seed: int, prompt: str = "chain") -> list[KoboState]:
    """``prompt`` decisions of seeded matches where the heuristic COM meets a random player."""
    rules = registry.get("kobo")
    chooser = random.Random(seed)
    out: list[KoboState] = []
    while len(out) < count:
        state = rules.new_game(rules.default_config, chooser.randrange(2**31))
        assert isinstance(state, KoboState)
        smart = HeuristicPlayer(1)
        while state.pending is not None and len(out) < count:
            pending = state.pending
            legal = state.legal_actions()
            if pending.prompt == prompt and len(legal) > 1:
                out.append(state.clone())
            if pending.seat == 0:
                action = smart.choose(state.view(0), legal)
            else:
                action = legal[chooser.randrange(len(legal))]
            state.apply(action)
    return out


def test_the_state_built_simulation_is_the_views() -> None:
    states = _chain_prompts(300, 3)
    assert sum(1 for s in states if s.chain) > 150  # open chains, not only bare attacks
    for state in states:
        assert state.prompt is not None
        seat = state.prompt[0]
        from_state = judge.exchange_sim(state).key()
        assert from_state == heuristic_exchange._sim_from_view(state.view(seat)).key()
        assert from_state == heuristic_exchange._sim_from_view(judge.lean_view(state, seat)).key()


def test_clamped_lv_and_characters_gone_read_the_same() -> None:
    """Cases real play rarely reaches at a chain prompt (a current Lv below 0, a chosen
    character or the attack's target off the field) are forced, and still read the same."""
    forced = 0
    for state in _chain_prompts(200, 5):
        assert state.prompt is not None
        seat = state.prompt[0]
        field = [c for c in state.battle if c != EMPTY]
        state.temp[field[0]] = -state.base[field[0]] - 2  # current Lv clamped at 0
        gone = next(c for c in range(len(state.defs)) if c not in state.battle)
        if state.attackers:
            state.target = gone
        state.chain = [
            (card, owner, gone if state.defs[card].needs_choice else chosen, negated)
            for card, owner, chosen, negated in state.chain
        ]
        forced += 1
        lean = heuristic_exchange._sim_from_view(judge.lean_view(state, seat)).key()
        assert judge.exchange_sim(state).key() == lean
    assert forced == 200


def test_the_rollout_chain_answer_is_the_heuristic_coms() -> None:
    player = HeuristicPlayer(0)
    for state in _chain_prompts(300, 4):
        assert state.prompt is not None
        seat = state.prompt[0]
        legal = state.legal_actions()
        heuristic._CHAIN_VALUES.clear()
        cold = judge.heuristic_chain_answer(state, seat, legal)
        warm = judge.heuristic_chain_answer(state, seat, legal)  # answered from memory
        assert cold == warm == player.choose(state.view(seat), legal)


def test_the_rollout_target_answer_is_the_heuristic_coms() -> None:
    player = HeuristicPlayer(0)
    for state in _chain_prompts(150, 6, "target"):
        assert state.prompt is not None
        seat = state.prompt[0]
        legal = state.legal_actions()
        assert judge._target_answer(state, seat, legal) == player.choose(state.view(seat), legal)


def test_the_memory_starts_afresh_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heuristic, "CHAIN_MEMORY", 3)
    heuristic._CHAIN_VALUES.clear()
    for n in range(7):
        heuristic._remember(("k", n), float(n))
        assert len(heuristic._CHAIN_VALUES) <= 3
    assert heuristic._CHAIN_VALUES[("k", 6)] == 6.0


class _Forgetful(dict[tuple[object, ...], float]):
    """A memory that remembers nothing."""

    def __setitem__(self, key: tuple[object, ...], value: float) -> None:
        return None


@pytest.mark.parametrize("deep", [False, True], ids=["standard", "deep"])
def test_the_search_sees_the_same_with_and_without_shortcuts(
    deep: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = _mid_game(7)
    assert state.pending is not None
    view, legal = state.view(state.pending.seat), state.legal_actions()
    config = SearchConfig(Budget(120, None), 0.25, 0.3, settle=False)
    hooks = hooks_for("kobo", deep=deep)
    fast = search(view, legal, hooks, config, seed=5)

    def by_view(state: KoboState, seat: int, legal: list[Action]) -> Action:
        return HeuristicPlayer(0).choose(judge.lean_view(state, seat), legal)

    monkeypatch.setattr(judge, "heuristic_chain_answer", by_view)
    monkeypatch.setattr(heuristic, "_CHAIN_VALUES", _Forgetful())
    slow = search(view, legal, hooks, config, seed=5)
    assert fast.iterations == slow.iterations == 120
    assert fast.candidates == slow.candidates

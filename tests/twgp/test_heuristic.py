"""The heuristic COM player: always legal, deterministic by seed, sensible in key spots."""

from __future__ import annotations

from collections.abc import Sequence

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.engine.players import RandomPlayer, play_out
from kessen.games.twgp.heuristic import HeuristicPlayer
from tests.twgp.harness import Side, U, board, play


class _Checked:
    """Wraps a player and asserts it is handed a view (never a state) and answers legally."""

    def __init__(self, inner: HeuristicPlayer) -> None:
        self.inner = inner
        self.name = inner.name
        self.calls = 0

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        assert isinstance(view, dict) and view["ruleset"] == "twgp"
        choice = self.inner.choose(view, legal)
        assert choice in legal
        self.calls += 1
        return choice


def test_whole_games_against_itself_and_the_random_player() -> None:
    rules = registry.get("twgp")
    for seed, config in enumerate(
        [{}, {"jokers": True, "weaponCache": True}, {"vitalEffect": True, "buildReload": True}]
    ):
        a, b = _Checked(HeuristicPlayer(seed)), _Checked(HeuristicPlayer(seed + 100))
        state = play_out(rules.new_game(config, seed), {0: a, 1: b})
        assert state.outcome is not None and a.calls and b.calls
        state = play_out(rules.new_game(config, seed), {0: a, 1: RandomPlayer(seed)})
        assert state.outcome is not None


def test_the_same_seed_plays_the_same_game() -> None:
    rules = registry.get("twgp")
    hashes = []
    for _ in range(2):
        state = play_out(rules.new_game({}, 4), {0: HeuristicPlayer(1), 1: HeuristicPlayer(2)})
        hashes.append(state.state_hash())
    assert hashes[0] == hashes[1]


def _choice(state: object, seat: int) -> str:
    from kessen.games.twgp.state import TwgpState

    assert isinstance(state, TwgpState)
    return str(HeuristicPlayer(0).choose(state.view(seat), state.legal_actions()))


def test_it_directs_when_the_opponent_has_no_active_unit() -> None:
    s = board(Side(battle=["s5", "s2"]), Side(battle=[U("h9", pose="save")]))
    play(s, "battle")
    assert _choice(s, 0) == "direct 1"


def test_it_declines_a_mutual_kill_and_interrupts_a_direct() -> None:
    s = board(Side(battle=["s5"]), Side(battle=["h5"]))
    play(s, "battle")
    assert _choice(s, 0) == "end"
    s = board(Side(battle=["s5"]), Side(hand=["h2", "h9"], pile=["d4", "d5"]))
    play(s, "battle", "direct 1")
    assert _choice(s, 1) == "charge-drive h2 1"


def test_it_counter_drives_when_that_wins() -> None:
    s = board(Side(battle=["s6"]), Side(battle=["h3"], hand=["h2", "h4", "h9"]))
    play(s, "battle", "assault 1 1")
    assert _choice(s, 1) == "counter-drive h9 h2 h4"

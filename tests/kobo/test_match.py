"""The match (kobo-rules.md §3, games/kobo/docs/rules.en.md §3 and 11.6-11.7): best of
three, the first player drawn before every game, a complete tie scores nothing and is
replayed."""

from __future__ import annotations

import pytest

from kessen.engine.action import Action
from kessen.engine.contract import IllegalAction, Json
from kessen.engine.players import RandomPlayer, play_out
from kessen.engine.rng import Rng
from kessen.games.kobo.decks import starter_decks
from kessen.games.kobo.game import new_game
from kessen.games.kobo.state import KoboState
from tests.kobo.harness import Side, board, play

STARTERS = sorted(starter_decks())
PAIRS = [(a, b) for a in STARTERS for b in STARTERS if a != b]
DECK6 = ["power-surge", "weaken", "hinder", "total-war", "mass-jamming", "swift-step"]


def events(state: KoboState, kind: str) -> list[Json]:
    return [e.public for e in state.log if e.kind == kind]


def random_match(decks: tuple[str, str], seed: int) -> KoboState:
    state = new_game({"decks": list(decks), "best_of": 3}, seed)
    play_out(state, {0: RandomPlayer(seed), 1: RandomPlayer(seed + 1000)})
    return state


# --- best of three with the starter decks ----------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_random_best_of_three_ends_with_a_seat_at_two_wins(seed: int) -> None:
    decks = PAIRS[seed % len(PAIRS)]
    state = random_match(decks, seed)
    assert state.pending is None
    assert state.legal_actions() == []
    assert sorted(state.wins)[1] == 2
    assert sorted(state.wins)[0] <= 1
    winner = state.wins.index(2)
    assert state.outcome is not None
    assert state.outcome.winner == winner
    ends = events(state, "game_end")
    ties = [e for e in ends if e["winner"] == -1]
    assert len(ends) == len(state.results) == sum(state.wins) + len(ties)
    assert [e["winner"] for e in ends] == [r[0] for r in state.results]
    # the match stopped at the game that gave the second win
    assert ends[-1]["winner"] == winner
    assert [e.kind for e in state.log][-1] == "match_end"
    assert events(state, "match_end") == [{"winner": winner, "wins": state.wins}]
    assert len(events(state, "game_start")) == state.game_no == len(ends)
    # the 200-turn safety limit is never reached in normal play
    assert all(reason != "turn_limit" for _, reason, _ in state.results)
    view = state.view(0)["match"]
    assert (view["over"], view["winner"], view["wins"]) == (True, winner, state.wins)
    state.audit()


def test_no_action_is_accepted_after_the_match() -> None:
    state = random_match(PAIRS[0], 7)
    with pytest.raises(IllegalAction):
        state.apply(Action.of("pass"))


def test_first_player_is_drawn_before_every_game_not_alternated() -> None:
    firsts: list[list[int]] = []
    for seed in range(16):
        state = random_match(PAIRS[seed % len(PAIRS)], seed)
        firsts.append([e["first"] for e in events(state, "game_start")])
    game1 = {f[0] for f in firsts}
    assert game1 == {0, 1}
    # game 2 sometimes repeats the first player of game 1, sometimes not
    assert any(f[1] == f[0] for f in firsts)
    assert any(f[1] != f[0] for f in firsts)


def test_every_game_starts_from_fresh_decks() -> None:
    state = new_game({"decks": list(PAIRS[1]), "best_of": 3}, 3)
    players = {0: RandomPlayer(1), 1: RandomPlayer(2)}
    while state.game_no < 2 and state.pending is not None:
        seat = state.pending.seat
        state.apply(players[seat].choose(state.view(seat), state.legal_actions()))
    assert state.game_no == 2
    # at the first decision of game 2: nothing carried over but the score
    assert state.pending is not None
    assert state.pending.prompt == "standby"
    assert state.passes == [0, 0]
    assert state.turn == 0
    assert sum(state.wins) == 1
    assert all(state.base[c] == state.defs[c].lv for c in range(len(state.defs)))
    assert state.characters(1 - state.first_player) == []
    state.audit()


# --- a complete tie --------------------------------------------------------------------------


def tied_board(seed: int = 0, first: int = 0) -> KoboState:
    """A best of three at turn 1 with turn limit 2 and equal Lv (3 against 1 + 2)."""
    return board(
        Side(battle=["white-fox-miko"], tactics_deck=DECK6),
        Side(battle=["spear-ashigaru", None, "messenger-tanuki"], tactics_deck=DECK6),
        turn_player=first,
        turn_limit=2,
        best_of=3,
        seed=seed,
    )


def test_complete_tie_scores_nothing_and_the_game_is_replayed() -> None:
    state = tied_board()
    play(state, "pass")
    expected_first = Rng(state.rng.state).below(2)
    play(state, "pass")
    assert events(state, "game_end") == [
        {"game": 1, "winner": -1, "reason": "turn_limit", "turn": 2, "scores": [3, 3]}
    ]
    assert state.wins == [0, 0]
    assert state.results == [(-1, "turn_limit", 2)]
    assert state.outcome is None
    # the replay: game 2, first player drawn from the RNG, decks fresh
    assert events(state, "game_start")[-1] == {"game": 2, "first": expected_first}
    assert state.game_no == 2
    assert state.first_player == expected_first
    assert state.turn_player == expected_first
    assert state.pending is not None
    assert (state.pending.seat, state.pending.prompt) == (expected_first, "standby")
    assert state.passes == [0, 0]
    view = state.view(0)["match"]
    assert (view["game"], view["wins"], view["over"]) == (2, [0, 0], False)
    assert view["results"] == [{"winner": -1, "reason": "turn_limit", "turns": 2, "first": 0}]
    state.audit()


def test_replay_first_player_is_drawn_not_kept() -> None:
    firsts = set()
    for seed in range(16):
        state = tied_board(seed=seed)
        play(state, "pass", "pass")
        assert state.game_no == 2
        firsts.add(state.first_player)
    assert firsts == {0, 1}


def test_complete_tie_then_wins_still_needs_two() -> None:
    state = tied_board()
    play(state, "pass", "pass")
    play_out(state, {0: RandomPlayer(5), 1: RandomPlayer(6)})
    assert state.results[0][0] == -1
    assert max(state.wins) == 2
    assert len(state.results) >= 3
    assert state.pending is None


# --- the match ends at two wins --------------------------------------------------------------


def test_one_win_does_not_end_a_best_of_three() -> None:
    state = board(
        Side(battle=["great-tengu"], tactics_deck=DECK6),
        Side(battle=["spear-ashigaru"], tactics_deck=DECK6),
        best_of=3,
    )
    play(state, "attack 1", "target 1", "pass", "pass")
    assert state.wins == [1, 0]
    assert state.outcome is None
    assert "match_end" not in [e.kind for e in state.log]
    assert state.game_no == 2
    assert events(state, "game_start")[-1]["game"] == 2
    assert state.pending is not None


def test_match_ends_at_two_wins_with_nothing_pending() -> None:
    state = board(
        Side(battle=["great-tengu"], tactics_deck=DECK6),
        Side(battle=["spear-ashigaru"], tactics_deck=DECK6),
        best_of=3,
    )
    play(state, "attack 1", "target 1", "pass", "pass")
    play_out(state, {0: RandomPlayer(11), 1: RandomPlayer(12)})
    assert max(state.wins) == 2
    winner = state.wins.index(2)
    assert state.pending is None
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.reason) == (winner, "match_won")
    assert events(state, "match_end") == [{"winner": winner, "wins": state.wins}]
    assert state.results[-1][0] == winner


def test_best_of_one_ends_at_one_win() -> None:
    state = board(
        Side(battle=["great-tengu"], tactics_deck=DECK6),
        Side(battle=["spear-ashigaru"], tactics_deck=DECK6),
    )
    play(state, "attack 1", "target 1", "pass", "pass")
    assert state.wins == [1, 0]
    assert state.pending is None
    assert state.outcome is not None
    assert state.outcome.winner == 0

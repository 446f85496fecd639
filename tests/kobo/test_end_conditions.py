"""The end of a game (kobo-rules.md §6, games/kobo/docs/rules.en.md §11): wipe-out, both wiped out,
out of traps and tactics, the turn limit, and the check in the middle of a resolution."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from kessen.games.kobo.state import KoboState
from tests.kobo.harness import (
    Side,
    battle_slugs,
    board,
    fixed_order_match,
    legal,
    play,
    slot_lv,
)

DECK3 = ["power-surge", "weaken", "hinder"]


def game_ends(state: KoboState) -> list[dict[str, Any]]:
    return [e.public for e in state.log if e.kind == "game_end"]


def kinds(state: KoboState) -> list[str]:
    return [e.kind for e in state.log]


def attack(state: KoboState, attackers: Sequence[int], target: int) -> KoboState:
    """Declare an attack of the turn player's ``attackers`` slots on slot ``target``."""
    return play(state, *(f"attack {a}" for a in attackers), f"target {target}")


# --- wipe-out --------------------------------------------------------------------------------


def test_wipeout_the_defender_loses_its_last_character() -> None:
    state = board(
        Side(battle=["great-tengu"], tactics_deck=DECK3),
        Side(battle=[None, "spear-ashigaru"], tactics_deck=DECK3),
    )
    attack(state, [1], 2)
    play(state, "pass", "pass")
    assert game_ends(state) == [{"game": 1, "winner": 0, "reason": "wipeout", "turn": 1}]
    assert state.results == [(0, "wipeout", 1)]
    assert state.wins == [1, 0]
    assert state.pending is None
    assert state.outcome is not None
    assert state.outcome.winner == 0
    assert kinds(state)[-2:] == ["game_end", "match_end"]


def test_wipeout_the_attacker_loses_its_last_character() -> None:
    state = board(
        Side(battle=["spear-ashigaru"], tactics_deck=DECK3),
        Side(battle=["great-tengu"], tactics_deck=DECK3),
    )
    attack(state, [1], 1)
    play(state, "pass", "pass")
    assert game_ends(state)[-1]["winner"] == 1
    assert game_ends(state)[-1]["reason"] == "wipeout"
    assert state.wins == [0, 1]


def test_no_end_while_the_loser_still_has_a_character() -> None:
    state = board(
        Side(battle=["great-tengu"], tactics_deck=DECK3),
        Side(battle=["spear-ashigaru", None, None, None, "ashigaru-recruit"], tactics_deck=DECK3),
    )
    attack(state, [1], 1)
    play(state, "pass", "pass")
    assert battle_slugs(state, 1) == [None, None, None, None, "ashigaru-recruit"]
    assert game_ends(state) == []
    assert state.pending is not None
    assert (state.pending.seat, state.pending.prompt) == (1, "turn")


def test_end_is_checked_after_the_standby() -> None:
    # seat 1's main deck holds no character at all: its board stays empty
    tactics = [
        "power-surge",
        "weaken",
        "hinder",
        "total-war",
        "mass-jamming",
        "swift-step",
        "counter-spell",
        "ceasefire",
    ]
    no_chars = [
        "unhealing-wound",
        "decoy",
        "thorn-armor",
        "steadfast",
        "counter-seal",
        "rally-banner",
        "supply-wagon",
        "covering-fire",
    ]
    state = fixed_order_match((["great-tengu", *no_chars[:6]], no_chars), (tactics, tactics))
    while state.pending is not None:
        options = legal(state)
        play(state, "discard" if state.pending.prompt == "deploy" else options[0])
    assert state.characters(1) == []
    assert [e.public["seat"] for e in state.log if e.kind == "standby_end"] == [0, 1]
    assert [e.public["seat"] for e in state.log if e.kind == "tactics_hand"] == [1, 0]
    assert game_ends(state) == [{"game": 1, "winner": 0, "reason": "wipeout", "turn": 0}]
    assert "turn" not in kinds(state)


# --- one check per step (kobo-rules.md §6, decided) ----------------------------------------


def sequential_wipe() -> KoboState:
    """Seat 0's only character: base 0 from 茨の鎧 (thorn-armor), current 2 from 力の奔流
    (power-surge). It wins 2 > 1 and retreats seat 1's last character; the sweep would then
    retreat it."""
    state = board(
        Side(battle=["spear-ashigaru"], tactics_hand=["power-surge"], tactics_deck=["hinder"]),
        Side(
            battle=[None, "ashigaru-recruit"],
            traps=["thorn-armor"],
            tactics_deck=["hinder", "weaken"],
        ),
    )
    attack(state, [1], 2)
    play(state, "trap 1", "slot 1", "play power-surge", "slot 1")
    assert slot_lv(state, 0, 1) == (2, 2)  # nothing has resolved yet
    play(state, "pass", "pass")
    return state


def test_a_side_emptied_by_the_result_has_lost_before_the_sweep() -> None:
    state = sequential_wipe()
    assert [e.public["outcome"] for e in state.log if e.kind == "result"] == ["attacker_wins"]
    assert [e.public["card"] for e in state.log if e.kind == "retreat"] == ["ashigaru-recruit"]
    # the game ended at the result's check: no sweep ran, seat 0's base-0 character stays
    assert "base_zero" not in kinds(state)
    assert battle_slugs(state, 0)[0] == "spear-ashigaru"
    assert game_ends(state) == [{"game": 1, "winner": 0, "reason": "wipeout", "turn": 1}]
    assert state.wins == [1, 0]


def test_both_emptied_by_the_same_sweep_still_go_to_the_card_count() -> None:
    # A 1-on-1 tie at Lv 1: the result retreats nobody, the sweep retreats both characters in
    # one step, so this is "both at the same moment" and the remaining cards decide.
    state = both_wiped({"tactics_deck": ["hinder", "weaken"]}, {"tactics_deck": ["hinder"]})
    assert [e.public["outcome"] for e in state.log if e.kind == "result"] == ["tie_single"]
    assert [e.public["card"] for e in state.log if e.kind == "base_zero"] == [
        "ashigaru-recruit",
        "messenger-tanuki",
    ]
    assert game_ends(state) == [
        {"game": 1, "winner": 0, "reason": "both_wiped", "turn": 1, "scores": [2, 1]}
    ]


# --- both wiped out at once ------------------------------------------------------------------


def both_wiped(p0: dict[str, Any], p1: dict[str, Any]) -> KoboState:
    """Lv 1 against Lv 1, one attacker: both lose 1 base Lv, both retreat in the sweep."""
    state = board(
        Side(battle=["ashigaru-recruit"], **p0), Side(battle=[None, None, "messenger-tanuki"], **p1)
    )
    attack(state, [1], 3)
    play(state, "pass", "pass")
    assert [e.public["card"] for e in state.log if e.kind == "retreat"] == [
        "ashigaru-recruit",
        "messenger-tanuki",
    ]
    return state


def test_both_wiped_more_remaining_cards_wins_first_player() -> None:
    # seat 0: 1 face-down trap + 1 in tactics hand + 1 in tactics deck = 3; seat 1: 2
    state = both_wiped(
        {"traps": [None, "counter-seal"], "tactics_hand": ["weaken"], "tactics_deck": ["hinder"]},
        {"tactics_deck": ["weaken", "hinder"]},
    )
    end = game_ends(state)[-1]
    assert (end["winner"], end["reason"], end["scores"]) == (0, "both_wiped", [3, 2])
    assert state.wins == [1, 0]


def test_both_wiped_more_remaining_cards_wins_second_player() -> None:
    state = both_wiped(
        {"tactics_deck": ["hinder"]},
        {"traps": ["counter-seal", "decoy"], "tactics_hand": ["weaken"]},
    )
    end = game_ends(state)[-1]
    assert (end["winner"], end["reason"], end["scores"]) == (1, "both_wiped", [1, 3])
    assert state.wins == [0, 1]


def test_both_wiped_equal_remaining_cards_is_a_complete_tie() -> None:
    state = both_wiped(
        {"traps": ["counter-seal"], "tactics_deck": ["hinder"]},
        {"tactics_hand": ["weaken", "hinder"]},
    )
    end = game_ends(state)[0]
    assert (end["winner"], end["reason"], end["scores"]) == (-1, "both_wiped", [2, 2])
    assert state.wins == [0, 0]
    assert state.results[0] == (-1, "both_wiped", 1)
    # a tie scores nothing and never ends the match: the game is replayed
    assert state.outcome is None
    assert "match_end" not in kinds(state)
    assert state.game_no == 2
    assert state.pending is not None


def test_both_wiped_activated_cards_do_not_count_as_remaining() -> None:
    # both play total-war (+1 this exchange): 2 against 2, a one-on-one tie; both go to base 0
    state = board(
        Side(battle=["ashigaru-recruit"], tactics_hand=["total-war"], tactics_deck=["hinder"]),
        Side(
            battle=["messenger-tanuki"],
            tactics_hand=["total-war"],
            tactics_deck=["hinder", "weaken"],
        ),
    )
    attack(state, [1], 1)
    play(state, "play total-war", "play total-war", "pass", "pass")
    assert [e.public["outcome"] for e in state.log if e.kind == "result"] == ["tie_single"]
    end = game_ends(state)[0]
    # face-up tactics on the field are not remaining cards: 1 (hand) against 2 (deck)
    assert (end["winner"], end["reason"], end["scores"]) == (1, "both_wiped", [1, 2])


# --- out of traps and tactics ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("p0", "p1", "winner", "scores"),
    [
        (["oni-warlord", "ashigaru-recruit"], ["great-tengu", "messenger-tanuki"], 0, [7, 6]),
        (["spear-ashigaru"], [None, "white-fox-miko"], 1, [2, 3]),
        (
            ["great-tengu", "ashigaru-recruit"],
            ["white-fox-miko", "shadow-shinobi", None, "messenger-tanuki"],
            -1,
            [6, 6],
        ),
    ],
)
def test_exhaustion_ends_and_compares_total_lv(
    p0: list[str | None], p1: list[str | None], winner: int, scores: list[int]
) -> None:
    state = board(Side(battle=p0), Side(battle=p1))
    play(state, "pass")
    end = game_ends(state)[0]
    assert (end["winner"], end["reason"], end["scores"], end["turn"]) == (
        winner,
        "exhausted",
        scores,
        1,
    )
    assert state.wins == [int(winner == 0), int(winner == 1)]


def test_exhaustion_compares_current_lv_not_printed_lv() -> None:
    # oni-warlord printed 6 but base 2 now; spear-ashigaru 2: equal, a complete tie
    state = board(Side(battle=["oni-warlord"], base={1: 2}), Side(battle=["spear-ashigaru"]))
    play(state, "pass")
    end = game_ends(state)[0]
    assert (end["winner"], end["scores"]) == (-1, [2, 2])


def test_no_exhaustion_while_one_player_still_has_a_card() -> None:
    state = board(
        Side(battle=["great-tengu"]), Side(battle=["spear-ashigaru"], tactics_deck=["hinder"])
    )
    play(state, "pass")
    assert game_ends(state) == []
    assert state.pending is not None
    assert (state.pending.seat, state.pending.prompt) == (1, "turn")


@pytest.mark.parametrize("where", ["traps", "tactics_hand", "tactics_deck"])
def test_each_kind_of_remaining_card_prevents_exhaustion(where: str) -> None:
    remaining: dict[str, Any] = {where: ["counter-seal" if where == "traps" else "hinder"]}
    state = board(Side(battle=["great-tengu"]), Side(battle=["spear-ashigaru"], **remaining))
    play(state, "pass")
    assert game_ends(state) == []


def test_exhaustion_reached_by_a_pass_penalty_ends_the_game() -> None:
    # seat 0 draws its last tactic at the start of its turn and passes for the 2nd time:
    # 1 card excluded, chosen from the hand; seat 1 has none
    state = board(
        Side(battle=["spear-ashigaru"], tactics_deck=["hinder"], passes=1),
        Side(battle=["great-tengu"]),
    )
    play(state, "pass")
    assert state.pending is not None
    assert (state.pending.seat, state.pending.prompt) == (0, "penalty")
    assert game_ends(state) == []
    play(state, "exclude hinder")
    assert [e.public for e in state.log if e.kind == "exclude"] == [
        {"seat": 0, "cards": ["hinder"], "source": "tactics_hand"}
    ]
    end = game_ends(state)[0]
    assert (end["winner"], end["reason"], end["scores"]) == (1, "exhausted", [2, 5])


# --- the turn limit --------------------------------------------------------------------------


def passing_board(
    p0: list[str | None], p1: list[str | None], limit: int = 3, best_of: int = 1
) -> KoboState:
    deck = ["power-surge", "weaken", "hinder", "total-war", "mass-jamming", "swift-step"]
    return board(
        Side(battle=p0, tactics_deck=deck),
        Side(battle=p1, tactics_deck=deck),
        turn_limit=limit,
        best_of=best_of,
    )


def test_turn_limit_ends_the_game_after_the_last_turn() -> None:
    state = passing_board(["great-tengu"], ["spear-ashigaru", "ashigaru-recruit"])
    play(state, "pass", "pass")
    # turn 3 is still played
    assert game_ends(state) == []
    assert state.turn == 3
    assert state.pending is not None
    assert (state.pending.seat, state.pending.prompt) == (0, "turn")
    play(state, "pass")
    end = game_ends(state)[0]
    assert (end["winner"], end["reason"], end["scores"], end["turn"]) == (
        0,
        "turn_limit",
        [5, 3],
        3,
    )
    assert state.pending is None
    assert [e.public["turn"] for e in state.log if e.kind == "turn"] == [1, 2, 3]


def test_turn_limit_higher_total_lv_of_the_second_player_wins() -> None:
    state = passing_board(["ashigaru-recruit"], ["spear-ashigaru"], limit=2)
    play(state, "pass", "pass")
    end = game_ends(state)[0]
    assert (end["winner"], end["reason"], end["scores"]) == (1, "turn_limit", [1, 2])


def test_turn_limit_equal_total_lv_is_a_complete_tie() -> None:
    state = passing_board(["white-fox-miko"], ["spear-ashigaru", "messenger-tanuki"], limit=2)
    play(state, "pass", "pass")
    end = game_ends(state)[0]
    assert (end["winner"], end["reason"], end["scores"]) == (-1, "turn_limit", [3, 3])
    assert state.wins == [0, 0]


def test_default_turn_limit_is_200() -> None:
    state = board(Side(battle=["great-tengu"]), Side(battle=["spear-ashigaru"]))
    assert state.config.turn_limit == 200
    assert state.view(0)["turn_limit"] == 200


# --- checked in the middle of a resolution ---------------------------------------------------


def test_unhealing_wound_retreating_the_last_character_ends_before_later_links() -> None:
    state = board(
        Side(battle=["ashigaru-recruit"], tactics_deck=DECK3),
        Side(battle=["great-tengu"], traps=["steadfast", "unhealing-wound"], tactics_deck=DECK3),
    )
    attack(state, [1], 1)
    assert state.pending is not None
    assert (state.pending.seat, state.pending.prompt) == (1, "chain")
    play(state, "trap 1")  # link 1: steadfast, +1 to the defending target (permanent)
    play(state, "pass")  # seat 0
    play(state, "trap 2", "slot 1")  # link 2: unhealing wound on the Lv 1 attacker
    play(state, "pass", "pass")
    # link 2 resolves first: the attacker goes to 0 and retreats; seat 0 has no character left
    end = game_ends(state)[0]
    assert (end["winner"], end["reason"]) == (1, "wipeout")
    resolved = [e.public for e in state.log if e.kind == "resolve"]
    assert [r["link"] for r in resolved] == [2]
    # link 1 never resolved and there was no attack result
    assert slot_lv(state, 1, 1) == (5, 5)
    assert "result" not in kinds(state)
    assert state.pending is None


def test_unhealing_wound_that_leaves_a_character_alive_lets_the_chain_go_on() -> None:
    state = board(
        Side(battle=["spear-ashigaru"], tactics_deck=DECK3),
        Side(battle=["great-tengu"], traps=["steadfast", "unhealing-wound"], tactics_deck=DECK3),
    )
    attack(state, [1], 1)
    play(state, "trap 1", "pass", "trap 2", "slot 1", "pass", "pass")
    assert [e.public["link"] for e in state.log if e.kind == "resolve"] == [2, 1]
    # spear-ashigaru 2 -> 1 stays; steadfast +1 on great-tengu; 1 < 6: the attacker retreats
    assert [e.public["outcome"] for e in state.log if e.kind == "result"] == ["defender_wins"]
    assert slot_lv(state, 1, 1) == (6, 6)
    assert (game_ends(state)[0]["winner"], game_ends(state)[0]["reason"]) == (1, "wipeout")


def test_wound_on_a_non_last_character_does_not_end_the_game() -> None:
    state = board(
        Side(battle=["great-tengu", "ashigaru-recruit"], tactics_deck=DECK3),
        Side(battle=["white-fox-miko"], traps=["unhealing-wound"], tactics_deck=DECK3),
    )
    attack(state, [1], 1)
    play(state, "trap 1")
    assert legal(state) == ["slot 1", "slot 2"]  # any character of the named side
    play(state, "slot 2", "pass", "pass")
    assert battle_slugs(state, 0)[1] is None
    assert game_ends(state)[0]["winner"] == 0  # great-tengu 5 > 3 wipes seat 1 afterwards
    assert [e.public["outcome"] for e in state.log if e.kind == "result"] == ["attacker_wins"]

"""Decided: the out-of-cards end is judged outside an exchange, never in the middle of one.

Activated traps and tactics stay in the strategy area until the clean-up (the seed counts
作戦エリアの罠), so a chain that uses the last cards is resolved and settled first.
"""

from __future__ import annotations

from tests.kobo.harness import Side, board, play


def test_exchange_using_the_last_cards_is_settled_before_the_exhaustion_end() -> None:
    state = board(
        Side(battle=["great-tengu"], tactics_hand=["power-surge"]),
        Side(battle=["white-fox-miko", "iron-castellan"], traps=["steadfast"]),
    )
    play(state, "attack 1", "target 1", "trap 1", "play power-surge", "slot 1", "pass", "pass")
    results = state.results
    assert len(results) == 1
    winner, reason, _ = results[0]
    # The attack was settled (5 + 2 = 7 beats miko 3 + 1 = 4), then the turn ended with both
    # players out of traps and tactics: 5 (tengu) against 5 (castellan) — a complete tie.
    assert reason == "exhausted"
    kinds = [e.kind for e in state.log]
    assert kinds.index("result") < kinds.index("game_end")
    assert winner == -1

"""The end of a Kōbō game and of the match: wipe-outs, exhaustion, the turn limit, ties."""

from __future__ import annotations

from kessen.games.kobo.state import EMPTY, SLOTS, KoboState

TIE = -1


def _compare(a: int, b: int) -> int:
    return 0 if a > b else 1 if b > a else TIE


def check_end(state: KoboState) -> bool:
    """End the game if an end condition holds now; return True if it ended."""
    battle = state.battle
    alive = [battle[:SLOTS].count(EMPTY) < SLOTS, battle[SLOTS:].count(EMPTY) < SLOTS]
    if not alive[0] and not alive[1]:
        left = [state.remaining_cards(0), state.remaining_cards(1)]
        end_game(state, _compare(*left), "both_wiped", left)
        return True
    if not alive[0] or not alive[1]:
        end_game(state, 0 if alive[0] else 1, "wipeout", None)
        return True
    # Exhaustion is judged outside an exchange: activated cards stay in the strategy area
    # until the clean-up, so during an exchange the players are not yet out of cards.
    exchange = bool(state.attackers)
    if not exchange and state.remaining_cards(0) == 0 and state.remaining_cards(1) == 0:
        end_by_comparison(state, "exhausted")
        return True
    return False


def end_by_comparison(state: KoboState, reason: str) -> None:
    """End the game by the higher total current Lv on the field (exhaustion, turn limit)."""
    totals = [sum(state.lv(c) for c in state.characters(s)) for s in (0, 1)]
    end_game(state, _compare(*totals), reason, totals)


def end_game(state: KoboState, winner: int, reason: str, scores: list[int] | None) -> None:
    """Score the game; start the next one, or end the match once a seat has enough wins."""
    state.stack.clear()
    state.results.append((winner, reason, state.turn))
    info: dict[str, object] = {
        "game": state.game_no,
        "winner": winner,
        "reason": reason,
        "turn": state.turn,
    }
    if scores is not None:
        info["scores"] = scores
    state.note("game_end", info)
    if winner != TIE:
        state.wins[winner] += 1
        if state.wins[winner] >= state.config.wins_needed:
            state.match_result = (winner, "match_won")
            state.note("match_end", {"winner": winner, "wins": state.wins[:]})
            return
    state.stack.append(("game",))

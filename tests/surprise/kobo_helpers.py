"""Helpers for the Kōbō surprise-zone tests: a match played to its first turn with chosen
tactics hands, and small readers of the state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kessen.engine.action import Action
from kessen.games.kobo.game import new_game
from kessen.games.kobo.state import SLOTS, KoboState
from kessen.games.kobo.surprise import zone_cards


def config(cancelled: str = "rule_process", **extra: Any) -> dict[str, Any]:
    """Both seats play the ambush deck, seat 0 first, no shuffling, the option on."""
    return {
        "decks": ["ambush", "ambush"],
        "best_of": 1,
        "first_player": 0,
        "shuffle": False,
        "surprise": True,
        "cancelled_surprise": cancelled,
        **extra,
    }


def to_first_turn(
    takes: Sequence[Sequence[str]] = ((), ()),
    cancelled: str = "rule_process",
    seed: int = 1,
    first_deck: str = "ambush",
) -> KoboState:
    """A match at turn 1's decision; each seat's tactics hand takes ``takes[seat]`` first."""
    state = new_game(config(cancelled, decks=[first_deck, "ambush"]), seed)
    wanted = [list(t) for t in takes]
    while state.turn == 0:
        pending = state.pending
        assert pending is not None
        legal = state.legal_actions()
        action = legal[0]
        if pending.prompt == "tactics" and wanted[pending.seat]:
            action = Action.of("take", wanted[pending.seat].pop(0))
        elif pending.prompt == "set":
            action = legal[-1]  # discard traps: the chain stays simple
        state.apply(action)
    return state


def slugs(state: KoboState, cards: Sequence[int]) -> list[str]:
    """The card names of ``cards``."""
    return [state.defs[c].slug for c in cards]


def zone_slugs(state: KoboState, seat: int) -> list[str]:
    """The names in ``seat``'s surprise zone."""
    return slugs(state, zone_cards(state, seat))


def act(state: KoboState, text: str) -> None:
    """Apply the action ``text`` (it must be legal)."""
    action = Action.parse(text)
    assert action in state.legal_actions(), (text, [str(a) for a in state.legal_actions()])
    state.apply(action)


def attack_first(state: KoboState) -> None:
    """The turn player declares its first character against the opponent's first one."""
    seat = state.turn_player
    mine = next(i for i in range(SLOTS) if state.battle[seat * SLOTS + i] != -1)
    theirs = next(i for i in range(SLOTS) if state.battle[(1 - seat) * SLOTS + i] != -1)
    act(state, f"attack {mine + 1}")
    act(state, f"target {theirs + 1}")


def pass_chain(state: KoboState) -> None:
    """Both seats pass until the chain closes (no other prompt may come first)."""
    while state.pending is not None and state.pending.prompt == "chain":
        act(state, "pass")

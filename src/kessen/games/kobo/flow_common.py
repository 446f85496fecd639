"""Shared pieces of the Kōbō frame machine: prompt types, constants and small helpers."""

from __future__ import annotations

from collections.abc import Callable

from kessen.engine.action import Action, one
from kessen.engine.contract import IllegalAction
from kessen.engine.log import Event
from kessen.games.kobo import effects
from kessen.games.kobo.state import (
    SLOTS,
    Frame,
    KoboState,
)

Prompt = tuple[int, str]
StepFn = Callable[[KoboState, Frame], Prompt | None]
ApplyFn = Callable[[KoboState, Frame, Action], None]
LegalFn = Callable[[KoboState, Frame], list[Action]]

PASS = Action.of("pass")
USE = Action.of("use")
DISCARD = Action.of("discard")
STANDBY_DRAW = 7
TACTICS_DRAW_AT_MOST = 3


def _slot_actions(verb: str, slots: list[int]) -> list[Action]:
    return [one(verb, i + 1) for i in slots]


def _log(
    state: KoboState,
    kind: str,
    private_to: int = -1,
    private: dict[str, object] | None = None,
    reveals: int = -1,
    **public: object,
) -> None:
    if not state.quiet:  # (as ``KoboState.note``, one call less on the hot path)
        state.log.append(Event(kind, public, private_to, private, reveals))


def _slug(state: KoboState, card: int) -> str:
    return state.defs[card].slug


def _find(state: KoboState, zone: list[int], slug: str) -> int:
    for card in zone:
        if state.defs[card].slug == slug:
            return card
    raise IllegalAction(f"no {slug} there")


def _legal_target(state: KoboState, frame: Frame) -> list[Action]:
    _, seat, card = frame[:3]
    return _slot_actions("slot", [state.slot_of(c) for c in effects.candidates(state, seat, card)])


def _chosen(state: KoboState, seat: int, card: int, action: Action) -> int:
    side = effects.side_seat(state, seat, state.defs[card])
    return state.battle[side * SLOTS + int(action.args[0]) - 1]

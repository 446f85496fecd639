"""A one-line scenario harness for TWGP tests: build a board, script actions, inspect squares.

``board(Side(...), Side(...))`` sets up a mid-game position at the start of the turn player's
turn (the opponent's set-up comes first if it has charge cards); cards of a pool that a side
does not mention are set aside, out of the game. ``U("s9", frames=["c3"], weapons=["sj"])``
describes a stack. ``play(state, "charge-drive s3 1", ...)`` applies action texts and fails
with the legal list when one is not legal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kessen.engine.action import Action
from kessen.engine.poses import NO_MARK, Stack
from kessen.games.twgp.cards import by_slug, card
from kessen.games.twgp.config import VITALS, parse_config
from kessen.games.twgp.flow import advance
from kessen.games.twgp.moves import power
from kessen.games.twgp.state import (
    ACTIVE,
    ASIDE,
    BUILD,
    EFFECT,
    GB,
    HAND,
    HIDDEN,
    LOST,
    PILE,
    POOL,
    POSE_NAMES,
    SAVE,
    STEALTH,
    STORAGE,
    SURGE,
    TwgpState,
)

POSES = {"active": ACTIVE, "save": SAVE, "stealth": STEALTH, "gb": GB}


@dataclass
class U:
    """A stack for :func:`board`: top unit, frames, weapons, pose, G-blast turn, secret."""

    top: str
    frames: Sequence[str] = ()
    weapons: Sequence[str] = ()
    pose: str = "active"
    gb_turn: int = NO_MARK
    secret: bool = False


@dataclass
class Side:
    """One seat of a scripted board. ``pile`` is top card first; ``lost`` lists vital squares
    (1-3) already face up, ``effect`` the one that is the vital effect."""

    battle: Sequence[U | str | None] = ()
    hand: Sequence[str] = ()
    pile: Sequence[str] = ()
    charge: Sequence[str | None] = ()
    surge: Sequence[str] = ()
    storage: Sequence[str] = ()
    vitals: Sequence[str] = ()
    lost: Sequence[int] = ()
    effect: int | None = None
    cache: Mapping[int, Sequence[str]] = field(default_factory=dict)
    wipe_used: bool = False
    zero_turn: int = -1


def board(
    p0: Side,
    p1: Side,
    turn_player: int = 0,
    turn: int = 1,
    config: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> TwgpState:
    """A game set up mid-way, at the start of ``turn_player``'s turn number ``turn``."""
    state = TwgpState.blank(parse_config(config or {}), seed)
    w = state.width
    for seat, side in enumerate((p0, p1)):
        pool = state.zone(seat, POOL)

        def take(name: str, pool: list[int] = pool) -> int:
            cid = by_slug(name).id
            pool.remove(cid)
            return cid

        for i, spec in enumerate(side.battle):
            if spec is None:
                continue
            u = U(spec) if isinstance(spec, str) else spec
            stack = Stack(
                take(u.top),
                tuple(take(c) for c in u.frames),
                tuple(take(c) for c in u.weapons),
                POSES[u.pose],
                u.gb_turn,
                u.secret,
            )
            state.battle[seat * w + i] = stack
        for i, spec in enumerate(side.charge):
            if spec is not None:
                state.charge[seat * w + i] = take(spec)
        for i, names in side.cache.items():
            state.cache[seat * w + i - 1] = tuple(take(c) for c in names)
        state.zone(seat, HAND).extend(take(c) for c in side.hand)
        state.zone(seat, PILE).extend(reversed([take(c) for c in side.pile]))
        state.zone(seat, SURGE).extend(take(c) for c in side.surge)
        state.zone(seat, STORAGE).extend(take(c) for c in side.storage)
        vitals = [take(c) for c in side.vitals]
        rest = sorted(pool, key=lambda c: -card(c).rank)
        while len(vitals) < VITALS:
            vitals.append(rest.pop(0))
            pool.remove(vitals[-1])
        for i, cid in enumerate(vitals):
            state.vitals[seat * VITALS + i] = cid
            pose = HIDDEN
            if i + 1 in side.lost:
                pose = LOST
            if side.effect == i + 1:
                pose = EFFECT
            state.vpose[seat * VITALS + i] = pose
        state.zone(seat, ASIDE).extend(pool)
        pool.clear()
        state.wipe_used[seat] = side.wipe_used
        state.zero_turn[seat] = side.zero_turn
    state.phase = BUILD
    state.first_player = turn_player
    state.turn_player = turn_player
    state.turn = turn - 1
    state.stack.append(("turn_start",))
    advance(state)
    state.audit()
    return state


def play(state: TwgpState, *actions: str) -> TwgpState:
    """Apply each action text in turn; fail with the legal list if one is not legal."""
    for text in actions:
        action = Action.parse(text)
        options = state.legal_actions()
        assert action in options, (
            f"{text!r} not legal at {state.pending}; legal: {[str(a) for a in options]}"
        )
        state.apply(action)
        state.audit()
    return state


def asked(state: TwgpState) -> tuple[int, str]:
    """``(seat, prompt)`` of the pending decision (fails if the game is over)."""
    pending = state.pending
    assert pending is not None, f"the game is over: {state.outcome}"
    return pending.seat, pending.prompt


def mark(state: TwgpState, seat: int, square: int) -> int:
    """The G-blast declaration turn kept with a stack (1-based square; -1 for none)."""
    s = stack_at(state, seat, square)
    assert s is not None
    return s.mark


def legal(state: TwgpState) -> list[str]:
    """The legal actions as text."""
    return [str(a) for a in state.legal_actions()]


def verbs(state: TwgpState) -> set[str]:
    """The verbs among the legal actions."""
    return {a.verb for a in state.legal_actions()}


def stack_at(state: TwgpState, seat: int, square: int) -> Stack | None:
    """The stack in ``seat``'s battle square ``square`` (1-based)."""
    return state.square(seat, square - 1)


def top(state: TwgpState, seat: int, square: int) -> str | None:
    """The top unit's slug in a battle square (1-based), or ``None``."""
    s = stack_at(state, seat, square)
    return None if s is None else card(s.top).slug


def pose(state: TwgpState, seat: int, square: int) -> str | None:
    """The pose name of the stack in a battle square (1-based)."""
    s = stack_at(state, seat, square)
    return None if s is None else POSE_NAMES[s.pose]


def pow_at(state: TwgpState, seat: int, square: int) -> int:
    """The computed power of the stack in a battle square (1-based)."""
    s = stack_at(state, seat, square)
    assert s is not None
    return power(s)


def names(cids: Sequence[int]) -> list[str]:
    """Slugs of card ids."""
    return [card(c).slug for c in cids]


def hand(state: TwgpState, seat: int) -> list[str]:
    """``seat``'s hand as slugs, sorted."""
    return sorted(names(state.zone(seat, HAND)))


def zone(state: TwgpState, seat: int, z: int) -> list[str]:
    """A zone's slugs in zone order."""
    return names(state.zone(seat, z))


def charge(state: TwgpState, seat: int) -> list[str | None]:
    """``seat``'s charge squares as slugs."""
    return [card(c).slug if c >= 0 else None for c in state.charge_row(seat)]


def vital_poses(state: TwgpState, seat: int) -> list[str]:
    """``seat``'s vital squares: hidden, lost or effect."""
    out = []
    for i in range(VITALS):
        p = state.vpose[seat * VITALS + i]
        out.append("hidden" if p == HIDDEN else "effect" if p == EFFECT else "lost")
    return out


def log_kinds(state: TwgpState) -> list[str]:
    """The kinds of all log events so far."""
    return [e.kind for e in state.log]


def last(state: TwgpState, kind: str) -> dict[str, Any]:
    """The public fields of the newest log event of ``kind``."""
    for e in reversed(state.log):
        if e.kind == kind:
            return dict(e.public)
    raise AssertionError(f"no {kind} event in the log")


__all__ = [
    "ASIDE",
    "PILE",
    "STORAGE",
    "SURGE",
    "Side",
    "U",
    "asked",
    "board",
    "charge",
    "hand",
    "last",
    "legal",
    "log_kinds",
    "mark",
    "names",
    "play",
    "pose",
    "pow_at",
    "stack_at",
    "top",
    "verbs",
    "vital_poses",
    "zone",
]

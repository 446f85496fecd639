"""The frame machine: pending work as tuples on an explicit stack, run until a decision.

A ruleset describes each kind of frame by a step function (run it: push or pop frames, or
return the prompt ``(seat, kind)`` that needs an answer) and, for frames that ask, a pair of
functions listing the legal answers and applying one. The machine is the same for every
ruleset; the state only needs ``stack``, ``prompt``, ``prompt_id`` and a ``legal`` cache.

A ruleset may also give a ``check``: a function run before every step (a *check timing*: rule
processes, pending triggers). It may change the state and push frames; the machine then runs
the new top frame.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, Protocol, TypeVar

from kessen.engine.action import Action
from kessen.engine.contract import IllegalAction

Frame = tuple[Any, ...]
Prompt = tuple[int, str]


class FrameState(Protocol):
    """What the machine reads and writes on a state."""

    stack: list[Frame]
    prompt: Prompt | None
    prompt_id: int
    legal: list[Action] | None
    """The legal answers to the pending prompt once computed (``None`` until then); never
    mutated, so copies of a state may share it."""


S = TypeVar("S", bound=FrameState)
StepFn = Callable[[S, Frame], Prompt | None]
LegalFn = Callable[[S, Frame], list[Action]]
ApplyFn = Callable[[S, Frame, Action], None]


class FrameMachine(Generic[S]):
    """Runs a ruleset's frames: ``advance``, ``legal_actions`` and ``apply_action``."""

    def __init__(
        self,
        steps: Mapping[str, StepFn[S]],
        decisions: Mapping[str, tuple[LegalFn[S], ApplyFn[S]]],
        check: Callable[[S], None] | None = None,
    ) -> None:
        missing = set(decisions) - set(steps)
        if missing:
            raise ValueError(f"decisions without a step: {sorted(missing)}")
        self._steps = dict(steps)
        self._decisions = dict(decisions)
        self._check = check

    def advance(self, state: S) -> None:
        """Run frames until one needs a decision (or nothing is left: the game is over)."""
        stack = state.stack
        steps = self._steps
        check = self._check
        while stack:
            if check is not None:
                check(state)
                if not stack:
                    break
            frame = stack[-1]
            prompt = steps[frame[0]](state, frame)
            if prompt is not None:
                state.prompt = prompt
                state.prompt_id += 1
                state.legal = None
                return
        state.prompt = None
        state.legal = []

    def legal_actions(self, state: S) -> list[Action]:
        """The answers to the pending decision, in a fixed order."""
        if state.prompt is None:
            return []
        frame = state.stack[-1]
        return self._decisions[frame[0]][0](state, frame)

    def apply_action(self, state: S, action: Action) -> None:
        """Apply a legal ``action`` and advance; an illegal one raises and changes nothing.

        The check reads the state's cache of legal answers (filled here if the caller did not
        ask for them): they are computed once per decision, and no copy is made."""
        if state.prompt is None:
            raise IllegalAction("the game is over")
        frame = state.stack[-1]
        legal_fn, apply_fn = self._decisions[frame[0]]
        legal = state.legal
        if legal is None:
            legal = state.legal = legal_fn(state, frame)
        if action not in legal:
            raise IllegalAction(f"{action} is not a legal answer to this {state.prompt[1]} prompt")
        apply_fn(state, frame, action)
        state.prompt = None
        state.legal = None
        self.advance(state)

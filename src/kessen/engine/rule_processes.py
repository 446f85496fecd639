"""Rule processes as a rules primitive: state checks that all apply at once at a check timing.

A rule process looks at the state and says what it would fix (a list of ruleset-defined
"fixes", e.g. cards to move). At a check timing every registered process is asked on the
**same** state, all their fixes are applied together, and the check repeats until no process
finds anything: two processes that both apply act in the same pass, never one after the other.

>>> state = {"n": 4}
>>> halve = RuleProcess("halve", lambda s: ["h"] if s["n"] > 1 else [])
>>> def apply(s, fixes):
...     s["n"] //= 2
>>> check_timing(state, [halve], apply)
[[('halve', 'h')], [('halve', 'h')]]
>>> state
{'n': 1}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

S = TypeVar("S")
F = TypeVar("F")

MAX_PASSES = 64
"""A check that has not settled after this many passes is a bug in the processes."""


@dataclass(frozen=True, slots=True)
class RuleProcess(Generic[S, F]):
    """A named check: ``find(state)`` lists the fixes it would make (empty: nothing applies)."""

    name: str
    find: Callable[[S], list[F]]


def check_timing(
    state: S,
    processes: Sequence[RuleProcess[S, F]],
    apply: Callable[[S, list[tuple[str, F]]], None],
) -> list[list[tuple[str, F]]]:
    """Run every process until none applies; each pass applies all found fixes together.

    Returns the passes (each a list of ``(process name, fix)``) for logging and tests.
    """
    passes: list[list[tuple[str, F]]] = []
    for _ in range(MAX_PASSES):
        found = [(p.name, fix) for p in processes for fix in p.find(state)]
        if not found:
            return passes
        apply(state, found)
        passes.append(found)
    raise RuntimeError(f"rule processes did not settle after {MAX_PASSES} passes")

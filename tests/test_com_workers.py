"""COM's thinking off the event loop: a search level decides in a worker process exactly as it
would in the server's own process (same seed and level, hence the same budget: the same action
and the same explanation, or on a machine loaded past the 1.8 s cap the same search stopped
sooner), in all three games; a quick level decides on the loop at once, never
behind a search; the workers think at a lower CPU priority than the server.
"""

from __future__ import annotations

import asyncio
import os
import random
from typing import Any

import pytest

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.server.com_pool import (
    ONLY_WATCHED,
    PERSON_WAITS,
    QUICK_LEVELS,
    WORKER_NICENESS,
    ComPool,
    decide,
)
from kessen.server.session import candidates_json, com_choice
from tests.fresh_loop import run_fresh

CONFIGS: dict[str, dict[str, Any]] = {
    "kobo": {"decks": ["vanguard", "tempo"], "best_of": 1},
    "twgp": {},
    "maken": {},
}
SEARCH = ("ismcts-easy", "ismcts-normal")


def positions(ruleset: str, count: int, start: int = 0) -> list[tuple[Json, list[Action]]]:
    """``count`` decisions with a real choice from a seeded random game of ``ruleset`` (every
    fifth step from ``start`` on): the deciding seat's decision view and the legal actions."""
    rules = registry.get(ruleset)
    state = rules.new_game({**rules.default_config, **CONFIGS[ruleset]}, 17)
    rng = random.Random(17)
    out: list[tuple[Json, list[Action]]] = []
    for step in range(600):
        pending = state.pending
        if pending is None or len(out) == count:
            break
        legal = state.legal_actions()
        if len(legal) > 1 and step >= start and step % 5 == 0:
            out.append((state.decision_view(pending.seat), legal))
        state = state.clone()
        state.apply(rng.choice(legal))
    assert len(out) == count
    return out


Job = tuple[str, str, int, Json, list[Action]]


def searched(ruleset: str, level: str, count: int) -> list[tuple[Job, tuple[Action, Any]]]:
    """``count`` decisions of ``level`` in mid-game positions that it searched (its
    explanation counts visits: not a rule's shortcut), each with the answer this process
    gives."""
    out: list[tuple[Job, tuple[Action, Any]]] = []
    for seed, (view, legal) in enumerate(positions(ruleset, 12, start=20)):
        job = (ruleset, level, seed, view, legal)
        action, why = com_choice(*job)
        if any(c["visits"] for c in candidates_json(why) or []):
            out.append((job, (action, candidates_json(why))))
        if len(out) == count:
            return out
    raise AssertionError(f"{level} searched fewer than {count} of the positions of {ruleset}")


def test_a_search_decides_in_a_worker_process_as_in_the_server_process() -> None:
    expected = [
        pair
        for ruleset in sorted(CONFIGS)
        for level in SEARCH
        for pair in searched(ruleset, level, 2)
    ]

    async def far() -> list[tuple[Action, Any]]:
        pool = ComPool(workers=2, processes=True)
        try:
            return list(
                await asyncio.gather(*(pool.choose(PERSON_WAITS, *job) for job, _ in expected))
            )
        finally:
            pool.close()

    answers = run_fresh(far())
    for (job, near), answer in zip(expected, answers, strict=True):
        assert_same_search(job, answer, near)


def assert_same_search(job: Job, answer: tuple[Action, Any], near: tuple[Action, Any]) -> None:
    """``answer``, made elsewhere (a worker process, a cluster), is the server process's
    ``near``: the same action and the same search visit for visit, or the same search stopped
    sooner. That is the one thing another process may do differently: its search has the same
    1.8 s cap as the server's, and a worker thinks at a lower priority, so on a machine loaded
    far beyond its cores a normal-level search can meet the cap before its budget. A search cut
    short is the same search with fewer iterations: no candidate has more visits than in the
    server's process, and one has fewer. The easy level's twelve iterations never meet the cap:
    its answers must be equal."""
    assert answer[0] in job[4]
    if answer == near:
        return
    assert job[1] != "ismcts-easy", (job[:3], answer, near)
    assert _cut_short(answer[1], near[1]), (job[:3], answer, near)


def _cut_short(far: list[Json], near: list[Json]) -> bool:
    """True if the candidates ``far`` are those of the search ``near`` stopped sooner: every
    action both list has no more visits in ``far``, and they have fewer in all."""
    near_visits = {c["action"]: c["visits"] for c in near}
    shared = [(c["visits"], near_visits[c["action"]]) for c in far if c["action"] in near_visits]
    return (
        bool(shared)
        and all(f <= n for f, n in shared)
        and sum(f for f, _ in shared) < sum(n for _, n in shared)
    )


@pytest.mark.parametrize("ruleset", sorted(CONFIGS))
def test_a_quick_level_decides_on_the_loop_as_anywhere(ruleset: str) -> None:
    pool = ComPool(workers=1, processes=True)  # never started: quick levels need no worker
    for seed, (view, legal) in enumerate(positions(ruleset, 3)):
        for level in sorted(QUICK_LEVELS & set(registry.get(ruleset).players)):
            answer = run_fresh(pool.choose(PERSON_WAITS, ruleset, level, seed, view, legal))
            assert answer == decide(ruleset, level, seed, view, legal)
    assert pool._executor is None


def test_a_quick_level_never_waits_behind_a_search() -> None:
    """Both workers busy with searches and more waiting: the heuristic COM answers at once."""

    async def scenario() -> tuple[Action, Any]:
        pool = ComPool(workers=2)
        gate = asyncio.Event()

        async def slow_search(far: bool, job: Any, *args: Any) -> Any:
            await gate.wait()
            return args[1], None

        pool._run = slow_search  # type: ignore[method-assign]
        searches = [
            asyncio.create_task(pool.choose(ONLY_WATCHED, "kobo", f"search{i}", 0, {}, []))
            for i in range(4)
        ]
        await asyncio.sleep(0)
        assert pool.waiting == 2
        (view, legal), *_ = positions("kobo", 1)
        quick = await asyncio.wait_for(
            pool.choose(ONLY_WATCHED, "kobo", "heuristic", 1, view, legal), 5
        )
        assert pool.waiting == 2 and not any(s.done() for s in searches)
        gate.set()
        await asyncio.gather(*searches)
        return quick

    action, _ = run_fresh(scenario())
    assert isinstance(action, Action)


def test_the_workers_think_at_a_lower_priority_than_the_server() -> None:
    pool = ComPool(workers=1, processes=True)
    try:
        niceness = pool._pool().submit(os.nice, 0).result(timeout=120)
    finally:
        pool.close()
    assert niceness == min(19, os.nice(0) + WORKER_NICENESS)

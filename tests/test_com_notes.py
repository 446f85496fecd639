"""A server's COM seats keep their notes (Kōbō つよい's trap memory) across their moves, built
from each seat's own views, and hand them to wherever the decision is made."""

from __future__ import annotations

from typing import Any

import pytest

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.kobo.heuristic import HeuristicPlayer
from kessen.games.kobo.pass_memory import remember
from kessen.server import session as session_module
from kessen.server.com_pool import ComPool
from kessen.server.session import Session, com_choice, com_notes
from tests.fresh_loop import run_fresh

FORTRESS = {"decks": ["fortress", "fortress"], "best_of": 1}  # ten traps a side


def test_only_a_level_whose_search_keeps_notes_gets_them() -> None:
    rules = registry.get("kobo")
    state = rules.new_game(FORTRESS, 1)
    view = state.decision_view(0)
    assert com_notes("kobo", "ismcts-strong", view, None) == ()
    assert com_notes("kobo", "ismcts-normal", view, None) is None
    assert com_notes("kobo", "heuristic", view, None) is None
    twgp = registry.get("twgp").new_game({}, 1).view(0)
    assert com_notes("twgp", "ismcts-strong", twgp, None) is None


def test_com_seats_keep_their_own_notes_over_a_whole_session(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """COM against COM at つよい (answering by the heuristic's rule here, to be quick): each
    decision is handed the notes that seat's own views so far give, and some speak."""
    seen: dict[int, list[Json]] = {0: [], 1: []}
    handed: dict[int, list[Any]] = {0: [], 1: []}
    heuristic = HeuristicPlayer(0)

    def answering(
        ruleset: str, level: str, seed: int, view: Json, legal: list[Action], notes: Any = None
    ) -> tuple[Action, Any]:
        seat = view["viewer"]
        seen[seat].append(view)
        handed[seat].append(notes)
        return heuristic.choose(view, legal), None

    monkeypatch.setattr(session_module, "com_choice", answering)
    spoke = 0
    for seed in range(3):
        session = Session.create("kobo", FORTRESS, seed, "com_vs_com", "ismcts-strong", 0.0)
        for seat in (0, 1):
            seen[seat].clear()
            handed[seat].clear()
        while session.com_step() is not None:
            pass
        for seat in (0, 1):
            notes: Any = None
            for view, given in zip(seen[seat], handed[seat], strict=True):
                notes = remember(view, notes)
                assert given == notes
            assert session.com_notes[seat] == notes
            spoke += len(notes)
    assert spoke > 0


def _remembered_moment() -> tuple[Json, list[Action], Any]:
    """A decision of seat 0 in a heuristic game, not right after a pass, at which the notes
    its earlier views gave say something: the view, the legal actions and those notes."""
    rules = registry.get("kobo")
    heuristic = HeuristicPlayer(0)
    for seed in range(20):
        state = rules.new_game(FORTRESS, seed)
        notes: Any = None
        while state.pending is not None:
            view, legal = state.decision_view(state.pending.seat), state.legal_actions()
            if state.pending.seat == 0:
                if notes and remember(view, None) == () and len(legal) > 1:
                    return view, legal, notes
                notes = remember(view, notes)
            state.apply(heuristic.choose(view, legal))
    raise AssertionError("no heuristic game gave seat 0 a note")


def test_the_pool_hands_the_notes_to_the_worker_and_the_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Through the queue to the decision: the notes reach the player that searches."""
    view, legal, notes = _remembered_moment()
    received: list[Any] = []

    async def scenario() -> None:
        pool = ComPool(workers=1)

        async def fake_run(far: bool, job: Any, *args: Any) -> Any:
            received.append(args[-1])
            return legal[0], None

        pool._run = fake_run  # type: ignore[method-assign]
        await pool.choose(0, "kobo", "ismcts-strong", 1, view, legal, notes)

    run_fresh(scenario())
    assert received == [notes]
    rules = registry.get("kobo")
    built: list[Any] = []
    original = rules.players["ismcts-strong"]

    def spying(seed: int) -> Any:
        player = original(seed)
        built.append(player)
        return player

    monkeypatch.setitem(rules.players, "ismcts-strong", spying)
    com_choice("kobo", "ismcts-strong", 1, view, legal[:1], notes)  # one action: no search
    assert built[0].notes == remember(view, notes) == notes

"""つよい's trap memory in Kōbō: past passes rule out traps exactly, worlds honour them, notes
follow the log, and the search keeps them across its decisions from its own views only."""

from __future__ import annotations

import dataclasses
import json
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from kessen.ai.ismcts import Budget, SearchConfig, SearchPlayer, hooks_for
from kessen.engine import registry
from kessen.engine.contract import Json
from kessen.engine.players import play_out
from kessen.games.kobo.heuristic import HeuristicPlayer
from kessen.games.kobo.pass_memory import (
    Avoid,
    PassNotes,
    remember,
    ruled_out,
    tactics_beyond,
)
from kessen.games.kobo.schema import load_pool
from kessen.games.kobo.search_worlds import remembering_sampler, world_sampler
from kessen.games.kobo.state import KoboState


def _dump(view: Json) -> str:
    lean = view | {"log": [], "previews": None, "resolution": None}
    return json.dumps(lean, sort_keys=True, ensure_ascii=False)


Moment = tuple[KoboState, int, PassNotes, Avoid]


@dataclass
class Tally:
    """What remembered passes said over heuristic-COM games, against the truth."""

    moments: list[Moment] = field(default_factory=list)
    """Decisions at which some remembered pass rules something out."""
    slots: int = 0
    """Slots in which a trap was ruled out, over all decisions."""
    wrong_traps: int = 0
    """... holding the very trap ruled out there (the truth)."""
    hands: int = 0
    """Tactics hands that a remembered pass bounds below their size, over all decisions."""
    wrong_hands: int = 0
    """... holding more ruled-out tactics than the pass allows (the truth)."""


def _heuristic_games(games: int, decks: list[str] | None = None) -> Tally:
    """Heuristic-COM games with both seats taking notes, tallied against the true state."""
    rules = registry.get("kobo")
    heuristic = HeuristicPlayer(0)
    tally = Tally()
    config = {**rules.default_config, "best_of": 1} | ({"decks": decks} if decks else {})
    for seed in range(games):
        state = rules.new_game(config, seed)
        assert isinstance(state, KoboState)
        notes: dict[int, Any] = {0: None, 1: None}
        while state.pending is not None:
            seat = state.pending.seat
            view = state.view(seat)
            notes[seat] = remember(view, notes[seat])
            avoid = ruled_out(view, notes[seat])
            if avoid.traps or avoid.tactics:
                tally.moments.append((state.clone(), seat, notes[seat], avoid))
            tally.slots += len(avoid.traps)
            tally.wrong_traps += sum(
                state.defs[state.strategy[i]].slug in s for i, s in avoid.traps.items()
            )
            for rule in avoid.tactics:
                tally.hands += tactics_beyond(state, 1 - seat, (rule[0] | ALL, *rule[1:])) > 0
                tally.wrong_hands += tactics_beyond(state, 1 - seat, rule) > 0
            state.apply(heuristic.choose(view, state.legal_actions()))
    return tally


ALL = frozenset(card.slug for card in load_pool().cards.values())
"""Every card's slug: a rule that bans them all shows whether a pass bounds the hand at all."""


def test_remembered_passes_never_rule_out_what_the_heuristic_com_holds() -> None:
    """Against the heuristic COM the memory is exact: in every slot a remembered pass speaks
    of, the trap really lying there is never one it rules out, and its tactics hand never
    holds more of the tactics a pass rules out than the cards it took since; and both speak
    often."""
    tally = _heuristic_games(40)
    assert tally.wrong_traps == 0 and tally.wrong_hands == 0
    assert tally.slots > 300 and tally.hands > 300


def test_the_remembering_sampler_deals_what_the_passes_allow_and_keeps_the_view() -> None:
    """Worlds dealt with the notes hold no ruled-out trap in its slot and no more ruled-out
    tactics in the hand than the pass allows (while the opponent has spare cards to deal
    instead), and look exactly like the truth from the deciding seat; the same worlds without
    the notes often break one of those."""
    tally = _heuristic_games(12)
    without = 0
    for state, seat, notes, avoid in tally.moments[::7][:25]:
        view = state.view(seat)
        noted = remembering_sampler(view, 5, notes)
        plain = world_sampler(view, 5, infer=True)
        for index in range(8):
            world = noted(index)
            assert isinstance(world, KoboState)
            world.audit()
            assert _dump(world.view(seat)) == _dump(view)
            assert not _breaks(world, 1 - seat, avoid)
            other = plain(index)
            assert isinstance(other, KoboState)
            without += _breaks(other, 1 - seat, avoid)
    assert without > 10


def _breaks(world: KoboState, opp: int, avoid: Avoid) -> bool:
    traps = any(world.defs[world.strategy[s]].slug in b for s, b in avoid.traps.items())
    return traps or any(tactics_beyond(world, opp, rule) > 0 for rule in avoid.tactics)


def test_notes_are_dropped_once_the_log_no_longer_continues_them() -> None:
    """A note holds while the log it was taken on starts the current one; after an undo to
    before the pass (or in a new game) it is gone, and the same moment asked twice is noted
    once."""
    state, seat, notes, _ = _heuristic_games(6).moments[0]
    view = state.view(seat)
    taken = notes[-1].length
    assert remember(view, notes) == notes
    assert remember(view | {"log": view["log"][: taken - 1]}, notes) == notes[:-1]
    assert remember(view | {"log": []}, notes) == ()
    rewritten = [dict(entry) for entry in view["log"]]
    rewritten[0]["kind"] = "something-else"
    fresh = remember(view | {"log": rewritten}, notes)  # this moment is noted anew, alone
    assert len(fresh) <= 1 and all(note.length == len(rewritten) for note in fresh)
    assert pickle.loads(pickle.dumps(notes)) == notes  # a server hands them to its workers


def test_the_search_keeps_notes_across_its_decisions_from_its_views_only() -> None:
    """つよい's player hands each view it decides from to the memory, and its searches deal
    worlds with the notes so far; the notes are a function of those views alone."""
    hooks = hooks_for("kobo", deep=True)
    assert hooks.remember is remember and hooks.noted_sampler is remembering_sampler
    seen: list[Json] = []
    noted: list[int] = []

    def recording_remember(view: Json, notes: Any) -> Any:
        seen.append(view)
        return remember(view, notes)

    def recording_sampler(view: Json, seed: int, notes: Any) -> Any:
        noted.append(len(notes))
        return remembering_sampler(view, seed, notes)

    spy = dataclasses.replace(hooks, remember=recording_remember, noted_sampler=recording_sampler)
    player = SearchPlayer("test", spy, SearchConfig(Budget(20)), 3)
    rules = registry.get("kobo")
    fortress = {**rules.default_config, "best_of": 1, "decks": ["fortress", "fortress"]}
    for seed in range(3):
        state = rules.new_game(fortress, seed)  # ten traps a side
        player.notes = None
        first = len(seen)
        play_out(state, {0: player, 1: HeuristicPlayer(1)})
        replayed: Any = None
        for view in seen[first:]:
            replayed = remember(view, replayed)
        assert replayed == player.notes
    assert seen and all(view["viewer"] == 0 for view in seen)
    assert any(noted), "no search was ever given a note"


@pytest.mark.parametrize("deep", [False, True])
def test_only_the_deep_model_remembers(deep: bool) -> None:
    hooks = hooks_for("kobo", deep=deep)
    assert (hooks.remember is not None) == deep
    assert (hooks.noted_sampler is not None) == deep

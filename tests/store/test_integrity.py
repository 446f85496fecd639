"""A record replayed after a card's Lv changed reports where it diverges and which card (the
record kept on either database)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from kessen.engine.replay import ReplayDivergence
from kessen.games.kobo.schema import load_pool
from kessen.store import MatchStore
from kessen.store.integrity import diagnose
from tests.store.helpers import play_recorded

SEED = 31


@pytest.fixture
def recorded(store_target: str) -> tuple[MatchStore, int, list[list[dict[str, object]]]]:
    store = MatchStore(store_target)
    match_id, _, events = play_recorded(store, SEED)
    return store, match_id, events


def _busiest_character(events: list[list[dict[str, object]]]) -> str:
    placed = Counter(str(e["card"]) for step in events for e in step if e.get("kind") == "place")
    return placed.most_common(1)[0][0]


def test_an_edited_lv_is_reported_with_the_first_diverging_step_and_the_card(
    recorded: tuple[MatchStore, int, list[list[dict[str, object]]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store, match_id, recorded_events = recorded
    slug = _busiest_character(recorded_events)
    pool = load_pool()
    old = pool.get(slug)
    new_lv = old.lv + 2 if old.lv <= 7 else old.lv - 2
    monkeypatch.setitem(pool.cards, slug, dataclasses.replace(old, lv=new_lv))

    replay = store.load_replay(match_id)
    with pytest.raises(ReplayDivergence) as raised:
        replay.final_state(verify=True)
    report = store.check(match_id)
    assert report is not None
    # The first state that differs (the printed Lv is part of the state from the start).
    assert report.step == raised.value.step == 0
    assert report.checkpoint == -1
    # The first step that went visibly another way, computed independently here.
    replayed: list[list[dict[str, object]]] = []
    seen = 0
    try:
        for state in replay.states(verify=False):
            log = state.log_events()
            replayed.append([e.visible(None, True) for e in log[seen:]])
            seen = len(log)
    except ReplayDivergence:
        pass
    first = next(
        i for i, (a, b) in enumerate(zip(replayed, recorded_events, strict=False)) if a != b
    )
    assert report.event_step == first > 0
    assert report.action == replay.actions[first - 1]
    assert report.events == replayed[first]
    # The card: its change (field, old and new value) and first among the suspects.
    assert [(c.slug, c.field, c.old, c.new) for c in report.changed] == [
        (slug, "lv", old.lv, new_lv)
    ]
    assert report.cards[0] == slug
    assert slug in report.mentioned
    text = report.describe()
    assert f"step {first}" in text and slug in text and "lv" in text


def test_an_unchanged_record_has_no_divergence(
    recorded: tuple[MatchStore, int, list[list[dict[str, object]]]],
) -> None:
    store, match_id, _ = recorded
    assert store.check(match_id) is None
    assert diagnose(store.load_replay(match_id)) is None


def test_a_bare_replay_still_names_the_cards_near_the_divergence(
    recorded: tuple[MatchStore, int, list[list[dict[str, object]]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store, match_id, recorded_events = recorded
    slug = _busiest_character(recorded_events)
    old = load_pool().get(slug)
    monkeypatch.setitem(
        load_pool().cards, slug, dataclasses.replace(old, lv=1 if old.lv != 1 else 2)
    )
    report = diagnose(store.load_replay(match_id))  # no digests, no card snapshot
    assert report is not None
    assert report.step == 0 and report.event_step is None and report.changed == []
    assert report.mentioned  # the cards of the initial deal


def test_an_action_that_is_no_longer_legal_is_reported(
    recorded: tuple[MatchStore, int, list[list[dict[str, object]]]],
) -> None:
    store, match_id, _ = recorded
    replay = store.load_replay(match_id)
    replay.actions[6] = "take no-such-card"
    report = diagnose(replay)
    assert report is not None
    assert report.step == 7 and report.illegal_step == 7
    assert "no longer legal" in report.describe()

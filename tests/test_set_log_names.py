"""The log of a match played on a designer's card set names the set's cards, live (the
session's views) and in replays (the match API), in Kōbō and Project Maken; a shipped match
read after it keeps the shipped names."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kessen.engine import card_sets, registry
from kessen.engine.card_sets import remember
from kessen.server.matches_api import replay_record, whole_replay
from kessen.server.session import Session
from kessen.store import MatchStore

RENAMED = "改"


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(card_sets.CACHE_ENV, str(tmp_path / "set-cache"))
    monkeypatch.setattr(card_sets, "_KNOWN", {})
    yield


def _renamed_set(ruleset: str, parent: str) -> str:
    """A set whose every card's Japanese name starts with 改: its reference."""
    fmt = card_sets.format_for(ruleset)
    data = fmt.shipped(parent)
    for card in data["cards"]:
        card["name_ja"] = RENAMED + str(card["name_ja"])
    text, digest = card_sets.canonical(fmt, data)
    remember(ruleset, text)
    return f"renamed@{digest}"


def _texts(session: Session) -> list[str]:
    view: Any = session.view_for(0, "ja", False)
    return [str(entry["text"]) for entry in view["log"]]


@pytest.mark.parametrize(("ruleset", "parent"), [("kobo", "v3"), ("maken", "shipped")])
def test_log_lines_name_the_sets_cards(ruleset: str, parent: str, tmp_path: Path) -> None:
    ref = _renamed_set(ruleset, parent)
    rules = registry.get(ruleset)
    plain = Session.create(ruleset, dict(rules.default_config), 11, "com_vs_com", "random", 0.0)
    config = {**rules.default_config, "card_set": ref}
    store = MatchStore(tmp_path / "m.sqlite3")
    designed = Session.create(ruleset, config, 11, "com_vs_com", "random", 0.0, store=store)
    for session in (plain, designed):
        for _ in range(60):
            seat = session.com_to_move()
            if seat is None:
                break
            session.apply_com(seat, session.live.legal_actions()[0])
    named = [t for t in _texts(designed) if RENAMED in t]
    assert named, "no log line names a card of the set"
    # Read after it, the shipped match keeps the shipped names.
    assert not any(RENAMED in t for t in _texts(plain))
    # The replay of the stored match names the set's cards too.
    replayed = whole_replay(replay_record(store.get(store.list_matches()[0].id)), "0", "ja", {})
    assert any(RENAMED in str(entry["text"]) for entry in replayed["log"])
    assert not any(RENAMED in t for t in _texts(plain))
    store.close()

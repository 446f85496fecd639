"""Designers' card sets in the store, on SQLite and on PostgreSQL: derive, revise, export,
import, delete; every revision kept by content hash; a record played with a set replays."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from kessen.engine import card_sets, registry
from kessen.engine.card_sets import SetProblems, content_hash
from kessen.games.kobo import card_sets as kobo_sets
from kessen.store import MatchStore, Recorder, db
from kessen.store.card_sets import CardSetStoreError
from kessen.store.copy import copy_store
from tests.conftest import new_store_target
from tests.store.helpers import com_action


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test's own on-disk cache of sets, and nothing remembered from another test."""
    monkeypatch.setenv(card_sets.CACHE_ENV, str(tmp_path / "set-cache"))
    monkeypatch.setattr(card_sets, "_KNOWN", {})
    yield


def _play(store: MatchStore, config: dict[str, object], seed: int) -> int:
    rules = registry.get("kobo")
    state = rules.new_game(config, seed)
    recorder = Recorder.start(store, state, config, seed, players={0: "heuristic", 1: "random"})
    while state.pending is not None:
        action = com_action(state, seed)
        state.apply(action)
        recorder.record(action, state)
    return recorder.match_id


def test_a_set_is_derived_revised_listed_and_exported(store_target: str) -> None:
    with MatchStore(store_target) as store:
        assert store.schema_version == db.SCHEMA_VERSION
        sets = store.card_sets()
        first = sets.derive("balance A", "kobo", "v3", note="from the shipped cards")
        assert (first.revisions, first.parent, first.ruleset) == (1, "shipped:v3", "kobo")
        assert [c.text("en") for c in first.log[0].changes] == ["derived from kobo v3"]
        assert first.head == content_hash(sets.text("balance A"))
        data = sets.data("balance A")
        data["cards"][0]["lv"] = 6
        data["decks"][0]["main"] = dict(reversed(list(data["decks"][0]["main"].items())))
        second, changes = sets.save("balance A", data, note="a stronger recruit")
        assert second.revisions == 2 and second.head != first.head
        assert "card ashigaru-recruit: lv 4 → 6" in [c.text("en") for c in changes]
        assert [e.note for e in second.log] == ["from the shipped cards", "a stronger recruit"]
        again, none = sets.save("balance A", sets.data("balance A"))
        assert none == [] and again.revisions == 2  # the same data: no new revision
        # The deck's order is the deal's: kept as written, not sorted.
        assert list(sets.data("balance A")["decks"][0]["main"]) == list(data["decks"][0]["main"])
        assert [i.name for i in sets.list_sets()] == ["balance A"]
        assert sets.list_sets("maken") == []
        exported = sets.export("balance A")
        assert exported.startswith("# Kessen card set") and second.head in exported
        _, same, new = sets.import_toml("balance A", exported)
        assert same == [] and not new  # comments are not data: the hash is the same
        copy, changes, new = sets.import_toml("copy", exported, ruleset="kobo", source="v2")
        assert new and copy.parent == "shipped:v2" and copy.head == second.head
        assert changes[0].op == "derived" and len(changes) > 2
        with pytest.raises(CardSetStoreError) as taken:
            sets.derive("copy", "kobo", "v3")
        assert taken.value.path == "name" and "もうあります" in taken.value.ja
        child = sets.derive("child", "kobo", "balance A")
        assert child.parent == f"set:{second.ref}" and child.head == second.head


def test_bad_data_and_names_are_refused_by_field_and_nothing_is_saved(store_target: str) -> None:
    with MatchStore(store_target) as store:
        sets = store.card_sets()
        sets.derive("mk", "maken", "shipped")
        data = sets.data("mk")
        data["cards"][4]["atk"] = 11
        data["decks"]["SO"]["cards"]["SO02"] = 9
        with pytest.raises(SetProblems) as found:
            sets.save("mk", data)
        paths = {p.path for p in found.value.problems}
        assert {"cards[4].atk", "decks.SO"} <= paths
        assert any(p.ja == "10以下にしてください" for p in found.value.problems)
        assert sets.info("mk").revisions == 1
        for bad in ("a@b", "shipped", "v2", "", "x" * 61):
            with pytest.raises(CardSetStoreError):
                sets.derive(bad, "kobo", "v3")
        with pytest.raises(card_sets.CardSetError):
            sets.derive("twgp set", "twgp", "shipped")
        with pytest.raises(CardSetStoreError) as unknown:
            sets.info("nothing")
        assert unknown.value.missing


def test_a_record_played_with_a_set_replays_and_keeps_its_revision(
    store_target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with MatchStore(store_target) as store:
        sets = store.card_sets()
        sets.derive("designed", "kobo", "v3")
        data = sets.data("designed")
        data["cards"][1]["lv"] = 5
        info, _ = sets.save("designed", data)
        config = {"decks": ["swarm", "vanguard"], "best_of": 1, "card_set": str(info.ref)}
        match_id = _play(store, config, 11)
        assert store.check(match_id) is None
        _, state = store.resume(match_id)
        assert state.to_json()["config"]["card_set"] == str(info.ref)
        # Deleting the set keeps the revision the record names, drops the unnamed one.
        assert sets.delete("designed") == 1
        with pytest.raises(CardSetStoreError):
            sets.info("designed")
        assert sets.revision_text("kobo", info.head) is not None
    card_sets._KNOWN.clear()  # as a fresh process: only the store has the data
    kobo_sets._load.cache_clear()
    monkeypatch.setenv(card_sets.CACHE_ENV, str(tmp_path / "empty-cache"))
    with MatchStore(store_target) as again:
        assert again.check(match_id) is None
    kobo_sets._load.cache_clear()
    assert card_sets.set_text("kobo", info.head) is not None  # cached by the check (disk)
    card_sets._KNOWN.clear()
    assert card_sets.set_text("kobo", info.head) is not None
    card_sets._KNOWN.clear()
    monkeypatch.setenv(card_sets.CACHE_ENV, str(tmp_path / "other-cache"))
    assert card_sets.set_text("kobo", info.head) is None  # the store is closed: detached


def test_card_sets_are_copied_with_the_store(
    store_target: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    with MatchStore(store_target) as store:
        sets = store.card_sets()
        sets.derive("kept", "kobo", "v3", note="note")
        data = sets.data("kept")
        data["cards"][2]["lv"] = 1
        sets.save("kept", data)
        target = new_store_target("sqlite", request, tmp_path)
        with MatchStore(target) as copy:
            report = copy_store(store, copy)
            assert report.counts["card_sets"] == 1 and report.counts["card_set_log"] == 2
            assert "1 card sets (2 revisions)" in report.describe()
            copied = copy.card_sets().info("kept", with_log=True)
            original = sets.info("kept", with_log=True)
            assert json.dumps(copied.to_json()) == json.dumps(original.to_json())
            assert copy.card_sets().text("kept") == sets.text("kept")
            assert copy.card_sets().derive("after", "kobo", "v3").id > copied.id


def test_an_exported_record_carries_its_set_or_refuses_clearly(
    store_target: str,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kessen.store import exchange
    from kessen.store.model import StoreError

    with MatchStore(store_target) as store:
        sets = store.card_sets()
        sets.derive("carried", "kobo", "v3")
        data = sets.data("carried")
        data["cards"][4]["lv"] = 2
        info, _ = sets.save("carried", data)
        match_id = _play(store, {"decks": ["tempo", "fortress"], "card_set": str(info.ref)}, 8)
        document = exchange.export_match(store, match_id)
        plain = _play(store, {"decks": ["tempo", "fortress"]}, 8)
        assert "card_set" not in exchange.export_match(store, plain)
    assert document["card_set"]["ref"] == str(info.ref)
    assert content_hash(document["card_set"]["data"]) == info.head
    card_sets._KNOWN.clear()
    target = new_store_target("sqlite", request, tmp_path)
    with MatchStore(target) as other:  # never held the set
        new_id = exchange.import_match(other, json.loads(json.dumps(document)))
        assert other.check(new_id) is None
        assert other.card_sets().revision_text("kobo", info.head) is not None
        again = exchange.export_match(other, new_id)
        assert again["card_set"] == document["card_set"]
        # A store that lost the data refuses to export, saying why.
        with other.database.transaction() as conn:
            conn.execute("DELETE FROM card_set_data")
        with pytest.raises(StoreError, match="whose data this store does not hold"):
            exchange.export_match(other, new_id)
    tampered = json.loads(json.dumps(document))
    tampered["card_set"]["data"] = tampered["card_set"]["data"].replace("lv = 2", "lv = 3", 1)
    with pytest.raises(exchange.ExchangeError, match="the file was changed"):
        exchange.from_json(tampered)
    missing = json.loads(json.dumps(document))
    del missing["card_set"]
    card_sets._KNOWN.clear()  # a process that never saw the set: nothing known, nothing cached
    kobo_sets._load.cache_clear()
    monkeypatch.setenv(card_sets.CACHE_ENV, str(tmp_path / "empty-cache"))
    with MatchStore(new_store_target("sqlite", request, tmp_path)) as empty:
        with pytest.raises(exchange.ImportDivergence, match="no kobo card set carried@"):
            exchange.import_match(empty, missing)
        assert empty.count() == 0

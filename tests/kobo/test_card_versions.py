"""Card data versions: a record made under earlier card data replays exactly as it was played.

``tests/fixtures/kobo_cards_v1_match.json`` is a best-of-three COM match exported by
``kessen store export`` from the release before card data had versions (its data hash is the
SHA-256 of ``data/cards-v1.toml``). ``tests/fixtures/kobo_cards_v2_match.json`` is a COM game
recorded by the simulator under card data version 2 (the surprise option on, the option deck
``ambush`` against ``vanguard``, both named as starter decks), exported before version 3.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from kessen.engine import registry
from kessen.engine.replay import Replay
from kessen.games.kobo.card_versions import (
    LEGACY_VERSION,
    archived_versions,
    current_version,
    known_versions,
    pool_for,
    record_config,
    starters_for,
    version_of_hash,
)
from kessen.games.kobo.config import ConfigError
from kessen.games.kobo.schema import load_pool
from kessen.games.kobo.state import KoboState
from kessen.games.kobo.text import card_text
from kessen.store import MatchStore
from kessen.store.html_replay import answers

FIXTURES = Path(__file__).parent.parent / "fixtures"
FIXTURE = FIXTURES / "kobo_cards_v1_match.json"
V2_FIXTURE = FIXTURES / "kobo_cards_v2_match.json"


def old_record(path: Path = FIXTURE) -> dict[str, object]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_every_earlier_version_is_kept_and_the_current_one_is_newest() -> None:
    archive = archived_versions()
    assert LEGACY_VERSION in archive
    assert current_version() > max(archive)
    assert known_versions() == [*sorted(archive), current_version()]
    hashes = [pool.data_hash for pool in archive.values()] + [load_pool().data_hash]
    assert len(set(hashes)) == len(hashes)
    for version, pool in archive.items():
        assert version_of_hash(pool.data_hash) == version


def test_a_record_from_before_versions_replays_under_its_own_card_data() -> None:
    document = old_record()
    replay = Replay.from_json(document["replay"])  # type: ignore[arg-type]
    assert "card_data" not in replay.config
    assert version_of_hash(replay.data_hash) == LEGACY_VERSION
    final = replay.final_state(verify=True)  # every recorded state hash matches
    assert isinstance(final, KoboState)
    assert final.pending is None and final.config.card_data == LEGACY_VERSION
    assert all(d == pool_for(LEGACY_VERSION).get(d.slug) for d in final.defs)


def test_a_version_2_record_replays_with_its_kept_cards_and_option_deck() -> None:
    document = old_record(V2_FIXTURE)
    replay = Replay.from_json(document["replay"])  # type: ignore[arg-type]
    assert replay.config["decks"] == ["ambush", "vanguard"] and replay.config["surprise"]
    assert version_of_hash(replay.data_hash) == 2 < current_version()
    final = replay.final_state(verify=True)  # every recorded state hash matches
    assert isinstance(final, KoboState)
    assert final.pending is None and final.config.card_data == 2
    assert all(d == pool_for(2).get(d.slug) for d in final.defs)
    kept = starters_for(2, frozenset({"surprise"}))
    assert final.config.decks == (kept["ambush"], kept["vanguard"])
    assert "ambush" not in starters_for(2)


@pytest.mark.parametrize("path", [FIXTURE, V2_FIXTURE])
def test_store_check_passes_an_imported_old_record(tmp_path: Path, path: Path) -> None:
    with MatchStore(tmp_path / "store.db") as store:
        match_id = store.import_match(old_record(path), check=True)
        assert store.check(match_id) is None


def test_a_new_game_names_its_card_data_and_an_old_state_keeps_its_hash() -> None:
    rules = registry.get("kobo")
    new = rules.new_game({"decks": ["swarm", "tempo"]}, 1)
    assert isinstance(new, KoboState)
    assert new.to_json()["config"]["card_data"] == current_version()
    legacy = rules.new_game({"decks": ["swarm", "tempo"], "card_data": LEGACY_VERSION}, 1)
    assert "card_data" not in legacy.to_json()["config"]
    again = KoboState.from_json(legacy.to_json())
    assert again.state_hash() == legacy.state_hash()
    assert again.config.card_data == LEGACY_VERSION


def test_record_config_pins_only_configs_that_name_no_card_data() -> None:
    legacy_hash = pool_for(LEGACY_VERSION).data_hash
    assert record_config({"decks": []}, legacy_hash) == {"decks": [], "card_data": 1}
    assert record_config({"decks": [], "card_data": 2}, legacy_hash)["card_data"] == 2
    assert record_config({"decks": []}, "unknown-hash") == {"decks": []}


@pytest.mark.parametrize("value", [0, 99, "2", True, None])
def test_an_unknown_card_data_version_is_refused_by_name(value: object) -> None:
    with pytest.raises(ConfigError, match="card_data: expected a card data version"):
        registry.get("kobo").new_game({"decks": ["swarm", "tempo"], "card_data": value}, 1)


def test_old_matches_show_their_cards_as_they_were(tmp_path: Path) -> None:
    legacy, current = pool_for(LEGACY_VERSION), load_pool()
    changed = [
        slug
        for slug, card in legacy.cards.items()
        if dataclasses.replace(current.get(slug), icon=card.icon) != card
    ]
    assert changed, "the balance pass changed cards between version 1 and the current data"
    rules = registry.get("kobo")
    old = rules.catalog("en", {"card_data": LEGACY_VERSION})
    new = rules.catalog("en")
    assert (old["card_data"], new["card_data"]) == (LEGACY_VERSION, current_version())
    for slug in changed:
        was, now = old["cards"][slug], new["cards"][slug]
        assert (was["text"], was["lv"]) == (card_text(legacy.get(slug), "en"), legacy.get(slug).lv)
        assert (was["text"], was["lv"]) != (now["text"], now["lv"])
        assert was["icon"] == now["icon"]  # earlier data had no icons: today's is shown
    # The exported replay (kessen store html) carries the catalogue of the record's own data.
    with MatchStore(tmp_path / "store.db") as store:
        match_id = store.import_match(old_record(), check=True)
        found, _ = answers(store, match_id)
    assert found["/api/catalog/kobo?lang=en"] == old

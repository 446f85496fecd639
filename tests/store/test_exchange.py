"""Export → import → replay gives the same hashes; bad files are refused with a reason.

The round trip runs on both databases (from a store on each into a store on the other).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kessen.store import MatchStore, exchange
from tests.conftest import BACKENDS, new_store_target
from tests.store.helpers import play_recorded


@pytest.mark.parametrize(("source_db", "dest_db"), [BACKENDS, BACKENDS[::-1]])
def test_export_import_replay_gives_the_same_hashes(
    tmp_path: Path, request: pytest.FixtureRequest, source_db: str, dest_db: str
) -> None:
    a = new_store_target(source_db, request, tmp_path)
    b = new_store_target(dest_db, request, tmp_path)
    with MatchStore(a) as source, MatchStore(b) as dest:
        match_id, final, _ = play_recorded(source, 13, best_of=3)
        path = exchange.write(source, match_id, tmp_path / "m.json")
        document = json.loads(path.read_text(encoding="utf-8"))
        assert document["format"] == exchange.FORMAT
        assert set(document["cards"]) <= set(final.to_json()["cards"])
        new_id = exchange.read(dest, path)

        before, after = source.get(match_id), dest.get(new_id)
        original, imported = before.replay(), after.replay()
        assert imported == original  # config, seed, actions, version, data hash, hashes
        hashes = [s.state_hash() for s in imported.states(verify=True)]
        assert hashes[-1] == final.state_hash()
        assert [s.state_hash() for s in original.states(verify=True)] == hashes
        assert after.event_digests == before.event_digests
        assert after.results == before.results and after.decks == before.decks
        for field in ("players", "winner", "reason", "created", "finished", "seed", "decks"):
            assert getattr(after.info, field) == pytest.approx(getattr(before.info, field))
        assert after.info.source == "import"
        assert after.meta["imported"] == {"source": "play", "id": match_id, "parent": None}
        # The card snapshot travelled: the other store can still name changed cards.
        cards = dest.recorded_cards("kobo", after.info.data_hash)
        assert cards is not None and set(document["cards"]) <= set(cards)
        assert dest.check(new_id) is None
        # An unfinished match exports and imports unfinished.
        branch = source.branch(match_id, 9)
        again = dest.import_match(source.export_match(branch))
        assert not dest.info(again).is_finished and dest.info(again).steps == 9


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], "expected a JSON object"),
        ({"format": "other"}, "not a match export"),
        ({"format": exchange.FORMAT, "format_version": 99}, "not supported"),
        ({"format": exchange.FORMAT, "format_version": 1}, "needs 'match' and 'replay'"),
        (
            {"format": exchange.FORMAT, "format_version": 1, "match": {}, "replay": {"x": 1}},
            "malformed",
        ),
    ],
)
def test_bad_documents_are_refused(document: object, message: str) -> None:
    with MatchStore(":memory:") as store, pytest.raises(exchange.ExchangeError, match=message):
        exchange.import_match(store, document)


def test_a_file_that_is_not_json_names_the_position(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{\n oops", encoding="utf-8")
    with MatchStore(":memory:") as store, pytest.raises(exchange.ExchangeError, match=r":2:"):
        exchange.read(store, path)

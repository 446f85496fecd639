"""The history's states and deletion over a real server and a temporary store: a match is
``live`` while the server plays it, ``abandoned`` when left unfinished for good (or finished
as abandoned), ``finished`` otherwise; the ``state`` filter lists each; deleting one or many
removes the records for good, refuses a match being played and unknown ids, and is answered
only to the server's own machine when it serves the network. The store is an SQLite file and a
PostgreSQL database in turn (``store_target``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from kessen.engine.contract import Outcome
from kessen.server.run import running
from kessen.store.records import MatchStore
from tests.test_history_api import add, play


@pytest.fixture()
def served(store_target: str) -> Iterator[tuple[str, MatchStore, dict[str, int]]]:
    store = MatchStore(store_target)
    human = {"0": "human", "1": "heuristic"}
    replay, state = play(["fortress", "swarm"], 5)
    ids = {"won": add(store, replay, state, human, "server", 1.0e9)}
    replay, state = play(["swarm", "tempo"], 9, steps=30)
    ids["ghost"] = add(store, replay, state, human, "server", 1.0e9 + 10)
    replay, state = play(["tempo", "swarm"], 3, steps=20)
    ids["left"] = add(store, replay, state, human, "server", 1.0e9 + 20)
    store.finish_match(ids["left"], None)  # the server abandoned it
    with running(pace=0.0, store=store) as url:
        yield url, store, ids
    store.close()


def listing(url: str, **params: Any) -> list[dict[str, Any]]:
    answer = httpx2.get(f"{url}/api/matches", params=params, timeout=30)
    assert answer.status_code == 200, answer.text
    rows: list[dict[str, Any]] = answer.json()["matches"]
    return rows


def test_states_and_the_state_filter(served: tuple[str, MatchStore, dict[str, int]]) -> None:
    url, store, ids = served
    game = httpx2.post(f"{url}/api/games", json={"mode": "vs_com"}, timeout=30).json()
    live = game["match_id"] if "match_id" in game else max(i.id for i in store.list_matches())
    states = {row["id"]: row["state"] for row in listing(url)}
    assert states == {
        ids["won"]: "finished",
        ids["ghost"]: "abandoned",
        ids["left"]: "abandoned",
        live: "live",
    }
    assert [r["id"] for r in listing(url, state="live")] == [live]
    assert {r["id"] for r in listing(url, state="abandoned")} == {ids["ghost"], ids["left"]}
    assert [r["id"] for r in listing(url, state="finished")] == [ids["won"]]
    bad = httpx2.get(f"{url}/api/matches", params={"state": "gone"}, timeout=30)
    assert bad.status_code == 422 and "state" in bad.text
    # A match being played cannot be deleted, nor a selection holding it (nothing deleted).
    refused = httpx2.delete(f"{url}/api/matches/{live}", timeout=30)
    assert refused.status_code == 409 and "leave it first" in refused.text
    many = httpx2.post(f"{url}/api/matches/delete", json={"ids": [ids["won"], live]}, timeout=30)
    assert many.status_code == 409
    assert store.info(ids["won"]).id == ids["won"]


def test_delete_one_and_many_for_good(served: tuple[str, MatchStore, dict[str, int]]) -> None:
    url, store, ids = served
    one = httpx2.delete(f"{url}/api/matches/{ids['won']}", timeout=30)
    assert one.status_code == 200 and one.json() == {"deleted": [ids["won"]]}
    assert httpx2.delete(f"{url}/api/matches/{ids['won']}", timeout=30).status_code == 404
    many = httpx2.post(
        f"{url}/api/matches/delete", json={"ids": [ids["ghost"], ids["left"], 999]}, timeout=30
    )
    assert many.status_code == 200, many.text
    assert many.json() == {"deleted": sorted([ids["ghost"], ids["left"]]), "missing": [999]}
    assert store.list_matches() == []
    bodies: list[Any] = [{"ids": []}, {"ids": [0]}, {"ids": list(range(1, 102))}, {"ids": "1"}, {}]
    for body in bodies:
        bad = httpx2.post(f"{url}/api/matches/delete", json=body, timeout=30)
        assert bad.status_code == 422, (body, bad.text)


def test_the_store_lists_states_and_deletes_all_or_none(store_target: str) -> None:
    with MatchStore(store_target) as store:
        replay, state = play(["fortress", "swarm"], 5, steps=10)
        a = add(store, replay, state, {"0": "human", "1": "heuristic"}, "server", 1.0e9)
        b = add(store, replay, state, {"0": "human", "1": "heuristic"}, "server", 1.0e9 + 1)
        store.finish_match(b, Outcome(winner=0, reason="resign"))
        assert [m.id for m in store.list_matches(state="live", live={a})] == [a]
        assert [m.id for m in store.list_matches(state="abandoned", live={a})] == []
        assert [m.id for m in store.list_matches(state="abandoned")] == [a]
        assert [m.id for m in store.list_matches(state="finished")] == [b]
        assert store.delete_matches([a, b, 77]) == [a, b]
        assert store.count() == 0


def test_a_server_on_the_network_deletes_records_only_for_its_own_machine(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from kessen.server.app import create_app

    with MatchStore(tmp_path / "m.sqlite3") as store:
        replay, state = play(["fortress", "swarm"], 5, steps=10)
        kept = add(store, replay, state, {"0": "human", "1": "heuristic"}, "server", 1.0e9)
        app = create_app(pace=0.0, store=store, host="0.0.0.0", port=8765)
        base = "http://192.168.1.10:8765"
        with (
            TestClient(app, base_url=base, client=("192.168.1.20", 50000)) as friend,
            TestClient(app, base_url=base, client=("127.0.0.1", 50000)) as local,
        ):
            for answer in (
                friend.delete(f"/api/matches/{kept}"),
                friend.post("/api/matches/delete", json={"ids": [kept]}),
            ):
                assert answer.status_code == 403 and "only that machine" in answer.text
            assert store.info(kept).id == kept
            assert local.delete(f"/api/matches/{kept}").status_code == 200


def test_leaving_a_match_for_good_marks_it_abandoned(
    served: tuple[str, MatchStore, dict[str, int]],
) -> None:
    """新しい対戦 during a match against COM posts ``/leave`` with the match's token: the server
    closes the session and the history shows the match as abandoned at once; only that token
    does it, and between two people a seat resigns instead."""
    url, store, _ = served
    game = httpx2.post(f"{url}/api/games", json={"mode": "vs_com"}, timeout=30).json()
    match = max(i.id for i in store.list_matches())
    leave = f"{url}/api/games/{game['id']}/leave"
    assert httpx2.post(leave, timeout=30).status_code == 404  # no token
    wrong = httpx2.post(leave, headers={"X-Kessen-Token": "x" * 22}, timeout=30)
    assert wrong.status_code == 404 and "no such game" in wrong.json()["detail"]
    assert {r["id"]: r["state"] for r in listing(url)}[match] == "live"
    done = httpx2.post(leave, headers={"X-Kessen-Token": game["token"]}, timeout=30)
    assert done.status_code == 200, done.text
    assert done.json() == {"id": game["id"], "match": match, "abandoned": True}
    assert {r["id"]: r["state"] for r in listing(url)}[match] == "abandoned"
    again = httpx2.post(leave, headers={"X-Kessen-Token": game["token"]}, timeout=30)
    assert again.status_code == 404  # closed already: nothing to do twice

    watched = httpx2.post(f"{url}/api/games", json={"mode": "com_vs_com"}, timeout=30).json()
    closed = httpx2.post(
        f"{url}/api/games/{watched['id']}/leave",
        headers={"X-Kessen-Token": watched["token"]},
        timeout=30,
    )
    assert closed.status_code == 200, closed.text

    friend = httpx2.post(f"{url}/api/games", json={"mode": "vs_human"}, timeout=30).json()
    refused = httpx2.post(
        f"{url}/api/games/{friend['id']}/leave",
        headers={"X-Kessen-Token": friend["token"]},
        timeout=30,
    )
    assert refused.status_code == 409 and "resign" in refused.json()["detail"]

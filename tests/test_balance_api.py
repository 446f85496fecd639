"""The design screen's balance runs over HTTP: a run starts, shows its progress and ends with its
figures, its records replaying; an A/B run plays the same seeds with two card data and compares
them; a run is cancelled (its worker processes stopped at once) and resumed; a server that stops
leaves its run stopped, and the next one shows it and resumes it without playing a game twice;
runs of ``kessen sim --compare`` show as A/B runs; bad requests get their problem by field; and
a client of another machine gets 403 on every route."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient

from kessen.engine import card_sets
from kessen.server.app import create_app
from kessen.server.balance_runs import BalanceRuns, NiceBackend
from kessen.sim.backends import Backend, InlineBackend
from kessen.sim.tournament import StoreJournal, TournamentSpec, run
from kessen.store import MatchStore

LAN = "http://192.168.1.10:8765"
LOCAL = "http://127.0.0.1:8765"
RUN = "/api/balance/runs/1"
ROUTES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/api/balance/form?ruleset=kobo", None),
    ("GET", "/api/balance/runs", None),
    ("POST", "/api/balance/runs", {"ruleset": "kobo", "players": ["random"], "games": 1}),
    ("GET", RUN, None),
    ("POST", f"{RUN}/cancel", None),
    ("POST", f"{RUN}/resume", None),
    ("GET", f"{RUN}/results", None),
]
"""Every balance route, with a body it accepts."""
SMALL: dict[str, Any] = {
    "ruleset": "kobo",
    "decks": ["fortress", "swarm"],
    "players": ["heuristic"],
    "games": 4,
    "seed": 7,
}
T = TypeVar("T")


class Paced(InlineBackend):
    """Games in this process, each task after a short pause (time to cancel or stop)."""

    def map_unordered(self, fn: Callable[[T], Any], items: Sequence[T]) -> Iterator[Any]:
        """Each task after a pause."""
        for item in items:
            time.sleep(0.1)
            yield fn(item)


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(card_sets.CACHE_ENV, str(tmp_path / "set-cache"))
    yield


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MatchStore]:
    with MatchStore(tmp_path / "m.sqlite3") as opened:
        yield opened


@contextmanager
def serving(
    store: MatchStore, backend: Callable[[], Backend] | None = InlineBackend
) -> Iterator[TestClient]:
    """A local server over ``store`` whose runs play on ``backend`` (None: its own)."""
    app = create_app(pace=0.0, store=store)
    balance: BalanceRuns = app.state.balance
    balance.backend_factory = backend
    with TestClient(app, base_url=LOCAL) as client:
        yield client


def wait(client: TestClient, run_id: int, until: Callable[[dict[str, Any]], bool]) -> Any:
    """The run's status once ``until`` holds (fails after 60 s)."""
    deadline = time.monotonic() + 60
    while True:
        status = client.get(f"/api/balance/runs/{run_id}").json()
        if until(status):
            return status
        assert time.monotonic() < deadline, status
        time.sleep(0.05)


def finished(status: dict[str, Any]) -> bool:
    return status["state"] not in ("queued", "running")


def derive_changed_set(client: TestClient, name: str = "swarm-fix") -> None:
    """A set derived from Kōbō v3 with one card's Lv and one effect amount changed."""
    assert client.post("/api/design/sets", json={"name": name, "from": "v3"}).status_code == 200
    data = client.get(f"/api/design/sets/{name}").json()["data"]
    for card in data["cards"]:
        if card["slug"] == "ashigaru-recruit":
            card["lv"] = 6
        if card["slug"] == "rally-banner":
            card["steps"][0]["amount"] = 2
    saved = client.put(f"/api/design/sets/{name}", json={"data": data, "note": "swarm"})
    assert saved.status_code == 200, saved.text


def test_a_client_of_another_machine_gets_403_on_every_balance_route(
    store: MatchStore,
) -> None:
    app = create_app(pace=0.0, store=store, host="0.0.0.0", port=8765)
    with (
        TestClient(app, base_url=LAN, client=("127.0.0.1", 50000)) as local,
        TestClient(app, base_url=LAN, client=("192.168.1.20", 50000)) as friend,
    ):
        paths = local.app.openapi()["paths"]  # type: ignore[attr-defined]
        served = {
            (method.upper(), path.replace("{run_id}", "1"))
            for path, methods in paths.items()
            if path.startswith("/api/balance")
            for method in methods
        }
        assert served == {(m, p.split("?")[0]) for m, p, _ in ROUTES}  # ROUTES has them all
        for method, url, body in ROUTES:
            answer = friend.request(method, url, json=body)
            assert answer.status_code == 403, (method, url, answer.text)
            assert "not served to other machines" in answer.text
        assert store.sim_runs() == []  # nothing was started
        assert local.get("/api/balance/runs").json()["runs"] == []  # the machine's own: served


def test_a_run_shows_its_progress_and_figures_and_its_records_replay(store: MatchStore) -> None:
    with serving(store) as client:
        form = client.get("/api/balance/form", params={"ruleset": "kobo", "lang": "en"}).json()
        assert [s["value"] for s in form["sources"]][:1] == ["v3"]
        assert {"fortress", "swarm"} <= {d["slug"] for d in form["decks"]}
        assert "heuristic" in form["players"] and "tutorial" not in form["players"]
        assert {"surprise", "first_tactics"} <= {s["key"] for s in form["switches"]}
        started = client.post("/api/balance/runs", json={**SMALL, "name": "first"})
        assert started.status_code == 200, started.text
        status = started.json()
        assert status["state"] in ("queued", "running") and status["total"] == 4
        done = wait(client, status["id"], finished)
        assert done["state"] == "done" and done["done"] == done["total"] == 4, done
        listed = client.get("/api/balance/runs").json()["runs"]
        assert [(r["name"], r["kind"], r["state"]) for r in listed] == [("first", "single", "done")]
        results = client.get(f"/api/balance/runs/{status['id']}/results?lang=en").json()
    assert results["kind"] == "single"
    half = results["halves"][0]
    assert half["games"] == 4 and half["side"]["label"] == "v3"
    assert half["matchups"][0]["games"]["n"] == 4
    assert 0 <= half["matchups"][0]["games"]["ci95"][0] <= half["matchups"][0]["games"]["rate"]
    assert half["first_player"]["n"] == 4
    played = [c["played"] for c in half["cards"].values() if c["played"]["n"]]
    assert played and all(p["ci95"][0] <= p["rate"] <= p["ci95"][1] for p in played)
    assert results["deck_names"]["swarm"] and results["card_names"]["ashigaru-recruit"]
    ids = [g["results"][0]["match_id"] for g in results["games"]]
    assert len(ids) == 4 and None not in ids
    for match_id in ids:  # kept in the store with their full record: they replay exactly
        assert store.check(match_id) is None
        assert store.info(match_id).source == "sim"


def test_an_ab_run_plays_the_same_seeds_on_two_card_data_and_compares(store: MatchStore) -> None:
    with serving(store) as client:
        derive_changed_set(client)
        form = client.get(
            "/api/balance/form", params={"ruleset": "kobo", "a": "v3", "b": "swarm-fix"}
        ).json()
        assert {"value": "swarm-fix", "kind": "set"}.items() <= form["sources"][-1].items()
        body = {**SMALL, "sides": ["v3", "swarm-fix"], "name": "fix"}
        status = client.post("/api/balance/runs", json=body).json()
        done = wait(client, status["id"], finished)
        assert (done["state"], done["done"], done["total"]) == ("done", 8, 8)
        assert [s["label"] for s in done["sides"]] == ["v3", "swarm-fix"]
        assert done["runs"] == ["fix-a", "fix-b"]  # as `kessen sim --compare` names them
        results = client.get(f"/api/balance/runs/{status['id']}/results").json()
    compare = results["compare"]
    assert compare["names"] == ["v3", "swarm-fix"] and compare["paired_games"] == 4
    row = compare["matchups"][0]
    assert row["pair"] == [0, 1] and row["test"]["paired"]
    assert {"rate_a", "rate_b", "diff", "diff_ci95"} <= set(row)
    assert {"first_player", "draws", "turns", "entrants", "played"} <= set(compare)
    ref = store.card_sets().info("swarm-fix").ref
    for game in results["games"]:  # the same game, seed and seats in both halves
        first, second = game["results"]
        a, b = store.get(first["match_id"]), store.get(second["match_id"])
        assert a.info.seed == b.info.seed == int(game["seed"])
        assert "card_set" not in a.config and b.config["card_set"] == str(ref)
        assert store.check(first["match_id"]) is None and store.check(second["match_id"]) is None


def test_a_run_is_cancelled_at_once_and_resumed(store: MatchStore) -> None:
    with serving(store, backend=lambda: NiceBackend(1)) as client:
        body = {**SMALL, "games": 2000, "name": "long"}
        status = client.post("/api/balance/runs", json=body).json()
        wait(client, status["id"], lambda s: s["done"] >= 1)
        running = client.get(f"/api/balance/runs/{status['id']}").json()
        assert running["state"] == "running"
        assert running["rate"] and running["eta_seconds"] is not None  # progress with an ETA
        cancelled = client.post(f"/api/balance/runs/{status['id']}/cancel")
        assert cancelled.status_code == 200
        stopped = wait(client, status["id"], finished)
        assert stopped["state"] == "stopped" and stopped["cancelled"]
        kept = stopped["done"]
        assert 1 <= kept < 2000
        time.sleep(1.0)  # the worker processes are gone: no game is journaled any more
        assert client.get(f"/api/balance/runs/{status['id']}").json()["done"] == kept
        again = client.post(f"/api/balance/runs/{status['id']}/cancel")
        assert again.status_code == 422 and again.json()["detail"]["problems"][0]["ja"]
        client.app.state.balance.backend_factory = Paced  # type: ignore[attr-defined]
        assert client.post(f"/api/balance/runs/{status['id']}/resume").status_code == 200
        wait(client, status["id"], lambda s: s["done"] > kept)  # on from where it stopped
        client.post(f"/api/balance/runs/{status['id']}/cancel")
        last = wait(client, status["id"], finished)
    games = store.sim_done(status["id"])
    assert len(games) == last["done"] > kept
    assert len({m for m, _ in games.values()}) == len(games)  # one record per game
    assert len(store.list_matches(source="sim", limit=5000)) == len(games)  # none played twice


def test_a_stopped_server_leaves_its_run_stopped_and_the_next_resumes_it(
    store: MatchStore,
) -> None:
    with serving(store, backend=Paced) as client:
        status = client.post("/api/balance/runs", json={**SMALL, "games": 40}).json()
        wait(client, status["id"], lambda s: s["done"] >= 2)
    # The server stopped (its lifespan ended): the run stopped with it, its games kept.
    with serving(store) as client:
        listed = client.get("/api/balance/runs").json()["runs"]
        assert [r["state"] for r in listed] == ["stopped"]
        kept = listed[0]["done"]
        assert 2 <= kept < 40 and not listed[0]["cancelled"]
        partial = client.get(f"/api/balance/runs/{status['id']}/results").json()
        assert partial["halves"][0]["games"] == kept and partial["status"]["done"] == kept
        assert client.post(f"/api/balance/runs/{status['id']}/resume").status_code == 200
        done = wait(client, status["id"], finished)
        assert (done["state"], done["done"]) == ("done", 40)
        complete = client.post(f"/api/balance/runs/{status['id']}/resume")
        assert complete.status_code == 422
    assert len(store.sim_done(status["id"])) == 40
    assert len(store.list_matches(source="sim", limit=1000)) == 40  # no game played twice


def test_runs_of_the_command_line_show_as_runs(store: MatchStore) -> None:
    spec = TournamentSpec(decks=("fortress", "swarm"), players=("random",), games=2, seed=3)
    for suffix in ("a", "b"):  # what `kessen sim --compare shipped,shipped --run cli` keeps
        run(spec, StoreJournal(store, f"cli-{suffix}", spec), InlineBackend())
    run(spec, StoreJournal(store, "solo", spec), InlineBackend())
    with serving(store) as client:
        listed = client.get("/api/balance/runs").json()["runs"]
        assert [(r["name"], r["kind"], r["state"]) for r in listed] == [
            ("solo", "single", "done"),
            ("cli", "ab", "done"),
        ]
        ab = next(r for r in listed if r["name"] == "cli")
        results = client.get(f"/api/balance/runs/{ab['id']}/results").json()
        assert results["compare"]["paired_games"] == 2
        taken = client.post(
            "/api/balance/runs", json={**SMALL, "sides": ["v3", "v2"], "name": "cli"}
        )
        assert taken.status_code == 422
        assert taken.json()["detail"]["problems"][0]["path"] == "name"


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"sides": ["v3", "no-such-set"]}, "sides[1]"),
        ({"sides": ["v3", "v3"]}, "sides[1]"),
        ({"games": 20_000}, "games"),
        ({"options": {"card_data": 2}}, "options"),
        ({"name": "two words"}, "name"),
        ({"name": "half-a"}, "name"),
        ({"players": ["nobody"]}, ""),
        ({"decks": ["no-such-deck"]}, ""),
        ({"options": {"first_tactics": 99}}, ""),
        ({"ruleset": "twgp", "decks": [], "sides": ["v3"]}, "sides[0]"),
    ],
)
def test_a_bad_request_gets_its_problem_by_field(
    store: MatchStore, change: dict[str, Any], path: str
) -> None:
    with serving(store) as client:
        answer = client.post("/api/balance/runs", json={**SMALL, **change})
        assert answer.status_code == 422, answer.text
        (problem,) = answer.json()["detail"]["problems"]
        assert problem["path"] == path
        assert problem["en"] and problem["ja"] and problem["ja"] != ""
        assert client.get("/api/balance/runs").json()["runs"] == []  # nothing started
        assert client.get("/api/balance/runs/99").status_code == 404


def test_the_other_games_run_too(store: MatchStore) -> None:
    with serving(store) as client:
        form = client.get("/api/balance/form", params={"ruleset": "twgp"}).json()
        assert form["sources"] == [] and not form["has_decks"]
        assert any(s["key"] == "gridWidth" and s["values"] == [5, 3] for s in form["switches"])
        twgp = {"ruleset": "twgp", "players": ["random", "heuristic"], "games": 2}
        status = client.post("/api/balance/runs", json={**twgp, "options": {"gridWidth": 3}})
        assert status.status_code == 200, status.text
        assert wait(client, status.json()["id"], finished)["state"] == "done"
        maken = client.get("/api/balance/form", params={"ruleset": "maken"}).json()
        assert [s["value"] for s in maken["sources"]] == ["shipped"]
        body = {"ruleset": "maken", "decks": ["SO", "GA"], "players": ["random"], "games": 2}
        status = client.post("/api/balance/runs", json=body)
        assert status.status_code == 200, status.text
        assert wait(client, status.json()["id"], finished)["state"] == "done"
        results = client.get(f"/api/balance/runs/{status.json()['id']}/results").json()
        assert results["halves"][0]["side"]["label"] == "shipped"


def test_a_server_without_a_store_has_no_runs() -> None:
    with TestClient(create_app(pace=0.0), base_url=LOCAL) as client:
        assert client.get("/api/balance/runs").status_code == 503
        assert client.post("/api/balance/runs", json=SMALL).status_code == 503


def test_the_games_go_to_the_cluster_the_server_thinks_on(store: MatchStore) -> None:
    assert BalanceRuns(store, workers=3).backend_kind() == {"kind": "local", "workers": 3}
    on_ray = BalanceRuns(store, on_cluster=lambda: True)
    assert on_ray.backend_kind()["kind"] == "ray"


def test_a_run_ending_while_its_status_is_read_is_never_reported_stopped(
    store: MatchStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A status read of the store that is slow (a loaded machine) while the run's last game
    ends: the run reads running, then done, never stopped (the job's state is taken before
    the store is read, so the store is never older than it)."""
    original = BalanceRuns._groups

    def slow_read(self: BalanceRuns) -> Any:
        groups = original(self)
        time.sleep(0.1)  # the run goes on meanwhile
        return groups

    monkeypatch.setattr(BalanceRuns, "_groups", slow_read)
    with serving(store) as client:
        body = {"ruleset": "twgp", "players": ["random", "heuristic"], "games": 40}
        status = client.post("/api/balance/runs", json=body)
        assert status.status_code == 200, status.text
        run_id = status.json()["id"]
        seen: list[str] = []
        deadline = time.monotonic() + 60
        while not seen or seen[-1] in ("queued", "running"):
            seen.append(client.get(f"/api/balance/runs/{run_id}").json()["state"])
            assert time.monotonic() < deadline, seen
        assert seen[-1] == "done" and "stopped" not in seen, seen

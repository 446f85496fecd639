"""The match history API over a real server and a temporary store: listing and filtering,
per-step views equal to the replayed states' views, hidden cards kept hidden before the end,
and continuing a recorded match as a new branch game against COM; on an SQLite store and on a
PostgreSQL one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx2
import pytest
from websockets.sync.client import ClientConnection, connect

from kessen.engine import registry
from kessen.engine.contract import GameState, Json
from kessen.engine.replay import Replay
from kessen.server.run import running
from kessen.store.records import MatchStore, NewMatch
from tests.conftest import BACKENDS, new_store_target

DAY = 86_400.0
OPEN_TOKEN = "token-of-the-open-match"
"""The token of the person playing the unfinished match (it opens that seat's view only)."""
T0 = datetime(2024, 5, 10, 12, 0).timestamp()


def play(decks: list[str], seed: int, steps: int | None = None) -> tuple[Replay, GameState]:
    """A match of the heuristic COM against itself (the first ``steps`` actions only)."""
    rules = registry.get("kobo")
    config: Json = {"decks": decks, "best_of": 3}
    state = rules.new_game(config, seed)
    replay = Replay.start(state, config, seed)
    players = [rules.players["heuristic"](seed + 1), rules.players["heuristic"](seed + 2)]
    while state.pending is not None and (steps is None or len(replay.actions) < steps):
        action = players[state.pending.seat].choose(
            state.view(state.pending.seat), state.legal_actions()
        )
        state = state.clone()
        state.apply(action)
        replay.record(action, state)
    return replay, state


@dataclass
class Fixture:
    """The server URL, its store and the ids of the stored matches."""

    url: str
    store: MatchStore
    won: int  # finished, human (seat 0) vs heuristic, fortress vs swarm, 2024-05-10
    sim: int  # finished, heuristic vs random (sim), tempo vs vanguard, 2024-05-12
    open: int  # unfinished, human vs heuristic, swarm vs tempo, 2024-05-14


def add(
    store: MatchStore,
    replay: Replay,
    state: GameState,
    players: dict[str, str],
    source: str,
    created: float,
    meta: Json | None = None,
) -> int:
    return store.add_match(
        NewMatch(
            replay=replay,
            players=players,
            source=source,
            outcome=state.outcome,
            results=[list(r) for r in getattr(state, "results", ())] or None,
            created=created,
            meta=meta or {},
        )
    )


@pytest.fixture(scope="module", params=BACKENDS)
def fx(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Fixture]:
    target = new_store_target(request.param, request, tmp_path_factory.mktemp("history"))
    store = MatchStore(target)
    human = {"0": "human", "1": "heuristic"}
    replay, state = play(["fortress", "swarm"], 5)
    won = add(store, replay, state, human, "server", T0)
    replay, state = play(["tempo", "vanguard"], 8)
    sim = add(store, replay, state, {"0": "heuristic", "1": "random"}, "sim", T0 + 2 * DAY)
    replay, state = play(["swarm", "tempo"], 9, steps=40)
    meta = {"tokens": {OPEN_TOKEN: 0}}  # as a server session stores its player's token
    unfinished = add(store, replay, state, human, "server", T0 + 4 * DAY, meta)
    with running(pace=0.0, store=store) as url:
        yield Fixture(url, store, won, sim, unfinished)
    store.close()


def get(fx: Fixture, path: str, status: int = 200, token: str = "", **params: Any) -> Any:
    headers = {"X-Kessen-Token": token} if token else {}
    response = httpx2.get(f"{fx.url}{path}", params=params, headers=headers, timeout=30)
    assert response.status_code == status, response.text
    return response.json()


def ids(data: dict[str, Any]) -> list[int]:
    return [m["id"] for m in data["matches"]]


def states_of(fx: Fixture, match_id: int) -> list[GameState]:
    return list(fx.store.load_replay(match_id).states(verify=True))


def without_texts(view: Json) -> Json:
    """A view with the ``text`` of its log entries removed (what the engine's view holds)."""
    return {**view, "log": [{k: v for k, v in e.items() if k != "text"} for e in view["log"]]}


# --- listing ---------------------------------------------------------------------------


def test_list_newest_first_with_filters_and_pages(fx: Fixture) -> None:
    assert ids(get(fx, "/api/matches")) == [fx.open, fx.sim, fx.won]
    assert ids(get(fx, "/api/matches", deck="swarm")) == [fx.open, fx.won]
    assert ids(get(fx, "/api/matches", deck="vanguard")) == [fx.sim]
    winner = fx.store.info(fx.won).winner
    assert fx.won in ids(get(fx, "/api/matches", result=str(winner)))
    assert fx.open not in ids(get(fx, "/api/matches", result=str(winner)))
    assert ids(get(fx, "/api/matches", finished="false")) == [fx.open]
    assert ids(get(fx, "/api/matches", source="sim")) == [fx.sim]
    # Dates: since is inclusive, until exclusive; a day, a date-time or a Unix time.
    assert ids(get(fx, "/api/matches", since="2024-05-11")) == [fx.open, fx.sim]
    assert ids(get(fx, "/api/matches", until="2024-05-11")) == [fx.won]
    assert ids(get(fx, "/api/matches", since="2024-05-11T00:00", until=str(T0 + 3 * DAY))) == [
        fx.sim
    ]
    # Pages.
    first = get(fx, "/api/matches", limit=2)
    assert ids(first) == [fx.open, fx.sim] and first["more"] is True
    second = get(fx, "/api/matches", limit=2, offset=2)
    assert ids(second) == [fx.won] and second["more"] is False
    entry = first["matches"][0]
    assert entry["decks"] == ["swarm", "tempo"] and entry["finished"] is None
    assert entry["players"] == {"0": "human", "1": "heuristic"}
    # Refusals say what is wrong.
    assert "not a date" in get(fx, "/api/matches", 422, since="yesterday")["detail"]
    assert "winning seat" in get(fx, "/api/matches", 422, result="2")["detail"]
    get(fx, "/api/matches", 422, limit=1000)


def test_match_info_has_steps_seats_and_turns(fx: Fixture) -> None:
    info = get(fx, f"/api/matches/{fx.won}")
    states = states_of(fx, fx.won)
    assert info["steps"] == len(states) - 1 and info["finished"] is True
    assert info["seats"] == ["0", "1", "all"]
    assert info["continue_com"] == {"0": "heuristic", "1": "heuristic"}
    turns = info["turns"]
    assert turns[0]["step"] == 0
    assert [t["step"] for t in turns] == sorted({t["step"] for t in turns})
    for mark in turns:  # each entry is where that turn of that game begins
        view = states[mark["step"]].view(0)
        assert (view["match"]["game"], view["turn"]) == (mark["game"], mark["turn"])
        if mark["step"] > 0:
            before = states[mark["step"] - 1].view(0)
            assert (before["match"]["game"], before["turn"]) != (mark["game"], mark["turn"])
    assert len({(t["game"], t["turn"]) for t in turns}) == len(turns)
    assert max(t["game"] for t in turns) >= 2
    assert get(fx, f"/api/matches/{fx.open}", token=OPEN_TOKEN)["seats"] == ["0"]
    assert get(fx, f"/api/matches/{fx.open}")["seats"] == []
    assert get(fx, "/api/matches/99999", 404)["detail"] == "no match 99999"


# --- replaying -------------------------------------------------------------------------


@pytest.mark.parametrize("seat", ["0", "1", "all"])
def test_step_views_are_the_replayed_states_views(fx: Fixture, seat: str) -> None:
    rules = registry.get("kobo")
    states = states_of(fx, fx.won)
    viewer = None if seat == "all" else int(seat)
    last = len(states) - 1
    for step in [*range(0, last, 9), last]:
        lang = "en" if step % 2 else "ja"
        data = get(fx, f"/api/matches/{fx.won}/step/{step}", seat=seat, lang=lang)
        expected = (
            states[step].view_all(lang) if viewer is None else states[step].view(viewer, lang)
        )
        assert without_texts(data["view"]) == expected, step
        assert [e["text"] for e in data["view"]["log"]] == [
            rules.describe(e, lang, viewer) for e in expected["log"]
        ]
        assert (data["step"], data["steps"], data["seat"]) == (step, last, seat)
        assert data["log_start"] == 0 and data["log_total"] == len(expected["log"])
        assert (data["game"], data["turn"]) == (expected["match"]["game"], expected["turn"])
        if step:
            before = states[step - 1].pending
            assert before is not None and data["actor"] == before.seat
            assert data["action"]
        else:
            assert data["actor"] is None and data["action"] is None


def test_another_seats_secret_choices_are_hidden_in_the_action_line(fx: Fixture) -> None:
    replay = fx.store.load_replay(fx.won)
    states = states_of(fx, fx.won)
    step = next(
        i + 1
        for i, text in enumerate(replay.actions)
        if text.startswith("take ") and states[i].pending.seat == 1  # type: ignore[union-attr]
    )
    seen_by_0 = get(fx, f"/api/matches/{fx.won}/step/{step}", seat="0")["action"]
    seen_by_1 = get(fx, f"/api/matches/{fx.won}/step/{step}", seat="1")["action"]
    assert seen_by_1 == replay.actions[step - 1] and seen_by_0 == "take …"


def test_only_new_log_entries_are_sent_when_the_client_has_the_rest(fx: Fixture) -> None:
    path = f"/api/matches/{fx.won}/step"
    for step in (30, 31, 90):
        before = get(fx, f"{path}/{step - 1}", seat="0")["view"]["log"]
        full = get(fx, f"{path}/{step}", seat="0")["view"]["log"]
        tail = get(fx, f"{path}/{step}", seat="0", base=step - 1, log_from=len(before))
        assert tail["log_start"] == len(before) and tail["log_total"] == len(full)
        assert before + tail["view"]["log"] == full
        # Backwards: the client has a longer log; nothing new is needed.
        back = get(fx, f"{path}/{step - 1}", seat="0", base=step, log_from=len(full))
        assert back["log_start"] == len(before) == back["log_total"]
        assert back["view"]["log"] == []
    # A claim the base step cannot back (more entries than its log has) gets the whole log.
    other = get(fx, f"{path}/60", seat="1", base=59, log_from=500)
    assert other["log_start"] == 0


def test_whole_replay_in_one_answer_matches_the_steps(fx: Fixture) -> None:
    data = get(fx, f"/api/matches/{fx.won}/replay", seat="1", lang="en")
    states = states_of(fx, fx.won)
    assert data["steps"] == len(states) - 1 == len(data["views"]) - 1 == len(data["frames"]) - 1
    assert data["turns"] == get(fx, f"/api/matches/{fx.won}")["turns"]
    for step in (0, 1, 57, len(states) - 1):
        length = data["log_lengths"][step]
        log = data["log"][:length] if length >= 0 else data["log_overrides"][str(step)]
        view = {**data["views"][step], "log": log}
        assert without_texts(view) == states[step].view(1, "en")
        single = get(fx, f"/api/matches/{fx.won}/step/{step}", seat="1", lang="en")
        assert view == single["view"]
        assert data["frames"][step]["action"] == single["action"]
    raw = httpx2.get(
        f"{fx.url}/api/matches/{fx.won}/replay", headers={"accept-encoding": "gzip"}, timeout=30
    )
    assert raw.headers.get("content-encoding") == "gzip"
    assert raw.num_bytes_downloaded < len(raw.content) / 5  # views repeat: gzip packs them


def test_hidden_cards_stay_hidden_before_the_end(fx: Fixture) -> None:
    path = f"/api/matches/{fx.open}"
    refused = get(fx, f"{path}/step/3", 403, token=OPEN_TOKEN, seat="all")["detail"]
    assert "not finished" in refused and "hidden" in refused
    get(fx, f"{path}/replay", 403, token=OPEN_TOKEN, seat="all")
    # Seat 1 is COM's: its view would show COM's hand to the person playing seat 0.
    assert "COM" in get(fx, f"{path}/step/3", 403, token=OPEN_TOKEN, seat="1")["detail"]
    assert get(fx, f"{path}/step/3", token=OPEN_TOKEN, seat="0")["view"]["viewer"] == 0
    get(fx, f"{path}/step/41", 404, token=OPEN_TOKEN, seat="0")
    # Without its player's token, nothing of it is shown.
    assert "X-Kessen-Token" in get(fx, f"{path}/step/3", 403, seat="0")["detail"]
    get(fx, f"/api/matches/{fx.open}/step/1", 422, seat="2")


# --- continuing ------------------------------------------------------------------------


def receive_state(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=20))
        assert message["type"] != "error", message
        if message["type"] == "state":
            view: dict[str, Any] = message["view"]
            return view


def ws_url(base: str, game: dict[str, Any]) -> str:
    return base.replace("http", "ws") + f"/ws/{game['id']}?token={game['token']}"


def test_continue_from_a_step_is_a_recorded_branch_against_com(fx: Fixture) -> None:
    states = states_of(fx, fx.won)
    actions = fx.store.load_replay(fx.won).actions
    # A step at which seat 0 decides twice in a row, well into the first game: an attack
    # declaration (its target is chosen next, nothing new learned in between, so it can be
    # undone; a chain pass may close the chain and reveal its resolution).
    deciding = [(s.pending.seat, s.pending.prompt) if s.pending else None for s in states]
    step = next(
        i
        for i in range(61, len(states) - 1)
        if deciding[i] == (0, "turn") and (deciding[i + 1] or (None,))[0] == 0
    )
    game = httpx2.post(
        f"{fx.url}/api/matches/{fx.won}/continue", json={"step": step, "seat": 0}, timeout=30
    ).json()
    assert game["seat"] == 0 and game["parent"] == [fx.won, step] and game["com"] == "heuristic"
    info = fx.store.info(game["match_id"])
    assert info.parent == (fx.won, step) and info.source == "branch"
    assert info.players == {"0": "human", "1": "heuristic"} and not info.is_finished
    _, live = fx.store.resume(game["match_id"])
    assert live.state_hash() == states[step].state_hash()
    with connect(ws_url(fx.url, game)) as ws:
        view = receive_state(ws)
        assert view["session"]["you"] == 0 and view["session"]["com"] == {"1": "heuristic"}
        expected = states[step].view(0, "ja")
        shown = {k: v for k, v in view.items() if k not in ("history", "com_why", "session")}
        assert without_texts(shown) == expected
        pending = view["pending"]
        act = {"type": "act", "prompt_id": pending["prompt_id"], "action": actions[step]}
        ws.send(json.dumps(act))
        after = receive_state(ws)
        assert without_texts({k: after[k] for k in shown}) == states[step + 1].view(0, "ja")
        assert after["history"]["can_undo"] is True
        # Undo goes back to where the branch began, not into the match it continues.
        ws.send(json.dumps({"type": "undo"}))
        back = receive_state(ws)
        assert back["pending"]["prompt_id"] == pending["prompt_id"]
        assert back["history"]["can_undo"] is False
        ws.send(json.dumps({"type": "undo"}))
        assert json.loads(ws.recv(timeout=20))["type"] == "error"
        ws.send(json.dumps({"type": "redo"}))
        assert receive_state(ws)["pending"] == after["pending"]
    record = fx.store.get(game["match_id"])
    assert len(record.actions) > step
    assert [r.action for r in record.actions[:step]] == actions[:step]
    assert record.actions[step].action == actions[step]
    # The branch is listed, and the server brings it back after a restart.
    assert game["match_id"] in ids(get(fx, "/api/matches", source="branch"))
    with running(pace=0.0, store=fx.store) as url, connect(ws_url(url, game)) as ws:
        again = receive_state(ws)
        assert again["session"]["id"] == game["id"] and again["session"]["you"] == 0


def test_continue_as_seat_1_and_refusals(fx: Fixture) -> None:
    game = httpx2.post(
        f"{fx.url}/api/matches/{fx.sim}/continue", json={"step": 10, "seat": 1}, timeout=30
    ).json()
    assert game["seat"] == 1 and game["com"] == "heuristic"  # seat 0 was played by heuristic
    assert fx.store.info(game["match_id"]).players == {"0": "heuristic", "1": "human"}
    with connect(ws_url(fx.url, game)) as ws:
        assert receive_state(ws)["session"]["you"] == 1

    def refused(match_id: int, body: dict[str, Any], status: int) -> str:
        response = httpx2.post(
            f"{fx.url}/api/matches/{match_id}/continue",
            json=body,
            headers={"X-Kessen-Token": OPEN_TOKEN},
            timeout=30,
        )
        assert response.status_code == status, response.text
        detail: str = response.json()["detail"] if status != 422 else response.text
        return detail

    last = fx.store.info(fx.won).steps
    assert "over" in refused(fx.won, {"step": last, "seat": 0}, 409)
    assert "steps 0 to" in refused(fx.won, {"step": last + 1, "seat": 0}, 404)
    assert "COM" in refused(fx.open, {"step": 5, "seat": 1}, 403)
    refused(fx.won, {"step": 3, "seat": 2}, 422)
    refused(99999, {"step": 3, "seat": 0}, 404)


def test_a_server_without_store_says_so(tmp_path: Path) -> None:
    with running(pace=0.0) as url:
        assert httpx2.get(f"{url}/api/meta").json()["store"] is False
        response = httpx2.get(f"{url}/api/matches")
        assert response.status_code == 503 and "without a store" in response.json()["detail"]

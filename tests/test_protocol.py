"""The WebSocket protocol over a real server: no hidden card ever reaches the other seat,
every bad message is refused with its code and changes nothing, reconnects resume, and games
are independent.

Every game here is played against a *mirror*: a local :class:`Session` with the same config,
seed and human answers. COM answers depend only on the seed and the prompt id, so the mirror
holds the very state the server holds, and each received view can be checked against the truth.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx2
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from kessen.engine import registry
from kessen.games.kobo.resample import resample
from kessen.games.kobo.state import (
    EMPTY,
    EXCLUDED,
    HAND,
    MAIN_DECK,
    RETREAT,
    SLOTS,
    TDECK,
    THAND,
    KoboState,
)
from kessen.server.protocol import MAX_MESSAGE
from kessen.server.run import running
from kessen.server.session import Session

RULES = registry.get("kobo")
ME, FOE = 0, 1
SLOW = 30.0  # COM pace that keeps the COM from moving during a test


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running(pace=0.0) as url:
        yield url


def new_game(server: str, **body: Any) -> dict[str, Any]:
    response = httpx2.post(f"{server}/api/games", json=body, timeout=10)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


@contextmanager
def socket(server: str, game_id: str, token: str, query: str = "") -> Iterator[ClientConnection]:
    url = "ws" + server.removeprefix("http") + f"/ws/{game_id}?token={token}{query}"
    with connect(url, max_size=None, open_timeout=10) as ws:
        yield ws


def receive(ws: ClientConnection, timeout: float = 10) -> tuple[dict[str, Any], str]:
    raw = ws.recv(timeout=timeout)
    assert isinstance(raw, str)
    message: dict[str, Any] = json.loads(raw)
    return message, raw


def receive_state(ws: ClientConnection) -> dict[str, Any]:
    message, _ = receive(ws)
    assert message["type"] == "state", message
    view: dict[str, Any] = message["view"]
    return view


def refused(ws: ClientConnection, payload: str, code: str) -> None:
    """Send ``payload``; the answer is an error with ``code``; a ping then shows no change."""
    ws.send(json.dumps({"type": "ping"}))
    before = receive_state(ws)
    ws.send(payload)
    message, _ = receive(ws)
    assert message["type"] == "error", message
    assert message["code"] == code, message
    assert message["message"]
    ws.send(json.dumps({"type": "ping"}))
    assert receive_state(ws) == before


def first_mover_game(server: str, start_seed: int = 0, **body: Any) -> tuple[dict[str, Any], int]:
    """A vs-COM game with a slow COM in which seat 0 decides first (the state then waits)."""
    for seed in range(start_seed, start_seed + 40):
        session = Session.create("kobo", dict(RULES.default_config), seed, "vs_com", "heuristic", 0)
        pending = session.live.pending
        if pending is not None and pending.seat == ME:
            return new_game(server, mode="vs_com", seed=seed, pace=SLOW, **body), seed
    raise AssertionError("no seed where seat 0 moves first")


# --- hidden information ------------------------------------------------------------------


def _slugs_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, list | tuple):
        return {s for v in value for s in _slugs_in(v)}
    return set()


def _known_slugs(state: KoboState) -> set[str]:
    """Card names seat 0 may legitimately meet in its view: its own cards, the opponent's
    public cards, everything a public log entry or seat 0's own private entries named."""
    known = {d.slug for d, owner in zip(state.defs, state.owner, strict=True) if owner == ME}
    for zone in (RETREAT, EXCLUDED):
        known |= {state.defs[c].slug for c in state.zone(FOE, zone)}
    for card in state.battle[FOE * SLOTS : FOE * SLOTS + SLOTS]:
        if card != EMPTY:
            known.add(state.defs[card].slug)
    for card in state.strategy[FOE * SLOTS : FOE * SLOTS + SLOTS]:
        if card != EMPTY and state.faceup[card]:
            known.add(state.defs[card].slug)
    for link in [*state.chain, *state.resolved]:
        known.add(state.defs[link[0]].slug)
    for event in state.log:
        for value in event.public.values():
            known |= _slugs_in(value)
        if event.private_to == ME and event.private:
            for value in event.private.values():
                known |= _slugs_in(value)
    return known


def _hidden_slugs(state: KoboState) -> set[str]:
    """Names of the opponent's cards that are hidden from seat 0 right now."""
    hidden = [*state.zone(FOE, HAND), *state.zone(FOE, THAND)]
    hidden += [*state.zone(FOE, MAIN_DECK), *state.zone(FOE, TDECK)]
    hidden += state.face_down_traps(FOE)
    return {state.defs[c].slug for c in hidden}


def check_no_leak(view: dict[str, Any], raw: str, mirror: Session) -> None:
    """Everything seat 0 receives is what seat 0 may see of the mirror's true state."""
    state = mirror.live
    assert isinstance(state, KoboState)
    foe = view["players"][FOE]
    assert foe["hand"]["cards"] is None
    assert foe["tactics_hand"]["cards"] is None
    for entry in foe["strategy"]:
        if entry is not None and entry["face"] == "down":
            assert set(entry) == {"face"}, entry
    for entry in foe["reveal"]:
        if entry["face"] == "down":
            assert set(entry) == {"face"}, entry
    # The opponent's private log parts never arrive.
    assert len(view["log"]) == len(state.log)
    for event, entry in zip(state.log, view["log"], strict=True):
        if event.private_to == FOE and event.private:
            assert not set(event.private) & set(entry), (event, entry)
    # The very view the mirror renders for seat 0 (so the message is a function of seat 0's
    # view) ...
    truth = state.view(ME, view["lang"])
    plain = {k: v for k, v in view.items() if k not in ("history", "session", "com_why")}
    why = view["com_why"]
    if why is not None:  # COM's reasons never list choices that depend on its hidden cards
        assert why["seat"] == FOE
        assert why["candidates"] is None or why["prompt"] in RULES.public_prompts
    plain["log"] = [{k: v for k, v in e.items() if k != "text"} for e in plain["log"]]
    assert plain == truth
    for entry in view["log"][-4:]:
        bare = {k: v for k, v in entry.items() if k != "text"}
        assert entry["text"] == RULES.describe(bare, view["lang"], ME)
    assert view["session"]["you"] == ME and not view["session"]["show_all"]
    # ... and that view does not change when everything hidden from seat 0 is redealt.
    assert resample(state, ME, len(state.log)).view(ME, view["lang"]) == truth
    # No hidden name of the opponent appears anywhere but in the public deck lists.
    message = json.loads(raw)
    for side in message["view"]["players"]:
        side.pop("deck")
    text = json.dumps(message, ensure_ascii=False)
    names = RULES.catalog(view["lang"])["cards"]
    for slug in _hidden_slugs(state) - _known_slugs(state):
        assert f'"{slug}"' not in text, slug
        assert f"「{names[slug]['name']}」" not in text, slug


def mirror_of(game: dict[str, Any], decks: list[str], seed: int, com: str) -> Session:
    config = dict(RULES.default_config)
    config["decks"] = decks
    return Session.create("kobo", config, seed, "vs_com", com, 0.0)


def catch_up(mirror: Session, view: dict[str, Any]) -> None:
    """Let the mirror's COM move until it stands where the server's view stands."""
    target = view["pending"]["prompt_id"] if view["pending"] else None
    for _ in range(2000):
        pending = mirror.live.pending
        if target is None and pending is None:
            return
        if pending is not None and pending.prompt_id == target:
            return
        assert mirror.com_step() is not None, "the mirror cannot reach the server's state"
    raise AssertionError("mirror never caught up")


def test_a_seat_never_receives_hidden_cards(server: str) -> None:
    pairs = [
        (["swarm", "fortress"], "heuristic"),
        (["vanguard", "fortress"], "random"),
        (["tempo", "fortress"], "heuristic"),
        (["fortress", "swarm"], "random"),
        (["swarm", "tempo"], "heuristic"),
        (["vanguard", "swarm"], "random"),
        (["fortress", "vanguard"], "heuristic"),
        (["tempo", "vanguard"], "random"),
        (["swarm", "fortress"], "random"),
        (["vanguard", "tempo"], "heuristic"),
        (["fortress", "tempo"], "heuristic"),
        (["vanguard", "fortress"], "heuristic"),
    ]
    messages = 0
    for number, (decks, com) in enumerate(pairs):
        seed = 1000 + number
        game = new_game(server, mode="vs_com", decks=decks, com=com, seed=seed, pace=0)
        mirror = mirror_of(game, decks, seed, com)
        rng = random.Random(seed)
        with socket(server, game["id"], game["token"]) as ws:
            if number % 2:
                ws.send(json.dumps({"type": "lang", "lang": "en"}))
            while True:
                message, raw = receive(ws)
                assert message["type"] == "state", message
                view = message["view"]
                catch_up(mirror, view)
                check_no_leak(view, raw, mirror)
                messages += 1
                pending = view["pending"]
                if pending is None:
                    break
                if pending["seat"] != ME:
                    assert pending["legal"] is None
                    continue
                if number % 2 and view["lang"] != "en":
                    continue  # the answer to the language switch is on its way
                action = rng.choice(pending["legal"])
                ws.send(
                    json.dumps({"type": "act", "prompt_id": pending["prompt_id"], "action": action})
                )
                mirror.act(ME, pending["prompt_id"], action)
        assert view["match"]["over"]
    print(f"{messages} messages checked")
    assert messages >= 2000, messages


# --- refusals ----------------------------------------------------------------------------


def test_bad_messages_are_refused_and_change_nothing(server: str) -> None:
    game, _ = first_mover_game(server)
    with socket(server, game["id"], game["token"]) as ws:
        view = receive_state(ws)
        pending = view["pending"]
        assert pending["seat"] == ME
        legal = pending["legal"][0]
        stale = {"type": "act", "prompt_id": pending["prompt_id"] - 1, "action": legal}
        refused(ws, json.dumps(stale), "refused")
        future = {"type": "act", "prompt_id": pending["prompt_id"] + 5, "action": legal}
        refused(ws, json.dumps(future), "refused")
        illegal = {"type": "act", "prompt_id": pending["prompt_id"], "action": "attack 9"}
        refused(ws, json.dumps(illegal), "refused")
        nonsense = {"type": "act", "prompt_id": pending["prompt_id"], "action": "!!"}
        refused(ws, json.dumps(nonsense), "refused")
        refused(ws, "{not json", "malformed")
        refused(ws, "[1, 2", "malformed")
        refused(ws, json.dumps({"type": "dance"}), "invalid")
        refused(ws, json.dumps({"kind": "ping"}), "invalid")
        refused(ws, json.dumps({"type": "ping", "extra": 1}), "invalid")
        refused(ws, json.dumps({"type": "act", "prompt_id": "x", "action": legal}), "invalid")
        refused(ws, json.dumps({"type": "lang", "lang": "fr"}), "invalid")
        refused(ws, json.dumps([1, 2, 3]), "invalid")
        big = json.dumps({"type": "ping", "pad": "x" * MAX_MESSAGE})
        assert len(big) > MAX_MESSAGE
        refused(ws, big, "too_large")
        # Still playing: the legal answer goes through.
        ws.send(json.dumps({"type": "act", "prompt_id": pending["prompt_id"], "action": legal}))
        after = receive_state(ws)
        assert after["pending"]["prompt_id"] > pending["prompt_id"]


def test_a_spectator_cannot_act(server: str) -> None:
    game = new_game(server, mode="com_vs_com", seed=3, pace=SLOW)
    assert game["seat"] == -1
    with socket(server, game["id"], game["token"]) as ws:
        view = receive_state(ws)
        assert view["session"]["you"] is None
        pending = view["pending"]
        action = (pending["legal"] or ["pass"])[0]
        act = {"type": "act", "prompt_id": pending["prompt_id"], "action": action}
        refused(ws, json.dumps(act), "refused")
        refused(ws, json.dumps({"type": "undo"}), "refused")  # already at the first step


def test_acting_out_of_turn_is_refused(server: str) -> None:
    """Seat 0 answering a prompt that is COM's is refused, whatever prompt id it names."""
    for seed in range(40):
        session = Session.create("kobo", dict(RULES.default_config), seed, "vs_com", "heuristic", 0)
        pending = session.live.pending
        if pending is not None and pending.seat != ME:
            break
    game = new_game(server, mode="vs_com", seed=seed, pace=SLOW)
    with socket(server, game["id"], game["token"]) as ws:
        view = receive_state(ws)
        assert view["pending"]["seat"] == FOE
        assert view["pending"]["legal"] is None
        act = {"type": "act", "prompt_id": view["pending"]["prompt_id"], "action": "pick 1"}
        refused(ws, json.dumps(act), "refused")


def test_unknown_game_or_token(server: str) -> None:
    game, _ = first_mover_game(server)
    for game_id, token in (("nope", game["token"]), (game["id"], "wrong"), (game["id"], "")):
        with socket(server, game_id, token) as ws:
            message, _ = receive(ws)
            assert message == {
                "type": "error",
                "code": "unknown_game",
                "message": message["message"],
            }
            with pytest.raises(ConnectionClosed):  # the server closes the socket (code 4404)
                ws.recv(timeout=5)
            assert ws.close_code == 4404


# --- reconnects and several games --------------------------------------------------------


def test_reconnect_with_the_same_token_resumes(server: str) -> None:
    game, _ = first_mover_game(server)
    with socket(server, game["id"], game["token"]) as ws:
        first = receive_state(ws)
        action = first["pending"]["legal"][0]
        ws.send(
            json.dumps(
                {"type": "act", "prompt_id": first["pending"]["prompt_id"], "action": action}
            )
        )
        moved = receive_state(ws)
        assert moved["pending"]["prompt_id"] > first["pending"]["prompt_id"]
    with socket(server, game["id"], game["token"]) as ws:
        again = receive_state(ws)
    assert again["session"]["id"] == game["id"]
    assert again["pending"]["prompt_id"] == moved["pending"]["prompt_id"]
    assert again == moved
    # A second connection with the same token sees the same game at the same time.
    with (
        socket(server, game["id"], game["token"]) as one,
        socket(server, game["id"], game["token"]) as two,
    ):
        assert receive_state(one) == receive_state(two)


def test_the_first_view_is_in_the_language_the_page_connects_with(server: str) -> None:
    """A page connecting in English gets English from its very first view (a view in the
    default language before the switch reached the server would put Japanese log lines on an
    English screen); an unknown language falls back to Japanese instead of closing."""
    game, _ = first_mover_game(server)
    with socket(server, game["id"], game["token"], "&lang=en") as ws:
        english = receive_state(ws)
    with socket(server, game["id"], game["token"], "&lang=xx") as ws:
        default = receive_state(ws)
    assert english["lang"] == "en" and default["lang"] == "ja"
    assert english["log"] and all(e["text"].isascii() for e in english["log"]), english["log"]
    assert any(not e["text"].isascii() for e in default["log"]), default["log"]


def test_two_games_at_once_are_independent(server: str) -> None:
    game_a, _ = first_mover_game(server, 0, decks=["swarm", "fortress"])
    game_b, _ = first_mover_game(server, 50, decks=["tempo", "vanguard"])
    assert game_a["id"] != game_b["id"]
    with (
        socket(server, game_a["id"], game_a["token"]) as ws_a,
        socket(server, game_b["id"], game_b["token"]) as ws_b,
    ):
        a0 = receive_state(ws_a)
        b0 = receive_state(ws_b)
        assert a0["players"][0]["deck"]["slug"] == "swarm"
        assert b0["players"][0]["deck"]["slug"] == "tempo"
        for _ in range(4):
            pending = a0["pending"]
            act = {"type": "act", "prompt_id": pending["prompt_id"], "action": pending["legal"][0]}
            ws_a.send(json.dumps(act))
            a0 = receive_state(ws_a)
        assert a0["pending"]["prompt_id"] > 1
        # Game B saw nothing of it: no message arrived, and its state is the same.
        with pytest.raises(TimeoutError):
            ws_b.recv(timeout=0.3)
        ws_b.send(json.dumps({"type": "ping"}))
        assert receive_state(ws_b) == b0
        # A token of one game does not open the other.
    with socket(server, game_b["id"], game_a["token"]) as ws:
        message, _ = receive(ws)
        assert message["code"] == "unknown_game"

"""TWGP トランプ版 over a real server: starting games with its own config, and no hidden card of
the opponent ever reaching a seat through the WebSocket.

Every game is played against a *mirror*, a local :class:`Session` with the same config, seed and
human answers (COM answers depend only on the seed and the prompt id), so each view the server
sends can be checked against the true state: it is exactly the engine's view of seat 0, it does
not change when everything hidden from seat 0 is redealt, no name of a hidden opponent card is in
the message, and COM's reasons name no such card either.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from kessen.engine import registry
from kessen.engine.contract import Json
from kessen.games.twgp.resample import resample
from kessen.games.twgp.state import TwgpState
from kessen.server.run import running
from kessen.server.session import Session
from kessen.store.html_replay import shown_action
from tests.test_leak_oracle import hidden_twgp
from tests.test_protocol import receive, receive_state, socket

RULES = registry.get("twgp")
ME, FOE = 0, 1
SLOW = 30.0


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running(pace=0.0) as url:
        yield url


def post_game(server: str, **body: Any) -> httpx2.Response:
    return httpx2.post(f"{server}/api/games", json={"ruleset": "twgp", **body}, timeout=10)


def hidden_from_me(state: TwgpState) -> set[str]:
    """Names of the opponent's cards seat 0 may not know right now (the leak oracle's truth)."""
    return hidden_twgp(state, ME)


def check_view(view: Json, raw: str, mirror: Session) -> int:
    """Everything seat 0 received is what seat 0 may see of the mirror's state; returns how
    many hidden opponent cards there were to keep out of it."""
    state = mirror.live
    assert isinstance(state, TwgpState)
    lang = view["lang"]
    foe = view["players"][FOE]
    assert foe["hand"]["cards"] is None and foe["aside"]["cards"] is None
    assert "pool" not in foe or foe["pool"]["cards"] is None
    for card in foe["charge"]:
        assert card is None or card == {"face": "down"}, card
    for vital in foe["vitals"]:
        assert vital["face"] != "down" or vital == {"face": "down"}, vital
    # Exactly the engine's view of seat 0 (log texts and the session's own keys aside) ...
    truth = state.view(ME, lang)
    plain = {k: v for k, v in view.items() if k not in ("history", "session", "com_why")}
    plain["log"] = [{k: v for k, v in e.items() if k != "text"} for e in plain["log"]]
    assert plain == truth
    for entry in view["log"][-4:]:
        bare = {k: v for k, v in entry.items() if k != "text"}
        assert entry["text"] == RULES.describe(bare, lang, ME)
    # ... which does not change when everything hidden from seat 0 is redealt.
    assert resample(state, ME, len(state.log)).view(ME, lang) == truth
    # COM's reasons name no card the view does not show.
    why = view["com_why"]
    if why is not None:
        assert why["seat"] == FOE and why["candidates"] is None
        assert why["action"] == shown_action(why["action"], FOE, ME, "twgp")
    hidden = hidden_from_me(state)
    text = raw
    for slug in hidden:
        assert f'"{slug}"' not in text, slug
        assert f" {slug}" not in json.dumps(why or {}), slug
        for lang_ in ("ja", "en"):
            name = RULES.catalog(lang_)["cards"][slug]["name"]
            assert name not in text, (slug, name)
    return len(hidden)


def catch_up(mirror: Session, view: Json) -> None:
    """Let the mirror's COM move until it stands where the server's view stands."""
    target = view["pending"]["prompt_id"] if view["pending"] else None
    for _ in range(3000):
        pending = mirror.live.pending
        if target is None and pending is None:
            return
        if pending is not None and pending.prompt_id == target:
            return
        assert mirror.com_step() is not None, "the mirror cannot reach the server's state"
    raise AssertionError("mirror never caught up")


# --- starting games ------------------------------------------------------------------------


def test_the_server_offers_twgp_with_its_own_config_and_com_levels(server: str) -> None:
    meta = httpx2.get(f"{server}/api/meta", timeout=10).json()
    assert set(meta["rulesets"]) >= {"kobo", "twgp"}
    twgp = meta["rulesets"]["twgp"]
    assert twgp["com_levels"] == list(RULES.players)
    assert twgp["default_decks"] is None
    assert twgp["default_config"] == RULES.default_config
    catalog = httpx2.get(f"{server}/api/catalog/twgp?lang=en", timeout=10).json()
    assert catalog["cards"]["s3"]["label"] == "♠3"
    # A TWGP game takes its switches; Kōbō's decks or an unknown switch are refused.
    response = post_game(server, config={"quickStart": True, "gridWidth": 3}, pace=SLOW)
    assert response.status_code == 200, response.text
    game = response.json()
    with socket(server, game["id"], game["token"]) as ws:
        view = receive_state(ws)
    assert view["ruleset"] == "twgp" and view["width"] == 3
    assert view["config"]["quickStart"] is True
    assert post_game(server, decks=["swarm", "tempo"]).status_code == 422
    refused = post_game(server, config={"noSuchSwitch": True})
    assert refused.status_code == 422 and "noSuchSwitch" in refused.text
    assert post_game(server, com="no-such-level").status_code == 422
    # The default game (players build their own decks) starts too, seat 0 building first.
    game = post_game(server, pace=SLOW, seed=4).json()
    with socket(server, game["id"], game["token"]) as ws:
        view = receive_state(ws)
    assert view["phase"] == "setup"
    assert view["players"][ME]["pool"]["count"] == 26
    assert view["players"][FOE]["pool"] == {"count": 26, "cards": None}


def test_a_spectator_of_com_vs_com_sees_everything_only_when_asked(server: str) -> None:
    game = post_game(server, mode="com_vs_com", config={"quickStart": True}, seed=9, pace=SLOW)
    game_data = game.json()
    with socket(server, game_data["id"], game_data["token"]) as ws:
        view = receive_state(ws)
        assert view["session"]["you"] is None
        assert view["players"][FOE]["hand"]["cards"] is None
        ws.send(json.dumps({"type": "show_all", "on": True}))
        everything = receive_state(ws)
    assert everything["session"]["show_all"] is True
    assert everything["players"][FOE]["hand"]["cards"] is not None


# --- hidden information --------------------------------------------------------------------


def test_a_seat_never_receives_the_opponents_hidden_cards(server: str) -> None:
    games: list[tuple[Json, str]] = [
        ({"quickStart": True}, "heuristic"),
        ({}, "heuristic"),
        ({"quickStart": True}, "random"),
        ({"gridWidth": 3}, "random"),
        ({"quickStart": True, "weaponCache": True}, "heuristic"),
        ({"quickStart": True, "buildReload": True, "vitalEffect": True}, "heuristic"),
    ]
    messages = hidden_checked = 0
    for number, (config, com) in enumerate(games):
        seed = 500 + number
        response = post_game(server, config=config, com=com, seed=seed, pace=0)
        assert response.status_code == 200, response.text
        game = response.json()
        mirror = Session.create(
            "twgp", {**RULES.default_config, **config}, seed, "vs_com", com, 0.0
        )
        rng = random.Random(seed)
        english = number % 2 == 1
        with socket(server, game["id"], game["token"]) as ws:
            if english:
                ws.send(json.dumps({"type": "lang", "lang": "en"}))
            while True:
                message, raw = receive(ws)
                assert message["type"] == "state", message
                view = message["view"]
                catch_up(mirror, view)
                hidden_checked += check_view(view, raw, mirror)
                messages += 1
                pending = view["pending"]
                if pending is None:
                    break
                if pending["seat"] != ME:
                    assert pending["legal"] is None
                    continue
                if english and view["lang"] != "en":
                    continue  # the answer to the language switch is on its way
                legal = pending["legal"]
                # Mostly random, but move the game on: end a window now and then.
                closers = [a for a in legal if a in ("battle", "end", "accept", "done")]
                action = rng.choice(closers if closers and rng.random() < 0.45 else legal)
                ws.send(
                    json.dumps({"type": "act", "prompt_id": pending["prompt_id"], "action": action})
                )
                mirror.act(ME, pending["prompt_id"], action)
        assert view["outcome"] is not None
    print(f"{messages} messages checked, {hidden_checked} hidden cards kept out")
    assert messages >= 300, messages
    assert hidden_checked > 1000, hidden_checked

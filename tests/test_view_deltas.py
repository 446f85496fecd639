"""Views sent as deltas, over a real server: a page that asks for them rebuilds every view
exactly, and sends far fewer bytes over a game.

Each seat here is watched by two sockets at once on the same token and language: one with
``delta=1``, one without. Both receive the same messages in the same order (every change is
broadcast to both), so after every message the view rebuilt from the deltas must equal the full
view of the other socket, in every game, through undo, redo and a change of language.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx2
import pytest
from websockets.sync.client import connect

from kessen.engine import registry
from kessen.server import deal
from kessen.server.deltas import encode, message
from kessen.server.hub import state_message
from kessen.server.run import running
from kessen.server.session import SPECTATOR, Session

ME = 0
Json = dict[str, Any]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running(pace=0.0) as url:
        yield url


def open_socket(stack: ExitStack, server: str, game: str, token: str, query: str) -> Any:
    url = "ws" + server.removeprefix("http") + f"/ws/{game}?token={token}{query}"
    return stack.enter_context(connect(url, max_size=None, open_timeout=10))


def rebuild(base: Json | None, msg: Json) -> Json:
    """What the page does with a message (shell/connection.js ``applyDelta``)."""
    if msg["type"] == "state":
        view: Json = msg["view"]
        return view
    assert msg["type"] == "delta", msg
    assert base is not None, "a delta before any full view"
    assert set(msg) <= {"type", "set", "drop", "log_from", "log"}, msg.keys()
    view = {**base, **msg["set"]}
    for key in msg["drop"]:
        del view[key]
    if "log_from" in msg:
        start = msg["log_from"]
        assert 0 <= start <= len(base["log"])
        view["log"] = base["log"][:start] + msg["log"]
    return view


class Pair:
    """One seat watched by two sockets: ``fast`` takes deltas, ``plain`` full views."""

    def __init__(self, stack: ExitStack, server: str, game: str, token: str) -> None:
        self.plain = open_socket(stack, server, game, token, "")
        self.fast = open_socket(stack, server, game, token, "&delta=1")
        self.base: Json | None = None
        self.view: Json = {}
        self.full_bytes = self.delta_bytes = self.messages = self.deltas = 0

    def step(self, timeout: float = 10) -> Json:
        """Receive the next message on both sockets; the rebuilt view must equal the full one."""
        plain_raw = self.plain.recv(timeout=timeout)
        fast_raw = self.fast.recv(timeout=timeout)
        assert isinstance(plain_raw, str) and isinstance(fast_raw, str)
        full, fast = json.loads(plain_raw), json.loads(fast_raw)
        assert full["type"] == "state", full  # never a delta without asking
        self.base = rebuild(self.base, fast)
        assert self.base == full["view"]
        if fast["type"] == "state":
            assert fast_raw == plain_raw  # the same text, however it was put together
        else:
            assert len(fast_raw) < len(plain_raw)  # a delta only where it is shorter
            self.deltas += 1
        self.full_bytes += len(plain_raw.encode())
        self.delta_bytes += len(fast_raw.encode())
        self.messages += 1
        self.view = full["view"]
        return self.view

    def settle(self) -> None:
        """Read each socket until it is quiet (while sockets open, each arrival is told to the
        others: the two sockets of a pair see different numbers of messages); then the last
        views must be equal."""
        full: Json | None = self.view or None
        while True:
            try:
                msg = json.loads(self.plain.recv(timeout=0.5))
            except TimeoutError:
                break
            assert msg["type"] == "state", msg
            full = msg["view"]
        while True:
            try:
                self.base = rebuild(self.base, json.loads(self.fast.recv(timeout=0.5)))
            except TimeoutError:
                break
        assert full is not None and self.base == full
        self.view = full

    def send(self, payload: Json) -> None:
        self.plain.send(json.dumps(payload))

    def both(self, payload: Json) -> None:
        """Send ``payload`` on both sockets (each gets its own answer)."""
        self.plain.send(json.dumps(payload))
        self.fast.send(json.dumps(payload))


def first_mover(server: str, ruleset: str, body: Json) -> Json:
    """A vs-COM game in which seat 0 decides first (nothing happens before its move)."""
    rules = registry.get(ruleset)
    config = {**rules.default_config, **body.get("config", {})}
    for seed in range(60):
        session = Session.create(ruleset, config, seed, "vs_com", body["com"], 0)
        pending = session.live.pending
        if pending is not None and pending.seat == ME:
            made = httpx2.post(
                f"{server}/api/games",
                json={"ruleset": ruleset, "mode": "vs_com", "seed": seed, "pace": 0, **body},
                timeout=10,
            )
            assert made.status_code == 200, made.text
            game: Json = made.json()
            return game
    raise AssertionError("no seed where seat 0 moves first")


def pick(rng: random.Random, legal: list[str]) -> str:
    """Mostly random, but moving the game on (TWGP's windows end now and then)."""
    closers = [a for a in legal if a in ("battle", "end", "accept", "done", "pass")]
    return rng.choice(closers if closers and rng.random() < 0.45 else legal)


GAMES = [
    ("kobo", {"com": "heuristic"}),
    ("twgp", {"com": "heuristic", "config": {"quickStart": True}}),
    ("maken", {"com": "heuristic"}),
]


@pytest.mark.parametrize(("ruleset", "body"), GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_rebuilt_from_deltas_equals_the_full_views(
    server: str, ruleset: str, body: Json
) -> None:
    game = first_mover(server, ruleset, body)
    rng = random.Random(7)
    undone = redone = switched = mine = 0
    with ExitStack() as stack:
        pair = Pair(stack, server, game["id"], game["token"])
        view = pair.step()
        while (pending := view["pending"]) is not None and pair.messages < 3000:
            if pending["seat"] != ME:
                view = pair.step()
                continue
            mine += 1
            history = view["history"]
            if mine == 6 and not switched:  # both sockets change language: each is answered
                switched = 1
                pair.both({"type": "lang", "lang": "en"})
                view = pair.step()
                assert view.get("lang", "en") == "en"
            elif mine % 9 == 0 and history["can_undo"] and undone < 3:
                undone += 1  # the log is cut back: the delta says where it differs
                pair.send({"type": "undo"})
                view = pair.step()
            elif history["can_redo"] and redone < undone and rng.random() < 0.5:
                redone += 1
                pair.send({"type": "redo"})
                view = pair.step()
            else:
                action = pick(rng, pending["legal"])
                pair.send({"type": "act", "prompt_id": pending["prompt_id"], "action": action})
                view = pair.step()
        assert pending is None, f"{ruleset}: not over after {pair.messages} messages"
        assert switched and undone
        with pytest.raises(TimeoutError):  # nothing more came on either socket
            pair.fast.recv(timeout=0.3)
    saved = pair.delta_bytes / pair.full_bytes
    print(
        f"{ruleset}: {pair.messages} views, {pair.deltas} as deltas; "
        f"{pair.full_bytes} bytes full, {pair.delta_bytes} with deltas ({saved:.1%})"
    )
    assert pair.deltas >= pair.messages * 0.8
    assert saved < 0.4, saved


def test_two_people_and_a_spectator_rebuild_every_view(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The server deals two-person matches from the system's randomness; a fixed deal here makes
    # the match (and so its length, on which the bytes saved depend) the same on every run.
    monkeypatch.setattr(deal, "draw_seed", lambda: 11)
    made = httpx2.post(
        f"{server}/api/games",
        json={"ruleset": "kobo", "mode": "vs_human", "config": {"best_of": 1}},
        timeout=10,
    ).json()
    join = f"{server}/api/games/{made['id']}/join"
    guest = httpx2.post(join, json={"code": made["invite"]}, timeout=10).json()
    rng = random.Random(3)
    with ExitStack() as stack:
        pairs = [
            Pair(stack, server, made["id"], token)
            for token in (made["token"], guest["token"], made["spectate"])
        ]
        for pair in pairs:
            pair.settle()
        assert [p.view["session"]["you"] for p in pairs] == [0, 1, None]
        acts = 0
        while (pending := pairs[0].view["pending"]) is not None and acts < 400:
            mover = pairs[pending["seat"]]
            legal = mover.view["pending"]["legal"]
            mover.send(
                {"type": "act", "prompt_id": pending["prompt_id"], "action": pick(rng, legal)}
            )
            acts += 1
            for pair in pairs:
                pair.step()
        if pending is not None:  # a long match: the guest resigns
            pairs[1].send({"type": "resign"})
            for pair in pairs:
                pair.step()
        for pair in pairs:
            pair.settle()
        assert all(p.view["session"]["ended"] is not None for p in pairs)
        # The spectator's deltas rebuilt its own view, which never shows a hand card.
        assert pairs[2].view["viewer"] is None
    for who, pair in zip(("seat 0", "seat 1", "spectator"), pairs, strict=True):
        print(
            f"two people, {who}: {pair.messages} views, {pair.deltas} as deltas; "
            f"{pair.full_bytes} bytes full, {pair.delta_bytes} with deltas"
        )
        assert pair.deltas >= pair.messages * 0.7, (pair.deltas, pair.messages)
        assert pair.delta_bytes < pair.full_bytes * 0.4


def test_a_connection_that_does_not_ask_never_gets_a_delta(server: str) -> None:
    game = first_mover(server, "kobo", {"com": "heuristic"})
    rng = random.Random(1)
    with ExitStack() as stack:
        sockets = [
            open_socket(stack, server, game["id"], game["token"], query)
            for query in ("", "&delta=0", "&delta=true", "&delta=", "&delta=1&delta=0")
        ]
        for _ in range(80):  # every change reaches every socket, each as a full view
            raws = [ws.recv(timeout=10) for ws in sockets]
            assert all(raw == raws[0] for raw in raws)
            msg = json.loads(raws[0])
            assert msg["type"] == "state", msg
            pending = msg["view"]["pending"]
            if pending is None:
                break
            if pending["seat"] == ME:
                action = rng.choice(pending["legal"])
                sockets[0].send(
                    json.dumps({"type": "act", "prompt_id": pending["prompt_id"], "action": action})
                )


def test_the_message_names_what_changed_and_where_the_log_differs() -> None:
    big = {"k": "v" * 400}  # a view worth a delta
    log = [{"n": 1}, {"n": 2}, {"n": 3}]
    old = encode({**big, "a": 1, "b": [1, 2], "gone": "x", "log": log})
    # An undo rewrote the log from its second entry; ``1`` became ``true`` (not equal on a page).
    new = encode({**big, "a": True, "b": [1, 2], "new": None, "log": [{"n": 1}, {"n": 9}]})
    delta = json.loads(message(old, new))
    assert delta == {
        "type": "delta",
        "set": {"a": True, "new": None},
        "drop": ["gone"],
        "log_from": 1,
        "log": [{"n": 9}],
    }
    # Only shorter: the log from its end, empty.
    shorter = json.loads(message(old, encode({**big, "a": 1, "b": [1, 2], "log": log[:1]})))
    assert shorter == {"type": "delta", "set": {}, "drop": ["gone"], "log_from": 1, "log": []}
    # Nothing of the old log is a prefix: from 0.
    moved = json.loads(
        message(encode({**big, "log": [{"n": 1}]}), encode({**big, "log": [{"n": 2}]}))
    )
    assert moved["log_from"] == 0 and moved["log"] == [{"n": 2}] and moved["set"] == {}
    # No last view, or a delta no shorter than the view: the full view.
    assert json.loads(message(None, new)) == {
        "type": "state",
        "view": json.loads(new.state_message())["view"],
    }
    assert json.loads(message(new, new))["type"] == "delta"  # nothing changed: tiny
    small = encode({"a": 2})
    assert json.loads(message(encode({"a": 1}), small))["type"] == "state"
    # The log stops being a list (or starts): it is a key like the others.
    a, b = encode({**big, "log": [1]}), encode({**big, "log": None})
    assert json.loads(message(a, b)) == {"type": "delta", "set": {"log": None}, "drop": []}
    assert json.loads(message(b, a)) == {"type": "delta", "set": {"log": [1]}, "drop": []}


def test_a_full_view_put_together_from_parts_is_the_standard_text() -> None:
    config = dict(registry.get("kobo").default_config)
    session = Session.create("kobo", config, 5, "com_vs_com", "random", 0)
    for _ in range(60):
        session.com_step()
    for seat in (0, 1, SPECTATOR):
        view = session.view_for(seat, "en", False)
        assert encode(view).state_message() == state_message(view)

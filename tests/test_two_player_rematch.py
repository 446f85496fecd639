"""A rematch between two people: both must accept (docs/two-player.md).

Once a match between two people is over (on the board, resigned or on time), a seat asks for a
rematch and the other accepts or declines. When both have asked, the next match is made with
the same settings, the seats swapped (the guest becomes seat 0; each person keeps their deck),
a fresh seed drawn by the server; each seat gets its own token of it and nobody else's, and the
spectators are shown its spectator code. A spectator cannot ask or accept.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from fastapi.testclient import TestClient

from kessen.server.app import create_app
from kessen.server.hub import Hub
from kessen.server.session import SPECTATOR, Session, SessionError
from kessen.store import MatchStore

BASE = "http://127.0.0.1"
BUILD = {
    "name": "Tens",
    "jokers": False,
    "vitals": ["s10", "c10", "sk"],
    "hand": ["sa", "c2", "s3"],
    "aside": ["s9", "c9", "s8"],
}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[Hub, TestClient, MatchStore]]:
    with MatchStore(tmp_path / "store.sqlite3") as store:
        app = create_app(30.0, store)
        with TestClient(app, base_url=BASE) as client:
            yield app.state.hub, client, store


def played(client: TestClient, ruleset: str, config: dict[str, Any], guest_deck: Any) -> Any:
    """A match between two people whose guest joined with ``guest_deck``: (made, guest, spec)."""
    with mock.patch("kessen.server.deal.draw_seed", lambda: 111):
        made = client.post(
            "/api/games", json={"ruleset": ruleset, "mode": "vs_human", "config": config}
        ).json()
    guest = client.post(
        f"/api/games/{made['id']}/join", json={"code": made["invite"], "deck": guest_deck}
    ).json()
    watcher = client.post(f"/api/games/{made['id']}/join", json={"code": made["spectate"]}).json()
    assert guest["seat"] == 1 and watcher["seat"] == SPECTATOR
    return made, guest, watcher


def rematch(client: TestClient, game: str, token: str, accept: bool = True) -> Any:
    return client.post(f"/api/games/{game}/rematch", json={"token": token, "accept": accept})


def test_both_accept_and_the_next_match_swaps_the_seats(
    server: tuple[Hub, TestClient, MatchStore],
) -> None:
    hub, client, store = server
    made, guest, _ = played(
        client, "kobo", {"decks": ["fortress", "vanguard"], "best_of": 1}, "tempo"
    )
    game = made["id"]
    session = hub.sessions[game]
    # Not before the end.
    early = rematch(client, game, made["token"])
    assert early.status_code == 409 and "not over" in early.json()["detail"]
    session.resign(0)  # any ending: here a resignation
    with client.websocket_connect(f"ws://127.0.0.1/ws/{game}?token={guest['token']}") as ws:
        assert ws.receive_json()["view"]["session"]["table"]["rematch"]["asked"] == []
        asked = rematch(client, game, made["token"]).json()
        assert asked == {"state": "asked", "next": None}
        view = ws.receive_json()["view"]  # the guest is shown the request
        assert view["session"]["table"]["rematch"]["asked"] == [0]
        with mock.patch("kessen.server.deal.draw_seed", lambda: 222):
            accepted = rematch(client, game, guest["token"]).json()
        table = ws.receive_json()["view"]["session"]["table"]
    assert accepted["state"] == "made"
    made_next = accepted["next"]
    new = hub.sessions[made_next["id"]]
    # The guest plays seat 0 now, with their own deck; the host seat 1 with theirs.
    assert made_next["seat"] == 0 and new.seat_of(made_next["token"]) == 0
    assert new.config["decks"] == ["tempo", "fortress"] and new.config["best_of"] == 1
    assert new.seed == 222 != session.seed and not new.waiting
    assert new.table is not None and new.table.claimed and new.table.invite is None
    # Every view of the old match names the next one and its spectator code, no token.
    assert table["rematch"]["next"] == {"id": new.id, "spectate": new.table.spectate_token}
    old_views = json.dumps([session.view_for(s, "en", False) for s in (0, 1, SPECTATOR)])
    assert not any(token in old_views for token in new.tokens if token != new.table.spectate_token)
    # The host fetches its own token: seat 1 of the next match, and only that.
    host = rematch(client, game, made["token"]).json()
    assert host["state"] == "made" and host["next"]["seat"] == 1
    assert new.seat_of(host["next"]["token"]) == 1 and host["next"]["token"] != made_next["token"]
    # The spectator follows with the spectator code.
    follow = client.post(
        f"/api/games/{new.id}/join", json={"code": table["rematch"]["next"]["spectate"]}
    ).json()
    assert follow["seat"] == SPECTATOR
    # The next match is recorded like any other, with both people and the seats swapped.
    assert new.recorder is not None
    record = store.get(new.recorder.match_id)
    assert record.info.players == {"0": "human", "1": "human"}
    assert record.config["decks"] == ["tempo", "fortress"] and record.meta["rematch_of"] == game
    url = f"ws://127.0.0.1/ws/{new.id}?token={host['next']['token']}"
    with client.websocket_connect(url) as ws:
        view = ws.receive_json()["view"]
        assert view["session"]["you"] == 1 and view["session"]["table"]["joined"] is True
    # Asking again changes nothing: the same tokens.
    assert rematch(client, game, guest["token"]).json()["next"] == made_next


def test_one_declines_and_the_asker_is_told(server: tuple[Hub, TestClient, MatchStore]) -> None:
    hub, client, _ = server
    made, guest, _ = played(client, "maken", {"decks": ["SO", "GA"]}, "RI")
    game = made["id"]
    session = hub.sessions[game]
    session.resign(1)
    nothing = rematch(client, game, made["token"], accept=False)
    assert nothing.status_code == 409 and "no rematch request" in nothing.json()["detail"]
    assert rematch(client, game, guest["token"]).json()["state"] == "asked"
    # The asker is shown the other seat leaving: its presence, next to the open request.
    session.arrive(0)
    session.arrive(1)
    session.leave(0)
    table = session.view_for(1, "ja", False)["session"]["table"]
    assert table["present"] == [False, True] and table["rematch"]["asked"] == [1]
    declined = rematch(client, game, made["token"], accept=False).json()
    assert declined == {"state": "declined", "next": None}
    table = session.view_for(1, "ja", False)["session"]["table"]["rematch"]
    assert table == {"asked": [], "notice": {"n": 1, "by": 0, "accepted": False}, "next": None}
    assert len(hub.sessions) == 1  # nothing was made
    # A seat may withdraw its own request too; then ask again and be accepted.
    assert rematch(client, game, guest["token"]).json()["state"] == "asked"
    assert rematch(client, game, guest["token"], accept=False).json()["state"] == "withdrawn"
    assert session.view_for(0, "ja", False)["session"]["table"]["rematch"]["asked"] == []
    assert rematch(client, game, guest["token"]).json()["state"] == "asked"
    made_now = rematch(client, game, made["token"]).json()
    assert made_now["state"] == "made"
    assert hub.sessions[made_now["next"]["id"]].config["decks"] == ["RI", "SO"]
    again = rematch(client, game, made["token"], accept=False)
    assert again.status_code == 409 and "started already" in again.json()["detail"]


def test_a_third_party_cannot_ask_or_accept(server: tuple[Hub, TestClient, MatchStore]) -> None:
    hub, client, _ = server
    made, guest, watcher = played(client, "kobo", {"decks": ["fortress", "vanguard"]}, "swarm")
    game = made["id"]
    session = hub.sessions[game]
    session.resign(0)
    assert rematch(client, game, made["token"]).json()["state"] == "asked"
    for token, status in ((watcher["token"], 403), ("not-a-token", 404), (made["invite"], 404)):
        answer = rematch(client, game, token)
        assert answer.status_code == status, (token, answer.text)
    assert rematch(client, "nope", guest["token"]).status_code == 404
    assert session.table is not None and session.table.rematch.next is None
    with pytest.raises(SessionError, match="spectator"):
        session.answer_rematch(SPECTATOR, True)
    # A vs-COM match has no table: no rematch there.
    com = client.post("/api/games", json={"ruleset": "kobo", "mode": "vs_com"}).json()
    assert rematch(client, com["id"], com["token"]).status_code == 404


def test_a_rematch_of_twgp_builds_seats_each_build_in_its_new_seats_cards(
    server: tuple[Hub, TestClient, MatchStore],
) -> None:
    hub, client, _ = server
    saved = client.post("/api/decks/twgp", json={"name": "Tens", "deck": BUILD}).json()
    made, guest, _ = played(client, "twgp", {"builds": [{"saved": saved["id"]}, None]}, None)
    session = hub.sessions[made["id"]]
    assert session.config["builds"][0]["vitals"] == ["s10", "c10", "sk"]
    session.resign(1)
    rematch(client, made["id"], made["token"])
    nxt = rematch(client, made["id"], guest["token"]).json()["next"]
    new = hub.sessions[nxt["id"]]
    # The guest built in the game (seat 0 now, still in the game); the host's build is seat 1's.
    assert new.config["builds"][0] is None
    assert new.config["builds"][1]["vitals"] == ["h10", "d10", "hk"]
    assert new.config["builds"][1]["hand"] == ["ha", "d2", "h3"]


def test_session_level_rematch_after_a_game_played_to_its_end() -> None:
    """On the board too: a whole Maken game played to its end, then both ask."""
    from tests.test_two_player import move

    session = Session.create("maken", {"decks": ["SO", "GA"]}, 3, "vs_human", "", 0.0)
    assert session.table is not None and session.table.invite is not None
    session.join(session.table.invite, "MI")
    while session.live.pending is not None and session.steps < 3000:
        move(session)
    assert session.over and session.table.ended is None  # ended on the board
    assert session.answer_rematch(1, True) == "asked"
    assert session.answer_rematch(0, True) == "both"
    from kessen.server.two_people import make_rematch, seats_of_next

    new = make_rematch(session)
    seats = seats_of_next(session, new)
    assert new.config["decks"] == ["MI", "SO"]
    assert new.seat_of(seats.seats[1][0]) == 0 and new.seat_of(seats.seats[0][0]) == 1


def test_a_seat_that_leaves_the_table_withdraws_its_rematch_request() -> None:
    """Asking, then closing the page (its last connection): the request lapses, so the other
    seat cannot start a match against nobody; a seat still connected keeps its request."""
    session = Session.create("maken", {"decks": ["SO", "GA"]}, 3, "vs_human", "", 0.0)
    assert session.table is not None and session.table.invite is not None
    session.join(session.table.invite, "MI")
    for seat in (0, 1):
        session.arrive(seat)
    session.resign(1)
    assert session.answer_rematch(1, True) == "asked"
    session.arrive(1)  # a second tab of the asker
    session.leave(1)
    assert session.table.rematch.asked == {1}  # still at the table
    session.leave(1)
    assert session.table.rematch.asked == set()
    assert session.answer_rematch(0, True) == "asked"  # nothing to join: a new request

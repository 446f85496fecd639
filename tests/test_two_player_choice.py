"""Between two people the guest chooses their own deck on joining (docs/two-player.md).

The creator fixes the settings and their own seat's deck; the match waits, with no state, until
the guest has chosen a Kōbō deck, a TWGP build or a Maken character, from the starters or the
saved decks. A choice the ruleset refuses is answered precisely and uses nothing (the invite
still opens the seat); a server restart before the join still lets the guest join; the record
holds both choices and the server's seed; the creator never reads the guest's hidden cards.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from fastapi.testclient import TestClient

from kessen.games.kobo.decks import deck_to_json, starter_decks
from kessen.server.app import create_app
from kessen.server.hub import Hub
from kessen.server.session import SPECTATOR, Session
from kessen.store import MatchStore, StoreError
from tests.test_leak_oracle import Tally, check_message

BASE = "http://127.0.0.1"
BUILD: dict[str, Any] = {
    "name": "Tens",
    "jokers": False,
    "vitals": ["s10", "c10", "sk"],
    "hand": ["sa", "c2", "s3"],
    "aside": ["s9", "c9", "s8"],
}
"""A saved TWGP build (kept in seat 0's suits, ♠♣)."""


@contextmanager
def served(path: Path) -> Iterator[tuple[Hub, TestClient, MatchStore]]:
    """A server over the store at ``path`` (COM waits; nothing moves unless a test moves it)."""
    with MatchStore(path) as store:
        app = create_app(30.0, store)
        with TestClient(app, base_url=BASE) as client:
            yield app.state.hub, client, store


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[Hub, TestClient, MatchStore]]:
    with served(tmp_path / "store.sqlite3") as found:
        yield found


def create(client: TestClient, ruleset: str, config: dict[str, Any], **body: Any) -> Any:
    """Create a match between two people (the server's draw is 4242); its answer."""
    with mock.patch("kessen.server.deal.draw_seed", lambda: 4242):
        made = client.post(
            "/api/games", json={"ruleset": ruleset, "mode": "vs_human", "config": config, **body}
        )
    assert made.status_code == 200, made.text
    return made.json()


def invite(client: TestClient, made: Any, options: list[Any] | None = None) -> Any:
    answer = client.post(
        f"/api/games/{made['id']}/invite", json={"code": made["invite"], "options": options or []}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def join(client: TestClient, made: Any, deck: Any) -> Any:
    return client.post(f"/api/games/{made['id']}/join", json={"code": made["invite"], "deck": deck})


# --- waiting for the guest ---------------------------------------------------------------------


def test_the_host_and_the_spectators_wait_for_the_guest_with_no_game_yet(
    server: tuple[Hub, TestClient, MatchStore],
) -> None:
    hub, client, store = server
    made = create(client, "kobo", {"best_of": 1}, decks=["fortress", "vanguard"])
    session = hub.sessions[made["id"]]
    assert session.waiting and not session.states and session.seed == 4242
    watcher = client.post(f"/api/games/{made['id']}/join", json={"code": made["spectate"]}).json()
    assert watcher["seat"] == SPECTATOR
    for token, you in ((made["token"], 0), (watcher["token"], None)):
        with client.websocket_connect(f"ws://127.0.0.1/ws/{made['id']}?token={token}") as ws:
            view = ws.receive_json()["view"]
            assert view["waiting"] is True and view["session"]["you"] == you
            assert view["pending"] is None and view["log"] == [] and "players" not in view
            table = view["session"]["table"]
            assert table["joined"] is False
            assert (table["invite"] == made["invite"]) == (you == 0)
            ws.send_json({"type": "resign"})  # nothing to resign yet
            assert ws.receive_json()["code"] == "refused"
    # The record is the placeholder: listed live, 0 steps, the seed not shown while open.
    assert session.recorder is not None
    listed = {m["id"]: m for m in client.get("/api/matches").json()["matches"]}
    row = listed[session.recorder.match_id]
    assert row["state"] == "live" and row["steps"] == 0 and "seed" not in row
    assert store.get(session.recorder.match_id).meta["waiting_guest"] is True


# --- the guest's choice, for each game ---------------------------------------------------------


def test_the_guest_picks_a_kobo_deck_of_their_own_and_a_bad_one_uses_nothing(
    server: tuple[Hub, TestClient, MatchStore],
) -> None:
    hub, client, store = server
    saved = client.post(
        "/api/decks/kobo", json={"name": "私の速攻", "deck": deck_to_json(starter_decks()["tempo"])}
    ).json()
    made = create(client, "kobo", {"best_of": 1}, decks=["fortress", "vanguard"])
    session = hub.sessions[made["id"]]
    placeholder = session.recorder.match_id if session.recorder else None
    shown = invite(client, made, ["swarm", "ambush", "nope", {"saved": saved["id"]}, None])
    assert shown["seat"] == 1 and shown["choose"] is True and shown["key"] == "decks"
    assert shown["host"] == "fortress" and shown["default"] == "vanguard"
    assert shown["settings"] == {"best_of": 1} and shown["clock"] is None
    ok = [o["ok"] for o in shown["options"]]
    assert ok == [True, False, False, True, False]
    assert "needs the match option surprise" in shown["options"][1]["why"]
    assert "unknown starter deck" in shown["options"][2]["why"]
    # Refused, precisely, and nothing used: the invite still opens the seat.
    for bad, words in (
        ("ambush", "needs the match option surprise"),
        ("nope", 'unknown starter deck "nope"'),
        ({"saved": saved["id"] + 100}, "no saved kobo deck"),
        (None, "expected a deck name or a deck object"),
    ):
        answer = join(client, made, bad)
        assert answer.status_code == 422, (bad, answer.text)
        assert words in answer.json()["detail"], answer.text
        assert session.waiting and session.table is not None and not session.table.claimed
    assert join(client, made, {"saved": 0}).status_code == 422  # not a deck reference
    guest = join(client, made, {"saved": saved["id"]})
    assert guest.status_code == 200, guest.text
    assert guest.json()["seat"] == 1 and not session.waiting
    # The state and the record hold both choices (the saved deck as its list) and the seed.
    assert session.config["decks"][0] == "fortress"
    assert session.config["decks"][1]["name_ja"] == "私の速攻"
    assert session.recorder is not None and session.recorder.match_id != placeholder
    record = store.get(session.recorder.match_id)
    assert record.config["decks"][1]["name_ja"] == "私の速攻" and record.info.seed == 4242
    assert placeholder is not None
    with pytest.raises(StoreError):
        store.get(placeholder)  # the placeholder is gone: one record of the match
    rows = [m for m in client.get("/api/matches").json()["matches"]]
    assert [(m["decks"], m["state"]) for m in rows] == [(["fortress", "私の速攻"], "live")]
    # A used invite: the spectator's view, whatever deck is named.
    late = join(client, made, "swarm").json()
    assert late["seat"] == SPECTATOR
    assert invite(client, made)["seat"] == SPECTATOR


def test_the_guest_picks_a_maken_character(server: tuple[Hub, TestClient, MatchStore]) -> None:
    hub, client, _ = server
    made = create(client, "maken", {"decks": ["SO", "GA"], "gb": "total"})
    shown = invite(client, made, ["RI", "MI", "XX"])
    assert shown["host"] == "SO" and shown["settings"]["gb"] == "total"
    assert [o["ok"] for o in shown["options"]] == [True, True, False]
    assert join(client, made, "XX").status_code == 422
    assert join(client, made, "MI").json()["seat"] == 1
    session = hub.sessions[made["id"]]
    assert session.config["decks"] == ["SO", "MI"]
    view = session.view_for(1, "en", False)
    assert "MI" in json.dumps(view["players"][1]) and "players" in view


def test_the_guest_picks_a_saved_twgp_build_the_host_never_reads(
    server: tuple[Hub, TestClient, MatchStore],
) -> None:
    hub, client, _ = server
    mine = client.post("/api/decks/twgp", json={"name": "Tens", "deck": BUILD}).json()
    with_jokers = {**BUILD, "aside": [*BUILD["aside"], "s7"], "jokers": True}
    jokers = client.post("/api/decks/twgp", json={"name": "J", "deck": with_jokers}).json()
    made = create(client, "twgp", {"builds": [{"saved": mine["id"]}, None]})
    shown = invite(client, made, [None, {"saved": mine["id"]}, {"saved": jokers["id"]}])
    # The host's build is their secret: neither it nor the builds key is shown.
    assert shown["secret"] is True and shown["host"] is None and "builds" not in shown["settings"]
    assert not any(f'"{slug}"' in json.dumps(shown) for slug in BUILD["vitals"])
    assert [o["ok"] for o in shown["options"]] == [True, True, False]
    assert "jokers" in shown["options"][2]["why"]
    assert join(client, made, {"saved": jokers["id"]}).status_code == 422
    assert join(client, made, {"saved": mine["id"]}).json()["seat"] == 1
    session = hub.sessions[made["id"]]
    theirs = session.config["builds"][1]
    assert theirs["vitals"] == ["h10", "d10", "hk"]  # written in seat 1's suits
    host_view = json.dumps(session.view_for(0, "en", False))
    slugs = [slug for part in ("vitals", "hand", "aside") for slug in theirs[part]]
    assert not [slug for slug in slugs if f'"{slug}"' in host_view]


def test_a_quick_start_leaves_the_guest_nothing_to_choose(
    server: tuple[Hub, TestClient, MatchStore],
) -> None:
    hub, client, _ = server
    mine = client.post("/api/decks/twgp", json={"name": "Tens", "deck": BUILD}).json()
    made = create(client, "twgp", {"quickStart": True})
    shown = invite(client, made, [None, {"saved": mine["id"]}])
    assert [o["ok"] for o in shown["options"]] == [True, False]
    assert "quick start" in shown["options"][1]["why"]
    guest = client.post(f"/api/games/{made['id']}/join", json={"code": made["invite"]}).json()
    assert guest["seat"] == 1 and not hub.sessions[made["id"]].waiting


# --- hidden information and the deal ------------------------------------------------------------


def test_the_host_reads_nothing_of_the_guests_hidden_cards(
    server: tuple[Hub, TestClient, MatchStore],
) -> None:
    hub, client, _ = server
    made = create(client, "kobo", {"best_of": 1}, decks=["fortress", "vanguard"])
    answer = join(client, made, "tempo").json()
    session = hub.sessions[made["id"]]
    tally = Tally()
    check_message(session.view_for(0, "ja", True), session.live, 0, tally, "host")
    check_message(session.view_for(SPECTATOR, "en", True), session.live, 1, tally, "spectator")
    assert tally.hidden_checked > 0 and not tally.leaks, tally.leaks
    # No view, and no answer to the host, names the guest's token.
    text = json.dumps([session.view_for(s, "en", False) for s in (0, SPECTATOR)])
    assert answer["token"] not in text and made["invite"] not in text
    # The server's seed, never the client's: a chosen seed is refused at creation.
    seeded = client.post(
        "/api/games", json={"ruleset": "kobo", "mode": "vs_human", "seed": 7, "config": {}}
    )
    assert seeded.status_code == 422 and "dealt by the server" in seeded.text
    assert session.seed == 4242


def test_a_stacked_pile_is_refused_for_the_guest_too(
    server: tuple[Hub, TestClient, MatchStore],
) -> None:
    hub, client, _ = server
    made = create(client, "twgp", {})
    session = hub.sessions[made["id"]]
    pile = {"vitals": ["h10", "d10", "hk"], "hand": [], "pile": ["h2", "h3"]}
    problem = join(client, made, "x")  # a name is no build: the ruleset says so
    assert problem.status_code == 422
    assert session.waiting
    # A stacked pile can only come from a build object, never a name or a saved build; the
    # check behind the join refuses it all the same (the server deals).
    from kessen.server.two_people import choice_problem

    why = choice_problem(session, pile)
    assert why is not None and "dealt by the server" in why and "pile" in why


# --- a restart before the join -----------------------------------------------------------------


def test_a_restart_before_the_join_still_lets_the_guest_join(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    with served(path) as (hub, client, _):
        made = create(client, "kobo", {"best_of": 1}, decks=["fortress", "vanguard"])
        placeholder = hub.sessions[made["id"]].recorder
        assert placeholder is not None
    with served(path) as (hub, client, store):  # the server restarted
        session = hub.sessions[made["id"]]
        assert session.waiting and session.seed == 4242
        assert session.view_for(0, "ja", False)["session"]["table"]["invite"] == made["invite"]
        assert invite(client, made, ["swarm"])["options"] == [{"ok": True}]
        assert join(client, made, "nope").status_code == 422
        guest = join(client, made, "swarm").json()
        assert guest["seat"] == 1 and session.config["decks"] == ["fortress", "swarm"]
        assert session.recorder is not None
        record = store.get(session.recorder.match_id)
        assert record.info.seed == 4242 and record.config["decks"] == ["fortress", "swarm"]
        with pytest.raises(StoreError):
            store.get(placeholder.match_id)
        listed = client.get("/api/matches", headers={"X-Kessen-Token": guest["token"]}).json()
        assert [(m["decks"], m.get("yours")) for m in listed["matches"]] == [
            (["fortress", "swarm"], 1)
        ]
    with served(path) as (hub, client, _):  # and again: the match itself comes back
        back = hub.sessions[made["id"]]
        assert not back.waiting and back.seat_of(guest["token"]) == 1


def test_session_level_join_keeps_the_default_and_takes_a_choice() -> None:
    """Without HTTP: ``join`` with no choice keeps the seat's default; with one, uses it."""
    kept = Session.create("maken", {"decks": ["SO", "GA"]}, 5, "vs_human", "", 0.0)
    assert kept.table is not None and kept.table.invite is not None
    kept.join(kept.table.invite)
    assert kept.config["decks"] == ["SO", "GA"] and kept.live is not None
    chosen = Session.create("maken", {"decks": ["SO", "GA"]}, 5, "vs_human", "", 0.0)
    assert chosen.table is not None and chosen.table.invite is not None
    chosen.join(chosen.table.invite, "RI")
    assert chosen.config["decks"] == ["SO", "RI"]

"""Hidden information between two people: no client chooses the deal of a fair match, no branch
plays someone else's hidden cards, and a secret build stays its player's in every record route.

Each attack here worked on the server before its fix: a creator's ``seed`` (or Kōbō's
``shuffle: false``, a TWGP build's ``pile``) rebuilt the guest's hand and both decks' order; a
seat's own token continued a running match and COM then played the opponent's real hidden
cards; a finished match's ``seat=all`` showed the host's secret TWGP build to the guest.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kessen.engine import registry
from kessen.server.app import create_app
from kessen.server.hub import Hub
from kessen.store import MatchStore

BASE = "http://127.0.0.1"
CONFIGS: dict[str, dict[str, Any]] = {
    "kobo": {"decks": ["fortress", "vanguard"], "best_of": 1},
    "twgp": {},
    "maken": {"decks": ["SO", "RI"]},
}
BUILD = {
    "vitals": ["s10", "c10", "sk"],
    "hand": ["sa", "c2", "s3"],
    "aside": ["s9", "c9", "s8"],
}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Hub, TestClient, MatchStore]]:
    with MatchStore(tmp_path / "store.sqlite3") as store:
        app = create_app(30.0, store)  # COM waits: nothing moves unless a test moves it
        with TestClient(app, base_url=BASE) as client:
            yield app.state.hub, client, store


def new_game(client: TestClient, **body: Any) -> Any:
    return client.post("/api/games", json=body)


# --- the deal ------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", sorted(CONFIGS))
def test_a_match_between_two_people_refuses_a_chosen_seed(
    served: tuple[Hub, TestClient, MatchStore], ruleset: str
) -> None:
    hub, client, _ = served
    answer = new_game(
        client, ruleset=ruleset, mode="vs_human", config=CONFIGS[ruleset], seed=424242
    )
    assert answer.status_code == 422, answer.text
    assert "dealt by the server" in answer.json()["detail"] and "seed" in answer.json()["detail"]
    assert not hub.sessions  # nothing was made


def test_no_client_turns_shuffling_off_or_stacks_a_pile_between_two_people(
    served: tuple[Hub, TestClient, MatchStore],
) -> None:
    hub, client, _ = served
    kobo = new_game(
        client, ruleset="kobo", mode="vs_human", config={**CONFIGS["kobo"], "shuffle": False}
    )
    assert kobo.status_code == 422 and "shuffle" in kobo.json()["detail"]
    pool = registry.get("twgp")
    assert pool.fixed_deal({"builds": [{**BUILD, "pile": ["s2"]}, None]})
    twgp = new_game(
        client,
        ruleset="twgp",
        mode="vs_human",
        config={"builds": [{**BUILD, "pile": ["s7", "s6", "s5"]}, None]},
    )
    assert twgp.status_code == 422 and "pile" in twgp.json()["detail"]
    # Nor does the creator choose who starts (chance decides it), in any of the three games.
    for ruleset, key in (
        ("kobo", "first_player"),
        ("twgp", "firstPlayer"),
        ("maken", "firstPlayer"),
    ):
        first = new_game(
            client, ruleset=ruleset, mode="vs_human", config={**CONFIGS[ruleset], key: 0}
        )
        assert first.status_code == 422 and key in first.json()["detail"], (ruleset, first.text)
    assert not hub.sessions


def test_the_server_deals_a_fair_match_and_marks_an_open_one(
    served: tuple[Hub, TestClient, MatchStore],
) -> None:
    hub, client, store = served
    fair = new_game(client, ruleset="kobo", mode="vs_human", config=CONFIGS["kobo"]).json()
    other = new_game(client, ruleset="kobo", mode="vs_human", config=CONFIGS["kobo"]).json()
    seeds = {hub.sessions[g["id"]].seed for g in (fair, other)}
    assert len(seeds) == 2  # drawn by the server, fresh each time
    practice = new_game(client, ruleset="kobo", mode="vs_com", config=CONFIGS["kobo"], seed=7)
    assert practice.status_code == 200
    practice_id = hub.sessions[practice.json()["id"]].recorder
    fair_id = hub.sessions[fair["id"]].recorder
    assert practice_id is not None and fair_id is not None
    assert store.get(practice_id.match_id).meta["open_deal"]
    assert "open_deal" not in store.get(fair_id.match_id).meta
    listed = {m["id"]: m for m in client.get("/api/matches").json()["matches"]}
    assert listed[practice_id.match_id]["open_deal"] is True
    assert listed[fair_id.match_id]["open_deal"] is False
    # Choosing COM's secret TWGP build is an open deal too: the player knows COM's cards.
    com_build = {k: [c.replace("s", "h").replace("c", "d") for c in v] for k, v in BUILD.items()}
    builds = new_game(client, ruleset="twgp", mode="vs_com", config={"builds": [None, com_build]})
    assert builds.status_code == 200, builds.text
    session = hub.sessions[builds.json()["id"]]
    assert any("builds[1]" in reason for reason in session.open_deal)


# --- branches ------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", sorted(CONFIGS))
def test_no_branch_of_a_running_match_or_of_a_match_against_a_person(
    served: tuple[Hub, TestClient, MatchStore], ruleset: str
) -> None:
    hub, client, store = served
    config = CONFIGS[ruleset]
    for mode in ("vs_com", "vs_human"):
        game = new_game(client, ruleset=ruleset, mode=mode, config=config).json()
        session = hub.sessions[game["id"]]
        assert session.recorder is not None
        match = session.recorder.match_id
        own = {"X-Kessen-Token": game["token"]}
        info = client.get(f"/api/matches/{match}", headers=own).json()
        assert info["continue_refused"] == {"0": "open", "1": "open"}
        answer = client.post(f"/api/matches/{match}/continue", json={"step": 0}, headers=own)
        assert answer.status_code == 403 and "not finished" in answer.json()["detail"]
        if mode == "vs_human":  # over: still a person's cards
            assert session.table is not None
            session.table.claimed = True  # as if the guest had joined
            session.resign(1)
            info = client.get(f"/api/matches/{match}", headers=own).json()
            assert info["continue_refused"] == {"0": "person", "1": "person"}
            for seat in (0, 1):
                answer = client.post(
                    f"/api/matches/{match}/continue", json={"step": 0, "seat": seat}, headers=own
                )
                assert answer.status_code == 403 and "person" in answer.json()["detail"]
        else:  # over against COM: everything is public, so it may go on, as an open deal
            store.finish_match(match, None)
            answer = client.post(f"/api/matches/{match}/continue", json={"step": 0}, headers=own)
            assert answer.status_code == 200, answer.text
            branch = hub.sessions[answer.json()["id"]]
            assert any(reason.startswith("branch") for reason in branch.open_deal)
    branches = [m for m in client.get("/api/matches").json()["matches"] if m["parent"]]
    assert len(branches) == 1


# --- secret builds in the record ---------------------------------------------------------


def test_a_secret_build_stays_its_players_in_every_record_route(
    served: tuple[Hub, TestClient, MatchStore],
) -> None:
    hub, client, _ = served
    made = new_game(client, ruleset="twgp", mode="vs_human", config={"builds": [BUILD, None]})
    assert made.status_code == 200, made.text
    game = made.json()
    guest = client.post(f"/api/games/{game['id']}/join", json={"code": game["invite"]}).json()
    spectator = client.post(f"/api/games/{game['id']}/join", json={"code": game["spectate"]})
    session = hub.sessions[game["id"]]
    assert session.recorder is not None
    match = session.recorder.match_id
    session.resign(1)  # over: everything else of the record opens
    host = {"X-Kessen-Token": game["token"]}
    others = {
        "nobody": {},
        "guest": {"X-Kessen-Token": guest["token"]},
        "spectator": {"X-Kessen-Token": spectator.json()["token"]},
    }
    secret = set(BUILD["vitals"] + BUILD["hand"] + BUILD["aside"])
    for who, headers in others.items():
        info = client.get(f"/api/matches/{match}", headers=headers).json()
        assert info["seats"] == ["1"], who
        assert "seed" not in info["match"], who
        for seat in ("0", "all"):
            for path in (f"/api/matches/{match}/step/0", f"/api/matches/{match}/replay"):
                answer = client.get(path, params={"seat": seat}, headers=headers)
                assert answer.status_code == 403, (who, seat, path)
                assert "secret" in answer.json()["detail"]
        # The guest's own view at the start names none of the host's build.
        view = client.get(f"/api/matches/{match}/step/0", params={"seat": "1"}, headers=headers)
        assert view.status_code == 200
        text = view.text
        hidden = [slug for slug in secret if f'"{slug}"' in text]
        assert not hidden, (who, hidden)
    listed = client.get("/api/matches").json()["matches"]
    assert "seed" not in next(m for m in listed if m["id"] == match)
    # Its owner opens everything.
    assert client.get(f"/api/matches/{match}", headers=host).json()["seats"] == ["0", "1", "all"]
    whole = client.get(f"/api/matches/{match}/step/0", params={"seat": "all"}, headers=host)
    assert whole.status_code == 200 and all(f'"{slug}"' in whole.text for slug in BUILD["vitals"])


# --- COM's reasoning ---------------------------------------------------------------------


def test_coms_reasoning_does_not_count_the_cards_it_could_set() -> None:
    from kessen.server.session import Session

    config = {**CONFIGS["kobo"], "surprise": True}
    session = Session.create("kobo", config, 3, "vs_com", "heuristic", 0.0)
    hidden = ["surprise-set power-surge", "surprise-set counter-spell", "surprise-set decoy"]
    session.why = {
        "seat": 1,
        "prompt": "turn",  # a public prompt: its public candidates are shown
        "action": hidden[1],
        "level": "heuristic",
        "candidates": [
            {"action": hidden[0], "visits": 40, "value": 0.61},
            {"action": "attack 0", "visits": 30, "value": 0.52},
            {"action": hidden[1], "visits": 20, "value": 0.48},
            {"action": hidden[2], "visits": 10, "value": 0.40},
        ],
    }
    why = session.view_for(0, "ja", False)["com_why"]
    assert [c["action"] for c in why["candidates"]] == ["surprise-set …", "attack 0"]
    merged = why["candidates"][0]
    assert merged["visits"] is None and merged["value"] is None
    assert why["action"] == "surprise-set …"
    assert not any(name in str(why) for name in ("power-surge", "counter-spell", "decoy"))
    # COM's own seat (or a viewer of everything) still reads it whole.
    assert len(session._why_for(1, False)["candidates"]) == 4  # type: ignore[index]
    # Many hidden candidates among the best: merged before the panel's cut of five, so the
    # public ones after them still show (their number tells nothing of the hidden ones).
    many = [{"action": f"surprise-set card-{i}", "visits": 50 - i, "value": 0.5} for i in range(8)]
    session.why["candidates"] = [*many, {"action": "attack 0", "visits": 1, "value": 0.1}]
    why = session.view_for(0, "ja", False)["com_why"]
    assert [c["action"] for c in why["candidates"]] == ["surprise-set …", "attack 0"]

"""Small trust defects of a hostile re-audit, one test group each.

- Served on every interface (``--host 0.0.0.0``), an IP-literal ``Origin`` on the server's port
  counts as the server's own only for this machine's addresses (or the request's own ``Host``),
  never for any address; loopback and ``--allow-origin`` keep working.
- The Guard's own refusals (400, 403, 413, a refused WebSocket handshake) carry the security
  headers of every other answer.
- A Maken config with a deck of the wrong shape is a 422 naming the field, not a 500; ``true``,
  ``10.0`` and a turn limit of 0 are refused with the key named. Kōbō and TWGP configs refuse
  the same wrong types (``1.0`` for ``first_player`` was a 500 in Kōbō).
- A deck or build file nested thousands deep is a clear refusal on every route that reads
  client TOML (the deck builder's import for Kōbō and TWGP) and in ``kessen decks validate``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from typer.testing import CliRunner

from kessen.cli import app as cli_app
from kessen.server.app import create_app
from kessen.server.security import MAX_BODY, AllowList, machine_addresses
from kessen.store import MatchStore

PORT = 8765
HOST = f"127.0.0.1:{PORT}"
LOCAL = f"http://{HOST}"
FOREIGN = f"http://203.0.113.9:{PORT}"
"""A documentation address (RFC 5737): never one of this machine's."""
SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "x-frame-options")


@pytest.fixture
def lan(tmp_path: Path) -> Iterator[TestClient]:
    """A server started as ``kessen play --host 0.0.0.0 --port 8765``, reached at 127.0.0.1."""
    with MatchStore(tmp_path / "matches.sqlite3") as store:
        app = create_app(pace=30.0, store=store, host="0.0.0.0", port=PORT)
        with TestClient(app, base_url=LOCAL) as client:
            yield client


@pytest.fixture
def local(tmp_path: Path) -> Iterator[TestClient]:
    """A server started as ``kessen play`` (this machine only)."""
    with MatchStore(tmp_path / "matches.sqlite3") as store:
        app = create_app(pace=30.0, store=store, port=PORT)
        with TestClient(app, base_url=LOCAL) as client:
            yield client


def check_post(client: TestClient, origin: str, host: str | None = None) -> int:
    """The status of a state-changing request (a deck check) sent by a page of ``origin``."""
    headers = {"origin": origin} | ({"host": host} if host else {})
    response = client.post("/api/decks/kobo/check", json={"deck": {}}, headers=headers)
    status: int = response.status_code
    return status


def new_game(client: TestClient, ruleset: str = "kobo", **config: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"ruleset": ruleset, "pace": 30, "config": config})
    assert response.status_code == 200, response.text
    game: dict[str, Any] = response.json()
    return game


def assert_secured(headers: Any) -> None:
    for name in SECURITY_HEADERS:
        assert name in headers, (name, dict(headers))
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"


# --- 1. Origin on a server that serves every interface -------------------------------------


def test_any_ip_origin_is_not_the_servers_own_on_every_interface(lan: TestClient) -> None:
    assert check_post(lan, FOREIGN) == 403
    assert check_post(lan, f"http://[2001:db8::9]:{PORT}") == 403
    assert check_post(lan, FOREIGN, host=f"198.51.100.7:{PORT}") == 403
    game = new_game(lan)
    with (
        pytest.raises(WebSocketDenialResponse) as refused,
        lan.websocket_connect(
            f"/ws/{game['id']}?token={game['token']}", headers={"origin": FOREIGN, "host": HOST}
        ),
    ):
        pass
    assert refused.value.status_code == 403


def test_this_machines_origins_stay_its_own(lan: TestClient) -> None:
    for origin in (LOCAL, f"http://localhost:{PORT}", f"http://[::1]:{PORT}"):
        assert check_post(lan, origin) == 200, origin
    for address in machine_addresses():
        shown = f"[{address}]" if ":" in address else address
        assert check_post(lan, f"http://{shown}:{PORT}") == 200, address
    assert check_post(lan, "http://127.0.0.1:1") == 403  # loopback, another port
    # The browser reached the server at the address it names (a port forward, a new address).
    assert check_post(lan, FOREIGN, host=f"203.0.113.9:{PORT}") == 200
    game = new_game(lan)
    socket_url = f"/ws/{game['id']}?token={game['token']}"
    with lan.websocket_connect(socket_url, headers={"origin": LOCAL, "host": HOST}) as ws:
        assert ws.receive_json()["type"] == "state"


def test_the_machines_addresses_decide_on_every_interface() -> None:
    allowed = AllowList.build("0.0.0.0", PORT, own=["192.168.1.5", "fe80::1%eth0"])
    assert allowed.origin_ok(f"http://192.168.1.5:{PORT}")
    assert allowed.origin_ok(f"http://[fe80::1]:{PORT}")
    assert allowed.origin_ok(f"http://127.0.0.2:{PORT}")  # loopback: this machine
    assert not allowed.origin_ok(f"http://192.168.1.6:{PORT}")
    assert not allowed.origin_ok(f"http://192.168.1.5:{PORT + 1}")
    assert not allowed.origin_ok(f"https://192.168.1.5:{PORT}")
    # The request's own Host: same origin; a Host the server refuses proves nothing.
    assert allowed.origin_ok(f"http://192.168.1.6:{PORT}", host=f"192.168.1.6:{PORT}")
    assert not allowed.origin_ok(f"http://192.168.1.6:{PORT}", host=f"192.168.1.7:{PORT}")
    assert not allowed.origin_ok("http://evil.example", host="evil.example")
    assert not allowed.host_ok("1.2.3.4:80; script-src *")
    # Listening on one address, only that address and loopback are its own.
    one = AllowList.build("192.168.1.5", PORT)
    assert one.origin_ok(f"http://192.168.1.5:{PORT}")
    assert not one.origin_ok(f"http://127.0.0.2:{PORT}")


def test_allow_origin_still_adds_one_on_every_interface(tmp_path: Path) -> None:
    app = create_app(pace=30.0, host="0.0.0.0", port=PORT, allow_origins=["http://kessen.lan:80"])
    with TestClient(app, base_url=LOCAL) as client:
        assert check_post(client, "http://kessen.lan") == 200
        assert check_post(client, "http://kessen.lan:8080") == 403


# --- 2. security headers on the Guard's own answers ----------------------------------------


def test_the_guards_own_answers_carry_the_security_headers(local: TestClient) -> None:
    bad_host = local.get("/api/meta", headers={"host": "evil.example"})
    assert bad_host.status_code == 400
    assert_secured(bad_host.headers)
    assert "evil.example" not in bad_host.headers["content-security-policy"]
    forged = local.post("/api/decks/kobo/check", json={}, headers={"origin": "http://evil.example"})
    assert forged.status_code == 403
    assert_secured(forged.headers)
    huge = local.post(
        "/api/decks/kobo/check",
        content=b"x" * (MAX_BODY + 1),
        headers={"content-type": "application/json"},
    )
    assert huge.status_code == 413
    assert_secured(huge.headers)
    game = new_game(local)
    with (
        pytest.raises(WebSocketDenialResponse) as refused,
        local.websocket_connect(
            f"/ws/{game['id']}?token={game['token']}",
            headers={"origin": "http://evil.example", "host": HOST},
        ),
    ):
        pass
    assert refused.value.status_code == 403
    assert_secured(refused.value.headers)


# --- 3. wrong types in configs -------------------------------------------------------------

REFUSED_CONFIGS: list[tuple[str, dict[str, Any], str]] = [
    (
        "maken",
        {"decks": [{"character": "SO", "cards": "x"}, "GA"]},
        "decks[0]: cards: expected an object of card ids and counts",
    ),
    (
        "maken",
        {"decks": [{"character": "SO", "cards": ["SO01"]}, "GA"]},
        "decks[0]: cards: expected an object",
    ),
    (
        "maken",
        {"decks": ["GA", {"character": "SO", "cards": {"SO01": True}}]},
        "decks[1]: cards.SO01: expected a whole number of copies",
    ),
    (
        "maken",
        {"decks": [{"character": "SO", "cards": {"SO01": 2.0}}, "GA"]},
        "decks[0]: cards.SO01: expected a whole number of copies",
    ),
    (
        "maken",
        {"decks": [{"character": "XX", "cards": {}}, "GA"]},
        "decks[0]: character: expected one of SO, RI, MI, GA",
    ),
    ("maken", {"bonusBetMax": True}, "bonusBetMax: expected one of 1, 2, not true"),
    ("maken", {"downAt": 10.0}, "downAt: expected one of 10, 8, 12, not 10.0"),
    ("maken", {"supportCap": 6.0}, "supportCap: expected one of 6, null, not 6.0"),
    ("maken", {"turnLimit": True}, "turnLimit: expected a whole number from 1 to 1000"),
    ("maken", {"turnLimit": 10.0}, "turnLimit: expected a whole number from 1 to 1000"),
    ("maken", {"turnLimit": 0}, "turnLimit: expected a whole number from 1 to 1000, not 0"),
    ("maken", {"turn_limit": 0}, "turn_limit: expected a whole number from 1 to 1000, not 0"),
    ("maken", {"firstPlayer": True}, "firstPlayer: expected 0, 1 or null, not true"),
    ("maken", {"best_of": True}, "best_of: Maken plays single games (1), not true"),
    ("kobo", {"first_player": 1.0}, "first_player: expected 0, 1 or null, not 1.0"),
    ("kobo", {"first_player": True}, "first_player: expected 0, 1 or null, not true"),
    ("kobo", {"card_data": 1.0}, "card_data: expected a card data version"),
    ("kobo", {"best_of": [[1]]}, "best_of: expected an odd number from 1 to 9, not a list"),
    ("kobo", {"decks": [{"cards": "x"}, "fortress"]}, "deck JSON: main: Field required"),
    ("twgp", {"gridWidth": 5.0}, "gridWidth: expected 5 or 3"),
    ("twgp", {"firstPlayer": 0.0}, "firstPlayer: expected 0, 1 or null"),
    ("twgp", {"builds": [{"vitals": "x"}, None]}, "builds[0].vitals: expected a list of card"),
]


@pytest.mark.parametrize(("ruleset", "config", "words"), REFUSED_CONFIGS)
def test_wrong_types_in_a_config_are_named(
    local: TestClient, ruleset: str, config: dict[str, Any], words: str
) -> None:
    response = local.post("/api/games", json={"ruleset": ruleset, "pace": 30, "config": config})
    assert response.status_code == 422, response.text
    assert words in response.json()["detail"]


def test_whole_numbers_still_start_a_maken_game(local: TestClient) -> None:
    new_game(local, "maken", bonusBetMax=2, downAt=8, turnLimit=1, turn_limit=5, firstPlayer=0)
    new_game(local, "maken", supportCap=None, turn_limit=None)


# --- 4. deeply nested TOML -----------------------------------------------------------------

DEEP_TOML = {
    "arrays": "main = " + "[" * 3000 + "]" * 3000 + "\n",
    "inline tables": "hand = " + "{b = " * 2000 + "1" + "}" * 2000 + "\n",
}


@pytest.mark.parametrize("ruleset", ["kobo", "twgp"])
@pytest.mark.parametrize("kind", list(DEEP_TOML))
def test_deep_toml_is_refused_by_the_import_route(
    local: TestClient, ruleset: str, kind: str
) -> None:
    response = local.post(f"/api/decks/{ruleset}/import", json={"toml": DEEP_TOML[kind]})
    assert response.status_code == 422, response.text
    (problem,) = response.json()["detail"]["problems"]
    assert "nested too deeply" in problem


@pytest.mark.parametrize("kind", list(DEEP_TOML))
def test_deep_toml_is_refused_by_decks_validate(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "deep.toml"
    path.write_text(DEEP_TOML[kind], encoding="utf-8")
    result = CliRunner().invoke(cli_app, ["decks", "validate", str(path)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.exception is not None
    assert "nested too deeply" in result.output and "deep.toml" in result.output

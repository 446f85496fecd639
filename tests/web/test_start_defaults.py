"""The start screen as `kessen play` serves it: COM's strength starts at ふつう (Normal) in
every game, and a strength the player picks stays picked when they switch games."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kessen.server.app import DEFAULT_COM, create_app
from kessen.server.run import running


def test_the_shipped_server_offers_normal_first_in_every_game() -> None:
    client = TestClient(create_app(pace=0.0), base_url="http://127.0.0.1")
    rulesets = client.get("/api/meta").json()["rulesets"]
    assert DEFAULT_COM == "ismcts-normal"
    assert {name: r["default_com"] for name, r in rulesets.items()} == {
        "kobo": "ismcts-normal",
        "twgp": "ismcts-normal",
        "maken": "ismcts-normal",
    }


@pytest.fixture(scope="module")
def shipped() -> Iterator[str]:
    with running(pace=0.0, default_com=DEFAULT_COM) as url:
        yield url


def test_the_start_screen_starts_at_normal_and_keeps_a_pick(context: Any, shipped: str) -> None:
    page = context.new_page()
    page.goto(shipped)
    page.wait_for_selector("#start:not([hidden])")
    for game in ("kobo", "twgp", "maken"):
        page.check(f'input[name=game][value="{game}"]')
        page.wait_for_function(f"() => document.body.dataset.game === '{game}'")
        assert page.input_value("#com-level") == "ismcts-normal", game
        assert (
            page.eval_on_selector("#com-level", "s => s.selectedOptions[0].textContent") == "ふつう"
        )
    page.select_option("#com-level", "ismcts-strong")
    page.check('input[name=game][value="kobo"]')
    page.wait_for_function("() => document.body.dataset.game === 'kobo'")
    assert page.input_value("#com-level") == "ismcts-strong"

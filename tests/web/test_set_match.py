"""A match played on a designer's card set shows the set's cards: the page asks for the set's
catalogue (``/api/catalog/<ruleset>?set=REF``, the reference the view names) and draws its
names and texts, in Kōbō and in Project Maken; the shipped catalogue is left as it was."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from tests.web.driver import shorter_games

CARD_NAME = """async (slug) => {
  const board = await import('/static/games/kobo-board.js');
  return board.cardName(slug);
}"""
MAKEN_NAME = """async (id) => {
  const base = await import('/static/games/maken-base.js');
  const c = base.cdef(id);
  return c ? c.name : null;
}"""


def _derive(url: str, ruleset: str, parent: str, edit: Any) -> str:
    """A set derived from ``parent``, edited by ``edit(data)`` and saved: its reference."""
    name = f"renamed-{ruleset}"
    made = httpx2.post(
        f"{url}/api/design/sets", json={"name": name, "ruleset": ruleset, "from": parent}
    )
    assert made.status_code == 200, made.text
    data = made.json()["data"]
    edit(data)
    saved = httpx2.put(f"{url}/api/design/sets/{name}", json={"data": data})
    assert saved.status_code == 200, saved.text
    return str(saved.json()["ref"])


def test_a_kobo_match_on_a_set_names_its_cards(page: Any, store_server: str) -> None:
    def rename(data: Any) -> None:
        card = next(c for c in data["cards"] if c["slug"] == "ashigaru-recruit")
        card["name_ja"] = "古参足軽"

    ref = _derive(store_server, "kobo", "v3", rename)
    page.goto(store_server)
    page.wait_for_selector("#start:not([hidden])")
    assert page.evaluate(CARD_NAME, "ashigaru-recruit") == "見習い足軽"
    shorter_games(page, {"card_set": ref.split("@")[0]})
    page.click("#start-button")
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
    assert page.evaluate("window.kobo.view.card_set") == ref
    page.wait_for_function(
        f"async () => ({CARD_NAME})('ashigaru-recruit').then(n => n === '古参足軽')"
    )


@pytest.mark.parametrize("lang", ["ja"])
def test_a_maken_match_on_a_set_names_its_cards(page: Any, store_server: str, lang: str) -> None:
    shipped: dict[str, Any] = httpx2.get(
        f"{store_server}/api/catalog/maken", params={"lang": lang}
    ).json()
    first = sorted(shipped["cards"])[0]
    new_name = "試作の魔剣"

    def rename(data: Any) -> None:
        card = next(c for c in data["cards"] if c.get("id") == first)
        for key in ("name_ja", "name"):
            if key in card:
                card[key] = new_name

    ref = _derive(store_server, "maken", "shipped", rename)
    page.goto(store_server)
    page.wait_for_selector("#start:not([hidden])")
    page.click('#game-pick input[value="maken"]')
    page.wait_for_selector("#maken-options:not([hidden])")
    shorter_games(page, {"card_set": ref.split("@")[0]})
    page.click("#start-button")
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
    page.wait_for_function(f"async () => ({MAKEN_NAME})('{first}').then(n => n === '{new_name}')")

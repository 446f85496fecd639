"""Watching a COM-vs-COM match to its end, then browsing its history and showing everything."""

from __future__ import annotations

from typing import Any

from tests.web.driver import shot, start_match, view, wait_view


def test_watch_com_vs_com_to_the_end(page: Any) -> None:
    start_match(page, "com_vs_com", seed=7, decks=("vanguard", "tempo"))
    page.wait_for_selector("#board .battle-slot.filled", timeout=20_000)
    # A spectator is offered nothing to play.
    assert page.locator("#ops button.act").count() == 0
    page.wait_for_selector('#overlay[data-kind="match"]:not([hidden])', timeout=90_000)
    shot(page, "watch_01_match_over")
    final = view(page)
    assert final["session"]["mode"] == "com_vs_com"
    assert final["session"]["you"] is None
    assert final["match"]["over"] and max(final["match"]["wins"]) == 2
    assert final["history"]["live"]
    # The log speaks of P1/P2, not of "you", to a spectator.
    assert any("P1" in e["text"] or "P2" in e["text"] for e in final["log"])
    assert page.locator("#overlay .modal-results li").count() == len(final["match"]["results"])

    page.click("#overlay-board")
    assert page.is_hidden("#overlay")

    # すべて表示: the spectator may see every card once asked.
    assert page.is_visible("#btn-showall")
    page.click("#btn-showall")
    wait_view(page, "v.session.show_all === true")
    assert page.get_attribute("#btn-showall", "aria-pressed") == "true"
    shot(page, "watch_02_show_all")

    # History: one step back, then back to live.
    steps = final["history"]["steps"]
    page.click("#btn-undo")
    wait_view(page, "v.history.live === false")
    assert view(page)["history"]["step"] == steps - 1
    assert page.is_visible("#btn-live")
    assert "履歴" in page.inner_text("#banner")
    shot(page, "watch_03_history")
    page.click("#btn-live")
    wait_view(page, "v.history.live === true")
    assert page.is_hidden("#btn-live")

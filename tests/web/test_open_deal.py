"""An open deal at the table: a match the page dealt (a chosen seed) says so in the top bar, in
the player's language, and in the match history; one the server dealt never does."""

from __future__ import annotations

from typing import Any

from tests.web.driver import settle, start_match, view


def test_a_chosen_seed_is_marked_an_open_deal_and_a_fair_deal_is_not(page: Any) -> None:
    start_match(page, "vs_com", seed=181)
    assert view(page)["session"]["open_deal"] is True
    page.wait_for_selector("#deal-badge:not([hidden])")
    assert page.inner_text("#deal-badge") == "公開配札（練習）"
    assert "シード" in (page.get_attribute("#deal-badge", "title") or "")
    page.click('#topbar [data-lang="en"]')
    page.wait_for_function(
        "() => document.querySelector('#deal-badge .deal-long').textContent"
        " === 'open deal (practice)'"
    )
    page.click('#topbar [data-lang="ja"]')

    # Leave for a new match the server deals (no seed): no mark.
    page.click("#btn-quit")
    if page.is_visible("#btn-quit.armed"):  # a second press confirms leaving
        page.click("#btn-quit")
    page.wait_for_selector("#start:not([hidden])")
    if not page.is_visible("#seed"):
        page.click("#start .advanced summary")
    page.fill("#seed", "")
    page.click("#start-button")
    page.wait_for_function(
        "() => !!(window.kobo && window.kobo.view) && window.kobo.view.session.open_deal === false"
    )
    settle(page)  # the view is drawn
    assert page.is_hidden("#deal-badge")

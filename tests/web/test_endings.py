"""Ending a match off the board, in every game: resigning against COM (the top bar's 投了,
pressed twice) ends the match on screen at once: the result dialog in the player's words,
nothing left to answer, 一つ戻る disabled with the reason in the page's language, the game's own
top bar and operation panel saying the match is over (and showing the result again), and the
history listing the match as lost by resignation. Leaving a match against COM through 新しい対戦
marks it abandoned in the history."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kessen.server.run import running
from kessen.store.records import MatchStore
from tests.web.driver import settle


def view_after(page: Any) -> Any:
    """The last view the page drew."""
    settle(page)
    return page.evaluate("window.kobo.view")


def start(page: Any, ruleset: str) -> None:
    page.evaluate("localStorage.setItem('kobo.settings', JSON.stringify({resolvePace: 'off'}))")
    page.reload()
    page.wait_for_selector("#start:not([hidden])")
    page.check(f'input[name=game][value="{ruleset}"]')
    page.check('input[name=mode][value="vs_com"]')
    page.click("#start-button")
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
    settle(page)


@pytest.mark.parametrize("ruleset", ["kobo", "twgp", "maken"])
def test_resigning_against_com_ends_the_match_on_screen(page: Any, ruleset: str) -> None:
    start(page, ruleset)
    resign = page.locator("#btn-resign")
    if page.is_visible("#btn-menu"):
        page.click("#btn-menu")
    resign.wait_for(state="visible")
    assert resign.inner_text() == "投了"
    resign.click()
    assert resign.inner_text() == "もう一度押すと投了"
    assert page.evaluate("window.kobo.view.session.ended") is None  # one press asks only
    resign.click()
    page.wait_for_selector("#overlay:not([hidden]) .match-over")
    assert page.inner_text("#overlay .modal-title") == "あなたの負け"
    assert "あなたが投了しました" in page.inner_text("#overlay .modal-line")
    view = page.evaluate("window.kobo.view")
    assert view["session"]["ended"] == {"winner": 1, "reason": "resign", "off_board": True}
    assert view["pending"] is None
    page.click("#overlay-board")
    settle(page)
    assert page.is_hidden("#btn-resign")
    assert page.is_disabled("#btn-undo")
    title = page.get_attribute("#btn-undo", "title") or ""
    assert title and not any(c.isascii() and c.isalpha() for c in title), title
    assert page.locator("#ops button.act:not([disabled])").count() == 0
    # The table says the match is over, in the game's own top bar and operation panel.
    top = {"kobo": "#turninfo", "twgp": ".tw-banner", "maken": ".mk-banner"}[ruleset]
    assert "対戦終了 — あなたの負け" in page.inner_text(top)
    bar = page.inner_text("#turninfo")
    assert "あなたのターン" not in bar and "あなたの番" not in bar, bar
    assert "あなたが投了しました" in page.inner_text("#ops-body")
    # Nothing is "not usable now" any more, and the results panel has the ending.
    assert view_after(page)["why_not"] is None
    assert page.locator("#game .why-chip, #game [data-why]").count() == 0
    assert "あなたが投了しました" in page.inner_text("#results")
    page.click("#ops-show-ended")
    page.wait_for_selector("#overlay:not([hidden]) .match-over")
    page.click("#overlay-board")
    # A message sent anyway is refused in the page's words.
    page.evaluate("window.kobo.send({type: 'resign'})")
    toast = page.locator("#toasts .toast").last
    toast.wait_for()
    assert "この対戦はもう終わっています" in toast.inner_text()
    assert "the match is over" not in toast.inner_text()


def test_leaving_through_new_match_abandons_the_match(context: Any, tmp_path: Path) -> None:
    """新しい対戦 in a match against COM (pressed twice once the player has moved) leaves it for
    good: the history lists it as abandoned, not 「進行中」."""
    import httpx2

    with MatchStore(tmp_path / "m.sqlite3") as store, running(pace=0.0, store=store) as url:
        page = context.new_page()
        page.goto(url)
        start(page, "maken")
        page.wait_for_function("() => document.body.dataset.myTurn === '1'")
        page.locator("#ops button.act:not([disabled])").first.click()
        page.wait_for_function("() => window.kobo.game && window.kobo.game.acted")
        listed = httpx2.get(f"{url}/api/matches", params={"state": "live"}, timeout=30).json()
        [match] = [r["id"] for r in listed["matches"]]
        quit_ = page.locator("#btn-quit")
        if page.is_visible("#btn-menu"):
            page.click("#btn-menu")
        quit_.click()
        with page.expect_response(lambda r: r.url.endswith("/leave")) as left:
            quit_.click()
        page.wait_for_selector("#start:not([hidden])")
        assert left.value.json()["match"] == match and left.value.json()["abandoned"] is True
        rows = httpx2.get(f"{url}/api/matches", timeout=30).json()["matches"]
        assert [(r["id"], r["state"]) for r in rows] == [(match, "abandoned")]
        page.close()


def test_resigning_from_the_phone_menu_keeps_the_question_in_sight(
    browser: Any, server: str
) -> None:
    """On a phone 投了 is in the menu: its first press asks (the menu stays open, showing the
    question), the second resigns."""
    from tests.web.driver import SIZES

    ctx = browser.new_context(**SIZES["phone"], locale="ja-JP")
    page = ctx.new_page()
    try:
        page.goto(server)
        start(page, "kobo")
        page.tap("#btn-menu")
        page.tap("#btn-resign")
        assert page.is_visible("#btn-resign"), "the menu closed over its question"
        assert page.inner_text("#btn-resign") == "もう一度押すと投了"
        page.tap("#btn-resign")
        page.wait_for_selector("#overlay:not([hidden]) .match-over")
        assert page.inner_text("#overlay .modal-title") == "あなたの負け"
    finally:
        ctx.close()

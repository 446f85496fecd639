"""CARD INFORMATION, the display settings, the language switch, rejoining after a reload,
reconnecting after a dropped socket, and server refusals shown as toasts."""

from __future__ import annotations

from typing import Any

from tests.web.driver import Driver, play_first_options, shot, start_match, view, wait_view

SEED = 181


def when(condition: str) -> str:
    """A JavaScript test of the page's last view ``v``."""
    return f"() => {{ const v = window.kobo.view; return !!v && ({condition}); }}"


OPPONENT_HAS_CARDS = when("v.players[1].battle.some(c => c) && v.pending && v.pending.seat === 0")


def _catalog(page: Any, lang: str) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate(
        f"fetch('/api/catalog/kobo?lang={lang}').then(r => r.json())"
    )
    return data


def test_card_information_for_a_board_card_and_a_deck(page: Any) -> None:
    start_match(page, "vs_com", seed=SEED)
    driver = Driver(page)
    play_first_options(
        driver,
        when(
            "v.players[1].battle.some(c => c) && v.pending && v.pending.seat === 0"
            " && ['standby', 'place'].includes(v.pending.prompt)"
        ),
    )
    driver.wait_ready()
    # Hovering a choice lights the board element it refers to in green.
    first = page.locator("#ops button.act").first
    action = first.get_attribute("data-action")
    first.hover()
    lit = page.evaluate("Array.from(document.querySelectorAll('#game .hint'), e => e.dataset.act)")
    assert lit and all(a == action for a in lit), (action, lit)
    shot(page, "info_00_hover_hint")
    page.mouse.move(5, 400)
    assert page.locator("#game .hint").count() == 0
    state = view(page)
    slot = next(i for i, c in enumerate(state["players"][1]["battle"], 1) if c)
    card = state["players"][1]["battle"][slot - 1]
    catalog = _catalog(page, "ja")

    page.click(f'[data-zone="battle"][data-seat="1"][data-slot="{slot}"]')
    info = page.inner_text("#cardinfo-body")
    assert card["name"] in info
    assert catalog["cards"][card["slug"]]["text"].splitlines()[0] in info
    assert f"攻撃力 {card['lv']}" in info.replace("\n", " ")
    shot(page, "info_01_board_card")

    # A face-down card of the opponent says nothing about itself.
    downs = page.locator('[data-zone="strategy"][data-seat="1"].face-down')
    if downs.count():
        downs.first.click()
        assert "裏向き" in page.inner_text("#cardinfo-body")

    # The opponent's main deck: its count and its public deck list.
    page.click('[data-pile="main"][data-seat="1"]')
    info = page.inner_text("#cardinfo-body")
    assert f"残り {state['players'][1]['main_deck']}枚" in info
    for slug in state["players"][1]["deck"]["main"]:
        assert catalog["cards"][slug]["name"] in info, slug
    shot(page, "info_02_deck_list")

    # A name in the list opens that card.
    first = next(iter(state["players"][1]["deck"]["main"]))
    page.click(f'#cardinfo-body .dl-item:has-text("{catalog["cards"][first]["name"]}")')
    assert catalog["cards"][first]["text"].splitlines()[0] in page.inner_text("#cardinfo-body")

    # The tactics deck lists the tactics.
    page.click('[data-pile="tactics"][data-seat="0"]')
    info = page.inner_text("#cardinfo-body")
    for slug in state["players"][0]["deck"]["tactics"]:
        assert catalog["cards"][slug]["name"] in info, slug


def test_settings_toggles_persist_after_reload(page: Any) -> None:
    start_match(page, "vs_com", seed=SEED)
    page.wait_for_selector("#ops button.act")
    assert page.evaluate("document.body.classList.contains('motion-on')")
    page.click("#btn-settings")
    assert page.is_visible("#settings-menu")
    page.check('input[name=motion][value="off"]')
    assert page.evaluate("document.body.classList.contains('motion-off')")
    page.uncheck("#set-lane")
    assert not page.evaluate("document.body.classList.contains('lane-hl')")
    shot(page, "settings_01_menu")
    page.keyboard.press("Escape")

    page.click("#log-head")  # fold the 攻防連鎖 log
    assert page.evaluate("document.querySelector('#log-panel').classList.contains('folded')")
    assert page.is_hidden("#log")
    page.click("#hist-head")  # and the 対戦履歴
    assert page.evaluate("document.querySelector('#left').classList.contains('collapsed')")
    shot(page, "settings_02_folded")

    page.reload()
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
    assert page.evaluate("document.body.classList.contains('motion-off')")
    assert not page.evaluate("document.body.classList.contains('lane-hl')")
    assert page.evaluate("document.querySelector('#log-panel').classList.contains('folded')")
    assert page.evaluate("document.querySelector('#left').classList.contains('collapsed')")
    shot(page, "settings_03_after_reload")

    page.click("#log-head")
    assert page.is_visible("#log")


def test_reduced_motion_is_the_default_when_the_system_asks(browser: Any, server: str) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, reduced_motion="reduce")
    try:
        pg = ctx.new_page()
        pg.goto(server)
        pg.wait_for_selector("#start:not([hidden])")
        assert pg.evaluate("document.body.classList.contains('motion-reduced')")
    finally:
        ctx.close()


def test_language_switch(page: Any) -> None:
    start_match(page, "vs_com", seed=SEED)
    driver = Driver(page)
    play_first_options(driver, OPPONENT_HAS_CARDS)
    page.click('#topbar [data-lang="en"]')
    wait_view(page, "v.lang === 'en'")
    page.wait_for_function("() => document.querySelector('#btn-undo').textContent === 'Undo'")
    assert page.inner_text("#ops .panel-title") == "Actions"
    assert page.inner_text("#btn-settings") == "Display"
    english = _catalog(page, "en")
    state = view(page)
    card = next(c for c in state["players"][1]["battle"] if c)
    assert card["name"] == english["cards"][card["slug"]]["name"]
    assert card["name"] in page.inner_text("#side-top")
    assert any(e["text"].startswith(("You", "The opponent", "Turn", "Game")) for e in state["log"])
    assert "Opponent" in page.inner_text("#piles-top .side-name")
    # The operation panel speaks English too, with English card names.
    ops = page.inner_text("#ops-body")
    assert not any("\u3040" <= ch <= "\u30ff" for ch in ops), ops
    shot(page, "lang_01_english")

    page.click('#topbar [data-lang="ja"]')
    wait_view(page, "v.lang === 'ja'")
    assert page.inner_text("#btn-undo") == "一つ戻る"


def test_reload_rejoins_the_same_game(page: Any) -> None:
    start_match(page, "vs_com", seed=SEED)
    driver = Driver(page)
    for _ in range(5):
        driver.wait_ready()
        _, options = driver.check_offer()
        driver.click(options[0])
    driver.wait_ready()
    before = view(page)
    shot(page, "rejoin_01_before_reload")
    page.reload()
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
    after = view(page)
    assert after["session"]["id"] == before["session"]["id"]
    assert after["pending"]["prompt_id"] == before["pending"]["prompt_id"]
    assert after["players"][0]["hand"] == before["players"][0]["hand"]
    driver.wait_ready()
    assert driver.options() == after["pending"]["legal"]
    shot(page, "rejoin_02_after_reload")

    # A dropped socket: 再接続中… then the same game again.
    page.evaluate("window.kobo.dropConnection()")
    page.wait_for_selector("#reconnect:not([hidden])")
    assert "再接続中" in page.inner_text("#reconnect")
    shot(page, "rejoin_03_reconnecting")
    page.wait_for_selector("#reconnect", state="hidden")
    page.wait_for_function("() => window.kobo.connected")
    assert view(page)["pending"]["prompt_id"] == before["pending"]["prompt_id"]


def test_server_refusals_are_toasts(page: Any) -> None:
    start_match(page, "vs_com", seed=SEED)
    driver = Driver(page)
    driver.wait_ready()
    stale = view(page)["pending"]["prompt_id"] - 1
    page.evaluate(f"window.kobo.send({{type: 'act', prompt_id: {stale}, action: 'pass'}})")
    page.wait_for_selector(".toast.error")
    page.wait_for_timeout(300)  # let it settle in for the picture
    assert "受け付けられませんでした" in page.inner_text(".toast.error")
    shot(page, "toast_01_refused")
    page.click(".toast.error .toast-x")
    assert page.locator(".toast").count() == 0
    # The page still plays.
    _, options = driver.check_offer()
    driver.click(options[0])

"""The surprise zone (サプライズ置場) on the Kōbō page: the start screen's option and its deck,
then one match played by clicking with the option on (a fixed seed, both seats on 伏兵の計,
COM first): Set by choosing a tactics-hand card then the zone, the flip prompt
accepted (出陣の狼煙 on "you declare an attack") and its 【！】 link in the chain, the
opponent's face-down card drawn as a bare back (its name checked against the engine's truth),
a flip declined, Clear by clicking the zone, and the English texts.

The server runs in this module (its hub is reachable) so the test can read the engine's truth
of a session: what the COM's face-down card really is.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from kessen.server.app import Hub, create_app
from tests.serving import running
from tests.web.driver import (
    AXE,
    Driver,
    pending,
    press,
    serious_violations,
    settle,
    shorter_games,
    shot,
    view,
    wait_view,
)

SEED = 7
"""With this seed (both seats 伏兵の計, COM first, best of 1) the COM sets 隙を突く in turn 3,
flips it on the player's pass in turn 5, sets 殿の誓い, and attacks the player's set card."""
WANTED = ["battle-signal", "ambush-shield"]
"""The tactics the player takes into the tactics hand in the standby (the first ones offered)."""


@pytest.fixture(scope="module")
def live() -> Iterator[tuple[str, Hub]]:
    """A server whose COM moves at once, and its hub (the sessions' real states)."""
    app = create_app(pace=0.0, default_com="heuristic")  # quick, scripted COM
    hub: Hub = app.state.hub
    with running(app) as url:
        yield url, hub


def truth(hub: Hub, page: Any) -> dict[str, Any]:
    """The engine's whole state of the page's session, as "show all" would draw it."""
    session = hub.sessions[view(page)["session"]["id"]]
    everything: dict[str, Any] = session.live.view_all("ja")
    return everything


def deck_values(page: Any, side: int) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        f"#deck-{side} option", "os => os.map(o => o.value)"
    )
    return found


def zone(page: Any, seat: int) -> str:
    """The state the page draws a seat's zone in: ``empty``, ``down`` or ``up``."""
    return str(page.get_attribute(f'#game .kb-sz[data-seat="{seat}"]', "data-state"))


def test_the_start_screen_offers_the_option_and_the_deck_that_needs_it(
    page: Any, server: str
) -> None:
    page.wait_for_selector("#start:not([hidden])")
    box = page.locator("#kb-surprise")
    assert not box.is_checked()
    assert page.inner_text("#kb-surprise-label") == "サプライズ置場"
    assert "【！】" in page.inner_text("#kb-surprise-help")
    assert "ambush" not in deck_values(page, 0) + deck_values(page, 1)

    box.check()
    assert "ambush" in deck_values(page, 0) and "ambush" in deck_values(page, 1)
    page.select_option("#deck-1", "ambush")
    assert page.input_value("#deck-1") == "ambush"
    assert "【！】" in page.inner_text("#deck-style-1")
    shot(page, "surprise_07_start_option")
    page.click('#start [data-lang="en"]')
    page.wait_for_function(
        "() => document.querySelector('#kb-surprise-label').textContent === 'Surprise zone'"
    )
    assert page.input_value("#deck-1") == "ambush"  # a redraw keeps the choice
    assert page.locator("#kb-surprise").is_checked()

    box.uncheck()
    assert "ambush" not in deck_values(page, 1)
    assert page.input_value("#deck-1") == "swarm"  # falls back to the default deck

    # The server: the deck plays for either seat with the option, and is refused without it.
    for decks in (["ambush", "tempo"], ["tempo", "ambush"]):
        ok = httpx2.post(f"{server}/api/games", json={"decks": decks, "config": {"surprise": True}})
        assert ok.status_code == 200, ok.text
    refused = httpx2.post(f"{server}/api/games", json={"decks": ["ambush", "tempo"]})
    assert refused.status_code == 422 and "needs the match option surprise" in refused.text


def _choose(now: dict[str, Any], options: list[str], wanted: list[str]) -> str:
    """The standby's and the exchanges' choices of this scripted match."""
    prompt = now["prompt"]
    if prompt == "tactics":
        for slug in list(wanted):
            if f"take {slug}" in options:
                wanted.remove(slug)
                return f"take {slug}"
        return next(o for o in options if o != "take seize-the-lull")
    if prompt == "set":
        return options[-1]  # discard the traps: the chains stay short
    if prompt in ("chain", "turn"):
        return "pass"
    if prompt == "surprise":
        return "decline"
    return next((o for o in options if o != "pass"), options[0])


def _to_my_turn(driver: Driver, turn: int, wanted: list[str], board: bool = True) -> None:
    """Answer every prompt by the script until the player's turn prompt of ``turn`` (by the
    operation panel's buttons only, without ``board``: a tap on the board only reads)."""
    page = driver.page
    for _ in range(120):
        state = driver.wait_ready()
        if state == "confirm":
            driver.confirm()
            continue
        assert state == "act", state
        settle(page)
        now, options = driver.check_offer()
        if now["prompt"] == "turn" and view(page)["turn"] == turn:
            return
        driver.click(_choose(now, options, wanted), board=board)
    raise AssertionError(f"turn {turn} never came")


def _set_by_clicking(driver: Driver, slug: str, name: str | None = None) -> None:
    """Choose the tactics-hand card, then click the glowing zone (a screenshot ``name`` of
    the choice in between)."""
    page = driver.page
    assert not page.locator('#game .kb-sz-slot.selectable[data-act^="surprise-set"]').count()
    press(page, f'#side-bottom .hand-card.kb-sz-pick[data-slug="{slug}"]', False, corner=True)
    page.wait_for_selector(f'#game .kb-sz-slot.selectable[data-act="surprise-set {slug}"]')
    assert (
        page.locator("#side-bottom .hand-card.kb-sz-pick.armed").first.get_attribute("data-slug")
        == slug
    )
    driver.check_offer()
    if name:
        shot(page, name)
    driver.click(f"surprise-set {slug}")


def _in_english(page: Any, english: bool = True) -> None:
    """Switch the page's language by the top bar's button; wait for the view in it."""
    lang = "en" if english else "ja"
    page.click(f'#topbar [data-lang="{lang}"]')
    page.wait_for_function(f"() => window.kobo.view && window.kobo.view.lang === '{lang}'")
    settle(page)


def _assert_hidden(page: Any, hub: Hub, whole_page: bool) -> None:
    """The COM's face-down card is drawn as a bare back and its identity is nowhere in the
    opponent's side nor CARD INFORMATION (with ``whole_page``: nor anywhere on the page)."""
    real = truth(hub, page)["players"][1]["surprise"]
    assert real and real[-1]["face"] == "down"
    slug, name = real[-1]["slug"], real[-1]["name"]
    assert zone(page, 1) == "down"
    assert page.locator("#side-top .kb-sz-slot .card.back").count() == 1
    assert page.locator("#side-top .kb-sz-slot [data-slug]").count() == 0
    page.hover("#side-top .kb-sz-slot")
    page.wait_for_function(
        "() => document.querySelector('#cardinfo-body').textContent.includes('裏向き')"
    )
    # With the same card in the player's own hand, only the opponent's places are checked.
    parts = ("#side-top", "#log", "#lane", "#ops", "#staging") if whole_page else ("#side-top",)
    for part in (*parts, "#cardinfo"):
        html = page.inner_html(part)
        assert slug not in html and name not in html, (part, slug)
    if whole_page:
        html = page.content()
        assert slug not in html and name not in html, slug


def test_set_flip_decline_and_clear_by_clicking(context: Any, live: tuple[str, Hub]) -> None:
    url, hub = live
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.set_default_timeout(20_000)
    page.goto(url)
    page.evaluate(
        "localStorage.setItem('kobo.settings', JSON.stringify({resolvePace: 'off', motion: 'off'}))"
    )
    page.reload()
    # The script below follows one deal of seed SEED: it is pinned to the card data it was
    # written on (version 2), so a balance pass that changes numbers does not change its turns.
    shorter_games(page, {"best_of": 1, "first_player": 1, "card_data": 2})
    page.wait_for_selector("#start:not([hidden])")
    page.check("#kb-surprise")
    page.select_option("#deck-0", "ambush")
    page.select_option("#deck-1", "ambush")
    page.click("#start .advanced summary")
    page.fill("#seed", str(SEED))
    page.click("#start-button")
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
    assert truth(hub, page)["players"][0]["deck"]["name"] == "伏兵の計"
    driver = Driver(page)
    wanted = list(WANTED)

    # Turn 2: Set 出陣の狼煙 by clicking, then attack; its condition comes: flip it.
    _to_my_turn(driver, 2, wanted)
    assert zone(page, 0) == "empty" and zone(page, 1) == "empty"
    assert page.inner_text("#side-bottom .kb-sz-label") == "サプライズ"
    assert "サプライズ置場をクリック" in page.inner_text("#ops")
    _set_by_clicking(driver, "battle-signal", "surprise_00_choose_card")
    driver.wait_ready()
    now, options = driver.check_offer()
    assert now["prompt"] == "turn" and not [o for o in options if o.startswith("surprise")]
    assert zone(page, 0) == "down"
    assert page.locator('#side-bottom .kb-sz-slot .card.peek[data-slug="battle-signal"]').count()
    assert page.locator("#side-bottom .kb-sz-used").count() == 1
    page.hover("#side-bottom .kb-sz-slot")
    page.wait_for_function(
        "() => document.querySelector('#cardinfo-body').textContent.includes('出陣の狼煙')"
    )
    shot(page, "surprise_01_zone_set")

    driver.click(next(o for o in options if o.startswith("attack")))
    for _ in range(6):  # the declaration: the first attacker, then the first target
        driver.wait_ready()
        now, options = driver.check_offer()
        if now["prompt"] == "surprise":
            break
        driver.click(next((o for o in options if o != "pass"), options[0]))
    assert now["prompt"] == "surprise" and options == ["flip", "decline"]
    flip = page.inner_text("#ops .kb-sz-flip")
    assert (
        "あなたがアタックを宣言した時" in flip and "出陣の狼煙" in flip and "表にできます" in flip
    )
    labels = page.inner_text("#ops .ops-actions")
    assert "フリップ" in labels and "見送る" in labels
    shot(page, "surprise_02_flip_prompt")
    for part in ("#ops", "#board", "#lane"):  # the flip panel, both zones, the lane
        found = serious_violations(page, part)
        assert not found, "\n".join(found)
    # CARD INFORMATION of the attack's target: its "targeted" badge is legible (colour contrast).
    page.hover("#side-top .card.targeted")
    page.wait_for_selector("#cardinfo .badge.tgt")
    found = serious_violations(page, "#cardinfo")
    assert not found, "\n".join(found)
    driver.click("flip")

    driver.wait_ready()
    now, options = driver.check_offer()
    assert now["prompt"] == "chain"
    assert zone(page, 0) == "up"
    link = page.locator("#lane-chain .lane-link.kb-sz-link")
    assert link.count() == 1 and "【！】" in link.inner_text() and "出陣の狼煙" in link.inner_text()
    flip_text = next(e["text"] for e in view(page)["log"] if e["kind"] == "surprise_flip")
    assert flip_text in page.inner_text("#log")
    shot(page, "surprise_03_flipped_link")
    found = serious_violations(page, "#lane")
    assert not found, "\n".join(found)

    # Turn 4: the COM set a card in turn 3: a bare back on the page, whatever it is.
    _to_my_turn(driver, 4, wanted)
    kinds = [e["kind"] for e in view(page)["log"]]
    assert "surprise_rule" in kinds  # 9.7.1 took the flipped card away
    rule = next(e["text"] for e in view(page)["log"] if e["kind"] == "surprise_rule")
    assert "9.7.1" in rule and rule in page.inner_text("#log")
    assert zone(page, 0) == "empty"
    _assert_hidden(page, hub, whole_page=True)
    # This time from the keyboard: Enter on the card, then on the zone, which takes the focus.
    page.focus('#side-bottom .hand-card.kb-sz-pick[data-slug="ambush-shield"]')
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.matches("
        "'.kb-sz-slot.selectable[data-act=\"surprise-set ambush-shield\"]')"
    )
    before = str(page.evaluate("document.body.dataset.promptId"))
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.body.dataset.promptId !== '{before}'")
    driver.wait_ready()
    driver.check_offer()
    shot(page, "surprise_04_both_zones")
    # At phone width both zones fit, without a sideways scroll.
    page.set_viewport_size({"width": 390, "height": 844})
    settle(page)
    page.evaluate("document.querySelector('#board').scrollIntoView({block: 'start'})")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for seat in (0, 1):
        box = page.locator(f'#game .kb-sz[data-seat="{seat}"]').bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    shot(page, "surprise_05_phone")
    page.set_viewport_size({"width": 1280, "height": 720})

    # Pass; the COM attacks in turn 5: 伏兵の盾 may flip ("attacked"): decline, it stays set.
    declined = False
    for _ in range(60):
        state = driver.wait_ready()
        if state == "confirm":
            driver.confirm()
            continue
        settle(page)
        now, options = driver.check_offer()
        if now["prompt"] == "turn" and view(page)["turn"] == 6:
            break
        if now["prompt"] == "surprise" and now["context"].get("matches") and not declined:
            assert options == ["flip", "decline"]
            assert "伏兵の盾" in page.inner_text("#ops .kb-sz-flip")
            _in_english(page)
            panel = page.inner_text("#ops .kb-sz-flip")
            assert "Surprise: flip it face up?" in panel and "may be flipped" in panel, panel
            labels = page.inner_text("#ops .ops-actions")
            assert "Flip (face up)" in labels and "Decline" in labels
            shot(page, "surprise_06_flip_prompt_en")
            _in_english(page, False)
            driver.click("decline")
            declined = True
            continue
        if now["prompt"] == "surprise":
            assert options == ["decline"]
            assert "条件ではありません" in page.inner_text("#ops .kb-sz-flip")
        driver.click(_choose(now, options, wanted))
    assert declined
    assert [e for e in view(page)["log"] if e["kind"] == "surprise_decline"]

    # Turn 6: Clear by clicking the zone; the COM's new card is still a back.
    assert zone(page, 0) == "down"
    _assert_hidden(page, hub, whole_page=False)
    now, options = driver.check_offer()
    assert "surprise-clear" in options and "サプライズ置場" in page.inner_text("#ops")
    assert page.get_attribute("#side-bottom .kb-sz-slot", "data-act") == "surprise-clear"
    driver.click("surprise-clear")
    wait_view(page, "v.players[0].surprise.length === 0")
    assert zone(page, 0) == "empty"
    assert view(page)["players"][0]["retreat"][-1]["slug"] == "ambush-shield"
    driver.check_offer()

    # English: the zone and the marker.
    _in_english(page)
    assert page.inner_text("#side-bottom .kb-sz-label") == "Surprise"
    assert (
        page.get_attribute("#side-bottom .kb-sz-used", "title") == "Set or Clear was done this turn"
    )
    assert pending(page) is not None
    assert not errors, errors

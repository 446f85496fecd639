"""TWGP's builds in the deck builder, in the browser: place the pool's cards by clicking, watch the
server's problems (the config's own build rule) come and go, save, export, then start a game
against COM with the saved build in both seats and find exactly that build in play; a saved
build with problems, or one made for the other jokers setting, cannot be chosen. On a phone the
screen is one column, never wider."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import httpx2

from tests.web.driver import (
    AXE,
    SIZES,
    collect_errors,
    layout_faults,
    save_shot,
    serious_violations,
)

SEED = 7
VITALS = ["s10", "c10", "sk"]
ASIDE = ["s9", "c9", "s8"]
HAND = ["sa", "c2", "s3"]


def open_builder(browser: Any, url: str, **options: Any) -> tuple[Any, Any, list[str]]:
    """A fresh context on ``url`` with TWGP picked and its deck builder open; JavaScript errors
    are collected."""
    ctx = browser.new_context(locale="ja-JP", accept_downloads=True, **options)
    ctx.add_init_script(path=str(AXE))
    page = ctx.new_page()
    errors = collect_errors(page)
    page.set_default_timeout(15_000)
    page.goto(url)
    page.check('input[name=game][value="twgp"]')
    page.wait_for_selector("#twgp-options:not([hidden]) #tw-quick")
    page.click("#open-decks")
    page.wait_for_selector("#decks:not([hidden]) .twd-card")
    return ctx, page, errors


def shot(page: Any, name: str) -> None:
    """A screenshot of the whole page in the screenshots folder ($KESSEN_SHOTS)."""
    save_shot(page, f"{name}.png", full_page=True)


def status(page: Any, state: str) -> str:
    """Wait until the build's check says ``state`` (ok or bad); the status text."""
    page.wait_for_selector(f"#db-status.{state}")
    return str(page.inner_text("#db-status .db-state"))


def place(page: Any, part: str, *slugs: str) -> None:
    for slug in slugs:
        page.click(f'.twd-card[data-slug="{slug}"] .twd-to[data-to="{part}"]')


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def test_build_save_export_and_play_a_saved_build(browser: Any, store_server: str) -> None:
    wip = httpx2.post(
        f"{store_server}/api/decks/twgp",
        json={"name": "WIP", "deck": {"vitals": ["s10"], "hand": [], "aside": []}},
    ).json()
    ctx, page, errors = open_builder(browser, store_server, viewport={"width": 1280, "height": 800})

    # A new build: all 26 cards in the deck; the check speaks Japanese first.
    assert page.locator(".twd-card").count() == 26
    assert page.locator('.twd-card .twd-to.on[data-to="deck"]').count() == 26
    status(page, "bad")
    assert "ヴァイタルは3枚です（いま0枚）。" in page.inner_text("#db-problems")
    shot(page, "twgp_builder_ja")
    page.click('#decks [data-lang="en"]')
    page.wait_for_function(
        "() => document.querySelector('#db-problems').textContent.includes('expected 3 cards')"
    )
    # The frame speaks of a build, not a deck.
    assert page.inner_text("#db-edit-title") == "Your build"
    assert page.inner_text("#db-saved-title") == "Saved builds"

    # The filters: kind, base power, keyword.
    page.select_option("#twd-kind", "weapon")
    assert page.locator(".twd-card").count() == 6
    page.select_option("#twd-kind", "")
    page.select_option("#twd-base", "10")
    assert sorted(page.eval_on_selector_all(".twd-card", "es => es.map(e => e.dataset.slug)")) == [
        "c10",
        "s10",
    ]
    place(page, "vitals", "s10", "c10")
    page.select_option("#twd-base", "")
    page.fill("#twd-q", "King of Spades")
    assert page.locator(".twd-card").count() == 1
    place(page, "vitals", "sk")
    page.fill("#twd-q", "")
    place(page, "aside", *ASIDE)
    place(page, "hand", *HAND)
    assert status(page, "ok") == "Valid"
    assert page.inner_text("#db-status .db-size") == "V3 · H3 · D20 · X3"
    counts = page.eval_on_selector_all(
        ".twd-section",
        "ss => ss.map(s => [s.dataset.part, s.querySelector('.twd-section-n').textContent])",
    )
    assert counts == [["vitals", "3/3"], ["hand", "3/≤6"], ["deck", "20/20"], ["aside", "3/3"]]

    # A fourth vital: the problems show on the build, then the chip's × sends it back.
    place(page, "vitals", "s7")
    assert status(page, "bad") == "2 problems"
    problems = page.inner_text("#db-problems")
    assert "vitals: expected 3 cards (4 given)" in problems
    assert "the deck, hand included, must hold 20 cards (19)" in problems
    shot(page, "twgp_builder_problem_en")
    assert not serious_violations(page, "#decks"), serious_violations(page, "#decks")
    page.click('.twd-section[data-part="vitals"] .twd-chip[data-slug="s7"] .twd-back')
    assert status(page, "ok") == "Valid"
    assert page.locator('.twd-card[data-slug="s7"] .twd-to.on[data-to="deck"]').count() == 1

    # Save, then export: the file parses and holds exactly the stored build.
    page.fill("#db-name", "Tens")
    page.click("#db-save")
    page.wait_for_selector('#db-saved-list .db-saved-name:text-is("Tens")')
    saved = [
        d
        for d in httpx2.get(f"{store_server}/api/decks/twgp").json()["decks"]
        if d["name"] == "Tens"
    ]
    assert len(saved) == 1 and saved[0]["problems"] == []
    build = saved[0]["deck"]
    assert (build["vitals"], build["hand"], build["aside"]) == (VITALS, HAND, ASIDE)
    with page.expect_download() as info:
        page.click("#db-export")
    assert info.value.suggested_filename == "build.toml"
    exported = tomllib.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert exported == build
    shot(page, "twgp_builder_en")

    # The start screen: the saved build for either seat; the WIP one (problems) and, with the
    # jokers switch on, every build without the joker cannot be chosen.
    page.click("#db-back")
    good, bad = f"saved:{saved[0]['id']}", f"saved:{wip['id']}"
    for seat in (0, 1):
        options = page.eval_on_selector_all(
            f"#tw-build-{seat} option", "os => os.map(o => [o.value, o.disabled, o.textContent])"
        )
        assert options[0][:2] == ["", False] and options[0][2] == "Build during the game"
        assert [o[0] for o in options if o[1]] == [bad]
        assert good in [o[0] for o in options if not o[1]]
    page.select_option("#tw-build-0", good)
    page.click("#twgp-options details.tw-switches summary")
    page.check('#twgp-options input[name="jokers"]')
    assert page.eval_on_selector(f'#tw-build-0 option[value="{good}"]', "o => o.disabled")
    assert page.input_value("#tw-build-0") == ""
    page.uncheck('#twgp-options input[name="jokers"]')
    page.select_option("#tw-build-0", good)
    page.select_option("#tw-build-1", good)
    shot(page, "twgp_builder_start_en")
    # Between two people the friend's build is their secret: its select is fixed.
    page.check('input[name=mode][value="vs_human"]')
    page.wait_for_function("() => document.querySelector('#tw-build-1').disabled")
    friend = page.inner_text("#tw-build-1")
    assert friend == "Your friend builds their own (a build is their secret)"
    assert page.input_value("#tw-build-0") == good
    page.check('input[name=mode][value="vs_com"]')
    page.wait_for_function("() => !document.querySelector('#tw-build-1').disabled")
    page.select_option("#tw-build-1", good)

    # A game vs COM with the saved build in both seats: play starts at turn 1 with exactly it.
    page.click("#start details.advanced summary")
    page.fill("#seed", str(SEED))
    page.click("#start-button")
    page.wait_for_function(
        "() => !!(window.kobo && window.kobo.view && window.kobo.view.ruleset === 'twgp'"
        " && window.kobo.view.turn >= 1)"
    )
    page.wait_for_selector("#tw-board .tw-half.bottom")
    view = page.evaluate("window.kobo.view")
    mine = view["players"][0]
    assert [v["slug"] for v in mine["vitals"]] == VITALS
    assert sorted(c["slug"] for c in mine["hand"]["cards"]) == sorted(HAND)
    assert mine["aside"]["count"] == 3
    foe = view["players"][1]
    assert all("slug" not in v for v in foe["vitals"] if v.get("face") == "down")
    assert foe["hand"]["cards"] is None and foe["hand"]["count"] == len(HAND)
    shot(page, "twgp_builder_game_en")
    ctx.close()
    assert not errors, errors


def test_a_build_that_cannot_act_is_usable_with_a_warning(browser: Any, server: str) -> None:
    """The issue's hand ♠Q ♣Q ♠J ♣J ♠10 ♣10: legal, but no card of it can ever enter the grid
    first, so the builder says 使用可能（注意 1件） and why, in Japanese and in English."""
    ctx, page, errors = open_builder(browser, server, viewport={"width": 1280, "height": 800})
    place(page, "vitals", "s9", "c9", "s8")
    place(page, "aside", "c8", "s7", "c7")
    place(page, "hand", "sq", "cq", "sj", "cj", "s10")
    status(page, "ok")
    page.wait_for_selector("#db-status.has-warnings")
    assert page.inner_text("#db-status .db-state") == "使用可能（注意 1件）"
    assert "基本パワー03以下のユニット" in page.inner_text("#db-problems .db-warning")
    place(page, "hand", "c10")
    page.wait_for_function(
        "() => document.querySelector('#db-problems .db-warning')?.textContent.includes('♣10')"
    )
    page.click('#decks [data-lang="en"]')
    page.wait_for_function(
        "() => document.querySelector('#db-status .db-state').textContent === 'Valid (1 warning)'"
    )
    assert "no unit of base 03 or less" in page.inner_text("#db-problems .db-warning")
    place(page, "deck", "c10")
    place(page, "hand", "sa")  # an ace can be charge-driven: the warning goes
    status(page, "ok")
    page.wait_for_function("() => !document.querySelector('#db-problems .db-warning')")
    page.wait_for_timeout(300)
    assert page.inner_text("#db-status .db-state") == "Valid"
    assert page.locator(".db-warning, #db-status.has-warnings").count() == 0
    ctx.close()
    assert not errors, errors


def test_the_build_on_a_phone(browser: Any, store_server: str) -> None:
    ctx, page, errors = open_builder(browser, store_server, **SIZES["phone"])
    page.click('#decks [data-lang="en"]')
    page.wait_for_selector('.twd-card .twd-to:text-is("Vitals")')
    for slug in VITALS:
        page.tap(f'.twd-card[data-slug="{slug}"] .twd-to[data-to="vitals"]')
    for slug in ASIDE:
        page.tap(f'.twd-card[data-slug="{slug}"] .twd-to[data-to="aside"]')
    status(page, "ok")  # usable, but an empty hand cannot act (dead_builds.py): a warning
    page.wait_for_selector("#db-status.has-warnings")
    assert page.inner_text("#db-status .db-state") == "Valid (1 warning)"
    # Saved, the build keeps its warning in the list of saved builds too.
    page.fill("#db-name", "No starter")
    page.tap("#db-save")
    badge = '#db-saved-list .db-saved-row:has(.db-saved-name:text-is("No starter")) .db-badge'
    page.wait_for_selector(f"{badge}.ok.warn")
    assert page.inner_text(badge) == "Valid (1 warning)"
    page.check("#twd-jokers")  # the joker joins the pool (in the deck): one card too many
    assert page.locator(".twd-card").count() == 27
    assert status(page, "bad") == "2 problems"
    no_sideways_scroll(page)
    assert not serious_violations(page, "#decks"), serious_violations(page, "#decks")
    found = layout_faults(page)  # the lists' chosen words whole, nothing small or cut
    assert not any(found.values()), found
    page.evaluate("window.scrollTo(0, 0)")
    save_shot(page, "twgp_builder_phone.png")
    page.locator("#db-deck").scroll_into_view_if_needed()
    no_sideways_scroll(page)
    save_shot(page, "twgp_builder_phone_build.png")
    ctx.close()
    assert not errors, errors

"""Help in the app: the ルール / Rules screen of each ruleset and the クレジット / Credits screen.

The rules screen shows the server's rendering of the ruleset's rules document (every heading
of the API's table of contents, in the page's language), its table of contents moves to a
section, and the keyboard shortcuts are listed. Opened from the board, it starts at the game's
screen guide (Kōbō: "13. 画面の見方", TWGP: its first section) and its back button (or Escape)
returns to the game still being played. The credits name each asset set's licence with its
link and every author of the Kōbō card icons.
"""

from __future__ import annotations

from typing import Any

import httpx2

from tests.web.driver import start_match

IN_VIEW = """id => {
  const r = document.getElementById(id).getBoundingClientRect();
  return r.top >= -2 && r.top < window.innerHeight / 3;
}"""


def api(server: str, path: str) -> Any:
    return httpx2.get(f"{server}{path}", timeout=10).json()


def help_ready(page: Any, what: str) -> None:
    page.wait_for_function(
        f"() => document.body.dataset.help === '{what}' && document.body.dataset.helpReady === '1'"
    )


def test_rules_screen_from_the_start_screen(page: Any, server: str) -> None:
    page.wait_for_selector("#start:not([hidden])")
    page.click("#open-rules")
    help_ready(page, "rules:kobo")
    assert page.is_hidden("#start") and page.is_visible("#help")
    rules = api(server, "/api/rules/kobo?lang=ja")
    # Every heading of the document is on the page, with its anchor, in Japanese.
    for entry in rules["toc"]:
        assert page.inner_text(f"#help-doc #{entry['id']}").strip() == entry["title"]
    toc = page.eval_on_selector_all("#help-toc-list button", "bs => bs.map(b => b.dataset.target)")
    # The document's sections, then the game's glossary, then the keys.
    assert toc == [e["id"] for e in rules["toc"] if e["level"] > 1] + ["glossary", "keys"]
    assert page.locator("#help-doc #glossary ~ dl.gl-list dt").count() >= 8
    # The table of contents moves the document to a section.
    page.click('#help-toc-list button[data-target="sec-5"]')
    page.wait_for_function(IN_VIEW, arg="sec-5")
    # The keyboard shortcuts are listed.
    keys = page.inner_text("#help-doc .keys-list")
    for key in ("1 – 9", "Enter", "Esc", "U", "Y"):
        assert key in keys
    assert "一つ戻る" in keys
    # The other ruleset's tab, and English.
    page.click('#help-tabs [data-tab="rules:twgp"]')
    help_ready(page, "rules:twgp")
    twgp = api(server, "/api/rules/twgp?lang=ja")
    assert page.inner_text("#help-doc h1").strip() == twgp["toc"][0]["title"]
    page.click('#help [data-lang="en"]')
    page.wait_for_function(
        "t => document.querySelector('#help-doc h1')?.innerText.trim() === t",
        arg=api(server, "/api/rules/twgp?lang=en")["toc"][0]["title"],
    )
    assert page.inner_text("#help-title").startswith("Rules")
    page.keyboard.press("Escape")
    page.wait_for_selector("#start:not([hidden])")
    assert page.is_hidden("#help")


def test_credits_name_the_licence_and_every_author(page: Any, server: str) -> None:
    page.wait_for_selector("#start:not([hidden])")
    page.click("#open-credits")
    help_ready(page, "credits")
    credits = api(server, "/api/credits")
    sets = credits["rulesets"]["kobo"]
    assert sets, "the Kōbō icons have credits"
    for item in sets:
        game = '#help-doc .credit-game[data-ruleset="kobo"]'
        box = f'{game} .credit-set[data-set="{item["set"]}"]'
        licence = page.locator(f"{box} .credit-license a")
        assert licence.get_attribute("href") == item["license"]["url"]
        assert licence.inner_text() == item["license"]["title"]
        authors = {i["author"]: i["author_url"] or None for i in item["icons"]}
        shown = page.eval_on_selector_all(
            f"{box} .credit-author > :first-child",
            "es => es.map(e => [e.textContent, e.getAttribute('href')])",
        )
        assert dict(shown) == authors  # each author once, linked when a page is known
        text = page.inner_text(box)
        for icon in item["icons"]:
            assert icon["name"] in text
    # TWGP uses no outside assets, and says so.
    assert page.inner_text('#help-doc .credit-game[data-ruleset="twgp"]').strip()
    page.click("#help-back")
    page.wait_for_selector("#start:not([hidden])")


def test_the_board_opens_its_screen_guide(page: Any) -> None:
    start_match(page, "vs_com", seed=5)
    page.wait_for_function("() => document.body.dataset.myTurn === '1'")
    session = page.evaluate("window.kobo.view.session.id")
    page.click("#btn-rules")
    help_ready(page, "rules:kobo")
    # Kōbō's screen guide is section 13, focused and at the top of the screen.
    page.wait_for_function(IN_VIEW, arg="sec-13")
    assert page.evaluate("document.activeElement.id") == "sec-13"
    assert "画面の見方" in page.inner_text("#sec-13")
    page.click("#help-back")
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_function("() => document.body.dataset.myTurn === '1'")
    assert page.evaluate("window.kobo.view.session.id") == session
    assert page.evaluate("window.kobo.connected")
    # The shortcut opens it too; Escape returns to the game.
    page.locator("body").press("?")
    help_ready(page, "rules:kobo")
    page.keyboard.press("Escape")
    page.wait_for_selector("#game:not([hidden])")
    assert page.evaluate("document.activeElement.id") == "btn-rules"


def test_the_twgp_board_opens_its_first_section(page: Any, server: str) -> None:
    page.wait_for_selector("#start:not([hidden])")
    page.check('input[name=game][value="twgp"]')
    page.wait_for_selector("#twgp-options:not([hidden]) #tw-quick")
    page.check("#tw-quick")
    page.click("#start-button")
    page.wait_for_function("() => document.body.dataset.myTurn === '1'")
    page.click("#btn-rules")
    help_ready(page, "rules:twgp")
    first = next(e for e in api(server, "/api/rules/twgp?lang=ja")["toc"] if e["level"] == 2)
    page.wait_for_function(IN_VIEW, arg=first["id"])
    assert page.evaluate("document.activeElement.id") == first["id"]

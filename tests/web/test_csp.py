"""The page under the server's Content-Security-Policy: no violation anywhere it goes.

A listener for ``securitypolicyviolation`` is installed before the page's own scripts run; the
page is then taken through the start screen, a deck list, a Kōbō game against COM, the
language switch, the match history and a TWGP game. Any violation (an inline script, an inline
style attribute, a connection elsewhere) fails the test; a deliberate one shows the listener
catches them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.driver import start_match

LISTEN = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


@pytest.fixture()
def watched(context: Any, server: str) -> Iterator[tuple[Any, list[str]]]:
    """A page whose CSP violations and console errors are collected from its first script."""
    context.add_init_script(LISTEN)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda msg: console.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda err: console.append(str(err)))
    page.set_default_timeout(20_000)
    page.goto(server)
    yield page, console


def violations(page: Any) -> list[str]:
    found: list[str] = page.evaluate("window.__csp")
    return found


def test_the_ui_passes_its_content_security_policy(watched: tuple[Any, list[str]]) -> None:
    page, console = watched
    response = page.request.get(page.url)
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    page.wait_for_selector("#start:not([hidden])")
    page.click('[data-show-deck="1"]')
    page.wait_for_selector("#deck-preview:not([hidden])")
    start_match(page, seed=181)
    page.wait_for_function("() => document.body.dataset.conn === 'open'")
    page.click('#topbar [data-lang="en"]')
    page.wait_for_function("() => window.kobo.view && window.kobo.view.lang === 'en'")
    page.click('#topbar [data-lang="ja"]')
    page.click("#btn-settings")
    page.click("#btn-settings")
    page.click("#btn-quit")  # no move made yet: 新しい対戦 leaves at once
    page.wait_for_selector("#start:not([hidden])")
    page.check('input[name=game][value="twgp"]')
    page.click("#start-button")
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
    page.wait_for_selector("#tw-board .tw-row")
    page.wait_for_timeout(300)
    assert violations(page) == []
    assert not [m for m in console if "Content Security Policy" in m], console
    # The listener does catch a violation: an inline script is refused and reported.
    page.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.__ran = 1'; document.body.append(s); }"
    )
    page.wait_for_function("() => window.__csp.length > 0")
    assert page.evaluate("window.__ran") is None
    assert "script-src" in violations(page)[0]

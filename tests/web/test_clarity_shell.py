"""The aids every game shares, in the browser: axe-core finds nothing serious or critical on
each game's board while a resolution plays back (the frames, the skip, the result banner),
the result banner stays after the playback until the next decision, a glossary word explains
itself on hover and on keyboard focus, and the rules screen of each game lists its glossary."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.driver import (
    AXE,
    _place_of,
    pending,
    pick,
    press,
    prompt_id,
    serious_violations,
    settle,
    visible_options,
)

RULESETS = ("kobo", "twgp", "maken")

_STATE = """() => {
  if (document.body.dataset.playback) return 'playback';
  const o = document.querySelector('#overlay');
  if (o && !o.hidden) return 'overlay:' + (o.dataset.kind || '');
  if (document.querySelector('#ops .confirm')) return 'confirm';
  if (document.body.dataset.myTurn === '1'
      && document.querySelector('#ops button.act:not([disabled])')) return 'act';
  return false;
}"""

_MOVED = """before => document.body.dataset.promptId !== before || !!document.body.dataset.playback
  || !document.querySelector('#overlay').hidden || !!document.querySelector('#ops .confirm')"""


@pytest.fixture()
def slow_page(context: Any, server: str) -> Iterator[Any]:
    """A page with axe loaded and the slowest playback, failing on any JavaScript error."""
    context.add_init_script(path=str(AXE))
    context.add_init_script(
        "localStorage.setItem('kobo.settings', JSON.stringify({resolvePace: 'slow'}))"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.set_default_timeout(30_000)
    page.goto(server)
    yield page
    assert not errors, errors


def start(page: Any, ruleset: str, seed: int) -> None:
    page.wait_for_selector("#start:not([hidden])")
    page.check(f'input[name=game][value="{ruleset}"]')
    page.check('input[name=mode][value="vs_com"]')
    page.click("#start .advanced summary")
    page.fill("#seed", str(seed))
    page.click("#start-button")
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_axe_is_clean_during_a_resolution_and_the_banner_stays(
    slow_page: Any, ruleset: str
) -> None:
    page = slow_page
    start(page, ruleset, 7)
    checked = False
    for _ in range(300):
        state = str(page.wait_for_function(_STATE, timeout=60_000).json_value())
        if state == "playback":
            if not checked:
                found = serious_violations(page)
                assert not found, "\n".join(found)
                checked = True
            # Skip to the end: the banner of a resolution that has one stays afterwards.
            page.keyboard.press("Escape")
            page.wait_for_function("() => !document.body.dataset.playback")
            banner = page.locator("#result-banner")
            if banner.is_visible():
                found = serious_violations(page, "#result-banner")
                assert not found, "\n".join(found)
                page.wait_for_timeout(300)
                assert banner.is_visible(), "the banner left before the next decision"
                return
            continue
        if state.startswith("overlay"):
            if state == "overlay:game":
                page.click("#overlay-continue")
                continue
            break
        if state == "confirm":
            page.click("#ops .confirm-yes")
            continue
        settle(page)
        options = visible_options(page)
        now = pending(page)
        assert now is not None
        if ruleset == "twgp" and now["prompt"] == "build":
            # The secret build: the pool's cards on the board are the choices.
            options = [a for a in now["legal"] if a != "done"] or options
        choice = pick(ruleset, options)
        before = prompt_id(page)
        place = _place_of(page, ruleset, choice, now)
        if place:
            press(page, place, touch=False, corner=True)
        else:
            page.click(f'#ops button.act[data-action="{choice}"]')
        page.wait_for_function(_MOVED, arg=before)
    assert checked, f"{ruleset}: no resolution played back"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_glossary_word_explains_itself_and_the_rules_list_them(page: Any, ruleset: str) -> None:
    page.evaluate("localStorage.setItem('kobo.settings', JSON.stringify({resolvePace: 'off'}))")
    page.reload()
    start(page, ruleset, 11)
    page.wait_for_selector("#game .term[data-term]", state="attached")
    word = page.locator("#game .term[data-term][tabindex='0']:visible").first
    key = word.get_attribute("data-term")
    word.hover()
    tip = page.locator("#glossary-tip")
    tip.wait_for(state="visible")
    assert tip.get_attribute("data-term") == key and len(tip.inner_text()) > 10
    page.mouse.move(0, 0)
    tip.wait_for(state="hidden")
    word.focus()
    tip.wait_for(state="visible")
    assert word.get_attribute("aria-describedby") == "glossary-tip"
    page.click("#btn-rules")
    page.wait_for_selector("body[data-help-ready='1']")
    assert page.locator("#help-doc #glossary").count() == 1
    assert page.locator(f"#help-doc #gl-{key}").count() == 1
    assert page.locator("#help-toc-list button[data-target='glossary']").count() == 1

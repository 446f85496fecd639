"""The keyboard and the screen reader: a whole Kōbō exchange (an attack declared, its chain
answered, resolved) played from the keyboard alone, and the log read out as it grows.

No mouse, pointer or touch event reaches the page (counted from its first script). The match is
started by tabbing to 対戦開始 and pressing Enter; the choices are taken with the number keys,
with Tab and Enter on a glowing board place (which shows a visible focus ring), a pass is asked,
cancelled with Escape, asked again and confirmed with Enter, and U takes a move back. The log's
live region (``aria-live="polite"``) receives the new entries only: nothing of the first view's
log, nothing for an undo, nothing when the page is opened again on a game under way.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.driver import pending, prompt_id, settle

COUNT_POINTERS = """
window.__pointers = 0;
for (const type of ['mousedown', 'mouseup', 'pointerdown', 'touchstart']) {
  document.addEventListener(type, () => { window.__pointers += 1; }, true);
}
"""


@pytest.fixture()
def keyboard_page(context: Any, server: str) -> Iterator[Any]:
    context.add_init_script(COUNT_POINTERS)
    context.add_init_script(
        "localStorage.setItem('kobo.settings', JSON.stringify({resolvePace: 'off'}))"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.set_default_timeout(20_000)
    page.goto(server)
    yield page
    assert not errors, errors


def focused(page: Any) -> str:
    return str(page.evaluate("document.activeElement ? document.activeElement.id : ''"))


def tab_to(page: Any, selector: str, limit: int = 80) -> None:
    """Press Tab until the element has the focus."""
    for _ in range(limit):
        if page.evaluate(f"document.activeElement === document.querySelector('{selector}')"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def wait_mine(page: Any) -> str:
    """Wait until the page asks this seat something (or confirms); return which."""
    state = page.wait_for_function(
        """() => {
          if (document.querySelector('#ops .confirm')) return 'confirm';
          if (document.body.dataset.myTurn === '1'
              && document.querySelector('#ops button.act:not([disabled])')) return 'act';
          const o = document.querySelector('#overlay');
          return o && !o.hidden ? 'over' : false;
        }"""
    ).json_value()
    settle(page)
    return str(state)


def moved_on(page: Any, before: str) -> None:
    page.wait_for_function(
        f"""() => document.body.dataset.promptId !== '{before}'
            || !!document.querySelector('#ops .confirm')""",
    )


def key_for(page: Any, action: str) -> str:
    """The number key the page shows for an action's button."""
    key = page.get_attribute(f'#ops button.act[data-action="{action}"]', "data-key")
    assert key is not None, action
    return str(key)


def test_a_whole_exchange_from_the_keyboard(keyboard_page: Any) -> None:
    page = keyboard_page
    page.wait_for_selector("#start:not([hidden])")
    # The seed (a fixed deal) is typed in the advanced settings, opened from the keyboard.
    tab_to(page, "#start .advanced summary")
    page.keyboard.press("Enter")
    tab_to(page, "#seed")
    page.keyboard.type("181")
    tab_to(page, "#start-button")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
    assert wait_mine(page) == "act"
    # The log of the first view is not read out (only what comes after it).
    first_entry = page.evaluate("window.kobo.view.log[0].text")
    assert first_entry not in page.eval_on_selector_all(
        "#log-live p", "ps => ps.map(p => p.textContent)"
    )
    live = page.locator("#log-live")
    assert live.get_attribute("aria-live") == "polite"

    used_board = used_undo = asked_pass = attacked = False
    for _ in range(150):
        state = wait_mine(page)
        assert state != "over"
        if state == "confirm":
            before = prompt_id(page)
            page.keyboard.press("Enter")
            moved_on(page, before)
            continue
        now = pending(page)
        assert now is not None
        legal = now["legal"]
        before = prompt_id(page)
        if attacked and now["prompt"] == "turn" and "pass" in legal:
            # The exchange is over: this seat decides its turn again. Passing the turn asks
            # first; Escape cancels, the second ask is confirmed with Enter.
            page.keyboard.press(key_for(page, "pass"))
            page.wait_for_selector("#ops .confirm")
            page.keyboard.press("Escape")
            page.wait_for_selector("#ops .confirm", state="detached")
            assert prompt_id(page) == before
            page.keyboard.press(key_for(page, "pass"))
            page.wait_for_selector("#ops .confirm")
            page.keyboard.press("Enter")
            moved_on(page, before)
            asked_pass = True
            break
        if not used_board and page.locator("#table [data-kbf]").count():
            # Tab to a glowing board place; it shows its focus; Enter chooses it.
            page.keyboard.press("a")  # to the actions panel's first choice
            target = page.locator("#table [data-kbf]").first
            for _ in range(120):
                if page.evaluate("document.activeElement && !!document.activeElement.dataset.kbf"):
                    break
                page.keyboard.press("Tab")
            act = page.evaluate("document.activeElement.dataset.act")
            assert act in legal and target.count()
            ring = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
            assert ring != "none", "a focused board place shows no focus"
            assert page.evaluate("document.activeElement.getAttribute('role')") == "button"
            assert page.evaluate(  # read by its card, described by its action (or named)
                "document.activeElement.getAttribute('aria-description')"
                " || document.activeElement.getAttribute('aria-label')"
            )
            page.keyboard.press("Enter")
            used_board = True
            moved_on(page, before)
            continue
        if now["prompt"] == "turn" and any(a.startswith("attack") for a in legal):
            choice = next(a for a in legal if a.startswith("attack"))
            attacked = True
        elif now["prompt"] == "chain" and "pass" in legal:
            choice = "pass"
        else:
            choice = next((a for a in legal if a != "pass"), legal[0])
        page.keyboard.press(key_for(page, choice))
        moved_on(page, before)
        if not used_undo and page.evaluate("!document.querySelector('#btn-undo').disabled"):
            wait_mine(page)
            step = page.evaluate("window.kobo.view.history.step")
            heard = page.locator("#log-live p").count()
            page.keyboard.press("u")
            page.wait_for_function(f"() => window.kobo.view.history.step < {step}")
            settle(page)
            assert page.locator("#log-live p").count() == heard, "an undo was read out"
            used_undo = True
    else:
        raise AssertionError("the exchange never ended")

    assert attacked and asked_pass and used_board and used_undo
    assert page.evaluate("window.__pointers") == 0, "a pointer event reached the page"
    # The live region read out the new entries, as the log has them.
    # (Read both from one drawn view: COM may still be sending the next ones.)
    read = page.wait_for_function(
        """() => {
          if (document.body.dataset.rendered !== String(window.kobo.stateSeq)) return false;
          const heard = Array.from(document.querySelectorAll('#log-live p'), (p) => p.textContent);
          const texts = window.kobo.view.log.map((e) => e.text || e.kind);
          return heard.length && heard[heard.length - 1] === texts[texts.length - 1]
            ? { heard, texts } : false;
        }"""
    ).json_value()
    heard, texts = read["heard"], read["texts"]
    assert heard and all(h in texts for h in heard)
    assert heard[-1] == texts[-1]
    # Opening the page again (the game resumes) reads nothing of the log already there.
    page.reload()
    page.wait_for_function("() => !!window.kobo.view && window.kobo.view.log.length > 0")
    settle(page)
    assert page.locator("#log-live p").count() == 0

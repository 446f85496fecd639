"""The guided first match in the browser, played only by following its coach marks.

The test never reads the engine nor decides anything: at each coach mark it presses the element
the mark asks to press (``[data-coach-press]``: a choice of the operation panel, reached as a
person reaches it, or the bubble's own button), and waits for the next mark when the mark asks
for nothing (COM is answering, a chain is resolving). On the way it checks that the lessons come
in order (standby, attack, a chain of three links, a retreat, a win), that the bubble never lies
over the place it names nor over a choice of the operation panel, at phone, tablet and desktop
sizes, and that the tutorial ends with 「チュートリアル完了」 and a real match one press away.

The choices the marks pointed at are compared, once the match is over, with the path the deal
was chosen for (the coach's rules in Python, ``kessen.games.kobo.tutorial_guide``): the two
coaches agree. It also checks who is offered the tutorial (a first visit on the start screen;
the rules screen always), that skipping it is remembered, that the history names it, and that
the rules screen draws its pictures with the board's own parts in both languages.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from kessen.games.kobo.tutorial import TUTORIAL_SEED
from kessen.games.kobo.tutorial_guide import play_guided
from tests.web.driver import (
    AFTER_NEXT_FRAMES,
    AXE,
    SIZES,
    press,
    reach_choice,
    save_shot,
    serious_violations,
)

LESSONS = ["standby", "attack", "chain", "retreat", "win"]
ASKING = (
    "() => { const c = document.querySelector('#coach');"
    " return !!c && !c.hidden && !!c.dataset.press; }"
)
"""A coach mark that asks for a press is on screen."""
NO_COACH = "() => { const c = document.querySelector('#coach'); return !c || c.hidden; }"
"""No coach mark is on screen."""

_MARK = """() => {
  const c = document.querySelector('#coach');
  if (!c || c.hidden) return null;
  const text = c.querySelector('.coach-text');
  return {mark: c.dataset.mark, kind: c.dataset.kind, lesson: c.dataset.lesson,
          lessons: c.dataset.lessons ? c.dataset.lessons.split(',') : [],
          press: c.dataset.press, text: text ? text.textContent : '',
          title: c.querySelector('.coach-step') ? c.querySelector('.coach-step').textContent : ''};
}"""

# What the bubble lies over: the ringed place, the element to press, any choice in view.
_COVERED = """() => {
  const c = document.querySelector('#coach');
  const r = c.getBoundingClientRect();
  const out = [];
  const named = document.querySelectorAll('.coach-focus, [data-coach-press], #ops-body button.act');
  for (const e of named) {
    if (c.contains(e) || e.offsetParent === null) continue;
    if (getComputedStyle(e).visibility === 'hidden') continue;
    const b = e.getBoundingClientRect();
    const w = Math.min(r.right, b.right) - Math.max(r.left, b.left);
    const h = Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top);
    if (w > 1 && h > 1) out.push(e.dataset.action || e.id || e.className);
  }
  const inside = r.left >= 0 && r.top >= 0
    && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1;
  if (!inside) out.push('off screen');
  return out;
}"""


def shows(selector: str, words: str) -> str:
    """A page condition: the element's text holds ``words``."""
    element = f"document.querySelector({json.dumps(selector)})"
    return f"() => {element}.textContent.includes({json.dumps(words)})"


def mark_now(page: Any, timeout: float = 40_000) -> dict[str, Any]:
    """The coach mark on screen once it asks for a press (a mark that only says to wait is
    waited through)."""
    page.wait_for_function(ASKING, timeout=timeout)
    page.evaluate(AFTER_NEXT_FRAMES)
    found: dict[str, Any] = page.evaluate(_MARK)
    return found


def follow(page: Any, mark: dict[str, Any], touch: bool) -> None:
    """Press what the mark asks to press, as a person would; wait until the mark changes."""
    if page.locator("#ops [data-coach-press]").count():
        reach_choice(page, "#ops [data-coach-press]", touch)
    press(page, "[data-coach-press]", touch)
    page.wait_for_function(
        f"""() => {{ const c = document.querySelector('#coach');
            return !c || c.hidden || c.dataset.mark !== {json.dumps(mark["mark"])}; }}""",
        timeout=40_000,
    )


@pytest.mark.parametrize("size", ["phone", "tablet", "laptop"])
def test_the_guided_match_is_won_by_following_the_marks(
    browser: Any, server: str, size: str
) -> None:
    spec = SIZES[size]
    touch = bool(spec.get("has_touch"))
    context = browser.new_context(**spec, locale="ja-JP")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.set_default_timeout(20_000)
    try:
        page.goto(server)
        page.wait_for_selector("#tutorial-offer:not([hidden])")
        press(page, "#tutorial-start", touch)
        reached: list[str] = []
        kinds: set[str] = set()
        pressed: list[str] = []
        marks = 0
        for _ in range(120):
            mark = mark_now(page)
            for lesson in mark["lessons"]:
                if lesson not in reached:
                    reached.append(lesson)
            assert reached == LESSONS[: len(reached)], reached
            covered = page.evaluate(_COVERED)
            assert covered == [], (size, mark["mark"], covered)
            kinds.add(mark["kind"])
            if mark["mark"] in ("intro", "retreat", "done") or mark["mark"].endswith(
                ("attack 3", "play total-war")
            ):
                name = "".join(ch if ch.isalnum() else "-" for ch in mark["mark"])
                save_shot(page, f"tutorial-{size}-{name}.png")
            if mark["kind"] == "done":
                break
            if mark["kind"] == "press" and ":" in mark["mark"]:
                pressed.append(mark["mark"].split(":", 1)[1])  # "<prompt id>:<action>"
            follow(page, mark, touch)
            marks += 1
        assert mark["kind"] == "done", mark
        assert reached == LESSONS
        assert mark["title"] == "チュートリアル完了"
        assert marks >= 30 and kinds == {"info", "press", "done"}
        # The marks pointed at the very choices the deal was chosen for (bench/tutorial_deal.py,
        # with the coach's rules in Python): the browser's coach and its mirror agree.
        assert pressed == [action for _, action in play_guided(TUTORIAL_SEED).moves]
        score = page.evaluate("document.querySelector('#scoreboard .sb-score').textContent")
        assert "".join(score.split()) == "あなた1–0相手"
        # The end of the tutorial is one press from a real match (best of three, no coach).
        press(page, "#coach-real", touch)
        page.wait_for_function(shows("#scoreboard", "3本勝負"))
        page.wait_for_function(NO_COACH)
        assert page.evaluate("JSON.parse(localStorage.getItem('kobo.tutorial')).state") == "done"
    finally:
        context.close()
    assert not errors, errors


def test_the_start_screen_offers_it_to_a_first_visit_only(page: Any) -> None:
    page.wait_for_selector("#start:not([hidden])")
    page.wait_for_selector("#tutorial-offer:not([hidden])")
    assert "チュートリアルを始める" in page.inner_text("#tutorial-offer")
    page.check('input[name=game][value="twgp"]')
    assert page.is_hidden("#tutorial-offer")  # a tutorial of Kōbō, offered with Kōbō
    page.check('input[name=game][value="kobo"]')
    page.wait_for_selector("#tutorial-offer:not([hidden])")
    page.click("#tutorial-later")
    assert page.is_hidden("#tutorial-offer")
    assert page.evaluate("JSON.parse(localStorage.getItem('kobo.tutorial')).state") == "skipped"
    page.reload()
    page.wait_for_selector("#start:not([hidden])")
    page.wait_for_selector("#deck-0 option", state="attached")
    assert page.is_hidden("#tutorial-offer")
    # The rules screen always offers it.
    page.click("#open-rules")
    page.wait_for_function("() => document.body.dataset.helpReady === '1'")
    assert page.is_visible("#rules-tutorial-start")
    assert "チュートリアルを始める" in page.inner_text("#rules-tutorial")


def test_a_finished_tutorial_is_not_offered_again_but_the_rules_still_start_it(
    context: Any, server: str
) -> None:
    context.add_init_script(path=str(AXE))
    context.add_init_script(
        "localStorage.setItem('kobo.tutorial', JSON.stringify({state: 'done'}));"
    )
    page = context.new_page()
    page.goto(server)
    page.wait_for_selector("#start:not([hidden])")
    page.wait_for_selector("#deck-0 option", state="attached")
    assert page.is_hidden("#tutorial-offer")
    page.click("#open-rules")
    page.wait_for_function("() => document.body.dataset.helpReady === '1'")
    page.click("#rules-tutorial-start")
    mark = mark_now(page)
    assert mark["mark"] == "intro" and "ようこそ" in mark["text"]
    assert serious_violations(page, "#coach") == []
    follow(page, mark, False)
    assert serious_violations(page, "#coach") == []
    assert mark_now(page)["lesson"] == "standby"
    # Skipping hides the marks for good (a reload too); the match goes on.
    page.click(".coach-skip")
    page.wait_for_function("() => document.querySelector('#coach').hidden")
    page.reload()
    page.wait_for_function("() => document.body.dataset.myTurn === '1'")
    page.evaluate(AFTER_NEXT_FRAMES)
    assert page.evaluate(NO_COACH)
    assert page.evaluate("JSON.parse(localStorage.getItem('kobo.tutorial')).state") == "done"


def test_the_history_names_the_tutorial(browser: Any, store_server: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="ja-JP")
    page = context.new_page()
    try:
        page.goto(store_server)
        page.click("#tutorial-start")
        mark = mark_now(page)
        follow(page, mark, False)  # はじめる
        follow(page, mark_now(page), False)  # the first card of the standby
        page.click("#btn-history")
        page.wait_for_selector("#history:not([hidden])")
        page.wait_for_function(shows("#mh-list", "チュートリアル"))
        page.click('#history [data-lang="en"]')
        page.wait_for_function(shows("#mh-list", "Tutorial"))
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_rules_show_pictures_drawn_by_the_board(page: Any, lang: str) -> None:
    page.wait_for_selector("#start:not([hidden])")
    if lang == "en":
        page.click('#start [data-lang="en"]')
    page.click("#open-rules")
    page.wait_for_function("() => document.body.dataset.helpReady === '1'")
    words = {
        "ja": ("図1", "バトルエリア", "作戦エリア", "攻撃対象が撤退"),
        "en": ("Figure 1", "Battle area", "Strategy area", "the target retreats"),
    }[lang]
    board = page.locator("#figure-board")
    text = board.inner_text()
    assert words[0] in text and words[1] in text and words[2] in text
    # The board module's own rows and cards: two battle rows, two strategy rows, the piles.
    assert board.locator(".brow.battle").count() == 2
    assert board.locator(".brow.strategy").count() == 2
    assert board.locator(".battle-slot .card").count() == 7
    assert board.locator(".pile-grid").count() == 2
    # The chain: three links activated 1, 2, 3; resolved 3, 2, 1, each numbered.
    chain = page.locator("#figure-chain")
    lists = chain.locator("ol.rf-lane")
    assert lists.count() == 2
    activated = lists.nth(0).locator(".link-no").all_inner_texts()
    resolved = lists.nth(1).locator(".link-no").all_inner_texts()
    order = lists.nth(1).locator(".rf-order").all_inner_texts()
    assert activated == ["1", "2", "3"] and resolved == ["3", "2", "1"] and order == ["1", "2", "3"]
    assert words[3] in chain.inner_text()
    # The attack result: the numbers and who retreats, three outcomes.
    result = page.locator("#figure-result")
    assert result.locator(".rf-outcome").count() == 3
    win = result.locator('.rf-outcome[data-outcome="win"]')
    assert win.locator(".kb-num").all_inner_texts() == ["7", "6"]
    assert win.locator(".rf-card.out").count() == 1
    assert result.locator('.rf-outcome[data-outcome="lose"] .rf-card.out').count() == 2
    for figure in ("figure-board", "figure-chain", "figure-result"):
        save_shot(page.locator(f"#{figure}"), f"rules-{figure}-{lang}.png")

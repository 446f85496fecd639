"""Project Maken in the browser says what an option gives, plays each judge back step by step and
says why a card or an option cannot be chosen (issue 39).

Games against COM over several seeds, played by clicking: at each decision of the exchange the
chosen option is hovered and the preview box (``#option-preview``) read (its action, predicted
outcome and basis); when the judge's record arrives with the same basis, its outcome is the
prediction (at least 20 such decisions), and the result banner states it. While a judge plays
back, the log never shows an entry past the frame's ``logUntil``, the frame strip shows the
step, and axe-core finds nothing serious on the screen. At every decision, every disabled
option of the panel and every own card that does not glow carries a reason (``data-why``, and
a chip on the card) from the view's ``why_not``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from kessen.server.app import create_app
from kessen.server.hub import Hub
from tests.serving import running
from tests.web.conftest import VIEWPORT
from tests.web.driver import AXE, reach_choice, serious_violations, settle

GAMES = ((9, ("SO", "GA"), "fast"), (21, ("RI", "MI"), "off"), (34, ("GA", "SO"), "off"))
"""Seed, characters (you, COM) and the playback pace of each game: the first plays its judges
back (the log and banner checks), the others show the results at once."""
WANT = 20
PLAYED = 4
"""Judges the first game plays back before it moves on; the others play on until enough
predictions are compared (a count, not a clock: a loaded machine plays the same decisions)."""

# Every frame of a playback as drawn: its step, its logUntil and the log entries on screen.
RECORDER = """
window.__mk = { frames: [], late: [] };
const seen = () => {
  const box = document.querySelector('#mk-fight');
  if (!box) return;
  const until = Number(box.dataset.logUntil);
  const shown = Array.from(document.querySelectorAll('#log li.entry'),
    (e) => Number(e.dataset.index));
  const most = shown.length ? Math.max(...shown) : -1;
  const key = `${box.dataset.index}|${box.dataset.step}|${until}|${most}`;
  const last = window.__mk.frames[window.__mk.frames.length - 1];
  if (last !== key) window.__mk.frames.push(key);
  if (most >= until) window.__mk.late.push({ until, most, step: box.dataset.step });
};
const watch = () => {
  if (!document.body) { requestAnimationFrame(watch); return; }
  new MutationObserver(seen).observe(document.body, { subtree: true, childList: true,
    attributes: true, characterData: true });
};
watch();
"""

# The parts of the view the test reads at a decision.
SLIM = """() => {
  const v = window.kobo.view;
  return { pending: v.pending, situation: v.situation, turn: v.turn, previews: v.previews };
}"""

# What cannot be chosen and says nothing: disabled options, own cards that do not glow.
SILENT = """() => {
  const bad = [];
  for (const b of document.querySelectorAll('#ops-body button[disabled]')) {
    const name = b.dataset.action || b.dataset.off || b.textContent;
    if (!(b.dataset.why || '').trim()) bad.push(`button ${name}`);
  }
  const me = window.kobo.view.session.you;
  const half = document.querySelector(`#mk-board .mk-half[data-seat="${me}"]`);
  for (const el of half.querySelectorAll('[data-ref^="h:"], .mk-support [data-ref^="s:"]')) {
    if (el.classList.contains('selectable') || el.classList.contains('pickable')) continue;
    const chip = el.querySelector('.mk-why-chip');
    if (!(el.dataset.why || '').trim() || !chip) bad.push(`card ${el.dataset.ref}`);
  }
  return bad;
}"""


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, Hub]]:
    """A server whose COM moves at once."""
    app = create_app(pace=0.0, default_com="heuristic")  # quick, scripted COM
    with running(app) as url:
        yield url, app.state.hub


def _page(browser: Any, url: str, pace: str) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport={**VIEWPORT, "width": 1440, "height": 900}, locale="ja-JP")
    ctx.add_init_script(RECORDER)
    ctx.add_init_script(path=AXE)
    ctx.add_init_script(
        f"localStorage.setItem('kobo.settings', JSON.stringify({{resolvePace: '{pace}'}}))"
    )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.set_default_timeout(20_000)
    page.goto(url)
    return ctx, page, errors


def _start(page: Any, seed: int, decks: tuple[str, str]) -> None:
    page.wait_for_selector("#start:not([hidden])")
    page.check('input[name=game][value="maken"]')
    page.wait_for_selector("#maken-options:not([hidden]) #mk-deck-0")
    page.check('input[name=mode][value="vs_com"]')
    page.check(f'#mk-deck-0 input[value="{decks[0]}"]')
    page.check(f'#mk-deck-1 input[value="{decks[1]}"]')
    page.select_option("#com-level", "heuristic")  # answers at once, from the seed and prompt
    if not page.evaluate("document.querySelector('#start details.advanced').open"):
        page.click("#start details.advanced summary")
    page.fill("#seed", str(seed))
    page.click("#start-button")
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
    page.wait_for_selector("#mk-board .mk-half")


def _ready(page: Any) -> str:
    handle = page.wait_for_function(
        """() => {
          const o = document.querySelector('#overlay');
          if (o && !o.hidden) return 'over';
          if (document.body.dataset.myTurn === '1' && !document.body.dataset.playback
              && document.querySelector('#ops button.act:not([disabled])')) return 'act';
          return false;
        }""",
        timeout=30_000,
    )
    settle(page)
    return str(handle.json_value())


def _single(action: str) -> bool:
    verb, *args = action.split()
    return verb in ("fb", "attack", "gc") and "x" not in args[0]


def _pick(v: dict[str, Any]) -> str:
    """A fixed policy: bets in the exchange every third turn, else closes it at once (ジャッジ);
    guard-cancels, breaks, pays from the gauge first, declines bonus bets."""
    legal: list[str] = v["pending"]["legal"]
    prompt = v["pending"]["prompt"]
    if prompt == "mulligan":
        return "keep"
    if prompt == "draw":
        return "draw 2" if "draw 2" in legal else legal[-1]
    if prompt == "pre":
        return "end"
    if prompt == "pay":
        if "pay-rest-from-gauge" in legal:
            return "pay-rest-from-gauge"
        return next(a for a in legal if a.startswith("cancel "))
    if prompt == "bonus":
        return "decline"
    bets = [a for a in legal if _single(a)]
    if prompt == "fb":
        return bets[0] if bets else legal[0]
    sit = v["situation"]
    if sit["kind"] == "guard" and sit["guarding"] == v["pending"]["seat"]:
        return bets[0] if bets else "guard"
    if sit["kind"] == "guard":
        return "gb" if "gb" in legal else "judge"
    if bets and v["turn"] % 3 == 0:
        return bets[0]
    return "judge"


def _click(page: Any, action: str) -> None:
    before = str(page.evaluate("document.body.dataset.promptId"))
    selector = f'#ops button.act[data-action="{action}"]'
    reach_choice(page, selector, False)
    page.locator(selector).click()
    page.wait_for_function(
        f"""() => document.body.dataset.promptId !== '{before}'
            || !document.querySelector('#overlay').hidden""",
        timeout=30_000,
    )


def _hover_preview(page: Any, action: str) -> dict[str, Any] | None:
    """Hover the option; the preview box's action, prediction and basis (None: no preview)."""
    if not page.evaluate(f"!!(window.kobo.view.previews || {{}})[{json.dumps(action)}]"):
        return None
    selector = f'#ops button.act[data-action="{action}"]'
    reach_choice(page, selector, False)
    page.hover(selector)
    box = page.wait_for_selector(f'#option-preview:not([hidden])[data-action="{action}"]')
    shown = {
        "predict": json.loads(box.get_attribute("data-predict") or "null"),
        "basis": json.loads(box.get_attribute("data-basis") or "null"),
        "text": box.inner_text(),
    }
    page.mouse.move(2, 2)
    return shown


def test_previews_playback_and_reasons_in_games_against_com(
    browser: Any, served: tuple[str, Hub]
) -> None:
    url = served[0]
    compared = decisions = previewed = records = frames_seen = 0
    audited = False
    offs_seen = 0
    reasons_seen = 0
    for seed, decks, pace in GAMES:
        played = 0
        if compared >= WANT + 4:
            break
        ctx, page, errors = _page(browser, url, pace)
        try:
            _start(page, seed, decks)
            waiting: list[dict[str, Any]] = []
            done: set[str] = set()
            for _ in range(400):
                if _ready(page) == "over":
                    break
                v = page.evaluate(SLIM)
                silent = page.evaluate(SILENT)
                assert not silent, (seed, v["pending"]["prompt"], silent)
                reasons_seen += page.evaluate(
                    "document.querySelectorAll('#mk-board [data-why]').length"
                )
                offs_seen += page.evaluate(
                    "document.querySelectorAll('#ops-body button[disabled][data-why]').length"
                )
                action = _pick(v)
                shown = _hover_preview(page, action)
                if shown is not None:
                    previewed += 1
                    want = v["previews"][action]
                    assert shown["predict"] == want["predict"] and shown["basis"] == want["basis"]
                    assert want["title"] in shown["text"] and want["assumes"] in shown["text"]
                    waiting.append({"action": action, **shown})
                decisions += 1
                _click(page, action)
                if (
                    pace != "off"
                    and not audited
                    and page.evaluate("!!document.body.dataset.playback")
                ):
                    # axe-core on the board and the panel while a judge plays back.
                    page.wait_for_selector("#mk-fight")
                    found = serious_violations(page, "#game")
                    assert not found, found
                    audited = True
                record = page.evaluate("window.kobo.view.resolution")
                if record and record["key"] not in done:
                    done.add(record["key"])
                    records += 1
                    for w in [w for w in waiting if w["basis"] == record["basis"]]:
                        assert w["predict"] == record["outcome"], (seed, w, record["outcome"])
                        compared += 1
                    waiting = [w for w in waiting if w["basis"]["log_index"] > record["log_index"]]
                    if pace != "off":
                        # The result banner states the record's outcome (from the playback's
                        # result frames on).
                        page.wait_for_selector("#result-banner:not([hidden])[data-outcome]")
                        banner = json.loads(page.get_attribute("#result-banner", "data-outcome"))
                        assert banner == record["outcome"], (banner, record["outcome"])
                        played += 1
                if pace != "off" and played >= PLAYED:
                    break
                if compared >= WANT + 4:
                    break
            late = page.evaluate("window.__mk.late")
            assert not late, f"the log ran ahead of the playback: {late[:5]}"
            frames_seen += len(page.evaluate("window.__mk.frames"))
            assert not errors, errors
        finally:
            ctx.close()
    print(
        f"compared {compared} of {previewed} previews over {decisions} decisions, {records} judges"
    )
    assert compared >= WANT, (compared, previewed, decisions, records)
    assert frames_seen >= 10, frames_seen
    assert reasons_seen > 50 and offs_seen > 5, (reasons_seen, offs_seen)
    assert audited, "no playback was audited"

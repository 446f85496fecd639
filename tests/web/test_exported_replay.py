"""The exported replay (``kessen store html``) in Chromium, opened from a ``file://`` address
with the network blocked: the app's own replay viewer draws a Kōbō, a TWGP and a Maken record
at three steps from each perspective, without a script error or a Content-Security-Policy
violation and without a single request; each seat's perspective holds exactly the engine's
view of that seat and shows none of the other seat's hidden cards; the printed seed is the
stored one, digit for digit.

The records are COM-vs-COM matches recorded through the store API (tests/store/exported.py),
with seeds beyond 2**53.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kessen.cli import app
from kessen.engine import registry
from kessen.engine.contract import GameState, Json
from kessen.server.run import running
from kessen.store import MatchStore
from tests.maken.records import unseen_names
from tests.store.exported import RULESETS, SEEDS, record_com_match
from tests.test_leak_oracle import Tally, check_message
from tests.web.driver import save_shot, settle

BOARDS = {"kobo": "#board", "twgp": "#tw-board", "maken": "#mk-board"}
"""Where each game draws its board (index.html)."""
LISTEN = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""

SHOWN_TEXT = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('script, style, #log-live') || !el.checkVisibility()) continue;
    out.push(n.textContent);
  }
  for (const el of document.querySelectorAll('[title], [aria-label]')) {
    if (el.checkVisibility()) out.push(el.title || '', el.getAttribute('aria-label') || '');
  }
  return out.join('\\n');
}"""
"""The text the page shows (its tooltips and labels too). Not the log's live region
(#log-live): it keeps the last announcements read out, of the perspective they were read
in (shell/log.js), for a screen reader that has already read them."""


@dataclass
class Export:
    """An exported page of one record, and the record's states and store."""

    ruleset: str
    match_id: int
    path: Path
    seed: int
    states: list[GameState]
    db: Path


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Export]:
    folder = tmp_path_factory.mktemp("exported")
    db = folder / "store.sqlite3"
    out: dict[str, Export] = {}
    with MatchStore(db) as store:
        for ruleset in RULESETS:
            match_id = record_com_match(store, ruleset)
            target = folder / f"{ruleset}.html"
            result = CliRunner().invoke(
                app, ["store", "html", str(match_id), "--db", str(db), "-o", str(target)]
            )
            assert result.exit_code == 0, result.output
            states = list(store.load_replay(match_id).states())
            seed = store.info(match_id).seed
            out[ruleset] = Export(ruleset, match_id, target, seed, states, db)
    return out


@dataclass
class Opened:
    page: Any
    errors: list[str]
    requests: list[str]


@pytest.fixture()
def opened(browser: Any) -> Iterator[Any]:
    """Open an exported page from disk, every request but the file's own refused."""
    contexts: list[Any] = []

    def open_(export: Export, viewport: dict[str, int] | None = None) -> Opened:
        ctx = browser.new_context(
            viewport=viewport or {"width": 1280, "height": 720}, locale="ja-JP"
        )
        contexts.append(ctx)
        ctx.add_init_script(LISTEN)
        requests: list[str] = []
        file_url = export.path.as_uri()

        def route(r: Any) -> None:
            if r.request.url.split("#")[0] == file_url:
                r.continue_()
            else:
                requests.append(r.request.url)
                r.abort()

        ctx.route("**/*", route)
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.goto(file_url)
        wait_step(page, 0)
        return Opened(page, errors, requests)

    yield open_
    for ctx in contexts:
        ctx.close()


def wait_step(page: Any, step: int) -> None:
    """Wait until the viewer shows ``step``, drawn."""
    page.wait_for_function(
        "n => window.kobo && window.kobo.replay && window.kobo.replay.step === n"
        " && window.kobo.view && window.kobo.view.history.step === n",
        arg=step,
    )
    settle(page)


def seek(page: Any, step: int) -> None:
    page.eval_on_selector(
        "#rp-seek", "(e, n) => { e.value = String(n); e.dispatchEvent(new Event('input')); }", step
    )
    wait_step(page, step)


def engine_view(page: Any) -> Json:
    """The view on the page as the engine made it: without what the viewer adds (session,
    history, COM's reasons) and without the log texts."""
    view: Json = json.loads(page.evaluate("JSON.stringify(window.kobo.view)"))
    for key in ("session", "history", "com_why"):
        view.pop(key, None)
    view["log"] = [{k: v for k, v in e.items() if k != "text"} for e in view["log"]]
    return view


def no_hidden_card_shown(export: Export, state: GameState, seat: int, shown: Json) -> int:
    """Check that ``shown`` (the page's text, or its view) names none of the cards ``state``
    hides from ``seat`` (the leak oracle's check: tests/test_leak_oracle.py; Maken's unseen
    names: tests/maken/records.py); how many hidden cards were checked."""
    where = f"{export.ruleset} seat {seat}"
    if export.ruleset == "maken":
        # What the engine told this seat in its log's texts is known to it (a card bet
        # face up, then back in the hand).
        describe = registry.get("maken").describe
        told = " ".join(describe(e, "ja", seat) for e in state.view(seat, "ja")["log"])
        names = {name for name in unseen_names(state, seat, "ja") if name not in told}
        text = json.dumps(shown, ensure_ascii=False)
        found = [name for name in names if name in text]
        assert not found, (where, found)
        return len(names)
    tally = Tally()
    check_message(shown, state, seat, tally, where)
    assert tally.leaks == [], tally.leaks
    return tally.hidden_checked


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_exported_page_draws_every_perspective_without_leaks(
    opened: Any, exports: dict[str, Export], ruleset: str
) -> None:
    export = exports[ruleset]
    shown = opened(export)
    page = shown.page
    last = len(export.states) - 1
    assert page.evaluate("window.kobo.replay")["seats"] == ["0", "1", "all"]
    assert page.inner_text("#rp-seed").split()[-1] == str(export.seed) == str(SEEDS[ruleset])
    checked = 0
    for seat in ("0", "1", "all"):
        page.click(f'#rp-seat .chip[data-value="{seat}"]')
        page.wait_for_function("s => window.kobo.replay.seat === s", arg=seat)
        for step in (1, last // 2, last):
            seek(page, step)
            board = page.locator(BOARDS[ruleset])
            assert board.is_visible(), (seat, step)
            assert len(board.inner_text().strip()) > 20, (seat, step)
            state = export.states[step]
            view = engine_view(page)
            truth = state.view_all("ja") if seat == "all" else state.view(int(seat), "ja")
            assert view == json.loads(json.dumps(truth)), (seat, step)
            if seat != "all":
                text = {"page": page.evaluate(SHOWN_TEXT)}
                checked += no_hidden_card_shown(export, state, int(seat), text)
                checked += no_hidden_card_shown(export, state, int(seat), view)
    assert checked >= 10, checked  # hidden cards kept out, over the two seats and steps
    assert page.evaluate("window.__csp") == []
    assert shown.errors == [], shown.errors
    assert shown.requests == [], shown.requests


def test_the_viewer_s_controls_work_from_disk(opened: Any, exports: dict[str, Export]) -> None:
    export = exports["kobo"]
    shown = opened(export, {"width": 1440, "height": 900})
    page = shown.page
    # Names, never slugs or action codes: the decks and the moves by their names.
    seek(page, 3)
    move = page.inner_text("#rp-move")
    assert "fortress" not in page.inner_text("#ops-body") and "pick " not in move
    # Play at 4×, pause; the speed is the viewer's choice.
    page.click('#rp-speed .chip[data-value="4"]')
    page.click("#rp-play")
    page.wait_for_function("() => window.kobo.replay.step >= 6")
    page.click("#rp-play")
    assert page.evaluate("window.kobo.replay")["speed"] == 4
    # English, from the file's own answers.
    page.click('#topbar [data-lang="en"]')
    page.wait_for_function("() => window.kobo.view && window.kobo.view.lang === 'en'")
    settle(page)
    assert page.inner_text("#rp-seed") == f"Seed {export.seed}"
    # The rules, from the file; back to the board. Escape stays on the one match.
    page.click("#btn-rules")
    page.wait_for_function("() => document.body.dataset.helpReady === '1'")
    page.click("#help-back")
    page.wait_for_function("() => document.body.dataset.screen === 'game'")
    page.keyboard.press("Escape")
    page.wait_for_timeout(200)
    assert page.evaluate("document.body.dataset.screen") == "game"
    # Nothing that needs a server is offered.
    for hidden in ("#btn-quit", "#btn-history", "#rp-continue"):
        assert not page.locator(hidden).is_visible(), hidden
    page.click('#topbar [data-lang="ja"]')
    page.wait_for_function("() => window.kobo.view && window.kobo.view.lang === 'ja'")
    seek(page, len(export.states) // 2)
    save_shot(page, "export-kobo.png")
    assert page.evaluate("window.__csp") == []
    assert shown.errors == [], shown.errors
    assert shown.requests == [], shown.requests


def test_the_app_s_own_viewer_prints_the_stored_seed(
    context: Any, exports: dict[str, Export]
) -> None:
    export = exports["kobo"]
    with MatchStore(export.db) as store, running(pace=0.0, store=store) as url:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(f"{url}/#/matches/{export.match_id}")
        wait_step(page, 0)
        assert page.inner_text("#rp-seed") == f"シード {export.seed}"
        assert errors == []

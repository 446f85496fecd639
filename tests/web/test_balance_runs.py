"""Balance runs in the browser (デザイン → バランス検証): a run started from the form shows a live
progress bar, then its results (the matchup heat map with intervals, the first player's rate,
the game lengths, the cards, every game linked to a replay that opens); the page comes back to
it after a reload. An A/B run of a designed set against its parent, from an address that fills
the form in, shows every figure side by side with the difference and its verdict, on a phone,
in Japanese then English. A run is cancelled and resumed from its page. The screens fit a
phone, a tablet and a desktop (screenshots kept in the shots folder)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from kessen.engine import card_sets
from kessen.server.run import running
from kessen.store import MatchStore
from tests.web.driver import (
    AXE,
    SIZES,
    collect_errors,
    layout_faults,
    save_shot,
    serious_violations,
)

SET = "swarm-fix"
DONE = ".rn-detail .rn-state[data-state='done']"
PROGRESSING = """() => {
  const bar = document.querySelector('.rn-detail .rn-bar');
  return !!document.querySelector('.rn-detail .rn-state[data-state=running]') && !!bar
    && bar.getAttribute('aria-valuenow') !== '0';
}"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, MatchStore]]:
    """A server with a store of its own holding a set derived from Kōbō v3, one card's Lv and
    one effect amount changed (what the card editor saves)."""
    folder = tmp_path_factory.mktemp("balance")
    patch = pytest.MonkeyPatch()
    patch.setenv(card_sets.CACHE_ENV, str(folder / "set-cache"))
    with MatchStore(folder / "store.sqlite3") as store, running(pace=0.0, store=store) as url:
        made = httpx2.post(f"{url}/api/design/sets", json={"name": SET, "from": "v3"})
        assert made.status_code == 200, made.text
        data = httpx2.get(f"{url}/api/design/sets/{SET}").json()["data"]
        for card in data["cards"]:
            if card["slug"] == "ashigaru-recruit":
                card["lv"] = 6
            if card["slug"] == "rally-banner":
                card["steps"][0]["amount"] = 2
        saved = httpx2.put(f"{url}/api/design/sets/{SET}", json={"data": data, "note": "swarm"})
        assert saved.status_code == 200, saved.text
        yield url, store
    patch.undo()


def open_page(browser: Any, url: str, size: str = "desktop") -> tuple[Any, Any, list[str]]:
    """A fresh context of ``size`` (phone, tablet, desktop) on ``url``."""
    options = SIZES.get(size, {"viewport": {"width": 1440, "height": 900}})
    ctx = browser.new_context(locale="ja-JP", **options)
    ctx.add_init_script(path=str(AXE))  # axe-core, for the accessibility checks
    page = ctx.new_page()
    errors = collect_errors(page)
    page.set_default_timeout(20_000)
    page.goto(url)
    return ctx, page, errors


def only_decks(page: Any, keep: set[str]) -> None:
    """Leave only the decks ``keep`` checked in the form."""
    page.wait_for_selector("#rf-decks input")
    for box in page.locator("#rf-decks input").all():
        if (box.get_attribute("value") in keep) != box.is_checked():
            box.click()


def run_id(page: Any) -> int:
    """The id of the run the page shows (its address)."""
    page.wait_for_function("() => /#\\/design\\/runs\\/\\d+$/.test(location.hash)")
    found = re.search(r"runs/(\d+)$", page.evaluate("location.hash"))
    assert found is not None
    return int(found.group(1))


def finished_ab(url: str) -> int:
    """A finished A/B run of the set against its parent (started here if there is none)."""
    listed = httpx2.get(f"{url}/api/balance/runs").json()["runs"]
    for found in listed:
        if found["kind"] == "ab" and found["state"] == "done":
            return int(found["id"])
    body = {"ruleset": "kobo", "sides": ["v3", SET], "decks": ["fortress", "swarm"]}
    started = httpx2.post(
        f"{url}/api/balance/runs", json={**body, "players": ["heuristic"], "games": 3}
    )
    number = int(started.json()["id"])
    deadline = time.monotonic() + 60
    while httpx2.get(f"{url}/api/balance/runs/{number}").json()["state"] != "done":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    return number


def no_faults(page: Any) -> None:
    """Nothing a person would find wrong on the design screen: layout faults, no sideways
    scroll, no serious accessibility violation."""
    found = layout_faults(page)
    assert not any(found.values()), found
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width
    assert serious_violations(page, "#design") == []


def test_a_run_shows_its_progress_then_its_results_and_replays(
    browser: Any, served: tuple[str, MatchStore]
) -> None:
    url, store = served
    ctx, page, errors = open_page(browser, url)
    page.click("#open-design")
    page.wait_for_selector("#rf-start")
    assert page.locator("#rf-game").input_value() == "kobo"
    only_decks(page, {"fortress", "swarm"})
    page.fill("#rf-games", "3")
    assert "合計 3戦（1組 × 3戦）" in page.inner_text("#rf-total")
    no_faults(page)
    page.click("#rf-start")
    bar = page.locator(".rn-detail .rn-bar[role=progressbar]")
    bar.wait_for()
    assert bar.get_attribute("aria-valuemax") == "3"
    page.wait_for_selector(DONE, timeout=60_000)
    assert bar.get_attribute("aria-valuenow") == "3"
    page.wait_for_selector("#rn-results[data-kind=single] .rs-matrix")
    cell = page.inner_text(".rs-cell[data-row='0'][data-col='1']")
    assert re.search(r"\d+\.\d%", cell) and "n=3" in cell and "[" in cell  # rate, interval, n
    assert "%" in page.inner_text("#rs-first")
    assert page.locator(".rs-hist rect.rs-bar").count() >= 1
    assert page.locator("#rs-cards tbody tr").count() >= 5
    assert page.locator("#rs-cards tbody tr").first.locator("th").inner_text() != ""
    links = page.locator(".rs-games a.rs-replay")
    assert links.count() == 3
    no_faults(page)

    # A reload comes back to the run, its results drawn again.
    number = run_id(page)
    page.reload()
    page.wait_for_selector("#rn-results[data-kind=single] .rs-matrix")
    assert page.inner_text(".rn-detail .rn-run-title").startswith("run-")

    # Each game's replay opens (in a page of its own) and its record replays exactly.
    href = links.first.get_attribute("href")
    match = int(str(href).rsplit("/", 1)[1])
    replay = ctx.new_page()
    replay.goto(f"{url}{href}")
    replay.wait_for_function(f"() => window.kobo.replay && window.kobo.replay.id === {match}")
    replay.close()
    ids = [int(str(a.get_attribute("data-match"))) for a in links.all()]
    assert all(store.check(i) is None for i in ids)
    assert number >= 1
    assert not errors, errors
    ctx.close()


def test_an_ab_run_of_a_set_against_its_parent_on_a_phone(
    browser: Any, served: tuple[str, MatchStore]
) -> None:
    url, store = served
    ctx, page, errors = open_page(
        browser, f"{url}/#/design/runs/new?ruleset=kobo&a=v3&b={SET}", "phone"
    )
    page.wait_for_selector("#rf-b")
    assert page.locator("input[name=rf-mode][value=ab]").is_checked()
    assert page.locator("#rf-a").input_value() == "v3"
    assert page.locator("#rf-b").input_value() == SET
    only_decks(page, {"fortress", "swarm"})
    page.fill("#rf-games", "3")
    assert "× A/B" in page.inner_text("#rf-total")
    page.locator("#rf-start").tap()
    page.locator(".rn-detail .rn-bar[role=progressbar]").wait_for()
    page.wait_for_selector(DONE, timeout=60_000)
    page.wait_for_selector("#rn-results[data-kind=ab] #ab-significant")
    assert page.locator(".rs-matrices .rs-matrix-box").count() == 3  # A, B and B − A
    head = page.inner_text("#ab-head")
    assert "A = v3" in head and f"B = {SET}" in head
    rows = page.locator("#ab-figures tbody tr")
    assert rows.count() == 5  # first player, draws, length, two decks
    for verdict in page.locator("#ab-figures .rs-verdict").all_inner_texts():
        assert verdict in ("★有意", "有意でない")
    first = page.locator("#ab-figures tbody tr").first
    assert first.locator("th").inner_text() == "先攻の勝率"
    assert re.search(r"[+−±]\d+\.\dpt", first.locator(".rs-diff").inner_text())
    assert page.locator(".rs-games a.rs-replay").count() == 6  # both halves of 3 games
    no_faults(page)
    page.locator("#design .lang-switch [data-lang=en]").tap()
    page.wait_for_selector("#rn-results[data-kind=ab][data-lang=en]")
    assert page.inner_text("#ab-significant h3") == "Changed significantly"
    assert page.inner_text("#ab-figures tbody tr >> nth=0 >> th") == "First player wins"
    page.wait_for_function(
        "() => document.querySelector('#ab-matrix').textContent.includes('Iron Fortress')"
    )
    no_faults(page)
    runs = [r for r in store.sim_runs() if r["name"].endswith(("-a", "-b"))]
    assert {r["spec"].get("card_set", "").split("@")[0] for r in runs} == {"", SET}
    assert not errors, errors
    ctx.close()


def test_a_run_is_cancelled_and_resumed_from_its_page(
    browser: Any, served: tuple[str, MatchStore]
) -> None:
    url, _store = served
    ctx, page, errors = open_page(browser, f"{url}/#/design/runs/new?ruleset=kobo")
    only_decks(page, {"fortress", "swarm"})
    page.fill("#rf-games", "5000")
    page.fill("#rf-name", "to-cancel")
    page.click("#rf-start")
    page.wait_for_selector(".rn-detail .rn-state[data-state=running]", timeout=30_000)
    page.click(".rn-detail .rn-cancel")
    page.wait_for_selector(".rn-detail .rn-state[data-state=stopped]")
    assert page.inner_text(".rn-detail .rn-state") == "中止しました"
    page.click(".rn-detail .rn-resume")
    page.wait_for_selector(".rn-detail .rn-state[data-state=running]", timeout=30_000)
    page.click(".rn-detail .rn-cancel")
    page.wait_for_selector(".rn-detail .rn-state[data-state=stopped]")
    page.click("#rn-back")
    card = page.locator(".rn-run:has(.rn-run-title:text-is('to-cancel'))")
    card.wait_for()
    assert card.get_attribute("data-state") == "stopped"
    assert card.locator(".rn-resume").is_visible()
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("size", ["phone", "tablet", "desktop"])
def test_the_screens_fit_phone_tablet_and_desktop(
    browser: Any, served: tuple[str, MatchStore], size: str
) -> None:
    url, _store = served
    ab = finished_ab(url)
    ctx, page, errors = open_page(browser, f"{url}/#/design/runs", size)
    page.wait_for_selector("#rf-start")
    page.wait_for_selector("#rn-runs .rn-run")
    no_faults(page)
    save_shot(page, f"balance-form-{size}.png")
    body = {"ruleset": "kobo", "sides": ["v3", SET], "decks": ["fortress", "swarm", "tempo"]}
    started = httpx2.post(
        f"{url}/api/balance/runs", json={**body, "players": ["heuristic"], "games": 100}
    ).json()
    page.goto(f"{url}/#/design/runs/{started['id']}")
    page.reload()
    page.wait_for_function(PROGRESSING, timeout=60_000)
    time.sleep(0.3)
    no_faults(page)
    save_shot(page, f"balance-progress-{size}.png")
    httpx2.post(f"{url}/api/balance/runs/{started['id']}/cancel")
    page.goto(f"{url}/#/design/runs/{ab}")
    page.reload()
    page.wait_for_selector("#rn-results[data-kind=ab] #ab-figures")
    no_faults(page)
    save_shot(page, f"balance-ab-{size}.png")
    assert not errors, errors
    ctx.close()

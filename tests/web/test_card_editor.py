"""The card editor in the browser (デザイン → カードエディタ): a set derived from Kōbō's card data
3, one card's Lv and one effect amount changed through the form, the card's face and its
generated Japanese text following as one types, saved with its changelog, then a 40-game A/B
run against the parent started from the editor's pre-filled run form, its progress bar seen,
the difference read on the result page, and every record of the run replayed from the store.
A bad value gets its message on its own field (in Japanese, then English) and nothing is
saved; the draft survives a reload. Project Maken's cards go through the same form. The
editor, a run in progress and an A/B result fit a phone, a tablet and a desktop (screenshots
kept in the shots folder)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
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
    view,
)

SET = "kobo-e2e"
SPARE = "kobo-spare"
DONE = ".rn-detail .rn-state[data-state='done']"
PROGRESSING = """() => {
  const bar = document.querySelector('.rn-detail .rn-bar');
  return !!document.querySelector('.rn-detail .rn-state[data-state=running]') && !!bar
    && bar.getAttribute('aria-valuenow') !== '0';
}"""

WATCH_PROGRESS = """() => {
  window.progressSeen = [];
  const note = () => {
    const bar = document.querySelector('.rn-detail .rn-bar[role=progressbar]');
    const state = document.querySelector('.rn-detail .rn-state');
    if (bar && state && bar.checkVisibility()) {
      window.progressSeen.push([state.dataset.state, bar.getAttribute('aria-valuenow')]);
    }
  };
  const all = { subtree: true, childList: true, attributes: true };
  new MutationObserver(note).observe(document.body, all);
}"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, MatchStore]]:
    """A server with a store of its own, holding one set (SPARE) derived from Kōbō v3."""
    folder = tmp_path_factory.mktemp("editor")
    patch = pytest.MonkeyPatch()
    patch.setenv(card_sets.CACHE_ENV, str(folder / "set-cache"))
    with MatchStore(folder / "store.sqlite3") as store, running(pace=0.0, store=store) as url:
        made = httpx2.post(f"{url}/api/design/sets", json={"name": SPARE, "from": "v3"})
        assert made.status_code == 200, made.text
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


def no_faults(page: Any) -> None:
    """Nothing a person would find wrong: layout faults, sideways scroll, serious
    accessibility violations."""
    found = layout_faults(page)
    assert not any(found.values()), found
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width
    assert serious_violations(page, "#design") == []


def pick(page: Any, query: str, key: str) -> int:
    """Find a card by the list's search and open it; its index in the set."""
    page.fill("#ed-search", query)
    item = page.locator(f".ed-pick[data-key='{key}']")
    item.click()
    page.wait_for_function(
        f"() => location.hash.endsWith('/card/{key}') && !!document.querySelector('#ed-card-form')"
    )
    return int(str(item.get_attribute("data-index")))


def control(page: Any, path: str) -> Any:
    """The input or select of the field at ``path`` (``cards[3].lv``)."""
    box = f".ed-field[data-path='{path}']"
    return page.locator(f"{box} > input, {box} > select").first


def text_has(page: Any, lang: str, words: str) -> None:
    """Wait until the generated text in ``lang`` holds ``words``."""
    page.wait_for_function(
        "([lang, words]) => (document.querySelector(`#ed-text-${lang}`) || {}).textContent"
        "?.includes(words)",
        arg=[lang, words],
    )


def only(page: Any, group: str, keep: set[str]) -> None:
    """Leave only the check boxes ``keep`` of the run form's group checked."""
    page.wait_for_selector(f"{group} input")
    for box in page.locator(f"{group} input").all():
        if (box.get_attribute("value") in keep) != box.is_checked():
            box.click()


def run_id(page: Any) -> int:
    """The id of the run the page shows (its address)."""
    page.wait_for_function("() => /#\\/design\\/runs\\/\\d+$/.test(location.hash)")
    found = re.search(r"runs/(\d+)$", page.evaluate("location.hash"))
    assert found is not None
    return int(found.group(1))


def test_derive_edit_save_and_ab_against_the_parent(
    browser: Any, served: tuple[str, MatchStore]
) -> None:
    url, store = served
    ctx, page, errors = open_page(browser, f"{url}/#/design/editor")
    page.wait_for_selector("#ed-derive-name")
    assert page.locator("#ed-derive-game").input_value() == "kobo"
    page.select_option("#ed-derive-from", "v3")
    page.fill("#ed-derive-name", SET)
    page.click("#ed-derive-go")
    page.wait_for_selector("#ed-card-form")
    assert page.inner_text("#ed-set-name") == SET

    # One card's Lv: the face follows at once, the generated text as the server writes it.
    lv = pick(page, "足軽", "ashigaru-recruit")
    text_has(page, "ja", "キャラ Lv4")
    control(page, f"cards[{lv}].lv").fill("6")
    assert page.inner_text("#ed-face .card-lv") == "6"
    text_has(page, "ja", "キャラ Lv6")
    text_has(page, "en", "Lv 6")
    # One effect amount.
    amount = pick(page, "rally", "rally-banner")
    text_has(page, "ja", "元Lvを永続的に1上げる")
    control(page, f"cards[{amount}].steps[0].amount").fill("2")
    text_has(page, "ja", "元Lvを永続的に2上げる")
    text_has(page, "en", "+2 base Lv")
    assert page.locator(".ed-pick[data-key='rally-banner'] .ed-badge.edit").count() == 1
    assert page.inner_text("#ed-status") == "未保存の変更があります"
    assert page.locator("#ed-ab").is_disabled()

    # Saved: the changelog entry says what changed.
    page.fill("#ed-note", "足軽を強く、鼓舞の旗を倍に")
    page.click("#ed-save")
    page.wait_for_selector("#ed-saved")
    assert "リビジョン 2" in page.inner_text("#ed-saved")
    changes = page.locator("#ed-changes li").all_inner_texts()
    assert any("ashigaru-recruit" in c and "4 → 6" in c for c in changes), changes
    assert any("rally-banner" in c for c in changes), changes
    assert page.inner_text("#ed-status") == "保存済み"
    saved = store.card_sets().data(SET)
    cards = {c["slug"]: c for c in saved["cards"]}
    assert cards["ashigaru-recruit"]["lv"] == 6
    assert cards["rally-banner"]["steps"][0]["amount"] == 2
    page.click("#ed-log summary")
    assert "足軽を強く" in page.inner_text("#ed-log")

    # A/B against the parent from the pre-filled run form: 40 paired games, the cheapest COM.
    page.click("#ed-ab")
    page.wait_for_selector("#rf-b")
    assert page.locator("input[name=rf-mode][value=ab]").is_checked()
    assert page.locator("#rf-a").input_value() == "v3"
    assert page.locator("#rf-b").input_value() == SET
    only(page, "#rf-decks", {"fortress", "swarm"})
    only(page, "#rf-levels", {"random"})
    page.fill("#rf-games", "40")
    assert "合計 80戦（1組 × 40戦 × A/B）" in page.inner_text("#rf-total")
    page.evaluate(WATCH_PROGRESS)
    page.click("#rf-start")
    bar = page.locator(".rn-detail .rn-bar[role=progressbar]")
    bar.wait_for()
    assert bar.is_visible()
    assert bar.get_attribute("aria-valuemax") == "80"
    page.wait_for_selector(DONE, timeout=60_000)
    assert bar.get_attribute("aria-valuenow") == "80"
    seen = page.evaluate("window.progressSeen")
    assert any(state in ("queued", "running") and int(now) < 80 for state, now in seen), seen

    # The difference, read on the result page.
    page.wait_for_selector("#rn-results[data-kind=ab] #ab-figures")
    head = page.inner_text("#ab-head")
    assert "A = v3" in head and f"B = {SET}" in head
    rows = page.locator("#ab-figures tbody tr")
    assert rows.count() >= 3
    first = rows.first
    assert first.locator("th").inner_text() == "先攻の勝率"
    assert re.search(r"[+−±]\d+\.\dpt", first.locator(".rs-diff").inner_text())
    for verdict in page.locator("#ab-figures .rs-verdict").all_inner_texts():
        assert verdict in ("★有意", "有意でない")
    assert page.locator(".rs-games a.rs-replay[data-match]").count() >= 2

    # Every record of the run replays, the B half under the set's saved revision.
    number = run_id(page)
    results = httpx2.get(f"{url}/api/balance/runs/{number}/results").json()
    ids = [half["match_id"] for game in results["games"] for half in game["results"]]
    assert len(ids) == 80
    assert all(store.check(i) is None for i in ids)
    ref = str(store.card_sets().info(SET).ref)
    played = {str(store.get(i).config.get("card_set", "")) for i in ids}
    assert played == {"", ref}
    assert not errors, errors
    ctx.close()


def test_bad_values_get_their_messages_on_the_field(
    browser: Any, served: tuple[str, MatchStore]
) -> None:
    url, store = served
    ctx, page, errors = open_page(browser, f"{url}/#/design/editor")
    # A set's name refused, on the name's field (the server answers 422, as it should).
    page.fill("#ed-derive-name", "v2")
    page.click("#ed-derive-go")
    refused = page.locator("#ed-derive-name-msg .ed-problem")
    refused.wait_for()
    assert "同梱版の名前です" in refused.inner_text()
    assert page.locator("#ed-derive-name").get_attribute("aria-invalid") == "true"
    assert page.locator("#ed-derive-name").input_value() == "v2"
    errors[:] = [e for e in errors if "status of 422" not in e]
    page.goto(f"{url}/#/design/editor/{SPARE}/card/ashigaru-recruit")
    page.reload()
    page.wait_for_selector("#ed-card-form")
    index = int(str(page.locator(".ed-pick.on").get_attribute("data-index")))
    where = f"cards[{index}].lv"
    control(page, where).fill("12")
    message = page.locator(f".ed-field[data-path='{where}'] .ed-problem")
    message.wait_for()
    assert "9以下にしてください" in message.inner_text()
    assert control(page, where).get_attribute("aria-invalid") == "true"
    text_has(page, "ja", "問題を直すと")
    assert page.locator(".ed-pick.on .ed-badge.bad").inner_text() == "問題1"
    # A rule of the game, on the step's own field; a deck rule on the card's copies.
    step = pick(page, "rally", "rally-banner")
    control(page, f"cards[{step}].steps[0].amount").fill("0")
    amount = page.locator(f".ed-field[data-path='cards[{step}].steps[0].amount'] .ed-problem")
    amount.wait_for()
    assert "modify_lv の量は0以外にしてください" in amount.inner_text()
    pick(page, "伝令", "messenger-tanuki")
    copies = page.locator(".ed-copy:has(label:text-matches('百鬼夜行'))").get_attribute("data-path")
    swarm = page.locator(f".ed-copy[data-path='{copies}']")
    swarm.locator("input").fill("3")
    swarm.locator(".ed-problem").wait_for()
    assert "同じカードは2枚までです" in swarm.locator(".ed-problem").inner_text()
    # Nothing is saved while a problem stands; the list says where the others are.
    page.click("#ed-save")
    page.wait_for_function(
        "() => document.querySelector('#ed-save-box .rn-error')"
        "?.textContent.includes('保存できません')"
    )
    assert store.card_sets().info(SPARE).revisions == 1
    assert "cards[" in page.inner_text("#ed-elsewhere")
    # In English, the same messages in English.
    page.locator("#design .lang-switch [data-lang=en]").click()
    assert "2 per deck" in swarm.locator(".ed-problem").inner_text()
    pick(page, "rally", "rally-banner")
    page.wait_for_function(
        "() => (document.querySelector('#ed-form-box .ed-problem') || {}).textContent"
        "?.includes('modify_lv needs a non-zero amount')"
    )
    # The draft survives a reload; discarding it brings the saved card back.
    page.reload()
    page.wait_for_selector("#ed-restored, .ed-restored")
    assert control(page, f"cards[{step}].steps[0].amount").input_value() == "0"
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#ed-discard")
    page.wait_for_function("() => !document.querySelector('#ed-save-box .ed-restored')")
    assert control(page, f"cards[{step}].steps[0].amount").input_value() == "1"
    assert page.inner_text("#ed-status") == "Saved"
    assert not errors, errors
    ctx.close()


def test_makens_cards_go_through_the_same_form(
    browser: Any, served: tuple[str, MatchStore]
) -> None:
    url, store = served
    ctx, page, errors = open_page(browser, f"{url}/#/design/editor")
    page.wait_for_selector("#ed-derive-name")
    page.select_option("#ed-derive-game", "maken")
    page.wait_for_function("() => document.querySelector('#ed-derive-from')?.value === 'shipped'")
    page.fill("#ed-derive-name", "maken-e2e")
    page.click("#ed-derive-go")
    page.wait_for_selector("#ed-card-form")
    index = pick(page, "SO01", "SO01")
    atk = control(page, f"cards[{index}].atk")
    old = int(atk.input_value())
    atk.fill(str(old + 1))
    text_has(page, "ja", f"攻撃値{old + 1}")
    assert page.inner_text("#ed-face .mk-atk b") == str(old + 1)
    page.click(f".ed-field[data-path='cards[{index}].abilities'] .ed-add")
    timing = control(page, f"cards[{index}].abilities[0].timing")
    assert timing.is_visible()
    page.click(f".ed-field[data-path='cards[{index}].abilities[0]'] button[aria-label$='削除']")
    page.click("#ed-save")
    page.wait_for_selector("#ed-saved")
    cards = {c["id"]: c for c in store.card_sets().data("maken-e2e")["cards"]}
    assert cards["SO01"]["atk"] == old + 1
    assert not errors, errors
    ctx.close()


def finished_ab(url: str) -> int:
    """A finished A/B run of SPARE against its parent (started here if there is none)."""
    for found in httpx2.get(f"{url}/api/balance/runs").json()["runs"]:
        if found["kind"] == "ab" and found["state"] == "done":
            return int(found["id"])
    body = {"ruleset": "kobo", "sides": ["v3", SPARE], "decks": ["fortress", "swarm"]}
    started = httpx2.post(
        f"{url}/api/balance/runs", json={**body, "players": ["random"], "games": 10}
    )
    number = int(started.json()["id"])
    deadline = time.monotonic() + 60
    while httpx2.get(f"{url}/api/balance/runs/{number}").json()["state"] != "done":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    return number


@pytest.mark.parametrize("size", ["phone", "tablet", "desktop"])
def test_the_editor_and_its_runs_fit_phone_tablet_and_desktop(
    browser: Any, served: tuple[str, MatchStore], size: str
) -> None:
    url, _store = served
    ab = finished_ab(url)
    ctx, page, errors = open_page(browser, f"{url}/#/design/editor", size)
    page.wait_for_selector(f"#ed-sets .ed-set-open[data-name='{SPARE}']")
    page.wait_for_selector("#ed-derive-go")
    no_faults(page)
    save_shot(page, f"editor-home-{size}.png", full_page=True)
    page.goto(f"{url}/#/design/editor/{SPARE}/card/total-war")
    page.reload()
    page.wait_for_selector("#ed-card-form")
    text_has(page, "ja", "戦術カード")
    no_faults(page)
    save_shot(page, f"editor-card-{size}.png", full_page=True)
    page.click(".ed-pick[data-deck='swarm']")
    page.wait_for_selector("#ed-deck-form .ed-count-row")
    no_faults(page)
    save_shot(page, f"editor-deck-{size}.png", full_page=True)
    body = {"ruleset": "kobo", "sides": ["v3", SPARE], "decks": ["fortress", "swarm", "tempo"]}
    started = httpx2.post(
        f"{url}/api/balance/runs", json={**body, "players": ["heuristic"], "games": 100}
    ).json()
    page.goto(f"{url}/#/design/runs/{started['id']}")
    page.reload()
    page.wait_for_function(PROGRESSING, timeout=60_000)
    no_faults(page)
    save_shot(page, f"editor-progress-{size}.png")
    httpx2.post(f"{url}/api/balance/runs/{started['id']}/cancel")
    page.goto(f"{url}/#/design/runs/{ab}")
    page.reload()
    page.wait_for_selector("#rn-results[data-kind=ab] #ab-figures")
    no_faults(page)
    save_shot(page, f"editor-ab-{size}.png")
    assert not errors, errors
    ctx.close()


def test_a_saved_set_is_played_against_com_from_the_editor(
    browser: Any, served: tuple[str, MatchStore]
) -> None:
    """「このセットでCOMと対戦」 starts a match against COM with the set's saved revision (it
    waits while the form holds unsaved changes); the match's view and listing name the set."""
    url, _store = served
    ctx, page, errors = open_page(browser, f"{url}/#/design/editor/{SPARE}/card/total-war")
    page.reload()
    page.wait_for_selector("#ed-play:not([disabled])")
    index = page.locator(".ed-pick[data-key='total-war']").get_attribute("data-index")
    field = control(page, f"cards[{index}].name_en")
    saved = field.input_value()
    field.fill(f"{saved} II")
    page.wait_for_selector("#ed-play[disabled]")  # unsaved: only a saved revision plays
    field.fill(saved)
    page.wait_for_selector("#ed-play:not([disabled])")
    page.click("#ed-play")
    page.wait_for_function(
        "() => document.body.dataset.screen === 'game' && !!(window.kobo && window.kobo.view)"
    )
    assert page.evaluate("location.hash") == ""
    played = view(page)
    assert played["session"]["mode"] == "vs_com"
    assert str(played["card_set"]).startswith(f"{SPARE}@"), played["card_set"]
    listed = httpx2.get(f"{url}/api/matches", params={"state": "live"}).json()["matches"]
    assert any(SPARE in json.dumps(m["departures"], ensure_ascii=False) for m in listed), listed
    assert not errors, errors
    ctx.close()


def test_a_toml_file_is_imported_as_a_set_or_refused_by_field(
    browser: Any, served: tuple[str, MatchStore], tmp_path: Path
) -> None:
    """The editor's home imports a TOML file as the set it names: a new set (its game
    chosen), or the next revision of a set that exists; a broken file is refused with its
    problems by field, and nothing is made."""
    url, _store = served
    exported = httpx2.get(f"{url}/api/design/sets/{SPARE}/export")
    assert exported.status_code == 200, exported.text
    good = tmp_path / "kobo-imported.toml"
    good.write_text(exported.text.replace("Total War", "Total War II", 1), encoding="utf-8")
    broken = tmp_path / "broken.toml"
    broken.write_text(re.sub(r"(?m)^lv = \d+", "lv = -3", exported.text, count=1), "utf-8")
    ctx, page, errors = open_page(browser, f"{url}/#/design/editor")
    page.wait_for_selector("#ed-import-go")
    page.click("#ed-import-go")  # no file yet: said so
    page.wait_for_selector("#ed-import-problems")
    page.set_input_files("#ed-import-file", str(broken))
    page.wait_for_selector("#ed-import-chosen")
    assert page.input_value("#ed-import-name") == "broken"
    page.click("#ed-import-go")
    page.wait_for_function(
        "() => /lv/.test(document.querySelector('#ed-import-problems')?.textContent || '')"
    )
    errors[:] = [e for e in errors if "status of 422" not in e]  # the refusal, as expected
    names = [s["name"] for s in httpx2.get(f"{url}/api/design/sets").json()["sets"]]
    assert "broken" not in names
    page.set_input_files("#ed-import-file", str(good))
    page.wait_for_function(  # the file is read (the form is drawn again with its name)
        "() => document.querySelector('#ed-import-chosen')?.textContent === 'kobo-imported.toml'"
    )
    page.fill("#ed-import-name", "kobo-imported")
    page.dispatch_event("#ed-import-name", "change")
    assert "新しいセット" in page.inner_text("#ed-import-hint")
    page.click("#ed-import-go")
    page.wait_for_function(
        "() => document.querySelector('#ed-set-name')?.textContent === 'kobo-imported'"
    )
    made = httpx2.get(f"{url}/api/design/sets/kobo-imported").json()
    assert any(c.get("name_en") == "Total War II" for c in made["data"]["cards"])
    # The same name again: the next revision of that set.
    page.goto(f"{url}/#/design/editor")
    page.reload()
    page.wait_for_selector("#ed-import-file")
    page.set_input_files("#ed-import-file", str(good))
    page.fill("#ed-import-name", SPARE)
    page.dispatch_event("#ed-import-name", "change")
    assert SPARE in page.inner_text("#ed-import-hint") and not page.is_visible("#ed-import-game")
    no_faults(page)
    assert not errors, errors
    ctx.close()
    httpx2.delete(f"{url}/api/design/sets/kobo-imported")

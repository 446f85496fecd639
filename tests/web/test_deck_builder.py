"""The deck builder in the browser: build a deck by clicking, watch the server's problems come
and go, keep it in the store (save, reload, rename, copy, delete), export and import deck
files, then play a match with the saved deck, which the server deals from its store; a saved
deck with problems cannot be chosen. On a phone the screen is one column, never wider."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import httpx2
from fastapi.testclient import TestClient

from kessen.engine import registry
from kessen.games.kobo.decks import deck_to_json, option_decks, starter_decks
from kessen.server.app import create_app
from kessen.store import MatchStore
from tests.web.driver import (
    AXE,
    SIZES,
    Driver,
    collect_errors,
    layout_faults,
    serious_violations,
    shot,
)

SEED = 29
QUICK = """(() => {
  const s = JSON.parse(localStorage.getItem('kobo.settings') || '{}');
  if (s.resolvePace) return;
  const quick = { ...s, resolvePace: 'off', motion: 'off' };
  localStorage.setItem('kobo.settings', JSON.stringify(quick));
})();"""


def open_page(browser: Any, url: str, **options: Any) -> tuple[Any, Any, list[str]]:
    """A fresh context and page on ``url``, collecting JavaScript errors."""
    ctx = browser.new_context(locale="ja-JP", accept_downloads=True, **options)
    # No chain playback nor animations: the match part plays at the server's pace.
    ctx.add_init_script(QUICK)
    ctx.add_init_script(path=str(AXE))  # axe-core, for the accessibility checks
    page = ctx.new_page()
    errors = collect_errors(page)
    page.set_default_timeout(15_000)
    page.goto(url)
    return ctx, page, errors


def chosen_cards() -> tuple[list[str], list[str], list[str]]:
    """A legal deck from the pool: 5 characters and 5 deploy/trap cards twice (main), 7
    tactics twice and one once (tactics); none limited."""
    cards = registry.get("kobo").catalog("en")["cards"].values()
    free = [c for c in cards if not c["limited"]]
    chars = [c["slug"] for c in free if c["kind"] == "character"][:5]
    others = [c["slug"] for c in free if c["kind"] in ("deploy", "trap")][:5]
    tactics = [c["slug"] for c in free if c["kind"] == "tactic"][:8]
    return chars, others, tactics


def status(page: Any, state: str) -> str:
    """Wait until the deck's check says ``state`` (ok or bad); the status text."""
    page.wait_for_selector(f"#db-status.{state}")
    return str(page.inner_text("#db-status .db-state"))


def add(page: Any, slug: str, times: int = 1) -> None:
    for _ in range(times):
        page.click(f'.dbk-card[data-slug="{slug}"]')


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def saved_rows(page: Any, names: list[str]) -> None:
    """Wait until the saved decks listed are ``names``, in order."""
    page.wait_for_function(
        """names => JSON.stringify(Array.from(
             document.querySelectorAll('#db-saved-list .db-saved-name'), e => e.textContent))
           === JSON.stringify(names)""",
        arg=names,
    )


def row(page: Any, name: str) -> str:
    return f'#db-saved-list .db-saved-row:has(.db-saved-name:text-is("{name}"))'


def play_turns(driver: Driver, turn: int, per_turn: int = 4) -> None:
    """Click through the match until ``turn``: a few first options a turn, then a pass."""
    page = driver.page
    clicks: dict[int, int] = {}
    for _ in range(200):
        now = int(page.evaluate("window.kobo.view.turn"))
        if now >= turn:
            return
        state = driver.wait_ready()
        if state == "overlay:game":
            page.click("#overlay-continue")
            continue
        if state == "confirm":
            driver.confirm()
            continue
        _, options = driver.check_offer()
        clicks[now] = clicks.get(now, 0) + 1
        rest = [o for o in options if o != "pass"]
        driver.click(
            "pass" if "pass" in options and clicks[now] > per_turn else (rest or options)[0]
        )
    raise AssertionError(f"turn {turn} never came")


def test_build_save_export_import_and_play_a_saved_deck(browser: Any, store_server: str) -> None:
    chars, others, tactics = chosen_cards()
    ctx, page, errors = open_page(browser, store_server, viewport={"width": 1280, "height": 800})
    page.click("#open-decks")
    page.wait_for_selector("#decks:not([hidden]) .dbk-card")

    # Build from scratch with the filters: the check speaks Japanese first.
    page.select_option("#dbk-kind", "character")
    assert page.locator(".dbk-card").count() == 12
    for slug in chars[:4]:
        add(page, slug, 2)
    assert "問題" in status(page, "bad")
    assert "メインデッキが8枚です。ちょうど20枚にしてください。" in page.inner_text("#db-problems")
    page.click('#decks [data-lang="en"]')
    page.wait_for_function(
        "() => document.querySelector('#db-problems').textContent.includes('main deck has 8 cards')"
    )
    page.select_option("#dbk-lv", "3")  # the Lv filter keeps the characters of one level
    levels = page.eval_on_selector_all(".dbk-card .dbk-lv", "es => es.map(e => e.textContent)")
    assert levels and set(levels) == {"Lv3"}
    page.select_option("#dbk-lv", "")
    add(page, chars[4], 2)
    page.select_option("#dbk-kind", "")
    for slug in others:
        page.fill("#dbk-q", slug)  # the keyword searches names and texts (and slugs)
        assert page.locator(".dbk-card").count() >= 1
        add(page, slug, 2)
    page.fill("#dbk-q", "")
    page.select_option("#dbk-kind", "tactic")
    for slug in tactics[:7]:
        add(page, slug, 2)
    add(page, tactics[7])
    assert status(page, "ok") == "Valid"
    assert page.inner_text("#db-status .db-size") == "20/20 · 15/15"

    # One copy too many: the problem shows on the deck, then the − fixes it.
    plus = f'.dbk-row[data-slug="{chars[0]}"] .dbk-plus'
    page.click(plus)
    assert status(page, "bad") == "2 problems"  # 3 copies, and 21 cards
    assert "3 copies of" in page.inner_text("#db-problems")
    assert page.locator(f'.dbk-row.has-problem[data-slug="{chars[0]}"]').count() == 1
    shot(page, "deck_builder_problem")
    assert not serious_violations(page, "#decks"), serious_violations(page, "#decks")
    page.click(f'.dbk-row[data-slug="{chars[0]}"] .dbk-minus')
    assert status(page, "ok") == "Valid"
    assert page.inner_text(f'.dbk-row[data-slug="{chars[0]}"] .dbk-n') == "2"

    # Save; a reload finds it in the store.
    page.fill("#db-name", "Night Raid")
    page.click("#db-save")
    saved_rows(page, ["Night Raid"])
    page.reload()
    page.click("#open-decks")
    saved_rows(page, ["Night Raid"])
    page.click(f"{row(page, 'Night Raid')} .db-open")
    assert status(page, "ok") == "Valid"
    assert page.input_value("#db-name") == "Night Raid"

    # Rename, copy, delete the copy (a second press confirms).
    page.click(f"{row(page, 'Night Raid')} .db-rename")
    page.fill(".db-rename-input", "Night Raid II")
    page.click(".db-rename-ok")
    page.wait_for_selector(row(page, "Night Raid II"))
    page.click(f"{row(page, 'Night Raid II')} .db-copy")
    page.wait_for_selector(row(page, "Copy of Night Raid II"))
    delete = f"{row(page, 'Copy of Night Raid II')} .db-delete"
    page.click(delete)
    assert page.inner_text(delete) == "Press again to delete"
    page.click(delete)
    page.wait_for_selector(row(page, "Copy of Night Raid II"), state="detached")
    saved_rows(page, ["Night Raid II"])

    # Export: the file parses and holds exactly the saved deck.
    saved = httpx2.get(f"{store_server}/api/decks/kobo").json()["decks"]
    assert [d["name"] for d in saved] == ["Night Raid II"]
    deck = saved[0]["deck"]
    with page.expect_download() as info:
        page.click("#db-export")
    download = info.value
    assert download.suggested_filename == "night-raid-ii.toml"
    exported = tomllib.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert exported == deck
    assert exported["name_en"] == "Night Raid II"
    shot(page, "deck_builder_desktop")

    # Import: a broken file is refused with the server's precise error; nothing is lost.
    text = Path(download.path()).read_text(encoding="utf-8")
    page.click("#db-import-open")
    page.fill("#db-import-text", text.replace(chars[1], chars[1] + "x", 1))
    page.click("#db-import-go")
    page.wait_for_selector("#db-import-errors li")
    error = page.inner_text("#db-import-errors")
    assert f"unknown card slug '{chars[1]}x'" in error and f"did you mean {chars[1]}" in error
    assert page.input_value("#db-name") == "Night Raid II"
    shot(page, "deck_builder_import_error")
    half_deck = text.replace("Night Raid II", "Half deck").split("[tactics]")[0] + "[tactics]\n"
    page.set_input_files(
        "#db-import-file",
        files=[
            {
                "name": "half.toml",
                "mimeType": "application/toml",
                "buffer": half_deck.encode(),
            }
        ],
    )
    page.wait_for_function("() => document.querySelector('#db-name').value === 'Half deck'")
    assert status(page, "bad") == "1 problem"
    page.click("#db-save")  # a work in progress may be saved, with its problems
    page.wait_for_selector(f"{row(page, 'Half deck')} .db-badge.bad")

    # The start screen offers both saved decks; the one with problems cannot be chosen.
    page.click("#db-back")
    good = f"saved:{saved[0]['id']}"
    for side in (0, 1):
        options = page.eval_on_selector_all(
            f"#deck-{side} optgroup option",
            "os => os.map(o => [o.value, o.disabled, o.textContent])",
        )
        assert [o[0] for o in options if not o[1]] == [good]
        [half] = [o for o in options if o[1]]
        assert "Half deck" in half[2] and "1 problem:" in half[2]
    refused = httpx2.post(
        f"{store_server}/api/games",
        json={"decks": [{"saved": int(half[0].split(":")[1])}, "swarm"]},
    )
    assert refused.status_code == 422 and "tactics deck has 0 cards" in refused.text

    # A match vs COM with the saved deck in both seats: the server deals the stored lists.
    page.select_option("#deck-0", good)
    page.select_option("#deck-1", good)
    assert page.inner_text("#deck-style-0").startswith("Saved deck")
    shot(page, "deck_builder_start")
    page.click("#start .advanced summary")
    page.fill("#seed", str(SEED))
    page.click("#start-button")
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
    view = page.evaluate("window.kobo.view")
    for seat in (0, 1):
        dealt = view["players"][seat]["deck"]
        assert (dealt["main"], dealt["tactics"]) == (deck["main"], deck["tactics"])
        assert dealt["name"] == "Night Raid II"
    play_turns(Driver(page), 3)
    assert page.evaluate("window.kobo.view.players[0].deck.name") == "Night Raid II"
    ctx.close()
    refusals = [e for e in errors if "status of 422" in e]
    assert len(refusals) == 1  # the broken deck file's import, and nothing else
    assert not [e for e in errors if e not in refusals], errors


def test_the_option_deck_on_the_start_screen(browser: Any, store_server: str) -> None:
    """伏兵の計 needs the surprise zone: its list opens from the start screen and a record names
    it; a saved copy of it (its list says ``requires``) cannot be chosen while the option is off."""
    ambush = deck_to_json(option_decks()["ambush"])
    assert ambush["requires"] == ["surprise"]
    saved = httpx2.post(
        f"{store_server}/api/decks/kobo", json={"name": "Ambush copy", "deck": ambush}
    ).json()
    value = f"saved:{saved['id']}"
    ctx, page, errors = open_page(browser, store_server, viewport={"width": 1280, "height": 800})
    try:
        page.click('#start [data-lang="en"]')
        mine = f'#deck-0 option[value="{value}"]'
        page.wait_for_function(
            "s => { const o = document.querySelector(s);"
            " return !!o && o.disabled && o.textContent.includes('Surprise zone'); }",
            arg=mine,
        )
        page.check("#kb-surprise")
        assert not page.eval_on_selector(mine, "o => o.disabled")
        assert page.inner_text(mine) == "Ambush copy"
        page.select_option("#deck-0", value)
        assert page.inner_text("#deck-style-0").startswith("Saved deck")
        page.select_option("#deck-1", "ambush")
        page.click('[data-show-deck="1"]')
        page.wait_for_selector("#deck-preview:not([hidden])")
        assert "Ambush Stratagem" in page.inner_text("#deck-preview .dp-head")
        names = page.evaluate(
            "async () => { const { game } = await import('/static/games/kobo.js');"
            " return [game.deckName('ambush'), game.decks().map((d) => d.slug)]; }"
        )
        assert names[0] == "Ambush Stratagem" and "ambush" in names[1]
        page.uncheck("#kb-surprise")  # the saved copy is refused without the option again
        assert page.eval_on_selector(mine, "o => o.disabled")
        assert page.input_value("#deck-0") != value
        assert not page.inner_text("#deck-style-0").startswith("Saved deck")
    finally:
        ctx.close()
        httpx2.delete(f"{store_server}/api/decks/kobo/{saved['id']}")
    assert not errors, errors


def test_the_builder_on_a_phone(browser: Any, store_server: str) -> None:
    ctx, page, errors = open_page(browser, store_server, **SIZES["phone"])
    page.click('#start [data-lang="en"]')
    page.click("#open-decks")
    page.wait_for_selector("#decks:not([hidden]) .dbk-card")
    page.select_option("#db-from", "swarm")
    page.click("#db-new")
    assert status(page, "ok") == "Valid"
    page.tap('.dbk-card[data-slug="oni-warlord"]')
    assert status(page, "bad") == "1 problem"
    no_sideways_scroll(page)
    assert not serious_violations(page, "#decks"), serious_violations(page, "#decks")
    found = layout_faults(page)  # the lists' chosen words whole, nothing small or cut
    assert not any(found.values()), found
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "deck_builder_phone")
    page.locator("#db-saved-list").scroll_into_view_if_needed()
    no_sideways_scroll(page)
    shot(page, "deck_builder_phone_saved")
    ctx.close()
    assert not errors, errors


def test_a_new_game_plays_the_saved_lists(tmp_path: Path) -> None:
    """``{"saved": id}`` in ``decks`` or ``config.decks``: the stored list under its saved name;
    an unknown id, a deck with problems or a game without decks is refused."""
    tempo = deck_to_json(starter_decks()["tempo"])
    with (
        MatchStore(tmp_path / "store.sqlite3") as store,
        TestClient(app := create_app(0.0, store), base_url="http://127.0.0.1") as http,
    ):
        mine = http.post("/api/decks/kobo", json={"name": "Mine", "deck": tempo}).json()
        short = {**tempo, "tactics": {}}
        wip = http.post("/api/decks/kobo", json={"name": "WIP", "deck": short}).json()
        ref = {"saved": mine["id"]}
        for body in ({"decks": [ref, "swarm"]}, {"config": {"decks": ["swarm", ref]}}):
            game = http.post("/api/games", json={**body, "mode": "com_vs_com"}).json()
            decks = app.state.hub.sessions[game["id"]].live.config.decks
            seat = 0 if "decks" in body else 1
            assert deck_to_json(decks[seat]) == {**tempo, "name_ja": "Mine", "name_en": "Mine"}
            assert decks[1 - seat].slug == "swarm"
        unknown = http.post("/api/games", json={"decks": [{"saved": 999}, "swarm"]})
        assert unknown.status_code == 422 and "no saved kobo deck 999" in unknown.text
        invalid = http.post("/api/games", json={"decks": [{"saved": wip["id"]}, "swarm"]})
        assert invalid.status_code == 422 and "tactics deck has 0 cards" in invalid.text
        twgp = http.post("/api/games", json={"ruleset": "twgp", "decks": [ref, ref]})
        assert twgp.status_code == 422

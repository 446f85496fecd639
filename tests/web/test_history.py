"""The match history in the browser: the list, its filters and its marks of matches off the
standard rules, the replay viewer (step, seek by turn, play/pause, seats, CARD INFORMATION),
continuing from a step against COM, and the "why" panel of COM's decisions in the live game
that follows."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx2
import pytest

from kessen.engine import card_sets, registry
from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.engine.replay import Replay
from kessen.server.run import running
from kessen.store.records import MatchStore, NewMatch
from tests.web.driver import (
    Driver,
    layout_faults,
    play_first_options,
    settle,
    shot,
    view,
    wait_view,
)

T0 = datetime(2024, 6, 1, 10, 0).timestamp()
HOUR = 3600.0


class Explaining:
    """A COM that plays like the heuristic one and explains itself like a search player."""

    def __init__(self, seed: int) -> None:
        self.inner = registry.get("kobo").players["heuristic"](seed)
        self.last_explanation: list[Json] = []

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        action = self.inner.choose(view, legal)
        others = [a for a in legal if a != action][:3]
        self.last_explanation = [{"action": str(action), "visits": 48, "value": 0.62}] + [
            {"action": str(a), "visits": 30 - 9 * i, "value": round(0.5 - 0.12 * i, 2)}
            for i, a in enumerate(others)
        ]
        return action


def play(
    decks: list[str], seed: int, steps: int | None = None, switches: Json | None = None
) -> tuple[Replay, GameState]:
    """A match of the heuristic COM against itself (its first ``steps`` actions only), under
    the standard rules or with the opening ``switches`` given."""
    rules = registry.get("kobo")
    config: Json = {"decks": decks, "best_of": 3, **(switches or {})}
    state = rules.new_game(config, seed)
    replay = Replay.start(state, config, seed)
    players = [rules.players["heuristic"](seed + 1), rules.players["heuristic"](seed + 2)]
    while state.pending is not None and (steps is None or len(replay.actions) < steps):
        seat = state.pending.seat
        action = players[seat].choose(state.view(seat), state.legal_actions())
        state = state.clone()
        state.apply(action)
        replay.record(action, state)
    return replay, state


@dataclass
class History:
    """The server, its store, and the stored matches the tests open."""

    url: str
    store: MatchStore
    won: int  # finished: fortress (you) vs swarm (COM "explaining"), the newest finished one
    open: int  # unfinished: you vs COM
    total: int


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Iterator[History]:
    rules = registry.get("kobo")
    players: dict[str, Any] = {**rules.players, "explaining": Explaining}
    patched = dataclasses.replace(rules, players=players)
    store = MatchStore(tmp_path_factory.mktemp("web-history") / "matches.sqlite3")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(registry, "_RULESETS", {**registry._RULESETS, "kobo": patched})
        # Twenty simulated matches (for the pages), one finished game, one unfinished one.
        sim, sim_state = play(["tempo", "vanguard"], 3)
        for i in range(20):
            store.add_match(
                NewMatch(
                    replay=sim,
                    players={"0": "heuristic", "1": "random"},
                    source="sim",
                    outcome=sim_state.outcome,
                    created=T0 + i * HOUR,
                )
            )
        replay, state = play(["fortress", "swarm"], 5)
        won = store.add_match(
            NewMatch(
                replay=replay,
                players={"0": "human", "1": "explaining"},
                source="server",
                outcome=state.outcome,
                created=T0 + 30 * HOUR,
            )
        )
        replay, state = play(["swarm", "tempo"], 9, steps=30)
        unfinished = store.add_match(
            NewMatch(
                replay=replay,
                players={"0": "human", "1": "heuristic"},
                source="server",
                created=T0 + 40 * HOUR,
                meta={"tokens": {OPEN_TOKEN: 0}},  # the token of the browser that plays it
            )
        )
        with running(pace=0.0, store=store) as url:
            yield History(url, store, won, unfinished, 22)
    store.close()


OPEN_TOKEN = "token-of-the-browser-that-plays-the-open-match"


@pytest.fixture()
def hpage(context: Any, history: History) -> Iterator[Any]:
    """A page of the app on the history server; fails on any JavaScript error."""
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda err: errors.append(str(err)))
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    pg.set_default_timeout(20_000)
    pg.goto(history.url)
    pg.wait_for_selector("#start:not([hidden])")
    yield pg
    assert not errors, f"JavaScript errors on the page: {errors}"


def rows(page: Any) -> list[int]:
    found: list[str] = page.evaluate(
        "Array.from(document.querySelectorAll('#mh-list .mh-row'), r => r.dataset.id)"
    )
    return [int(x) for x in found]


def wait_rows(page: Any, expected: list[int]) -> None:
    page.wait_for_function(
        "ids => JSON.stringify(Array.from(document.querySelectorAll('#mh-list .mh-row'),"
        " r => Number(r.dataset.id))) === JSON.stringify(ids)",
        arg=expected,
    )


def replay_state(page: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(page.evaluate("JSON.stringify(window.kobo.replay)"))
    return data


def wait_step(page: Any, step: int) -> None:
    """Wait until the viewer shows ``step``, drawn."""
    page.wait_for_function(
        f"() => window.kobo.replay && window.kobo.replay.step === {step}"
        " && window.kobo.view && window.kobo.view.history.step === "
        f"{step}"
    )
    settle(page)


def open_replay(page: Any, match_id: int) -> None:
    page.click("#open-history")
    page.wait_for_selector(f'#mh-list .mh-row[data-id="{match_id}"]')
    page.click(f'#mh-list .mh-row[data-id="{match_id}"]')
    wait_step(page, 0)


def info(history: History, match_id: int) -> dict[str, Any]:
    data: dict[str, Any] = httpx2.get(f"{history.url}/api/matches/{match_id}", timeout=30).json()
    return data


# --- the list ---------------------------------------------------------------------------


def test_history_list_filters_and_pages(hpage: Any, history: History) -> None:
    page = hpage
    assert page.is_visible("#open-history")
    shot(page, "history_00_start_entry")
    page.click("#open-history")
    page.wait_for_selector("#history:not([hidden]) #mh-list .mh-row")
    ids = rows(page)
    assert len(ids) == 20 and ids[:2] == [history.open, history.won]  # newest first
    assert ids == sorted(ids, reverse=True)
    first = page.inner_text(f'.mh-row[data-id="{history.won}"]')
    assert "鉄壁の籠城" in first and "あなた" in first and "手" in first
    # Unfinished and played by no session of this server: abandoned, not "in progress".
    assert "放棄" in page.inner_text(f'.mh-row[data-id="{history.open}"]')
    shot(page, "history_01_list")

    # Pages of twenty.
    page.click("#mh-next")
    wait_rows(page, [2, 1])
    assert page.is_disabled("#mh-next")
    page.click("#mh-prev")
    page.wait_for_function("() => document.querySelectorAll('#mh-list .mh-row').length === 20")

    # Filters: deck, result, kind and dates.
    page.select_option("#f-deck", "fortress")
    wait_rows(page, [history.won])
    page.select_option("#f-deck", "")
    page.select_option("#f-state", "abandoned")
    wait_rows(page, [history.open])
    page.select_option("#f-state", "finished")
    page.wait_for_function("() => document.querySelectorAll('#mh-list .mh-row').length === 20")
    assert history.open not in rows(page)
    page.select_option("#f-state", "")
    page.select_option("#f-source", "server")
    wait_rows(page, [history.open, history.won])
    page.fill("#f-since", "2024-06-02")  # the day the last two were played
    page.dispatch_event("#f-since", "change")
    wait_rows(page, [history.open, history.won])
    page.fill("#f-since", "")
    page.fill("#f-until", "2024-06-01")  # that day included
    page.dispatch_event("#f-until", "change")
    wait_rows(page, [])
    page.wait_for_selector("#mh-list .mh-note")
    assert "条件に合う対戦はありません" in page.inner_text("#mh-list")
    page.select_option("#f-source", "sim")
    page.wait_for_function("() => document.querySelectorAll('#mh-list .mh-row').length === 14")
    shot(page, "history_02_filtered")
    page.click("#f-clear")
    page.wait_for_function("() => document.querySelectorAll('#mh-list .mh-row').length === 20")
    page.click("#mh-back")
    page.wait_for_selector("#start:not([hidden])")


def test_a_match_off_the_standard_rules_is_marked_in_the_list(
    hpage: Any, history: History, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A match with an opening switch reads 変則ルール beside its decks, one with a designer's
    card set カードセット「NAME」 (Variant rules, Card set "NAME" in English), the title
    naming each departure; a standard match has no mark. The two records are removed again
    (the other tests count the list)."""
    page = hpage
    monkeypatch.setenv(card_sets.CACHE_ENV, str(tmp_path / "set-cache"))
    ref = str(history.store.card_sets().derive("balance-2", "kobo", "v3").ref)
    rules = registry.get("kobo")
    # A finished match under opening switches (the viewer opens it), a started one on the set.
    finished, state = play(
        ["swarm", "tempo"], 4, switches={"second_tactics": 9, "pass_penalty": "none"}
    )
    config: Json = {"decks": ["swarm", "tempo"], "card_set": ref}
    started = Replay.start(rules.new_game(config, 4), config, 4)
    added = [
        history.store.add_match(
            NewMatch(
                replay=replay,
                players={"0": "heuristic", "1": "random"},
                source="sim",
                outcome=outcome,
                created=T0 + hours * HOUR,
            )
        )
        for hours, replay, outcome in ((60, finished, state.outcome), (61, started, None))
    ]
    variant, designed = added
    try:
        page.click("#open-history")
        page.wait_for_selector(f'.mh-row[data-id="{designed}"] .mh-departures')
        mark = page.locator(f'.mh-row[data-id="{variant}"] .mh-decks .mh-departures')
        assert mark.inner_text() == "変則ルール"
        title = mark.get_attribute("title") or ""
        assert title.startswith("標準ルールとの違い：")
        assert "後攻の戦術手札：9枚" in title and "パスのペナルティ：なし" in title
        set_mark = page.locator(f'.mh-row[data-id="{designed}"] .mh-departures')
        assert set_mark.inner_text() == "カードセット「balance-2」"
        assert f"balance-2@{ref.split('@')[1][:12]}" in (set_mark.get_attribute("title") or "")
        assert page.locator(f'.mh-row[data-id="{history.won}"] .mh-departures').count() == 0
        shot(page, "history_01b_departures")
        page.click('#history [data-lang="en"]')
        page.wait_for_function(
            f"""() => document.querySelector('.mh-row[data-id="{variant}"] .mh-departures')
                .textContent === 'Variant rules'"""
        )
        assert "Second player's tactics hand: 9 cards" in (mark.get_attribute("title") or "")
        assert set_mark.inner_text() == 'Card set "balance-2"'
        # The replay viewer says it too, under the decks, in the page's language.
        page.click(f'#mh-list .mh-row[data-id="{variant}"]')
        wait_step(page, 0)
        viewer_mark = page.locator("#ops .rp-decks .mh-departures")
        assert viewer_mark.inner_text() == "Variant rules"
        for size, (width, height) in (("desktop", (1440, 900)), ("tablet", (820, 1180))):
            page.set_viewport_size({"width": width, "height": height})
            settle(page)
            box = viewer_mark.bounding_box()
            assert box is not None and viewer_mark.is_visible(), size
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (size, box)
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, (size, box)
            shot(page, f"history_05_viewer_departures_{size}")
        page.set_viewport_size({"width": 390, "height": 844})
        settle(page)
        shot(page, "history_05_viewer_departures_phone")
        found = layout_faults(page)  # the viewer's turn list shows its words whole on a phone
        assert not any(found.values()), found
        assert "Second player's tactics hand: 9 cards" in (viewer_mark.get_attribute("title") or "")
    finally:
        history.store.delete_matches(added)
        history.store.card_sets().delete("balance-2")


# --- the viewer -------------------------------------------------------------------------


def test_replay_steps_seeks_plays_and_switches_seats(hpage: Any, history: History) -> None:
    page = hpage
    meta = info(history, history.won)
    open_replay(page, history.won)
    assert replay_state(page)["steps"] == meta["steps"]
    assert "#/matches/" in page.url
    # Read-only: nothing to play, and the replay controls instead of the operation panel.
    assert page.locator("#ops button.act").count() == 0
    assert page.is_hidden("#btn-undo") and page.is_visible("#rp-play")
    assert page.inner_text("#ops .panel-title") == "再生"
    assert page.is_hidden("#why-panel")
    # The replay's controls are no decision: never folded under the sheet's handle, even
    # when the panel is shorter than they are.
    page.set_viewport_size({"width": 1280, "height": 420})
    page.wait_for_timeout(100)
    assert page.is_hidden("#ops-more") and page.locator("#ops .beyond").count() == 0
    page.set_viewport_size({"width": 1280, "height": 720})

    # Step forward and back (buttons and keys).
    page.click("#rp-next")
    wait_step(page, 1)
    assert "P" in page.inner_text("#rp-move") or "あなた" in page.inner_text("#rp-move")
    page.keyboard.press("ArrowRight")
    wait_step(page, 2)
    page.click("#rp-prev")
    wait_step(page, 1)

    # Seek by turn: the first turn of game 2.
    turn = next(t for t in meta["turns"] if t["game"] == 2 and t["turn"] == 1)
    page.select_option("#rp-turn", str(turn["step"]))
    wait_step(page, turn["step"])
    shown = view(page)
    assert (shown["match"]["game"], shown["turn"]) == (2, 1)
    assert "第2ゲーム" in page.inner_text("#rp-where")
    page.click("#rp-next-turn")
    later = next(t for t in meta["turns"] if t["step"] > turn["step"])
    wait_step(page, later["step"])
    page.click("#rp-prev-turn")
    wait_step(page, turn["step"])
    # The slider seeks too.
    page.eval_on_selector(
        "#rp-seek",
        "(e, n) => { e.value = String(n); e.dispatchEvent(new Event('input')); }",
        turn["step"] + 5,
    )
    wait_step(page, turn["step"] + 5)

    # CARD INFORMATION works on the replayed board.
    shown = view(page)
    slot = next(i for i, c in enumerate(shown["players"][0]["battle"], 1) if c)
    card = shown["players"][0]["battle"][slot - 1]
    page.click(f'#board [data-zone="battle"][data-seat="0"][data-slot="{slot}"]')
    assert card["name"] in page.inner_text("#cardinfo-body")
    shot(page, "history_03_replay")

    # Play at 4×, then pause.
    page.click('#rp-speed .chip[data-value="4"]')
    start = replay_state(page)["step"]
    page.click("#rp-play")
    assert replay_state(page)["playing"]
    page.wait_for_function(f"() => window.kobo.replay.step >= {start + 3}", timeout=10_000)
    page.click("#rp-play")
    paused = replay_state(page)
    assert not paused["playing"] and paused["speed"] == 4
    page.wait_for_timeout(700)
    assert replay_state(page)["step"] == paused["step"]
    assert json.loads(page.evaluate("localStorage.getItem('kobo.settings')"))["replaySpeed"] == 4
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press(" ")  # Space plays and pauses too
    assert replay_state(page)["playing"]
    page.keyboard.press(" ")
    paused = replay_state(page)
    assert not paused["playing"]

    # Seats: P2's view, then everything (the match is over).
    page.click('#rp-seat .chip[data-value="1"]')
    wait_view(page, "v.viewer === 1")
    assert view(page)["history"]["step"] == paused["step"]
    page.click('#rp-seat .chip[data-value="all"]')
    wait_view(page, "v.everything === true")
    both = view(page)
    assert all(p["hand"].get("cards") is not None for p in both["players"])
    page.keyboard.press("End")
    wait_step(page, meta["steps"])
    assert "マッチ終了" in page.inner_text("#banner")
    assert page.is_disabled("#rp-continue")
    shot(page, "history_04_all_seats_end")

    # English, then back to the list.
    page.click('#topbar [data-lang="en"]')
    page.wait_for_function("() => document.querySelector('#rp-step').textContent.includes('Step')")
    page.wait_for_function("() => window.kobo.view && window.kobo.view.lang === 'en'")
    settle(page)
    shot(page, "history_04b_english")
    page.click('#topbar [data-lang="ja"]')
    page.click("#btn-history")
    page.wait_for_selector("#history:not([hidden]) #mh-list .mh-row")
    assert replay_state(page) is None


def test_an_unfinished_match_keeps_hidden_cards_hidden(hpage: Any, history: History) -> None:
    page = hpage
    # Another browser (without the match's token) is told it cannot watch it yet.
    page.click("#open-history")
    page.click(f'#mh-list .mh-row[data-id="{history.open}"]')
    page.wait_for_function(
        "() => document.querySelector('#toasts').textContent.includes('別のブラウザで対戦中')"
    )
    # The browser that plays it opens its own seat's view.
    page.evaluate(f"localStorage.setItem('kobo.tokens', JSON.stringify([{OPEN_TOKEN!r}]))")
    page.goto(history.url)
    page.wait_for_selector("#start:not([hidden])")
    open_replay(page, history.open)
    assert replay_state(page)["seats"] == ["0"]
    assert page.is_disabled('#rp-seat .chip[data-value="all"]')
    assert page.is_disabled('#rp-seat .chip[data-value="1"]')
    assert "マッチ終了後" in page.inner_text("#ops")
    assert view(page)["players"][1]["hand"].get("cards") is None
    shot(page, "history_07_unfinished_locked")
    # The address names the replay: a reload opens it again.
    assert page.url.endswith(f"#/matches/{history.open}")
    page.reload()
    wait_step(page, 0)
    assert replay_state(page)["id"] == history.open


# --- continuing -------------------------------------------------------------------------


def test_continue_from_a_step_then_play_with_the_why_panel(hpage: Any, history: History) -> None:
    page = hpage
    meta = info(history, history.won)
    states = list(history.store.load_replay(history.won).states(verify=False))
    step = next(
        i
        for i, s in enumerate(states)
        if i > 40 and s.pending and s.pending.seat == 0 and s.pending.prompt == "turn"
    )
    open_replay(page, history.won)
    page.eval_on_selector(
        "#rp-seek", "(e, n) => { e.value = String(n); e.dispatchEvent(new Event('input')); }", step
    )
    wait_step(page, step)
    note = page.inner_text("#rp-continue-note")
    assert "P1" in note
    before = view(page)
    page.click("#rp-continue")
    wait_view(page, "v.session.mode === 'vs_com' && v.history.live === true")
    live = view(page)
    assert live["session"]["you"] == 0 and live["session"]["com"] == {"1": "explaining"}
    assert live["pending"]["prompt_id"] == before["pending"]["prompt_id"]
    assert live["players"] == before["players"]
    assert page.is_hidden("#rp-play") and page.is_visible("#btn-undo")
    # The branch is recorded with its parent.
    branches = httpx2.get(f"{history.url}/api/matches", params={"source": "branch"}).json()
    assert branches["matches"][0]["parent"] == [history.won, step]
    assert meta["continue_com"]["0"] == "explaining"

    # Play on: COM answers, and the why panel says what it chose and why.
    assert page.is_visible("#why-panel")
    driver = Driver(page)
    play_first_options(driver, "!!(window.kobo.view && window.kobo.view.com_why)")
    settle(page)
    # COM's reasons wait for a playback of the chain to reach the present.
    page.wait_for_function("() => !document.body.dataset.playback")
    assert page.locator("#why .why-action strong").count() == 1
    play_first_options(
        driver,
        "!!(window.kobo.view && window.kobo.view.com_why && window.kobo.view.com_why.candidates)",
    )
    settle(page)
    page.wait_for_function("() => !document.body.dataset.playback")
    why = view(page)["com_why"]
    assert page.locator("#why .why-cand").count() == len(why["candidates"])
    assert page.locator("#why .why-cand.chosen").count() == 1
    shot(page, "history_05_continued_why")
    play_first_options(
        driver,
        "!!(window.kobo.view && window.kobo.view.com_why && window.kobo.view.com_why.hidden > 0)",
    )
    settle(page)
    assert "COMの手札に関わる判断のため候補は非表示" in page.inner_text("#why")
    shot(page, "history_06_why_hidden")

    # The fold is a setting, kept over a reload (which rejoins the game).
    page.click("#why-head")
    assert page.locator("#why-panel.folded").count() == 1
    page.reload()
    wait_view(page, "v.session.mode === 'vs_com'")
    assert page.locator("#why-panel.folded").count() == 1
    assert json.loads(page.evaluate("localStorage.getItem('kobo.settings')"))["whyOpen"] is False
    page.click("#why-head")

    # The history from the top bar sets the game aside; 対戦に戻る rejoins it.
    game_id = view(page)["session"]["id"]
    page.click("#btn-history")
    page.wait_for_selector("#history:not([hidden]) #mh-list .mh-row")
    assert "対戦に戻る" in page.inner_text("#mh-back")
    page.click("#mh-back")
    wait_view(page, f"v.session.id === '{game_id}'")


def test_delete_records_from_the_history_for_good(hpage: Any, history: History) -> None:
    """Two records selected and deleted (the first press asks, the second deletes): gone from
    the list and from the store; a match being played cannot be selected, and says why."""
    page = hpage
    replay, _ = play(["tempo", "swarm"], 21, steps=12)
    doomed = [
        history.store.add_match(
            NewMatch(
                replay=replay,
                players={"0": "human", "1": "heuristic"},
                source="server",
                created=T0 + (50 + i) * HOUR,
            )
        )
        for i in range(2)
    ]
    page.click("#open-history")
    page.wait_for_selector(f'#mh-list .mh-row[data-id="{doomed[1]}"]')
    for match_id in doomed:
        page.check(f'.mh-row[data-id="{match_id}"] .mh-pick-one')
    assert page.inner_text("#mh-select .mh-count") == "2件を選択中"
    page.click("#mh-delete")
    assert "もう一度押すと 2件を完全に削除" in page.inner_text("#mh-delete")
    assert history.store.info(doomed[0]).id == doomed[0]  # nothing deleted at the first press
    page.click("#mh-delete")
    page.wait_for_selector(f'#mh-list .mh-row[data-id="{doomed[0]}"]', state="detached")
    assert not set(doomed) & set(rows(page))
    assert not set(doomed) & {m.id for m in history.store.list_matches()}
    assert page.is_hidden("#mh-select")
    # A match being played: its box is disabled and carries the reason.
    page.click("#mh-back")
    page.wait_for_selector("#start:not([hidden])")
    page.click("#start-button")
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
    page.click("#btn-history")
    live = max(m.id for m in history.store.list_matches())
    box = page.locator(f'.mh-row[data-id="{live}"] .mh-pick-one')
    box.wait_for()
    assert box.is_disabled() and "削除できません" in (box.get_attribute("data-why") or "")
    assert "対戦中" in page.inner_text(f'.mh-row[data-id="{live}"]')

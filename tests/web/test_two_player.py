"""Two people in two browsers (and a spectator in a third): the invite link and the guest's own
deck chosen on joining, a whole Kōbō match and a TWGP game played by clicking on both sides,
undo asked and refused then accepted, a lost connection and its rejoin, a match lost on time,
and a rematch both seats accept (both pages and the spectator move to it, seats swapped).

Each person is a browser context of its own (its own storage: its own seat token). The pages
are driven like the one-player tests: the choices are read from the operation panel and
clicked, never computed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

from kessen.server.run import running
from kessen.store.records import MatchStore
from tests.web.conftest import VIEWPORT
from tests.web.driver import (
    _READY_ANY,
    _place_of,
    pending,
    pick,
    press,
    prompt_id,
    reach_choice,
    settle,
    shot,
    view,
    visible_options,
    wait_view,
)

PLAYBACK_WATCH = """(pace) => {
  if (!localStorage.getItem('kobo.settings')) {
    localStorage.setItem('kobo.settings', JSON.stringify({ resolvePace: pace }));
  }
  window.playbacks = 0;
  new MutationObserver(() => {
    const on = !!document.querySelector('#kb-playback');
    if (on && !window.playbackOn) window.playbacks += 1;
    window.playbackOn = on;
  }).observe(document, { childList: true, subtree: true });
}"""
"""Kōbō's chain playback at ``pace`` (unless the browser chose one), counted in
``window.playbacks``."""


@contextmanager
def opened_after(step: Any) -> Iterator[None]:
    """Run ``step`` (between two pages opened in one ``with``)."""
    step()
    yield


@contextmanager
def person(
    browser: Any, server: str, url: str | None = None, pace: str | None = None
) -> Iterator[Any]:
    """A page in a browser context of its own (Kōbō's chain playback at ``pace``, counted);
    fails on any JavaScript error."""
    ctx = browser.new_context(viewport=VIEWPORT, locale="ja-JP")
    if pace is not None:
        ctx.add_init_script(script=f"({PLAYBACK_WATCH})({json.dumps(pace)})")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_default_timeout(20_000)
    page.goto(url or server)
    try:
        yield page
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def create(page: Any, ruleset: str, seed: int, config: dict[str, Any], **extra: Any) -> str:
    """Fill in the start screen for 友達と対戦 and press 対戦開始 (``config`` and ``extra`` are
    added to the request: a short match); return the invite link the page shows."""

    def handle(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        body["config"] = {**body.get("config", {}), **config}
        body.update(extra)
        route.continue_(post_data=json.dumps(body))

    page.route("**/api/games", handle)
    page.wait_for_selector("#start:not([hidden])")
    page.check(f'input[name=game][value="{ruleset}"]')
    page.check('input[name=mode][value="vs_human"]')
    assert page.is_visible("#friend-options") and page.is_hidden("#com-level")
    page.click("#start .advanced summary")
    assert page.is_hidden("#seed")  # the server deals a match between two people
    if ruleset == "kobo":
        shot(page, "two_player_00_start_screen")
    # The server's own draw, made the test's known deal (the server runs in this process).
    with mock.patch("kessen.server.deal.draw_seed", lambda: seed):
        page.click("#start-button")
        page.wait_for_selector("#friend-invite")
    link: str = page.input_value("#friend-invite")
    assert "#join=" in link
    return link


def accept_invite(page: Any, choice: Any = None, shot_name: str | None = None) -> None:
    """On the join screen the invite link opened: pick ``choice`` (a starter's name; None
    keeps the default) and press 参加する; wait until the page plays seat 1."""
    page.wait_for_selector("#join-dialog")
    if choice is not None:
        value = page.eval_on_selector(
            f"#join-deck option[data-choice='{json.dumps(choice)}']", "o => o.value"
        )
        page.select_option("#join-deck", value)
    if shot_name:
        shot(page, shot_name)
    page.click("#join-submit")
    wait_view(page, "v.session.you === 1 && !v.waiting")


def ready(page: Any) -> str:
    """What ``page`` offers now: ``act``, ``confirm``, ``overlay:...`` or ``''``."""
    return str(page.evaluate(_READY_ANY) or "")


def choose(page: Any, ruleset: str) -> None:
    """Make one choice on a page whose seat decides: the policy's pick among the offered
    buttons (TWGP's secret build: the glowing pool cards), clicked; wait until it is taken."""
    settle(page)
    now = pending(page)
    assert now is not None
    options = visible_options(page)
    if ruleset == "twgp" and now["prompt"] == "build":
        options = [a for a in now["legal"] if a != "done"] or options
    assert options and set(options) <= set(now["legal"]), (options, now["legal"])
    choice = pick(ruleset, options)
    before = prompt_id(page)
    place = _place_of(page, ruleset, choice, now)
    if not place:
        reach_choice(page, f'#ops button.act[data-action="{choice}"]', False)
    press(page, place or f'#ops button.act[data-action="{choice}"]', False, corner=bool(place))
    page.wait_for_function(
        f"""() => document.body.dataset.promptId !== '{before}'
            || !document.querySelector('#overlay').hidden
            || !!document.querySelector('#ops .confirm')"""
    )


def play(pages: list[Any], ruleset: str, limit: int, each: Any = None) -> int:
    """Both seats click until the match is over on both pages; ``each(page, moves)`` runs
    before every choice (and may act itself: then it returns True). Returns the choices."""
    moves = 0
    for _ in range(limit):
        states = [ready(p) for p in pages]
        over = "overlay:match" if ruleset == "kobo" else "overlay"
        if all(s.startswith(over) for s in states):
            return moves
        acted = False
        for page, state in zip(pages, states, strict=True):
            if state == "overlay:game" and ruleset == "kobo":
                page.click("#overlay-continue")
                acted = True
            elif state == "confirm":
                before = prompt_id(page)
                page.click("#ops .confirm-yes")
                page.wait_for_function(f"() => document.body.dataset.promptId !== '{before}'")
                acted = True
            elif state == "act":
                if each is not None and each(page, moves):
                    acted = True
                    continue
                choose(page, ruleset)
                moves += 1
                acted = True
        if not acted:
            pages[0].wait_for_timeout(40)
    raise AssertionError(f"no end after {limit} rounds")


def test_a_whole_kobo_match_between_two_people_with_a_spectator(browser: Any, server: str) -> None:
    with person(browser, server, pace="off") as host:
        # Both seats clicking the first choice, these decks and seed end in about 55 choices.
        link = create(host, "kobo", 5, {"best_of": 1}, decks=["fortress", "vanguard"])
        shot(host, "two_player_01_invite")
        assert host.inner_text("#friend-bar").count("#join=") == 0  # links are in inputs
        assert host.is_visible("#friend-waiting")
        # The creator opening its own invite by mistake stays seat 0, and spends nothing.
        mine = host.context.new_page()
        mine.goto(link)
        wait_view(mine, "v.session.you === 0 && !!v.session.table.invite")
        mine.close()
        with (
            person(browser, server, link, pace="fast") as guest,
            opened_after(lambda: accept_invite(guest)),
            person(browser, server, link, pace="fast") as watcher,
        ):
            wait_view(guest, "v.session.you === 1")
            wait_view(watcher, "v.session.you === null")  # a used link: the observer
            assert "この招待リンクの席はすでに埋まっています" in watcher.inner_text("#toasts")
            host.wait_for_selector("#friend-invite", state="detached")
            assert view(guest)["session"]["table"]["invite"] is None
            # The observer sees neither hand.
            first = view(watcher)
            assert all(p["hand"].get("cards") is None for p in first["players"])
            assert watcher.locator("#ops button.act").count() == 0
            undo = {"refused": False, "accepted": False}
            pages = [host, guest]

            def each(page: Any, moves: int) -> bool:
                if moves == 30:
                    shot(host, "two_player_02_host_mid_match")
                    shot(guest, "two_player_03_guest_mid_match")
                    shot(watcher, "two_player_04_spectator")
                if moves < 6 or undo["accepted"]:
                    return False
                v = view(page)
                if not v["history"]["can_undo"]:
                    return False
                # Ask to take the last decision back: the other seat refuses, then accepts.
                other = pages[1 - v["session"]["you"]]
                page.click("#btn-undo")
                other.wait_for_selector("#undo-accept")
                if not undo["refused"]:
                    shot(other, "two_player_05_undo_asked")
                    other.click("#undo-refuse")
                    notice = "v.session.table.undo_notice"
                    wait_view(page, f"{notice} && !{notice}.accepted")
                    undo["refused"] = True
                    return False
                steps = v["history"]["steps"]
                other.click("#undo-accept")
                wait_view(page, f"v.history.steps < {steps}")
                undo["accepted"] = True
                return True

            moves = play(pages, "kobo", 600, each)
            assert all(undo.values()), undo
            wait_view(watcher, "v.match.over")
            final = view(watcher)
            assert final["match"]["over"] and moves > 30
            shot(watcher, "two_player_06_spectator_match_over")
            for page in pages:
                assert view(page)["match"]["over"]
                # Kōbō's own result dialog offers 再戦 between two people, not もう一度.
                page.wait_for_selector("#overlay .match-over #overlay-rematch-ask")
                assert page.locator("#overlay-again").count() == 0
            watcher.wait_for_selector("#overlay .match-over")
            assert watcher.locator("#overlay-again, #overlay-rematch-ask").count() == 0
            # Closed chains played back for a seat and for the spectator (the host chose none).
            assert guest.evaluate("window.playbacks") > 0
            assert watcher.evaluate("window.playbacks") > 0
            assert host.evaluate("window.playbacks") == 0


def test_a_twgp_game_a_lost_connection_and_a_clock_that_runs_out(browser: Any, server: str) -> None:
    quick = {"quickStart": True}
    with person(browser, server) as host:
        link = create(host, "twgp", 40, quick, clock={"bank": 60, "increment": 1})
        with person(browser, server, link) as guest:
            accept_invite(guest)
            wait_view(host, "v.session.table.joined")
            assert host.locator("#friend-bar .fb-clock").count() == 2
            moves = play([host, guest], "twgp", 900)
            assert moves > 4
            for page in (host, guest):
                wait_view(page, "!!v.outcome")

    # A lost connection and its rejoin, then a clock that runs out (a tiny bank).
    with person(browser, server) as host:
        link = create(host, "twgp", 4, quick, clock={"bank": 8, "increment": 0})
        guest_ctx = browser.new_context(viewport=VIEWPORT, locale="ja-JP")
        try:
            guest = guest_ctx.new_page()
            guest.goto(link)
            accept_invite(guest)
            wait_view(host, "v.session.table.present[1]")
            guest.close()  # the guest's tab is gone: the host sees it, with the grace left
            host.wait_for_selector("#friend-away-1")
            assert "接続が切れました" in host.inner_text("#friend-away-1")
            shot(host, "two_player_07_opponent_away")
            host.click('#topbar [data-lang="en"]')  # every text of the bar in English too
            host.wait_for_function(
                "() => document.querySelector('#friend-away-1').textContent.includes('lost')"
            )
            shot(host, "two_player_07b_opponent_away_en")
            host.click('#topbar [data-lang="ja"]')
            again = guest_ctx.new_page()  # the same browser comes back to its seat
            again.goto(server)
            wait_view(again, "v.session.you === 1")
            host.wait_for_selector("#friend-away-1", state="detached")
            # Nobody moves: the seat that decides runs out of time and loses.
            for page in (host, again):
                page.wait_for_selector("#friend-ended", timeout=20_000)
            ended = view(host)["session"]["table"]["ended"]
            assert ended["reason"] == "timeout"
            assert ("勝ち" if ended["winner"] == 0 else "負け") in host.inner_text("#friend-ended")
            shot(host, "two_player_08_timeout")
            assert host.is_visible("#btn-showall")  # the match is over: everything may show
        finally:
            guest_ctx.close()


def test_a_seat_resigns_and_both_seats_and_the_spectator_see_the_end(
    browser: Any, tmp_path: Path
) -> None:
    store = MatchStore(tmp_path / "matches.sqlite3")  # a server with a store: 対戦記録 too
    with running(pace=0.0, store=store) as server, person(browser, server) as host:
        link = create(host, "twgp", 6, {"quickStart": True})
        with (
            person(browser, server, link) as guest,
            opened_after(lambda: accept_invite(guest)),
            person(browser, server, link) as watcher,
        ):
            wait_view(guest, "v.session.you === 1")
            wait_view(watcher, "v.session.you === null")
            # TWGP's banner names a person, not COM, while the other seat decides.
            wait_view(host, "!!v.pending && v.session.table.present[1]")
            seat = view(host)["pending"]["seat"]
            waiting = [host, guest][1 - seat]
            banner = waiting.wait_for_selector(".tw-banner.theirs .banner-text").inner_text()
            assert "相手が" in banner and "COM" not in banner, banner
            assert watcher.locator("#friend-resign").count() == 0  # a spectator cannot resign
            # 投了: the first press asks, the second resigns.
            guest.click("#friend-resign")
            assert "もう一度" in guest.inner_text("#friend-resign")
            assert view(guest)["session"]["table"]["ended"] is None
            guest.click("#friend-resign")
            for page in (host, guest, watcher):
                page.wait_for_selector("#friend-ended")
                assert page.locator("#friend-resign").count() == 0
            assert view(host)["session"]["table"]["ended"] == {"winner": 0, "reason": "resign"}
            assert "あなたの勝ち" in host.inner_text("#friend-ended")
            assert "投了しました" in guest.inner_text("#friend-ended")
            assert "P2が投了" in watcher.inner_text("#friend-ended")
            # Everyone gets the result dialog, in their own words.
            for page, title, line in (
                (host, "あなたの勝ち", "相手が投了しました。"),
                (guest, "あなたの負け", "あなたが投了しました。"),
                (watcher, "P1の勝ち", "P2が投了しました。"),
            ):
                page.wait_for_selector("#overlay:not([hidden]) .match-over")
                assert page.inner_text("#overlay .modal-title") == title
                assert page.inner_text("#overlay .modal-line") == line
                assert page.locator("#overlay-again").count() == 0  # a rematch asks both
                rematch = page.locator("#overlay-rematch-ask").count()
                assert rematch == (0 if page is watcher else 1)
                page.click("#overlay-board")
            assert guest.is_disabled("#btn-undo")
            shot(watcher, "two_player_09_resigned_spectator")
            # 対戦記録 names the seats: 「あなた」 only for the seat this browser played.
            for page, players, result in (
                (host, "あなた（P1） vs P2", "あなたの勝ち（投了）"),
                (guest, "P1 vs あなた（P2）", "P1の勝ち（投了）"),
                (watcher, "P1 vs P2", "P1の勝ち（投了）"),
            ):
                page.click("#btn-history")
                row = page.wait_for_selector("#history:not([hidden]) #mh-list .mh-row")
                assert row is not None
                assert row.query_selector(".mh-players").inner_text() == players
                assert row.query_selector(".mh-result").inner_text() == result
    store.close()


def test_a_seat_that_leaves_for_good_abandons_and_everyone_sees_the_end(
    browser: Any, tmp_path: Path
) -> None:
    """No clock: the guest's tab closes and stays closed past its grace (shortened here from
    60 s): the match ends off the board, ``abandon``, with the result for the host and the
    spectator in their words, undo disabled, and the history lists it as finished."""
    from kessen.server.app import create_app
    from tests.serving import running as serve

    store = MatchStore(tmp_path / "matches.sqlite3")
    app = create_app(pace=0.0, store=store, default_com="heuristic")
    with serve(app) as server, person(browser, server) as host:
        link = create(host, "maken", 7, {})
        guest_ctx = browser.new_context(viewport=VIEWPORT, locale="ja-JP")
        try:
            guest = guest_ctx.new_page()
            guest.goto(link)
            accept_invite(guest)
            with person(browser, server, link) as watcher:
                wait_view(watcher, "v.session.you === null")
                wait_view(host, "v.session.table.present[1]")
                # The table bar is a strip above the table, never over the board.
                over = host.evaluate(
                    "document.querySelector('#friend-bar').getBoundingClientRect().bottom"
                    " - document.querySelector('#table').getBoundingClientRect().top"
                )
                assert over <= 1, f"the table bar covers {over:.0f} px of the table"
                [session] = [s for s in app.state.hub.sessions.values() if s.table]
                session.table.grace = 2.0  # the test's patience, not the player's 60 s
                guest.close()
                for page in (host, watcher):
                    page.wait_for_selector("#overlay:not([hidden]) .match-over", timeout=20_000)
                assert view(host)["session"]["ended"] == {
                    "winner": 0,
                    "reason": "abandon",
                    "off_board": True,
                }
                for page, title, line in (
                    (host, "あなたの勝ち", "相手が対戦を離れ、戻りませんでした。"),
                    (watcher, "P1の勝ち", "P2が対戦を離れ、戻りませんでした。"),
                ):
                    assert page.inner_text("#overlay .modal-title") == title
                    assert page.inner_text("#overlay .modal-line") == line
                    page.click("#overlay-board")
                    settle(page)
                    assert "対戦終了" in page.inner_text(".mk-banner")
                    assert line in page.inner_text("#friend-ended")
                assert host.is_disabled("#btn-undo")
                shot(host, "two_player_10_abandoned")
                listed = host.evaluate("fetch('/api/matches').then(r => r.text())")
                rows = json.loads(listed)["matches"]
                assert [(r["state"], r["reason"]) for r in rows] == [("finished", "abandon")]
                host.click("#btn-history")
                host.wait_for_selector("#history:not([hidden]) .mh-row")
                assert "あなたの勝ち（離脱）" in host.inner_text("#history .mh-row")
        finally:
            guest_ctx.close()
    store.close()

"""Two people in two browsers and a spectator in a third: the guest picks their own deck on the
join screen (one the host did not pick), they play, a seat resigns, both ask for a rematch in the
result dialog, and all three pages land in the next match with the seats swapped (the guest is
P1 now, each with their own deck).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from unittest import mock

from kessen.server.run import running
from kessen.store.records import MatchStore
from tests.web.driver import shot, view, wait_view
from tests.web.test_two_player import accept_invite, choose, person


def test_the_guest_picks_a_deck_someone_resigns_and_both_accept_a_rematch(
    browser: Any, tmp_path: Path
) -> None:
    store = MatchStore(tmp_path / "matches.sqlite3")
    with running(pace=0.0, store=store) as server, person(browser, server, pace="off") as host:
        host.wait_for_selector("#start:not([hidden])")
        host.check('input[name=game][value="kobo"]')
        host.check('input[name=mode][value="vs_human"]')
        # The host picks only their own deck: the friend picks theirs on joining.
        assert host.is_visible("#deck-0") and host.is_hidden("#deck-1")
        host.select_option("#deck-0", "fortress")

        def short(route: Any) -> None:
            body = json.loads(route.request.post_data or "{}")
            body["config"] = {**body.get("config", {}), "best_of": 1}
            route.continue_(post_data=json.dumps(body))

        host.route("**/api/games", short)
        with mock.patch("kessen.server.deal.draw_seed", lambda: 5):
            host.click("#start-button")
            host.wait_for_selector("#friend-invite")
        link = host.input_value("#friend-invite")
        waiting = view(host)
        assert waiting["waiting"] is True and "players" not in waiting
        assert "友達の参加を待っています" in host.inner_text("#friend-bar")
        assert "相手が考えています" not in host.inner_text("body")
        shot(host, "rematch_01_host_waiting")
        with person(browser, server, link, pace="off") as guest:
            # The join screen: the game, the host's deck and rules in words, the guest's picker.
            guest.wait_for_selector("#join-dialog")
            words = guest.inner_text("#join-dialog")
            assert "鉄壁の籠城" in words and "1本勝負" in words and "best_of" not in words
            accept_invite(guest, "tempo", "rematch_02_guest_join_screen")
            first = view(guest)
            assert first["players"][1]["deck"]["slug"] == "tempo"
            assert first["players"][0]["deck"]["slug"] == "fortress"
            with person(browser, server, link, pace="off") as watcher:
                wait_view(watcher, "v.session.you === null && !v.waiting")
                old = first["session"]["id"]
                # One decision, then the guest resigns (pressed twice).
                wait_view(host, "!!v.pending")
                seat = view(host)["pending"]["seat"]
                choose([host, guest][seat], "kobo")
                guest.click("#friend-resign")
                guest.click("#friend-resign")
                for page in (host, guest, watcher):
                    page.wait_for_selector("#overlay:not([hidden]) .match-over")
                assert watcher.locator("#overlay-rematch-ask").count() == 0
                # The host asks; the guest is told, and accepts.
                host.click("#overlay-rematch-ask")
                for page, words in (
                    (guest, "相手が再戦を申し込んでいます"),
                    (host, "再戦の返事を待っています"),
                ):
                    page.wait_for_function(
                        "(w) => (document.querySelector('#overlay-rematch') || {}).textContent"
                        " === w",
                        arg=words,
                    )
                watcher.wait_for_selector("#friend-rematch")
                assert "P1が再戦を申し込んでいます" in watcher.inner_text("#friend-rematch")
                assert host.is_disabled("#overlay-rematch-ask")
                shot(guest, "rematch_03_guest_asked")
                guest.click("#overlay-rematch-ask")
                # All three land in the next match: the guest is P1 now, each with their deck.
                new = f"v.session.id !== '{old}' && !v.waiting && !!v.players"
                wait_view(guest, f"{new} && v.session.you === 0")
                wait_view(host, f"{new} && v.session.you === 1")
                wait_view(watcher, f"{new} && v.session.you === null")
                after = view(guest)
                assert after["players"][0]["deck"]["slug"] == "tempo"
                assert after["players"][1]["deck"]["slug"] == "fortress"
                assert view(host)["session"]["id"] == view(watcher)["session"]["id"]
                assert host.is_hidden("#overlay") and guest.is_hidden("#overlay")
                shot(guest, "rematch_04_guest_is_p1")
                shot(host, "rematch_05_host_is_p2")
    store.close()

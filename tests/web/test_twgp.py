"""TWGP トランプ版 in the browser: a whole game against COM played only by clicking, COM vs COM
watched to the end, undo/redo, CARD INFORMATION and the language switch on the TWGP board, and a
recorded TWGP game in the match history and its replay viewer.

The clicks come from what the page offers: the operation panel's buttons (checked at every step
to be exactly the view's legal list) and the glowing places of the board. The player follows a
simple fixed policy over the offered choices (build from chosen cards, summon, arm, attack when
stronger, answer a direct with an interrupter, accept), so the game is the same on every run:
the server's COM moves at once and its answers depend only on the seed and the prompt.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx2
import pytest

from kessen.server.run import running
from kessen.store.records import MatchStore
from tests.web.driver import fold_measured, pending, reach_choice, settle, shot, view, wait_view

SEED = 11
LIMIT = 700

VITALS = ("s10", "c10", "sk")
ASIDE = ("s9", "c9", "s8")
HAND = ("sa", "s2", "s3", "c2", "sj", "sq")


# --- helpers -----------------------------------------------------------------------------


def start_twgp(
    page: Any, mode: str = "vs_com", seed: int | None = SEED, quick: bool = False
) -> None:
    """Choose TWGP on the start screen, the mode and the seed, and press 対戦開始."""
    page.wait_for_selector("#start:not([hidden])")
    page.check('input[name=game][value="twgp"]')
    page.wait_for_selector("#twgp-options:not([hidden]) #tw-quick")
    page.check(f'input[name=mode][value="{mode}"]')
    if quick:
        page.check("#tw-quick")
    if seed is not None:
        page.click("#start details.advanced summary")
        page.fill("#seed", str(seed))
    page.click("#start-button")
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
    page.wait_for_selector("#tw-board .tw-half.bottom")


def ready(page: Any, timeout: float = 20_000) -> str:
    """Wait until the page offers a choice (``act``) or shows the end of the game."""
    handle = page.wait_for_function(
        """() => {
          const o = document.querySelector('#overlay');
          if (o && !o.hidden) return 'over';
          if (document.body.dataset.myTurn === '1'
              && document.querySelector('#ops button.act:not([disabled])')) return 'act';
          return false;
        }""",
        timeout=timeout,
    )
    return str(handle.json_value())


def offered(page: Any) -> list[str]:
    """The actions of the operation panel (all of them, folded groups included); they must be
    exactly the legal list of the view, and every glowing place must belong to one of them."""
    now = pending(page)
    assert now is not None and now["legal"] is not None
    found: list[str] = page.evaluate(
        "Array.from(document.querySelectorAll('#ops button.act'), b => b.dataset.action)"
    )
    assert sorted(found) == sorted(now["legal"]), (found, now["legal"])
    return found


def moved_on(page: Any, before: str) -> None:
    page.wait_for_function(
        f"""() => document.body.dataset.promptId !== '{before}'
            || !document.querySelector('#overlay').hidden""",
        timeout=20_000,
    )
    settle(page)


def click_action(page: Any, action: str) -> None:
    """Press the button of ``action``, unfolding its group (or clearing a board selection)
    first when it is hidden; wait until the game has moved on."""
    before = str(page.evaluate("document.body.dataset.promptId"))
    button = page.locator(f'#ops button.act[data-action="{action}"]')
    if "beyond" in (button.get_attribute("class") or ""):  # under the panel's fold
        reach_choice(page, f'#ops button.act[data-action="{action}"]', False)
    if (
        not button.is_visible()
        and page.is_visible("#ops-more")
        and not page.evaluate("document.body.dataset.sheet === 'open'")
    ):
        page.click("#ops-more")  # the group's toggle may be under the panel's fold
        page.wait_for_function("() => document.body.dataset.sheet === 'open'")
    if not button.is_visible() and page.locator("#ops .tw-clear-focus").count():
        page.click("#ops .tw-clear-focus")
    if not button.is_visible():
        group = page.evaluate(
            f"""document.querySelector('#ops button.act[data-action="{action}"]')
                .closest('.tw-group').dataset.group"""
        )
        # ``force``: a real mouse click on the toggle where it is drawn, without waiting for
        # the panel to be still; on a loaded machine (CI's two cores running browsers in
        # parallel) the wait for a "stable" element timed out once while the panel redrew.
        page.click(f'#ops .tw-group-toggle[data-group="{group}"]', force=True)
    fold_measured(page)
    if "beyond" in (button.get_attribute("class") or ""):
        reach_choice(page, f'#ops button.act[data-action="{action}"]', False)
    button.wait_for(state="visible")
    page.wait_for_function(
        f"""() => {{ const b = document.querySelector('#ops button.act[data-action="{action}"]');
            return !!b && !b.disabled; }}"""
    )
    button.click(force=True)
    moved_on(page, before)


def click_place(page: Any, ref: str, narrows: bool = True) -> None:
    """Press a glowing place of the board (it must glow: a legal action involves it); when
    it ``narrows`` the choices, wait until it is drawn as selected."""
    place = f'#tw-board [data-ref="{ref}"]'
    assert page.evaluate(f"""!!document.querySelector('{place}.tw-sel')"""), ref
    page.click(place, position={"x": 8, "y": 10})  # the corner: fanned cards overlap
    if narrows:
        page.wait_for_selector(f"{place}.tw-focused")


def choose(state: dict[str, Any], options: list[str]) -> str:
    """The fixed policy: which of the offered actions to take."""
    prompt = state["pending"]["prompt"]
    seat = state["pending"]["seat"]
    me, opp = state["players"][seat], state["players"][1 - seat]

    def first(*verbs: str) -> str | None:
        for verb in verbs:
            for option in options:
                if option.split()[0] == verb:
                    return option
        return None

    if prompt == "setup":
        return first("setup", "done") or options[0]
    if prompt == "build_window":
        stacks = [s for s in me["battle"] if s]
        if len(stacks) < 2 and (drive := first("charge-drive")):
            return drive
        return first("setup", "power-drive", "attach", "reactive", "battle") or options[0]
    if prompt == "battle_window":
        if direct := first("direct"):
            return direct
        for option in options:
            words = option.split()
            if words[0] == "assault":
                attacker = me["battle"][int(words[1]) - 1]
                target = opp["battle"][int(words[2]) - 1]
                if target and target["pow"] is not None and attacker["pow"] > target["pow"]:
                    return option
        return first("end") or options[0]
    if prompt == "response":
        attack = state["attack"]
        open_direct = attack["type"] == "direct" and not attack["interrupter"]
        if open_direct and (drive := first("charge-drive")):
            return drive
        return first("counter-drive", "attach", "accept") or options[0]
    if prompt == "damage":
        return first("full-charge", "setup", "charge-drive", "reactive", "done") or options[0]
    return options[0]


# --- a whole game against COM --------------------------------------------------------------


def test_whole_twgp_game_against_com_by_clicking(page: Any) -> None:
    # The stepped playback of each fight and the screen's motion are off (the player's own
    # settings; the playback has its own tests in test_twgp_clarity.py): a whole game stays quick.
    page.evaluate(
        "localStorage.setItem('kobo.settings', JSON.stringify({resolvePace: 'off', motion: 'off'}))"
    )
    page.reload()
    page.wait_for_selector("#start:not([hidden])")
    page.check('input[name=game][value="twgp"]')
    page.wait_for_selector("#twgp-options:not([hidden])")
    assert page.is_hidden("#kobo-options")
    assert "TWGP" in page.inner_text("#start-logo")
    shot(page, "twgp_01_start_screen")
    start_twgp(page, "vs_com", SEED)
    first = view(page)
    assert first["ruleset"] == "twgp" and first["phase"] == "setup"
    assert first["players"][1]["pool"]["cards"] is None  # COM's pool stays hidden

    seen: dict[str, bool] = {
        "build": False,
        "board_narrowing": False,
        "my_attack": False,
        "my_response": False,
        "weapons": False,
        "sideways": False,
        "vital_lost": False,
        "undo_redo": False,
        "info": False,
    }
    shots: set[str] = set()

    def once(name: str) -> None:
        if name not in shots:
            shots.add(name)
            shot(page, name)

    clicks = 0
    for _ in range(LIMIT):
        if ready(page) == "over":
            break
        options = offered(page)
        state = view(page)
        prompt = state["pending"]["prompt"]
        me = state["players"][0]

        if prompt == "build":
            # The secret build: click the pool cards on the board, one per choice.
            seen["build"] = True
            stage = state["pending"]["context"]["stage"]
            wanted = {"vitals": VITALS, "aside": ASIDE, "hand": HAND}[stage]
            pool = {c["slug"] for c in me["pool"]["cards"]}
            slug = next((s for s in wanted if s in pool), None)
            if stage == "vitals" and len(pool) == 26:
                once("twgp_02_build_pool")
            if slug is None:
                click_action(page, "done")
            else:
                before = str(page.evaluate("document.body.dataset.promptId"))
                click_place(page, f"p:0:{slug}", narrows=False)
                moved_on(page, before)
            clicks += 1
            continue

        if any(s and s["weapons"] for p in state["players"] for s in p["battle"]):
            seen["weapons"] = True
            once("twgp_05_weapons_and_frames")
        if any(s and s["pose"] == "save" for p in state["players"] for s in p["battle"]):
            seen["sideways"] = True
        if any(v["face"] == "up" for p in state["players"] for v in p["vitals"]):
            seen["vital_lost"] = True
            once("twgp_07_vital_effect")
        if prompt == "build_window":
            once("twgp_03_first_build_window")

        choice = choose(state, options)
        verb = choice.split()[0]

        if prompt == "response":
            seen["my_response"] = True
            assert page.is_visible("#tw-center.response")
            assert page.is_visible("#ops .tw-resp-prompt")
            once("twgp_06_my_response_window")

        if verb in ("charge-drive", "attach") and not seen["board_narrowing"]:
            # Narrow the choices on the board: the hand card, then the square.
            words = choice.split()
            click_place(page, f"h:0:{words[1]}")
            click_place(page, f"b:0:{words[2]}")
            narrowed = page.evaluate(
                "Array.from(document.querySelectorAll('#ops button.act:not(.tw-filtered)'),"
                " b => b.dataset.action)"
            )
            assert choice in narrowed and len(narrowed) <= 2, narrowed
            assert all(words[1] in a and words[2] in a.split()[2:] for a in narrowed), narrowed
            once("twgp_04_board_narrowing")
            seen["board_narrowing"] = True

        if verb in ("assault", "direct", "boost"):
            seen["my_attack"] = True

        if clicks == 30 and not seen["undo_redo"]:
            # Take the last decision back, then play it again: the same prompt returns.
            before = str(page.evaluate("document.body.dataset.promptId"))
            assert not page.is_disabled("#btn-undo")
            page.click("#btn-undo")
            page.wait_for_function(f"() => document.body.dataset.promptId !== '{before}'")
            settle(page)
            shot(page, "twgp_08a_after_undo")
            assert not page.is_disabled("#btn-redo")
            page.click("#btn-redo")
            page.wait_for_function(f"() => document.body.dataset.promptId === '{before}'")
            settle(page)
            assert sorted(offered(page)) == sorted(options)
            seen["undo_redo"] = True
            continue

        if not seen["info"] and any(s for s in me["battle"]):
            square = next(i for i, s in enumerate(me["battle"], 1) if s)
            stack = me["battle"][square - 1]
            page.click(f'#tw-board [data-ref="b:0:{square}"] .tw-stack')
            info = page.inner_text("#cardinfo-body")
            assert stack["unit"]["label"] in info and "パワー" in info, info
            assert "マス" in info
            seen["info"] = True

        click_action(page, choice)
        clicks += 1
    else:
        raise AssertionError("the game did not end")

    shot(page, "twgp_09_game_over")
    final = view(page)
    assert final["outcome"] is not None
    assert pending(page) is None
    assert page.is_visible("#overlay-again")
    assert all(seen.values()), seen
    print(f"{clicks} clicks; outcome {final['outcome']}")

    # The board under the result: the log and the one result in the history panel.
    page.click("#overlay-board")
    assert page.is_hidden("#overlay")
    assert page.locator("#results .result").count() == 1
    assert page.locator("#log .entry.k-game_over").count() == 1
    shot(page, "twgp_10_final_board")


# --- COM vs COM ----------------------------------------------------------------------------


def test_twgp_com_vs_com_watched_to_the_end(page: Any) -> None:
    start_twgp(page, "com_vs_com", seed=23)
    assert page.locator("#ops button.act").count() == 0
    page.wait_for_selector('#overlay[data-kind="match"]:not([hidden])', timeout=120_000)
    shot(page, "twgp_11_watch_over")
    final = view(page)
    assert final["session"]["mode"] == "com_vs_com" and final["session"]["you"] is None
    assert final["outcome"] is not None
    assert any("P1" in e["text"] or "P2" in e["text"] for e in final["log"])
    page.click("#overlay-board")

    # すべて表示 shows both hands and every face-down card.
    page.click("#btn-showall")
    wait_view(page, "v.session.show_all === true")
    assert view(page)["players"][1]["hand"]["cards"] is not None
    shot(page, "twgp_12_watch_show_all")

    # Back through the history, then live again.
    steps = final["history"]["steps"]
    page.click("#btn-undo")
    wait_view(page, "v.history.live === false")
    assert view(page)["history"]["step"] == steps - 1
    assert "履歴" in page.inner_text("#tw-center")
    page.click("#btn-live")
    wait_view(page, "v.history.live === true")


# --- undo / redo, CARD INFORMATION and the language switch --------------------------------


def test_twgp_undo_redo_info_and_language(page: Any) -> None:
    start_twgp(page, "vs_com", seed=5, quick=True)
    # Play until seat 0 holds a unit on the board during its own build window, right after a
    # decision of its own that taught it nothing (kobo-rules.md §7: only those can be undone).
    reasons: set[str] = set()
    for _ in range(200):
        ready(page)
        state = view(page)
        options = offered(page)
        if not state["history"]["can_undo"]:
            assert page.is_disabled("#btn-undo")
            reasons.add(str(page.get_attribute("#btn-undo", "title")))
        elif state["pending"]["prompt"] == "build_window" and any(state["players"][0]["battle"]):
            break
        click_action(page, choose(state, options))
    else:
        raise AssertionError("no unit reached the board with an undo to take")
    # A disabled 一つ戻る says why, in the page's language (never the server's English).
    assert reasons and all(r and not r.isascii() for r in reasons), reasons

    # Undo takes back seat 0's last decision; redo plays it again.
    before = view(page)
    page.click("#btn-undo")
    wait_view(page, f"v.history.step < {before['history']['step']}")
    assert view(page)["pending"]["prompt_id"] != before["pending"]["prompt_id"]
    page.click("#btn-redo")
    wait_view(page, f"v.history.step === {before['history']['step']}")
    after = view(page)
    assert after["pending"] == before["pending"]
    assert after["players"] == before["players"]

    # CARD INFORMATION: an own stack, a face-down charge card of the opponent, the surge.
    square = next(i for i, s in enumerate(after["players"][0]["battle"], 1) if s)
    page.click(f'#tw-board [data-ref="b:0:{square}"]')
    info = page.inner_text("#cardinfo-body")
    assert after["players"][0]["battle"][square - 1]["unit"]["name"] in info
    assert "アクティヴ" in info or "セーヴ" in info or "ステルス" in info
    shot(page, "twgp_13_card_information")
    charges = [i for i, c in enumerate(after["players"][1]["charge"], 1) if c]
    if charges:
        page.click(f'#tw-board [data-ref="c:1:{charges[0]}"]')
        assert "非公開" in page.inner_text("#cardinfo-body")
    page.click('#tw-board [data-ref="surge:0"]')
    assert "サージ" in page.inner_text("#cardinfo-body")

    # English: the board, the choices, the log and CARD INFORMATION switch language.
    page.click('#topbar [data-lang="en"]')
    wait_view(page, "v.lang === 'en'")
    page.wait_for_function(
        "() => document.querySelector('#ops .ops-title').textContent === 'Build window'"
    )
    board = page.inner_text("#tw-board")
    assert "Battle" in board and "Charge" in board and "Surge" in board
    assert "To the battle phase" in page.inner_text("#ops")
    assert page.inner_text("#log-title") == "Log"
    assert all(ord(ch) < 0x3000 for ch in view(page)["log"][-1]["text"])
    shot(page, "twgp_14_english")
    page.click('#topbar [data-lang="ja"]')
    wait_view(page, "v.lang === 'ja'")
    page.wait_for_function(
        "() => document.querySelector('#ops .ops-title').textContent === 'ビルド・ウィンドウ'"
    )
    assert "バトル" in page.inner_text("#tw-board")


# --- recorded TWGP matches ------------------------------------------------------------------


RANDOM_SEEDS = (67, 141, 241)
"""Random COM vs COM games in which every pose appears at once (random COMs declare G-blasts,
the heuristic one does not)."""


@dataclass
class Recorded:
    """A server with a match store: one heuristic TWGP game, random ones, one Kōbō match."""

    url: str
    heuristic: int
    random: list[int]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Recorded]:
    store = MatchStore(tmp_path_factory.mktemp("twgp-history") / "matches.sqlite3")
    quick = {"quickStart": True}
    with running(pace=0.0, store=store) as url:
        games = [{"ruleset": "twgp", "mode": "com_vs_com", "seed": 3, "config": quick}]
        games += [
            {"ruleset": "twgp", "mode": "com_vs_com", "com": "random", "seed": s, "config": quick}
            for s in RANDOM_SEEDS
        ]
        games.append({"mode": "com_vs_com", "seed": 3, "decks": ["swarm", "tempo"]})
        for body in games:
            assert httpx2.post(f"{url}/api/games", json=body, timeout=10).status_code == 200
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            rows = httpx2.get(f"{url}/api/matches", timeout=10).json()["matches"]
            if len(rows) == len(games) and all(r["finished"] for r in rows):
                break
            time.sleep(0.3)
        else:
            raise AssertionError("the recorded games did not finish")
        twgp = sorted((r["id"], r["players"]["0"]) for r in rows if r["ruleset"] == "twgp")
        yield Recorded(
            url,
            heuristic=next(i for i, p in twgp if p == "heuristic"),
            random=[i for i, p in twgp if p == "random"],
        )


def replay_page(context: Any, url: str) -> tuple[Any, list[str]]:
    """A page of ``url`` whose JavaScript errors are collected."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.set_default_timeout(20_000)
    page.goto(url)
    return page, errors


def seek(page: Any, step: int) -> None:
    """Move the replay viewer's slider to ``step`` and wait until it is drawn."""
    # Set and announce the value in one go: the panel may be redrawn between two calls.
    page.eval_on_selector(
        "#rp-seek", "(e, n) => { e.value = String(n); e.dispatchEvent(new Event('input')); }", step
    )
    page.wait_for_function(f"() => window.kobo.replay.step === {step}")
    settle(page)


def test_recorded_twgp_game_in_the_history_and_its_replay(context: Any, recorded: Recorded) -> None:
    match_id = recorded.heuristic
    page, errors = replay_page(context, f"{recorded.url}/#/matches")
    row = f'#mh-list .mh-row[data-id="{match_id}"]'
    page.wait_for_selector(row)
    assert "TWGP" in page.inner_text(f"{row} .mh-decks")
    assert page.locator("#mh-list .mh-row").count() == 2 + len(RANDOM_SEEDS)
    # The game filter lists TWGP games only.
    page.select_option("#f-game", "twgp")
    page.wait_for_function(
        f"() => document.querySelectorAll('#mh-list .mh-row').length === {1 + len(RANDOM_SEEDS)}"
    )
    shot(page, "twgp_15_history_list")

    page.click(row)
    page.wait_for_function("() => !!(window.kobo.replay && window.kobo.view)")
    page.wait_for_selector("#tw-board .tw-half.bottom")
    assert "ターン1 · P" in page.inner_text("#rp-turn")  # one game: no game number
    # Step forward by turns to the end: the finished game, seen by everyone.
    steps = page.evaluate("window.kobo.replay.steps")
    page.click("#rp-next-turn")
    page.wait_for_function("() => window.kobo.replay.step > 0")
    page.click("#rp-seat [data-value='all']")
    page.wait_for_function("() => window.kobo.replay.seat === 'all'")
    seek(page, steps)
    final = view(page)
    assert final["outcome"] is not None
    assert final["everything"] and final["players"][1]["hand"]["cards"] is not None
    assert "ゲーム終了" in page.inner_text("#tw-center")
    shot(page, "twgp_16_replay_end")

    # Continue from an earlier step as a new game against COM.
    page.click("#rp-prev-turn")
    page.wait_for_function(f"() => window.kobo.replay.step < {steps}")
    settle(page)
    page.click("#rp-continue")
    page.wait_for_function("() => !window.kobo.replay && !!window.kobo.view")
    live = view(page)
    assert live["ruleset"] == "twgp" and live["session"]["mode"] == "vs_com"
    assert not errors, errors
    page.close()


def test_the_four_poses_stacks_and_vitals_on_the_board(context: Any, recorded: Recorded) -> None:
    """A recorded position with a unit in each of the four poses (face up/down × upright/
    sideways), stacks with frames and weapons, and lost vitals beside the vital effect."""
    wanted = {"active", "save", "stealth", "gb"}
    found = None
    for match_id in recorded.random:
        data = httpx2.get(f"{recorded.url}/api/matches/{match_id}/replay?seat=0", timeout=30).json()
        for step, v in enumerate(data["views"]):
            stacks = [s for p in v["players"] for s in p["battle"] if s]
            poses = {s["pose"] for s in stacks}
            vitals = {x.get("status") for p in v["players"] for x in p["vitals"]}
            if (
                wanted <= poses
                and any(s["weapons"] for s in stacks)
                and any(s["frames"] for s in stacks)
                and "lost" in vitals
            ):
                found = (match_id, step)
                break
        if found:
            break
    assert found, "no recorded position shows every pose"
    match_id, step = found
    page, errors = replay_page(context, f"{recorded.url}/#/matches/{match_id}")
    page.wait_for_function("() => !!(window.kobo.replay && window.kobo.view)")
    seek(page, step)
    for pose in wanted:
        assert page.locator(f"#tw-board .tw-bsq.pose-{pose}").count() >= 1, pose
    assert page.locator("#tw-board .tw-stack.pose-save, #tw-board .tw-stack.pose-gb").count() >= 2
    assert page.locator("#tw-board .tw-weapon").count() >= 1
    assert page.locator("#tw-board .tw-frame-shadow").count() >= 1
    assert page.locator("#tw-board .tw-vsq.v-lost").count() >= 1
    assert page.locator("#tw-board .tw-vsq.v-effect").count() == 1
    assert page.locator("#tw-board .tw-gb-mark").count() >= 1
    shot(page, "twgp_17_four_poses")
    # CARD INFORMATION names the pose of a sideways face-down (G-blast) stack.
    page.click("#tw-board .tw-bsq.pose-gb")
    assert "グリッド・ブラスト宣言中" in page.inner_text("#cardinfo-body")
    assert not errors, errors
    page.close()

"""Kōbō's stepped playback of a closed chain tells nothing before its frame reaches it.

While a chain of three links (a Power Surge, a Target Change, a Power Surge) plays back link by
link, every frame is recorded as drawn: the log may show no entry of a later frame (no result
before the result frame, no clean-up, no next turn, no COM move before the playback ends), the
fight box's totals are the frame's own (at the result frame: the record's, the numbers the
result banner states), and the 攻撃対象 tag moves to the new target in the frame where the
Target Change resolves. Then the opening tactics pick: each card of the tactics deck is offered
once, with the copies the deck still holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from kessen.games.kobo.game import Side, board
from kessen.games.kobo.preview import resolution_record
from kessen.server.app import Hub
from tests.serving import Load, position_server
from tests.web.conftest import VIEWPORT
from tests.web.driver import (
    Driver,
    open_position,
    play_first_options,
    save_shot,
    settle,
    start_match,
)

PAD = ["hinder", "hinder", "hinder"]

# Every frame of a playback as drawn: its step, the fight box's totals, the result banner, the
# log entries on screen (index and kind) and the battle slots that carry the 攻撃対象 tag.
RECORDER = """
window.__pb = [];
const seen = () => {
  const box = document.querySelector('#kb-playback');
  if (!box) return;
  const now = box.querySelector('.kb-now');
  const entries = Array.from(document.querySelectorAll('#log li.entry'),
    (e) => [Number(e.dataset.index), Array.from(e.classList).find((c) => c.startsWith('k-'))]);
  const tagged = Array.from(document.querySelectorAll('#board [data-zone="battle"]'))
    .filter((e) => e.querySelector('.tag.tgt')).map((e) => `${e.dataset.seat}:${e.dataset.slot}`);
  const f = { index: Number(box.dataset.index), step: box.dataset.step,
    attack: now ? Number(now.dataset.attack) : null,
    defence: now ? Number(now.dataset.defence) : null,
    nums: now ? Array.from(now.querySelectorAll('.kb-num'), (b) => Number(b.textContent)) : [],
    banner: document.querySelector('#kb-result-banner')?.innerText || '',
    entries, tagged, log: document.querySelector('#log').innerText };
  const last = window.__pb[window.__pb.length - 1];
  if (last && JSON.stringify({ ...last, t: 0 }) === JSON.stringify({ ...f, t: 0 })) return;
  f.t = performance.now();
  window.__pb.push(f);
};
const watch = () => {
  if (!document.body) { requestAnimationFrame(watch); return; }
  new MutationObserver(seen).observe(document.body, { subtree: true, childList: true,
    attributes: true, characterData: true });
};
watch();
"""


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, Hub, Load]]:
    """A server (COM pace 0) whose sessions the test can read, and a loader of positions."""
    with position_server("pb") as found:
        yield found


@pytest.fixture()
def recorded(browser: Any, served: tuple[str, Hub, Load]) -> Iterator[Any]:
    """A page with the frame recorder; fails on any JavaScript error."""
    ctx = browser.new_context(viewport={**VIEWPORT, "height": 800}, locale="ja-JP")
    ctx.add_init_script(RECORDER)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.set_default_timeout(20_000)
    page.goto(served[0])
    yield page
    ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_the_playback_reveals_the_log_totals_and_target_frame_by_frame(
    recorded: Any, served: tuple[str, Hub, Load]
) -> None:
    page = recorded
    _url, hub, load = served
    state = board(
        Side(
            battle=["great-tengu"],
            tactics_hand=["power-surge", "target-change", "power-surge"],
            tactics_deck=PAD,
        ),
        Side(battle=["messenger-tanuki", "ashigaru-recruit"], tactics_deck=PAD),
        best_of=3,
    )
    driver, game_id = open_position(page, load, state, settings={"resolvePace": "normal"})
    # Attack 伝令狸 (slot 1); chain Power Surge, Target Change (to 見習い足軽, slot 2), Power
    # Surge; COM (no cards) passes each time; then the chain closes.
    script = [
        "attack 1",
        "target 1",
        "play power-surge",
        "slot 1",
        "play target-change",
        "slot 2",
        "play power-surge",
        "slot 1",
        "pass",
    ]
    for action in script:
        driver.wait_ready()
        _, options = driver.check_offer()
        assert action in options, (action, options)
        driver.click(action, board=False)
    page.wait_for_selector("#kb-playback", timeout=5000)
    page.wait_for_function("() => !document.querySelector('#kb-playback')", timeout=30_000)
    settle(page)
    frames: list[dict[str, Any]] = page.evaluate("window.__pb")

    log = hub.sessions[game_id].live.view(0, "ja")["log"]
    # The record of the chain (COM may have declared its next attack since: read the record
    # the view had before that).
    closed = next(i for i, e in enumerate(log) if e["kind"] == "chain_closed")
    cleanup_at = next(i for i in range(closed + 1, len(log)) if log[i]["kind"] == "cleanup")
    record = resolution_record(log[: cleanup_at + 1], "ja")
    assert record is not None and [x["slug"] for x in record["links"]] == [
        "power-surge",
        "target-change",
        "power-surge",
    ]
    assert record["log_index"] == closed
    resolves = [i for i in range(closed + 1, len(log)) if log[i]["kind"] == "resolve"]
    result_at = next(i for i in range(closed + 1, len(log)) if log[i]["kind"] == "result")
    assert len(log) > cleanup_at + 1, "nothing after the chain (no next turn) to hold back"

    # Every frame was drawn: the start, the three links, the result.
    steps = {f["index"]: f["step"] for f in frames}
    assert steps == {0: "start", 1: "link", 2: "link", 3: "link", 4: "result"}, steps
    cuts = {0: closed + 1, 1: resolves[1], 2: resolves[2], 3: result_at, 4: cleanup_at}
    for f in frames:
        shown = [i for i, _ in f["entries"]]
        kinds = [k for _, k in f["entries"]]
        # 1. No log entry of a later frame: nothing past the frame's own part of the log.
        assert max(shown) < cuts[f["index"]], (f["index"], max(shown), cuts, f["log"])
        if f["step"] != "result":
            assert "k-result" not in kinds and record["result"]["score_text"] not in f["log"]
        assert "k-cleanup" not in kinds
        # What the frame has reached is shown (the log is not simply frozen).
        assert max(shown) == cuts[f["index"]] - 1, (f["index"], max(shown), cuts)
        # 2. One set of totals: the box's numbers are the frame's.
        assert f["nums"] == [f["attack"], f["defence"]], f
    # The totals follow the record link by link (+2, the target's Lv 4, +2), and the result
    # frame's box says what its banner says.
    by_index = {f["index"]: f for f in frames}
    lv = [e["lv"] for link in record["links"] for e in link["effects"] if e["kind"] == "lv"]
    declared = record["declared"]
    assert (by_index[0]["attack"], by_index[0]["defence"]) == (
        declared["attack"],
        declared["defence"],
    )
    assert by_index[1]["attack"] == lv[0]
    assert by_index[3]["attack"] == lv[1]
    result = record["result"]
    end = by_index[4]
    assert (end["attack"], end["defence"]) == (result["attack"], result["defence"]), end
    assert result["score_text"] in end["banner"], end["banner"]
    # 3. The 攻撃対象 tag moves to 見習い足軽 (seat 1, slot 2) in the Target Change's frame.
    assert by_index[0]["tagged"] == ["1:1"] and by_index[1]["tagged"] == ["1:1"]
    assert by_index[2]["tagged"] == ["1:2"], by_index[2]
    assert by_index[3]["tagged"] == ["1:2"]
    # After the playback, the whole log shows (the retreat, the clean-up, COM's turn).
    shown_now = page.evaluate(
        "Array.from(document.querySelectorAll('#log li.entry'), (e) => Number(e.dataset.index))"
    )
    now_len = len(page.evaluate("window.kobo.view.log"))
    assert sorted(shown_now) == list(range(now_len)) and now_len >= len(log) > cleanup_at + 1


def test_skipping_the_playback_shows_the_whole_log(
    recorded: Any, served: tuple[str, Hub, Load]
) -> None:
    page = recorded
    _url, hub, load = served
    state = board(
        Side(battle=["great-tengu"], tactics_hand=["power-surge", "power-surge"], tactics_deck=PAD),
        Side(battle=["messenger-tanuki", "ashigaru-recruit"], tactics_deck=PAD),
        best_of=3,
    )
    driver, game_id = open_position(page, load, state, settings={"resolvePace": "slow"})
    for action in [
        "attack 1",
        "target 1",
        "play power-surge",
        "slot 1",
        "play power-surge",
        "slot 1",
        "pass",
    ]:
        driver.wait_ready()
        driver.click(action, board=False)
    page.wait_for_selector('#kb-playback[data-step="link"]', timeout=5000)
    assert "k-result" not in page.inner_html("#log")
    page.click("#kb-playback .kb-skip")
    page.wait_for_function("() => !document.querySelector('#kb-playback')")
    settle(page)
    n = len(page.evaluate("window.kobo.view.log"))
    assert page.locator("#log li.entry").count() == n
    assert page.locator("#log li.k-result").count() >= 1
    assert hub.sessions[game_id].live.view(0, "ja")["resolution"]["result"] is not None


def test_the_tactics_pick_shows_each_card_once_with_its_copies(page: Any) -> None:
    start_match(page, "vs_com", seed=11)
    driver = Driver(page)
    tactics = (
        "(() => { const p = window.kobo.view && window.kobo.view.pending;"
        " return !!p && p.prompt === 'tactics' && p.seat === 0; })()"
    )
    play_first_options(driver, tactics)
    driver.wait_ready()
    settle(page)
    picked = 0
    while page.evaluate(tactics) and picked < 8:
        settle(page)
        me = page.evaluate("window.kobo.view.players[0]")
        deck = Counter(me["deck"]["tactics"])
        hand = Counter(c["slug"] for c in me["tactics_hand"]["cards"])
        buttons = page.evaluate(
            "Array.from(document.querySelectorAll('#ops button.act'), (b) =>"
            " ({ a: b.dataset.action, text: b.textContent,"
            " n: b.querySelector('.act-count')?.dataset.copies }))"
        )
        actions = [b["a"] for b in buttons]
        assert len(actions) == len(set(actions)), actions  # each card once
        counts = {}
        for b in buttons:
            slug = b["a"].split(" ", 1)[1]
            assert b["n"] is not None, b
            counts[slug] = int(b["n"])
            assert counts[slug] == deck[slug] - hand[slug], (slug, b, deck, hand)
            assert f"×{counts[slug]}" in b["text"], b
        assert sum(counts.values()) == me["tactics_deck"]
        if picked == 0:
            assert any(n >= 2 for n in counts.values()), counts  # a card with copies
            save_shot(page, "kobo_tactics_pick.png")
        choice = max(counts, key=lambda s: counts[s])
        driver.click(f"take {choice}", board=False)
        picked += 1
        driver.wait_ready()
    assert picked >= 1

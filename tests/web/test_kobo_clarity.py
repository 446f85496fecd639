"""Kōbō as clear as it claims (issue 39), played against COM by clicking, at 1440×900.

Over several seeds, at every decision of the player:

- an option with a preview (``view.previews``) shows it in ``#option-preview`` when hovered,
  with its assumption said on screen; the option is then taken (and the next answer it assumes,
  when offered); when that exchange resolves with the basis the preview assumed, the engine's
  record of it (``resolution_record`` of the log the page received) has the predicted outcome:
  at least 20 such decisions are compared;
- every hand card and face-down trap of the player that does not glow carries its reason
  (``data-why``, the sentence), and every option button disabled at any moment says why;
- the hands fit their row: no card of a face-up hand is cut by the row or scrolled out of it,
  no name is cut, and nothing overlaps (the second player's standby shows seven tactics beside
  the main hand).

While a chain plays back (the first seed, at the fast pace, for its first few playbacks), the
log shows no entry beyond the frame on screen: the start frame nothing after the chain's
closing, a link frame nothing from the next link's resolution on, the result frame nothing from
the clean-up on. Screenshots of a preview and of the two-hand standby are saved where
``$KESSEN_SHOTS`` names a folder.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from kessen.games.kobo.preview import resolution_record
from tests.web.driver import (
    Driver,
    layout_faults,
    save_shot,
    settle,
    shorter_games,
    start_match,
)

SIZE = {"width": 1440, "height": 900}
SEEDS = (3, 21)
PLAYBACKS_WATCHED = 3

# Every frame of a playback as drawn (its step and index, the log entries on screen, the record
# it plays), and every option button seen disabled, with or without its reason.
RECORDER = """
window.__pb = [];
window.__disabled = { said: 0, silent: [] };
// The option buttons as each render leaves them (data-rendered is its last touch).
const rendered = () => {
  for (const b of document.querySelectorAll('#ops button.act[disabled]')) {
    if ((b.dataset.why || '').trim()) window.__disabled.said += 1;
    else window.__disabled.silent.push(b.dataset.action);
  }
};
const seen = () => {
  const box = document.querySelector('#kb-playback');
  if (!box) return;
  const shown = Array.from(document.querySelectorAll('#log li.entry'),
    (e) => Number(e.dataset.index));
  const f = { index: Number(box.dataset.index), step: box.dataset.step,
    max: shown.length ? Math.max(...shown) : -1 };
  const last = window.__pb[window.__pb.length - 1];
  if (last && last.index === f.index && last.max === f.max && last.step === f.step) return;
  window.__pb.push(f);
};
const watch = () => {
  if (!document.body) { requestAnimationFrame(watch); return; }
  new MutationObserver(seen).observe(document.body,
    { subtree: true, childList: true, attributes: true });
  new MutationObserver(rendered).observe(document.body,
    { attributes: true, attributeFilter: ['data-rendered'] });
};
watch();
"""

# What a decision needs, in one round trip: the offered options and the legal list, the
# view's previews and log length, the player's hands, the rows that do not fit, the cards
# without their reason, and the playbacks seen so far.
DECISION = """() => {
  const v = window.kobo.view;
  const me = v.players[0];
  const cards = (x) => (x && x.cards ? x.cards.length : 0);
  const out = {
    legal: v.pending.legal, prompt: v.pending.prompt, previews: v.previews || {}, log: v.log.length,
    options: Array.from(document.querySelectorAll('#ops button.act'), (b) => b.dataset.action),
    glowing: Array.from(document.querySelectorAll('#game .selectable[data-act]'),
      (e) => e.dataset.act),
    two: cards(me.hand) > 0 && cards(me.tactics_hand) > 0,
    faces: cards(me.hand) + cards(me.tactics_hand),
    fit: [], silent: [], said: 0,
    playbacks: window.__pb.filter((f) => f.index === 0).length,
  };
  for (const row of document.querySelectorAll('#side-bottom .hand-cards.faces')) {
    if (row.scrollWidth > row.clientWidth + 1) {
      out.fit.push(`row scrolls ${row.scrollWidth}>${row.clientWidth}`);
    }
    const box = row.getBoundingClientRect();
    for (const card of row.querySelectorAll('.hand-card')) {
      for (const el of [card, card.querySelector('.card-name')]) {
        const r = el.getBoundingClientRect();
        const span = (b) => `${Math.round(b.left)}-${Math.round(b.right)}`;
        if (r.left < box.left - 1 || r.right > box.right + 1) {
          out.fit.push(`${card.dataset.slug} ${el.className} ${span(r)} outside ${span(box)}`);
        }
        if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 2)
          out.fit.push(`${card.dataset.slug} ${el.className} cut`);
      }
    }
  }
  const mine = document.querySelectorAll(
    '#board .hand-card[data-seat="0"]:not(.back-only),'
    + ' #board .strat-slot.filled.face-down[data-seat="0"]');
  for (const el of mine) {
    if (el.classList.contains('selectable') || el.classList.contains('kb-sz-pick')) continue;
    const why = (el.dataset.why || '').trim();
    const described = (el.getAttribute('aria-description') || '').trim();
    if (why && described === why) out.said += 1;
    else out.silent.push(`${el.dataset.zone} ${el.dataset.slug || el.dataset.slot}`);
  }
  return out;
}"""

READ_BOX = """(action) => {
  const box = document.querySelector('#option-preview');
  if (!box || box.hidden || box.dataset.action !== action) return null;
  return { predict: JSON.parse(box.dataset.predict), basis: JSON.parse(box.dataset.basis),
    title: box.querySelector('.pv-title')?.textContent || '',
    assumes: box.querySelector('.pv-assumes')?.textContent || '',
    text: box.innerText };
}"""


@pytest.fixture()
def laptop(browser: Any, server: str, real_fonts: str) -> Iterator[Any]:
    """A page at 1440×900 with the recorder; fails on any JavaScript error."""
    ctx = browser.new_context(viewport=SIZE, locale="ja-JP")
    ctx.add_init_script(RECORDER)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.set_default_timeout(20_000)
    page.goto(server)
    yield page
    ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


_TONE = {"good": 3, "even": 2, "info": 1, "bad": 0}


def _choose(
    rnd: random.Random, options: list[str], prompt: str, then: str | None, previews: dict[str, Any]
) -> str:
    """A player led by the previews: follows the answer its last preview assumed, else takes
    one of the options whose preview looks best (a card rather than a pass half the time when
    they look as good), always attacks."""
    if then in options:
        return str(then)
    choices = [o for o in options if o != "pass"] if prompt == "turn" else options
    choices = choices or options

    def rank(option: str) -> int:
        preview = previews.get(option)
        return _TONE.get(preview["tone"], 1) if preview else 1

    best = max(rank(o) for o in choices)
    top = [o for o in choices if rank(o) == best]
    cards = [o for o in top if o.split()[0] in ("play", "trap")]
    if prompt == "chain" and "pass" in top and cards:
        return rnd.choice(cards) if rnd.random() < 0.5 else "pass"
    return rnd.choice(top)


def _cuts(log: list[dict[str, Any]], closed: int) -> tuple[list[int], int]:
    """Where each frame's part of the log ends (as the playback promises): the start frame at
    the chain's closing, a link frame before the next link's resolution (the last one before
    the result), the result frame before the clean-up (after the game's end)."""
    resolves: list[int] = []
    result: int | None = None
    end = len(log)
    for i in range(closed + 1, len(log)):
        kind = log[i]["kind"]
        if kind == "resolve" and result is None:
            resolves.append(i)
        elif kind == "result" and result is None:
            result = i
        elif kind == "cleanup":
            end = i
            break
        elif kind == "game_end":
            end = i + 1
            break
    after_links = result if result is not None else end
    links = [*resolves[1:], after_links]
    return [closed + 1, *links], end


def _check_playbacks(frames: list[dict[str, Any]], log: list[dict[str, Any]]) -> int:
    """No frame showed a log entry beyond its part; returns the frames checked. A playback's
    start frame shows the log up to the chain's closing, exactly: that entry names the record
    the later frames are checked against."""
    checked = 0
    key: int | None = None
    for frame in frames:
        if frame["index"] == 0:
            key = frame["max"]
            assert log[key]["kind"] == "chain_closed", (frame, log[key])
        if key is None:
            continue
        starts, end = _cuts(log, key)
        cut = starts[frame["index"]] if frame["step"] != "result" else end
        assert frame["max"] < cut, (frame, cut, [e["kind"] for e in log[key : cut + 2]])
        checked += 1
    return checked


def _compare(predictions: list[dict[str, Any]], log: list[dict[str, Any]]) -> int:
    """Each prediction against the record of the exchange it was made for (the first chain
    that closed after it); returns how many had that exchange's basis."""
    compared = 0
    for made in predictions:
        closed = next(
            (i for i in range(made["at"], len(log)) if log[i]["kind"] == "chain_closed"), None
        )
        if closed is None:
            continue
        upto = next((i for i in range(closed, len(log)) if log[i]["kind"] == "declare"), len(log))
        record = resolution_record(log[:upto])
        assert record is not None and record["log_index"] == closed
        if record["outcome"] is None or record["basis"] != made["basis"]:
            continue
        assert record["outcome"] == made["predict"], (made, record["outcome"], record["basis"])
        compared += 1
    return compared


def _click(page: Any, action: str) -> None:
    """Click the option's button; wait until the page has moved on."""
    before = page.evaluate("document.body.dataset.promptId")
    page.click(f'#ops button.act[data-action="{action}"]', no_wait_after=True)
    page.wait_for_function(
        f"""() => document.body.dataset.promptId !== '{before}'
            || !document.querySelector('#overlay').hidden
            || !!document.querySelector('#ops .confirm')"""
    )


def _play(page: Any, seed: int, watch: bool) -> dict[str, int]:
    """One best-of-1 game by clicking; returns what was checked."""
    first = {"first_player": 1} if seed == SEEDS[0] else {}
    shorter_games(page, {"best_of": 1, "turn_limit": 9, **first})
    settings = {"resolvePace": "fast" if watch else "off"}
    page.evaluate(
        f"localStorage.setItem('kobo.settings', {json.dumps(json.dumps(settings))});"
        "localStorage.removeItem('kobo.game');"
    )
    page.reload()
    page.wait_for_selector("#start:not([hidden])")
    page.select_option("#com-level", "heuristic")  # a COM that answers at once
    start_match(page, "vs_com", seed=seed)
    driver = Driver(page)
    rnd = random.Random(seed)
    predictions: list[dict[str, Any]] = []
    counts = dict.fromkeys(("previews", "reasons", "compared", "frames", "two_hands", "layouts"), 0)
    then: str | None = None
    shot = False
    for _ in range(400):
        state = driver.wait_ready(timeout=30_000)
        if state == "overlay:game":
            page.click("#overlay-continue")
            continue
        if state.startswith("overlay"):
            break
        if state == "confirm":
            driver.confirm()
            continue
        settle(page)
        now = page.evaluate(DECISION)
        options = now["options"]
        assert options == now["legal"], (options, now["legal"])
        assert set(now["glowing"]) <= set(options), (now["glowing"], options)
        assert not now["fit"], now["fit"]
        if now["faces"] >= 6 and counts["layouts"] < 6 and (now["two"] or now["prompt"] == "chain"):
            bad = [
                f
                for kind in ("overlap", "clipped")
                for f in layout_faults(page)[kind]
                if "hand" in f or "card-name" in f
            ]
            assert not bad, bad
            counts["layouts"] += 1
        assert not now["silent"], (now["prompt"], now["silent"])
        counts["reasons"] += now["said"]
        previews = now["previews"]
        if now["two"]:
            if not counts["two_hands"]:
                save_shot(page, "kobo-hand-standby-1440.png")
            counts["two_hands"] += 1
        choice = _choose(rnd, options, now["prompt"], then, previews)
        then = None
        preview = previews.get(choice)
        if preview is not None:
            button = f'#ops button.act[data-action="{choice}"]'
            page.hover(button)
            page.wait_for_function(f"() => !!({READ_BOX})({json.dumps(choice)})")
            box = page.evaluate(READ_BOX, choice)
            assert box["predict"] == preview["predict"] and box["basis"] == preview["basis"]
            assert box["title"] == preview["title"]
            assert box["assumes"] == "相手がこれ以上応答しなければ", box
            if not shot and len(preview["lines"]) >= 3 and now["prompt"] == "chain":
                save_shot(page, "kobo-preview-1440.png")
                shot = True
            predictions.append(
                {"at": now["log"], "action": choice, **preview, "prompt": now["prompt"]}
            )
            counts["previews"] += 1
            then = preview.get("then")
        _click(page, choice)
        if watch and now["playbacks"] >= PLAYBACKS_WATCHED:
            page.click("#btn-settings")
            page.check('#resolve-pace input[value="off"]')
            page.click("#btn-settings")
            watch = False
    settle(page)
    log = page.evaluate("window.kobo.view.log")
    counts["compared"] = _compare(predictions, log)
    counts["frames"] = _check_playbacks(page.evaluate("window.__pb"), log)
    disabled = page.evaluate("window.__disabled")
    assert not disabled["silent"], disabled
    counts["disabled"] = disabled["said"]
    return counts


def test_previews_reasons_hands_and_log_while_playing(laptop: Any) -> None:
    page = laptop
    totals: dict[str, int] = {}
    for n, seed in enumerate(SEEDS):
        counts = _play(page, seed, watch=n == 0)
        for key, value in counts.items():
            totals[key] = totals.get(key, 0) + value
        if n == 0:
            assert counts["frames"] >= 6, counts
            assert counts["two_hands"] >= 3, counts  # the second player's standby
    assert totals["disabled"] > 0, totals  # options were seen waiting, each saying why
    assert totals["compared"] >= 20, totals
    assert totals["previews"] >= 40 and totals["reasons"] >= 100, totals

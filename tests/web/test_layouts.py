"""Every screen size: a whole game against COM of each ruleset, played by touch on two phones
(390×844, 360×740) and a tablet held both ways (820×1180, 1180×820), and by clicking at
1440×900 and 1920×1080, with the Japanese fonts a player's device has; in Japanese at every
size and in English on the smaller phone and at 1440×900.

At the start screen, at every decision of the game and at its end the screen must show no
fault a person would see (``layout_faults.js``: text under 11 px, a target under 24 × 24 px,
two targets overlapping, a name cut short; a TWGP card's reason or a word of Kōbō's CHAIN /
RESOLVE lane broken inside a word; Kōbō's hands drawn over its areas or their titles over each
other), fit the screen's width, show one of the decision's glowing board places where it can be
touched and all of them when they fit the board's view together (the board scrolls by itself),
and show
the decision's choices without scrolling (all of them, or the handle that opens the sheet
holding the rest); on a touch screen every choice is at least 44 px tall. axe-core (WCAG 2.2
AA, target size included) finds nothing serious at the start, the first decision, the first
exchange and the end. A card tapped or clicked shows in CARD INFORMATION (a drawer below
1200 px), and the game reaches its end through the page alone. On the phone TWGP is built by
tapping its construction pool, card by card; elsewhere it uses the quick start. To keep the
test short the start request gets a short game added (Kōbō: one game of at most 2 turns, dealt
by seed 5, or by seed 6 on the phones and the upright tablet, where the player moves second
and the second player's standby shows both hands face up; TWGP: 4 turns; Maken: 3): the game
still ends through the page, by a win or the turn limit.

Screenshots are taken when ``$KESSEN_SHOTS`` names a folder for them (never the repository).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.driver import (
    AXE,
    SIZES,
    fold_measured,
    in_view,
    layout_faults,
    play_game,
    press,
    reach_choice,
    save_shot,
    serious_violations,
    shorter_games,
)

# Nothing wider than the screen (a phone would otherwise widen its layout and zoom out).
FITS = "document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"
WIDER = """() => Array.from(document.querySelectorAll('body *')).filter(e => {
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.right > document.documentElement.clientWidth + 1;
}).slice(0, 3).map(e => {
  const path = [];
  for (let x = e; x && x !== document.body; x = x.parentElement) {
    path.push(x.id || String(x.className).split(' ')[0]);
  }
  return `${path.join(' < ')} (${Math.round(e.getBoundingClientRect().right)})`;
})"""


@pytest.fixture()
def sized(
    browser: Any, server: str, request: pytest.FixtureRequest, real_fonts: str
) -> Iterator[Any]:
    """A page of the app at the size named by the test's ``size`` parameter."""
    size = request.node.callspec.params["size"]
    ctx = browser.new_context(**SIZES[size], locale="ja-JP")
    ctx.add_init_script(path=str(AXE))
    # The stepped playback of each resolution and the screen's motion are switched off (the
    # player's own settings), so a whole game stays quick: faults are measured at rest, after
    # every animation, and the resting layout is the same with motion or without.
    ctx.add_init_script(
        "if (!localStorage.getItem('kobo.settings'))"
        " localStorage.setItem('kobo.settings',"
        " JSON.stringify({resolvePace: 'off', motion: 'off'}))"
    )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.set_default_timeout(30_000)
    page.goto(server)
    yield page
    ctx.close()
    assert not errors, errors


def snap(page: Any, name: str) -> None:
    page.wait_for_timeout(150)
    save_shot(page, f"{name}.png")


def on_screen(page: Any, selector: str) -> bool:
    """Whether the element shows inside the viewport without scrolling."""
    box = page.locator(selector).first.bounding_box()
    height = page.evaluate("window.innerHeight")
    return bool(box) and box["height"] > 0 and box["y"] >= 0 and box["y"] + 40 <= height


# Kōbō's hand titles (戦術手札 0, メイン手札 7) of one side: each drawn clear of the other (an
# empty hand shrunk to nothing once let its title run into the next one's).
TITLES_CROSSED = """() => Array.from(document.querySelectorAll('#board .hands')).flatMap(hands => {
  const boxes = Array.from(hands.querySelectorAll('.hand-title'), (e) => {
    const r = document.createRange();
    r.selectNodeContents(e);
    return { text: e.textContent, r: r.getBoundingClientRect() };
  });
  return boxes.slice(1).flatMap((b, i) => {
    const a = boxes[i];
    const crossed = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left) > 1
      && Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top) > 1;
    return crossed ? [`${a.text} × ${b.text}`] : [];
  });
})"""

# Where each line of an element's text starts: `(element) => [text, offsets]`, the offset of
# every character that begins a line after the first (measured per character, every text node
# of the element in order).
LINE_STARTS = """(e) => {
  const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const starts = [];
  let text = '', top = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getClientRects()[0];
      if (!box || box.width === 0) continue;
      if (top !== null && box.top > top + 2) starts.push(text.length + i);
      top = box.top;
    }
    text += node.textContent;
  }
  return [text, starts];
}"""


def broken_words(selector: str, allowed: str) -> str:
    """A script listing the visible elements matching ``selector`` that have a line starting
    where ``allowed`` (a JS expression of ``text`` and ``at``, the offset the line starts at) is
    false, each as its text with a bar where that line starts (marked breaks left out)."""
    return f"""() => {{
  const lineStarts = {LINE_STARTS};
  return Array.from(document.querySelectorAll({selector})).filter((e) => e.offsetParent)
    .flatMap((e) => {{
      const [text, starts] = lineStarts(e);
      const at = starts.find((at) => !({allowed}));
      if (at === undefined) return [];
      return [`${{text.slice(0, at)}}|${{text.slice(at)}}`.replace(/\u200b/g, '')];
    }});
}}"""


# The reason chips on the small cards (TWGP's hand, Kōbō's hands and slots): a line of a chip
# starts only after a space or a marked break (U+200B), never inside a word (コアな|し), and
# every line shows (Kōbō's phone once showed 連鎖中… for 連鎖中のみ).
CHIPS = "'.tw-why-chip, .why-chip:not(.bar)'"
CHIPS_CUT = (
    f"() => Array.from(document.querySelectorAll({CHIPS}))"
    + """
  .filter((chip) => chip.offsetParent && (chip.scrollHeight > chip.clientHeight + 1
    || chip.scrollWidth > chip.clientWidth + 1))
  .map((chip) => chip.textContent.replace(/\u200b/g, ''))"""
)
CHIPS_BROKEN = broken_words(CHIPS, "['\\u200b', ' '].includes(text[at - 1])")

# The CHAIN / RESOLVE lane's card names and the lines under them: a line starts only between
# words (Intl.Segmenter's, in the page's language), never inside one (a tablet's 88 px lane once
# broke 打ち消し as 打ち消|し and 1番 as 1|番).
LANE_WORDS_BROKEN = broken_words(
    "'#lane .link-name, #lane .link-meta'",
    "Array.from(new Intl.Segmenter(document.documentElement.lang || 'ja', { granularity: 'word' })"
    ".segment(text)).some((word) => word.index === at)",
)


# A decision's glowing board places (Kōbō's and Maken's glow, TWGP's picks): at least one can be
# touched where it is, its middle not under the operation panel, a layer stuck over the board or
# the board's scrolled-away part (unless a drawer or the sheet of choices lies over the board on
# purpose). Half the games at phone and tablet sizes once had decisions whose places all lay
# below the fold (TWGP's answer to an attack glowed only in the hand at the board's foot).
# The decision's glowing places drawn now (Kōbō's and Maken's glow, TWGP's picks).
PLACES = """Array.from(document.querySelectorAll('#table .selectable, #table .pickable'))
    .filter((e) => e.offsetParent)"""
PLACE_TOUCHABLE = f"""() => {{
  if (document.body.dataset.drawer || document.body.dataset.sheet === 'open') return true;
  const places = {PLACES};
  return !places.length || places.some((e) => {{
    const r = e.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === e || e.contains(hit));
  }});
}}"""

# A decision's glowing places that would fit the board's view together but do not all show
# there: the board's visible band (below a layer stuck to its top, above the operation panel)
# with a little room to spare. (TWGP's build once lit the pool on the board and left the hand
# under a phone's bar.)
PLACES_APART = f"""() => {{
  if (document.body.dataset.drawer || document.body.dataset.sheet === 'open') return [];
  const places = {PLACES};
  if (!places.length) return [];
  let box = places[0].parentElement;
  while (box && box !== document.body && !(box.scrollHeight > box.clientHeight + 1
    && ['auto', 'scroll'].includes(getComputedStyle(box).overflowY))) box = box.parentElement;
  if (!box || box === document.body) return [];
  const b = box.getBoundingClientRect();
  let top = Math.max(0, b.top), bottom = Math.min(innerHeight, b.bottom);
  const ops = document.querySelector('#ops').getBoundingClientRect();
  if (ops.height > 0 && ops.top > b.top && ops.left < b.right && ops.right > b.left) {{
    bottom = Math.min(bottom, ops.top);
  }}
  for (const layer of box.querySelectorAll('[data-layer]')) {{
    if (!layer.offsetParent || getComputedStyle(layer).position !== 'sticky') continue;
    const q = layer.getBoundingClientRect();
    if (q.height > 0 && q.top <= top + 1) top = Math.max(top, q.bottom);
  }}
  const rects = places.map((e) => e.getBoundingClientRect());
  const span = Math.max(...rects.map((r) => r.bottom)) - Math.min(...rects.map((r) => r.top));
  if (span > bottom - top - 24) return [];
  const fromTo = (a, b) => `${{Math.round(a)}}-${{Math.round(b)}}`;
  const name = (e, r) => `${{e.className.split(' ').slice(0, 2).join('.')}} `
    + `(${{fromTo(r.top, r.bottom)}} of ${{fromTo(top, bottom)}})`;
  return places.map((e, i) => (rects[i].top < top - 1 || rects[i].bottom > bottom + 1
    ? name(e, rects[i]) : null)).filter(Boolean);
}}"""

# Kōbō: a side's hands drawn over the slots of its own battle or strategy area (a tablet's two
# hands of seven, wrapped into rows, once ran up over the battle area).
HANDS_OVER_AREAS = """() => Array.from(document.querySelectorAll('#board .hand-row'))
  .flatMap((row) => {
    const cards = Array.from(row.querySelectorAll('.hand-title, .hand-card'),
      (e) => e.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
    return Array.from(row.parentElement.querySelectorAll(':scope > .brow .slot'), (slot) => {
      const a = slot.getBoundingClientRect();
      // More than a title's leading (a tight board may let a title's line box touch a slot).
      const hit = cards.find((r) => Math.min(r.bottom, a.bottom) - Math.max(r.top, a.top) > 8
        && Math.min(r.right, a.right) - Math.max(r.left, a.left) > 2);
      return hit ? `${slot.className} (${Math.round(a.top)}-${Math.round(a.bottom)}) under a `
        + `hand (${Math.round(hit.top)}-${Math.round(hit.bottom)})` : null;
    }).filter(Boolean);
  })"""


RESULT_WORDS_BROKEN = """Array.from(document.querySelectorAll(
  '#overlay .modal-results .r-game, #overlay .modal-results .r-win'))
  .filter(e => {
    const range = document.createRange();
    range.selectNodeContents(e);
    return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size > 1;
  })
  .map(e => e.textContent)"""


SCREEN_CHECKS = (
    (TITLES_CROSSED, "a side's hand titles drawn over each other"),
    (HANDS_OVER_AREAS, "a side's hands drawn over its board"),
    (CHIPS_BROKEN, "a card's reason broken inside a word"),
    (CHIPS_CUT, "a card's reason cut short"),
    (LANE_WORDS_BROKEN, "a lane's words broken inside a word"),
    (PLACES_APART, "a decision's places that fit the board's view together, not all in it"),
)
"""The scripts of :func:`faults` that list what they find wrong, with the fault's name."""


def faults(page: Any, where: str, touch: bool = False) -> list[str]:
    """Everything wrong with the screen now: layout faults (``layout_faults.js``), the faults of
    :data:`SCREEN_CHECKS`, a decision none of whose glowing places can be touched, choices of
    the current decision a person cannot reach without scrolling, sideways scroll, and on a
    touch screen a choice less than 44 px tall."""
    fold_measured(page)
    found = [f"{kind}: {what}" for kind, items in layout_faults(page).items() for what in items]
    if touch:
        low = page.evaluate(
            "Array.from(document.querySelectorAll('#ops-body button.act'))"
            ".filter(b => b.offsetParent && !b.classList.contains('beyond'))"
            ".filter(b => b.getBoundingClientRect().height < 43.5).map(b => b.dataset.action)"
        )
        if low:
            found.append(f"choices under 44 px on a touch screen: {low[:4]}")
    if not page.evaluate(FITS):
        found.append(f"sideways scroll: {page.evaluate(WIDER)}")
    for script, fault in SCREEN_CHECKS:
        seen = page.evaluate(script)
        if seen:
            found.append(f"{fault}: {sorted(set(seen))}")
    if not page.evaluate(PLACE_TOUCHABLE):
        found.append("no glowing place of the decision shows")
    choices = page.evaluate(
        "Array.from(document.querySelectorAll('#ops-body button.act'))"
        ".filter(b => b.offsetParent).map(b => b.dataset.action)"
    )
    cut = [c for c in choices if not in_view(page, f'#ops-body button.act[data-action="{c}"]')]
    if cut and not page.is_visible("#ops-more"):
        found.append(f"choices off screen: {cut[:4]}")
    return [f"{where}: {f}" for f in found]


CASES = [
    (size, ruleset, lang)
    for size, lang in (
        ("phone", "ja"),
        ("tablet", "ja"),
        ("tablet-wide", "ja"),
        ("desktop", "ja"),
        # English's longer words: the narrowest phone and the 1,440 px laptop (each size is
        # played once, in the language whose words are longer there).
        ("phone-small", "en"),
        ("laptop", "en"),
    )
    for ruleset in ("kobo", "twgp", "maken")
]
"""Every size of :data:`~tests.web.driver.SIZES` plays a whole game of every ruleset once."""

SECOND_SEAT_SIZES = frozenset({"phone", "phone-small", "tablet"})
"""The sizes whose Kōbō game is dealt so that the player moves second."""


@pytest.mark.parametrize(("size", "ruleset", "lang"), CASES)
def test_whole_game_at_every_size(sized: Any, size: str, ruleset: str, lang: str) -> None:
    page = sized
    touch = bool(SIZES[size].get("has_touch"))
    width = SIZES[size]["viewport"]["width"]
    page.wait_for_selector("#start:not([hidden])")
    if lang == "en":
        press(page, '#start [data-lang="en"]', touch)
        page.wait_for_function("() => document.documentElement.lang === 'en'")
    found = faults(page, "start")
    press(page, f'#game-pick input[value="{ruleset}"]', touch)
    if ruleset == "twgp":
        page.wait_for_selector("#twgp-options:not([hidden]) #tw-quick")
        if not touch:
            press(page, "#tw-quick", touch)
        shorter_games(page, {"turnLimit": 4})
    elif ruleset == "maken":
        page.wait_for_selector("#maken-options:not([hidden]) #mk-deck-0")
        shorter_games(page, {"turnLimit": 3})
        press(page, "#start .advanced summary", touch)
        page.fill("#seed", "9")
    else:
        shorter_games(page, {"best_of": 1, "turn_limit": 2})
        press(page, "#start .advanced summary", touch)
        # Deals whose game takes about thirty choices; on the phones and the upright tablet
        # the player moves second, so the second player's standby (seven tactics beside the
        # main hand, both face up) is laid out where the screen is narrow.
        page.fill("#seed", "6" if size in SECOND_SEAT_SIZES else "5")
    found += faults(page, "start, filled in")
    assert not serious_violations(page), serious_violations(page)
    name = f"{size}_{lang}_{ruleset}"
    snap(page, f"{name}_1_start")
    press(page, "#start-button", touch)
    page.wait_for_function("() => document.body.dataset.myTurn === '1'")
    page.wait_for_timeout(200)
    found += faults(page, "first decision", touch)
    assert not serious_violations(page), serious_violations(page)
    # The actions are on screen from the start, and big enough to tap on the phone.
    assert on_screen(page, "#ops .ops-body"), "the operation panel is off screen"
    if width < 1200:  # the board keeps most of a tablet's or a phone's width
        board = page.evaluate(
            "Math.max(...['#board', '#tw-board', '#mk-board'].map(s => "
            "document.querySelector(s).getBoundingClientRect().width))"
        )
        assert board >= 0.6 * width, f"the board is {board:.0f} px of {width}"
    if touch:
        assert page.locator("#ops .ops-body button.act").count()
    if width < 600:  # the phone's top bar: the score and turn, then the tabs (Maken's turn line
        # takes a row of its own); a game's name would cost the board a row. A deal the player
        # chose is marked as practice by the badge's short name: within those rows, but on the
        # smallest phones (360 px) it may push the tools down a row.
        if page.is_visible("#deal-badge"):
            assert page.is_visible("#deal-badge .deal-short")
            long = "document.querySelector('#deal-badge .deal-long').getBoundingClientRect()"
            assert page.evaluate(f"{long}.width") <= 1  # kept for screen readers only
        rows = 3 if ruleset == "maken" else 2
        rows += width < 380 and page.is_visible("#deal-badge")
        top = page.evaluate("document.querySelector('#topbar').getBoundingClientRect().height")
        assert top <= rows * 40 + 10, f"the top bar is {top:.0f} px tall"

    # Tap (or click) to inspect: a card of the board shows in CARD INFORMATION.
    card = "#tw-board .tw-pool-card" if ruleset == "twgp" and touch else "#game .infoable"
    before = page.text_content("#cardinfo-body")
    press(page, card, touch, corner=True)
    page.wait_for_function(
        "b => document.querySelector('#cardinfo-body').textContent !== b", arg=before
    )
    if page.is_visible("#tab-info"):
        # Below 1200 px CARD INFORMATION is a drawer: its tab marks the news, and opens it
        # over the board; a tap on the dimmed board closes it again.
        assert "fresh" in (page.get_attribute("#tab-info", "class") or "")
        press(page, "#tab-info", touch)
        page.wait_for_function("() => document.body.dataset.drawer === 'info'")
        page.wait_for_timeout(300)  # the slide
        assert on_screen(page, "#cardinfo-body") and page.inner_text("#cardinfo-body").strip()
        snap(page, f"{name}_2_info_drawer")
        found += faults(page, "CARD INFORMATION drawer")
        if touch:  # the dimmed board left of the drawer
            page.touchscreen.tap(12, 300)
        else:
            page.mouse.click(12, 300)
        page.wait_for_function("() => !document.body.dataset.drawer")
        page.wait_for_timeout(300)  # the slide back
    if ruleset == "twgp" and touch:
        # Reading a pool card by a tap does not build with it: one clear button offers it.
        assert page.evaluate("window.kobo.view.players[0].vitals.every(x => x.face === 'empty')")
        page.wait_for_selector("#ops button.act.tw-only")
        press(page, "#ops .tw-clear-focus", touch)
        page.wait_for_selector("#ops button.act.tw-only", state="detached")
    if ruleset == "kobo" and touch and page.locator("#game .selectable[data-act]").count():
        # A tap on a glowing place reads it and arms the button that acts; it sends nothing.
        before_id = page.evaluate("document.body.dataset.promptId")
        place_el = page.locator("#game .selectable[data-act]").first
        act = place_el.get_attribute("data-act")
        press(page, "#game .selectable[data-act]", touch, corner=True)
        page.wait_for_selector(f'#ops button.act.tap-armed[data-action="{act}"]')
        assert page.evaluate("document.body.dataset.promptId") == before_id
    snap(page, f"{name}_2_board")

    seen = {"built": 0, "shot": False, "both_hands": 0}

    def each(now: dict[str, Any]) -> None:
        found.extend(faults(page, now["prompt"], touch))
        seen["both_hands"] += page.locator("#board .side.bottom .hands.both-faces").count()
        if now["prompt"] == "build":
            seen["built"] += 1
        elif not seen["shot"] and now["prompt"] not in ("setup", "standby", "mulligan"):
            seen["shot"] = True
            snap(page, f"{name}_3_exchange")
            found.extend(f"{now['prompt']}: axe {v}" for v in serious_violations(page))

    made = play_game(page, ruleset, touch, each=each)
    assert made > 3
    if ruleset == "twgp" and touch:
        assert seen["built"] >= 12, "the pool was not built by tapping"  # 3 + 3 + up to 6
    if ruleset == "kobo" and size in SECOND_SEAT_SIZES:
        assert seen["both_hands"], "no decision of the second player's standby was laid out"
    page.wait_for_selector("#overlay:not([hidden]) .modal")
    assert page.locator("#overlay .modal-title").inner_text().strip()
    # A game's line of the match result keeps its name and result on one line each (the
    # phone once broke 第1ゲーム after ゲ); the reason beside them wraps instead.
    assert not page.evaluate(RESULT_WORDS_BROKEN), page.evaluate(RESULT_WORDS_BROKEN)
    if ruleset != "kobo":
        # A one-game match's dialog says its deciding moment in the log's words (TWGP the last
        # fight or why nobody won, Maken the down that took the last LP or the turn limit).
        assert page.locator("#overlay .modal-line").count() == 1, f"{ruleset}: no deciding line"
        line = page.inner_text("#overlay .modal-line").strip()
        said = page.evaluate("window.kobo.view.log.map((e) => e.text)")
        assert line and line in said, (line, said[-3:])
    if lang == "en":  # the score line starts with a capital, even where a reason's words begin it
        score = page.inner_text("#overlay .modal-score").strip()
        assert not score[:1].islower(), score
    found += faults(page, "end")
    snap(page, f"{name}_4_end")
    # The end dialog's buttons fit on screen.
    assert on_screen(page, "#overlay .modal-buttons button")
    assert not serious_violations(page), serious_violations(page)
    # Every fault once, with where it was first seen.
    unique = {f.split(": ", 1)[1]: f for f in reversed(found)}
    assert not unique, "\n".join(sorted(unique.values())[:40])


# --- the start screen's words and the top bar's 新しい対戦 -------------------------------------


def test_com_levels_new_match_and_leaving_com_vs_com(page: Any, server: str) -> None:
    import httpx2

    page.wait_for_selector("#start:not([hidden])")
    levels = page.eval_on_selector_all("#com-level option", "os => os.map(o => o.textContent)")
    assert levels[:3] == ["やさしい", "ふつう", "つよい"]
    page.click('#start [data-lang="en"]')
    page.wait_for_function(
        "() => document.querySelector('#com-level option').textContent === 'Easy'"
    )
    levels = page.eval_on_selector_all("#com-level option", "os => os.map(o => o.textContent)")
    assert levels[:3] == ["Easy", "Normal", "Strong"]
    page.click('#start [data-lang="ja"]')

    # Before the player has moved, 新しい対戦 leaves on the first press.
    page.click("#start-button")
    page.wait_for_function("() => !!window.kobo.view && document.body.dataset.myTurn === '1'")
    page.click("#btn-quit")
    page.wait_for_selector("#start:not([hidden])")
    # During a match being played, the first press asks and the second leaves.
    page.click("#start-button")
    page.wait_for_function("() => !!window.kobo.view && document.body.dataset.myTurn === '1'")
    first = page.evaluate("window.kobo.view.pending.legal[0]")
    before = page.evaluate("document.body.dataset.promptId")
    reach_choice(page, f'#ops button.act[data-action="{first}"]', False)
    page.click(f'#ops button.act[data-action="{first}"]')
    page.wait_for_function(f"() => document.body.dataset.promptId !== '{before}'")
    page.click("#btn-quit")
    assert page.is_visible("#game") and "もう一度" in page.inner_text("#btn-quit")
    page.click("#btn-quit")
    page.wait_for_selector("#start:not([hidden])")

    # Leaving a COM-vs-COM match closes it on the server: it is no longer among its games.
    page.check('input[name=mode][value="com_vs_com"]')
    page.click("#start .advanced summary")
    page.select_option("#pace", "0.5")
    page.click("#start-button")
    page.wait_for_function("() => window.kobo.view && window.kobo.view.history.steps >= 3")
    game = page.evaluate("window.kobo.game.id")
    with page.expect_response(lambda r: r.url.endswith("/leave")) as left:
        page.click("#btn-quit")
    page.wait_for_selector("#start:not([hidden])")
    assert left.value.status == 200
    listed = httpx2.get(f"{server}/api/games", timeout=10).json()
    assert all(s["id"] != game for s in listed)

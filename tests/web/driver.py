"""Playing the Kōbō page like a person: read the offered choices from the page, click them.

The driver never computes what is legal. It reads the buttons of the operation panel (and the
glowing board elements) and checks that they are exactly the legal list of the view the page
received, so a test also proves the UI offers every legal action and nothing else.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the browser tests are skipped, not broken, without Playwright
    from playwright.sync_api import Page


_READY = """() => {
  const o = document.querySelector('#overlay');
  if (o && !o.hidden) return 'overlay:' + (o.dataset.kind || '');
  if (document.querySelector('#ops .confirm')) return 'confirm';
  if (document.body.dataset.myTurn === '1'
      && document.querySelector('#ops button.act:not([disabled])')) return 'act';
  return false;
}"""


def collect_errors(page: Page) -> list[str]:
    """The page's uncaught errors and console errors, as they come (a test asserts it empty)."""
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def shot(page: Page, name: str) -> None:
    """A screenshot of the page as ``<name>.png`` in the screenshots folder (:func:`save_shot`),
    after the transitions of a few hundred ms at most have settled."""
    page.wait_for_timeout(250)
    save_shot(page, f"{name}.png")


def view(page: Page) -> dict[str, Any]:
    """The last view the page received (read-only debug handle of the app)."""
    data: dict[str, Any] = json.loads(page.evaluate("JSON.stringify(window.kobo.view)"))
    return data


def pending(page: Page) -> dict[str, Any] | None:
    """The pending prompt of the last view the page received."""
    data: dict[str, Any] | None = page.evaluate("window.kobo.view && window.kobo.view.pending")
    return data


# A promise kept once the browser has drawn two more frames (every rAF-scheduled measure ran).
AFTER_NEXT_FRAMES = (
    "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"
)
# Three frames: the operation panel's fold is measured in the frame after a change, and again
# in the frame after a resize that the first frame's layout reported (shell/sheet.js).
FOLD_MEASURED = (
    "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame("
    "() => requestAnimationFrame(() => r(true)))))"
)


def fold_measured(page: Page) -> None:
    """Wait until the operation panel has folded the choices it cannot show (on a loaded
    machine a fixed pause was once shorter than the frames the fold waits for)."""
    page.evaluate(FOLD_MEASURED)


def settle(page: Page) -> None:
    """Wait until the page has drawn the last view it received, and the frame after it (the
    operation panel folds the choices it cannot show in an animation frame after a change)."""
    page.wait_for_function("() => document.body.dataset.rendered === String(window.kobo.stateSeq)")
    page.evaluate(AFTER_NEXT_FRAMES)


def wait_view(page: Page, condition: str) -> None:
    """Wait until the last view satisfies the JavaScript ``condition`` (on ``v``) and is drawn."""
    page.wait_for_function(f"() => {{ const v = window.kobo.view; return !!v && ({condition}); }}")
    settle(page)


def prompt_id(page: Page) -> str:
    """The prompt id the page shows (``none`` when nothing is pending)."""
    return str(page.evaluate("document.body.dataset.promptId"))


@dataclass
class Driver:
    """Clicks through a match on one page."""

    page: Page
    clicks: int = 0
    seen: set[str] = field(default_factory=set)

    def wait_ready(self, timeout: float = 20_000) -> str:
        """Wait until the page offers something to click; return what: ``act``, ``confirm``,
        ``overlay:game`` or ``overlay:match``."""
        handle = self.page.wait_for_function(_READY, timeout=timeout)
        return str(handle.json_value())

    def options(self) -> list[str]:
        """The action texts of the operation panel's buttons, in order."""
        found: list[str] = self.page.evaluate(
            "Array.from(document.querySelectorAll('#ops button.act'), b => b.dataset.action)"
        )
        return found

    def glowing(self) -> list[str]:
        """The actions sent by the board elements that glow blue."""
        found: list[str] = self.page.evaluate(
            "Array.from(document.querySelectorAll('#game .selectable[data-act]'),"
            " e => e.dataset.act)"
        )
        return found

    def check_offer(self) -> tuple[dict[str, Any], list[str]]:
        """The buttons are exactly the legal list; every glowing element sends a legal one."""
        now = pending(self.page)
        assert now is not None
        options = self.options()
        assert options == now["legal"], (options, now["legal"])
        for action in self.glowing():
            assert action in now["legal"], (action, now["legal"])
        return now, options

    def click(self, action: str, board: bool = True) -> None:
        """Send ``action`` by clicking its glowing board element when there is one (and
        ``board``), else its button; wait until the page has moved on."""
        page = self.page
        before = prompt_id(page)
        on_board = f'#game .selectable[data-act="{action}"]'
        if board and page.evaluate(f"!!document.querySelector('{on_board}')"):
            page.click(on_board)
        else:
            button = f'#ops button.act[data-action="{action}"]'
            reach_choice(page, button, False)
            page.click(button)
        self.clicks += 1
        page.wait_for_function(
            f"""() => document.body.dataset.promptId !== '{before}'
                || !document.querySelector('#overlay').hidden
                || !!document.querySelector('#ops .confirm')""",
            timeout=20_000,
        )

    def confirm(self) -> None:
        """Confirm the pending confirm step (a turn pass)."""
        before = prompt_id(self.page)
        self.page.click("#ops .confirm-yes")
        self.clicks += 1
        self.page.wait_for_function(
            f"() => document.body.dataset.promptId !== '{before}'", timeout=20_000
        )


def open_position(
    page: Page,
    load: Callable[[Any], tuple[str, str]],
    state: Any,
    *,
    url: str | None = None,
    settings: dict[str, Any] | None = None,
) -> tuple[Driver, str]:
    """Open ``state`` in the page as seat 0, the way a reload rejoins a stored game: ``load``
    puts it into the server (tests/serving.py), ``settings`` (if given) become the page's
    ``kobo.settings``. Returns the driver, once the page offers something to press, and the
    game's id."""
    game_id, token = load(state)
    stored = json.dumps({"id": game_id, "token": token, "seat": 0, "cfg": {"mode": "vs_com"}})
    if url is not None:
        page.goto(url)
    script = f"localStorage.setItem('kobo.game', {json.dumps(stored)});"
    if settings is not None:
        script += f"localStorage.setItem('kobo.settings', {json.dumps(json.dumps(settings))});"
    page.evaluate(script)
    page.reload()
    driver = Driver(page)
    driver.wait_ready()
    return driver, game_id


def start_match(
    page: Page, mode: str = "vs_com", seed: int | None = None, decks: tuple[str, str] | None = None
) -> None:
    """Fill in the start screen and press 対戦開始; wait for the first view."""
    page.wait_for_selector("#start:not([hidden])")
    page.check(f'input[name=mode][value="{mode}"]')
    if decks is not None:
        page.select_option("#deck-0", decks[0])
        page.select_option("#deck-1", decks[1])
    if seed is not None:
        page.click("#start .advanced summary")
        page.fill("#seed", str(seed))
    page.click("#start-button")
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")


def play_first_options(driver: Driver, until: str, limit: int = 200) -> None:
    """Click the first offered option until the JavaScript condition ``until`` holds."""
    page = driver.page
    for _ in range(limit):
        if page.evaluate(until):
            return
        state = driver.wait_ready()
        if state == "overlay:game":
            page.click("#overlay-continue")
            continue
        if state == "confirm":
            driver.confirm()
            continue
        if state.startswith("overlay"):
            return
        _, options = driver.check_offer()
        choice = next((o for o in options if o != "pass"), options[0])
        driver.click(choice)
    raise AssertionError(f"condition never held: {until}")


# --- every screen size: whole games by touch or click ------------------------------------

SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "phone-small": {
        "viewport": {"width": 360, "height": 740},
        "has_touch": True,
        "is_mobile": True,
    },
    "tablet": {"viewport": {"width": 820, "height": 1180}, "has_touch": True},
    "tablet-wide": {"viewport": {"width": 1180, "height": 820}, "has_touch": True},
    "laptop": {"viewport": {"width": 1440, "height": 900}},
    "desktop": {"viewport": {"width": 1920, "height": 1080}},
}
"""The screen sizes the page must be usable at: two phones and a tablet held both ways, by touch,
and two desktops."""

# TWGP: verbs that move a game on toward its end, most wanted first (the rest: the first).
_TWGP_PREFERENCE = (
    "direct",
    "assault",
    "charge-drive",
    "power-drive",
    "setup",
    "attach",
    "battle",
    "counter-drive",
    "accept",
    "full-charge",
    "end",
    "done",
)

_READY_ANY = """() => {
  const o = document.querySelector('#overlay');
  if (o && !o.hidden) return 'overlay:' + (o.dataset.kind || '');
  if (document.querySelector('#ops .confirm')) return 'confirm';
  if (document.body.dataset.myTurn === '1'
      && document.querySelector('#ops button.act:not([disabled])')) return 'act';
  return false;
}"""


def shots_dir() -> Path:
    """Where the browser tests keep their screenshots and reports: ``$KESSEN_SHOTS``, else a
    folder of the system's temporary directory (never the repository)."""
    path = Path(os.environ.get("KESSEN_SHOTS") or Path(tempfile.gettempdir()) / "kessen-shots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def save_shot(target: Any, name: str, full_page: bool = False) -> None:
    """Save a screenshot of ``target`` (a page or a locator) as ``name`` in ``$KESSEN_SHOTS``,
    when that names a folder to look at them in; without it, none is taken: nobody would read
    it, and on a loaded machine each costs a fraction of a second of a core."""
    if not os.environ.get("KESSEN_SHOTS"):
        return
    path = str(shots_dir() / name)
    if full_page:
        target.screenshot(path=path, full_page=True)
    else:
        target.screenshot(path=path)


_SHOWN_POINT = """sel => {
  const el = document.querySelector(sel);
  if (!el) return null;
  // Where a person would scroll it: the middle, else (a strip lying over the top of the
  // board, say) the bottom or the top of the scrolled box.
  for (const block of ['center', 'end', 'start']) {
    el.scrollIntoView({ block, inline: 'nearest' });
    const r = el.getBoundingClientRect();
    for (const fy of [0.15, 0.5, 0.85]) for (const fx of [0.15, 0.5, 0.85]) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      const hit = document.elementFromPoint(x, y);
      if (hit && el.contains(hit)) return [x, y];
    }
  }
  return null;
}"""


_ARMED = "sel => { const b = document.querySelector(sel); return !!(b && b.dataset.armed); }"


def press(page: Page, selector: str, touch: bool, corner: bool = False) -> None:
    """Tap (touch screens) or click the element. With ``corner`` (a board place, where fanned
    cards overlap and panels may cover), it is scrolled into view and pressed where it shows
    itself: a point that nothing else covers."""
    if not corner:
        target = page.locator(selector).first
        if touch:
            target.tap()
            # An option with a preview shows it at the first tap and acts at the second.
            if page.evaluate(_ARMED, selector):
                assert page.locator("#option-preview").is_visible(), "armed without a preview"
                target.tap()
        else:
            target.click()
        return
    page.wait_for_selector(selector)
    point = page.evaluate(_SHOWN_POINT, selector)
    assert point is not None, f"{selector} is covered"
    if touch:
        page.touchscreen.tap(point[0], point[1])
    else:
        page.mouse.click(point[0], point[1])


def shorter_games(page: Page, config: dict[str, Any]) -> None:
    """Add ``config`` to the page's ``POST /api/games`` (a short match for a quick test: the
    start screen is still filled in and pressed as a person would)."""

    def handle(route: Any) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        body = json.loads(request.post_data or "{}")
        body["config"] = {**body.get("config", {}), **config}
        route.continue_(post_data=json.dumps(body))

    page.route("**/api/games", handle)


def visible_options(page: Page) -> list[str]:
    """The actions of the operation panel's buttons a person can see (folded groups left out)."""
    found: list[str] = page.evaluate(
        "Array.from(document.querySelectorAll('#ops button.act'))"
        ".filter(b => b.offsetParent !== null && !b.disabled).map(b => b.dataset.action)"
    )
    return found


def pick(ruleset: str, options: list[str]) -> str:
    """A fixed policy over the offered choices that ends a game soon."""
    if ruleset == "twgp":
        for verb in _TWGP_PREFERENCE:
            for option in options:
                if option.split()[0] == verb:
                    return option
        return options[0]
    return next((o for o in options if o != "pass"), options[0])


def play_game(page: Page, ruleset: str, touch: bool, limit: int = 400, each: Any = None) -> int:
    """Play the bottom seat to the end of the match by tapping or clicking what the page shows:
    a glowing board place when the chosen action has one (TWGP's build: its pool cards), else
    the action's button. ``each(state)`` runs before every choice. Returns the choices made."""
    made = 0
    for _ in range(limit):
        state = str(page.wait_for_function(_READY_ANY, timeout=30_000).json_value())
        if state == "overlay:game":
            press(page, "#overlay-continue", touch)
            continue
        if state.startswith("overlay"):
            return made
        if state == "confirm":
            before = prompt_id(page)
            press(page, "#ops .confirm-yes", touch)
            page.wait_for_function(f"() => document.body.dataset.promptId !== '{before}'")
            continue
        settle(page)
        now = pending(page)
        assert now is not None
        options = visible_options(page)
        if ruleset == "twgp" and now["prompt"] == "build":
            # The secret build: the pool's cards on the board are the choices.
            options = [a for a in now["legal"] if a != "done"] or options
        assert options and set(options) <= set(now["legal"]), (options, now["legal"])
        if each is not None:
            each(now)
        choice = pick(ruleset, options)
        before = prompt_id(page)
        place = _place_of(page, ruleset, choice, now)
        button = f'#ops button.act[data-action="{choice}"]'
        if not place:
            reach_choice(page, button, touch)
        press(page, place or button, touch, corner=bool(place))
        if place and touch:
            # A tap reads the card and leaves one clear button to act with.
            page.wait_for_selector(
                f"{button}.tw-only" if ruleset == "twgp" else f"{button}.tap-armed"
            )
            reach_choice(page, button, touch)
            press(page, button, touch)
        made += 1
        try:
            page.wait_for_function(
                f"""() => document.body.dataset.promptId !== '{before}'
                    || !document.querySelector('#overlay').hidden
                    || !!document.querySelector('#ops .confirm')""",
                timeout=30_000,
            )
        except Exception as err:
            page.screenshot(path=str(shots_dir() / "stuck.png"))
            raise AssertionError(f"{choice!r} did not move on: {page.inner_text('#ops')}") from err
    raise AssertionError(f"no end after {limit} choices")


_IN_VIEW = """sel => {
  const el = document.querySelector(sel);
  if (!el || !el.offsetParent || getComputedStyle(el).visibility !== 'visible') return false;
  const r = el.getBoundingClientRect();
  const box = document.querySelector('#ops-body').getBoundingClientRect();
  const bottom = Math.min(window.innerHeight, box.bottom);
  return r.top >= Math.max(0, box.top) - 1 && r.bottom <= bottom + 1;
}"""


def in_view(page: Page, selector: str) -> bool:
    """Whether a choice of the operation panel shows whole, on screen, without any scrolling."""
    return bool(page.evaluate(_IN_VIEW, selector))


MOTION_DONE = (
    "() => document.getAnimations().every(a => a.playState !== 'running'"
    " || a.effect.getComputedTiming().iterations === Infinity)"
)
"""Every animation of the page has ended (endless ones, such as a glow, aside)."""


def reach_choice(page: Page, selector: str, touch: bool) -> None:
    """Make a choice of the operation panel pressable as a person would: it is on screen, or
    (a phone's bar with more choices than fit) the handle under the bar opens the sheet that
    holds it (an open sheet stays open). Never scrolls the page or a panel for the person."""
    if in_view(page, selector):
        return
    fold_measured(page)  # a choice just drawn is off screen until the fold hides it
    if in_view(page, selector):
        return
    if page.evaluate("document.body.dataset.sheet !== 'open'"):
        assert page.is_visible("#ops-more"), f"{selector} is off screen and nothing leads to it"
        press(page, "#ops-more", touch)
        page.wait_for_function("() => document.body.dataset.sheet === 'open'")
        page.wait_for_function(MOTION_DONE)  # the slide (over 250 ms on a loaded machine)
    if not in_view(page, selector):  # a sheet taller than the screen scrolls inside itself
        page.evaluate(
            "sel => document.querySelector(sel).scrollIntoView({block: 'nearest'})", selector
        )
    assert in_view(page, selector), f"{selector} is not in the sheet"


def _place_of(page: Page, ruleset: str, action: str, now: dict[str, Any]) -> str | None:
    """The board place that sends ``action`` at once, if the page shows one."""
    if ruleset == "kobo":
        sel = f'#game .selectable[data-act="{action}"]'
        return sel if page.locator(sel).count() else None
    verb, *args = action.split()
    if now["prompt"] == "build" and verb in ("vital", "aside", "hand"):
        seat = now["seat"]
        sel = f'#tw-board .tw-pool-card.tw-sel[data-ref="p:{seat}:{args[0]}"]'
        assert page.locator(sel).count() == 1, f"the pool card of {action} does not glow"
        return sel
    return None


LAYOUT_FAULTS = (Path(__file__).resolve().parent / "layout_faults.js").read_text(encoding="utf-8")


def layout_faults(page: Page) -> dict[str, list[str]]:
    """What a person would find wrong with the screen now (``layout_faults.js``): text under
    11 px, targets under 24 px, targets overlapping, names cut short. Waits for motion to end."""
    page.wait_for_function(MOTION_DONE)
    found: dict[str, list[str]] = page.evaluate(LAYOUT_FAULTS)
    return found


# --- accessibility --------------------------------------------------------------------------

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
"""axe-core, vendored for the tests (see vendor/README.md); never served by the app."""

_AXE_RUN = """async (sel) => {
  const where = sel ? document.querySelector(sel) : document;
  const r = await axe.run(where, {
    resultTypes: ['violations'], rules: { 'target-size': { enabled: true } } });
  return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v =>
    `${v.impact} ${v.id}: ${v.help} — `
    + v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(', '));
}"""


def serious_violations(page: Page, within: str | None = None) -> list[str]:
    """axe-core's serious and critical violations on the page (or inside ``within``), WCAG 2.2's
    target size included (axe leaves it off by default). The
    context must have loaded axe with ``add_init_script(path=AXE)`` (an init script, so the
    page's Content-Security-Policy stays as it is)."""
    found: list[str] = page.evaluate(_AXE_RUN, within)
    return found

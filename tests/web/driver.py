"""Playing the Kōbō page like a person: read the offered choices from the page, click them.

The driver never computes what is legal. It reads the buttons of the operation panel (and the
glowing board elements) and checks that they are exactly the legal list of the view the page
received, so a test also proves the UI offers every legal action and nothing else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the browser tests are skipped, not broken, without Playwright
    from playwright.sync_api import Page

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

_READY = """() => {
  const o = document.querySelector('#overlay');
  if (o && !o.hidden) return 'overlay:' + (o.dataset.kind || '');
  if (document.querySelector('#ops .confirm')) return 'confirm';
  if (document.body.dataset.myTurn === '1'
      && document.querySelector('#ops button.act:not([disabled])')) return 'act';
  return false;
}"""


def shot(page: Page, name: str) -> Path:
    """Save a screenshot of the whole page as ``artifacts/screenshots/<name>.png``."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.wait_for_timeout(250)  # let transitions (a few hundred ms at most) settle
    page.screenshot(path=str(path))
    return path


def view(page: Page) -> dict[str, Any]:
    """The last view the page received (read-only debug handle of the app)."""
    data: dict[str, Any] = json.loads(page.evaluate("JSON.stringify(window.kobo.view)"))
    return data


def pending(page: Page) -> dict[str, Any] | None:
    """The pending prompt of the last view the page received."""
    data: dict[str, Any] | None = page.evaluate("window.kobo.view && window.kobo.view.pending")
    return data


def settle(page: Page) -> None:
    """Wait until the page has drawn the last view it received."""
    page.wait_for_function("() => document.body.dataset.rendered === String(window.kobo.stateSeq)")


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
            page.click(f'#ops button.act[data-action="{action}"]')
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

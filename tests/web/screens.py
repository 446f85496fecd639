"""Screenshots to look at: each game on a phone, an upright tablet and a tablet held sideways,
during a decision and during a resolution (Kōbō's chain played back link by link, TWGP's
response window, Project Maken's judge strip), with the page's own settings.

Not a test: a person runs it and looks. ``python -m tests.web.screens OUT_DIR`` (Debian's
``chromium`` and the Japanese fonts installed) writes ``<size>_<game>_decision.png`` and
``<size>_<game>_resolution.png`` into OUT_DIR.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from tests.web.driver import (
    SIZES,
    pick,
    press,
    reach_choice,
    settle,
    shorter_games,
    visible_options,
)

# What "a resolution is on screen" means in each game, as the page shows it.
RESOLVING = {
    "kobo": "!!document.querySelector('#lane').dataset.playback",
    "twgp": "!!document.querySelector('#tw-board [data-layer]')",
    "maken": "!!document.querySelector('#mk-board .live[data-layer]')",
}
SHORTER = {"kobo": {"best_of": 1}, "twgp": {"turnLimit": 6}, "maken": {"turnLimit": 4}}
_MINE = """() => {
  const o = document.querySelector('#overlay');
  if (o && !o.hidden) return 'over';
  if (document.querySelector('#ops .confirm')) return 'confirm';
  return document.body.dataset.myTurn === '1'
    && !!document.querySelector('#ops button.act:not([disabled])') ? 'act' : '';
}"""


def shoot(page: Any, ruleset: str, touch: bool, out: Path, name: str) -> list[str]:
    """Play the bottom seat until both pictures are taken (or the match ends)."""
    taken: list[str] = []
    for _ in range(300):
        deadline = time.monotonic() + 60
        state = ""
        while not state and time.monotonic() < deadline:
            if "resolution" not in taken and page.evaluate(RESOLVING[ruleset]):
                page.screenshot(path=str(out / f"{name}_resolution.png"))
                taken.append("resolution")
            state = page.evaluate(_MINE)
            if not state:
                page.wait_for_timeout(60)
        if state in ("over", "") or len(taken) == 2:
            return taken
        if state == "confirm":
            press(page, "#ops .confirm-yes", touch)
            continue
        settle(page)
        options = visible_options(page)
        if "decision" not in taken and len(options) > 1:
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / f"{name}_decision.png"))
            taken.append("decision")
        choice = pick(ruleset, options) if options else ""
        button = f'#ops button.act[data-action="{choice}"]'
        before = page.evaluate("document.body.dataset.promptId")
        reach_choice(page, button, touch)
        press(page, button, touch)
        page.wait_for_function(
            f"() => document.body.dataset.promptId !== '{before}'"
            " || !document.querySelector('#overlay').hidden"
        )
    return taken


def main(out: Path) -> None:
    """Write the screenshots into ``out``."""
    from playwright.sync_api import sync_playwright

    from kessen.server.run import running

    out.mkdir(parents=True, exist_ok=True)
    with running(pace=0.6) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        for size in ("phone", "tablet", "tablet-wide"):
            for ruleset in ("kobo", "twgp", "maken"):
                ctx = browser.new_context(**SIZES[size], locale="ja-JP")
                page = ctx.new_page()
                page.set_default_timeout(60_000)
                page.goto(url)
                touch = bool(SIZES[size].get("has_touch"))
                page.wait_for_selector("#start:not([hidden])")
                press(page, f'#game-pick input[value="{ruleset}"]', touch)
                if ruleset == "twgp":
                    page.wait_for_selector("#twgp-options:not([hidden]) #tw-quick")
                    press(page, "#tw-quick", touch)
                shorter_games(page, SHORTER[ruleset])
                press(page, "#start-button", touch)
                name = f"{size}_{ruleset}"
                taken = shoot(page, ruleset, touch, out, name)
                print(name, ", ".join(taken) or "nothing")
                ctx.close()
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "screens"))

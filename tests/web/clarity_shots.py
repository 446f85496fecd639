"""Screenshots to look at, at 1440×900: each game's option preview (the option under the
pointer, its "what happens if" above the operation panel) and three frames of a resolution's
playback (the first, the second, the last with its banner).

Not a test: a person runs it and looks. ``python -m tests.web.clarity_shots OUT_DIR [LANG]``
(Debian's ``chromium`` and the Japanese fonts installed) writes ``<game>_preview.png`` and
``<game>_frame<n>.png`` into OUT_DIR.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tests.web.driver import _place_of, pending, pick, press, prompt_id, settle, visible_options

_STATE = """() => {
  if (document.body.dataset.playback) return 'playback';
  const o = document.querySelector('#overlay');
  if (o && !o.hidden) return 'overlay';
  if (document.querySelector('#ops .confirm')) return 'confirm';
  if (document.body.dataset.myTurn === '1'
      && document.querySelector('#ops button.act:not([disabled])')) return 'act';
  return false;
}"""
_MOVED = """before => document.body.dataset.promptId !== before || !!document.body.dataset.playback
  || !document.querySelector('#overlay').hidden || !!document.querySelector('#ops .confirm')"""


def shoot(page: Any, ruleset: str, out: Path) -> list[str]:
    """Play the bottom seat by clicking until the preview and three frames are taken."""
    taken: list[str] = []
    for _ in range(400):
        state = str(page.wait_for_function(_STATE, timeout=60_000).json_value())
        if state == "playback":
            framed = sum(x.startswith("frame") for x in taken) >= 3
            while shown := page.evaluate("document.body.dataset.playback"):
                index, count = (int(x) for x in shown.split("/"))
                if not framed and count >= 3 and index in (1, 2, count):
                    page.wait_for_timeout(150)
                    name = f"frame{min(index, 3)}"
                    page.screenshot(path=str(out / f"{ruleset}_{name}.png"))
                    taken.append(name)
                page.wait_for_function(
                    "s => document.body.dataset.playback !== s"
                    " || !document.querySelector('#overlay').hidden",
                    arg=shown,
                    timeout=30_000,
                )
                if page.is_visible("#overlay"):
                    break
            if sum(x.startswith("frame") for x in taken) >= 3 and "preview" in taken:
                return taken
            continue
        if state == "overlay":
            if page.is_visible("#overlay-continue"):
                page.click("#overlay-continue")
                continue
            return taken
        if state == "confirm":
            page.click("#ops .confirm-yes")
            continue
        settle(page)
        options = visible_options(page)
        now = pending(page)
        if ruleset == "twgp" and now and now["prompt"] == "build":
            options = [a for a in now["legal"] if a != "done"] or options
        previews = page.evaluate(
            "Object.keys((window.kobo.view && window.kobo.view.previews) || {})"
        )
        choice = pick(ruleset, options)
        if previews and "preview" not in taken:
            shown = next((o for o in options if o in previews), None)
            if shown:
                page.hover(f'#ops button.act[data-action="{shown}"]')
                page.wait_for_selector("#option-preview:not([hidden])")
                page.wait_for_timeout(150)
                page.screenshot(path=str(out / f"{ruleset}_preview.png"))
                taken.append("preview")
                choice = shown
        before = prompt_id(page)
        place = _place_of(page, ruleset, choice, now) if now else None
        if place:
            press(page, place, touch=False, corner=True)
        else:
            page.click(f'#ops button.act[data-action="{choice}"]')
        page.wait_for_function(_MOVED, arg=before)
    return taken


def main(out: Path, lang: str = "ja") -> None:
    """Take the pictures of the three games into ``out``."""
    from playwright.sync_api import sync_playwright

    from kessen.server.run import running
    from tests.web.conftest import ARGS, CHROMIUM

    out.mkdir(parents=True, exist_ok=True)
    settings = json.dumps({"resolvePace": "slow", "lang": lang})
    with running(pace=0.0) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for ruleset in ("kobo", "twgp", "maken"):
            ctx = browser.new_context(viewport={"width": 1440, "height": 900}, locale="ja-JP")
            ctx.add_init_script(
                f"localStorage.setItem('kobo.settings', JSON.stringify({settings}))"
            )
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_selector("#start:not([hidden])")
            page.check(f'input[name=game][value="{ruleset}"]')
            page.check('input[name=mode][value="vs_com"]')
            page.click("#start-button")
            page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
            print(ruleset, shoot(page, ruleset, out))
            ctx.close()
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]), *(sys.argv[2:3]))

"""Project Maken's HTML replay: the page draws Maken's board at every step it is asked for,
without a script error, and a seat's board never names the other seat's unseen cards."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from kessen.store import html_replay
from tests.maken.records import random_record, unseen_names

CHROMIUM = shutil.which("chromium")


def test_the_page_embeds_only_maken_s_board_module() -> None:
    page = html_replay.render(random_record(["MI", "RI"], 2), "en")
    assert "BOARDS.maken" in page and "BOARDS.twgp" not in page and "BOARDS.kobo" not in page


@pytest.mark.skipif(
    CHROMIUM is None or importlib.util.find_spec("playwright") is None,
    reason="Chromium (Debian package `chromium`) or Playwright is not installed",
)
def test_the_maken_page_draws_steps_without_error_or_leak(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    replay = random_record(["MI", "RI"], 5)
    states = list(replay.states())
    path = tmp_path / "maken.html"
    path.write_text(html_replay.render(replay, "en"), encoding="utf-8")
    steps = sorted({0, 1, len(states) - 1, *range(0, len(states), max(1, len(states) // 12))})
    errors: list[str] = []
    checked = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        try:
            page = browser.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(path.as_uri())
            for viewer in ("0", "1", "all"):
                page.select_option("#viewer", viewer)
                for step in steps:
                    page.evaluate(f"go({step})")
                    board = page.inner_text("#board")
                    assert "attack field" in board and "stamina" in board, board
                    if viewer != "all":
                        for name in unseen_names(states[step], int(viewer), "en"):
                            assert name not in board, (viewer, step, name)
                            checked += 1
            assert "winner" in page.inner_text("#board")
        finally:
            browser.close()
    assert errors == []
    assert checked > 10

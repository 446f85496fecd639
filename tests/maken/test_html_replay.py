"""Project Maken's HTML replay: the page draws Maken's board at every step it is asked for,
without a script error, and a seat's board never names the other seat's unseen cards."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from kessen.engine import registry
from kessen.engine.contract import GameState
from kessen.engine.players import RandomPlayer, play_out
from kessen.engine.replay import Replay
from kessen.store import html_replay

CHROMIUM = shutil.which("chromium")
CONFIG = {"decks": ["MI", "RI"]}


def _recorded_game(seed: int) -> Replay:
    state = registry.get("maken").new_game(CONFIG, seed)
    replay = Replay.start(state, CONFIG, seed)
    play_out(
        state,
        {0: RandomPlayer(seed), 1: RandomPlayer(seed + 1)},
        on_step=lambda after, _seat, action: replay.record(action, after),
    )
    return replay


def _unseen(state: GameState, viewer: int) -> set[str]:
    """The other seat's hand and face-down support names absent from ``viewer``'s view."""
    truth = state.view_all("en")["players"][1 - viewer]
    secret = [c["name"] for c in truth["hand"]["cards"]]
    secret += [c["name"] for c in truth["support"] if c.get("face") == "down"]
    shown = json.dumps(state.view(viewer, "en"), ensure_ascii=False)
    return {name for name in secret if name not in shown}


def test_the_page_embeds_only_maken_s_board_module() -> None:
    page = html_replay.render(_recorded_game(2), "en")
    assert "BOARDS.maken" in page and "BOARDS.twgp" not in page and "BOARDS.kobo" not in page


@pytest.mark.skipif(
    CHROMIUM is None or importlib.util.find_spec("playwright") is None,
    reason="Chromium (Debian package `chromium`) or Playwright is not installed",
)
def test_the_maken_page_draws_steps_without_error_or_leak(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    replay = _recorded_game(5)
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
                        for name in _unseen(states[step], int(viewer)):
                            assert name not in board, (viewer, step, name)
                            checked += 1
            assert "winner" in page.inner_text("#board")
        finally:
            browser.close()
    assert errors == []
    assert checked > 10

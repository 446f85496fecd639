"""The self-contained HTML replay: embedded views equal the engine's, no outside resource."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from kessen.store import MatchStore, html_replay
from tests.store.helpers import play_recorded


def _data(page: str) -> dict[str, Any]:
    match = re.search(
        r'<script id="kessen-data" type="application/json">(.*?)</script>', page, re.S
    )
    assert match is not None
    return json.loads(match.group(1))  # type: ignore[no-any-return]


def _decode(data: dict[str, Any], index: int, memo: dict[int, Any]) -> Any:
    """What the page's JavaScript ``dec`` does."""
    if index not in memo:
        kind, value = data["kinds"][index], data["values"][index]
        if kind == "d":
            memo[index] = {k: _decode(data, v, memo) for k, v in value.items()}
        elif kind == "l":
            memo[index] = [_decode(data, v, memo) for v in value]
        else:
            memo[index] = value
    return memo[index]


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Any]:
    store = MatchStore(tmp_path_factory.mktemp("html") / "h.sqlite3")
    match_id, _, _ = play_recorded(store, 17)
    replay = store.load_replay(match_id)
    return html_replay.render(replay, "en", title="test <match>"), replay


def test_every_step_embeds_the_three_views(page: tuple[str, Any]) -> None:
    text, replay = page
    data = _data(text)
    states = list(replay.states())
    assert len(data["steps"]) == len(replay.actions) == len(states) - 1
    memo: dict[int, Any] = {}
    for key, viewer in html_replay.VIEWERS:
        assert len(data["views"][key]) == len(states)
        for step in (0, 1, len(states) // 2, len(states) - 1):
            view = (
                states[step].view_all("en") if viewer is None else states[step].view(viewer, "en")
            )
            log = view.pop("log")
            assert _decode(data, data["views"][key][step], memo) == view
            assert data["log_lengths"][key][step] == len(log)
            assert len(data["logs"][key][: len(log)]) == len(log)
    # Seat views never carry the other seat's hand.
    final = _decode(data, data["views"]["0"][-1], memo)
    assert final["players"][1]["hand"]["cards"] is None
    assert data["steps"][0]["action"]["all"] == replay.actions[0]


def test_the_page_is_self_contained(page: tuple[str, Any]) -> None:
    text, _ = page
    assert text.startswith("<!DOCTYPE html>")
    assert "test &lt;match&gt;" in text
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", text)
    assert "<link" not in text and "@import" not in text
    for control in ('id="play"', 'id="seek"', 'id="viewer"', 'id="next"', 'id="prev"'):
        assert control in text


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_script_parses(page: tuple[str, Any], tmp_path: Path) -> None:
    text, _ = page
    scripts = re.findall(r"<script>(.*?)</script>", text, re.S)
    path = tmp_path / "replay.js"
    path.write_text(scripts[-1], encoding="utf-8")
    result = subprocess.run(["node", "--check", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_secret_choices_are_hidden_from_the_other_seat() -> None:
    assert html_replay.shown_action("take power-surge", 1, 0, "kobo") == "take …"
    assert html_replay.shown_action("take power-surge", 1, 1, "kobo") == "take power-surge"
    assert html_replay.shown_action("pick 2", 1, 0, "kobo") == "pick 2"
    assert html_replay.shown_action("pick oni-warlord", 0, None, "kobo") == "pick oni-warlord"

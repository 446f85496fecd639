"""TWGP トランプ版 records in the store: check, export/import, HTML replays, hidden choices."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.replay import Replay
from kessen.games.twgp.cards import is_slug
from kessen.sim.commands import mount
from kessen.store import MatchStore, exchange, html_replay
from kessen.store.html_replay import shown_action
from tests.store.helpers import play_twgp_recorded

runner = CliRunner()
app = typer.Typer()
mount(app)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    path = tmp_path_factory.mktemp("twgp") / "t.sqlite3"
    with MatchStore(path) as store:
        match_id = play_twgp_recorded(store, 21)
    return path, match_id


def _words(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _words(item, out)
    elif isinstance(value, list):
        for item in value:
            _words(item, out)
    return out


def test_store_check_export_import_and_html(recorded: tuple[Path, int], tmp_path: Path) -> None:
    path, match_id = recorded
    with MatchStore(path) as store:
        info = store.info(match_id)
        assert info.ruleset == "twgp" and info.is_finished and info.decks == (None, None)
        assert store.check(match_id) is None
        document = exchange.export_match(store, match_id)
        assert document["replay"]["ruleset"] == "twgp"
        assert "s10" in (document["cards"] or {})  # the pack as recorded
        copy = exchange.import_match(store, json.loads(exchange.dumps(document)))
        assert store.check(copy) is None
        changed = json.loads(exchange.dumps(document))
        changed["replay"]["hashes"]["20"] = "0" * 24
        with pytest.raises(exchange.ImportDivergence, match="step 20"):
            exchange.import_match(store, changed)  # verified by default: refused
        broken = exchange.import_match(store, changed, check=False)
        divergence = store.check(broken)
        assert divergence is not None and divergence.step == 20
    db = str(path)
    result = runner.invoke(app, ["store", "check", str(match_id), str(copy), "--db", db])
    assert result.exit_code == 0, result.output
    assert result.output.count("replays exactly") == 2
    result = runner.invoke(app, ["store", "check", str(broken), "--db", db])
    assert result.exit_code == 1 and "step 20" in result.output
    page = tmp_path / "m.html"
    result = runner.invoke(app, ["store", "html", str(match_id), "--db", db, "-o", str(page)])
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    assert html_replay.EXPORT_ID in text and "None vs None" not in text


def test_html_replay_hides_the_other_seats_secret_choices(recorded: tuple[Path, int]) -> None:
    path, match_id = recorded
    with MatchStore(path) as store:
        answers, _ = html_replay.answers(store, match_id)
    frames = {
        seat: answers[f"/api/matches/{match_id}/replay?seat={seat}&lang=en"]["frames"]
        for seat in ("0", "1", "all")
    }
    hidden = [
        {seat: frames[seat][step]["action"] for seat in frames}
        for step, frame in enumerate(frames["all"])
        if frame["actor"] == 1
    ]
    assert any(a["0"] == "vital …" and a["1"].startswith("vital ") for a in hidden)
    assert all(a["0"] == a["all"] or a["0"].endswith("…") for a in hidden)


@pytest.mark.parametrize("seed", [3, 8])
def test_shown_actions_name_only_cards_the_viewer_sees(seed: int, tmp_path: Path) -> None:
    """For every step and viewer, a card the other seat's shown action names is one the
    viewer's view shows after that step (on the board, or in that step's log entries)."""
    with MatchStore(tmp_path / "s.sqlite3") as store:
        replay: Replay = store.load_replay(
            play_twgp_recorded(store, seed, {"buildReload": True, "weaponCache": True})
        )
    previous = None
    hidden_verbs: set[str] = set()
    for index, state in enumerate(replay.states()):
        if previous is not None:
            assert previous.pending is not None
            actor = previous.pending.seat
            viewer = 1 - actor
            text = replay.actions[index - 1]
            shown = shown_action(text, actor, viewer, "twgp")
            if shown != text:
                hidden_verbs.add(Action.parse(text).verb)
                continue
            before = len(previous.view(viewer)["log"])
            view = state.view(viewer)
            visible = _words({k: v for k, v in view.items() if k != "log"}, set())
            visible |= _words(view["log"][before:], set())
            for arg in Action.parse(text).args:
                if isinstance(arg, str) and is_slug(arg):
                    assert arg in visible, (index, text)
        previous = state
    secret = registry.get("twgp").secret_action
    assert hidden_verbs
    assert all(secret(Action.parse(f"{verb} x")) for verb in hidden_verbs)


def test_shown_action_keeps_kobo_rules() -> None:
    assert shown_action("take oni-warlord", 0, 1, "kobo") == "take …"
    assert shown_action("pick reinforcement-call", 0, 1, "kobo") == "pick …"
    assert shown_action("pick 2", 0, 1, "kobo") == "pick 2"
    assert shown_action("take oni-warlord", 0, 0, "kobo") == "take oni-warlord"
    assert shown_action("hand s3", 0, 1, "twgp") == "hand …"
    assert shown_action("hand s3", 0, 1, "kobo") == "hand s3"  # each ruleset's own secrets
    assert shown_action("hand s3", 0, None, "twgp") == "hand s3"


CHROMIUM = shutil.which("chromium")


@pytest.mark.skipif(
    CHROMIUM is None or importlib.util.find_spec("playwright") is None,
    reason="Chromium (Debian package `chromium`) or Playwright is not installed",
)
def test_the_twgp_page_draws_every_step_without_a_script_error(
    recorded: tuple[Path, int], tmp_path: Path
) -> None:
    from playwright.sync_api import sync_playwright

    path, match_id = recorded
    with MatchStore(path) as store:
        replay = store.load_replay(match_id)
        page_path = tmp_path / "m.html"
        page_path.write_text(html_replay.render(store, match_id, "en"), encoding="utf-8")
    steps = len(replay.actions)
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(page_path.as_uri())
            page.wait_for_function("() => window.kobo.replay && window.kobo.view")
            for viewer in ("0", "1", "all"):
                page.click(f'#rp-seat .chip[data-value="{viewer}"]')
                page.keyboard.press("Home")
                for step in range(1, steps + 1):  # every step drawn, one after the other
                    page.keyboard.press("ArrowRight")
                    page.wait_for_function(
                        "n => window.kobo.view && window.kobo.view.history.step === n", arg=step
                    )
                assert len(page.inner_text("#tw-board").strip()) > 20
            assert page.inner_text("#rp-move").startswith(("P1: ", "P2: "))
        finally:
            browser.close()
    assert errors == []

"""Project Maken's plain-text board: ``kessen replay`` prints it, and it shows no more than
the view it is drawn from (the opponent's hand and face-down support cards stay hidden)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kessen.cli import app
from kessen.games.maken.textboard import maken_board
from tests.maken.records import random_record, unseen_names


def test_board_never_names_a_card_hidden_from_its_reader() -> None:
    replay = random_record(["SO", "GA"], 4)
    checked = 0
    for state in replay.states():
        for viewer in (0, 1):
            text = "\n".join(maken_board(state.view(viewer, "ja"), "ja"))
            for name in unseen_names(state, viewer, "ja"):
                assert name not in text, name
                checked += 1
    assert checked > 50  # the opponent held unseen cards at many steps
    last = "\n".join(maken_board(replay.final_state().view(0, "en"), "en"))
    assert "P1" in last and "(you)" in last and "attack field" in last and "▮" in last


def test_kessen_replay_prints_the_board(tmp_path: Path) -> None:
    replay = random_record(["SO", "GA"], 7)
    path = tmp_path / "maken.json"
    path.write_text(json.dumps(replay.to_json()), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path), "--seat", "0", "--lang", "en"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "hashes verified" in out and "result: P" in out
    assert "│ turn 1 · prompt" in out and "attack field (attack total" in out
    assert "(you)" in out

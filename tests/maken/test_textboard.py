"""Project Maken's plain-text board: ``kessen replay`` prints it, and it shows no more than
the view it is drawn from (the opponent's hand and face-down support cards stay hidden)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kessen.cli import app
from kessen.engine import registry
from kessen.engine.contract import GameState
from kessen.engine.players import RandomPlayer, play_out
from kessen.engine.replay import Replay
from kessen.games.maken.textboard import maken_board

CONFIG = {"decks": ["SO", "GA"]}


def _recorded_game(seed: int) -> Replay:
    state = registry.get("maken").new_game(CONFIG, seed)
    replay = Replay.start(state, CONFIG, seed)
    play_out(
        state,
        {0: RandomPlayer(seed), 1: RandomPlayer(seed + 1)},
        on_step=lambda after, _seat, action: replay.record(action, after),
    )
    return replay


def _hidden_names(state: GameState, viewer: int) -> set[str]:
    """Names of the other seat's hand and face-down support cards that ``viewer`` sees
    nowhere in its own view right now."""
    truth = state.view_all("ja")["players"][1 - viewer]
    secret = [c["name"] for c in truth["hand"]["cards"]]
    secret += [c["name"] for c in truth["support"] if c.get("face") == "down"]
    shown = json.dumps(state.view(viewer, "ja"), ensure_ascii=False)
    return {name for name in secret if name not in shown}


def test_board_never_names_a_card_hidden_from_its_reader() -> None:
    replay = _recorded_game(4)
    checked = 0
    for state in replay.states():
        for viewer in (0, 1):
            text = "\n".join(maken_board(state.view(viewer, "ja"), "ja"))
            for name in _hidden_names(state, viewer):
                assert name not in text, name
                checked += 1
    assert checked > 50  # the opponent held unseen cards at many steps
    last = "\n".join(maken_board(replay.final_state().view(0, "en"), "en"))
    assert "P1" in last and "(you)" in last and "attack field" in last and "▮" in last


def test_kessen_replay_prints_the_board(tmp_path: Path) -> None:
    replay = _recorded_game(7)
    path = tmp_path / "maken.json"
    path.write_text(json.dumps(replay.to_json()), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path), "--seat", "0", "--lang", "en"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "hashes verified" in out and "result: P" in out
    assert "│ turn 1 · prompt" in out and "attack field (attack total" in out
    assert "(you)" in out

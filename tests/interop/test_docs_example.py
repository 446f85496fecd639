"""The examples of docs/pettingzoo.md run as written, and their stored games pass the check."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kessen.cli import app
from kessen.store import MatchStore

DOC = Path(__file__).resolve().parents[2] / "docs" / "pettingzoo.md"
BLOCK = re.compile(r"```python\n(# example: [^\n]*\n.*?)```", re.DOTALL)


def _examples() -> dict[str, str]:
    blocks = BLOCK.findall(DOC.read_text(encoding="utf-8"))
    return {code.splitlines()[0].removeprefix("# example: "): code for code in blocks}


def test_the_page_has_both_examples() -> None:
    assert set(_examples()) == {"random vs heuristic", "self-play into the store"}


def test_random_vs_heuristic_example(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    exec(compile(_examples()["random vs heuristic"], str(DOC), "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["kobo", "twgp"]
    assert all("reward totals" in line for line in lines)


def test_self_play_example_writes_games_the_store_check_accepts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(_examples()["self-play into the store"], str(DOC), "exec"), namespace)
    games = namespace["GAMES"]
    assert isinstance(games, int)
    db = tmp_path / "selfplay.sqlite3"
    with MatchStore(db) as store:
        infos = store.list_matches(source="selfplay")
        assert len(infos) == games
        assert all(info.is_finished for info in infos)
        ids = [str(info.id) for info in infos]
    result = CliRunner().invoke(app, ["store", "check", *ids, "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert result.output.count("replays exactly") == games

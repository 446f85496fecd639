"""``kessen store ...`` through typer's test runner (mounted as the lead will mount it), with
``--db`` naming an SQLite file or a PostgreSQL URL."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from kessen.games.kobo.schema import load_pool
from kessen.sim.commands import mount
from kessen.store import MatchStore
from tests.store.helpers import play_recorded

runner = CliRunner()
app = typer.Typer()
mount(app)


def _ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture
def db(store_target: str) -> tuple[str, int]:
    with MatchStore(store_target) as store:
        match_id, _, _ = play_recorded(store, 5)
    return store_target, match_id


def test_list_show_export_import_html_check_branch(db: tuple[str, int], tmp_path: Path) -> None:
    path, match_id = db
    assert _ok("store", "path", "--db", path).strip() == path
    listing = _ok("store", "list", "--db", path, "--deck", "swarm", "--finished", "--json")
    assert json.loads(listing.splitlines()[0])["id"] == match_id
    table = _ok("store", "list", "--db", path)
    assert "swarm" in table and "tempo" in table
    assert _ok("store", "list", "--db", path, "--unfinished", "--json").strip() == ""
    shown = json.loads(_ok("store", "show", str(match_id), "--db", path))
    assert shown["id"] == match_id and "0" in shown["hashes"]
    out = tmp_path / "m.json"
    _ok("store", "export", str(match_id), "--db", path, "-o", str(out))
    imported = _ok("store", "import", str(out), "--db", path)
    assert "imported as match 2" in imported
    page = tmp_path / "m.html"
    _ok("store", "html", "2", "--db", path, "-o", str(page), "--lang", "en")
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "replays exactly" in _ok("store", "check", "1", "2", "--db", path)
    assert "continues match 1 after step 4" in _ok("store", "branch", "1", "4", "--db", path)
    assert _ok("store", "list", "--db", path, "--unfinished", "--json").count("\n") == 1


def test_errors_are_one_line(db: tuple[str, int], monkeypatch: pytest.MonkeyPatch) -> None:
    path, match_id = db
    for args in (
        ["store", "show", "99", "--db", path],
        ["store", "list", "--db", path, "--result", "2"],
        ["store", "list", "--db", path, "--since", "yesterday"],
        ["store", "import", "/no/such/file.json", "--db", path],
        ["store", "list", "--db", "postgresql:/one-slash/kessen"],
        ["store", "path", "--db", "mysql://host/kessen"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "error:" in result.output and "Traceback" not in result.output
    card = load_pool().get("musket-captain")
    monkeypatch.setitem(load_pool().cards, card.slug, dataclasses.replace(card, lv=card.lv + 1))
    result = runner.invoke(app, ["store", "check", str(match_id), "--db", path])
    assert result.exit_code == 1
    assert "musket-captain" in result.output

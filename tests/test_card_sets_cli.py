"""``kessen sets`` and ``kessen sim --set / --compare`` through typer's test runner: derive,
export, edit, import (a revision with its changelog, or every problem by field), show, list,
diff, delete; a simulation with a set, and an A/B comparison on the same seeds whose records
replay (``kessen store check``)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kessen.cli import app
from kessen.engine import card_sets
from kessen.store import MatchStore

runner = CliRunner()


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(card_sets.CACHE_ENV, str(tmp_path / "set-cache"))
    monkeypatch.setattr(card_sets, "_KNOWN", {})
    yield


def _run(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result.stdout


def _fails(*args: str) -> str:
    """The output (errors included) of a command that must end with exit code 2."""
    result = runner.invoke(app, list(args))
    assert result.exit_code == 2, result.output
    return result.output


def test_derive_export_edit_import_show_diff_delete(tmp_path: Path) -> None:
    db = str(tmp_path / "store.sqlite3")
    out = _run("sets", "derive", "balance", "--from", "v3", "--note", "start", "--db", db)
    assert "derived from kobo v3 (shipped)" in out
    first = re.search(r"ref: (balance@[0-9a-f]{64})", out)
    assert first is not None
    path = tmp_path / "balance.toml"
    _run("sets", "export", "balance", "-o", str(path), "--db", db)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Kessen card set") and "[[card]]" in text and "[deck.main]" in text
    path.write_text(text.replace("lv = 4\n", "lv = 6\n", 1), encoding="utf-8")
    out = _run("sets", "import", str(path), "--note", "buff", "--db", db)
    assert "revision 2" in out and "card ashigaru-recruit: lv 4 → 6" in out
    out = _run("sets", "import", str(path), "--db", db)
    assert "the file holds its current revision" in out
    shown = _run("sets", "show", "balance", "--db", db, "--lang", "ja")
    assert "カード ashigaru-recruit：lv 4 → 6" in shown and "kobo v3 から派生" in shown
    as_json = json.loads(_run("sets", "show", "balance", "--json", "--db", db))
    assert as_json["revisions"] == 2 and as_json["log"][1]["note"] == "buff"
    listed = [json.loads(line) for line in _run("sets", "list", "--json", "--db", db).splitlines()]
    assert [s["name"] for s in listed] == ["balance"]
    assert "card ashigaru-recruit: lv 4 → 6" in _run("sets", "diff", "v3", "balance", "--db", db)
    assert "no change" in _run("sets", "diff", "balance", "balance", "--db", db)
    # Bad values: every problem by field, nothing saved.
    broken = text.replace("lv = 4\n", "lv = 12\n", 1).replace('kind = "trap"', 'kind = "wizard"')
    path.write_text(broken, encoding="utf-8")
    out = _run("sets", "import", str(path), "--lang", "ja", "--db", db, code=2)
    assert "cards[0].lv: 9以下にしてください" in out and ".kind: 次のどれかにしてください" in out
    assert json.loads(_run("sets", "show", "balance", "--json", "--db", db))["revisions"] == 2
    assert "names a shipped version" in _fails("sets", "derive", "v4", "--db", db)
    assert "(kobo) and Project Maken (maken) only" in _fails(
        "sets", "derive", "twgp-set", "--ruleset", "twgp", "--db", db
    )
    assert "no card set 'nothing'" in _fails("sets", "show", "nothing", "--db", db)
    assert "deleted card set balance" in _run("sets", "delete", "balance", "--db", db)
    assert _run("sets", "list", "--json", "--db", db).strip() == ""


def test_a_maken_set_from_a_new_file(tmp_path: Path) -> None:
    db = str(tmp_path / "store.sqlite3")
    _run("sets", "derive", "mk", "--ruleset", "maken", "--from", "shipped", "--db", db)
    path = tmp_path / "mk.toml"
    _run("sets", "export", "mk", "-o", str(path), "--db", db)
    text = path.read_text(encoding="utf-8").replace("atk = 8", "atk = 9", 1)
    (tmp_path / "other.toml").write_text(text, encoding="utf-8")
    out = _run("sets", "import", str(tmp_path / "other.toml"), "--ruleset", "maken", "--db", db)
    assert "new card set other (maken)" in out and "card SO01: atk 8 → 9" in out


def test_sim_with_a_set_and_an_ab_comparison_on_the_same_seeds(tmp_path: Path) -> None:
    db = str(tmp_path / "store.sqlite3")
    _run("sets", "derive", "same", "--db", db)
    _run("sets", "derive", "strong", "--db", db)
    with MatchStore(db) as store:
        sets = store.card_sets()
        data = sets.data("strong")
        for card in data["cards"]:
            if card["kind"] == "character" and card["lv"] < 9:
                card["lv"] += 1
        sets.save("strong", data)
    common = ["--players", "random", "-n", "4", "--workers", "1", "--quiet", "--db", db]
    once = str(tmp_path / "once")
    out = _run("sim", "--set", "strong", "--decks", "swarm,tempo", "--report", once, *common)
    assert "4 games" in out
    report = tmp_path / "report"
    out = _run(
        "sim",
        "--compare",
        "shipped,same",
        "--decks",
        "swarm,tempo",
        "--report",
        str(report),
        "--run",
        "ab",
        *common,
    )
    assert "A = shipped, B = same: 4 games paired by seed" in out
    found = json.loads((report / "compare.json").read_text(encoding="utf-8"))
    # An unchanged copy of the shipped cards plays exactly the same games.
    assert found["turns"]["diff"] == 0 and found["matchups"][0]["test"]["p"] == 1.0
    assert found["specs"][1]["card_set"].startswith("same@")
    assert (report / "a" / "report.json").is_file() and (report / "b" / "report.json").is_file()
    with MatchStore(db) as store:
        ids = [m.id for m in store.list_matches(source="sim")]
        configs = [store.get(i).config for i in ids]
    assert sum(1 for c in configs if str(c.get("card_set", "")).startswith("strong@")) == 4
    assert "replays exactly" in _run("store", "check", *map(str, ids), "--db", db)
    assert "no card set 'nothing'" in _fails("sim", "--set", "nothing", "--db", db)
    assert "expected two card data" in _fails("sim", "--compare", "shipped", "--db", db)
    assert "(kobo) and Project Maken (maken) only" in _fails(
        "sim", "--set", "same", "--ruleset", "twgp", "--db", db
    )

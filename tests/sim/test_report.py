"""The report: HTML with inline plots and links to replays, plus the JSON data."""

from __future__ import annotations

import json
import re
from pathlib import Path

from kessen.sim import report
from kessen.sim.backends import InlineBackend
from kessen.sim.tournament import StoreJournal, TournamentSpec, run
from kessen.store import MatchStore

SPEC = TournamentSpec(decks=("swarm", "tempo"), players=("random",), games=12, seed=5)


def test_report_html_and_json(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "r.sqlite3") as store:
        result = run(SPEC, StoreJournal(store, "report", SPEC), InlineBackend())
    first = result.summaries[0]["match_id"]
    html_path, json_path = report.write(result, tmp_path / "out", {first: "replays/x.html"})
    page = html_path.read_text(encoding="utf-8")
    data = json.loads(json_path.read_text(encoding="utf-8"))
    assert data["complete"] and len(data["games"]) == 12
    assert data["entrants"] == ["swarm/random", "tempo/random"]
    assert data["stats"]["matchups"][0]["games"]["n"] == 12
    assert len(re.findall(r'src="data:image/png;base64,', page)) >= 5
    assert '<a href="replays/x.html">' in page
    second = result.summaries[1]["match_id"]
    assert f'title="kessen store html {second}"' in page
    assert "first player" in page.lower() and "Wilson" in page
    assert not re.search(r"(src|href)=\"https?:", page)

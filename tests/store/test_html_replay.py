"""The exported replay (``kessen store html``): the app's own page and modules in one file,
carrying the server's own answers for the record, nothing outside it.

The browser side (the page drawn from disk, each perspective, no hidden card shown) is
``tests/web/test_exported_replay.py``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx2
import pytest
from typer.testing import CliRunner

from kessen.cli import app
from kessen.server.run import running
from kessen.store import MatchStore, html_replay
from tests.store.exported import RULESETS, SEEDS, record_com_match

runner = CliRunner()


@dataclass
class Exported:
    path: Path
    store: MatchStore
    url: str
    ids: dict[str, int]
    pages: dict[str, str]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Exported]:
    path = tmp_path_factory.mktemp("export") / "store.sqlite3"
    with MatchStore(path) as store:
        ids = {ruleset: record_com_match(store, ruleset) for ruleset in RULESETS}
        pages = {ruleset: html_replay.render(store, ids[ruleset], "en") for ruleset in RULESETS}
        with running(pace=0.0, store=store) as url:
            yield Exported(path, store, url, ids, pages)


class Blocks(HTMLParser):
    """The page's script and style blocks, its tags' attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.styles: list[str] = []
        self.attrs: list[tuple[str, dict[str, str | None]]] = []
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.attrs.append((tag, dict(attrs)))
        if tag == "script":
            self.scripts.append((dict(attrs), ""))
        elif tag == "style":
            self.styles.append("")
        self._in = tag if tag in ("script", "style") else None

    def handle_data(self, data: str) -> None:
        if self._in == "script":
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)
        elif self._in == "style":
            self.styles[-1] += data

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._in = None


def blocks(page: str) -> Blocks:
    parser = Blocks()
    parser.feed(page)
    return parser


def embedded(page: str) -> dict[str, Any]:
    """The page's data block: the match, its language, its views and the answers, unpacked."""
    scripts = blocks(page).scripts
    (data,) = [text for attrs, text in scripts if attrs.get("id") == html_replay.EXPORT_ID]
    found: dict[str, Any] = json.loads(data)
    found["answers"] = {k: html_replay.unpacked(v) for k, v in found["answers"].items()}
    return found


STATEMENT = re.compile(
    r"""^(?:import\s*(?:[\w*{}\s,$]+?\s*from\s*)?|export\s*(?:\*|\{[^}]*\})\s*from\s*)"""
    r"""['"]([^'"]+)['"]""",
    re.MULTILINE,
)
"""A module's import (or re-export) statement, and its specifier."""


def big_numbers(value: Any, where: str = "") -> list[str]:
    """Where ``value`` holds an integer a JavaScript number would not keep exactly."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [where] if abs(value) > 2**53 else []
    if isinstance(value, dict):
        return [w for k, v in value.items() for w in big_numbers(v, f"{where}.{k}")]
    if isinstance(value, list):
        return [w for i, v in enumerate(value) for w in big_numbers(v, f"{where}[{i}]")]
    return []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_page_carries_what_the_server_answers(exported: Exported, ruleset: str) -> None:
    match_id = exported.ids[ruleset]
    data = embedded(exported.pages[ruleset])
    answers = data["answers"]
    assert (data["match"], data["lang"], data["seats"]) == (match_id, "en", ["0", "1", "all"])

    def server(path: str) -> Any:
        response = httpx2.get(f"{exported.url}{path}", timeout=60)
        assert response.status_code == 200, response.text
        return response.json()

    assert answers[f"/api/matches/{match_id}"] == server(f"/api/matches/{match_id}")
    for lang in ("ja", "en"):
        for seat in ("0", "1", "all"):
            path = f"/api/matches/{match_id}/replay?seat={seat}&lang={lang}"
            assert answers[path] == server(path), path
        for kind in ("catalog", "glossary", "rules"):
            path = f"/api/{kind}/{ruleset}?lang={lang}"
            assert answers[path] == server(path), path
    assert answers["/api/credits"]["rulesets"] == {
        ruleset: server("/api/credits")["rulesets"][ruleset]
    }
    meta = server("/api/meta")["rulesets"][ruleset]
    mine = answers["/api/meta"]["rulesets"]
    assert list(mine) == [ruleset]  # the start screen's COM (the test server's is its own):
    assert {**mine[ruleset], "default_com": ""} == {**meta, "default_com": ""}
    assert answers["/api/meta"]["store"] is False  # no history, no saved decks to reach


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_seed_and_every_number_survive_javascript(exported: Exported, ruleset: str) -> None:
    match_id = exported.ids[ruleset]
    answers = embedded(exported.pages[ruleset])["answers"]
    listing = answers[f"/api/matches/{match_id}"]["match"]
    assert listing["seed"] == str(SEEDS[ruleset]) == str(exported.store.info(match_id).seed)
    assert SEEDS[ruleset] > 2**53  # a seed a JavaScript number would round
    for path, answer in answers.items():
        assert big_numbers(answer) == [], path
    listed = httpx2.get(f"{exported.url}/api/matches", params={"ruleset": ruleset}).json()
    assert [m["seed"] for m in listed["matches"]] == [str(SEEDS[ruleset])]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_seat_s_replay_holds_that_seat_s_views(exported: Exported, ruleset: str) -> None:
    match_id = exported.ids[ruleset]
    answers = embedded(exported.pages[ruleset])["answers"]
    states = list(exported.store.load_replay(match_id).states())
    for seat in ("0", "1", "all"):
        whole = answers[f"/api/matches/{match_id}/replay?seat={seat}&lang=ja"]
        assert whole["steps"] == len(states) - 1
        for step in sorted({0, 1, len(states) // 2, len(states) - 1}):
            state = states[step]
            view = state.view_all("ja") if seat == "all" else state.view(int(seat), "ja")
            log = view.pop("log")
            assert whole["views"][step] == view, (seat, step)
            length = whole["log_lengths"][step]
            shown = whole["log"][:length] if length >= 0 else whole["log_overrides"][str(step)]
            assert [{k: v for k, v in e.items() if k != "text"} for e in shown] == log


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_page_is_the_app_and_needs_nothing_outside_it(exported: Exported, ruleset: str) -> None:
    page = exported.pages[ruleset]
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">')
    found = blocks(page)
    kinds = [attrs.get("type") for attrs, _ in found.scripts]
    assert kinds == ["importmap", "application/json", "module"]
    imports = json.loads(found.scripts[0][1])["imports"]
    assert set(imports) == {html_replay.module_key(p) for p in html_replay.modules()}
    assert {"kessen/shell/main.js", "kessen/shell/replay.js", "kessen/shell/embedded.js"} <= set(
        imports
    )
    assert {"kessen/games/kobo.js", "kessen/games/twgp.js", "kessen/games/maken.js"} <= set(imports)
    assert all(url.startswith("data:text/javascript;base64,") for url in imports.values())
    assert (found.scripts[2][0]["src"] or "").startswith("data:text/javascript;base64,")
    for source in html_replay.modules().values():  # every import is one of the map's keys
        for spec in re.findall(STATEMENT, source):
            assert spec in imports, spec
    # Nothing is loaded from anywhere: no address but data: URLs, no inline event handler.
    for tag, attrs in found.attrs:
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, name)
            if name in ("src", "href") and value:
                assert value.startswith("data:"), (tag, name, value)
    assert "/static/" not in "".join(found.styles)
    assert "@import" not in "".join(found.styles)
    # The app's stylesheets, each one once, in the page's order.
    assert len(found.styles) >= 11
    csp = next(
        attrs["content"] or ""
        for tag, attrs in found.attrs
        if tag == "meta" and attrs.get("http-equiv") == "Content-Security-Policy"
    )
    assert "connect-src 'none'" in csp and "default-src 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp


def test_the_command_line_writes_it_and_keeps_an_unfinished_match_s_secrets(
    exported: Exported, tmp_path: Path
) -> None:
    db = str(exported.path)
    kobo = exported.ids["kobo"]
    target = tmp_path / "kobo.html"
    result = runner.invoke(app, ["store", "html", str(kobo), "--db", db, "-o", str(target)])
    assert result.exit_code == 0, result.output
    data = embedded(target.read_text(encoding="utf-8"))
    assert data["lang"] == "ja" and data["seats"] == ["0", "1", "all"]
    # An unfinished match shows no view to anyone: refused, unless its owner names the views.
    unfinished = record_com_match(exported.store, "kobo", steps=12)
    result = runner.invoke(app, ["store", "html", str(unfinished), "--db", db])
    assert result.exit_code != 0 and "--seat" in result.output
    target = tmp_path / "open.html"
    result = runner.invoke(
        app,
        ["store", "html", str(unfinished), "--db", db, "--seat", "0", "-o", str(target)],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    data = embedded(target.read_text(encoding="utf-8"))
    assert data["seats"] == ["0"]
    answers = data["answers"]
    assert not [k for k in answers if "seat=1" in k or "seat=all" in k]
    assert "seed" not in answers[f"/api/matches/{unfinished}"]["match"]  # it deals every card
    result = runner.invoke(app, ["store", "html", "9999", "--db", db])
    assert result.exit_code != 0
    result = runner.invoke(app, ["store", "html", str(kobo), "--db", db, "--seat", "2"])
    assert result.exit_code != 0 and "seat" in result.output


def test_secret_choices_are_hidden_from_the_other_seat() -> None:
    assert html_replay.shown_action("take power-surge", 1, 0, "kobo") == "take …"
    assert html_replay.shown_action("take power-surge", 1, 1, "kobo") == "take power-surge"
    assert html_replay.shown_action("pick 2", 1, 0, "kobo") == "pick 2"
    assert html_replay.shown_action("pick oni-warlord", 0, None, "kobo") == "pick oni-warlord"

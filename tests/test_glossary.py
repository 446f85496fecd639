"""Each ruleset's glossary: it parses, both languages say something, the API serves it, and
every word the browser marks with ``term('key')`` is in the glossary of its game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kessen.engine import registry
from kessen.engine.glossary import parse_glossary
from kessen.server.app import create_app

STATIC = Path(__file__).resolve().parents[1] / "src" / "kessen" / "web" / "static" / "games"
RULESETS = ("kobo", "twgp", "maken")
TERM_CALL = re.compile(r"\bterm\(\s*'([a-z0-9_]+)'")


@pytest.mark.parametrize("name", RULESETS)
def test_every_ruleset_ships_a_glossary_in_both_languages(name: str) -> None:
    ruleset = registry.get(name)
    ja, en = ruleset.glossary("ja"), ruleset.glossary("en")
    assert len(ja) >= 8, f"{name}: a glossary of {len(ja)} terms"
    assert [t["key"] for t in ja] == [t["key"] for t in en]
    for a, b in zip(ja, en, strict=True):
        assert a["term"] and a["text"] and b["term"] and b["text"]
        japanese = re.search(r"[ぁ-んァ-ン一-龥]", b["text"])
        assert not japanese, f"{name}/{b['key']}: Japanese in English"


@pytest.mark.parametrize("name", RULESETS)
def test_every_word_the_page_marks_is_in_its_games_glossary(name: str) -> None:
    keys = {t["key"] for t in registry.get(name).glossary("ja")}
    used: set[str] = set()
    for path in STATIC.glob(f"{name}*.js"):
        used |= set(TERM_CALL.findall(path.read_text(encoding="utf-8")))
    assert used, f"{name}: the page marks no glossary word"
    assert used <= keys, f"{name}: marked but not in the glossary: {sorted(used - keys)}"


def test_the_api_serves_the_glossary_and_refuses_unknown_rulesets() -> None:
    client = TestClient(create_app(pace=0.0), base_url="http://127.0.0.1")
    page = client.get("/api/glossary/kobo", params={"lang": "en"})
    assert page.status_code == 200
    body = page.json()
    assert body["ruleset"] == "kobo" and body["lang"] == "en" and body["terms"]
    assert client.get("/api/glossary/nope").status_code == 404
    assert client.get("/api/glossary/kobo", params={"lang": "fr"}).status_code == 422


_ONE = "[[term]]\nkey='a'\nja='x'\nen='x'\nja_text='y'\nen_text='y'\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no [[term]]"),
        ("[[term]]\nkey = 'A'\n", "key must be"),
        ("[[term]]\nkey = 'a'\nja = 'x'\nen = 'x'\nja_text = 'y'\n", "no en_text"),
        (
            "[[term]]\nkey='a'\nja='x'\nen='x'\nja_text='y'\nen_text='y'\n" * 2,
            "appears twice",
        ),
        (_ONE + "what='z'\n", "unknown fields"),
        (_ONE.replace("ja_text='y'", "ja_text='" + "あ" * 200 + "'"), "characters"),
        ("[[term", "not TOML"),
    ],
)
def test_a_broken_glossary_names_its_mistake(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_glossary(text)

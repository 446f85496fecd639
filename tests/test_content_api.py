"""The rules screens and the credits: served from the rulesets' own documents, safely rendered."""

from __future__ import annotations

from fastapi.testclient import TestClient

from kessen.server.app import create_app
from kessen.server.content_api import render_rules


def client() -> TestClient:
    return TestClient(create_app(pace=0.0), base_url="http://127.0.0.1")


def test_each_ruleset_serves_its_rules_in_both_languages() -> None:
    with client() as http:
        for ruleset, screen_title in (("kobo", "13. 画面の見方"), ("twgp", "カード")):
            page = http.get(f"/api/rules/{ruleset}", params={"lang": "ja"}).json()
            assert page["ruleset"] == ruleset and page["lang"] == "ja"
            assert screen_title in [entry["title"] for entry in page["toc"]]
            english = http.get(f"/api/rules/{ruleset}", params={"lang": "en"}).json()
            assert english["html"] != page["html"]
        kobo = http.get("/api/rules/kobo", params={"lang": "en"}).json()
        # The board links its screen guide by this anchor.
        assert '<h2 id="sec-13">13. Using the screen</h2>' in kobo["html"]
        assert {"id": "sec-13", "level": 2, "title": "13. Using the screen"} in kobo["toc"]
        assert "<table>" in kobo["html"]  # the rules' tables are tables


def test_unknown_ruleset_and_language_are_refused_without_echo() -> None:
    with client() as http:
        answer = http.get("/api/rules/<script>alert(1)</script>")
        assert answer.status_code == 404
        assert "<script>" not in answer.text
        assert http.get("/api/rules/kobo", params={"lang": "fr"}).status_code == 422


def test_raw_html_and_script_links_in_a_document_are_not_passed_through() -> None:
    html, toc = render_rules(
        "# Title\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) <b>bold</b>\n"
    )
    assert "<script>" not in html and "<b>" not in html
    assert 'href="javascript:' not in html
    assert toc == [{"id": "h-0", "level": 1, "title": "Title"}]


def test_credits_attribute_every_card_icon() -> None:
    with client() as http:
        credits = http.get("/api/credits").json()
    kobo = credits["rulesets"]["kobo"]
    assert len(kobo) == 1 and kobo[0]["license"]["spdx"] == "CC-BY-3.0"
    catalog_icons = set(http_catalog_icons())
    assert {entry["name"] for entry in kobo[0]["icons"]} == catalog_icons
    assert credits["rulesets"]["twgp"] == []  # an ordinary pack of cards: nothing to credit


def http_catalog_icons() -> list[str]:
    with client() as http:
        catalog = http.get("/api/catalog/kobo", params={"lang": "en"}).json()
    assert all(card["icon"] in catalog["icons"] for card in catalog["cards"].values())
    return list(catalog["icons"])


def test_a_japanese_paragraph_wrapped_in_its_source_shows_no_stray_spaces() -> None:
    """A line break inside a paragraph shows as a space; between Japanese characters there is
    none (「定めた ルール」 was seen), while English keeps its spaces."""
    import re
    import unicodedata

    from kessen.server.content_api import render_rules, rules_page

    html, _ = render_rules("定めた\nルールです。\n\nWrapped\nEnglish.")
    assert "定めたルールです。" in html and "Wrapped\nEnglish." in html

    def wide(c: str) -> bool:
        return unicodedata.east_asian_width(c) in ("W", "F")

    for ruleset in ("kobo", "twgp", "maken"):
        page = rules_page(ruleset, "ja")
        paragraphs = re.findall(r"<p>(.*?)</p>", str(page["html"]), flags=re.S)
        text = "\n\n".join(re.sub(r"<[^>]+>", "", p) for p in paragraphs)
        gaps = [m.group(0) for m in re.finditer(r"(.)\n(.)", text) if wide(m[1]) and wide(m[2])]
        assert not gaps, (ruleset, gaps[:5])

"""Kōbō's opening switches on the start screen: the advanced settings offer the tactics counts
of each seat and the pass penalty (the seed's values marked as the standard, Japanese and
English), a changed value is labelled a variant and reaches the game's config, and the server
refuses a bad value naming the option and its range."""

from __future__ import annotations

from typing import Any

import httpx2

from tests.web.driver import shot, view

SELECTS = ("first_tactics", "second_tactics", "pass_penalty")


def selected_text(page: Any, key: str) -> str:
    """The text of the chosen value of a switch."""
    text: str = page.eval_on_selector(
        f'#kb-opening select[name="{key}"]', "s => s.selectedOptions[0].textContent"
    )
    return text


def test_the_switches_default_to_the_seed_and_a_variant_reaches_the_game(
    page: Any, server: str
) -> None:
    page.wait_for_selector("#start:not([hidden])")
    page.click("#kb-opening summary")
    for key in SELECTS:
        assert page.locator(f'#kb-opening select[name="{key}"]').is_visible()
    assert selected_text(page, "first_tactics") == "5枚（標準・原案）"
    assert selected_text(page, "second_tactics") == "7枚（標準・原案）"
    assert "（標準・原案）" in selected_text(page, "pass_penalty")
    assert "後攻の戦術手札" in page.inner_text("#kb-opening")
    assert page.inner_text("#kb-opening-note") == "標準ルール（原案どおり）"

    page.select_option('#kb-opening select[name="second_tactics"]', "5")
    assert page.inner_text("#kb-opening-note") == "バリアント：後攻の戦術手札"
    assert selected_text(page, "second_tactics") == "5枚"
    shot(page, "kobo_opening_start_ja")

    page.click('#start [data-lang="en"]')
    page.wait_for_function(
        "() => document.querySelector('#kb-opening-note').textContent"
        ' === "Variant: Second player\'s tactics hand"'
    )
    assert page.input_value('#kb-opening select[name="second_tactics"]') == "5"  # kept
    assert selected_text(page, "first_tactics") == "5 cards (standard, the seed's)"
    assert "Pass penalty" in page.inner_text("#kb-opening")
    shot(page, "kobo_opening_start_en")

    page.click("#start-button")
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
    assert view(page)["opening"] == {
        "first_tactics": 5,
        "second_tactics": 5,
        "pass_penalty": "growing",
    }


def test_the_standard_sends_no_opening_keys(page: Any, server: str) -> None:
    page.wait_for_selector("#start:not([hidden])")
    bodies: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda r: (
            bodies.append(r.post_data_json)
            if r.method == "POST" and r.url.endswith("/api/games")
            else None
        ),
    )
    page.click("#start-button")
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
    assert "opening" not in view(page)
    assert bodies and not set(SELECTS) & set(bodies[0].get("config") or {})


def test_the_server_refuses_a_bad_value_naming_the_option(server: str) -> None:
    refused = httpx2.post(
        f"{server}/api/games", json={"decks": ["tempo", "swarm"], "config": {"first_tactics": 0}}
    )
    assert refused.status_code == 422
    assert "first_tactics: expected a whole number from 1 to 15, not 0" in refused.text
    ok = httpx2.post(
        f"{server}/api/games",
        json={"decks": ["tempo", "swarm"], "config": {"pass_penalty": "none"}},
    )
    assert ok.status_code == 200, ok.text

"""The card editor's form (``GET /api/design/games/{ruleset}/form``): the fields are the
ruleset's own schema, and its hints agree with the checks: every field a shipped card uses is
shown for its kind, every verb offered for a kind passes the checks there, each counted verb
starts from an amount the checks accept, and the game's own words name its values."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kessen.engine import card_sets
from kessen.games.kobo import card_sets as kobo_sets
from kessen.games.kobo.cards import TARGETED_VERBS, CardKind, Verb
from kessen.games.kobo.icons import icon_names
from kessen.games.kobo.schema import card_def_of
from kessen.games.kobo.text import kind_label
from kessen.games.maken import card_sets as maken_sets
from kessen.games.maken.cards import Card
from kessen.server.app import create_app
from kessen.server.design_forms import card_form
from kessen.store import MatchStore


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv(card_sets.CACHE_ENV, str(tmp_path / "set-cache"))
    with MatchStore(tmp_path / "m.sqlite3") as store:
        app = create_app(pace=0.0, store=store)
        with TestClient(app, base_url="http://127.0.0.1:8000") as local:
            yield local


def test_the_route_serves_each_game_with_card_sets(client: TestClient) -> None:
    kobo = client.get("/api/design/games/kobo/form").json()
    assert kobo["key"] == "slug" and kobo["ruleset"] == "kobo"
    assert set(kobo["icons"]) == set(icon_names())
    maken = client.get("/api/design/games/maken/form").json()
    assert maken["key"] == "id" and maken["decks_keyed"] is True
    assert client.get("/api/design/games/twgp/form").status_code == 404


def test_kobo_fields_are_the_schemas() -> None:
    form = card_form("kobo")
    fields = form["card"]["properties"]
    assert fields["kind"]["enum"] == [k.value for k in CardKind]
    assert fields["steps"]["items"]["properties"]["verb"]["enum"] == [v.value for v in Verb]
    assert fields["lv"]["maximum"] == 9
    assert fields["target"]["nullable"] is True
    assert form["card"]["order"] == list(kobo_sets.CARD_FIELDS)
    sections = form["deck"]["properties"]
    assert sections["main"]["additionalProperties"]["type"] == "integer"
    assert sections["requires"]["items"]["enum"] == ["surprise"]
    words = form["words"]["kind"]
    assert all(
        words[k.value] == {"ja": kind_label(k, "ja"), "en": kind_label(k, "en")} for k in CardKind
    )


@pytest.mark.parametrize(
    ("ruleset", "cards", "kind_of"),
    [
        ("kobo", kobo_sets.shipped("v3")["cards"], lambda c: c["kind"]),
        ("maken", maken_sets.shipped()["cards"], lambda c: c["kind"]),
    ],
)
def test_every_field_a_shipped_card_uses_is_shown_for_its_kind(
    ruleset: str, cards: list[dict[str, Any]], kind_of: Any
) -> None:
    form = card_form(ruleset)
    props = form["card"]["properties"]
    for card in cards:
        shown = form["kinds"][kind_of(card)]
        used = {k for k, v in card.items() if v != props[k].get("default", object())}
        assert used <= set(shown), (card, used - set(shown))


def test_every_verb_offered_for_a_kind_passes_the_checks_there() -> None:
    form = card_form("kobo")
    counted = form["shown"]["steps.amount"]["in"]
    for kind, verbs in form["choices"]["steps.verb"].items():
        for verb in verbs:
            step: dict[str, Any] = {"verb": verb}
            if verb in counted:
                step["amount"] = counted[verb]
            steps = [step]
            if verb == Verb.RETREAT_IF_ZERO.value:
                steps = [{"verb": "modify_lv", "amount": -1}, step]
            card: dict[str, Any] = {
                "slug": "x",
                "kind": kind,
                "name_ja": "試",
                "name_en": "Try",
                "steps": steps,
            }
            if any(Verb(s["verb"]) in TARGETED_VERBS for s in steps):
                side = "defending" if verb == Verb.CHANGE_TARGET.value else "own"
                card["target"] = {"side": side, "scope": "chosen"}
            _, problems = card_def_of(card)
            assert problems == [], (kind, verb, problems)
    assert set(form["choices"]["surprise.steps.verb"]["tactic"]) < {v.value for v in Verb}


def test_maken_abilities_start_from_values_the_checks_accept() -> None:
    form = card_form("maken")
    ability = form["card"]["properties"]["abilities"]["items"]
    assert ability["order"] == ["timing", "if", "tag", "effect", "stat", "n"]
    stat = form["shown"]["abilities.stat"]
    card = {
        "id": "SO90",
        "name_ja": "試",
        "name_en": "Try",
        "character": "SO",
        "kind": "attack",
        "cost": 0,
        "abilities": [{"timing": "SELF", "effect": "mod", "stat": stat["in"]["mod"], "n": 1}],
    }
    Card.model_validate(card)
    assert form["words"]["character"]["SO"]["ja"] == "ソウマ"

"""Views, log lines and the catalogue: redaction details, every log kind in both languages."""

from __future__ import annotations

import random

from kessen.engine import registry
from kessen.games.twgp.game import new_game
from kessen.games.twgp.logtext import describe
from tests.twgp.harness import Side, board, play


def test_an_opponents_download_and_set_up_name_no_card() -> None:
    s = board(Side(hand=["sa"], pile=["c5", "c6"]), Side(), config={"setupAnytime": True})
    play(s, "charge-drive sa 1", "setup 1")
    theirs = s.view(1, "en")["log"]
    mine = s.view(0, "en")["log"]
    assert not any("cards" in e for e in theirs if e["kind"] == "download")
    assert any(e.get("cards") == ["c5", "c6"] for e in mine if e["kind"] == "download")
    lines = [describe(e, "en", 1) for e in theirs]
    assert "The opponent downloaded 2." in lines
    assert "The opponent set up charge square 1." in lines
    assert "あなたは2枚ダウンロードした（♣5・♣6）。" in [
        describe(e, "ja", 0) for e in s.view(0)["log"]
    ]


def test_every_log_kind_reads_in_both_languages_for_every_reader() -> None:
    kinds: set[str] = set()
    for seed, config in enumerate(
        [
            {},
            {
                "jokers": True,
                "weaponCache": True,
                "vitalEffect": True,
                "buildReload": True,
                "variantB": True,
            },
        ]
    ):
        for game in range(6):
            state = new_game(config, seed * 10 + game)
            chooser = random.Random(game)
            while state.pending is not None:
                legal = state.legal_actions()
                state.apply(legal[chooser.randrange(len(legal))])
            for viewer in (0, 1, None):
                for entry in state.view(viewer)["log"]:
                    kinds.add(entry["kind"])
                    for lang in ("ja", "en"):
                        text = describe(entry, lang, viewer)
                        assert text and text != entry["kind"], entry
    assert {"turn", "download", "result", "vital_lost", "game_over"} <= kinds


def test_the_catalogue_lists_the_pack_and_the_switches() -> None:
    cat = registry.get("twgp").catalog("ja")
    assert len(cat["cards"]) == 54 and cat["cards"]["hq"]["kind"] == "weapon"
    assert cat["cards"]["joker-r"]["base"] == 0
    assert set(cat["switches"]) == {
        "gridWidth",
        "jokers",
        "vitalEffect",
        "buildReload",
        "variantA",
        "variantB",
        "weaponCache",
        "quickStart",
        "strictMatrix05",
        "setupAnytime",
    }
    assert registry.get("twgp").catalog("en")["cards"]["sa"]["name"] == "Ace of Spades"

"""The "built" log entry: its public hand count stays a number for every reader, and its owner
alone reads the build (starting hand, vitals, cards set aside) in the log line."""

from __future__ import annotations

import random
from typing import Any

from kessen.engine.log import Event
from kessen.games.twgp.game import new_game
from kessen.games.twgp.logtext import describe

BUILDS: dict[str, Any] = {
    "firstPlayer": 0,
    "builds": [
        {
            "vitals": ["s10", "c10", "sk"],
            "aside": ["s9", "c9", "s8"],
            "hand": ["s3", "c2", "sa"],
        },
        {"vitals": ["h10", "d10", "dq"], "aside": ["h9", "d9", "h8"], "hand": []},
    ],
}


def _built(viewer: int | None, everything: bool = False) -> list[dict[str, Any]]:
    state = new_game(BUILDS, 1)
    log = state.view_all("en")["log"] if everything else state.view(viewer, "en")["log"]
    return [e for e in log if e["kind"] == "built"]


def test_the_hand_count_stays_a_number_for_every_reader() -> None:
    for viewer, everything in ((0, False), (1, False), (None, False), (None, True)):
        entries = _built(viewer, everything)
        assert [e["seat"] for e in entries] == [0, 1]
        assert [e["hand"] for e in entries] == [3, 0], (viewer, everything)
        assert [e["pile"] for e in entries] == [17, 20]


def test_only_the_owner_reads_its_build() -> None:
    mine, theirs = _built(0)
    assert mine["hand_cards"] == ["s3", "c2", "sa"]
    assert mine["vitals"] == ["s10", "c10", "sk"] and mine["aside"] == ["s9", "c9", "s8"]
    assert set(theirs) == {"kind", "seat", "hand", "pile"}


def test_the_owner_line_names_its_cards_in_both_languages() -> None:
    mine, theirs = _built(0)
    assert describe(mine, "ja", 0) == (
        "あなたは構築を終えた（手札3枚・山札17枚）。"
        "手札：♠3・♣2・♠A、ヴァイタル：♠10・♣10・♠K、ゲーム外：♠9・♣9・♠8。"
    )
    assert describe(mine, "en", 0) == (
        "You finished building (3 in hand, 17 in the pile). "
        "Hand: ♠3, ♣2, ♠A; vitals: ♠10, ♣10, ♠K; set aside: ♠9, ♣9, ♠8."
    )
    assert describe(theirs, "ja", 0) == "相手は構築を終えた（手札0枚・山札20枚）。"
    assert describe(theirs, "en", 0) == (
        "The opponent finished building (0 in hand, 20 in the pile)."
    )
    own_empty = _built(1)[1]
    assert describe(own_empty, "ja", 1).startswith(
        "あなたは構築を終えた（手札0枚・山札20枚）。手札：なし、"
    )
    assert describe(own_empty, "en", 1).startswith(
        "You finished building (0 in hand, 20 in the pile). Hand: none; "
    )


def test_the_neutral_line_of_a_finished_game_names_each_build() -> None:
    first = _built(None, everything=True)[0]
    counts = "P1 finished building (3 in hand, 17 in the pile)."
    assert describe(first, "en", None).startswith(f"{counts} Hand: ♠3, ♣2, ♠A; vitals: ")
    assert describe(_built(None)[0], "en", None) == counts


def test_no_private_field_shadows_a_public_one() -> None:
    """In every event of seeded games, the private part adds fields: it never replaces one."""
    kinds: set[str] = set()
    for seed, config in enumerate([{}, {"quickStart": True, "jokers": True, "buildReload": True}]):
        for game in range(4):
            state = new_game(config, seed * 10 + game)
            chooser = random.Random(game)
            while state.pending is not None:
                legal = state.legal_actions()
                state.apply(legal[chooser.randrange(len(legal))])
            events: list[Event] = list(state.log_events())
            for event in events:
                if event.private:
                    kinds.add(event.kind)
                    assert not set(event.private) & set(event.public), event
    assert "built" in kinds

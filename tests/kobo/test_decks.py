"""Kōbō decks: the starter decks, the §2 deck rules, deck files and the JSON form."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from kessen.games.kobo.cards import CardKind
from kessen.games.kobo.decks import (
    DECKS_DIR,
    Deck,
    deck_from_json,
    deck_to_json,
    load_deck,
    starter_decks,
    validate_deck,
)
from kessen.games.kobo.schema import CardDataError, load_pool

POOL = load_pool()


# --------------------------------------------------------------------------------------------
# Starter decks
# --------------------------------------------------------------------------------------------


def test_there_are_at_least_four_starter_decks_sorted_by_slug() -> None:
    decks = starter_decks()
    assert len(decks) >= 4
    assert list(decks) == sorted(decks)
    assert {"vanguard", "fortress", "swarm", "tempo"} <= set(decks)
    assert sorted(p.stem for p in DECKS_DIR.glob("*.toml")) == list(decks)


@pytest.mark.parametrize("slug", sorted(starter_decks()))
def test_every_starter_deck_is_valid(slug: str) -> None:
    deck = starter_decks()[slug]
    assert validate_deck(deck, POOL) == []
    assert len(deck.main_slugs()) == 20
    assert len(deck.tactics_slugs()) == 15
    for text in (deck.name_ja, deck.name_en, deck.style_ja, deck.style_en):
        assert text.strip()


def test_starter_decks_have_distinct_names_and_lists() -> None:
    decks = list(starter_decks().values())
    for attr in ("name_ja", "name_en", "style_ja", "style_en", "main", "tactics"):
        assert len({getattr(d, attr) for d in decks}) == len(decks), attr


def test_starter_decks_show_their_styles() -> None:
    decks = starter_decks()

    def characters(deck: Deck) -> list[int]:
        return [POOL.get(s).lv for s in deck.main_slugs() if POOL.get(s).is_character]

    def count(deck: Deck, kind: CardKind) -> int:
        return sum(POOL.get(s).kind is kind for s in deck.main_slugs())

    vanguard, swarm = characters(decks["vanguard"]), characters(decks["swarm"])
    assert sum(vanguard) / len(vanguard) > sum(swarm) / len(swarm)
    assert count(decks["fortress"], CardKind.TRAP) == max(
        count(d, CardKind.TRAP) for d in decks.values()
    )
    assert len(swarm) == max(len(characters(d)) for d in decks.values())
    chain_again = {
        slug: sum(POOL.get(s).chain_again for s in d.main_slugs() + d.tactics_slugs())
        for slug, d in decks.items()
    }
    assert chain_again["tempo"] == max(chain_again.values())


def test_default_starter_decks_are_cached_but_a_given_pool_reloads() -> None:
    first, second = starter_decks(), starter_decks()
    assert first == second
    assert all(first[k] is second[k] for k in first)
    assert starter_decks(POOL) == first


def test_expanded_slugs_follow_file_order() -> None:
    deck = starter_decks()["vanguard"]
    slugs = deck.main_slugs()
    assert slugs[:2] == [deck.main[0][0]] * 2
    assert [s for i, s in enumerate(slugs) if i == 0 or slugs[i - 1] != s] == [
        slug for slug, _ in deck.main
    ]


# --------------------------------------------------------------------------------------------
# The deck rules
# --------------------------------------------------------------------------------------------


def deck(main: dict[str, int], tactics: dict[str, int]) -> Deck:
    """A hand-built deck."""
    return Deck("test", "試験", "Test", "試", "Test", tuple(main.items()), tuple(tactics.items()))


def test_a_deck_breaking_every_rule_lists_every_violation() -> None:
    bad = deck(
        main={
            "oni-warlord": 3,  # too many copies
            "great-tengu": 2,
            "ashigaru-recruit": 2,  # 7 characters in all: too few
            "war-drum": 2,  # limited
            "power-surge": 1,  # a tactic in the main deck
            "no-such-card": 1,  # unknown
            "supply-wagon": 2,
            "rally-banner": 2,
            "training-manual": 2,
            "decoy": 2,
            "thorn-armor": 2,
        },  # 21 cards
        tactics={"weaken": 2, "decoy": 1, "last-stand": 2, "hinder": 9},  # 14, a trap
    )
    problems = validate_deck(bad, POOL)
    expected = [
        r"^main deck has 21 cards; it must hold exactly 20$",
        r"^main deck has 7 characters; it needs at least 8$",
        r"^main deck: 3 copies of 'oni-warlord' \(Oni Warlord / 鬼将軍\); at most 2 per deck$",
        r"^main deck: 2 copies of 'war-drum' .*which is limited; at most 1 per deck$",
        r"^main deck: 'power-surge' .* is a tactic; the main deck holds only characters",
        r"^main deck: unknown card 'no-such-card'",
        r"^tactics deck has 14 cards; it must hold exactly 15$",
        r"^tactics deck: 'decoy' \(Decoy / 身代わり\) is a trap; the tactics deck holds only",
        r"^tactics deck: 2 copies of 'last-stand' .*which is limited",
        r"^tactics deck: 9 copies of 'hinder'",
    ]
    assert len(problems) == len(expected), problems
    for pattern in expected:
        assert any(re.search(pattern, p) for p in problems), (pattern, problems)


def test_a_tiny_change_to_a_valid_deck_is_caught() -> None:
    good = starter_decks()["swarm"]
    main = dict(good.main)
    main["ashigaru-recruit"] += 1
    problems = validate_deck(deck(main, dict(good.tactics)), POOL)
    assert problems == [
        "main deck has 21 cards; it must hold exactly 20",
        "main deck: 3 copies of 'ashigaru-recruit' (Ashigaru Recruit / 見習い足軽); "
        "at most 2 per deck",
    ]


def test_repeated_entries_and_non_positive_counts_are_caught() -> None:
    good = starter_decks()["tempo"]
    repeated = replace(good, main=(*good.main, ("musket-captain", 1)))
    problems = validate_deck(repeated, POOL)
    assert "main deck has 21 cards; it must hold exactly 20" in problems
    assert any("3 copies of 'musket-captain'" in p for p in problems)
    zero = replace(good, tactics=(*good.tactics, ("total-war", 0)))
    assert validate_deck(zero, POOL) == [
        "tactics deck: 'total-war' (Total War / 総力戦) has count 0; counts must be at least 1"
    ]


def test_unknown_card_suggests_a_close_slug() -> None:
    good = starter_decks()["fortress"]
    main = {("decoyy" if s == "decoy" else s): n for s, n in good.main}
    problems = validate_deck(deck(main, dict(good.tactics)), POOL)
    assert problems == ["main deck: unknown card 'decoyy'; did you mean decoy?"]


# --------------------------------------------------------------------------------------------
# Deck files
# --------------------------------------------------------------------------------------------

GOOD_DECK = (DECKS_DIR / "vanguard.toml").read_text(encoding="utf-8")


def write(tmp_path: Path, text: str) -> Path:
    """Write a deck file and return its path."""
    path = tmp_path / "my-deck.toml"
    path.write_text(text, encoding="utf-8")
    return path


def load_error(tmp_path: Path, text: str) -> str:
    """The CardDataError message of loading a deck file with ``text``."""
    path = write(tmp_path, text)
    with pytest.raises(CardDataError) as info:
        load_deck(path, POOL)
    message = str(info.value)
    assert all(line.startswith(str(path)) for line in message.splitlines()), message
    return message


def test_a_deck_file_round_trips_through_load(tmp_path: Path) -> None:
    assert load_deck(write(tmp_path, GOOD_DECK), POOL) == starter_decks()["vanguard"]


def test_unknown_slugs_are_all_reported_with_file_and_field(tmp_path: Path) -> None:
    text = GOOD_DECK.replace("oni-warlord = 2", "oni-warlrd = 2").replace("hinder = 2", "hindr = 2")
    lines = load_error(tmp_path, text).splitlines()
    assert len(lines) == 2, lines
    assert lines[0].endswith(
        "main.oni-warlrd: unknown card slug 'oni-warlrd'; did you mean oni-warlord?"
    )
    assert "tactics.hindr: unknown card slug 'hindr'" in lines[1]


def test_deck_file_syntax_error_names_the_line(tmp_path: Path) -> None:
    text = GOOD_DECK.replace("great-tengu = 2", "great-tengu == 2")
    line = GOOD_DECK.splitlines().index("great-tengu = 2") + 1
    message = load_error(tmp_path, text)
    assert re.match(rf"{re.escape(str(tmp_path / 'my-deck.toml'))}:{line}:\d+: ", message)


@pytest.mark.parametrize(
    ("old", "new", "field", "reason"),
    [
        ('style_en = "', 'colour = "red"\nstyle_en = "', "colour", "Extra inputs"),
        ("great-tengu = 2", 'great-tengu = "two"', "main.great-tengu", "valid integer"),
        ("great-tengu = 2", "great-tengu = 0", "main.great-tengu", "greater than or equal to 1"),
        ('name_en = "Vanguard Assault"\n', "", "name_en", "Field required"),
        ('slug = "vanguard"', 'slug = "Van Guard"', "slug", "String should match pattern"),
    ],
)
def test_malformed_deck_file_names_file_field_and_reason(
    tmp_path: Path, old: str, new: str, field: str, reason: str
) -> None:
    assert old in GOOD_DECK
    message = load_error(tmp_path, GOOD_DECK.replace(old, new, 1))
    assert f"my-deck.toml: {field}: " in message, message
    assert reason in message, message


def test_shape_and_unknown_slug_errors_come_together(tmp_path: Path) -> None:
    text = GOOD_DECK.replace("great-tengu = 2", "great-tengu = 2.5").replace(
        "weaken = 2", "weakn = 2"
    )
    lines = load_error(tmp_path, text).splitlines()
    assert [line.split(": ")[1] for line in lines] == ["main.great-tengu", "tactics.weakn"]


# --------------------------------------------------------------------------------------------
# JSON form
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", sorted(starter_decks()))
def test_deck_json_round_trip(slug: str) -> None:
    original = starter_decks()[slug]
    data = json.loads(json.dumps(deck_to_json(original), ensure_ascii=False))
    assert deck_from_json(data) == original


def test_deck_from_json_refuses_bad_shapes_but_leaves_rules_to_validate() -> None:
    data = deck_to_json(starter_decks()["swarm"])
    with pytest.raises(CardDataError, match=r"^deck JSON: main: Input should be a valid dict"):
        deck_from_json({**data, "main": ["ashigaru-recruit"]})
    with pytest.raises(CardDataError, match=r"^deck JSON: expected an object"):
        deck_from_json([])  # type: ignore[arg-type]
    unknown = deck_from_json({**data, "main": {**data["main"], "ghost": 1}})
    assert "main deck: unknown card 'ghost'" in validate_deck(unknown, POOL)

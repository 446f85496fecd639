"""Log lines: every event kind has a sentence in both languages; hidden parts stay hidden."""

from __future__ import annotations

import re
from itertools import product
from pathlib import Path

import pytest

from kessen.engine import registry
from kessen.engine.contract import Json
from kessen.engine.players import Player, RandomPlayer, play_out
from kessen.games.kobo import logtext
from kessen.games.kobo.decks import starter_decks
from kessen.games.kobo.heuristic import HeuristicPlayer
from kessen.games.kobo.logtext import KINDS, describe

RULES = registry.get("kobo")
SOURCES = Path(logtext.__file__).parent
# Kinds too rare to count on in a few random games; each has an explicit test below.
RARE = {"redraw", "summon_fail", "nominate_fail", "no_target"}


def _logs() -> list[tuple[list[Json], int | None]]:
    """Logs of several full matches as each seat, an observer and an all-seeing viewer see them."""
    out: list[tuple[list[Json], int | None]] = []
    pairs = list(product(sorted(starter_decks()), repeat=2))
    for i in range(48):
        deck0, deck1 = pairs[i % len(pairs)]
        state = RULES.new_game({"decks": [deck0, deck1], "best_of": 3}, i)
        players: dict[int, Player] = (
            {0: RandomPlayer(i), 1: RandomPlayer(i + 50)}
            if i % 2
            else {0: HeuristicPlayer(i), 1: RandomPlayer(i)}
        )
        play_out(state, players)
        for viewer in (0, 1, None):
            out.append((state.view(viewer)["log"], viewer))
        out.append((state.view_all()["log"], None))
    return out


@pytest.fixture(scope="module")
def logs() -> list[tuple[list[Json], int | None]]:
    return _logs()


def _logged_kinds_in_source() -> set[str]:
    kinds: set[str] = set()
    for path in SOURCES.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        kinds |= set(re.findall(r'_log\(\s*state,\s*"([a-z_]+)"', text))
        kinds |= set(re.findall(r'Event\(\s*"([a-z_]+)"', text))
    return kinds


def test_every_kind_logged_by_the_rules_has_a_sentence() -> None:
    logged = _logged_kinds_in_source()
    assert logged, "found no log calls in the Kōbō sources"
    assert logged <= KINDS, f"log kinds without text: {sorted(logged - KINDS)}"


def test_every_kind_of_random_games_renders(logs: list[tuple[list[Json], int | None]]) -> None:
    seen: set[str] = set()
    for log, viewer in logs:
        for entry in log:
            seen.add(entry["kind"])
            assert entry["kind"] in KINDS, entry
            for lang in ("ja", "en"):
                line = describe(entry, lang, viewer)
                assert line and "\n" not in line
                assert "None" not in line and "{" not in line, (entry, line)
                if viewer is not None:
                    assert "P1" not in line and "P2" not in line, (entry, line)
    assert KINDS - seen <= RARE, f"kinds never seen: {sorted(KINDS - seen - RARE)}"


def test_card_names_come_from_the_pool() -> None:
    entry = {"kind": "place", "seat": 0, "slot": 2, "card": "oni-warlord"}
    assert describe(entry) == "P1は「鬼将軍」をバトルエリア2番に出した。"
    assert describe(entry, "en") == "P1 placed Oni Warlord in battle slot 2."
    assert describe(entry, "ja", viewer=0) == "あなたは「鬼将軍」をバトルエリア2番に出した。"
    assert describe(entry, "ja", viewer=1) == "相手は「鬼将軍」をバトルエリア2番に出した。"
    assert describe(entry, "en", viewer=1) == "The opponent placed Oni Warlord in battle slot 2."


def test_hidden_parts_are_said_to_be_hidden() -> None:
    hidden = describe({"kind": "tactics_draw", "seat": 1}, viewer=0)
    assert hidden == "相手は戦術カードを1枚引いた。"
    mine = describe({"kind": "tactics_draw", "seat": 0, "card": "weaken"}, viewer=0)
    assert mine == "あなたは戦術カードを1枚引いた：「弱体化」"
    hidden_set = describe({"kind": "set", "seat": 1, "slot": 3}, "en", viewer=0)
    assert hidden_set == "The opponent set a trap face down in strategy slot 3."
    draw = describe({"kind": "draw", "seat": 1, "count": 7}, viewer=0)
    assert draw == "相手はメインデッキから7枚引いた。"
    hand = describe({"kind": "tactics_hand", "seat": 1, "count": 5}, "en", viewer=0)
    assert hand == "The opponent chose 5 tactics as the tactics hand."


def test_surprise_set_reads_well_hidden_and_named() -> None:
    hidden = {"kind": "surprise_set", "seat": 1}
    assert describe(hidden, viewer=0) == "相手はサプライズ置場にカード1枚を裏向きで置いた。"
    assert describe(hidden, "en", viewer=0) == (
        "The opponent set a card face down in the surprise zone."
    )
    mine = {"kind": "surprise_set", "seat": 0, "card": "weaken"}
    assert describe(mine, viewer=0) == "あなたはサプライズ置場に「弱体化」を裏向きで置いた。"
    assert describe(mine, "en", viewer=0) == "You set Weaken face down in the surprise zone."


def test_views_never_name_the_opponents_hidden_cards(
    logs: list[tuple[list[Json], int | None]],
) -> None:
    for log, viewer in logs:
        if viewer is None:
            continue
        for entry in log:
            secret = entry["kind"] in ("draw", "tactics_draw", "tactics_hand", "set")
            if secret and entry["seat"] != viewer:
                line = describe(entry, "en", viewer)
                assert ":" not in line, line
                assert "card" not in entry and "cards" not in entry


@pytest.mark.parametrize(
    ("entry", "ja", "en"),
    [
        (
            {"kind": "redraw", "seat": 0, "cards": ["decoy"]},
            "P1の手札にキャラがいないため、手札を公開して引き直す：「身代わり」",
            "P1 drew no character: hand revealed (Decoy), shuffled back and redrawn.",
        ),
        (
            {"kind": "summon_fail", "seat": 1, "reason": "no_character"},
            "メインデッキにキャラがいないため、P2の召喚は失敗した。",
            "P2's summon failed: no character in the main deck.",
        ),
        (
            {"kind": "nominate_fail", "seat": 0, "reason": "fewer_than_3"},
            "メインデッキに名前の異なるキャラが3体揃わないため、P1の援軍指名は無効になった。",
            "P1's Reinforcement Call does nothing: no 3 different characters in the deck.",
        ),
        (
            {"kind": "no_target", "seat": 0, "card": "rally-banner"},
            "「鼓舞の旗」の対象にできるキャラがいないため、その効果は何もしない。",
            "Rally Banner has no character to choose: that effect does nothing.",
        ),
        (
            {
                "kind": "game_end",
                "game": 2,
                "winner": -1,
                "reason": "both_wiped",
                "turn": 9,
                "scores": [3, 3],
            },
            "第2ゲーム終了（ターン9）：完全に同点（P1 3 / P2 3）。このゲームは無効で再試合。",
            "Game 2 over (turn 9): a complete tie (P1 3 / P2 3); it is replayed.",
        ),
        (
            {"kind": "match_end", "winner": 1, "wins": [1, 2]},
            "マッチ終了：P2の勝利（1-2）。",
            "Match over: P2 won the match (1-2).",
        ),
    ],
)
def test_rare_kinds(entry: Json, ja: str, en: str) -> None:
    assert describe(entry) == ja
    assert describe(entry, "en") == en


def test_activation_names_kind_and_target() -> None:
    entry = {
        "kind": "activate",
        "seat": 1,
        "card": "weaken",
        "link": 2,
        "target_seat": 0,
        "target_slot": 4,
    }
    assert describe(entry, viewer=0) == (
        "連鎖2：相手が戦術「弱体化」を発動（対象：あなたの4番のキャラ）。"
    )
    assert describe(entry, "en", viewer=0) == (
        "Link 2: the opponent activated the tactic Weaken, choosing your slot 4."
    )
    negate = {"kind": "activate", "seat": 0, "card": "counter-seal", "link": 3, "negates": 2}
    assert describe(negate, "en") == "Link 3: P1 activated the trap Counter Seal, against link 2."


def test_unknown_kind_and_language() -> None:
    assert describe({"kind": "mystery", "x": 1}) == "mystery: x=1"
    with pytest.raises(ValueError, match="unknown language"):
        describe({"kind": "turn", "turn": 1, "seat": 0}, "fr")

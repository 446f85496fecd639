"""Kōbō attack declaration (kobo-rules §5.2): attackers, the multi-attacker cap, markings."""

from __future__ import annotations

from typing import Any

import pytest

from kessen.games.kobo.state import KoboState
from tests.kobo.harness import Side, battle_slugs, board, legal, play, slot_lv

# A tactics deck for the side that does not draw this turn: keeps the game from ending by
# exhaustion (§6) when the few cards of a scenario have been used.
PAD = ["hinder", "hinder", "hinder"]


def events(state: KoboState, kind: str) -> list[dict[str, Any]]:
    """The public part of the log events of one kind, oldest first."""
    return [e.public for e in state.log if e.kind == kind]


def close_chain(state: KoboState) -> None:
    """Both players pass until the chain closes."""
    while state.pending is not None and state.pending.prompt == "chain":
        play(state, "pass")


# --------------------------------------------------------------------------------------------
# A single attacker has no cap
# --------------------------------------------------------------------------------------------


def test_a_single_lv1_attacker_may_attack_a_lv6() -> None:
    s = board(
        Side(battle=["ashigaru-recruit", "spear-ashigaru"]),
        Side(battle=["oni-warlord", "great-tengu"], tactics_deck=PAD),
    )
    play(s, "attack 1")
    assert "target 1" in legal(s)
    assert "target 2" in legal(s)
    play(s, "target 1")
    assert s.pending is not None and (s.pending.seat, s.pending.prompt) == (1, "chain")
    assert events(s, "declare") == [
        {
            "seat": 0,
            "attackers": [1],
            "target": 1,
            "chars": ["ashigaru-recruit"],
            "target_char": "oni-warlord",
            "attack": 1,
            "defence": 6,
        }
    ]


def test_a_single_lv6_attacker_may_attack_a_lv1() -> None:
    s = board(
        Side(battle=["oni-warlord"]),
        Side(battle=["ashigaru-recruit", "messenger-tanuki"], tactics_deck=PAD),
    )
    play(s, "attack 1")
    assert {"target 1", "target 2"} <= set(legal(s))
    play(s, "target 2")
    close_chain(s)
    assert events(s, "result")[-1]["outcome"] == "attacker_wins"
    assert battle_slugs(s, 1) == ["ashigaru-recruit", None, None, None, None]


def test_the_turn_offers_every_own_character_as_first_attacker_and_pass() -> None:
    s = board(
        Side(battle=["ashigaru-recruit", None, "oni-warlord", None, "spear-ashigaru"]),
        Side(battle=["great-tengu"], tactics_deck=PAD),
    )
    assert legal(s) == ["attack 1", "attack 3", "attack 5", "pass"]


# --------------------------------------------------------------------------------------------
# The multi-attacker cap: total current Lv <= target Lv + 1
# --------------------------------------------------------------------------------------------

# Attacker: slot 1 Lv1, slot 2 Lv2, slot 3 Lv3, slot 4 Lv4.
ATTACKERS = ["ashigaru-recruit", "spear-ashigaru", "white-fox-miko", "crimson-cavalier"]


def test_adding_an_attacker_is_offered_up_to_exactly_target_plus_one() -> None:
    # The only possible target is Lv3: totals up to 4 are allowed.
    s = board(Side(battle=ATTACKERS), Side(battle=["musket-captain"], tactics_deck=PAD))
    play(s, "attack 1")  # Lv1
    options = legal(s)
    assert "attack 2" in options  # 1 + 2 = 3
    assert "attack 3" in options  # 1 + 3 = 4 = D + 1
    assert "attack 4" not in options  # 1 + 4 = 5 = D + 2
    assert "attack 1" not in options  # already attacking
    play(s, "attack 3")
    assert legal(s) == ["target 1"]  # nobody more fits under the cap
    play(s, "target 1")
    view = s.view(0)
    assert view["attack"]["attackers"] == [1, 3]


def test_adding_an_attacker_refused_at_target_plus_two() -> None:
    s = board(Side(battle=ATTACKERS), Side(battle=["musket-captain"], tactics_deck=PAD))
    play(s, "attack 2")  # Lv2
    options = legal(s)
    assert "attack 1" in options  # 2 + 1 = 3
    assert "attack 3" not in options  # 2 + 3 = 5 = D + 2
    assert "attack 4" not in options


def test_attack_offer_counts_the_best_possible_target() -> None:
    # Against Lv1 and Lv5 targets a Lv2 + Lv4 pair (6 = 5 + 1) is still possible.
    s = board(
        Side(battle=ATTACKERS),
        Side(battle=["ashigaru-recruit", "great-tengu"], tactics_deck=PAD),
    )
    play(s, "attack 2")
    assert "attack 4" in legal(s)
    play(s, "attack 4")
    assert "target 2" in legal(s)
    assert "target 1" not in legal(s)


@pytest.mark.parametrize(
    ("attackers", "target", "allowed"),
    [
        ((1, 2), 2, True),  # 3 vs Lv2: D + 1
        ((1, 2), 1, False),  # 3 vs Lv1: D + 2
        ((1, 3), 3, True),  # 4 vs Lv3: D + 1
        ((1, 3), 2, False),  # 4 vs Lv2: D + 2
        ((1, 2), 3, True),  # 3 vs Lv3: below the cap
    ],
)
def test_target_offer_with_several_attackers(
    attackers: tuple[int, int], target: int, allowed: bool
) -> None:
    # Defender: slot 1 Lv1, slot 2 Lv2, slot 3 Lv3.
    s = board(
        Side(battle=ATTACKERS),
        Side(battle=["messenger-tanuki", "shadow-shinobi", "yamabushi-ascetic"], tactics_deck=PAD),
    )
    play(s, *(f"attack {a}" for a in attackers))
    assert (f"target {target}" in legal(s)) is allowed


def test_cap_uses_current_lv_not_printed_lv() -> None:
    # The Lv4 cavalier was permanently lowered to base 2: Lv1 + 2 = 3 fits a Lv2 target.
    s = board(
        Side(battle=ATTACKERS, base={4: 2}),
        Side(battle=["shadow-shinobi"], tactics_deck=PAD),
    )
    play(s, "attack 1")
    assert "attack 4" in legal(s)
    play(s, "attack 4")
    assert legal(s) == ["target 1"]


def test_three_attackers_within_the_cap() -> None:
    s = board(
        Side(battle=["ashigaru-recruit", "messenger-tanuki", "spear-ashigaru"]),
        Side(battle=["crimson-cavalier"], tactics_deck=PAD),
    )
    play(s, "attack 1", "attack 2", "attack 3")  # 1 + 1 + 2 = 4 <= 5
    play(s, "target 1")
    assert events(s, "declare")[-1]["attackers"] == [1, 2, 3]
    assert events(s, "declare")[-1]["attack"] == 4


# --------------------------------------------------------------------------------------------
# No tapped state
# --------------------------------------------------------------------------------------------


def test_the_same_character_attacks_on_consecutive_own_turns() -> None:
    s = board(
        Side(battle=["oni-warlord"]),
        Side(battle=["ashigaru-recruit", "messenger-tanuki", "spear-ashigaru"], tactics_deck=PAD),
    )
    play(s, "attack 1", "target 1")
    close_chain(s)
    assert s.pending is not None and (s.pending.seat, s.pending.prompt) == (1, "turn")
    play(s, "pass")
    assert s.pending is not None and (s.pending.seat, s.pending.prompt) == (0, "turn")
    assert "attack 1" in legal(s)
    play(s, "attack 1", "target 2")
    close_chain(s)
    assert [e["target"] for e in events(s, "declare")] == [1, 2]
    assert battle_slugs(s, 1) == [None, None, "spear-ashigaru", None, None]


def test_attackers_of_a_multi_attack_may_attack_together_again() -> None:
    s = board(
        Side(battle=["ashigaru-recruit", "spear-ashigaru"]),
        Side(battle=["shadow-shinobi", "spear-ashigaru", "oni-warlord"], tactics_deck=PAD),
    )
    play(s, "attack 1", "attack 2", "target 1")  # 3 vs Lv2
    close_chain(s)
    play(s, "pass")
    assert {"attack 1", "attack 2"} <= set(legal(s))
    play(s, "attack 1", "attack 2", "target 2")
    close_chain(s)
    assert [e["outcome"] for e in events(s, "result")] == ["attacker_wins", "attacker_wins"]
    assert battle_slugs(s, 1) == [None, None, "oni-warlord", None, None]


# --------------------------------------------------------------------------------------------
# Markings in the view
# --------------------------------------------------------------------------------------------


def test_attackers_and_target_are_marked_in_every_view() -> None:
    s = board(
        Side(battle=["ashigaru-recruit", "spear-ashigaru", "musket-captain"]),
        Side(battle=["great-tengu", "crimson-cavalier", "oni-warlord"], tactics_deck=PAD),
    )
    view = s.view(0)
    assert view["attack"] is None
    play(s, "attack 1", "attack 3", "target 2")  # 1 + 3 = 4 vs Lv4
    for viewer in (0, 1):
        view = s.view(viewer)
        assert view["attack"] == {"seat": 0, "attackers": [1, 3], "target": 2, "negated": False}
        mine = view["players"][0]["battle"]
        theirs = view["players"][1]["battle"]
        assert [c["attacking"] for c in mine[:3]] == [True, False, True]
        assert [c["target"] for c in mine[:3]] == [False, False, False]
        assert [c["target"] for c in theirs[:3]] == [False, True, False]
        assert [c["attacking"] for c in theirs[:3]] == [False, False, False]


def test_the_declaration_is_logged_publicly() -> None:
    s = board(
        Side(battle=["ashigaru-recruit", "spear-ashigaru"]),
        Side(battle=["white-fox-miko"], tactics_deck=PAD),
    )
    play(s, "attack 2", "attack 1", "target 1")
    entry = [e for e in s.view(1)["log"] if e["kind"] == "declare"]
    assert entry == [
        {
            "kind": "declare",
            "seat": 0,
            "attackers": [2, 1],
            "target": 1,
            "chars": ["spear-ashigaru", "ashigaru-recruit"],
            "target_char": "white-fox-miko",
            "attack": 3,
            "defence": 3,
        }
    ]


# --------------------------------------------------------------------------------------------
# The cap is checked at declaration only
# --------------------------------------------------------------------------------------------


def test_a_later_lv_rise_does_not_undo_the_attack() -> None:
    # 2 + 1 = 3 vs Lv3 is legal; +2 makes it 5 > 4, and the attack still goes on.
    s = board(
        Side(battle=["spear-ashigaru", "ashigaru-recruit"], tactics_hand=["power-surge"]),
        Side(battle=["musket-captain", "messenger-tanuki"], tactics_deck=PAD),
    )
    play(s, "attack 1", "attack 2", "target 1")
    play(s, "pass", "play power-surge", "slot 1")
    close_chain(s)
    result = events(s, "result")[-1]
    assert result == {"outcome": "attacker_wins", "attack": 5, "defence": 3}
    assert battle_slugs(s, 1) == [None, "messenger-tanuki", None, None, None]


def test_a_later_target_change_does_not_undo_the_attack() -> None:
    # 3 + 1 = 4 vs Lv3 is legal; after the change to a Lv1 target the cap would be 2.
    s = board(
        Side(battle=["white-fox-miko", "ashigaru-recruit"], tactics_hand=["target-change"]),
        Side(battle=["musket-captain", "messenger-tanuki"], tactics_deck=PAD),
    )
    play(s, "attack 1", "attack 2", "target 1")
    play(s, "pass", "play target-change", "slot 2")
    close_chain(s)
    assert events(s, "result")[-1] == {"outcome": "attacker_wins", "attack": 4, "defence": 1}
    assert battle_slugs(s, 1) == ["musket-captain", None, None, None, None]
    assert slot_lv(s, 1, 1) == (3, 3)

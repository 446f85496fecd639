"""Kōbō resolution (kobo-rules §5.4): LIFO, gone targets, negations, target changes, "all"."""

from __future__ import annotations

from typing import Any

import pytest

from kessen.games.kobo.state import KoboState
from tests.kobo.harness import Side, battle_slugs, board, log_kinds, play, slot_lv

PAD = ["hinder", "hinder", "hinder"]


def events(state: KoboState, kind: str) -> list[dict[str, Any]]:
    """The public part of the log events of one kind, oldest first."""
    return [e.public for e in state.log if e.kind == kind]


def close_chain(state: KoboState) -> None:
    """Both players pass until the chain closes."""
    while state.pending is not None and state.pending.prompt == "chain":
        play(state, "pass")


def exchange(
    attacker: Side, defender: Side, declare: tuple[str, ...] = ("attack 1", "target 1")
) -> KoboState:
    """Seat 0 attacks seat 1 (padded against exhaustion); returns the state at the chain."""
    if not defender.tactics_deck:
        defender.tactics_deck = PAD
    s = board(attacker, defender)
    play(s, *declare)
    return s


def lv_events(state: KoboState) -> list[tuple[str, int, int, int]]:
    """(card, seat, slot, amount) of every Lv change, in the order they happened."""
    return [(e["card"], e["seat"], e["slot"], e["amount"]) for e in events(state, "lv")]


MIKO = ["white-fox-miko", "spear-ashigaru"]  # Lv3, Lv2
CAVALIER = ["crimson-cavalier", "shadow-shinobi", "yamabushi-ascetic"]  # Lv4, Lv2, Lv3


# --------------------------------------------------------------------------------------------
# Last in, first out
# --------------------------------------------------------------------------------------------


def test_links_resolve_last_activated_first() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["power-surge", "swift-step"]),
        Side(battle=CAVALIER, tactics_hand=["weaken", "hinder"]),
    )
    play(s, "play weaken", "slot 1")  # 1: defender, miko -2
    play(s, "play power-surge", "slot 1")  # 2: attacker, miko +2
    play(s, "play hinder", "slot 1")  # 3: defender (連続発動), miko -1
    play(s, "pass")
    play(s, "play swift-step", "slot 2")  # 4: attacker, spear +1
    close_chain(s)
    assert [(e["link"], e["card"]) for e in events(s, "resolve")] == [
        (4, "swift-step"),
        (3, "hinder"),
        (2, "power-surge"),
        (1, "weaken"),
    ]
    assert lv_events(s) == [
        ("swift-step", 0, 2, 1),
        ("hinder", 0, 1, -1),
        ("power-surge", 0, 1, 2),
        ("weaken", 0, 1, -2),
    ]
    assert events(s, "result")[-1] == {"outcome": "defender_wins", "attack": 2, "defence": 4}


@pytest.mark.parametrize("wound_first", [True, False])
def test_lifo_order_decides_whether_the_wound_retreats(wound_first: bool) -> None:
    # Yamabushi (Lv3, not in the fight) gets 消えない裂傷 (-1 base) and weaken (-2).
    # Wound activated first: weaken resolves first (Lv1), the wound makes it 0: retreat.
    # Weaken activated first: the wound resolves first (Lv2), then weaken: Lv0 but stays.
    s = exchange(
        Side(battle=MIKO, traps=["unhealing-wound"], tactics_hand=["weaken"]), Side(battle=CAVALIER)
    )
    first, second = (("trap 1", "slot 3"), ("play weaken", "slot 3"))[:: 1 if wound_first else -1]
    play(s, "pass", *first, "pass", *second)
    close_chain(s)
    if wound_first:
        assert battle_slugs(s, 1)[2] is None
        assert events(s, "retreat")[0]["card"] == "yamabushi-ascetic"
        assert log_kinds(s).index("retreat") < log_kinds(s).index("result")
    else:
        assert battle_slugs(s, 1)[2] == "yamabushi-ascetic"
        assert slot_lv(s, 1, 3) == (2, 2)  # next turn: the wound stays, weaken is gone


# --------------------------------------------------------------------------------------------
# A target that left the field
# --------------------------------------------------------------------------------------------


def test_an_effect_on_a_character_that_left_does_nothing() -> None:
    # The defender boosts its tanuki (link 1); the attacker wounds it (link 2, resolves first):
    # Lv1 -> base 0, it retreats; the boost then finds nobody.
    s = exchange(
        Side(battle=MIKO, traps=["unhealing-wound"]),
        Side(battle=["crimson-cavalier", "messenger-tanuki"], tactics_hand=["power-surge"]),
    )
    play(s, "play power-surge", "slot 2")
    play(s, "trap 1", "slot 2")
    close_chain(s)
    assert [e["card"] for e in events(s, "resolve")] == ["unhealing-wound", "power-surge"]
    assert [e["card"] for e in events(s, "lv")] == ["unhealing-wound"]
    assert battle_slugs(s, 1) == ["crimson-cavalier", None, None, None, None]
    assert events(s, "result")[-1] == {"outcome": "defender_wins", "attack": 3, "defence": 4}


def test_a_target_change_to_a_character_that_left_does_nothing() -> None:
    s = exchange(
        Side(battle=MIKO, traps=["unhealing-wound"]),
        Side(battle=["crimson-cavalier", "messenger-tanuki", "great-tengu"], traps=["decoy"]),
    )
    play(s, "trap 1", "slot 2")  # decoy to the Lv1 tanuki
    play(s, "trap 1", "slot 2")  # the tanuki is wounded away first
    close_chain(s)
    assert "target_changed" not in log_kinds(s)
    assert events(s, "result")[-1] == {"outcome": "defender_wins", "attack": 3, "defence": 4}
    assert battle_slugs(s, 1) == ["crimson-cavalier", None, "great-tengu", None, None]


def test_the_rest_of_the_chain_still_resolves_when_the_target_is_gone() -> None:
    # The attack target itself is wounded away: no attack result, other links still resolve.
    s = exchange(
        Side(battle=MIKO, traps=["unhealing-wound", "battle-cry"]),
        Side(battle=["messenger-tanuki", "crimson-cavalier"], tactics_deck=PAD),
    )
    play(s, "pass", "trap 2", "slot 1")  # battle-cry: miko +1 (permanent), 連続発動
    play(s, "trap 1", "slot 1")  # the wound on the tanuki, the attack target
    close_chain(s)
    assert events(s, "result")[-1] == {"outcome": "no_battle"}
    assert battle_slugs(s, 1) == [None, "crimson-cavalier", None, None, None]
    assert slot_lv(s, 0, 1) == (4, 4)


# --------------------------------------------------------------------------------------------
# Negating the last activated card
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "action"), [("counter-spell", "play counter-spell"), ("counter-seal", "trap 1")]
)
def test_a_negation_cancels_the_previous_link(card: str, action: str) -> None:
    hand = ["counter-spell"] if card == "counter-spell" else []
    traps = ["counter-seal"] if card == "counter-seal" else []
    s = exchange(
        Side(battle=MIKO, tactics_hand=["power-surge"]),
        Side(battle=CAVALIER, tactics_hand=hand, traps=traps),
    )
    play(s, "pass", "play power-surge", "slot 1", action)
    close_chain(s)
    assert events(s, "link_negated") == [{"link": 1, "card": "power-surge"}]
    assert events(s, "resolve") == [
        {"link": 2, "card": card, "negated": False},
        {"link": 1, "card": "power-surge", "negated": True},
    ]
    assert events(s, "lv") == []
    assert events(s, "result")[-1] == {"outcome": "defender_wins", "attack": 3, "defence": 4}


def test_a_negation_cancels_only_the_link_just_before_it() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["power-surge"]),
        Side(battle=CAVALIER, tactics_hand=["weaken", "counter-spell"]),
    )
    play(s, "play weaken", "slot 1")  # 1
    play(s, "play power-surge", "slot 1")  # 2
    play(s, "play counter-spell")  # 3 negates 2, not 1
    close_chain(s)
    assert lv_events(s) == [("weaken", 0, 1, -2)]
    assert events(s, "result")[-1] == {"outcome": "defender_wins", "attack": 1, "defence": 4}


def test_negating_a_negation_lets_the_first_card_resolve() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["power-surge"], traps=["counter-seal"]),
        Side(battle=CAVALIER, tactics_hand=["counter-spell"]),
    )
    play(s, "pass", "play power-surge", "slot 1")  # 1
    play(s, "play counter-spell")  # 2 negates 1
    play(s, "trap 1")  # 3 negates 2
    close_chain(s)
    assert [(e["link"], e["negated"]) for e in events(s, "resolve")] == [
        (3, False),
        (2, True),
        (1, False),
    ]
    assert events(s, "link_negated") == [{"link": 2, "card": "counter-spell"}]
    assert lv_events(s) == [("power-surge", 0, 1, 2)]
    assert events(s, "result")[-1] == {"outcome": "attacker_wins", "attack": 5, "defence": 4}


def test_a_negated_trap_leaves_the_base_lv_unchanged() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["counter-spell"]),
        Side(battle=CAVALIER, traps=["thorn-armor"]),
    )
    play(s, "trap 1", "slot 2")  # thorn-armor on the attacker's spear (not fighting)
    play(s, "play counter-spell")
    close_chain(s)
    assert slot_lv(s, 0, 2) == (2, 2)


# --------------------------------------------------------------------------------------------
# Negating the attack (decided: the remaining links still resolve)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "hand", "traps", "action"),
    [
        ("ceasefire", ["ceasefire"], ["thorn-armor"], "play ceasefire"),
        ("holy-barrier", [], ["thorn-armor", "holy-barrier"], "trap 2"),
    ],
)
def test_attack_negation_has_no_result_but_other_links_resolve(
    card: str, hand: list[str], traps: list[str], action: str
) -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["power-surge"]),
        Side(battle=CAVALIER, tactics_hand=hand, traps=traps),
    )
    play(s, "trap 1", "slot 1")  # 1: thorn-armor, miko -2 permanently
    play(s, "play power-surge", "slot 1")  # 2: miko +2 this exchange
    play(s, action)  # 3: the attack is negated
    close_chain(s)
    assert events(s, "attack_negated") == [{"card": card}]
    assert [e["card"] for e in events(s, "resolve")] == [card, "power-surge", "thorn-armor"]
    assert lv_events(s) == [("power-surge", 0, 1, 2), ("thorn-armor", 0, 1, -2)]
    assert events(s, "result") == [{"outcome": "negated"}]
    assert "retreat" not in log_kinds(s)
    assert battle_slugs(s, 0)[:2] == MIKO and battle_slugs(s, 1)[:3] == CAVALIER
    assert slot_lv(s, 0, 1) == (1, 1)


def test_an_early_attack_negation_does_not_stop_later_links() -> None:
    # The barrier is link 1 and resolves last: everything after it still happened.
    s = exchange(
        Side(battle=MIKO, traps=["battle-cry"]), Side(battle=CAVALIER, traps=["holy-barrier"])
    )
    play(s, "trap 1")  # 1: holy-barrier
    play(s, "trap 1", "slot 1")  # 2: battle-cry, miko +1 permanently
    close_chain(s)
    assert events(s, "result") == [{"outcome": "negated"}]
    assert slot_lv(s, 0, 1) == (4, 4)
    assert slot_lv(s, 1, 1) == (4, 4)


def test_a_negated_attack_negation_lets_the_attack_go_on() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["counter-spell", "last-stand"]),
        Side(battle=CAVALIER, traps=["holy-barrier"]),
    )
    play(s, "trap 1", "play counter-spell")
    play(s, "pass", "play last-stand", "slot 1")
    close_chain(s)
    assert "attack_negated" not in log_kinds(s)
    assert events(s, "result")[-1] == {"outcome": "attacker_wins", "attack": 6, "defence": 4}


# --------------------------------------------------------------------------------------------
# Target change at resolution (the cap is not checked again)
# --------------------------------------------------------------------------------------------


def test_decoy_moves_the_attack_to_the_chosen_character() -> None:
    # Lv1 + Lv3 = 4 attack the Lv3 yamabushi; the decoy sends them into the Lv5 tengu.
    s = exchange(
        Side(battle=["ashigaru-recruit", "white-fox-miko", "oni-warlord"]),
        Side(battle=["yamabushi-ascetic", "great-tengu"], traps=["decoy"]),
        declare=("attack 1", "attack 2", "target 1"),
    )
    play(s, "trap 1", "slot 2")
    assert s.view(0)["attack"]["target"] == 1  # not yet: only at resolution
    close_chain(s)
    assert events(s, "target_changed") == [
        {"card": "decoy", "seat": 1, "slot": 2, "char": "great-tengu"}
    ]
    assert events(s, "result")[-1] == {"outcome": "defender_wins", "attack": 4, "defence": 5}
    assert battle_slugs(s, 0) == [None, None, "oni-warlord", None, None]
    assert battle_slugs(s, 1)[:2] == ["yamabushi-ascetic", "great-tengu"]


def test_target_change_to_a_weaker_character_is_not_checked_against_the_cap() -> None:
    s = exchange(
        Side(battle=["ashigaru-recruit", "white-fox-miko"], tactics_hand=["target-change"]),
        Side(battle=["yamabushi-ascetic", "messenger-tanuki"]),
        declare=("attack 1", "attack 2", "target 1"),
    )
    play(s, "pass", "play target-change", "slot 2")
    close_chain(s)
    assert events(s, "result")[-1] == {"outcome": "attacker_wins", "attack": 4, "defence": 1}
    assert battle_slugs(s, 1)[:2] == ["yamabushi-ascetic", None]


def test_the_last_resolving_target_change_wins() -> None:
    # Link 1 decoy -> slot 2; link 2 target-change -> slot 3. LIFO: slot 3 first, then slot 2.
    s = exchange(
        Side(battle=["oni-warlord"], tactics_hand=["target-change"]),
        Side(battle=["ashigaru-recruit", "great-tengu", "messenger-tanuki"], traps=["decoy"]),
    )
    play(s, "trap 1", "slot 2", "play target-change", "slot 3")
    close_chain(s)
    assert [e["slot"] for e in events(s, "target_changed")] == [3, 2]
    assert events(s, "result")[-1] == {"outcome": "attacker_wins", "attack": 6, "defence": 5}
    assert battle_slugs(s, 1)[:3] == ["ashigaru-recruit", None, "messenger-tanuki"]


# --------------------------------------------------------------------------------------------
# "All" effects touch the participants only
# --------------------------------------------------------------------------------------------


def test_total_war_of_the_attacker_raises_only_the_attackers() -> None:
    s = exchange(
        Side(
            battle=["ashigaru-recruit", "spear-ashigaru", "white-fox-miko"],
            tactics_hand=["total-war"],
        ),
        Side(battle=["yamabushi-ascetic", "great-tengu"]),
        declare=("attack 1", "attack 2", "target 1"),
    )
    play(s, "pass", "play total-war")
    close_chain(s)
    assert sorted(lv_events(s)) == [("total-war", 0, 1, 1), ("total-war", 0, 2, 1)]
    assert events(s, "result")[-1] == {"outcome": "attacker_wins", "attack": 5, "defence": 3}


def test_total_war_of_the_defender_raises_only_the_target() -> None:
    s = exchange(
        Side(battle=MIKO),
        Side(battle=["yamabushi-ascetic", "great-tengu"], tactics_hand=["total-war"]),
    )
    play(s, "play total-war")
    close_chain(s)
    assert lv_events(s) == [("total-war", 1, 1, 1)]
    assert events(s, "result")[-1] == {"outcome": "defender_wins", "attack": 3, "defence": 4}


def test_mass_jamming_of_the_defender_lowers_only_the_attackers() -> None:
    s = exchange(
        Side(battle=["spear-ashigaru", "ashigaru-recruit", "white-fox-miko"]),
        Side(battle=["yamabushi-ascetic", "great-tengu"], tactics_hand=["mass-jamming"]),
        declare=("attack 1", "attack 2", "target 1"),
    )
    play(s, "play mass-jamming")
    close_chain(s)
    assert sorted(lv_events(s)) == [("mass-jamming", 0, 1, -1), ("mass-jamming", 0, 2, -1)]
    assert events(s, "result")[-1] == {"outcome": "defender_wins", "attack": 1, "defence": 3}
    assert battle_slugs(s, 0) == [None, None, "white-fox-miko", None, None]
    assert slot_lv(s, 0, 3) == (3, 3)


def test_mass_jamming_of_the_attacker_lowers_only_the_target() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["mass-jamming"]),
        Side(battle=["crimson-cavalier", "shadow-shinobi", "yamabushi-ascetic"]),
    )
    play(s, "pass", "play mass-jamming")
    close_chain(s)
    assert lv_events(s) == [("mass-jamming", 1, 1, -1)]
    assert events(s, "result")[-1]["outcome"] == "tie_single"


def test_steadfast_raises_only_the_target() -> None:
    s = exchange(Side(battle=MIKO), Side(battle=CAVALIER, traps=["steadfast"]))
    play(s, "trap 1")
    close_chain(s)
    assert lv_events(s) == [("steadfast", 1, 1, 1)]
    assert slot_lv(s, 1, 1) == (5, 5)
    assert slot_lv(s, 1, 2) == (2, 2) and slot_lv(s, 1, 3) == (3, 3)


def test_all_effects_take_the_participants_of_the_moment_they_resolve() -> None:
    # Total war of the defender (link 1) resolves after the attacker's target change
    # (link 2): it raises the new target, not the old one.
    s = exchange(
        Side(battle=["oni-warlord"], tactics_hand=["target-change"]),
        Side(battle=["great-tengu", "spear-ashigaru"], tactics_hand=["total-war"]),
    )
    play(s, "play total-war", "play target-change", "slot 2")
    close_chain(s)
    assert lv_events(s) == [("total-war", 1, 2, 1)]
    assert events(s, "result")[-1] == {"outcome": "attacker_wins", "attack": 6, "defence": 3}


# --------------------------------------------------------------------------------------------
# Base Lv never goes below 0
# --------------------------------------------------------------------------------------------


def test_a_permanent_decrease_stops_at_base_0() -> None:
    # Thorn armor (-2) on the Lv1 recruit resolves first: base 0, not -1. Battle cry (+1)
    # then brings it to 1, so the recruit is not swept.
    s = exchange(
        Side(battle=["oni-warlord", "ashigaru-recruit"], traps=["battle-cry"]),
        Side(battle=["great-tengu", "spear-ashigaru"], traps=["thorn-armor"]),
    )
    play(s, "pass", "trap 1", "slot 2", "pass")  # battle-cry (連続発動), then the attacker passes
    play(s, "trap 1", "slot 2")  # thorn-armor on the same recruit
    close_chain(s)
    assert [e["base"] for e in events(s, "lv")] == [0, 1]
    assert "base_zero" not in log_kinds(s)
    assert slot_lv(s, 0, 2) == (1, 1)

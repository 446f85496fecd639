"""Kōbō attack result (kobo-rules §5.5): A vs D, ties, base-Lv-0 sweep, 消えない裂傷, holes."""

from __future__ import annotations

from typing import Any

from kessen.games.kobo.state import RETREAT, KoboState
from tests.kobo.harness import Side, battle_slugs, board, legal, log_kinds, play, slot_lv

PAD = ["hinder", "hinder", "hinder"]


def events(state: KoboState, kind: str) -> list[dict[str, Any]]:
    """The public part of the log events of one kind, oldest first."""
    return [e.public for e in state.log if e.kind == kind]


def at(state: KoboState, seat: int, prompt: str) -> bool:
    """True if the match waits for ``seat`` at ``prompt``."""
    pending = state.pending
    return pending is not None and (pending.seat, pending.prompt) == (seat, prompt)


def close_chain(state: KoboState) -> None:
    """Both players pass until the chain closes."""
    while state.pending is not None and state.pending.prompt == "chain":
        play(state, "pass")


def fight(attacker: Side, defender: Side, *declare: str) -> KoboState:
    """Seat 0 declares, both pass; the state after the exchange (or at a pending choice)."""
    if not defender.tactics_deck:
        defender.tactics_deck = PAD
    s = board(attacker, defender)
    play(s, *declare)
    close_chain(s)
    return s


def retreated(state: KoboState, seat: int) -> list[str]:
    """Names in ``seat``'s retreat area, oldest first."""
    return [state.defs[c].slug for c in state.zone(seat, RETREAT)]


# --------------------------------------------------------------------------------------------
# A > D and D > A
# --------------------------------------------------------------------------------------------


def test_attack_greater_than_defence_retreats_the_target() -> None:
    s = fight(
        Side(battle=["crimson-cavalier", "ashigaru-recruit"]),
        Side(battle=["spear-ashigaru", "white-fox-miko", "shadow-shinobi"]),
        "attack 1",
        "target 2",
    )
    assert events(s, "result")[-1] == {"outcome": "attacker_wins", "attack": 4, "defence": 3}
    assert battle_slugs(s, 1) == ["spear-ashigaru", None, "shadow-shinobi", None, None]
    assert retreated(s, 1) == ["white-fox-miko"]
    assert battle_slugs(s, 0)[:2] == ["crimson-cavalier", "ashigaru-recruit"]
    assert slot_lv(s, 0, 1) == (4, 4)  # the winner keeps its Lv


def test_attack_greater_by_one_with_several_attackers() -> None:
    s = fight(
        Side(battle=["spear-ashigaru", "white-fox-miko"]),
        Side(battle=["crimson-cavalier", "oni-warlord"]),
        "attack 1",
        "attack 2",
        "target 1",
    )  # 5 vs 4
    assert events(s, "result")[-1] == {"outcome": "attacker_wins", "attack": 5, "defence": 4}
    assert battle_slugs(s, 1)[:2] == [None, "oni-warlord"]
    assert battle_slugs(s, 0)[:2] == ["spear-ashigaru", "white-fox-miko"]


def test_defence_greater_than_attack_retreats_every_attacker() -> None:
    s = fight(
        Side(battle=["ashigaru-recruit", "oni-warlord", "messenger-tanuki"]),
        Side(battle=["white-fox-miko"]),
        "attack 1",
        "attack 3",
        "target 1",
    )  # 2 vs 3
    assert events(s, "result")[-1] == {"outcome": "defender_wins", "attack": 2, "defence": 3}
    assert battle_slugs(s, 0) == [None, "oni-warlord", None, None, None]
    assert sorted(retreated(s, 0)) == ["ashigaru-recruit", "messenger-tanuki"]
    assert slot_lv(s, 1, 1) == (3, 3)


def test_defence_greater_by_one_single_attacker_retreats() -> None:
    s = fight(
        Side(battle=["white-fox-miko", "spear-ashigaru"]),
        Side(battle=["crimson-cavalier"]),
        "attack 1",
        "target 1",
    )
    assert events(s, "result")[-1]["outcome"] == "defender_wins"
    assert battle_slugs(s, 0) == [None, "spear-ashigaru", None, None, None]
    assert battle_slugs(s, 1)[0] == "crimson-cavalier"


# --------------------------------------------------------------------------------------------
# Ties
# --------------------------------------------------------------------------------------------


def test_single_tie_lowers_both_base_lv_permanently() -> None:
    s = fight(
        Side(battle=["white-fox-miko", "spear-ashigaru"]),
        Side(battle=["musket-captain", "shadow-shinobi"]),
        "attack 1",
        "target 1",
    )
    assert events(s, "result")[-1] == {"outcome": "tie_single", "attack": 3, "defence": 3}
    assert "retreat" not in log_kinds(s)
    assert slot_lv(s, 0, 1) == (2, 2)
    assert slot_lv(s, 1, 1) == (2, 2)
    assert at(s, 1, "turn")  # visible next turn: the change is permanent
    play(s, "pass")
    assert slot_lv(s, 0, 1) == (2, 2)
    assert slot_lv(s, 1, 1) == (2, 2)
    assert s.view(1)["players"][0]["battle"][0]["base"] == 2


def test_single_tie_at_lv1_sweeps_both() -> None:
    s = fight(
        Side(battle=["ashigaru-recruit", "spear-ashigaru"]),
        Side(battle=["messenger-tanuki", "shadow-shinobi"]),
        "attack 1",
        "target 1",
    )
    assert events(s, "result")[-1]["outcome"] == "tie_single"
    assert battle_slugs(s, 0)[:2] == [None, "spear-ashigaru"]
    assert battle_slugs(s, 1)[:2] == [None, "shadow-shinobi"]
    assert [(e["seat"], e["slot"]) for e in events(s, "base_zero")] == [(0, 1), (1, 1)]


def test_multi_tie_lowers_the_target_and_its_controller_picks_one_attacker() -> None:
    s = fight(
        Side(battle=["ashigaru-recruit", "spear-ashigaru", "oni-warlord"]),
        Side(battle=["musket-captain", "shadow-shinobi"]),
        "attack 1",
        "attack 2",
        "target 1",
    )  # 3 vs 3
    assert events(s, "result")[-1] == {"outcome": "tie_multi", "attack": 3, "defence": 3}
    assert at(s, 1, "tie")
    assert legal(s) == ["slot 1", "slot 2"]
    assert slot_lv(s, 1, 1) == (2, 2)
    play(s, "slot 2")
    assert events(s, "tie_choice") == [{"seat": 1, "slot": 2, "char": "spear-ashigaru"}]
    assert battle_slugs(s, 0) == ["ashigaru-recruit", None, "oni-warlord", None, None]
    assert slot_lv(s, 0, 1) == (1, 1)  # the other attacker is not lowered
    assert slot_lv(s, 1, 1) == (2, 2)
    assert at(s, 1, "turn")


def test_multi_tie_choice_belongs_to_the_target_controller_when_seat_1_attacks() -> None:
    s = board(
        Side(battle=["musket-captain"]),
        Side(battle=["ashigaru-recruit", "spear-ashigaru"], tactics_deck=PAD),
        turn_player=1,
    )
    play(s, "attack 1", "attack 2", "target 1")
    close_chain(s)
    assert at(s, 0, "tie")
    play(s, "slot 1")
    assert battle_slugs(s, 1)[:2] == [None, "spear-ashigaru"]


def test_multi_tie_at_target_lv1_pick_first_then_the_target_is_swept() -> None:
    # 1 + 1 vs a base-1 shinobi; hinder takes the recruit to 0 for this exchange: 1 = 1 with
    # two attackers still there. The shinobi drops to base 0, the defender still picks, and
    # the sweep then removes the shinobi; the recruit (current 0, base 1) stays.
    s = board(
        Side(battle=["ashigaru-recruit", "messenger-tanuki"]),
        Side(
            battle=["shadow-shinobi", "oni-warlord"],
            base={1: 1},
            tactics_hand=["hinder"],
            tactics_deck=PAD,
        ),
    )
    play(s, "attack 1", "attack 2", "target 1", "play hinder", "slot 1")
    close_chain(s)
    assert events(s, "result")[-1] == {"outcome": "tie_multi", "attack": 1, "defence": 1}
    assert at(s, 1, "tie")
    assert legal(s) == ["slot 1", "slot 2"]
    assert battle_slugs(s, 1)[0] == "shadow-shinobi"
    play(s, "slot 2")
    assert [e["card"] for e in events(s, "retreat")] == ["messenger-tanuki", "shadow-shinobi"]
    assert battle_slugs(s, 0)[:2] == ["ashigaru-recruit", None]
    assert slot_lv(s, 0, 1) == (1, 1)
    assert battle_slugs(s, 1)[:2] == [None, "oni-warlord"]


def test_one_on_one_is_judged_by_attackers_still_on_the_field() -> None:
    # Lv1 + Lv4 = 5 vs Lv4. The Lv1 is wounded away during the chain: 4 vs 4 one-on-one.
    s = board(
        Side(battle=["ashigaru-recruit", "crimson-cavalier"]),
        Side(
            battle=["warrior-monk", "shadow-shinobi"], traps=["unhealing-wound"], tactics_deck=PAD
        ),
    )
    play(s, "attack 1", "attack 2", "target 1")
    play(s, "trap 1", "slot 1")
    close_chain(s)
    assert events(s, "result")[-1] == {"outcome": "tie_single", "attack": 4, "defence": 4}
    assert "tie_choice" not in log_kinds(s)
    assert slot_lv(s, 0, 2) == (3, 3)
    assert slot_lv(s, 1, 1) == (3, 3)
    assert at(s, 1, "turn")


# --------------------------------------------------------------------------------------------
# The base-Lv-0 sweep after the result
# --------------------------------------------------------------------------------------------


def test_base_lv_0_characters_retreat_after_the_result_on_both_sides() -> None:
    # Covering fire (attacker) takes the defender's tanuki to base 0; thorn armor (defender)
    # takes the attacker's spear to base 0. Neither is in the fight; both leave after it.
    s = board(
        Side(battle=["crimson-cavalier", "spear-ashigaru"], traps=["covering-fire"]),
        Side(
            battle=["white-fox-miko", "messenger-tanuki", "oni-warlord"],
            traps=["thorn-armor"],
            tactics_deck=PAD,
        ),
    )
    play(s, "attack 1", "target 1")
    play(s, "trap 1", "slot 2", "trap 1", "slot 2")
    close_chain(s)
    kinds = log_kinds(s)
    assert kinds.index("result") < kinds.index("base_zero")
    assert [e["card"] for e in events(s, "retreat")] == [
        "white-fox-miko",
        "spear-ashigaru",
        "messenger-tanuki",
    ]
    assert battle_slugs(s, 0) == ["crimson-cavalier", None, None, None, None]
    assert battle_slugs(s, 1) == [None, None, "oni-warlord", None, None]


def test_base_lv_0_stays_until_the_sweep() -> None:
    # Covering fire takes the target to base 0; it still fights (with a tactic) and leaves after.
    s = board(
        Side(
            battle=["ashigaru-recruit", "spear-ashigaru"],
            traps=["covering-fire"],
            tactics_hand=["power-surge"],
        ),
        Side(
            battle=["messenger-tanuki", "oni-warlord"],
            tactics_deck=PAD,
            tactics_hand=["last-stand"],
        ),
    )
    play(s, "attack 1", "target 1")
    play(s, "pass", "trap 1", "slot 1")  # tanuki base 0 (permanent), not retreated yet
    play(s, "play last-stand", "slot 1")  # tanuki +3 this exchange: current 3
    close_chain(s)
    assert events(s, "result")[-1] == {"outcome": "defender_wins", "attack": 1, "defence": 3}
    assert [e["card"] for e in events(s, "retreat")] == ["ashigaru-recruit", "messenger-tanuki"]
    assert events(s, "base_zero") == [{"seat": 1, "slot": 1, "card": "messenger-tanuki"}]


def test_current_lv_0_from_a_tactic_does_not_retreat() -> None:
    s = board(
        Side(battle=["crimson-cavalier", "spear-ashigaru"], tactics_hand=["weaken"]),
        Side(
            battle=["white-fox-miko", "shadow-shinobi"], tactics_hand=["weaken"], tactics_deck=PAD
        ),
    )
    play(s, "attack 1", "target 1")
    play(s, "play weaken", "slot 2")  # the attacker's spear: Lv0 this exchange
    play(s, "play weaken", "slot 2")  # the defender's shinobi: Lv0 this exchange
    close_chain(s)
    assert "base_zero" not in log_kinds(s)
    assert battle_slugs(s, 0)[:2] == ["crimson-cavalier", "spear-ashigaru"]
    assert battle_slugs(s, 1)[:2] == [None, "shadow-shinobi"]
    assert slot_lv(s, 0, 2) == (2, 2)
    assert slot_lv(s, 1, 2) == (2, 2)


def test_participants_at_current_lv_0_fight_and_stay() -> None:
    # Both fighters weakened to 0: a 0 = 0 single tie lowers both bases 2 -> 1; nobody leaves.
    s = board(
        Side(battle=["spear-ashigaru"], tactics_hand=["weaken"]),
        Side(battle=["shadow-shinobi"], tactics_hand=["weaken"], tactics_deck=PAD),
    )
    play(s, "attack 1", "target 1")
    play(s, "play weaken", "slot 1", "play weaken", "slot 1")
    close_chain(s)
    assert events(s, "result")[-1] == {"outcome": "tie_single", "attack": 0, "defence": 0}
    assert "retreat" not in log_kinds(s)
    assert slot_lv(s, 0, 1) == (1, 1)
    assert slot_lv(s, 1, 1) == (1, 1)


# --------------------------------------------------------------------------------------------
# 消えない裂傷 (unhealing wound)
# --------------------------------------------------------------------------------------------


def test_unhealing_wound_lowers_base_and_keeps_a_character_with_lv_left() -> None:
    s = board(
        Side(battle=["white-fox-miko", "spear-ashigaru"]),
        Side(battle=["shadow-shinobi", "oni-warlord"], traps=["unhealing-wound"], tactics_deck=PAD),
    )
    play(s, "attack 1", "target 1", "trap 1", "slot 1")  # miko 3 -> base 2
    close_chain(s)
    assert events(s, "result")[-1] == {"outcome": "tie_single", "attack": 2, "defence": 2}
    assert slot_lv(s, 0, 1) == (1, 1)


def test_unhealing_wound_retreats_at_once_at_lv_0() -> None:
    # The attack target (Lv1) is wounded to 0 and leaves at once: no attack result.
    s = board(
        Side(battle=["white-fox-miko"], traps=["unhealing-wound"]),
        Side(battle=["messenger-tanuki", "oni-warlord"], tactics_deck=PAD),
    )
    play(s, "attack 1", "target 1", "pass", "trap 1", "slot 1")
    close_chain(s)
    kinds = log_kinds(s)
    assert kinds.index("retreat") < kinds.index("result")
    assert events(s, "result") == [{"outcome": "no_battle"}]
    assert "base_zero" not in kinds
    assert battle_slugs(s, 1)[:2] == [None, "oni-warlord"]


def test_unhealing_wound_retreats_at_once_when_lv_is_0_partly_by_a_tactic() -> None:
    # Attacker Lv3: weaken (-2, resolves first) then the wound (-1 base): current 0 -> retreat.
    s = board(
        Side(battle=["white-fox-miko", "spear-ashigaru"]),
        Side(
            battle=["crimson-cavalier"],
            traps=["unhealing-wound"],
            tactics_hand=["hinder", "weaken"],
            tactics_deck=PAD,
        ),
    )
    play(s, "attack 1", "target 1")
    play(s, "trap 1", "slot 1")  # 1: wound on the miko
    play(s, "pass", "play weaken", "slot 1")  # 2: weaken the miko
    close_chain(s)
    assert events(s, "result") == [{"outcome": "no_battle"}]
    assert battle_slugs(s, 0)[:2] == [None, "spear-ashigaru"]
    assert events(s, "retreat")[0]["card"] == "white-fox-miko"


def test_unhealing_wound_to_base_0_with_a_raised_current_lv_stays_until_the_sweep() -> None:
    # Base 1 tanuki +2 (power surge resolves first), then the wound: base 0 but current 2.
    s = board(
        Side(battle=["ashigaru-recruit", "spear-ashigaru"], traps=["unhealing-wound"]),
        Side(
            battle=["messenger-tanuki", "oni-warlord"],
            tactics_hand=["power-surge"],
            tactics_deck=PAD,
        ),
    )
    play(s, "attack 1", "target 1", "pass", "trap 1", "slot 1")
    play(s, "play power-surge", "slot 1")
    close_chain(s)
    assert events(s, "result")[-1] == {"outcome": "defender_wins", "attack": 1, "defence": 2}
    kinds = log_kinds(s)
    assert kinds.index("result") < kinds.index("base_zero")
    assert battle_slugs(s, 1)[:2] == [None, "oni-warlord"]


# --------------------------------------------------------------------------------------------
# Holes
# --------------------------------------------------------------------------------------------


def test_a_retreated_character_leaves_a_hole_and_nobody_moves() -> None:
    s = fight(
        Side(battle=["oni-warlord"]),
        Side(battle=["ashigaru-recruit", "spear-ashigaru", "white-fox-miko", None, "great-tengu"]),
        "attack 1",
        "target 2",
    )
    assert battle_slugs(s, 1) == ["ashigaru-recruit", None, "white-fox-miko", None, "great-tengu"]
    view = s.view(0)["players"][1]["battle"]
    assert view[1] is None and view[0]["slug"] == "ashigaru-recruit"
    play(s, "pass")
    play(s, "attack 1")
    assert "target 2" not in legal(s)
    assert legal(s) == ["target 1", "target 3", "target 5"]


def test_attacker_holes_after_defeat() -> None:
    s = fight(
        Side(battle=[None, "ashigaru-recruit", "oni-warlord", "messenger-tanuki"]),
        Side(battle=["white-fox-miko"]),
        "attack 2",
        "attack 4",
        "target 1",
    )
    assert battle_slugs(s, 0) == [None, None, "oni-warlord", None, None]


def test_a_fighter_below_zero_counts_as_zero_in_the_total() -> None:
    # Lv1 + Lv2 vs Lv2; weaken (-2) takes the Lv1 to current 0, not -1: A = 0 + 2 = 2 = D.
    s = board(
        Side(battle=["ashigaru-recruit", "spear-ashigaru"]),
        Side(battle=["shadow-shinobi", "oni-warlord"], tactics_hand=["weaken"], tactics_deck=PAD),
    )
    play(s, "attack 1", "attack 2", "target 1", "play weaken", "slot 1")
    close_chain(s)
    assert events(s, "result")[-1] == {"outcome": "tie_multi", "attack": 2, "defence": 2}
    assert at(s, 1, "tie")

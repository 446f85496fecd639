"""Kōbō clean-up (kobo-rules §5.6): activated cards leave together, temporary Lv ends."""

from __future__ import annotations

from typing import Any

from kessen.games.kobo.state import RETREAT, KoboState
from tests.kobo.harness import Side, board, play, slot_lv

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


def retreated(state: KoboState, seat: int) -> list[str]:
    """Names in ``seat``'s retreat area, oldest first."""
    return [state.defs[c].slug for c in state.zone(seat, RETREAT)]


def strategy(state: KoboState, viewer: int, seat: int) -> list[Any]:
    """``seat``'s strategy slots as ``viewer`` sees them: None, ("up"|"down", slug or None)."""
    out: list[Any] = []
    for slot in state.view(viewer)["players"][seat]["strategy"]:
        out.append(None if slot is None else (slot["face"], slot.get("slug")))
    return out


def five_link_exchange() -> KoboState:
    """Five links from both seats, the attacker winning; returns the state after the exchange."""
    s = board(
        Side(
            battle=["white-fox-miko", "spear-ashigaru"],
            traps=["battle-cry"],
            tactics_hand=["power-surge", "swift-step"],
        ),
        Side(
            battle=["crimson-cavalier", "oni-warlord"],
            traps=["thorn-armor"],
            tactics_hand=["weaken"],
            tactics_deck=PAD,
        ),
    )
    play(s, "attack 1", "target 1")
    play(s, "trap 1", "slot 2")  # 1 P1 thorn-armor: spear base 0
    play(s, "play power-surge", "slot 1")  # 2 P0: miko +2
    play(s, "play weaken", "slot 1")  # 3 P1: miko -2
    play(s, "trap 1", "slot 1")  # 4 P0 battle-cry (連続発動): miko base 4
    play(s, "play swift-step", "slot 1")  # 5 P0 (連続発動): miko +1
    close_chain(s)
    return s


def test_activated_cards_leave_together_in_activation_order() -> None:
    s = five_link_exchange()
    assert events(s, "cleanup") == [
        {"cards": ["thorn-armor", "power-surge", "weaken", "battle-cry", "swift-step"]}
    ]
    # Each to its owner's retreat area, after the characters that retreated in the exchange.
    assert retreated(s, 0) == ["spear-ashigaru", "power-surge", "battle-cry", "swift-step"]
    assert retreated(s, 1) == ["crimson-cavalier", "thorn-armor", "weaken"]
    assert strategy(s, 0, 0) == [None] * 5
    assert strategy(s, 0, 1) == [None] * 5
    retreat_view = s.view(1)["players"][0]["retreat"]
    assert [c["slug"] for c in retreat_view] == retreated(s, 0)


def test_cards_stay_face_up_until_the_attack_result_is_done() -> None:
    # A multi tie stops for the defender's choice after resolution: the cards are still there.
    s = board(
        Side(
            battle=["ashigaru-recruit", "spear-ashigaru", "white-fox-miko"],
            tactics_hand=["power-surge"],
        ),
        Side(
            battle=["musket-captain", "oni-warlord"],
            traps=["decoy", "thorn-armor"],
            tactics_deck=PAD,
        ),
    )
    play(s, "attack 1", "attack 2", "target 1")  # 3 vs 3
    play(s, "trap 2", "slot 3")  # thorn-armor on the miko (not fighting): base 1
    play(s, "play power-surge", "slot 3")  # miko +2 this exchange
    close_chain(s)
    assert at(s, 1, "tie")
    assert strategy(s, 1, 0) == [("up", "power-surge"), None, None, None, None]
    assert strategy(s, 0, 1) == [("down", None), ("up", "thorn-armor"), None, None, None]
    assert slot_lv(s, 0, 3) == (1, 3)  # the tactic still counts
    play(s, "slot 1")
    assert strategy(s, 1, 0) == [None] * 5
    assert strategy(s, 0, 1) == [("down", None), None, None, None, None]
    assert retreated(s, 0) == ["ashigaru-recruit", "power-surge"]
    assert retreated(s, 1) == ["thorn-armor"]


def test_negated_cards_leave_too() -> None:
    s = board(
        Side(battle=["white-fox-miko", "spear-ashigaru"], tactics_hand=["power-surge"]),
        Side(battle=["crimson-cavalier"], tactics_hand=["counter-spell"], tactics_deck=PAD),
    )
    play(s, "attack 1", "target 1", "pass", "play power-surge", "slot 1", "play counter-spell")
    close_chain(s)
    assert events(s, "cleanup") == [{"cards": ["power-surge", "counter-spell"]}]
    assert retreated(s, 0) == ["white-fox-miko", "power-surge"]
    assert retreated(s, 1) == ["counter-spell"]


def test_cards_leave_after_a_negated_attack() -> None:
    s = board(
        Side(battle=["white-fox-miko"], tactics_hand=["power-surge"]),
        Side(battle=["crimson-cavalier"], traps=["holy-barrier"], tactics_deck=PAD),
    )
    play(s, "attack 1", "target 1", "trap 1", "play power-surge", "slot 1")
    close_chain(s)
    assert events(s, "cleanup") == [{"cards": ["holy-barrier", "power-surge"]}]
    assert strategy(s, 0, 0) == [None] * 5 and strategy(s, 1, 1) == [None] * 5


def test_an_exchange_without_cards_cleans_up_nothing() -> None:
    s = board(
        Side(battle=["oni-warlord"]),
        Side(battle=["ashigaru-recruit", "spear-ashigaru"], traps=["decoy"], tactics_deck=PAD),
    )
    play(s, "attack 1", "target 1")
    close_chain(s)
    assert events(s, "cleanup") == [{"cards": []}]


# --------------------------------------------------------------------------------------------
# Temporary changes end, permanent ones stay
# --------------------------------------------------------------------------------------------


def test_tactic_changes_end_and_trap_changes_stay() -> None:
    s = five_link_exchange()
    assert at(s, 1, "turn")
    # miko: base 3 + battle-cry 1 = 4; the +2, -2 and +1 of the tactics are gone.
    assert slot_lv(s, 0, 1) == (4, 4)
    play(s, "pass")  # and still on the next own turn
    assert slot_lv(s, 0, 1) == (4, 4)


def test_a_plus_two_tactic_is_gone_next_turn() -> None:
    s = board(
        Side(battle=["white-fox-miko", "spear-ashigaru"], tactics_hand=["power-surge"]),
        Side(battle=["oni-warlord"], tactics_deck=PAD),
    )
    play(s, "attack 1", "target 1", "pass", "play power-surge", "slot 2")  # a non-fighter
    close_chain(s)
    assert at(s, 1, "turn")
    assert slot_lv(s, 0, 2) == (2, 2)
    assert s.view(1)["players"][0]["battle"][1]["lv"] == 2
    play(s, "pass")
    assert slot_lv(s, 0, 2) == (2, 2)


def test_temporary_lv_0_comes_back_after_the_exchange() -> None:
    s = board(
        Side(battle=["crimson-cavalier", "messenger-tanuki"]),
        Side(battle=["ashigaru-recruit", "oni-warlord"], tactics_hand=["weaken"], tactics_deck=PAD),
    )
    play(s, "attack 1", "target 1", "play weaken", "slot 2")  # tanuki 1 - 2 -> 0
    close_chain(s)
    assert slot_lv(s, 0, 2) == (1, 1)


# --------------------------------------------------------------------------------------------
# Markings end, the turn passes, face-down traps stay
# --------------------------------------------------------------------------------------------


def test_attack_markings_end() -> None:
    s = board(
        Side(battle=["ashigaru-recruit", "spear-ashigaru", "musket-captain"]),
        Side(battle=["oni-warlord", "great-tengu"], tactics_deck=PAD),
    )
    play(s, "attack 1", "attack 3", "target 2")  # 4 vs 5: the attackers retreat
    close_chain(s)
    for viewer in (0, 1):
        view = s.view(viewer)
        assert view["attack"] is None
        for seat in (0, 1):
            for card in view["players"][seat]["battle"]:
                if card is not None:
                    assert card["attacking"] is False
                    assert card["target"] is False


def test_markings_end_for_survivors() -> None:
    s = board(
        Side(battle=["white-fox-miko", "spear-ashigaru"]),
        Side(battle=["musket-captain"], tactics_deck=PAD),
    )
    play(s, "attack 1", "target 1")  # a single tie: both stay
    close_chain(s)
    view = s.view(0)
    assert view["attack"] is None
    assert view["players"][0]["battle"][0]["attacking"] is False
    assert view["players"][1]["battle"][0]["target"] is False


def test_the_turn_passes_to_the_other_player() -> None:
    s = board(
        Side(battle=["white-fox-miko"]),
        Side(
            battle=["musket-captain", "spear-ashigaru"],
            tactics_hand=["weaken"],
            tactics_deck=["hinder", "hinder"],
        ),
    )
    play(s, "attack 1", "target 2")
    close_chain(s)
    assert at(s, 1, "turn")
    assert s.turn == 2 and s.turn_player == 1
    assert events(s, "turn")[-1] == {"turn": 2, "seat": 1}
    assert events(s, "tactics_draw")[-1] == {"seat": 1}
    assert s.view(0)["priority"] is None


def test_unactivated_face_down_traps_stay() -> None:
    s = board(
        Side(battle=["white-fox-miko", "spear-ashigaru"]),
        Side(
            battle=["crimson-cavalier"],
            traps=["decoy", "unhealing-wound", "steadfast"],
            tactics_deck=PAD,
        ),
    )
    play(s, "attack 1", "target 1", "trap 2", "slot 2")
    close_chain(s)
    assert strategy(s, 1, 1) == [("down", "decoy"), None, ("down", "steadfast"), None, None]
    assert strategy(s, 0, 1) == [("down", None), None, ("down", None), None, None]
    assert len(s.face_down_traps(1)) == 2
    # They can still be activated in a later exchange.
    play(s, "pass")
    play(s, "attack 2", "target 1")
    assert "trap 3" in [str(a) for a in s.legal_actions()]

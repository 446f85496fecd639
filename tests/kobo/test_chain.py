"""Kōbō chain (攻防連鎖, kobo-rules §5.3): priority, closing, 連続発動, slots, timing, targets."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kessen.engine import registry
from kessen.games.kobo import effects
from kessen.games.kobo.state import KoboState
from tests.kobo.harness import Side, board, legal, log_kinds, play, slot_lv

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


def exchange(
    attacker: Side, defender: Side, declare: tuple[str, ...] = ("attack 1", "target 1")
) -> KoboState:
    """Seat 0 attacks seat 1 (padded against exhaustion); returns the state at the chain."""
    if not defender.tactics_deck:
        defender.tactics_deck = PAD
    s = board(attacker, defender)
    play(s, *declare)
    return s


MIKO = ["white-fox-miko", "spear-ashigaru"]  # Lv3, Lv2
CAVALIER = ["crimson-cavalier", "shadow-shinobi"]  # Lv4, Lv2


# --------------------------------------------------------------------------------------------
# Priority and closing
# --------------------------------------------------------------------------------------------


def test_the_defender_has_priority_first() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["power-surge"]),
        Side(battle=CAVALIER, tactics_hand=["weaken"]),
    )
    assert at(s, 1, "chain")
    assert s.view(0)["priority"] == 1
    assert "play weaken" in legal(s)


def test_priority_alternates_after_each_activation() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["power-surge", "last-stand"]),
        Side(battle=CAVALIER, tactics_hand=["weaken", "total-war"]),
    )
    play(s, "play weaken", "slot 1")
    assert at(s, 0, "chain")
    play(s, "play power-surge", "slot 1")
    assert at(s, 1, "chain")
    play(s, "play total-war")
    assert at(s, 0, "chain")
    play(s, "play last-stand", "slot 2")
    assert at(s, 1, "chain")
    assert [(e["seat"], e["card"], e["link"]) for e in events(s, "activate")] == [
        (1, "weaken", 1),
        (0, "power-surge", 2),
        (1, "total-war", 3),
        (0, "last-stand", 4),
    ]


def test_two_passes_in_a_row_close_an_empty_chain() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["power-surge"]),
        Side(battle=CAVALIER, tactics_hand=["weaken"]),
    )
    play(s, "pass")
    assert at(s, 0, "chain")
    play(s, "pass")
    assert events(s, "chain_closed") == [{"links": 0}]
    assert events(s, "result")[-1]["outcome"] == "defender_wins"
    assert at(s, 1, "turn")


def test_pass_then_activation_then_pass_does_not_close() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["power-surge"]),
        Side(battle=CAVALIER, tactics_hand=["weaken"]),
    )
    play(s, "pass")  # defender
    play(s, "play power-surge", "slot 1")  # attacker
    play(s, "pass")  # defender
    assert at(s, 0, "chain")
    assert "chain_closed" not in log_kinds(s)
    assert "resolve" not in log_kinds(s)
    play(s, "pass")  # attacker: now two in a row
    assert events(s, "chain_closed") == [{"links": 1}]


def test_an_activation_between_two_passes_restarts_the_count_for_the_other_side() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["power-surge"]),
        Side(battle=CAVALIER, tactics_hand=["weaken"]),
    )
    play(s, "pass", "play power-surge", "slot 1")
    play(s, "play weaken", "slot 1")  # defender answers instead of passing
    assert at(s, 0, "chain")
    play(s, "pass")
    assert at(s, 1, "chain")
    assert "chain_closed" not in log_kinds(s)
    play(s, "pass")
    assert events(s, "chain_closed") == [{"links": 2}]


# --------------------------------------------------------------------------------------------
# 連続発動 (chain_again)
# --------------------------------------------------------------------------------------------


def test_chain_again_tactic_lets_the_same_player_activate_again() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["swift-step", "power-surge"]),
        Side(battle=CAVALIER, tactics_hand=["weaken"]),
    )
    play(s, "pass", "play swift-step", "slot 1")
    assert at(s, 0, "chain")
    assert "play power-surge" in legal(s)
    play(s, "play power-surge", "slot 1")
    assert at(s, 1, "chain")  # power-surge has no 連続発動: priority moves on
    close_chain(s)
    assert events(s, "result")[-1] == {"outcome": "attacker_wins", "attack": 6, "defence": 4}


def test_chain_again_then_pass_gives_priority_to_the_opponent_who_may_still_answer() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["swift-step"]),
        Side(battle=CAVALIER, tactics_hand=["weaken"]),
    )
    play(s, "pass", "play swift-step", "slot 1")
    play(s, "pass")  # the attacker passes its extra activation
    assert at(s, 1, "chain")
    assert "play weaken" in legal(s)
    play(s, "pass")
    assert events(s, "chain_closed") == [{"links": 1}]


def test_chain_again_trap_of_the_attacker() -> None:
    s = exchange(
        Side(battle=MIKO, traps=["battle-cry"], tactics_hand=["power-surge"]), Side(battle=CAVALIER)
    )
    play(s, "pass", "trap 1", "slot 1")
    assert at(s, 0, "chain")
    assert "play power-surge" in legal(s)


def test_chain_again_tactic_of_the_defender() -> None:
    s = exchange(Side(battle=MIKO), Side(battle=CAVALIER, tactics_hand=["hinder", "weaken"]))
    play(s, "play hinder", "slot 1")
    assert at(s, 1, "chain")
    play(s, "play weaken", "slot 1")
    assert at(s, 0, "chain")


def test_chain_again_is_not_granted_by_an_ordinary_card() -> None:
    s = exchange(Side(battle=MIKO), Side(battle=CAVALIER, tactics_hand=["weaken", "hinder"]))
    play(s, "play weaken", "slot 1")
    assert at(s, 0, "chain")


# --------------------------------------------------------------------------------------------
# Strategy slots: tactics need a free one; traps do not
# --------------------------------------------------------------------------------------------


def test_five_full_strategy_slots_offer_no_tactic_but_still_the_traps() -> None:
    traps = ["unhealing-wound", "thorn-armor", "decoy", "steadfast", "holy-barrier"]
    s = exchange(
        Side(battle=MIKO),
        Side(battle=CAVALIER, traps=traps, tactics_hand=["weaken", "ceasefire", "hinder"]),
    )
    options = legal(s)
    assert not [o for o in options if o.startswith("play")]
    assert {"trap 1", "trap 2", "trap 3", "trap 4", "trap 5", "pass"} == set(options)


def test_a_tactic_goes_into_the_lowest_free_slot() -> None:
    s = exchange(
        Side(battle=MIKO),
        Side(
            battle=CAVALIER,
            traps=[None, "decoy", None, "thorn-armor"],
            tactics_hand=["hinder", "weaken", "total-war"],
        ),
    )
    play(s, "play hinder", "slot 1")
    strategy = s.view(1)["players"][1]["strategy"]
    assert strategy[0] == {
        "face": "up",
        "slug": "hinder",
        "name": strategy[0]["name"],
        "kind": "tactic",
    }
    play(s, "play weaken", "slot 1")
    strategy = s.view(0)["players"][1]["strategy"]
    assert [x["slug"] if x and x["face"] == "up" else x for x in strategy] == [
        "hinder",
        {"face": "down"},
        "weaken",
        {"face": "down"},
        None,
    ]


def test_a_tactic_filling_the_last_slot_blocks_the_next_tactic() -> None:
    s = exchange(
        Side(battle=MIKO),
        Side(
            battle=CAVALIER,
            traps=["decoy", "thorn-armor", "steadfast", "steadfast"],
            tactics_hand=["hinder", "weaken"],
        ),
    )
    play(s, "play hinder", "slot 1")  # 連続発動: the defender acts again, slots now full
    assert at(s, 1, "chain")
    options = legal(s)
    assert "play weaken" not in options
    assert {"trap 1", "trap 2", "trap 3", "trap 4"} <= set(options)


def test_an_activated_trap_keeps_its_slot_during_the_chain() -> None:
    s = exchange(
        Side(battle=MIKO),
        Side(
            battle=CAVALIER,
            traps=["thorn-armor", "decoy", "steadfast", "steadfast"],
            tactics_hand=["weaken", "hinder"],
        ),
    )
    play(s, "trap 1", "slot 1")  # thorn-armor face up, still in slot 1
    play(s, "pass")
    assert "play weaken" in legal(s)  # slot 5 is the only free one
    play(s, "play weaken", "slot 1")
    play(s, "pass")
    assert "play hinder" not in legal(s)


# --------------------------------------------------------------------------------------------
# Timing
# --------------------------------------------------------------------------------------------


def test_defending_only_traps_are_not_offered_to_the_attacker() -> None:
    traps = ["decoy", "thorn-armor", "steadfast", "holy-barrier", "unhealing-wound"]
    s = exchange(Side(battle=MIKO, traps=traps), Side(battle=CAVALIER, tactics_hand=["weaken"]))
    play(s, "play weaken", "slot 2")
    assert at(s, 0, "chain")
    assert legal(s) == ["trap 5", "pass"]  # only the "any time" unhealing-wound


def test_attacking_only_traps_are_not_offered_to_the_defender() -> None:
    traps = ["battle-cry", "covering-fire", "unhealing-wound", "decoy"]
    s = exchange(Side(battle=MIKO), Side(battle=CAVALIER, traps=traps))
    assert legal(s) == ["trap 3", "trap 4", "pass"]


def test_attacking_only_traps_are_offered_to_the_attacker() -> None:
    traps = ["battle-cry", "covering-fire", "unhealing-wound"]
    s = exchange(Side(battle=MIKO, traps=traps), Side(battle=CAVALIER))
    play(s, "pass")
    assert legal(s) == ["trap 1", "trap 2", "trap 3", "pass"]


def test_defending_only_tactic_is_refused_to_the_attacker() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["ceasefire", "weaken"]),
        Side(battle=CAVALIER, tactics_hand=["ceasefire"]),
    )
    assert "play ceasefire" in legal(s)
    play(s, "pass")
    assert "play ceasefire" not in legal(s)
    assert "play weaken" in legal(s)


def test_timing_follows_the_role_not_the_seat() -> None:
    # Seat 1 is the attacker this time: its battle-cry is offered, its decoy is not.
    s = board(
        Side(battle=CAVALIER, traps=["battle-cry", "decoy"], tactics_deck=PAD),
        Side(battle=MIKO, traps=["battle-cry", "decoy"]),
        turn_player=1,
    )
    play(s, "attack 1", "target 1")
    assert at(s, 0, "chain")
    assert legal(s) == ["trap 2", "pass"]
    play(s, "pass")
    assert legal(s) == ["trap 1", "pass"]


# --------------------------------------------------------------------------------------------
# Targets
# --------------------------------------------------------------------------------------------


def test_targets_are_every_character_of_the_named_side_including_non_participants() -> None:
    s = exchange(
        Side(
            battle=["white-fox-miko", None, "spear-ashigaru", "ashigaru-recruit"],
            tactics_hand=["power-surge", "weaken"],
        ),
        Side(
            battle=[None, "crimson-cavalier", "shadow-shinobi", None, "oni-warlord"],
            tactics_hand=["weaken"],
        ),
        declare=("attack 1", "target 2"),
    )
    play(s, "play weaken")  # defender: an opponent's character
    assert at(s, 1, "target")
    assert legal(s) == ["slot 1", "slot 3", "slot 4"]
    play(s, "slot 4")  # a non-participant
    play(s, "play power-surge")  # attacker: own characters
    assert legal(s) == ["slot 1", "slot 3", "slot 4"]
    play(s, "slot 3")
    play(s, "pass", "play weaken")  # attacker again: the defender's side
    assert legal(s) == ["slot 2", "slot 3", "slot 5"]


def test_a_target_change_offers_the_defending_side_except_the_target() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["target-change"]),
        Side(battle=["crimson-cavalier", "shadow-shinobi", None, "oni-warlord"], traps=["decoy"]),
    )
    play(s, "trap 1")
    assert legal(s) == ["slot 2", "slot 4"]
    play(s, "slot 4")
    play(s, "play target-change")  # the attacker's tactic names the defending side too
    assert legal(s) == ["slot 2", "slot 4"]


def test_a_target_change_needs_another_defending_character() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["target-change"]),
        Side(battle=["crimson-cavalier"], traps=["decoy"]),
    )
    assert legal(s) == ["pass"]
    play(s, "pass")
    assert legal(s) == ["pass"]


def test_targets_may_anticipate_a_pending_target_change() -> None:
    # The defender moves the attack to its Lv2 shinobi; before that resolves the attacker
    # already weakens the shinobi, which is only the target-to-be.
    s = exchange(Side(battle=MIKO, tactics_hand=["weaken"]), Side(battle=CAVALIER, traps=["decoy"]))
    play(s, "trap 1", "slot 2")
    play(s, "play weaken")
    assert "slot 2" in legal(s)
    play(s, "slot 2")
    activate = events(s, "activate")
    assert activate[-1] == {
        "seat": 0,
        "card": "weaken",
        "link": 2,
        "target_seat": 1,
        "target_slot": 2,
    }
    close_chain(s)
    # weaken resolves first (shinobi Lv0), then the decoy makes it the target.
    assert events(s, "result")[-1] == {"outcome": "attacker_wins", "attack": 3, "defence": 0}
    assert s.battle[5 + 1] == -1
    assert slot_lv(s, 1, 1) == (4, 4)


# --------------------------------------------------------------------------------------------
# "Negate the last activated card" needs an earlier link
# --------------------------------------------------------------------------------------------


def test_negation_is_not_offered_on_an_empty_chain() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["counter-spell"], traps=["counter-seal"]),
        Side(battle=CAVALIER, tactics_hand=["counter-spell"], traps=["counter-seal"]),
    )
    assert legal(s) == ["pass"]  # defender, chain empty
    play(s, "pass")
    assert legal(s) == ["pass"]  # attacker, chain still empty


def test_negation_is_offered_once_there_is_a_link() -> None:
    s = exchange(
        Side(battle=MIKO, tactics_hand=["power-surge"]),
        Side(battle=CAVALIER, tactics_hand=["counter-spell"], traps=["counter-seal"]),
    )
    play(s, "pass", "play power-surge", "slot 1")
    assert set(legal(s)) == {"play counter-spell", "trap 1", "pass"}
    play(s, "play counter-spell")
    assert events(s, "activate")[-1] == {
        "seat": 1,
        "card": "counter-spell",
        "link": 2,
        "negates": 1,
    }


@pytest.mark.parametrize("card", ["counter-spell", "counter-seal"])
def test_negation_may_answer_ones_own_card(card: str) -> None:
    # After a 連続発動 card its controller may negate even its own last card.
    hand = ["hinder", "counter-spell"] if card == "counter-spell" else ["hinder"]
    traps = ["counter-seal"] if card == "counter-seal" else []
    s = exchange(Side(battle=MIKO), Side(battle=CAVALIER, tactics_hand=hand, traps=traps))
    play(s, "play hinder", "slot 1")
    option = "play counter-spell" if card == "counter-spell" else "trap 1"
    assert option in legal(s)


def test_has_candidate_agrees_with_candidates_in_random_play() -> None:
    """The legality shortcut says "someone to choose" exactly when the list is not empty."""
    rules = registry.get("kobo")
    chooser = random.Random(9)
    checked = empty = 0
    for _ in range(30):
        state = rules.new_game(rules.default_config, chooser.randrange(2**31))
        assert isinstance(state, KoboState)
        while state.pending is not None:
            if state.pending.prompt == "chain":
                for seat in (0, 1):
                    for card, cdef in enumerate(state.defs):
                        if cdef.needs_choice and state.owner[card] == seat:
                            expected = bool(effects.candidates(state, seat, card))
                            assert effects.has_candidate(state, seat, card) == expected
                            checked += 1
                            empty += not expected
            options = state.legal_actions()
            state.apply(options[chooser.randrange(len(options))])
    assert checked > 1000 and empty > 0

"""Kōbō traps and tactics of the pool: each does what its generated card text says.

Most scenarios stop at a multi-attacker tie (3 vs 3): the defender's choice comes after
resolution and before clean-up, so the exchange's temporary Lv is still visible there.
"""

from __future__ import annotations

from typing import Any

import pytest

from kessen.games.kobo.card_versions import current_version, pool_for
from kessen.games.kobo.schema import load_pool
from kessen.games.kobo.state import KoboState
from kessen.games.kobo.text import card_text
from tests.kobo.harness import (
    SCENARIO_CARD_DATA,
    Side,
    battle_slugs,
    board,
    legal,
    log_kinds,
    play,
    slot_lv,
)

PAD = ["hinder", "hinder", "hinder"]
POOL = load_pool()

# Seat 0 attacks with slots 1 + 2 (Lv1 + Lv2 = 3) the Lv3 musket captain in seat 1's slot 1.
# Seat 0 slot 3 (miko, Lv3) and seat 1 slot 2 (yamabushi, Lv3) stand by.
ATTACKER = ["ashigaru-recruit", "spear-ashigaru", "white-fox-miko"]
DEFENDER = ["musket-captain", "yamabushi-ascetic"]
# (base, current) at the tie prompt when nothing was played: the target already lost 1 base.
AT_TIE = {(0, 1): (1, 1), (0, 2): (2, 2), (0, 3): (3, 3), (1, 1): (2, 2), (1, 2): (3, 3)}


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


def lvs(state: KoboState) -> dict[tuple[int, int], tuple[int, int]]:
    """(base, current) of every character on the field, by (seat, slot)."""
    return {
        (seat, slot): slot_lv(state, seat, slot)
        for seat in (0, 1)
        for slot in range(1, 6)
        if state.battle[seat * 5 + slot - 1] != -1
    }


def is_trap(slug: str) -> bool:
    """True for traps (the others here are tactics)."""
    return POOL.get(slug).kind.value == "trap"


def setup(slug: str, by: int, first: tuple[str, ...] = ()) -> KoboState:
    """The 3-vs-3 exchange with ``slug`` held by seat ``by``; ``first`` is played before it.

    Returns the state where seat ``by`` has priority (after the defender passed, if ``by`` is
    the attacker and ``first`` is empty).
    """
    own = Side(traps=[slug]) if is_trap(slug) else Side(tactics_hand=[slug])
    sides = [Side(battle=ATTACKER), Side(battle=DEFENDER, tactics_deck=PAD)]
    sides[by].traps, sides[by].tactics_hand = own.traps, own.tactics_hand
    other = sides[1 - by]
    other.tactics_hand = [*other.tactics_hand, "power-surge", "weaken"]
    # A card that card data version 1 lacks (the surprise zone's 【！】 tactics) is played
    # with the current data, the characters keeping the Lv they have in version 1.
    legacy = pool_for(SCENARIO_CARD_DATA)
    current = slug not in legacy
    if current:
        for side in sides:
            side.base = {i + 1: legacy.get(c).lv for i, c in enumerate(side.battle) if c}
    s = board(sides[0], sides[1], card_data=current_version() if current else SCENARIO_CARD_DATA)
    play(s, "attack 1", "attack 2", "target 1")
    if first:
        play(s, *first)
    elif by == 0:
        play(s, "pass")
    assert at(s, by, "chain")
    return s


def activate(s: KoboState, slug: str, *choice: str) -> None:
    """Activate ``slug`` from where ``setup`` put it."""
    play(s, "trap 1" if is_trap(slug) else f"play {slug}", *choice)


# --------------------------------------------------------------------------------------------
# Lv changes on a chosen character: amount, duration (tactic: this exchange; trap: permanent)
# --------------------------------------------------------------------------------------------

CHOSEN = [
    # slug, activating seat, chosen slot, affected (seat, slot), at the tie, next turn, 連続発動
    ("power-surge", 0, 3, (0, 3), (3, 5), (3, 3), False),
    ("power-surge", 1, 2, (1, 2), (3, 5), (3, 3), False),
    ("last-stand", 0, 3, (0, 3), (3, 6), (3, 3), False),
    ("swift-step", 0, 3, (0, 3), (3, 4), (3, 3), True),
    ("swift-step", 1, 2, (1, 2), (3, 4), (3, 3), True),
    ("weaken", 0, 2, (1, 2), (3, 1), (3, 3), False),
    ("weaken", 1, 3, (0, 3), (3, 1), (3, 3), False),
    ("hinder", 0, 2, (1, 2), (3, 2), (3, 3), True),
    ("hinder", 1, 3, (0, 3), (3, 2), (3, 3), True),
    ("battle-cry", 0, 3, (0, 3), (4, 4), (4, 4), True),
    ("covering-fire", 0, 2, (1, 2), (2, 2), (2, 2), False),
    ("unhealing-wound", 0, 2, (1, 2), (2, 2), (2, 2), False),
    ("unhealing-wound", 1, 3, (0, 3), (2, 2), (2, 2), False),
    ("thorn-armor", 1, 3, (0, 3), (1, 1), (1, 1), False),
]


@pytest.mark.parametrize(
    ("slug", "by", "slot", "affected", "during", "after", "again"),
    CHOSEN,
    ids=[f"{c[0]}-by-{c[1]}" for c in CHOSEN],
)
def test_lv_change_on_a_chosen_character(
    slug: str,
    by: int,
    slot: int,
    affected: tuple[int, int],
    during: tuple[int, int],
    after: tuple[int, int],
    again: bool,
) -> None:
    s = setup(slug, by)
    activate(s, slug, f"slot {slot}")
    assert at(s, by if again else 1 - by, "chain")  # 連続発動 keeps priority
    close_chain(s)
    assert at(s, 1, "tie")
    assert lvs(s) == {**AT_TIE, affected: during}  # nobody else is touched
    play(s, "slot 1")
    assert at(s, 1, "turn")
    expected = {**AT_TIE, affected: after}
    del expected[(0, 1)]  # the attacker chosen to retreat
    assert lvs(s) == expected


def test_card_text_matches_the_lv_table() -> None:
    # The table above is what the generated text promises.
    texts = {slug: card_text(POOL.get(slug), "en") for slug, *_ in CHOSEN}
    for slug, _, _, _, during, after, again in CHOSEN:
        text = texts[slug]
        assert ("permanently" in text) is (during == after), slug
        assert ("[Consecutive activation]" in text) is again, slug


def test_unhealing_wound_retreats_a_lv1_at_once() -> None:
    s = setup("unhealing-wound", 1)
    activate(s, "unhealing-wound", "slot 1")  # the Lv1 recruit, one of the attackers
    kinds_before = len(s.log)
    close_chain(s)
    later = [e.kind for e in s.log[kinds_before:]]
    assert later.index("retreat") < later.index("result")
    # 2 vs 3 with the spear alone: the defender wins.
    assert events(s, "result")[-1] == {"outcome": "defender_wins", "attack": 2, "defence": 3}


# --------------------------------------------------------------------------------------------
# "All participants" cards
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "by", "outcome", "attack", "defence"),
    [
        ("total-war", 0, "attacker_wins", 5, 3),
        ("total-war", 1, "defender_wins", 3, 4),
        ("mass-jamming", 0, "attacker_wins", 3, 2),
        ("mass-jamming", 1, "defender_wins", 1, 3),
        ("steadfast", 1, "defender_wins", 3, 4),
    ],
)
def test_participant_cards_touch_the_fighters_only(
    slug: str, by: int, outcome: str, attack: int, defence: int
) -> None:
    s = setup(slug, by)
    activate(s, slug)
    close_chain(s)
    assert events(s, "result")[-1] == {"outcome": outcome, "attack": attack, "defence": defence}
    touched = {(e["seat"], e["slot"]) for e in events(s, "lv")}
    assert (0, 3) not in touched and (1, 2) not in touched
    assert slot_lv(s, 0, 3) == (3, 3) and slot_lv(s, 1, 2) == (3, 3)


def test_steadfast_is_permanent() -> None:
    s = setup("steadfast", 1)
    activate(s, "steadfast")
    close_chain(s)
    assert slot_lv(s, 1, 1) == (4, 4)
    play(s, "pass")
    assert slot_lv(s, 1, 1) == (4, 4)


def test_total_war_is_temporary() -> None:
    s = setup("total-war", 1)
    activate(s, "total-war")
    close_chain(s)
    assert slot_lv(s, 1, 1) == (3, 3)


# --------------------------------------------------------------------------------------------
# Target change: decoy (trap, defending) and target-change (tactic, either side)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("slug", "by"), [("decoy", 1), ("target-change", 1), ("target-change", 0)])
def test_target_change_makes_the_chosen_character_the_target(slug: str, by: int) -> None:
    s = setup(slug, by)
    activate(s, slug)
    assert legal(s) == ["slot 2"]  # the defending side, other than the target
    play(s, "slot 2")
    close_chain(s)
    assert events(s, "target_changed") == [
        {"card": slug, "seat": 1, "slot": 2, "char": "yamabushi-ascetic"}
    ]
    assert at(s, 1, "tie")  # 3 vs the yamabushi's 3
    assert lvs(s) == {**AT_TIE, (1, 1): (3, 3), (1, 2): (2, 2)}
    assert s.view(0)["attack"]["target"] == 2


# --------------------------------------------------------------------------------------------
# Attack negation: holy-barrier (trap), ceasefire (tactic), both defending only
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", ["holy-barrier", "ceasefire"])
def test_attack_negation_means_no_attack_result(slug: str) -> None:
    s = setup(slug, 1)
    activate(s, slug)
    close_chain(s)
    assert events(s, "attack_negated") == [{"card": slug}]
    assert events(s, "result") == [{"outcome": "negated"}]
    assert "tie_choice" not in log_kinds(s)
    assert at(s, 1, "turn")
    assert lvs(s) == {**AT_TIE, (1, 1): (3, 3)}


# --------------------------------------------------------------------------------------------
# Negation of the card activated just before: counter-seal (trap), counter-spell (tactic)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "by", "first", "victim"),
    [
        ("counter-seal", 1, ("pass", "play power-surge", "slot 3"), "power-surge"),
        ("counter-spell", 1, ("pass", "play power-surge", "slot 3"), "power-surge"),
        ("counter-seal", 0, ("play weaken", "slot 3"), "weaken"),
        ("counter-spell", 0, ("play weaken", "slot 3"), "weaken"),
    ],
)
def test_negation_of_the_previous_card(
    slug: str, by: int, first: tuple[str, ...], victim: str
) -> None:
    s = setup(slug, by, first)
    activate(s, slug)
    close_chain(s)
    assert events(s, "link_negated") == [{"link": 1, "card": victim}]
    assert events(s, "lv") == []
    assert at(s, 1, "tie")
    assert lvs(s) == AT_TIE


# --------------------------------------------------------------------------------------------
# Timing written on the card
# --------------------------------------------------------------------------------------------

# (offered to the attacker, offered to the defender), from each card's [timing] line.
TIMING = {
    "ambush-shield": (True, True),
    "smoke-veil": (True, True),
    "rearguard-vow": (True, True),
    "seize-the-lull": (True, True),
    "counter-ambush": (True, True),
    "battle-signal": (True, True),
    "unhealing-wound": (True, True),
    "decoy": (False, True),
    "thorn-armor": (False, True),
    "steadfast": (False, True),
    "holy-barrier": (False, True),
    "counter-seal": (True, True),
    "battle-cry": (True, False),
    "covering-fire": (True, False),
    "total-war": (True, True),
    "mass-jamming": (True, True),
    "power-surge": (True, True),
    "weaken": (True, True),
    "target-change": (True, True),
    "swift-step": (True, True),
    "counter-spell": (True, True),
    "ceasefire": (False, True),
    "last-stand": (True, True),
    "hinder": (True, True),
}


def test_the_timing_table_covers_every_trap_and_tactic() -> None:
    chain_cards = {s for s, c in POOL.cards.items() if c.kind.value in ("trap", "tactic")}
    assert set(TIMING) == chain_cards
    for slug, (attacker, defender) in TIMING.items():
        text = card_text(POOL.get(slug), "en")
        if attacker and defender:
            assert "[When" not in text, slug
        else:
            assert ("[When defending]" in text) is defender, slug
            assert ("[When attacking]" in text) is attacker, slug


@pytest.mark.parametrize("slug", sorted(TIMING))
@pytest.mark.parametrize("by", [0, 1], ids=["attacker", "defender"])
def test_card_is_offered_only_at_its_timing(slug: str, by: int) -> None:
    # One link is already in the chain, so negations have something to negate.
    first = ("play weaken", "slot 3") if by == 0 else ("pass", "play power-surge", "slot 3")
    s = setup(slug, by, first)
    option = "trap 1" if is_trap(slug) else f"play {slug}"
    assert (option in legal(s)) is TIMING[slug][by]


def test_a_lv_card_without_a_legal_target_is_not_offered() -> None:
    # The defender's decoy needs a defending character other than the target.
    s = board(
        Side(battle=ATTACKER), Side(battle=["musket-captain"], traps=["decoy"], tactics_deck=PAD)
    )
    play(s, "attack 1", "target 1")
    assert legal(s) == ["pass"]
    assert battle_slugs(s, 1)[0] == "musket-captain"

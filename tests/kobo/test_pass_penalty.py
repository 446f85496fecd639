"""Kōbō passing (kobo-rules §5.1–5.2): the pass counter, the exclusion penalty, the tactics draw."""

from __future__ import annotations

from typing import Any

from kessen.games.kobo.state import EXCLUDED, TDECK, THAND, KoboState
from tests.kobo.harness import Side, board, legal, log_kinds, play

PAD = ["hinder", "hinder", "hinder"]
# A tactics hand of 4: the turn player does not draw (hand <= 3 draws).
HAND4 = ["total-war", "mass-jamming", "swift-step", "last-stand"]
DECK8 = [
    "weaken",
    "power-surge",
    "counter-spell",
    "ceasefire",
    "target-change",
    "hinder",
    "swift-step",
    "total-war",
]


def events(state: KoboState, kind: str) -> list[dict[str, Any]]:
    """The public part of the log events of one kind, oldest first."""
    return [e.public for e in state.log if e.kind == kind]


def slugs(state: KoboState, cards: list[int]) -> list[str]:
    """Card names of a zone list."""
    return [state.defs[c].slug for c in cards]


def tactics_deck_top_first(state: KoboState, seat: int) -> list[str]:
    """The tactics deck, top card first."""
    return list(reversed(slugs(state, state.zone(seat, TDECK))))


def excluded(state: KoboState, seat: int) -> list[str]:
    """The excluded cards of ``seat``, in order of exclusion."""
    return slugs(state, state.zone(seat, EXCLUDED))


def at(state: KoboState, seat: int, prompt: str) -> bool:
    """True if the match waits for ``seat`` at ``prompt``."""
    pending = state.pending
    return pending is not None and (pending.seat, pending.prompt) == (seat, prompt)


def close_chain(state: KoboState) -> None:
    """Both players pass until the chain closes."""
    while state.pending is not None and state.pending.prompt == "chain":
        play(state, "pass")


# --------------------------------------------------------------------------------------------
# The n-th pass excludes n - 1 cards
# --------------------------------------------------------------------------------------------


def test_first_pass_costs_nothing_and_ends_the_turn() -> None:
    s = board(
        Side(battle=["white-fox-miko"], tactics_hand=HAND4, tactics_deck=["weaken", "hinder"]),
        Side(battle=["musket-captain"], tactics_deck=PAD),
    )
    play(s, "pass")
    assert s.passes == [1, 0]
    assert excluded(s, 0) == []
    assert tactics_deck_top_first(s, 0) == ["weaken", "hinder"]
    assert len(s.zone(0, THAND)) == 4
    assert events(s, "pass") == [{"seat": 0, "passes": 1, "penalty": 0}]
    assert "exclude" not in log_kinds(s)
    assert at(s, 1, "turn")


def test_each_pass_excludes_one_card_more_than_the_last() -> None:
    s = board(
        Side(battle=["white-fox-miko"], tactics_hand=HAND4, tactics_deck=DECK8),
        Side(battle=["musket-captain"], tactics_hand=HAND4, tactics_deck=DECK8),
    )
    expected_total = [0, 1, 3, 6]  # passes 1..4 exclude 0, 1, 2, 3
    for n in range(1, 5):
        assert at(s, 0, "turn")
        play(s, "pass")
        assert s.passes[0] == n
        assert events(s, "pass")[-1] == {"seat": 0, "passes": n, "penalty": n - 1}
        assert len(excluded(s, 0)) == expected_total[n - 1]
        assert excluded(s, 0) == DECK8[: expected_total[n - 1]]
        assert at(s, 1, "turn")
        play(s, "pass")
    # Seat 1 passed four times too: its own counter, its own penalty.
    assert s.passes == [4, 4]
    assert len(excluded(s, 1)) == 6


def test_the_pass_counter_never_resets_after_attacks() -> None:
    s = board(
        Side(battle=["oni-warlord"], tactics_hand=HAND4, tactics_deck=DECK8),
        Side(
            battle=["ashigaru-recruit", "messenger-tanuki", "spear-ashigaru", "shadow-shinobi"],
            tactics_hand=HAND4,
            tactics_deck=PAD * 6,
        ),
    )
    play(s, "pass")  # 1st: nothing
    play(s, "pass")  # seat 1
    play(s, "attack 1", "target 1")
    close_chain(s)
    play(s, "pass")  # seat 1
    play(s, "pass")  # 2nd, after an attack: 1
    assert s.passes[0] == 2
    assert excluded(s, 0) == DECK8[:1]
    play(s, "pass")  # seat 1
    play(s, "attack 1", "target 2")
    close_chain(s)
    play(s, "pass")  # seat 1
    play(s, "pass")  # 3rd: 2 more
    assert s.passes[0] == 3
    assert excluded(s, 0) == DECK8[:3]
    play(s, "pass")  # seat 1
    play(s, "pass")  # 4th: 3 more
    assert excluded(s, 0) == DECK8[:6]


def test_a_preset_counter_is_continued() -> None:
    s = board(
        Side(battle=["white-fox-miko"], tactics_hand=HAND4, tactics_deck=DECK8, passes=4),
        Side(battle=["musket-captain"], tactics_deck=PAD),
    )
    play(s, "pass")  # the 5th pass: 4 cards
    assert excluded(s, 0) == DECK8[:4]


# --------------------------------------------------------------------------------------------
# Where the penalty comes from: tactics deck top, then hand (chosen), then face-down traps
# --------------------------------------------------------------------------------------------


def test_penalty_takes_the_tactics_deck_top_first() -> None:
    s = board(
        Side(
            battle=["white-fox-miko"],
            tactics_hand=HAND4,
            tactics_deck=["weaken", "hinder", "power-surge"],
            traps=["decoy"],
            passes=2,
        ),
        Side(battle=["musket-captain"], tactics_deck=PAD),
    )
    play(s, "pass")  # 3rd: 2 cards, both from the deck: no choice asked
    assert excluded(s, 0) == ["weaken", "hinder"]
    assert tactics_deck_top_first(s, 0) == ["power-surge"]
    assert len(s.zone(0, THAND)) == 4
    assert s.face_down_traps(0) != []
    assert events(s, "exclude") == [
        {"seat": 0, "cards": ["weaken", "hinder"], "source": "tactics_deck"}
    ]
    assert at(s, 1, "turn")


def test_penalty_then_asks_for_a_card_of_the_tactics_hand() -> None:
    s = board(
        Side(
            battle=["white-fox-miko"],
            tactics_hand=HAND4,
            tactics_deck=["weaken"],
            traps=["decoy"],
            passes=2,
        ),
        Side(battle=["musket-captain"], tactics_deck=PAD),
    )
    play(s, "pass")  # 3rd: deck top, then one chosen from the hand
    assert excluded(s, 0) == ["weaken"]
    assert at(s, 0, "penalty")
    assert sorted(legal(s)) == sorted(f"exclude {c}" for c in HAND4)
    play(s, "exclude mass-jamming")
    assert excluded(s, 0) == ["weaken", "mass-jamming"]
    assert sorted(slugs(s, s.zone(0, THAND))) == sorted(c for c in HAND4 if c != "mass-jamming")
    assert s.face_down_traps(0) != []  # the trap is not touched while the hand has cards
    assert at(s, 1, "turn")


def test_penalty_then_asks_for_face_down_traps() -> None:
    s = board(
        Side(
            battle=["white-fox-miko"],
            tactics_hand=["weaken"],
            traps=[None, "decoy", None, "thorn-armor"],
            passes=2,
        ),
        Side(battle=["musket-captain"], tactics_deck=PAD),
    )
    play(s, "pass")  # 3rd: 2 cards: the only hand card, then one trap
    assert at(s, 0, "penalty")
    assert legal(s) == ["exclude weaken"]  # the hand first: no trap offered yet
    play(s, "exclude weaken")
    assert at(s, 0, "penalty")
    assert legal(s) == ["exclude-trap 2", "exclude-trap 4"]
    play(s, "exclude-trap 4")
    assert excluded(s, 0) == ["weaken", "thorn-armor"]
    view = s.view(0)["players"][0]["strategy"]
    assert view[1] is not None and view[1]["slug"] == "decoy" and view[1]["face"] == "down"
    assert view[3] is None
    assert at(s, 1, "turn")


def test_penalty_larger_than_everything_excludes_what_there_is() -> None:
    s = board(
        Side(
            battle=["white-fox-miko"],
            tactics_hand=["weaken"],
            tactics_deck=["hinder"],
            traps=["decoy"],
            passes=5,
        ),
        Side(battle=["musket-captain"], tactics_deck=PAD),
    )
    # The turn draw took "hinder" into the hand (hand of 1 <= 3): the deck is empty.
    play(s, "pass")  # 6th: 5 cards asked, 3 exist
    while at(s, 0, "penalty"):
        play(s, legal(s)[0])
    assert sorted(excluded(s, 0)) == ["decoy", "hinder", "weaken"]
    assert s.remaining_cards(0) == 0
    assert at(s, 1, "turn")


def test_the_end_is_checked_after_the_penalty() -> None:
    # Seat 0's last tactic (drawn at the turn start) is excluded by its 2nd pass; seat 1 holds
    # nothing either: both are out of traps and tactics, the higher total Lv wins.
    s = board(
        Side(battle=["white-fox-miko"], tactics_deck=["weaken"], passes=1),
        Side(battle=["crimson-cavalier"]),
    )
    play(s, "pass", "exclude weaken")
    ends = events(s, "game_end")
    assert len(ends) == 1
    assert ends[0]["reason"] == "exhausted" and ends[0]["winner"] == 1
    assert ends[0]["scores"] == [3, 4]


def test_penalty_is_shown_to_both_players() -> None:
    s = board(
        Side(battle=["white-fox-miko"], tactics_hand=HAND4, tactics_deck=["weaken"], passes=2),
        Side(battle=["musket-captain"], tactics_deck=PAD),
    )
    play(s, "pass", "exclude last-stand")
    for viewer in (0, 1):
        view = s.view(viewer)
        log = view["log"]
        assert {"kind": "pass", "seat": 0, "passes": 3, "penalty": 2} in log
        assert {"kind": "exclude", "seat": 0, "cards": ["weaken"], "source": "tactics_deck"} in log
        assert {
            "kind": "exclude",
            "seat": 0,
            "cards": ["last-stand"],
            "source": "tactics_hand",
        } in log
        assert [c["slug"] for c in view["players"][0]["excluded"]] == ["weaken", "last-stand"]
        assert view["players"][0]["passes"] == 3


# --------------------------------------------------------------------------------------------
# After a pass: no chain, the turn passes
# --------------------------------------------------------------------------------------------


def test_after_a_pass_there_is_no_chain_and_the_turn_passes() -> None:
    s = board(
        Side(battle=["white-fox-miko"], tactics_hand=HAND4, traps=["unhealing-wound"]),
        Side(
            battle=["musket-captain"],
            tactics_hand=["weaken", "counter-spell"],
            traps=["unhealing-wound", "counter-seal"],
            tactics_deck=PAD,
        ),
    )
    assert s.turn == 1
    play(s, "pass")
    assert at(s, 1, "turn")
    assert s.turn == 2 and s.turn_player == 1
    after = log_kinds(s)[log_kinds(s).index("pass") :]
    assert not {"chain_pass", "activate", "chain_closed", "resolve", "result"} & set(after)
    assert s.face_down_traps(0) != [] and len(s.face_down_traps(1)) == 2
    assert events(s, "turn")[-1] == {"turn": 2, "seat": 1}


# --------------------------------------------------------------------------------------------
# The tactics draw at the start of a turn
# --------------------------------------------------------------------------------------------


def test_a_tactics_hand_of_three_draws_the_deck_top() -> None:
    s = board(
        Side(
            battle=["white-fox-miko"],
            tactics_hand=["total-war", "mass-jamming", "swift-step"],
            tactics_deck=["weaken", "hinder"],
        ),
        Side(battle=["musket-captain"], tactics_deck=PAD),
    )
    assert sorted(slugs(s, s.zone(0, THAND))) == sorted(
        ["total-war", "mass-jamming", "swift-step", "weaken"]
    )
    assert tactics_deck_top_first(s, 0) == ["hinder"]
    assert events(s, "tactics_draw") == [{"seat": 0}]
    # The drawn card is private to its owner.
    draws = [e for e in s.view(1)["log"] if e["kind"] == "tactics_draw"]
    assert draws == [{"kind": "tactics_draw", "seat": 0}]
    draws = [e for e in s.view(0)["log"] if e["kind"] == "tactics_draw"]
    assert draws == [{"kind": "tactics_draw", "seat": 0, "card": "weaken"}]


def test_a_tactics_hand_of_four_does_not_draw() -> None:
    s = board(
        Side(battle=["white-fox-miko"], tactics_hand=HAND4, tactics_deck=["weaken", "hinder"]),
        Side(battle=["musket-captain"], tactics_deck=PAD),
    )
    assert len(s.zone(0, THAND)) == 4
    assert tactics_deck_top_first(s, 0) == ["weaken", "hinder"]
    assert "tactics_draw" not in log_kinds(s)


def test_an_empty_tactics_deck_draws_nothing() -> None:
    s = board(
        Side(battle=["white-fox-miko"], tactics_hand=["weaken"]),
        Side(battle=["musket-captain"], tactics_deck=PAD),
    )
    assert slugs(s, s.zone(0, THAND)) == ["weaken"]
    assert "tactics_draw" not in log_kinds(s)
    assert at(s, 0, "turn")


def test_an_empty_hand_draws_and_each_turn_player_draws_at_its_own_turn() -> None:
    s = board(
        Side(battle=["white-fox-miko"], tactics_deck=["weaken"]),
        Side(
            battle=["musket-captain"], tactics_hand=HAND4[:3], tactics_deck=["hinder", "ceasefire"]
        ),
    )
    assert slugs(s, s.zone(0, THAND)) == ["weaken"]
    assert len(s.zone(1, THAND)) == 3  # not seat 1's turn yet
    play(s, "pass")
    assert len(s.zone(1, THAND)) == 4
    assert "hinder" in slugs(s, s.zone(1, THAND))
    play(s, "pass")
    assert slugs(s, s.zone(0, THAND)) == ["weaken"]  # seat 0's deck is empty now

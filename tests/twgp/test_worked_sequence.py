"""Golden test: the worked sequence of twgp-trump.md §2.11, replayed exactly, row by row.

The builds of §2.11 are fixed in the config (the piles' unknown "…" continue with the remaining
cards in an order chosen here); P1 is seat 0 and plays first. Each block of actions is one row
of the table, followed by the state the table describes. At the end the whole game is checked
once more as a kernel :class:`~kessen.engine.replay.Replay` (config + seed + action texts).
"""

from __future__ import annotations

from typing import Any

from kessen.engine.action import Action
from kessen.engine.replay import Replay
from kessen.games.twgp.game import new_game
from kessen.games.twgp.state import SURGE, TwgpState
from tests.twgp.harness import (
    charge,
    hand,
    last,
    play,
    pose,
    pow_at,
    stack_at,
    top,
    vital_poses,
    zone,
)
from tests.twgp.harness import names as slugs

P1, P2 = 0, 1

CONFIG: dict[str, Any] = {
    "firstPlayer": 0,
    "builds": [
        {
            "vitals": ["s10", "c10", "sk"],
            "hand": ["s3", "c2", "sa", "s5", "c8", "sj"],
            "pile": [
                "c4",
                "s9",
                "sq",
                "c7",
                "s2",
                "c3",
                "s4",
                "s6",
                "s7",
                "s8",
                "ca",
                "c5",
                "c6",
                "c9",
            ],
        },
        {
            "vitals": ["h10", "d10", "dq"],
            "hand": ["d3", "h2", "h4", "d6", "hq", "dk"],
            "pile": [
                "h7",
                "da",
                "h5",
                "d9",
                "d5",
                "h8",
                "ha",
                "h3",
                "h6",
                "h9",
                "d2",
                "d4",
                "d7",
                "d8",
            ],
        },
    ],
}

# One list of action texts per row of the §2.11 table.
ROWS: list[list[str]] = [
    # turn 1 (P1): A3 ♠3 face up, A6 ♠J onto it
    ["charge-drive s3 1", "attach sj 1"],
    # A14 direct; P2 interrupts with ♦3 face up and arms it with ♥Q ♦K; accept
    ["battle", "direct 1", "charge-drive d3 1", "attach hq 1", "attach dk 1", "accept"],
    # (resolution 4 < 5) P1 keeps its stack's order (§2.3) and ends the turn
    ["log-out s3", "end"],
    # turn 2 (P2): P1 sets up ♣4 ♠9; P2 sets up ♥7 ♦A and re-actives ♦3
    ["setup 1", "setup 2", "setup 1", "setup 2", "reactive 1"],
    # A3 ♥2, A4 ♥4 on core ♦3 with material ♥2
    ["charge-drive h2 2", "power-drive 1 h4 2"],
    # A14 direct with ♥4; P1 accepts and flips ♠K
    ["battle", "direct 1", "accept", "flip 3"],
    # P1's damage routine: re-build A3 ♣2 face up, then set up ♠Q
    ["charge-drive c2 1", "setup 1", "done"],
    # P2 A3 ♦A; end
    ["charge-drive da 2", "end"],
    # turn 3 (P1): P2 sets up all four; P1 A3 ♠A
    ["setup 1", "setup 2", "setup 3", "setup 4", "charge-drive sa 2"],
    # A4 ♣4 onto ♣2 + ♠A is illegal; A6 ♠Q onto ♣2 instead
    ["attach sq 1"],
    # A12 ♣2 → ♦A; P2 accepts
    ["battle", "assault 1 2", "accept"],
    # A14 direct with ♠A (pow 1), no interrupter: a tie; P2 flips ♦Q, re-actives ♥4
    ["direct 2", "accept", "flip 3", "reactive 1", "done", "end"],
    # turn 4 (P2): P1 sets up ♠2 ♣3; P2 directs with ♥4
    ["setup 1", "setup 3", "battle", "direct 1"],
    # P1 interrupts with ♣3, then counter-drives ♠9 on the run ♠2 ♣3 ♣4 ♠5
    ["charge-drive c3 2", "counter-drive s9 s2 c4 s5"],
    # resolves 6 < 9; P2 keeps its stack's order, all five fit in the surge (§2.3)
    ["accept", "log-out h4", "log-out d3", "log-out h2", "log-out hq", "end"],
    # turn 5 (P1): P1 does not set up ♣7 (§2.9 #27: offered once, before its first other
    # action); A2 ♣2 and ♠9, A14 with ♠9 takes a vital
    ["done", "reactive 1", "reactive 2", "battle", "direct 2", "accept", "flip 1"],
]


def _row(state: TwgpState, index: int) -> TwgpState:
    return play(state, *ROWS[index])


def test_the_worked_sequence_replays_exactly() -> None:
    s = new_game(CONFIG, 0)
    assert (s.turn, s.turn_player) == (1, P1)

    _row(s, 0)
    assert top(s, P1, 1) == "s3" and pow_at(s, P1, 1) == 4
    assert s.empty_charge(P1) == 3 and charge(s, P1)[:2] == ["c4", "s9"]
    assert hand(s, P1) == sorted(["c2", "sa", "s5", "c8"])

    _row(s, 1)
    assert last(s, "result") == {"type": "direct", "outcome": "target", "attack": 4, "defence": 5}
    assert top(s, P2, 1) == "d3" and pow_at(s, P2, 1) == 5 and pose(s, P2, 1) == "save"
    assert hand(s, P2) == sorted(["h2", "h4", "d6"])
    assert zone(s, P1, SURGE) == ["s3", "sj"] and top(s, P1, 1) is None
    assert vital_poses(s, P2) == ["hidden"] * 3

    _row(s, 2)
    assert (s.turn, s.turn_player) == (2, P2)

    _row(s, 3)
    assert hand(s, P1) == sorted(["c2", "sa", "s5", "c8", "c4", "s9"])
    assert pose(s, P2, 1) == "active"

    _row(s, 4)
    stack = stack_at(s, P2, 1)
    assert stack is not None and top(s, P2, 1) == "h4"
    assert slugs(stack.under) == ["d3", "h2"] and slugs(stack.attached) == ["hq", "dk"]
    assert pow_at(s, P2, 1) == 6 and stack_at(s, P2, 2) is None
    assert hand(s, P2) == sorted(["d6", "h7", "da"])

    _row(s, 5)
    assert vital_poses(s, P1) == ["hidden", "hidden", "effect"]
    assert pose(s, P2, 1) == "save"

    _row(s, 6)
    assert top(s, P1, 1) == "c2" and pose(s, P1, 1) == "active"
    assert [c for c in charge(s, P1) if c] == ["c7"]
    assert hand(s, P1) == sorted(["sa", "s5", "c8", "c4", "s9", "sq"])

    _row(s, 7)
    assert s.empty_charge(P2) == 1 and hand(s, P2) == sorted(["d6", "h7"])
    assert (s.turn, s.turn_player) == (3, P1)

    _row(s, 8)
    assert len(s.zone(P2, 2)) == 6
    assert sorted(c for c in charge(s, P1) if c) == sorted(["c7", "s2", "c3"])
    assert "power-drive 1 c4 2" not in [str(a) for a in s.legal_actions()]

    _row(s, 9)
    assert pow_at(s, P1, 1) == 3 and hand(s, P1) == sorted(["s5", "c8", "c4", "s9"])

    _row(s, 10)
    assert zone(s, P2, SURGE) == ["da"] and pose(s, P1, 1) == "save"

    _row(s, 11)
    assert last(s, "result")["outcome"] == "tie"
    assert top(s, P1, 2) is None and zone(s, P1, SURGE) == ["s3", "sj", "sa"]
    assert vital_poses(s, P2) == ["hidden", "hidden", "effect"]
    assert vital_poses(s, P1) == ["hidden", "hidden", "lost"]
    assert pose(s, P2, 1) == "active"

    _row(s, 12)
    assert hand(s, P1) == sorted(["s5", "c8", "c4", "s9", "s2", "c3"])

    _row(s, 13)
    stack = stack_at(s, P1, 2)
    assert stack is not None and top(s, P1, 2) == "s9" and len(stack.under) == 4
    assert hand(s, P1) == ["c8"]

    _row(s, 14)
    assert last(s, "result") == {"type": "direct", "outcome": "target", "attack": 6, "defence": 9}
    assert len(s.zone(P2, SURGE)) == 6 and pose(s, P1, 2) == "save"
    assert vital_poses(s, P1) == ["hidden", "hidden", "lost"]

    _row(s, 15)
    assert vital_poses(s, P2) == ["effect", "hidden", "lost"]
    assert vital_poses(s, P1) == ["hidden", "hidden", "lost"]
    s.audit()


def test_the_worked_sequence_is_a_replayable_record() -> None:
    state = new_game(CONFIG, 0)
    record = Replay.start(state, CONFIG, 0)
    for row in ROWS:
        for text in row:
            play(state, text)
            record.record(Action.parse(text), state)
    final = record.final_state()
    assert final.state_hash() == state.state_hash()

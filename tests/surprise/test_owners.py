"""Rule process 9.5.3 sends each card to its **owner's** waiting room, whatever zone it lies in.

Scenario S32 of the surprise-zone spec: P2's card B is put into P1's zone on top of P1's A; the
check sends A (the older) to P1's waiting room and B stays. The mirror: had B been the older one,
it would go to P2's waiting room and A would stay. Both must settle in one pass (before the fix,
an older foreign card was taken out of its owner's zone, where it was not, and the check looped
until :data:`~kessen.engine.rule_processes.MAX_PASSES`).

Three levels: the kernel module alone (:func:`kessen.engine.surprise.sweep`, and the kernel
check timing over a ruleset-like storage), the kernel table of :mod:`tests.surprise.table_game`,
and Kōbō's state (no Kōbō effect puts a card into the opponent's zone, and its audit refuses such
a state, so there the cards are placed by hand: the rule process must still not loop).
"""

from __future__ import annotations

from kessen.engine.poses import Pose
from kessen.engine.rule_processes import RuleProcess, check_timing
from kessen.engine.surprise import Fix, sweep
from kessen.engine.zones import Placed
from kessen.games.kobo.state import RETREAT, THAND, KoboState
from kessen.games.kobo.surprise import check, zone_cards
from tests.surprise.kobo_helpers import to_first_turn
from tests.surprise.table_game import TableGame, zone

P1, P2 = 0, 1
A, B = 3, 23
"""P1's card A and P2's card B (kernel level)."""
OWNERS = {A: P1, B: P2}


# --- the kernel module alone -------------------------------------------------------------------


def test_s32_sweep_names_the_older_card_and_its_owner() -> None:
    """Given A (stamp 1) in P1's zone; when P2's B is put on top (stamp 2); then 9.5.3 moves A,
    from P1's zone to P1's waiting room, and leaves B."""
    zones = {"s1": [Placed(A, Pose.DOWN, 1), Placed(B, Pose.DOWN, 2)], "s2": []}
    assert sweep(zones, OWNERS, ()) == [Fix("9.5.3", A, "s1", P1)]


def test_s32_mirror_sweep_sends_the_older_foreign_card_to_its_owner() -> None:
    """Given P2's B (stamp 1) in P1's zone; when P1's A arrives (stamp 2); then 9.5.3 moves B,
    from P1's zone to **P2's** waiting room, and leaves A."""
    zones = {"s1": [Placed(B, Pose.DOWN, 1), Placed(A, Pose.DOWN, 2)], "s2": []}
    assert sweep(zones, OWNERS, ()) == [Fix("9.5.3", B, "s1", P2)]


def test_sweep_owners_as_a_sequence_and_9_7_1_on_a_foreign_card() -> None:
    """A face-up foreign card with no instance waiting (9.7.1) goes to its owner too; owners may
    be a sequence indexed by card (as Kōbō keeps them)."""
    owners = [P1] * 20 + [P2] * 20
    zones = {P1: [Placed(B, Pose.UP, 1)], P2: [Placed(A, Pose.DOWN, 2)]}
    assert sweep(zones, owners, ()) == [Fix("9.7.1", B, P1, P2)]
    assert sweep(zones, owners, {B}) == []


class _Storage:
    """A ruleset's own storage, as Kōbō keeps it: surprise zones and waiting rooms by seat."""

    def __init__(self, p1_zone: list[Placed]) -> None:
        self.surprise: dict[int, list[Placed]] = {P1: p1_zone, P2: []}
        self.waiting: dict[int, list[int]] = {P1: [], P2: []}


def _settle(storage: _Storage) -> list[list[tuple[str, Fix[int]]]]:
    def find(s: _Storage) -> list[Fix[int]]:
        return sweep(s.surprise, OWNERS, ())

    def apply(s: _Storage, found: list[tuple[str, Fix[int]]]) -> None:
        for _, fix in found:
            s.surprise[fix.zone] = [e for e in s.surprise[fix.zone] if e.card != fix.card]
            s.waiting[fix.owner].append(fix.card)

    return check_timing(storage, [RuleProcess("surprise", find)], apply)


def test_s32_kernel_check_timing_settles_in_one_pass() -> None:
    """S32 as written through the kernel's check timing: A to P1's waiting room, B stays."""
    storage = _Storage([Placed(A, Pose.DOWN, 1), Placed(B, Pose.DOWN, 2)])
    assert len(_settle(storage)) == 1
    assert storage.surprise[P1] == [Placed(B, Pose.DOWN, 2)]
    assert storage.waiting == {P1: [A], P2: []}


def test_s32_mirror_kernel_check_timing_settles_in_one_pass() -> None:
    """The mirror through the kernel's check timing: B once in P2's waiting room, A stays."""
    storage = _Storage([Placed(B, Pose.DOWN, 1), Placed(A, Pose.DOWN, 2)])
    assert len(_settle(storage)) == 1
    assert storage.surprise[P1] == [Placed(A, Pose.DOWN, 2)]
    assert storage.waiting == {P1: [], P2: [B]}


# --- the kernel table --------------------------------------------------------------------------


def _table(older: int, newer: int) -> TableGame:
    """P1's zone holds ``older`` (placed first) and ``newer`` (placed by a later effect)."""
    g = TableGame()
    g.deal(P1, 5, 5)
    g.deal(P2, 5, 5)
    g.table.put([older], zone("surprise", P1), face_up=False)
    g.table.put([newer], zone("surprise", P1), face_up=False)
    return g


def test_s32_table_older_own_card_leaves_foreign_card_stays() -> None:
    """Given P1's A, then P2's B put on top; when a check; then A is face up in P1's waiting
    room, B stays face down in P1's zone, one pass."""
    a, b = 0, 20
    g = _table(a, b)
    g.check()
    assert len(g.checks) == 1
    assert g.table.cards(zone("waiting", P1)) == [a] and g.table.entry(a).face_up
    assert g.table.cards(zone("surprise", P1)) == [b] and not g.table.entry(b).face_up
    assert g.table.cards(zone("waiting", P2)) == []


def test_s32_mirror_table_older_foreign_card_goes_to_its_owner() -> None:
    """Given P2's B in P1's zone, then P1's A on top; when a check; then B is face up in P2's
    waiting room, A stays face down in P1's zone, one pass."""
    a, b = 0, 20
    g = _table(b, a)
    g.check()
    assert len(g.checks) == 1
    assert g.table.cards(zone("waiting", P2)) == [b] and g.table.entry(b).face_up
    assert g.table.cards(zone("surprise", P1)) == [a] and not g.table.entry(a).face_up
    assert g.table.cards(zone("waiting", P1)) == []


# --- Kōbō's state --------------------------------------------------------------------------------


def _kobo(older_seat: int) -> tuple[KoboState, int, int]:
    """Turn 1's decision; P1's tactics card A and P2's B put into P1's surprise zone by hand,
    the one of ``older_seat`` first. Returns the state, A and B."""
    state = to_first_turn()
    data = state.surprise
    assert data is not None
    a = state.zone(P1, THAND).pop()
    b = state.zone(P2, THAND).pop()
    for card in (a, b) if older_seat == P1 else (b, a):
        data.stamp += 1
        data.zones[P1].append((card, data.stamp))
        state.faceup[card] = False
    return state, a, b


def _rule_notes(state: KoboState) -> list[tuple[str, int, str]]:
    return [
        (str(e.public["rule"]), int(str(e.public["seat"])), str(e.public["card"]))
        for e in state.log
        if e.kind == "surprise_rule"
    ]


def test_s32_kobo_older_own_card_leaves_foreign_card_stays() -> None:
    """S32 as written on Kōbō's state: A to P1's retreat area, B stays in P1's zone."""
    state, a, b = _kobo(older_seat=P1)
    check(state)
    assert zone_cards(state, P1) == [b]
    assert state.zone(P1, RETREAT).count(a) == 1 and b not in state.zone(P2, RETREAT)
    assert _rule_notes(state) == [("9.5.3", P1, state.defs[a].slug)]


def test_s32_mirror_kobo_older_foreign_card_goes_to_its_owner_once() -> None:
    """The mirror on Kōbō's state: B once in P2's retreat area (not P1's), A stays, and the
    check settles (it looped before the fix)."""
    state, a, b = _kobo(older_seat=P2)
    check(state)
    assert zone_cards(state, P1) == [a] and zone_cards(state, P2) == []
    assert state.zone(P2, RETREAT).count(b) == 1 and b not in state.zone(P1, RETREAT)
    assert _rule_notes(state) == [("9.5.3", P2, state.defs[b].slug)]
    state.audit()  # every card in exactly one place again

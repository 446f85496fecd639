"""Attacks: declaring an assault, a charge boost or a direct, answering it, and resolving it.

Text forms: ``assault 1 3`` (own square 1 attacks the opponent's square 3), ``surge-assault 1 3
2`` (paying 3×2 surge), ``boost 1 3 2`` (two downloads), ``direct 1``; in the defender's window
``surge 1`` (a defender payment) and ``accept``; ``recharge s5`` while a boost's downloads are
re-charged from the hand; ``grid-blast 2`` executes a G-blast (A11, §2.6.6).

Resolution follows twgp-trump.md §2.6.1-§2.6.4: discards first, then the vital losses (pushed as
frames), while the discards' weapon-cache decisions come on top of those.
"""

from __future__ import annotations

from kessen.engine.action import Action
from kessen.games.twgp.cards import CARDS, SURGE_MIN, by_slug
from kessen.games.twgp.moves import (
    base,
    deck_room,
    discard_charge,
    discard_stack,
    download,
    log,
    poses_after_attack,
    power,
    recharge,
    set_pose,
    spend_surge,
)
from kessen.games.twgp.state import (
    ACTIVE,
    ASSAULT,
    ATTACK_NAMES,
    BOOST,
    DIRECT,
    EMPTY,
    GB,
    HAND,
    PILE,
    SAVE,
    STEALTH,
    SURGE,
    Attack,
    Frame,
    Stacks,
    TwgpState,
)

SURGE_UNIT = 3
"""Surge cards spent per vital of a surge-direct."""


# --- declarations (A12-A14) --------------------------------------------------------------


def _attackers(state: TwgpState, seat: int, nonzero: bool, stacks: Stacks | None) -> list[int]:
    return [
        i
        for i, s in (state.stacks(seat) if stacks is None else stacks)
        if s.pose == ACTIVE and not (nonzero and base(s) == 0)
    ]


def assault_actions(
    state: TwgpState, seat: int, stacks: Stacks | None = None, foes: Stacks | None = None
) -> list[Action]:
    """A12: an own ACTIVE stack against any opponent stack that is not STEALTH, surge optional
    (``stacks``, ``foes``: ``state.stacks`` of the seat and of its opponent, when known)."""
    targets = [
        i for i, s in (state.stacks(1 - seat) if foes is None else foes) if s.pose != STEALTH
    ]
    if not targets:
        return []
    surge = len(state.zone(seat, SURGE))
    out: list[Action] = []
    for a in _attackers(state, seat, False, stacks):
        attacker = state.square(seat, a)
        assert attacker is not None
        payments = (
            [k for k in (1, 2) if surge >= SURGE_UNIT * k] if base(attacker) >= SURGE_MIN else []
        )
        for t in targets:
            out.append(Action.of("assault", a + 1, t + 1))
            out += [Action.of("surge-assault", a + 1, t + 1, k) for k in payments]
    return out


def boost_downloads_possible(state: TwgpState, seat: int, count: int) -> bool:
    """True if ``count`` charge-boost downloads can be made (deck first, then re-charge)."""
    if count > state.empty_charge(seat):
        return False
    pile = len(state.zone(seat, PILE))
    room = deck_room(state, seat)
    if count <= pile:
        return count <= room
    return pile <= room and count - pile <= len(state.zone(seat, HAND))


def boost_actions(
    state: TwgpState, seat: int, stacks: Stacks | None = None, foes: Stacks | None = None
) -> list[Action]:
    """A13: an own ACTIVE non-00 attacker against a stronger opponent ACTIVE non-00 unit
    (``stacks``, ``foes``: ``state.stacks`` of the seat and of its opponent, when known)."""
    targets = [
        (i, power(s))
        for i, s in (state.stacks(1 - seat) if foes is None else foes)
        if s.pose == ACTIVE and base(s) != 0
    ]
    if not targets:
        return []
    counts = [
        d
        for d in range(1, state.empty_charge(seat) + 1)
        if boost_downloads_possible(state, seat, d)
    ]
    out: list[Action] = []
    for a in _attackers(state, seat, True, stacks):
        attacker = state.square(seat, a)
        assert attacker is not None
        mine = power(attacker)
        for t, theirs in targets:
            if theirs > mine:
                out += [Action.of("boost", a + 1, t + 1, d) for d in counts]
    return out


def direct_actions(
    state: TwgpState, seat: int, stacks: Stacks | None = None, foes: Stacks | None = None
) -> list[Action]:
    """A14: an own ACTIVE non-00 attacker, if the opponent has no ACTIVE stack
    (``stacks``, ``foes``: ``state.stacks`` of the seat and of its opponent, when known)."""
    if any(s.pose == ACTIVE for _, s in (state.stacks(1 - seat) if foes is None else foes)):
        return []
    return [Action.of("direct", a + 1) for a in _attackers(state, seat, True, stacks)]


def apply_declare(state: TwgpState, seat: int, action: Action) -> None:
    """Declare the attack: pay surge or downloads now, then open the defender's window."""
    attacker = int(action.args[0]) - 1
    stack = state.square(seat, attacker)
    assert stack is not None
    extra: list[Frame] = []
    if action.verb in ("assault", "surge-assault"):
        target = int(action.args[1]) - 1
        k = int(action.args[2]) if action.verb == "surge-assault" else 0
        if k:
            spend_surge(state, seat, SURGE_UNIT * k)
        state.attack = Attack(ASSAULT, seat, attacker, target, surge_a=k)
        log(
            state,
            "assault",
            seat=seat,
            attacker=attacker + 1,
            target=target + 1,
            surge=k,
            attack=power(stack),
        )
    elif action.verb == "boost":
        target = int(action.args[1]) - 1
        count = int(action.args[2])
        from_pile = min(count, len(state.zone(seat, PILE)))
        log(
            state,
            "boost",
            seat=seat,
            attacker=attacker + 1,
            target=target + 1,
            downloads=count,
            attack=power(stack),
        )
        download(state, seat, from_pile)
        state.attack = Attack(BOOST, seat, attacker, target, downloads=count)
        if count > from_pile:
            extra.append(("recharge", seat, count - from_pile))
    else:
        state.attack = Attack(DIRECT, seat, attacker)
        log(state, "direct", seat=seat, attacker=attacker + 1, attack=power(stack))
    state.stack += [("resolve",), ("response",), *extra]


def recharge_actions(state: TwgpState, seat: int) -> list[Action]:
    """The hand cards that can be re-charged for a boost at deck 0."""
    return [Action.of("recharge", CARDS[c].slug) for c in sorted(state.zone(seat, HAND))]


def apply_recharge(state: TwgpState, seat: int, action: Action) -> None:
    """Re-charge one hand card into the charge grid."""
    recharge(state, seat, by_slug(str(action.args[0])).id)


# --- the defender's window ---------------------------------------------------------------


def surge_pay_actions(state: TwgpState, seat: int) -> list[Action]:
    """The defender's one surge payment on an assault whose target has base ≥06."""
    attack = state.attack
    if attack is None or attack.kind != ASSAULT or attack.surge_d or attack.lost:
        return []
    target = state.square(seat, attack.target)
    if target is None or base(target) < SURGE_MIN:
        return []
    surge = len(state.zone(seat, SURGE))
    return [Action.of("surge", k) for k in (1, 2) if surge >= SURGE_UNIT * k]


def apply_surge_pay(state: TwgpState, seat: int, action: Action) -> None:
    """Spend 3k surge cards: if the target wins, the attacker's player loses k vitals."""
    attack = state.attack
    assert attack is not None
    k = int(action.args[0])
    spend_surge(state, seat, SURGE_UNIT * k)
    state.attack = attack._replace(surge_d=k)
    log(state, "surge_pay", seat=seat, k=k)


# --- G-blast execution (A11) -------------------------------------------------------------


def execute_gb_actions(state: TwgpState, seat: int, stacks: Stacks | None = None) -> list[Action]:
    """A11: the own GB stack, if the hand holds ≥4 and a turn has passed since its declaration
    (``stacks``: ``state.stacks(seat)`` when the caller has it)."""
    if len(state.zone(seat, HAND)) < 4:
        return []
    return [
        Action.of("grid-blast", i + 1)
        for i, s in (state.stacks(seat) if stacks is None else stacks)
        if s.pose == GB and state.turn > s.mark
    ]


def apply_grid_blast(state: TwgpState, seat: int, action: Action) -> Resolution:
    """Execute: reveal and un-declare the opponent's stacks, discard those with pow ≤ g.

    Returns what is left to decide: weapon caches and the orders of the discarded stacks.
    """
    square = int(action.args[0]) - 1
    stack = state.square(seat, square)
    assert stack is not None
    set_pose(state, seat, square, SAVE)
    g = power(stack)
    foe = 1 - seat
    revealed: list[str] = []
    for i, s in state.stacks(foe):
        if s.pose == STEALTH:
            if s.secret:
                revealed.append(CARDS[s.top].slug)
            set_pose(state, foe, i, ACTIVE)
        elif s.pose == GB:
            set_pose(state, foe, i, SAVE)
    log(
        state,
        "grid_blast",
        reveals=foe if revealed else -1,
        seat=seat,
        square=square + 1,
        power=g,
        revealed=revealed,
    )
    done = Resolution()
    attack = state.attack
    for i, s in state.stacks(foe):
        if power(s) <= g:
            if attack is not None and attack.seat == foe and attack.attacker == i:
                state.attack = attack._replace(cancelled=True)
            done.discard(state, foe, i, "grid_blast")
    discard_charge(state, foe)
    return done


# --- resolution ----------------------------------------------------------------------------


class Resolution:
    """What a resolution (or a G-blast) leaves to do: vital losses (in order), weapon-cache
    decisions and the owners' orders of discarded stacks, ``(seat, cards)`` (§2.3)."""

    def __init__(self) -> None:
        self.losses: list[tuple[int, int]] = []
        self.caches: list[tuple[int, int]] = []
        self.orders: list[tuple[int, tuple[int, ...]]] = []

    def discard(self, state: TwgpState, seat: int, square: int, why: str) -> None:
        """Discard a stack, remembering a pending cache decision and its cards' order."""
        cached, cards = discard_stack(state, seat, square, why)
        if cached:
            self.caches.append((seat, square))
        if len(cards) >= 2:
            self.orders.append((seat, cards))


def resolve(state: TwgpState) -> Resolution:
    """Resolve the pending attack (§2.6); the attack record is cleared first."""
    attack = state.attack
    assert attack is not None
    state.attack = None
    done = Resolution()
    seat, foe = attack.seat, 1 - attack.seat
    kind = ATTACK_NAMES[attack.kind]
    if attack.cancelled:
        log(state, "result", type=kind, outcome="cancelled")
        return done
    attacker = state.square(seat, attack.attacker)
    assert attacker is not None
    if attack.lost:
        set_pose(state, seat, attack.attacker, SAVE)
        log(state, "result", type=kind, outcome="lost_lock_on")
        return done
    if attack.kind == BOOST:
        _resolve_boost(state, attack, done)
    elif attack.kind == DIRECT and attack.interrupter == EMPTY:
        a = power(attacker)
        if a > 1:
            set_pose(state, seat, attack.attacker, SAVE)
            log(state, "result", type=kind, outcome="hit", attack=a, defence=1)
        else:
            log(state, "result", type=kind, outcome="tie", attack=a, defence=1)
            done.discard(state, seat, attack.attacker, "tie")
        done.losses.append((foe, 1))
    else:
        _resolve_assault(state, attack, done)
    return done


def _resolve_assault(state: TwgpState, attack: Attack, done: Resolution) -> None:
    seat, foe = attack.seat, 1 - attack.seat
    attacker = state.square(seat, attack.attacker)
    target = state.square(foe, attack.target)
    assert attacker is not None and target is not None
    kind = "direct" if attack.kind == DIRECT else "assault"
    a, d = power(attacker), power(target)
    if base(attacker) == 0 or base(target) == 0:
        log(state, "result", type=kind, outcome="zero", attack=a, defence=d)
        poses_after_attack(state, seat, attack.attacker)
        poses_after_attack(state, foe, attack.target)
    elif a > d:
        log(state, "result", type=kind, outcome="attacker", attack=a, defence=d)
        done.discard(state, foe, attack.target, "assault")
        poses_after_attack(state, seat, attack.attacker)
        if attack.surge_a:
            done.losses.append((foe, attack.surge_a))
    elif a < d:
        log(state, "result", type=kind, outcome="target", attack=a, defence=d)
        done.discard(state, seat, attack.attacker, "assault")
        poses_after_attack(state, foe, attack.target)
        if attack.surge_d:
            done.losses.append((seat, attack.surge_d))
    else:
        log(state, "result", type=kind, outcome="tie", attack=a, defence=d)
        done.discard(state, seat, attack.attacker, "tie")
        done.discard(state, foe, attack.target, "tie")


def _resolve_boost(state: TwgpState, attack: Attack, done: Resolution) -> None:
    seat, foe = attack.seat, 1 - attack.seat
    attacker = state.square(seat, attack.attacker)
    target = state.square(foe, attack.target)
    assert attacker is not None and target is not None
    a, t = power(attacker), power(target)
    set_pose(state, seat, attack.attacker, SAVE)
    if t <= a:
        log(state, "result", type="boost", outcome="miss", attack=a, defence=t)
    elif t <= a + attack.downloads:
        log(
            state,
            "result",
            type="boost",
            outcome="attacker",
            attack=a + attack.downloads,
            defence=t,
        )
        done.discard(state, foe, attack.target, "boost")
    else:
        log(state, "result", type="boost", outcome="fail", attack=a + attack.downloads, defence=t)

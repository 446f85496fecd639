"""Power drive (A4) and counter drive (A5): summoning a hand unit onto own units as frames.

Text forms:

- ``power-drive 2 s9 1 3``: core square 2, summon ♠9, materials in squares 1 and 3 (the
  materials may be absent); ``power-drive-gb ...`` keeps a material's G-blast declaration on
  the new unit.
- ``counter-drive s9 s2 c4 3``: summon ♠9 onto the attacked target; the materials follow in
  ascending base power, a hand unit by its slug and a grid unit by its square number.

A power drive's drive power is the sum of the base powers of the core's and the materials'
top units (frames count 0); the new unit needs base ≥04 and at most that sum. A counter drive
needs the target ACTIVE and weaker than the attacker; its materials and the target form a run
of consecutive base powers (each value once, at least one material), and the new unit needs a
base of at most the run's sum (twgp-trump.md §2.5, §2.9 #11-#14). A base-00 unit carries no
weapon, so it cannot be counter-driven onto a stack that would hold weapons.
"""

from __future__ import annotations

import itertools

from kessen.engine.action import Action
from kessen.engine.poses import NO_MARK, Stack
from kessen.games.twgp.actions import banned_power
from kessen.games.twgp.cards import CARDS, UNIT_BASE, by_slug, is_slug
from kessen.games.twgp.moves import assault_like, base, engaged, log, log_out, power, put, slugs
from kessen.games.twgp.state import ACTIVE, GB, HAND, WEAPON_CAP, Stacks, TwgpState

POWER_DRIVE_MIN = 4
"""A power drive summons units of base power 04 or more."""


def _hand_units(state: TwgpState, seat: int, minimum: int) -> list[int]:
    ban = banned_power(state)
    return sorted(
        c
        for c in state.zone(seat, HAND)
        if (b := UNIT_BASE[c]) is not None and b >= minimum and b != ban
    )


def _is_own_attacker(state: TwgpState, seat: int, square: int) -> bool:
    attack = state.attack
    return attack is not None and attack.seat == seat and attack.attacker == square


# --- A4 power drive ----------------------------------------------------------------------


def power_drive_actions(state: TwgpState, seat: int, stacks: Stacks | None = None) -> list[Action]:
    """A4: every core, material set and hand unit (base ≥04, ≤ drive power, not banned)
    (``stacks``: ``state.stacks(seat)`` when the caller has it)."""
    units = _hand_units(state, seat, POWER_DRIVE_MIN)
    if not units:
        return []
    if stacks is None:
        stacks = state.stacks(seat)
    out: list[Action] = []
    for core_square, core in stacks:
        if core.pose != ACTIVE or engaged(state, seat, core_square):
            continue
        others = [
            (i, s) for i, s in stacks if i != core_square and not _is_own_attacker(state, seat, i)
        ]
        for size in range(len(others) + 1):
            for chosen in itertools.combinations(others, size):
                total = base(core) + sum(base(s) for _, s in chosen)
                squares = [i + 1 for i, _ in chosen]
                has_gb = any(s.pose == GB for _, s in chosen)
                for card in units:
                    if (CARDS[card].base or 0) > total:
                        continue
                    name = CARDS[card].slug
                    out.append(Action.of("power-drive", core_square + 1, name, *squares))
                    if has_gb:
                        out.append(Action.of("power-drive-gb", core_square + 1, name, *squares))
    return out


def _gather_weapons(state: TwgpState, seat: int, weapons: list[int]) -> tuple[int, ...]:
    """Weapons beyond 6 on one square are discarded (the last ones gathered)."""
    if len(weapons) > WEAPON_CAP:
        log_out(state, seat, weapons[WEAPON_CAP:])
        log(state, "weapons_over_cap", seat=seat, cards=slugs(weapons[WEAPON_CAP:]))
    return tuple(weapons[:WEAPON_CAP])


def apply_power_drive(state: TwgpState, seat: int, action: Action) -> None:
    """Stack the core and materials under the new unit in the core's square."""
    core_square = int(action.args[0]) - 1
    card = by_slug(str(action.args[1])).id
    material_squares = [int(a) - 1 for a in action.args[2:]]
    core = state.square(seat, core_square)
    assert core is not None
    frames: list[int] = [core.top, *core.under]
    weapons: list[int] = list(core.attached)
    mark = NO_MARK
    revealed: list[int] = []
    for square in material_squares:
        material = state.square(seat, square)
        assert material is not None
        frames += [material.top, *material.under]
        weapons += material.attached
        if material.pose == GB:
            mark = material.mark
        if material.secret:
            revealed.append(material.top)
        put(state, seat, square, None)
    keep_gb = action.verb == "power-drive-gb"
    state.zone(seat, HAND).remove(card)
    pose = GB if keep_gb else ACTIVE
    new = Stack(
        card,
        tuple(frames),
        _gather_weapons(state, seat, weapons),
        pose,
        mark if keep_gb else NO_MARK,
    )
    put(state, seat, core_square, new)
    log(
        state,
        "power_drive",
        reveals=seat,
        seat=seat,
        square=core_square + 1,
        card=CARDS[card].slug,
        materials=[s + 1 for s in material_squares],
        frames=slugs(frames),
        keep_gb=keep_gb,
    )
    attack = state.attack
    if attack is not None and attack.seat != seat and attack.target in material_squares:
        state.attack = attack._replace(lost=True)
        log(state, "evaded", seat=seat, square=attack.target + 1)


# --- A5 counter drive --------------------------------------------------------------------

Source = int | str  # a grid square (0-based) or a hand card slug


def counter_drive_actions(state: TwgpState, seat: int) -> list[Action]:
    """A5: every run of materials around the target's base and every unit it can summon."""
    attack = state.attack
    if attack is None or attack.seat == seat or attack.lost or not assault_like(state):
        return []
    target = state.square(seat, attack.target)
    attacker = state.square(attack.seat, attack.attacker)
    if target is None or attacker is None or target.pose != ACTIVE:
        return []
    if power(attacker) <= power(target):
        return []
    hand = state.zone(seat, HAND)
    summonable = _hand_units(state, seat, 0)
    if not summonable:
        return []
    by_value: dict[int, list[Source]] = {}
    for card in sorted(hand):
        if CARDS[card].is_unit:
            by_value.setdefault(CARDS[card].base or 0, []).append(CARDS[card].slug)
    for i, s in state.stacks(seat):
        if i != attack.target:
            by_value.setdefault(base(s), []).append(i)
    centre = base(target)
    lows = [centre]
    while lows[-1] - 1 in by_value:
        lows.append(lows[-1] - 1)
    highs = [centre]
    while highs[-1] + 1 in by_value:
        highs.append(highs[-1] + 1)
    out: list[Action] = []
    for lo in lows:
        for hi in highs:
            if lo == hi:
                continue
            values = [v for v in range(lo, hi + 1) if v != centre]
            total = sum(range(lo, hi + 1))
            for pick in itertools.product(*(by_value[v] for v in values)):
                used = {p for p in pick if isinstance(p, str)}
                args = [p if isinstance(p, str) else p + 1 for p in pick]
                armed = bool(target.attached) or any(
                    (grid := state.square(seat, p)) is not None and grid.attached
                    for p in pick
                    if isinstance(p, int)
                )
                for card in summonable:
                    name = CARDS[card].slug
                    new_base = CARDS[card].base or 0
                    if name in used or new_base > total or (new_base == 0 and armed):
                        continue
                    out.append(Action.of("counter-drive", name, *args))
    return out


def apply_counter_drive(state: TwgpState, seat: int, action: Action) -> None:
    """Put the materials under the target as frames and the new unit on top; it stays the target."""
    attack = state.attack
    assert attack is not None
    card = by_slug(str(action.args[0])).id
    target = state.square(seat, attack.target)
    assert target is not None
    frames: list[int] = [target.top, *target.under]
    weapons: list[int] = list(target.attached)
    hand = state.zone(seat, HAND)
    hand_materials: list[str] = []
    grid_materials: list[int] = []
    for arg in action.args[1:]:
        if isinstance(arg, str) and is_slug(arg):
            material = by_slug(arg).id
            hand.remove(material)
            frames.append(material)
            hand_materials.append(arg)
        else:
            square = int(arg) - 1
            stack = state.square(seat, square)
            assert stack is not None
            frames += [stack.top, *stack.under]
            weapons += stack.attached
            grid_materials.append(square + 1)
            put(state, seat, square, None)
    hand.remove(card)
    new = Stack(card, tuple(frames), _gather_weapons(state, seat, weapons), ACTIVE)
    put(state, seat, attack.target, new)
    log(
        state,
        "counter_drive",
        reveals=seat,
        seat=seat,
        square=attack.target + 1,
        card=CARDS[card].slug,
        hand_materials=hand_materials,
        grid_materials=grid_materials,
        frames=slugs(frames),
    )


APPLY = {
    "power-drive": apply_power_drive,
    "power-drive-gb": apply_power_drive,
    "counter-drive": apply_counter_drive,
}
"""Apply functions of the drives, by verb."""

"""Losing vitals (twgp-trump.md §2.7) and the damage routine (§2.8), as frames.

A loss of k vitals is the frame ``("vloss", seat, k, picked)``: with no valid vital left it ends
the game (or is ignored in the turn the last one flipped); otherwise the player picks which
vitals flip (``flip 2``) and, if several flip, which becomes the vital effect (``effect 2``).
Then the optional wipe runs, the loss-timing bookkeeping, and the damage routine
``("damage", seat, done, current)``: reload, full-charge (``full-charge 3``), set-up, re-build
and re-active, each at most once, in any order; taking an action of another step finishes the
current one; ``done`` ends the routine. A reload is its own frame ``("dreload", seat, put)``:
``reload s9`` puts hand cards on the pile bottom one by one, ``reload-take 2`` then takes as many
from the top at once, and ``shuffle`` may follow; so no card comes back in the same reload.
"""

from __future__ import annotations

from kessen.engine.action import Action
from kessen.games.twgp import actions as inner
from kessen.games.twgp.actions import (
    attach_actions,
    charge_drive_actions,
    reactive_actions,
    setup_actions,
    stealth_actions,
    unstealth_actions,
    weapon_actions,
)
from kessen.games.twgp.cards import CARDS
from kessen.games.twgp.config import VITALS
from kessen.games.twgp.drives import power_drive_actions
from kessen.games.twgp.moves import (
    base,
    deck_room,
    discard_stack,
    download,
    log,
    slug,
)
from kessen.games.twgp.state import EFFECT, HAND, HIDDEN, LOST, OVER, PILE, Frame, TwgpState

RELOAD, FULL_CHARGE, SETUP, REBUILD, REACTIVE = 1, 2, 4, 8, 16
STEP_NAMES = {
    RELOAD: "reload",
    FULL_CHARGE: "full_charge",
    SETUP: "setup",
    REBUILD: "rebuild",
    REACTIVE: "reactive",
}
DONE = Action.of("done")
_REBUILD_VERBS = {
    "charge-drive",
    "stealth-drive",
    "power-drive",
    "power-drive-gb",
    "attach",
    "weapon-back",
    "weapon-move",
    "stealth",
    "unstealth",
}
Prompt = tuple[int, str]


def end_game(state: TwgpState, winner: int, reason: str) -> None:
    """Finish the game: ``winner`` is a seat or -1 for a draw."""
    state.result = (winner, reason)
    state.phase = OVER
    state.stack.clear()
    state.attack = None
    log(state, "game_over", winner=winner, reason=reason)


def _hidden_squares(state: TwgpState, seat: int) -> list[int]:
    return [i for i in range(VITALS) if state.vpose[seat * VITALS + i] == HIDDEN]


# --- losing vitals -------------------------------------------------------------------------


def step_vloss(state: TwgpState, frame: Frame) -> Prompt | None:
    """Start or continue a loss of vitals; ask which vital flips when there is a choice."""
    _, seat, count, picked = frame
    hidden = _hidden_squares(state, seat)
    if not picked:
        if not hidden:
            if state.zero_turn[seat] < state.turn:
                end_game(state, 1 - seat, "vitals")
            else:
                state.stack.pop()
                log(state, "damage_ignored", seat=seat, count=count)
            return None
        count = min(count, len(hidden))
    remaining = [h for h in hidden if h not in picked]
    if len(picked) < count:
        if len(remaining) > count - len(picked):
            state.stack[-1] = ("vloss", seat, count, picked)
            return (seat, "vital")
        picked = (*picked, *remaining)
    if len(picked) == 1:
        state.stack.pop()
        complete_loss(state, seat, picked, picked[0])
        return None
    state.stack[-1] = ("veffect", seat, picked)
    return (seat, "effect")


def vital_actions(state: TwgpState, frame: Frame) -> list[Action]:
    """The vitals that may flip next."""
    _, seat, _, picked = frame
    return [Action.of("flip", i + 1) for i in _hidden_squares(state, seat) if i not in picked]


def apply_vital(state: TwgpState, frame: Frame, action: Action) -> None:
    """Pick one more vital to flip."""
    _, seat, count, picked = frame
    state.stack[-1] = ("vloss", seat, count, (*picked, int(action.args[0]) - 1))


def effect_actions(state: TwgpState, frame: Frame) -> list[Action]:
    """Which of the flipped vitals becomes the vital effect."""
    return [Action.of("effect", i + 1) for i in frame[2]]


def apply_effect(state: TwgpState, frame: Frame, action: Action) -> None:
    """Flip the picked vitals with the chosen one as the new vital effect."""
    _, seat, picked = frame
    state.stack.pop()
    complete_loss(state, seat, picked, int(action.args[0]) - 1)


def complete_loss(state: TwgpState, seat: int, picked: tuple[int, ...], effect: int) -> None:
    """Flip the vitals, update the vital effect, wipe (switch), check the loss timing, and
    push the damage routine."""
    for i, pose in enumerate(state.vpose):
        if pose == EFFECT:
            state.vpose[i] = LOST
    for square in picked:
        state.vpose[seat * VITALS + square] = LOST
    state.vpose[seat * VITALS + effect] = EFFECT
    state.active_turn = True
    card = state.vitals[seat * VITALS + effect]
    log(
        state,
        "vital_lost",
        reveals=seat,
        seat=seat,
        squares=[s + 1 for s in picked],
        cards=[slug(state.vitals[seat * VITALS + s]) for s in picked],
        effect=slug(card),
    )
    state.stack.append(("damage", seat, 0, 0))
    if state.config.vital_effect and state.config.vital_wipe:
        _wipe(state, seat, CARDS[card].rank)
    if not _hidden_squares(state, seat):
        state.zero_turn[seat] = state.turn
        if state.config.variant_a:
            end_game(state, 1 - seat, "vitals")


def _wipe(state: TwgpState, chooser: int, rank: int) -> None:
    """Discard every stack whose top unit has base ``rank``, once per chooser and game."""
    if state.wipe_used[chooser]:
        return
    hits = [(s, i) for s in (0, 1) for i, st in state.stacks(s) if base(st) == rank]
    if not hits:
        return
    state.wipe_used[chooser] = True
    log(state, "wipe", seat=chooser, rank=rank, squares=[[s, i + 1] for s, i in hits])
    caches: list[Frame] = []
    orders: list[Frame] = []
    for s, i in hits:
        cached, cards = discard_stack(state, s, i, "wipe")
        if cached:
            caches.append(("cache", s, i))
        if len(cards) >= 2:
            orders.append(("order", s, cards))
    # decided in discard order: the owners order the discarded stacks first (§2.3), then the
    # weapon caches
    state.stack += reversed(caches)
    state.stack += reversed(orders)


# --- the damage routine --------------------------------------------------------------------


def _step_of(verb: str) -> int:
    if verb in ("reload", "shuffle"):
        return RELOAD
    if verb == "full-charge":
        return FULL_CHARGE
    if verb == "setup":
        return SETUP
    if verb == "reactive":
        return REACTIVE
    assert verb in _REBUILD_VERBS, verb
    return REBUILD


def damage_actions(state: TwgpState, frame: Frame) -> list[Action]:
    """The actions of every step not yet finished, then ``done``."""
    _, seat, finished, current = frame
    out: list[Action] = []
    pile = len(state.zone(seat, PILE))
    room = deck_room(state, seat)
    if not finished & RELOAD:
        if current != RELOAD and room > 0:
            out += _puts(state, seat)
        if current == RELOAD and pile >= 2:
            out.append(Action.of("shuffle"))
    if not finished & FULL_CHARGE:
        most = min(state.empty_charge(seat), pile, room)
        out += [Action.of("full-charge", n) for n in range(1, most + 1)]
    if not finished & SETUP:
        out += setup_actions(state, seat)
    mine = state.stacks(seat)  # (shared by the families below)
    if not finished & REBUILD:
        out += charge_drive_actions(state, seat)
        out += power_drive_actions(state, seat, mine)
        out += attach_actions(state, seat, mine)
        out += weapon_actions(state, seat, mine)
        out += stealth_actions(state, seat, mine)
        out += unstealth_actions(state, seat, mine)
    if not finished & REACTIVE:
        out += reactive_actions(state, seat, mine)
    out.append(DONE)
    return out


def apply_damage(state: TwgpState, frame: Frame, action: Action) -> None:
    """Take one routine action; starting another step finishes the current one."""
    _, seat, finished, current = frame
    if action == DONE:
        state.stack.pop()
        log(state, "damage_done", seat=seat)
        return
    step = _step_of(action.verb)
    if step != current:
        finished |= current
        current = step
        log(state, "damage_step", seat=seat, step=STEP_NAMES[step])
    state.stack[-1] = ("damage", seat, finished, current)
    if action.verb == "reload":
        inner.reload_bottom(state, seat, action, "reload")
        state.stack.append(("dreload", seat, 1))
    elif action.verb == "shuffle":
        state.rng.shuffle(state.zone(seat, PILE))
        log(state, "shuffle", seat=seat)
        state.stack[-1] = ("damage", seat, finished | RELOAD, 0)
    elif action.verb == "full-charge":
        download(state, seat, int(action.args[0]))
        state.stack[-1] = ("damage", seat, finished | FULL_CHARGE, 0)
    else:
        from kessen.games.twgp.drives import APPLY as DRIVES

        apply = inner.APPLY.get(action.verb) or DRIVES[action.verb]
        apply(state, seat, action)


def _puts(state: TwgpState, seat: int) -> list[Action]:
    return [Action.of("reload", CARDS[c].slug) for c in sorted(state.zone(seat, HAND))]


def reload_actions(state: TwgpState, frame: Frame) -> list[Action]:
    """Within a reload: put one more hand card on the bottom, or take the top ``put`` cards."""
    _, seat, put = frame
    out = _puts(state, seat) if put < deck_room(state, seat) else []
    out.append(Action.of("reload-take", put))
    return out


def apply_reload(state: TwgpState, frame: Frame, action: Action) -> None:
    """Put another card, or take the top ``put`` cards and end the reload (a shuffle may follow)."""
    _, seat, put = frame
    if action.verb == "reload":
        inner.reload_bottom(state, seat, action, "reload")
        state.stack[-1] = ("dreload", seat, put + 1)
        return
    state.stack.pop()
    inner.reload_take(state, seat, put, put)

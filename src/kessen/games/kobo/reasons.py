"""Why a card cannot be used now: one reason per unusable card, explaining ``legal_actions``.

:func:`unplayable_reasons` lists, for one seat, every card it holds that it may not use at the
pending decision, and every choice of the pending decision it would otherwise have, with the
first reason that rules it out (a code with parameters; the words are in
:mod:`kessen.games.kobo.text`). What is listed:

- ``tactics_hand``: each tactic of the tactics hand (it is played with ``play`` in a chain);
- ``strategy``: each face-down trap of the seat (flipped with ``trap``);
- ``hand``: each main-hand card in the standby (picked with ``pick``);
- ``battle`` and ``target``: at the seat's ``declare`` prompt, each own character not yet
  chosen that may not join the attack, and each opposing character it may not target.

A card that the pending decision lets the seat pick (a hand card in the standby, a tactic or
trap to exclude as a pass penalty) is in use and has no entry.

The checks for a chain card follow the order of the chain's own test
(:func:`kessen.games.kobo.flow.chain_actions`): no open chain, the card's timing, nothing to
negate, no character to choose, no free strategy slot (tactics), and last whose turn it is to
answer. The tests prove that a card has a reason exactly when ``legal_actions`` offers no
action for it. Everything here reads the seat's own cards and public data only.

:func:`standby_warning` warns, at the standby prompt that sets a trap, when the trap would leave
the strategy area too few free slots for the tactics the seat will want to play.
"""

from __future__ import annotations

from kessen.engine.contract import Json
from kessen.games.kobo import effects
from kessen.games.kobo.cards import (
    NEGATE_LAST,
    TIMING_ATTACKING,
    TIMING_DEFENDING,
    CardKind,
    named_seat,
)
from kessen.games.kobo.state import EMPTY, HAND, SLOTS, TDECK, THAND, KoboState

WARN_FREE_SLOTS = 1
"""The standby warns when setting a trap would leave this many free strategy slots or fewer."""


def _entry(zone: str, where: str, place: int, slug: str, code: str, **params: object) -> Json:
    """One unusable card or choice: where it is (``index`` or ``slot``), its name, the reason."""
    return {"zone": zone, where: place, "slug": slug, "code": code, "params": params}


def _in_chain(state: KoboState) -> bool:
    return any(frame[0] == "chain" for frame in state.stack)


def chain_card_reason(state: KoboState, seat: int, card: int) -> tuple[str, dict[str, object]]:
    """Why ``seat`` could not activate ``card`` (a tactic in hand or a face-down trap) even if
    it held priority now; ``("", {})`` if it could."""
    return _chain_reason(state, seat, card, _in_chain(state))


def _chain_reason(
    state: KoboState, seat: int, card: int, in_chain: bool
) -> tuple[str, dict[str, object]]:
    if not in_chain:
        return "no_chain", {}
    cdef = state.defs[card]
    if cdef.when is TIMING_DEFENDING and seat == state.attacker_seat:
        return "timing", {"needs": "defending"}
    if cdef.when is TIMING_ATTACKING and seat != state.attacker_seat:
        return "timing", {"needs": "attacking"}
    if not state.chain and NEGATE_LAST in cdef.verbs:
        return "no_link", {}
    if cdef.needs_choice and not effects.has_candidate(state, seat, card):
        assert cdef.target is not None
        side = named_seat(cdef.target.side, seat, state.attacker_seat)
        return "no_target", {"side": "own" if side == seat else "opponent"}
    if (
        cdef.kind is CardKind.TACTIC
        and EMPTY not in state.strategy[seat * SLOTS : seat * SLOTS + SLOTS]
    ):
        return "strategy_full", {"slots": SLOTS}
    return "", {}


def _turn_reason(state: KoboState, seat: int) -> tuple[str, dict[str, object]]:
    """Why a card that could otherwise be used waits: not the seat's decision, or another one."""
    prompt = state.prompt
    if prompt is None or prompt[0] != seat:
        in_chain = state.stack and state.stack[-1][0] in ("chain", "chain_target")
        return ("no_priority" if in_chain else "not_your_turn"), {}
    return "busy", {"prompt": prompt[1]}


def _penalty_picks(state: KoboState, seat: int) -> tuple[set[str], set[int]]:
    """At ``seat``'s pass-penalty prompt: the tactics (by name) and the trap slots it may
    exclude now. Those cards are in use for this decision, so they get no reason."""
    top = state.stack[-1] if state.stack else ("",)
    names: set[str] = set()
    slots: set[int] = set()
    if top[0] != "penalty" or state.prompt is None or state.prompt[0] != seat:
        return names, slots
    for action in state.legal_actions():
        if action.verb == "exclude":
            names.add(str(action.args[0]))
        elif action.verb == "exclude-trap":
            slots.add(int(action.args[0]))
    return names, slots


def _chain_cards(state: KoboState, seat: int) -> list[Json]:
    out: list[Json] = []
    top = state.stack[-1][0] if state.stack else ""
    answering = top == "chain" and state.prompt is not None and state.prompt[0] == seat
    in_chain = _in_chain(state)
    names, slots = _penalty_picks(state, seat)
    if state.surprise is not None and state.prompt is not None and state.prompt[0] == seat:
        # The surprise-zone option: a card the seat may set now is in use (no reason).
        names |= {str(a.args[0]) for a in state.legal_actions() if a.verb == "surprise-set"}
    for index, card in enumerate(state.zone(seat, THAND)):
        if state.defs[card].slug in names:
            continue
        code, params = _chain_reason(state, seat, card, in_chain)
        if not code and not answering:
            code, params = _turn_reason(state, seat)
        if code:
            out.append(
                _entry("tactics_hand", "index", index, state.defs[card].slug, code, **params)
            )
    for slot in range(SLOTS):
        card = state.strategy[seat * SLOTS + slot]
        if card == EMPTY or state.faceup[card] or slot + 1 in slots:
            continue
        code, params = _chain_reason(state, seat, card, in_chain)
        if not code and not answering:
            code, params = _turn_reason(state, seat)
        if code:
            out.append(_entry("strategy", "slot", slot + 1, state.defs[card].slug, code, **params))
    return out


def _hand_cards(state: KoboState, seat: int) -> list[Json]:
    top = state.stack[-1] if state.stack else ("",)
    if top[0] == "process" and top[1] == seat:
        return []  # every card of the hand may be picked
    code, params = _turn_reason(state, seat)
    return [
        _entry("hand", "index", i, state.defs[card].slug, code, **params)
        for i, card in enumerate(state.zone(seat, HAND))
    ]


def _declare_choices(state: KoboState, seat: int) -> list[Json]:
    """The characters a ``declare`` prompt does not offer, with the Lv cap that rules them out
    (kobo-rules.md §5: several attackers may total at most the target's Lv + 1)."""
    top = state.stack[-1] if state.stack else ("",)
    if top[0] != "declare" or state.turn_player != seat:
        return []
    chosen = top[1:]
    total = sum(state.lv(a) for a in chosen)
    foe = 1 - seat
    foes = [c for c in state.battle[foe * SLOTS : foe * SLOTS + SLOTS] if c != EMPTY]
    cap = max(state.lv(c) for c in foes) + 1
    out: list[Json] = []
    for slot in range(SLOTS):
        card = state.battle[seat * SLOTS + slot]
        if card == EMPTY or card in chosen:
            continue
        if total + state.lv(card) > cap:
            slug = state.defs[card].slug
            out.append(
                _entry(
                    "battle",
                    "slot",
                    slot + 1,
                    slug,
                    "lv_cap",
                    cap=cap,
                    total=total + state.lv(card),
                )
            )
    if len(chosen) > 1:
        for slot in range(SLOTS):
            card = state.battle[foe * SLOTS + slot]
            if card != EMPTY and total > state.lv(card) + 1:
                slug = state.defs[card].slug
                out.append(
                    _entry(
                        "target",
                        "slot",
                        slot + 1,
                        slug,
                        "lv_cap",
                        cap=state.lv(card) + 1,
                        total=total,
                    )
                )
    return out


def unplayable_reasons(state: KoboState, seat: int) -> list[Json]:
    """Every card or choice of ``seat`` that it may not use now, each with one reason.

    Each entry: ``zone`` (``tactics_hand``, ``strategy``, ``hand``, ``battle``, ``target``),
    ``index`` (position in a hand, from 0) or ``slot`` (1-5), ``slug``, ``code`` and ``params``.
    A card or choice that ``legal_actions`` offers has no entry.
    """
    if state.match_result is not None:
        return []
    return [*_hand_cards(state, seat), *_chain_cards(state, seat), *_declare_choices(state, seat)]


def standby_warning(state: KoboState, seat: int) -> Json | None:
    """At ``seat``'s prompt to set a trap in the standby: a warning if setting it would leave
    :data:`WARN_FREE_SLOTS` or fewer free strategy slots while the seat has tactics to play.

    Fields: ``code`` ("traps_fill_strategy"), ``params`` (``free_after``: free slots once this
    trap is set; ``traps_in_hand``: traps still waiting in the main hand; ``tactics``: the
    seat's tactics in hand and deck). ``None`` when there is nothing to warn about.
    """
    top = state.stack[-1] if state.stack else ("",)
    if top[0] != "trap" or top[1] != seat or state.prompt is None or state.prompt[0] != seat:
        return None
    row = state.strategy[seat * SLOTS : seat * SLOTS + SLOTS]
    free_after = row.count(EMPTY) - 1
    tactics = len(state.zone(seat, THAND)) + len(state.zone(seat, TDECK))
    if free_after < 0 or free_after > WARN_FREE_SLOTS or tactics == 0:
        return None
    traps = sum(1 for c in state.zone(seat, HAND) if state.defs[c].kind is CardKind.TRAP)
    return {
        "code": "traps_fill_strategy",
        "params": {"free_after": free_after, "traps_in_hand": traps, "tactics": tactics},
    }

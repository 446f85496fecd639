"""The surprise zone (サプライズ置場) in Kōbō: the kernel's surprise module behind a match option.

With ``surprise = true`` in the match config each player has a surprise zone: one card, face
down, known to its owner only. The choices made for Kōbō (rules.ja.md / rules.en.md, section
"サプライズ置場"; docs/surprise.md):

- **Window.** Set and Clear are offered at the turn's opening decision (the ``turn`` prompt,
  before the attack declaration or the pass): Kōbō's twin of the character phase. There the
  chain is empty, so the resolution zone is empty. Together at most once per turn.
- **Set** puts a tactics-hand card face down into the empty zone, then draws 1 from the
  tactics deck (the turn draw's routine: nothing if the deck is empty). Not in turn 1 (the
  first player's first turn). **Clear** puts the zone's card into the retreat area (the waiting
  room), face up.
- **Flip.** When an event of a 【！】 condition happens (:class:`~.cards.Condition`), the owner
  of a face-down surprise card is asked at the next check timing. The prompt is asked whenever
  the zone holds a face-down card and the owner's decks hold a 【！】 card of that condition
  (public: deck lists are public), whatever the card is; only a matching card may be flipped,
  so the prompt itself tells the opponent nothing.
- **Resolution zone.** A flipped ability inside an open chain becomes a **link** of the chain
  (the 攻防連鎖 is where Kōbō's effects wait; the opponent may answer it, e.g. negate it); at any
  other moment it resolves **at once**. A surprise link or instance is in the resolution zone
  until it resolves; then rule 9.7.1 moves its card to the retreat area at the next check.
- **Rule processes** 9.5.3 and 9.7.1 run at every check timing (before every frame step),
  through :func:`kessen.engine.rule_processes.check_timing`.
"""

from __future__ import annotations

from functools import cache

from kessen.engine.action import Action
from kessen.engine.poses import Pose
from kessen.engine.rule_processes import RuleProcess, check_timing
from kessen.engine.surprise import SURPRISE, Cancelled, Fix, Window, may_clear, may_set, sweep
from kessen.engine.triggers import Face, Happening, Trigger
from kessen.engine.zones import Placed
from kessen.games.kobo.cards import (
    MODIFY_LV,
    NEGATE_ATTACK,
    RETREAT_IF_ZERO,
    SCOPE_ALL,
    CardDef,
    Condition,
    SurpriseAbility,
    Verb,
    named_seat,
)
from kessen.games.kobo.endings import check_end
from kessen.games.kobo.moves import distinct_slugs, retreat
from kessen.games.kobo.state import EMPTY, RETREAT, TDECK, THAND, Frame, KoboState, Link

SET = "surprise-set"
CLEAR = "surprise-clear"
FLIP = Action.of("flip")
DECLINE = Action.of("decline")
CLEAR_ACTION = Action.of(CLEAR)
OFFER = "surprise_offer"
RESOLVE = "surprise_resolve"


def zone_cards(state: KoboState, seat: int) -> list[int]:
    """The cards of ``seat``'s surprise zone (oldest first; empty with the option off)."""
    data = state.surprise
    return [] if data is None else [card for card, _ in data.zones[seat]]


def entries(state: KoboState, seat: int) -> list[Placed]:
    """``seat``'s surprise zone as kernel entries (card, face, stamp)."""
    data = state.surprise
    if data is None:
        return []
    return [
        Placed(card, Pose.UP if state.faceup[card] else Pose.DOWN, stamp)
        for card, stamp in data.zones[seat]
    ]


def face_down_card(state: KoboState, seat: int) -> int:
    """The newest face-down card of ``seat``'s surprise zone, or ``EMPTY``."""
    down = [card for card in zone_cards(state, seat) if not state.faceup[card]]
    return down[-1] if down else EMPTY


@cache
def _conditions(defs: tuple[CardDef, ...], owner: tuple[int, ...], seat: int) -> frozenset[str]:
    return frozenset(
        a.on.value for card, d in enumerate(defs) if owner[card] == seat for a in d.surprise
    )


def observe(state: KoboState, condition: Condition, seat: int) -> None:
    """An event of ``condition`` happened for ``seat`` ("you" of the condition): queue the flip
    prompt if the seat has a face-down surprise card and a 【！】 card of that condition."""
    data = state.surprise
    if data is None or face_down_card(state, seat) == EMPTY:
        return
    if condition.value in _conditions(state.defs, state.owner, seat):
        data.offers.append((seat, condition.value))


def _trigger(ability: SurpriseAbility) -> Trigger:
    """The kernel trigger of a 【！】 ability: armed face down in the surprise zone, optional."""
    on = ability.on.value
    return Trigger(frozenset({SURPRISE}), lambda h: h.kind == on, Face.DOWN, optional=True)


def matching(state: KoboState, seat: int, condition: str) -> int:
    """The index of the face-down card's 【！】 ability that ``condition`` triggers, or -1."""
    card = face_down_card(state, seat)
    if card == EMPTY:
        return -1

    def locate(c: int) -> tuple[str, bool] | None:
        return (SURPRISE, state.faceup[c]) if c in zone_cards(state, seat) else None

    happening = Happening(condition, {"seat": seat})
    for index, ability in enumerate(state.defs[card].surprise):
        if _trigger(ability).armed_for(card, happening, locate):
            return index
    return -1


# --- the check timing: rule processes, then one waiting flip prompt ---------------------------


def _find(state: KoboState) -> list[Fix[int]]:
    data = state.surprise
    assert data is not None
    sources = {card for card, _ in data.pending}
    policy = Cancelled(state.config.cancelled_surprise)
    zones = {seat: entries(state, seat) for seat in (0, 1)}
    return sweep(zones, state.owner, sources, data.kept, policy)


def _apply(state: KoboState, found: list[tuple[str, Fix[int]]]) -> None:
    """Each card leaves the zone it lies in for its owner's retreat area (S32)."""
    data = state.surprise
    assert data is not None
    for _, fix in found:
        rule, card, seat = fix.rule, fix.card, fix.owner
        was_down = not state.faceup[card]
        data.zones[fix.zone] = [e for e in data.zones[fix.zone] if e[0] != card]
        state.faceup[card] = False
        state.zone(seat, RETREAT).append(card)
        if card in data.kept:
            data.kept.remove(card)
        state.note(
            "surprise_rule",
            {"rule": rule, "seat": seat, "card": state.defs[card].slug},
            reveals=seat if was_down else -1,
        )


_RULES: list[RuleProcess[KoboState, Fix[int]]] = [RuleProcess("surprise", _find)]


def check(state: KoboState) -> None:
    """The check timing, run before every frame step: 9.5.3 and 9.7.1 together until nothing
    applies, then the first waiting flip prompt (if its seat still has a face-down card)."""
    data = state.surprise
    if data is None or not state.stack:
        return
    top = state.stack[-1][0]
    if top == "game":  # a game has ended: nothing of it is asked any more
        data.offers.clear()
        return
    if any(data.zones[0]) or any(data.zones[1]):
        check_timing(state, _RULES, _apply)
    while data.offers and top not in (OFFER, RESOLVE):
        seat, condition = data.offers.pop(0)
        if face_down_card(state, seat) != EMPTY:
            state.stack.append((OFFER, seat, condition))
            return


def reset(state: KoboState) -> None:
    """A new game: the zones are emptied (every card went home), nothing waits."""
    if state.surprise is not None:
        data = state.surprise
        data.zones = [[], []]
        data.used = [0, 0]
        data.offers.clear()
        data.pending.clear()
        data.kept.clear()


# --- Set and Clear at the turn's opening decision ---------------------------------------------


def _window(state: KoboState, seat: int) -> Window:
    data = state.surprise
    assert data is not None
    return Window(
        turn_player=seat == state.turn_player,
        in_window=bool(state.stack) and state.stack[-1][0] == "turn_decide",
        has_play_timing=True,
        resolution_empty=not state.chain and not data.pending,
        used_this_turn=data.used[seat] == state.turn,
    )


def turn_actions(state: KoboState) -> list[Action]:
    """Set (one action per distinct tactics-hand card) and Clear, when allowed now."""
    if state.surprise is None:
        return []
    seat = state.turn_player
    window = _window(state, seat)
    zone = entries(state, seat)
    hand = state.zone(seat, THAND)
    out: list[Action] = []
    if may_set(window, zone, len(hand), state.turn == 1):
        out += [Action.of(SET, slug) for slug in distinct_slugs(state, hand)]
    if may_clear(window, zone):
        out.append(CLEAR_ACTION)
    return out


def apply_turn(state: KoboState, action: Action) -> None:
    """Carry out Set or Clear (the turn prompt stays open for the attack or the pass)."""
    data = state.surprise
    assert data is not None
    seat = state.turn_player
    data.used[seat] = state.turn
    if action.verb == SET:
        hand = state.zone(seat, THAND)
        card = next(c for c in hand if state.defs[c].slug == str(action.args[0]))
        hand.remove(card)
        data.stamp += 1
        data.zones[seat].append((card, data.stamp))
        state.faceup[card] = False
        state.note("surprise_set", {"seat": seat}, seat, {"card": state.defs[card].slug})
        draw_tactics(state, seat, 1)
        return
    cards = zone_cards(state, seat)
    hidden = any(not state.faceup[c] for c in cards)
    data.zones[seat] = []
    for card in cards:
        state.faceup[card] = False
        state.zone(seat, RETREAT).append(card)
        if card in data.kept:
            data.kept.remove(card)
    state.note(
        "surprise_clear",
        {"seat": seat, "cards": [state.defs[c].slug for c in cards]},
        reveals=seat if hidden else -1,
    )


def draw_tactics(state: KoboState, seat: int, count: int) -> int:
    """Draw up to ``count`` cards from the tactics deck (none when it is empty)."""
    deck = state.zone(seat, TDECK)
    drawn = [deck.pop() for _ in range(min(count, len(deck)))]
    state.zone(seat, THAND).extend(drawn)
    state.note(
        "surprise_draw",
        {"seat": seat, "count": len(drawn)},
        seat,
        {"cards": [state.defs[c].slug for c in drawn]},
    )
    return len(drawn)


# --- the flip prompt ----------------------------------------------------------------------------


def step_offer(state: KoboState, frame: Frame) -> tuple[int, str] | None:
    """Ask the owner; a prompt whose card has gone is dropped (H9)."""
    if face_down_card(state, frame[1]) == EMPTY:
        state.stack.pop()
        return None
    return (frame[1], "surprise")


def legal_offer(state: KoboState, frame: Frame) -> list[Action]:
    """Flip (only when the face-down card's 【！】 condition is this event) or decline."""
    _, seat, condition = frame
    return [FLIP, DECLINE] if matching(state, seat, condition) >= 0 else [DECLINE]


def apply_offer(state: KoboState, frame: Frame, action: Action) -> None:
    """Flip: face up, and only that ability enters the resolution zone (a chain link inside an
    open chain, else resolved at once). Decline: nothing changes."""
    data = state.surprise
    assert data is not None
    _, seat, condition = frame
    state.stack.pop()
    if action == DECLINE:
        state.note("surprise_decline", {"seat": seat, "condition": condition})
        return
    card = face_down_card(state, seat)
    index = matching(state, seat, condition)
    state.faceup[card] = True
    data.pending.append((card, index))
    in_chain = bool(state.stack) and state.stack[-1][0] == "chain"
    public: dict[str, object] = {
        "seat": seat,
        "card": state.defs[card].slug,
        "condition": condition,
        "link": len(state.chain) + 1 if in_chain else 0,
    }
    state.note("surprise_flip", public, reveals=seat)
    if in_chain:
        state.chain.append((card, seat, EMPTY, False))
        state.priority = 1 - seat
        state.chain_passes = 0
    else:
        state.stack.append((RESOLVE, card, index))


def step_resolve(state: KoboState, frame: Frame) -> tuple[int, str] | None:
    """A surprise ability flipped outside a chain resolves at once."""
    _, card, index = frame
    state.stack.pop()
    resolve_instance(state, card, index, negated=False)
    check_end(state)  # it may have retreated characters (each check stands alone)
    return None


def is_surprise_link(state: KoboState, link: Link) -> bool:
    """True if ``link`` is a surprise ability (its card waits in the resolution zone)."""
    data = state.surprise
    return data is not None and any(card == link[0] for card, _ in data.pending)


def resolve_link(state: KoboState, link: Link) -> None:
    """Resolve a surprise chain link (negated: the ability is cancelled, 12.3.1.1)."""
    data = state.surprise
    assert data is not None
    card, _, _, negated = link
    index = next(i for c, i in data.pending if c == card)
    state.note(
        "resolve",
        {"link": len(state.chain) + 1, "card": state.defs[card].slug, "negated": negated},
    )
    resolve_instance(state, card, index, negated)


def resolve_instance(state: KoboState, card: int, index: int, negated: bool) -> None:
    """The instance leaves the resolution zone: cancelled, resolved, or not carried out (no
    step had any effect). The card stays face up in the zone; 9.7.1 sees to it."""
    data = state.surprise
    assert data is not None
    data.pending.remove((card, index))
    seat = state.owner[card]
    slug = state.defs[card].slug
    if negated:
        data.kept.append(card)
        state.note("surprise_end", {"seat": seat, "card": slug, "how": "cancelled"})
        return
    done = _run(state, seat, slug, state.defs[card].surprise[index])
    if not done:
        data.kept.append(card)
    how = "resolved" if done else "not_carried_out"
    state.note("surprise_end", {"seat": seat, "card": slug, "how": how})


def _affected(state: KoboState, seat: int, ability: SurpriseAbility) -> list[int]:
    target = ability.target
    if target is None:
        return []
    side = named_seat(target.side, seat, state.attacker_seat)
    if target.scope is SCOPE_ALL:
        return state.characters(side)
    if not state.attackers:
        return []
    if side == state.attacker_seat:
        return [a for a in state.attackers if state.on_field(a)]
    return [state.target] if state.on_field(state.target) else []


def _run(state: KoboState, seat: int, slug: str, ability: SurpriseAbility) -> bool:
    done = False
    for step in ability.steps:
        verb = step.verb
        if verb is MODIFY_LV:
            for t in _affected(state, seat, ability):
                state.base[t] = max(0, state.base[t] + step.amount)
                done = True
                state.note(
                    "lv",
                    {
                        "card": slug,
                        "seat": state.owner[t],
                        "slot": state.slot_of(t) + 1,
                        "char": state.defs[t].slug,
                        "amount": step.amount,
                        "permanent": True,
                        "base": state.base[t],
                        "lv": state.lv(t),
                    },
                )
        elif verb is RETREAT_IF_ZERO:
            for t in _affected(state, seat, ability):
                if state.lv(t) == 0:
                    retreat(state, t)
        elif verb is NEGATE_ATTACK:
            if state.attackers and not state.negated:
                state.negated = True
                done = True
                state.note("attack_negated", {"card": slug})
        elif verb is Verb.DRAW:
            done = draw_tactics(state, seat, step.amount) > 0 or done
    return done

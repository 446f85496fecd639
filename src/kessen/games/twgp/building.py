"""Setting up a game (twgp-trump.md §2.2): each player's secret build, then the first player.

A seat builds from its 26-card pool (27 with jokers) by the frame ``("build", seat)``: three
``vital s10`` choices, then the cards set aside (``aside s9``, three or four), then 0-6
starting-hand cards (``hand s3``) and ``done``; the rest of the 20-card deck is shuffled into
the pile. A config may fix a seat's build instead, and the ``quickStart`` switch deals at
random. Then ``("deal",)`` draws the first player and the first turn starts.
"""

from __future__ import annotations

from kessen.engine.action import Action
from kessen.games.twgp.cards import CARDS, by_slug
from kessen.games.twgp.config import DECK, HAND_LIMIT, VITALS, Build
from kessen.games.twgp.moves import log, slugs
from kessen.games.twgp.state import ASIDE, BUILD, HAND, PILE, POOL, Frame, TwgpState

DONE = Action.of("done")
Prompt = tuple[int, str]


def _vitals(state: TwgpState, seat: int) -> list[int]:
    return [c for c in state.vitals[seat * VITALS : seat * VITALS + VITALS] if c >= 0]


def _finish(state: TwgpState, seat: int, pile_top_first: list[int] | None) -> None:
    """The rest of the pool becomes the pile (in the given order, or shuffled)."""
    pool = state.zone(seat, POOL)
    pile = state.zone(seat, PILE)
    if pile_top_first is None:
        pile.extend(sorted(pool))
        state.rng.shuffle(pile)
    else:
        pile.extend(reversed(pile_top_first))
    pool.clear()
    hand = state.zone(seat, HAND)
    # The private part is merged over the public one for its owner: its keys must differ from
    # the public ones (``hand`` is the count every reader sees, ``hand_cards`` the cards).
    log(
        state,
        "built",
        seat=seat,
        hand=len(hand),
        pile=len(pile),
        private_to=seat,
        private={
            "vitals": slugs(_vitals(state, seat)),
            "hand_cards": slugs(hand),
            "aside": slugs(state.zone(seat, ASIDE)),
        },
    )


def _take(state: TwgpState, seat: int, card: int, zone: int) -> None:
    state.zone(seat, POOL).remove(card)
    state.zone(seat, zone).append(card)


def _set_vital(state: TwgpState, seat: int, card: int) -> None:
    state.zone(seat, POOL).remove(card)
    slot = len(_vitals(state, seat))
    state.vitals[seat * VITALS + slot] = card


def _fixed(state: TwgpState, seat: int, build: Build) -> None:
    for name in build.vitals:
        _set_vital(state, seat, by_slug(name).id)
    for name in build.aside:
        _take(state, seat, by_slug(name).id, ASIDE)
    for name in build.hand:
        _take(state, seat, by_slug(name).id, HAND)
    _finish(state, seat, [by_slug(n).id for n in build.pile] if build.pile is not None else None)


def _quick(state: TwgpState, seat: int) -> None:
    """Switch ``quickStart``: shuffle the pool; 3 vitals, a 20-card deck whose top 6 form
    the hand, the rest set aside."""
    cards = sorted(state.zone(seat, POOL))
    state.rng.shuffle(cards)
    for card in cards[:VITALS]:
        _set_vital(state, seat, card)
    deck = cards[VITALS : VITALS + DECK]
    for card in deck[:HAND_LIMIT]:
        _take(state, seat, card, HAND)
    for card in cards[VITALS + DECK :]:
        _take(state, seat, card, ASIDE)
    _finish(state, seat, deck[HAND_LIMIT:])


def step_build(state: TwgpState, frame: Frame) -> Prompt | None:
    """Build ``seat``'s cards from its config, at random, or by asking the player."""
    seat = frame[1]
    fixed = state.config.builds[seat]
    if state.config.quick_start:
        state.stack.pop()
        _quick(state, seat)
        return None
    if fixed is not None:
        state.stack.pop()
        _fixed(state, seat, fixed)
        return None
    return (seat, "build")


def build_actions(state: TwgpState, frame: Frame) -> list[Action]:
    """The next build choice: a vital, a card set aside, a starting-hand card or ``done``."""
    seat = frame[1]
    pool = sorted(state.zone(seat, POOL))
    if len(_vitals(state, seat)) < VITALS:
        return [Action.of("vital", CARDS[c].slug) for c in pool]
    if len(state.zone(seat, ASIDE)) < state.config.aside_count:
        return [Action.of("aside", CARDS[c].slug) for c in pool]
    return [*(Action.of("hand", CARDS[c].slug) for c in pool), DONE]


def apply_build(state: TwgpState, frame: Frame, action: Action) -> None:
    """Record one build choice; ``done`` (or a sixth hand card) shuffles the rest into the pile."""
    seat = frame[1]
    if action == DONE:
        state.stack.pop()
        _finish(state, seat, None)
        return
    card = by_slug(str(action.args[0])).id
    if action.verb == "vital":
        _set_vital(state, seat, card)
    elif action.verb == "aside":
        _take(state, seat, card, ASIDE)
    else:
        _take(state, seat, card, HAND)
        if len(state.zone(seat, HAND)) == HAND_LIMIT:
            state.stack.pop()
            _finish(state, seat, None)


def step_deal(state: TwgpState, frame: Frame) -> Prompt | None:
    """Draw the first player at random (or take the config's) and start turn 1."""
    state.stack.pop()
    fixed = state.config.first_player
    first = fixed if fixed is not None else state.rng.below(2)
    state.first_player = first
    state.turn_player = first
    state.phase = BUILD
    log(state, "deal", first=first)
    state.stack.append(("turn_start",))
    return None

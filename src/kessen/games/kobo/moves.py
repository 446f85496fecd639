"""Small card movements shared by the Kōbō frames and effects: draw, place, retreat, shuffle."""

from __future__ import annotations

from functools import cache

from kessen.games.kobo.card_sets import active_set_pool, set_data
from kessen.games.kobo.schema import CardPool, load_pool
from kessen.games.kobo.state import EMPTY, HAND, MAIN_DECK, RETREAT, SLOTS, KoboState


@cache
def _ranks(pool: CardPool) -> dict[str, int]:
    return {slug: i for i, slug in enumerate(pool.cards)}


@cache
def _shipped_ranks() -> dict[str, int]:
    return _ranks(load_pool())


@cache
def _set_ranks(card_set: str) -> dict[str, int]:
    return _ranks(set_data(card_set).pool)


def card_rank(slug: str) -> int:
    """The card's position in the pool file: the fixed order of choices offered to players
    (the pool of the match's set when it plays one: :func:`.card_sets.active_pool`)."""
    pool = active_set_pool()
    return (_shipped_ranks() if pool is None else _ranks(pool))[slug]


def first_by_name(state: KoboState, cards: list[int]) -> dict[str, int]:
    """Each distinct card name among ``cards`` with its first card there, in pool order."""
    defs = state.defs
    first: dict[str, int] = {}
    for card in cards:
        slug = defs[card].slug
        if slug not in first:
            first[slug] = card
    if len(first) < 2:
        return first
    card_set = state.config.card_set
    rank = _set_ranks(card_set) if card_set else _shipped_ranks()
    by_rank = {rank[slug]: slug for slug in first}  # ranks are distinct: sort plain integers
    return {by_rank[at]: first[by_rank[at]] for at in sorted(by_rank)}


def distinct_slugs(state: KoboState, cards: list[int]) -> list[str]:
    """The distinct card names among ``cards``, in pool order."""
    return list(first_by_name(state, cards))


def free_slots(row: list[int], seat: int) -> list[int]:
    """Indices (0-4) of ``seat``'s empty slots in a battle or strategy row."""
    start = seat * SLOTS
    return [i for i in range(SLOTS) if row[start + i] == EMPTY]


def move(state: KoboState, card: int, source: list[int], dest: list[int]) -> None:
    """Move ``card`` from one zone list to the end of another."""
    source.remove(card)
    dest.append(card)


def draw_main(state: KoboState, seat: int, count: int) -> list[int]:
    """Draw up to ``count`` cards from the top of the main deck into the hand."""
    deck = state.zone(seat, MAIN_DECK)
    hand = state.zone(seat, HAND)
    drawn = []
    for _ in range(min(count, len(deck))):
        card = deck.pop()
        hand.append(card)
        drawn.append(card)
    return drawn


def retreat(state: KoboState, card: int) -> None:
    """A character leaves its battle slot for its owner's retreat area (the slot stays empty)."""
    seat = state.owner[card]
    slot = state.slot_of(card)
    if slot == EMPTY:
        return
    state.battle[seat * SLOTS + slot] = EMPTY
    state.zone(seat, RETREAT).append(card)
    state.note("retreat", {"seat": seat, "slot": slot + 1, "card": state.defs[card].slug})
    if state.surprise is not None:
        from kessen.games.kobo.cards import Condition
        from kessen.games.kobo.surprise import observe  # (the module imports this one)

        observe(state, Condition.ALLY_RETREAT, seat)


def shuffle_zone(state: KoboState, seat: int, zone: int) -> None:
    """Shuffle one of ``seat``'s zones with the game's RNG (not in the fixed-order test mode)."""
    if state.config.shuffle:
        state.rng.shuffle(state.zone(seat, zone))

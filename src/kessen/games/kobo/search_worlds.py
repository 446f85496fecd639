"""Hooks of the Kōbō search: the world sampler and its opponent model, the tree's keys.

:func:`search_hooks` bundles, for the game-agnostic search of :mod:`kessen.ai.ismcts`, the
sampler, the evaluation and the rollout (:mod:`kessen.games.kobo.evaluate`). Each sampled world
starts from the one :func:`~kessen.games.kobo.worlds.world_from_view` rebuilds from the deciding
seat's view, its hidden parts redealt by the ruleset's resampler; an opponent model then redeals
which of the unseen cards the opponent holds (:func:`world_sampler`). The deep model also infers
from the opponent's public choices (:func:`inferring_sampler`), remembers its passes
(:func:`remembering_sampler`) and keys the opponent's trap flips by the card
they show (:func:`observed`).

The tunables below (:data:`OPPONENT_MODEL_POWER`, :data:`KEY_REVEALS`, ...) are read at each
call, so a probe sets them on this module.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import cache
from typing import Any

from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.engine.rng import Rng
from kessen.games.kobo.card_sets import active_set_pool
from kessen.games.kobo.cards import CardKind
from kessen.games.kobo.pass_memory import Avoid, honour_passes, ruled_out
from kessen.games.kobo.state import EMPTY, HAND, MAIN_DECK, SLOTS, TDECK, THAND, KoboState
from kessen.games.kobo.worlds import chain_passes_of, world_from_view


@cache
def _key_exponent(slug: str, power: float) -> float:
    """The exponent of a card's sampling key: ``1 / card_value ** power`` (weighted draw)."""
    from kessen.games.kobo.evaluate import card_value

    weight: float = card_value(slug) ** power
    return 1.0 / max(1e-9, weight)


def _weighted_tactics(state: KoboState, opp: int, rng: random.Random, power: float) -> None:
    """Redeal the opponent's tactics hand favouring strong cards (it chose most of them).

    The hand and the deck together hold exactly the unseen tactics of the public list; only
    which of them sit in the hand is redrawn, each pick weighted by ``card_value ** power``.
    """
    hand, deck = state.zone(opp, THAND), state.zone(opp, TDECK)
    pool = hand + deck
    keys = [rng.random() ** _key_exponent(state.defs[c].slug, power) for c in pool]
    order = [c for _, c in sorted(zip(keys, pool, strict=True), reverse=True)]
    size = len(hand)
    hand[:] = order[:size]
    rest = order[size:]
    rng.shuffle(rest)
    deck[:] = rest


def _weighted_traps(state: KoboState, opp: int, rng: random.Random, power: float) -> None:
    """Redeal which of the opponent's unseen traps lie face down in its strategy slots,
    favouring strong ones (a player sets the best traps it drew and discards the rest).

    The face-down slots and the traps in the opponent's hand and main deck together hold
    exactly its unseen traps; only which of them sit in the slots is redrawn, each pick
    weighted by ``card_value ** power``. A trap leaving a slot takes the place of the one that
    replaces it, so the hand and the deck keep their sizes and their random order.
    """
    slots, pool = unseen_traps(state, opp)
    if not slots:
        return
    keys = [rng.random() ** _key_exponent(state.defs[c].slug, power) for c in pool]
    chosen = [c for _, c in sorted(zip(keys, pool, strict=True), reverse=True)[: len(slots)]]
    set_face_down(state, opp, slots, chosen)


def unseen_traps(state: KoboState, opp: int) -> tuple[list[int], list[int]]:
    """The strategy indices of the opponent's face-down traps, and its unseen traps: those in
    the slots first, then those in its main hand and deck."""
    start = opp * SLOTS
    slots = [
        i
        for i in range(start, start + SLOTS)
        if state.strategy[i] != EMPTY and not state.faceup[state.strategy[i]]
    ]
    defs = state.defs
    rest = state.zone(opp, HAND) + state.zone(opp, MAIN_DECK)
    pool = [state.strategy[i] for i in slots] + [c for c in rest if defs[c].kind is CardKind.TRAP]
    return slots, pool


def set_face_down(state: KoboState, opp: int, slots: list[int], chosen: list[int]) -> None:
    """Put ``chosen`` (unseen traps of the opponent) face down into ``slots``, in order; a trap
    leaving a slot takes the place in the hand or deck of the one that replaces it."""
    set_now = [state.strategy[i] for i in slots]
    hand, deck = state.zone(opp, HAND), state.zone(opp, MAIN_DECK)
    leaving = [c for c in set_now if c not in chosen]
    coming = [c for c in chosen if c not in set_now]
    for index, card in zip(slots, chosen, strict=True):
        state.strategy[index] = card
    for old, new in zip(leaving, coming, strict=True):
        zone = hand if new in hand else deck
        zone[zone.index(new)] = old


def chosen_hand(tactics: tuple[str, ...], size: int) -> tuple[str, ...]:
    """The ``size`` tactics the heuristic COM's rule takes from the list ``tactics`` (slugs,
    one per copy): what a player choosing by card value would hold at the first turn (with
    the cards of the match's set: :func:`~kessen.games.kobo.card_sets.active_pool`)."""
    return _chosen_hand(active_set_pool(), tactics, size)  # None: the shipped cards


@cache
def _chosen_hand(pool: object, tactics: tuple[str, ...], size: int) -> tuple[str, ...]:
    """:func:`chosen_hand` remembered per pool (``pool`` keys the cache only)."""
    from kessen.games.kobo.heuristic import HeuristicPlayer, category
    from kessen.games.kobo.heuristic_exchange import card_def
    from kessen.games.kobo.moves import card_rank

    chooser = HeuristicPlayer(0)
    left = Counter(tactics)
    hand: list[str] = []
    for _ in range(min(size, len(tactics))):
        copies = Counter(hand)
        roles = Counter(category(card_def(slug)) for slug in hand)
        options = sorted((slug for slug, n in left.items() if n > 0), key=card_rank)
        best = max(options, key=lambda slug: chooser.tactic_worth(slug, copies, roles))
        hand.append(best)
        left[best] -= 1
    return tuple(hand)


def _modelled_tactics(state: KoboState, opp: int, rng: random.Random) -> None:
    """Redeal the opponent's tactics hand as :func:`chosen_hand` would have chosen it, less
    the tactics it has shown since (played, excluded), the rest of the hand drawn at random.

    The hand and the deck together hold exactly the unseen tactics of the public list; only
    which of them sit in the hand is redrawn. Once the shown tactics contradict that opening
    hand (:func:`_fits_chosen_hand`), the weighted draw deals the hand instead
    (``HAND_MODEL_SHARE``).
    """
    hand, deck = state.zone(opp, THAND), state.zone(opp, TDECK)
    if not hand:
        return
    defs, owner = state.defs, state.owner
    mine = [c for c in range(len(defs)) if owner[c] == opp and defs[c].kind is CardKind.TACTIC]
    pool = hand + deck
    unseen = set(pool)
    config = state.config
    size = config.first_tactics if state.first_player == opp else config.second_tactics
    expected = Counter(chosen_hand(tuple(sorted(defs[c].slug for c in mine)), size))
    shown = [defs[c].slug for c in mine if c not in unseen]
    if not _fits_chosen_hand(expected, shown, len(hand), size):
        _weighted_tactics(state, opp, rng, OPPONENT_MODEL_POWER)
        return
    expected.subtract(shown)
    keep: list[int] = []
    rest: list[int] = []
    for card in pool:
        slug = defs[card].slug
        if expected[slug] > 0:
            expected[slug] -= 1
            keep.append(card)
        else:
            rest.append(card)
    rng.shuffle(keep)
    rest += keep[len(hand) :]
    keep = keep[: len(hand)]
    rng.shuffle(rest)
    fill = len(hand) - len(keep)
    hand[:] = keep + rest[:fill]
    deck[:] = rest[fill:]


def _fits_chosen_hand(expected: Counter[str], shown: list[str], held: int, size: int) -> bool:
    """Whether the opponent's shown tactics (played or excluded) could have come from the
    ``expected`` opening hand of ``size`` cards and its draws since: every shown card outside
    that hand must have been drawn, and the opponent has drawn at most ``held + len(shown) -
    size`` tactics (what entered its hand, counting every shown card as having left it). A
    player who chose otherwise soon shows it, and the model then gives way to the weighted draw.
    """
    outside = Counter(shown)
    outside.subtract(expected)
    return sum(n for n in outside.values() if n > 0) <= held + len(shown) - size


def discarded_trap_floor(view: Json, seat: int) -> float | None:
    """The highest card value among the traps ``seat`` discarded in this game's standby after
    the last trap it set, or ``None`` if it discarded none then (public: a discarded card is
    shown to both players, and that a trap was set, though not which).

    Players process their traps strongest first by card value (the heuristic COM and the
    standby plan both do) and stop setting them at some point: the heuristic COM sets the
    first :data:`~kessen.games.kobo.heuristic.MAX_TRAPS` and discards the rest, so every trap
    it set is worth at least this floor. A trap discarded *before* a later one was set says
    nothing of the kind (the standby plan discards a trap it rates low whatever its card
    value), so only the discards after the last set count.
    """
    from kessen.games.kobo.evaluate import card_value
    from kessen.games.kobo.heuristic_exchange import card_def

    floor: float | None = None
    for entry in reversed(view["log"]):
        kind = entry["kind"]
        if kind == "game_start" or (kind == "set" and entry.get("seat") == seat):
            break
        if kind != "discard" or entry.get("seat") != seat:
            continue
        slug = str(entry["card"])
        if card_def(slug).kind is CardKind.TRAP:
            value = card_value(slug)
            floor = value if floor is None else max(floor, value)
    return floor


def _inferred_traps(state: KoboState, opp: int, rng: random.Random, floor: float) -> None:
    """Redeal the opponent's face-down traps among its unseen traps worth at least ``floor``
    (:func:`discarded_trap_floor`), uniformly; if too few are, the strongest make up the rest.

    The face-down slots and the traps in the opponent's hand and main deck together hold
    exactly its unseen traps; only which of them sit in the slots is redrawn. A trap leaving a
    slot takes the place of the one that replaces it, so the hand and the deck keep their sizes
    and their random order.
    """
    from kessen.games.kobo.evaluate import card_value

    slots, pool = unseen_traps(state, opp)
    if not slots:
        return
    value = {c: card_value(state.defs[c].slug) for c in pool}
    eligible = [c for c in pool if value[c] >= floor]
    if len(eligible) >= len(slots):
        chosen = rng.sample(eligible, len(slots))
    else:
        weaker = sorted((c for c in pool if value[c] < floor), key=lambda c: -value[c])
        chosen = eligible + weaker[: len(slots) - len(eligible)]
        rng.shuffle(chosen)
    set_face_down(state, opp, slots, chosen)


HAND_MODEL_SHARE = 1.0
"""Share of the deep model's sampled worlds whose opponent's tactics hand is the one a player
choosing by card value would have taken (:func:`_modelled_tactics`) instead of the
value-weighted draw (0: never, as in the measurements before it; ``strong_variants.py
hand-model=X``)."""
OPPONENT_MODEL_POWER = 2.0
"""How strongly sampled opponent tactics hands favour strong cards (0: uniform)."""
TRAP_MODEL_POWER = 0.0
"""How strongly sampled face-down opponent traps favour strong cards (0: uniform, as dealt by
the resampler)."""
PASS_INFERENCE = True
"""Whether the deep model redeals a sampled world (up to :data:`PASS_REDEALS` times) in which
the opponent, who has just passed in the chain, would have answered by the heuristic COM's
chain rule (:func:`would_pass`); off, every world is kept, as in the earlier measurements."""
PASS_REDEALS = 8
"""How many times a world inconsistent with the opponent's pass is redealt before it is kept."""
TRAP_INFERENCE = True
"""Whether the deep model's sampled worlds deal the opponent's face-down traps among those
worth at least the best trap it discarded in its standby (:func:`_inferred_traps`); off,
uniformly (for probes)."""


def world_sampler(
    view: Json, seed: int, *, infer: bool = False, avoid: Avoid | None = None
) -> Callable[[int], GameState]:
    """For search: rebuild one world from ``view``, then redeal its hidden parts per sample.

    Each sample is the ruleset's own resampler (:meth:`KoboState.resample_hidden`) applied to
    the rebuilt world, with a fresh RNG for the future shuffles: every sample is consistent with
    ``view`` and with nothing else. An opponent model then redeals which of the opponent's
    unseen tactics are in its hand, favouring strong cards (a player picks most of its opening
    tactics hand): public deck list and counts only. ``infer`` (the deep model's, see
    :func:`inferring_sampler`): the opponent's tactics hand is the one a player choosing by
    card value would have opened with (:data:`HAND_MODEL_SHARE`), and the worlds also respect
    what the opponent's public choices say, the traps it discarded in its standby and a pass
    it has just made in the chain. ``avoid``: the traps and tactics the opponent's earlier passes
    rule out (:func:`~kessen.games.kobo.pass_memory.ruled_out`).
    """
    base = world_from_view(view, seed)
    seat: int = view["viewer"]
    opp = 1 - seat
    floor = discarded_trap_floor(view, opp) if infer and TRAP_INFERENCE else None
    passed = infer and PASS_INFERENCE and opponent_just_passed(view)
    hand_model = HAND_MODEL_SHARE if infer else 0.0

    def deal(index: int, attempt: int) -> KoboState:
        salt = index + attempt * 0x5851F42D4C957F2D
        world = base.resample_hidden(seat, seed ^ (salt * 0x9E3779B97F4A7C15 & (2**63 - 1)))
        world.rng = Rng(seed * 1_000_003 + index)
        if OPPONENT_MODEL_POWER or TRAP_MODEL_POWER or hand_model or floor is not None:
            rng = random.Random(seed * 7_919 + salt)
            if hand_model and rng.random() < hand_model:
                _modelled_tactics(world, opp, rng)
            elif OPPONENT_MODEL_POWER:
                _weighted_tactics(world, opp, rng, OPPONENT_MODEL_POWER)
            if floor is not None:
                _inferred_traps(world, opp, rng, floor)
            elif TRAP_MODEL_POWER:
                _weighted_traps(world, opp, rng, TRAP_MODEL_POWER)
        if avoid is not None:
            honour_passes(world, opp, random.Random(seed * 7_927 + salt), avoid)
        return world

    def sample(index: int) -> GameState:
        world = deal(index, 0)
        attempt = 0
        while passed and attempt < PASS_REDEALS and not would_pass(world, opp):
            attempt += 1
            world = deal(index, attempt)
        return world

    return sample


def opponent_just_passed(view: Json) -> bool:
    """Whether the deciding seat has priority in a chain its opponent has just passed in: the
    board is then the one the opponent saw when it chose to pass (public)."""
    pending = view["pending"]
    if pending["prompt"] != "chain":
        return False
    return chain_passes_of(view, view.get("extras")) == 1


def would_pass(world: KoboState, seat: int) -> bool:
    """Whether ``seat``, playing the heuristic COM's chain rule in ``world`` with priority,
    would pass: a world in which it would have answered is unlikely after it passed."""
    from kessen.games.kobo.evaluate import heuristic_chain_answer
    from kessen.games.kobo.flow import PASS, chain_actions

    options = chain_actions(world, seat)
    return len(options) == 1 or heuristic_chain_answer(world, seat, options) == PASS


def inferring_sampler(view: Json, seed: int) -> Callable[[int], GameState]:
    """The deep model's :func:`world_sampler`: the opponent's tactics hand is the one a
    player choosing by card value would have opened with, less what it has shown since, while
    its shown tactics allow it (:func:`_modelled_tactics`, :data:`HAND_MODEL_SHARE`), and two
    inferences from its public choices hold: its face-down traps are dealt among those worth
    at least the best trap it discarded in its standby (:func:`_inferred_traps`,
    :data:`TRAP_INFERENCE`), and right after it passed in the chain a world in which it would
    have answered is redealt (:func:`would_pass`, :data:`PASS_INFERENCE`)."""
    return world_sampler(view, seed, infer=True)


def remembering_sampler(view: Json, seed: int, notes: Any) -> Callable[[int], GameState]:
    """:func:`inferring_sampler` whose worlds also agree with the opponent's past passes in the
    chain: no trap it would have flipped in a slot still face down, no more tactics it would
    have played in its hand than the cards it has taken since (:mod:`~kessen.games.kobo.
    pass_memory`; ``notes`` from :func:`~kessen.games.kobo.pass_memory.remember`)."""
    avoid = ruled_out(view, notes) if isinstance(notes, tuple) and notes else None
    if avoid is not None and not avoid.traps and not avoid.tactics:
        avoid = None
    return world_sampler(view, seed, infer=True, avoid=avoid)


REVEALING_VERBS = frozenset({"trap", "exclude-trap"})
"""Actions on a face-down trap, which show it to the opponent: flipping it, excluding it."""
PLANNED_STANDBY = True
"""Whether the deep model answers the standby's trap and tactics-hand prompts with the fitted
plan (:mod:`kessen.games.kobo.standby`); off, with the heuristic COM's choices, as the search of
the earlier measurements did (for probes)."""
KEY_REVEALS = True
"""Whether the deep model's hooks key the opponent's revealing actions by the card
(:func:`observed`); off, its tree merges every card a flip might show, as the search of the
earlier measurements did (for probes)."""


def observed(state: GameState, legal: list[Action]) -> list[Action]:
    """The searcher's tree keys for the opponent's ``legal`` actions in a sampled world.

    Flipping or excluding the face-down trap in slot *k* shows the card, so its key names it
    (``trap 2 unhealing-wound``): the search then branches on which trap the opponent turns up
    and answers each as it will, seeing it. The other actions show everything already.
    """
    assert isinstance(state, KoboState)
    if not any(action.verb in REVEALING_VERBS for action in legal):
        return legal
    assert state.prompt is not None
    row = state.prompt[0] * SLOTS - 1
    return [
        Action.of(
            action.verb, action.args[0], state.defs[state.strategy[row + int(action.args[0])]].slug
        )
        if action.verb in REVEALING_VERBS
        else action
        for action in legal
    ]


def search_hooks(deep: bool = False) -> Any:
    """The Kōbō hooks of the game-agnostic search: sampler, evaluation, rollout.

    ``deep``: the fitted evaluation after two-turn rollouts (:func:`~kessen.games.kobo.evaluate.
    deep_evaluate`, :func:`~kessen.games.kobo.evaluate.deep_rollout`) instead of the material
    balance after one turn, and a tree that keys the opponent's trap flips by the card they
    show (:func:`observed`), worlds that respect the opponent's public choices
    (:func:`inferring_sampler`) and its past passes over face-down traps
    (:func:`remembering_sampler`), and the standby plan of :mod:`kessen.games.kobo.standby` for
    the routine standby prompts.
    """
    # Modules imported as ``import a.b as c``: in a function, mypyc loses ``from a import b``.
    import kessen.games.kobo.evaluate as judge
    import kessen.games.kobo.pass_memory as pass_memory
    import kessen.games.kobo.standby as standby
    from kessen.ai.ismcts import SearchHooks
    from kessen.games.kobo.resample import redeal_unseen

    return SearchHooks(
        world_sampler=inferring_sampler if deep else world_sampler,
        evaluate=judge.deep_evaluate if deep else judge.evaluate,
        rollout=judge.deep_rollout if deep else judge.rollout,
        routine=standby.routine if deep and PLANNED_STANDBY else judge.routine,
        prior=judge.prior,
        state_prior=judge.state_prior,
        observed=observed if deep and KEY_REVEALS else None,
        redeal_unseen=redeal_unseen,
        remember=pass_memory.remember if deep else None,
        noted_sampler=remembering_sampler if deep else None,
    )

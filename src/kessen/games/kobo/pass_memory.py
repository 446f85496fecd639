"""Kōbō's pass memory: what the opponent's past passes in the chain say of its hidden cards.

When the opponent passes in a chain, every card it could have answered with there was, by the
heuristic COM's chain rule, not worth it: its gain per card depends on the board alone, so a
card that would have gained enough on that board is not one it held. The pass inference of
:mod:`kessen.games.kobo.search_worlds` uses this at the moment itself; the search forgets it at
its next decision. :func:`remember` keeps it: at each decision right after an opponent's pass
it notes the face-down traps that would have been flipped in each of the opponent's slots, and
the tactics it would have played from its hand (with a strategy slot free). The sampler then
deals worlds that agree (:func:`honour_passes`): in a slot still face down and not set anew
since, another trap; in the tactics hand, no more of those tactics than the cards it has taken
into its hand since.

Notes are built from the deciding seat's own views only (the board when the opponent passed is
public) and dropped when the log they were taken from is no longer the start of the current one
(an undo, a new game).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.kobo.cards import CardKind
from kessen.games.kobo.state import EMPTY, SLOTS, TDECK, THAND, KoboState

PASS_MEMORY = True
"""Whether the deep model remembers the opponent's passes over its face-down traps (off: each
pass counts only at the decision right after it, as in the measurements before)."""
TACTICS_MEMORY = True
"""Whether the remembered passes also speak of the opponent's tactics hand (off: of its
face-down traps only)."""


class PassNote(NamedTuple):
    """One opponent's pass in a chain, as the deciding seat saw it.

    ``length`` and ``digest`` name the match log up to the pass (its entries' count and
    :func:`_digests`' fingerprint, checked against the current log's start), ``seat`` the seat
    that passed, ``ruled_out`` per strategy slot (1-5) of that seat the slugs of the traps the
    heuristic COM's chain rule would have flipped there instead of passing. Small and
    picklable, compiled or not (a named tuple: a server hands the notes to the process that
    searches).
    """

    length: int
    digest: bytes
    seat: int
    ruled_out: tuple[tuple[int, frozenset[str]], ...]
    unplayed: frozenset[str] = frozenset()
    """The tactics the chain rule would have played from the hand (a strategy slot free)."""
    held: int = 0
    """The size of the passing seat's tactics hand then."""
    shown: int = 0
    """How many of its tactics were out of its hand and deck then (played, excluded)."""


PassNotes = tuple[PassNote, ...]
"""What a seat keeps: its notes in the order it took them."""


def remember(view: Json, notes: Any) -> PassNotes:
    """The notes after the decision on ``view``: those still true of its log, and a new one if
    the opponent has just passed in the chain where it could have answered (the search's
    :attr:`~kessen.ai.ismcts.SearchHooks.remember`)."""
    from kessen.games.kobo.search_worlds import opponent_just_passed

    log: Sequence[Json] = view.get("log") or []
    kept = _still_true(notes if isinstance(notes, tuple) else (), log)
    if not PASS_MEMORY or not opponent_just_passed(view):
        return kept
    if kept and kept[-1].length == len(log):
        return kept  # the same moment asked again
    note = _note(view)
    return (*kept, note) if note is not None else kept


def _still_true(notes: PassNotes, log: Sequence[Json]) -> PassNotes:
    """The notes taken on a log that the current ``log`` continues. Each note's log extends the
    previous one's, so the newest note that still holds vouches for all before it."""
    lengths = {note.length for note in notes if note.length <= len(log)}
    digests = _digests(log, lengths)
    for index in range(len(notes) - 1, -1, -1):
        note = notes[index]
        if digests.get(note.length) == note.digest:
            return notes[: index + 1]
    return ()


def _digests(log: Sequence[Json], lengths: set[int]) -> dict[int, bytes]:
    """The fingerprint of ``log``'s first ``n`` entries for each ``n`` in ``lengths``: one
    running hash over the entries, read off at each length."""
    out: dict[int, bytes] = {}
    if not lengths:
        return out
    running = hashlib.blake2b(digest_size=16)
    if 0 in lengths:
        out[0] = running.digest()
    last = max(lengths)
    for count, entry in enumerate(log[:last], start=1):
        running.update(json.dumps(entry, sort_keys=True, ensure_ascii=False).encode())
        running.update(b"\n")
        if count in lengths:
            out[count] = running.digest()
    return out


def _note(view: Json) -> PassNote | None:
    """The note of the opponent's pass that ``view`` has just seen, or ``None`` if it says
    nothing (no unseen trap or tactic that the chain rule would have flipped or played)."""
    from kessen.games.kobo.evaluate import heuristic_chain_answer
    from kessen.games.kobo.flow import PASS, chain_actions
    from kessen.games.kobo.search_worlds import unseen_traps
    from kessen.games.kobo.worlds import world_from_view

    seat: int = view["viewer"]
    opp = 1 - seat
    try:
        world = world_from_view(view, 0)
    except ValueError:
        return None
    slots, pool = unseen_traps(world, opp)
    unplayed = _unplayed_tactics(world, opp) if TACTICS_MEMORY else frozenset()
    first_of: dict[str, int] = {}
    for card in pool:
        first_of.setdefault(world.defs[card].slug, card)
    ruled_out: list[tuple[int, frozenset[str]]] = []
    for index in slots:
        set_now = world.strategy[index]
        flip = Action.of("trap", index - opp * SLOTS + 1)
        flipped: set[str] = set()
        for slug, card in first_of.items():
            world.strategy[index] = card
            if (
                flip in chain_actions(world, opp)
                and heuristic_chain_answer(world, opp, [flip, PASS]) == flip
            ):
                flipped.add(slug)
        world.strategy[index] = set_now
        if flipped:
            ruled_out.append((index - opp * SLOTS + 1, frozenset(flipped)))
    if not ruled_out and not unplayed:
        return None
    log: Sequence[Json] = view["log"]
    hand, deck = world.zone(opp, THAND), world.zone(opp, TDECK)
    return PassNote(
        len(log),
        _digests(log, {len(log)})[len(log)],
        opp,
        tuple(ruled_out),
        unplayed,
        len(hand),
        _tactics_of(world, opp) - len(hand) - len(deck),
    )


def _tactics_of(world: KoboState, seat: int) -> int:
    """How many tactics ``seat``'s public list holds."""
    defs, owner = world.defs, world.owner
    return sum(1 for c in range(len(defs)) if owner[c] == seat and defs[c].kind is CardKind.TACTIC)


def _unplayed_tactics(world: KoboState, opp: int) -> frozenset[str]:
    """The opponent's unseen tactics that the heuristic COM's chain rule would have played on
    ``world``'s board had it held them (none while its strategy slots are full)."""
    from kessen.games.kobo.evaluate import heuristic_chain_answer
    from kessen.games.kobo.flow import PASS, chain_actions

    if EMPTY not in world.strategy[opp * SLOTS : (opp + 1) * SLOTS]:
        return frozenset()
    hand, deck = world.zone(opp, THAND), world.zone(opp, TDECK)
    held = hand[:]
    first_of: dict[str, int] = {}
    for card in held + deck:
        first_of.setdefault(world.defs[card].slug, card)
    unplayed: set[str] = set()
    for slug, card in first_of.items():
        hand[:] = [card]
        play = Action.of("play", slug)
        if (
            play in chain_actions(world, opp)
            and heuristic_chain_answer(world, opp, [play, PASS]) == play
        ):
            unplayed.add(slug)
    hand[:] = held
    return frozenset(unplayed)


@dataclass(frozen=True)
class Avoid:
    """What the opponent's remembered passes rule out now (:func:`ruled_out`)."""

    traps: dict[int, frozenset[str]]
    """Per strategy index of the opponent's, the traps that cannot lie there."""
    tactics: tuple[tuple[frozenset[str], int, int], ...]
    """Per pass, the tactics it would have played then, the size of its tactics hand then
    and how many of its tactics were out of hand and deck then (:class:`PassNote`)."""


def ruled_out(view: Json, notes: PassNotes) -> Avoid:
    """What the opponent's past passes rule out now: in its slots still face down and not set
    anew since a pass, the traps it would have flipped there; in its tactics hand, the tactics
    it would have played, but for the cards it has taken into its hand since."""
    seat: int = view["viewer"]
    opp = 1 - seat
    log: Sequence[Json] = view["log"]
    side = view["players"][opp]
    row = side["strategy"]
    traps: dict[int, frozenset[str]] = {}
    tactics: list[tuple[frozenset[str], int, int]] = []
    for note in notes:
        if note.seat != opp:
            continue
        since = log[note.length :]
        if any(entry["kind"] == "game_start" for entry in since):
            continue
        if note.unplayed:
            tactics.append((note.unplayed, note.held, note.shown))
        reset = {
            int(entry["slot"])
            for entry in since
            if entry["kind"] == "set" and entry.get("seat") == opp
        }
        for slot, slugs in note.ruled_out:
            face = row[slot - 1]
            if slot in reset or face is None or face.get("face") != "down":
                continue
            index = opp * SLOTS + slot - 1
            traps[index] = traps.get(index, frozenset()) | slugs
    return Avoid(traps, tuple(tactics))


def honour_passes(state: KoboState, opp: int, rng: random.Random, avoid: Avoid) -> None:
    """Deal the opponent's hidden cards as ``avoid`` says. Each face-down trap ruled out for
    its slot is swapped with one of its unseen traps not in a slot and not ruled out there,
    drawn at random (a slot with no such trap keeps its card). In the tactics hand, beyond the
    cards it may have taken since a pass, each tactic that pass rules out is swapped with a
    card of its tactics deck that it does not, drawn at random. Every zone keeps its size.

    Of the hand it held at a pass, all but the tactics it has shown since are still in its
    hand (a tactic leaves the hand only to be shown): the rest of its hand now may be any
    card, those may not be one the pass rules out."""
    from kessen.games.kobo.search_worlds import set_face_down, unseen_traps

    defs = state.defs
    if avoid.traps:
        slots, pool = unseen_traps(state, opp)
        for index in slots:
            banned = avoid.traps.get(index)
            if banned is None or defs[state.strategy[index]].slug not in banned:
                continue
            in_slots = {state.strategy[i] for i in slots}
            spare = [c for c in pool if c not in in_slots and defs[c].slug not in banned]
            if spare:
                set_face_down(state, opp, [index], [rng.choice(spare)])
    hand, deck = state.zone(opp, THAND), state.zone(opp, TDECK)
    for unplayed, held, shown in avoid.tactics:
        excess = tactics_beyond(state, opp, (unplayed, held, shown))
        if excess <= 0:
            continue
        bad = [i for i, card in enumerate(hand) if defs[card].slug in unplayed]
        spare = [j for j, card in enumerate(deck) if defs[card].slug not in unplayed]
        rng.shuffle(bad)
        for i, j in zip(bad, rng.sample(spare, min(excess, len(spare))), strict=False):
            hand[i], deck[j] = deck[j], hand[i]


def tactics_beyond(state: KoboState, opp: int, rule: tuple[frozenset[str], int, int]) -> int:
    """How many more tactics of ``rule``'s (one of :attr:`Avoid.tactics`) ``opp``'s tactics
    hand holds in ``state`` than the cards it may have taken since that pass (0 or less: the
    hand agrees with the pass)."""
    unplayed, held, shown = rule
    hand, deck = state.zone(opp, THAND), state.zone(opp, TDECK)
    shown_now = _tactics_of(state, opp) - len(hand) - len(deck)
    kept = max(0, held - (shown_now - shown))
    bad = sum(1 for card in hand if state.defs[card].slug in unplayed)
    return bad - max(0, len(hand) - kept)

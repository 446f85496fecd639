"""Kōbō's trap memory: what the opponent's past passes in the chain say of its face-down traps.

When the opponent passes in a chain, every face-down trap it could have flipped there was, by
the heuristic COM's chain rule, not worth flipping: a trap that would have gained enough on
that board is not the one lying in that slot. The pass inference of
:mod:`kessen.games.kobo.search_worlds` uses this at the moment itself; the search forgets it at
its next decision. :func:`remember` keeps it: at each decision right after an opponent's pass
it notes, per face-down slot of the opponent, the traps that would have been flipped there, and
:func:`ruled_out` tells the sampler which of them still stand (the slot still face down, not set
anew since) so that it deals other traps there (:func:`honour_passes`).

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
from typing import Any

from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.kobo.state import SLOTS, KoboState

PASS_MEMORY = True
"""Whether the deep model remembers the opponent's passes over its face-down traps (off: each
pass counts only at the decision right after it, as in the measurements before)."""


@dataclass(frozen=True)
class PassNote:
    """One opponent's pass in a chain, as the deciding seat saw it.

    ``length`` and ``digest`` name the match log up to the pass (its entries' count and
    :func:`_digests`' fingerprint, checked against the current log's start), ``seat`` the seat
    that passed, ``ruled_out`` per strategy slot (1-5) of that seat the slugs of the traps the
    heuristic COM's chain rule would have flipped there instead of passing. Small and
    picklable: a server hands the notes to the process that searches.
    """

    length: int
    digest: bytes
    seat: int
    ruled_out: tuple[tuple[int, frozenset[str]], ...]


TrapNotes = tuple[PassNote, ...]
"""What a seat keeps: its notes in the order it took them."""


def remember(view: Json, notes: Any) -> TrapNotes:
    """The notes after the decision on ``view``: those still true of its log, and a new one if
    the opponent has just passed in the chain with traps face down (the search's
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


def _still_true(notes: TrapNotes, log: Sequence[Json]) -> TrapNotes:
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
    nothing (no trap face down that could have been flipped)."""
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
    if not slots:
        return None
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
    if not ruled_out:
        return None
    log: Sequence[Json] = view["log"]
    return PassNote(len(log), _digests(log, {len(log)})[len(log)], opp, tuple(ruled_out))


def ruled_out(view: Json, notes: TrapNotes) -> dict[int, frozenset[str]]:
    """Per strategy index of the opponent's, the traps its past passes rule out there: the
    notes' slots that are still face down and have not been set anew since the pass."""
    seat: int = view["viewer"]
    opp = 1 - seat
    log: Sequence[Json] = view["log"]
    row = view["players"][opp]["strategy"]
    out: dict[int, frozenset[str]] = {}
    for note in notes:
        if note.seat != opp:
            continue
        since = log[note.length :]
        if any(entry["kind"] == "game_start" for entry in since):
            continue
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
            out[index] = out.get(index, frozenset()) | slugs
    return out


def honour_passes(
    state: KoboState, opp: int, rng: random.Random, avoid: dict[int, frozenset[str]]
) -> None:
    """Swap each of the opponent's face-down traps that ``avoid`` rules out for its slot with
    one of its unseen traps not in a slot and not ruled out there, drawn at random; a slot with
    no such trap keeps its card. The hand and the deck keep their sizes and their order."""
    from kessen.games.kobo.search_worlds import set_face_down, unseen_traps

    slots, pool = unseen_traps(state, opp)
    defs = state.defs
    for index in slots:
        banned = avoid.get(index)
        if banned is None or defs[state.strategy[index]].slug not in banned:
            continue
        in_slots = {state.strategy[i] for i in slots}
        spare = [c for c in pool if c not in in_slots and defs[c].slug not in banned]
        if spare:
            set_face_down(state, opp, [index], [rng.choice(spare)])

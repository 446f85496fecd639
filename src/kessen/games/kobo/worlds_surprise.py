"""The surprise zone in worlds rebuilt from a seat's view (the search COM's sampler).

:mod:`kessen.games.kobo.worlds` rebuilds a playable state from one seat's view; with the
surprise option on, this module adds the zones: the seat's own cards and every face-up card are
read from the view; the opponent's face-down card is **hidden**, so it is drawn from the
opponent's unseen tactics (its deck list minus every tactic the view shows), like its tactics
hand; :meth:`KoboState.resample_hidden` later redeals it with that hand and deck. Stamps, the
per-turn use, the queued flip prompts, the surprise links of the chain and the frames under a
flip prompt are public and read back as they are.
"""

from __future__ import annotations

import random
from typing import Any

from kessen.engine.contract import Json
from kessen.games.kobo.cards import CardKind
from kessen.games.kobo.state import Frame, KoboState, SurpriseData
from kessen.games.kobo.surprise import OFFER

Pool = Any
"""The worlds module's per-seat pool of unassigned cards (``take``, ``rest``, ``remove``)."""


def options(view: Json) -> dict[str, Any]:
    """The config keys of the option, read from the view (``{}`` when it is off)."""
    block = view.get("surprise")
    if block is None:
        return {}
    return {"surprise": True, "cancelled_surprise": block["cancelled"]}


def rebuild_zones(
    state: KoboState, view: Json, pools: list[Pool], seat: int, rng: random.Random
) -> None:
    """Fill both surprise zones before the hidden cards are dealt (the opponent's face-down
    card is one of its unseen tactics, chosen at random)."""
    block = view.get("surprise")
    if block is None:
        return
    data = state.surprise if state.surprise is not None else SurpriseData()
    state.surprise = data
    for s, side in enumerate(view["players"]):
        zone: list[tuple[int, int]] = []
        for entry in side["surprise"]:
            if "slug" in entry:
                card = pools[s].take(entry["slug"])
            else:
                unseen = pools[s].rest({CardKind.TACTIC})
                card = rng.choice(unseen)
                pools[s].remove([card])
            state.faceup[card] = entry["face"] == "up"
            zone.append((card, entry["stamp"]))
            data.stamp = max(data.stamp, entry["stamp"])
        data.zones[s] = zone
        data.used[s] = view["turn"] if side["surprise_used"] else 0
    data.offers = [(s, c) for s, c in block["offers"]]


def link_card(state: KoboState, seat: int, slug: str, used: set[int]) -> int:
    """The card of a surprise chain link: the face-up card of that name in the seat's zone."""
    assert state.surprise is not None
    for card, _ in state.surprise.zones[seat]:
        if state.faceup[card] and card not in used and state.defs[card].slug == slug:
            used.add(card)
            return card
    raise ValueError(f"no face-up {slug} in seat {seat}'s surprise zone")


def rebuild_pending(state: KoboState, view: Json) -> None:
    """The surprise links waiting in the chain, and the face-up cards whose ability ended
    (kept, for ``cancelled_surprise = stay``)."""
    data = state.surprise
    if data is None:
        return
    flips: dict[str, str] = {}
    for entry in view["log"]:
        if entry.get("kind") == "surprise_flip":
            flips[str(entry["card"])] = str(entry["condition"])
    waiting = {
        link[0]
        for link, entry in zip(state.chain, view["chain"], strict=True)
        if entry.get("surprise")
    }
    data.pending = []
    for card in sorted(waiting, key=[link[0] for link in state.chain].index):
        abilities = state.defs[card].surprise
        cond = flips.get(state.defs[card].slug)
        index = next((i for i, a in enumerate(abilities) if a.on.value == cond), 0)
        data.pending.append((card, index))
    data.kept = [
        card
        for zone in data.zones
        for card, _ in zone
        if state.faceup[card] and card not in waiting
    ]


def stack(view: Json) -> list[Frame]:
    """The frames of a flip prompt: the public frames under it, then the prompt."""
    pending = view["pending"]
    context = pending["context"]
    under: list[Frame] = [tuple(f) for f in context["stack"]]
    return [*under, (OFFER, pending["seat"], context["condition"])]

"""What a seat, an observer or an all-seeing spectator may see of a Kōbō state.

This is the only place that redacts. Hidden cards are rendered without any identity: an
opponent's hand is a count, a face-down trap is ``{"face": "down"}``, a deck is a count.
No card instance number appears anywhere in a view.
"""

from __future__ import annotations

from typing import Any

from kessen.engine.contract import Json
from kessen.games.kobo import surprise, text
from kessen.games.kobo.decks import deck_to_json
from kessen.games.kobo.effects import side_seat
from kessen.games.kobo.opening import penalty
from kessen.games.kobo.option_preview import option_previews
from kessen.games.kobo.preview import chain_preview, resolution_record
from kessen.games.kobo.reasons import standby_warning, unplayable_reasons
from kessen.games.kobo.state import (
    EMPTY,
    EXCLUDED,
    HAND,
    MAIN_DECK,
    RESOLVING,
    RETREAT,
    REVEAL,
    SLOTS,
    TDECK,
    THAND,
    KoboState,
)

# Frames during which a card being processed in the standby is public.
_PUBLIC_PROCESSING = {"deploy_go", "deploy_steps"}


def _card(state: KoboState, card: int, lang: str) -> dict[str, Any]:
    cdef = state.defs[card]
    return {"slug": cdef.slug, "name": cdef.name(lang), "kind": cdef.kind.value}


def _character(state: KoboState, card: int, lang: str) -> dict[str, Any]:
    out = _card(state, card, lang)
    out.update(
        printed=state.defs[card].lv,
        base=state.base[card],
        lv=state.lv(card),
        attacking=card in state.attackers,
        target=card == state.target,
    )
    return out


def _hidden_list(state: KoboState, cards: list[int], shown: bool, lang: str) -> Json:
    return {"count": len(cards), "cards": [_card(state, c, lang) for c in cards] if shown else None}


def _reveal(state: KoboState, seat: int, everything: bool, lang: str) -> list[dict[str, Any]]:
    frame = state.stack[-1] if state.stack else ("",)
    out: list[dict[str, Any]] = []
    for card in state.zone(seat, REVEAL):
        face_up = (
            everything
            or (frame[0] == "summon_slot" and frame[1] == seat)
            or (frame[0] == "blind_slot" and frame[2] == card)
        )
        out.append({"face": "up", **_card(state, card, lang)} if face_up else {"face": "down"})
    return out


def _processing(state: KoboState, seat: int, sees: bool, lang: str) -> list[dict[str, Any]]:
    public = any(f[0] in _PUBLIC_PROCESSING and f[1] == seat for f in state.stack)
    cards = state.zone(seat, RESOLVING)
    return [_card(state, c, lang) if sees or public else {"face": "down"} for c in cards]


def _side(state: KoboState, seat: int, viewer: int | None, everything: bool, lang: str) -> Json:
    sees = everything or viewer == seat
    start = seat * SLOTS
    battle = [
        _character(state, c, lang) if c != EMPTY else None
        for c in state.battle[start : start + SLOTS]
    ]
    strategy: list[dict[str, Any] | None] = []
    for card in state.strategy[start : start + SLOTS]:
        if card == EMPTY:
            strategy.append(None)
        elif state.faceup[card]:
            strategy.append({"face": "up", **_card(state, card, lang)})
        elif sees:
            strategy.append({"face": "down", **_card(state, card, lang)})
        else:
            strategy.append({"face": "down"})
    deck = state.config.decks[seat]
    out: Json = {
        "seat": seat,
        "deck": {**deck_to_json(deck), "name": deck.name_ja if lang == "ja" else deck.name_en},
        "main_deck": len(state.zone(seat, MAIN_DECK)),
        "tactics_deck": len(state.zone(seat, TDECK)),
        "hand": _hidden_list(state, state.zone(seat, HAND), sees, lang),
        "tactics_hand": _hidden_list(state, state.zone(seat, THAND), sees, lang),
        "battle": battle,
        "strategy": strategy,
        "retreat": [_card(state, c, lang) for c in state.zone(seat, RETREAT)],
        "excluded": [_card(state, c, lang) for c in state.zone(seat, EXCLUDED)],
        "reveal": _reveal(state, seat, everything, lang),
        "processing": _processing(state, seat, sees, lang),
        "passes": state.passes[seat],
        "remaining": state.remaining_cards(seat),
    }
    if state.surprise is not None:
        out["surprise"] = _surprise_zone(state, seat, sees, lang)
        out["surprise_used"] = state.surprise.used[seat] == state.turn
    return out


def _surprise_zone(state: KoboState, seat: int, sees: bool, lang: str) -> list[Json]:
    """The seat's surprise zone, oldest first: a face-down card shows its identity to its
    owner (and to "show all") only; the entry stamp (the order of placement) is public."""
    assert state.surprise is not None
    out: list[Json] = []
    for card, stamp in state.surprise.zones[seat]:
        if state.faceup[card]:
            out.append({"face": "up", **_card(state, card, lang), "stamp": stamp})
        elif sees:
            out.append({"face": "down", **_card(state, card, lang), "stamp": stamp})
        else:
            out.append({"face": "down", "stamp": stamp})
    return out


def _link(state: KoboState, index: int, link: tuple[int, int, int, bool], lang: str) -> Json:
    card, seat, chosen, negated = link
    out: Json = {"link": index + 1, "seat": seat, **_card(state, card, lang), "negated": negated}
    cdef = state.defs[card]
    if state.surprise is not None and card not in state.strategy:
        out["surprise"] = True  # a flipped 【！】 ability (its card lies in the surprise zone)
    if cdef.needs_choice and chosen != EMPTY:
        slot = state.slot_of(chosen)
        out["target"] = {"seat": state.owner[chosen], "slot": slot + 1 if slot != EMPTY else None}
    elif chosen != EMPTY:
        out["negates"] = chosen + 1
    return out


def _context(state: KoboState, viewer: int | None, everything: bool, lang: str) -> Json:
    """What the pending prompt is about, as far as ``viewer`` may know."""
    if not state.stack or state.prompt is None:
        return {}
    frame = state.stack[-1]
    kind = frame[0]
    seat = state.prompt[0]
    sees = everything or viewer == seat
    if kind in ("char", "trap", "deploy", "deploy_go", "summon_slot", "blind_slot", "chain_target"):
        public = kind in ("deploy_go", "summon_slot", "blind_slot", "chain_target")
        out: Json = {"card": _card(state, frame[2], lang)} if sees or public else {}
        warning = standby_warning(state, seat) if sees and kind == "trap" else None
        if warning is not None:
            params = warning["params"]
            warning["text"] = text.warning_text(params["free_after"], params["traps_in_hand"], lang)
            out["warning"] = warning
        if kind in ("deploy_go", "chain_target"):
            out["side"] = side_seat(state, frame[1], state.defs[frame[2]])
        return out
    if kind == "nominate":
        return {"named": list(frame[2:])} if sees else {}
    if kind == "declare":
        return {
            "attackers": [state.slot_of(a) + 1 for a in frame[1:]],
            "total": sum(state.lv(a) for a in frame[1:]),
        }
    if kind == "tactics":
        return {"left": frame[2]}
    if kind == "penalty":
        return {"left": frame[2]}
    if kind == "turn_decide":
        # What a pass would exclude now (the seed's schedule: the passes made so far).
        return {"pass_penalty": penalty(state.config.pass_penalty, state.passes[seat] + 1)}
    if kind == "surprise_offer":
        offer: Json = {
            "condition": frame[2],
            "condition_text": text.condition_text(frame[2], lang),
        }
        # The frames under the prompt are public (no card in them): a world rebuilt from this
        # view (the search COM's) continues exactly where the game does.
        offer["stack"] = [list(f) for f in state.stack[:-1]]
        if sees:
            card = surprise.face_down_card(state, frame[1])
            offer["card"] = _card(state, card, lang)
            offer["matches"] = surprise.matching(state, frame[1], frame[2]) >= 0
        return offer
    return {}


def _exchange(state: KoboState, viewer: int | None, lang: str, aids: bool = True) -> Json | None:
    """The open exchange: who attacks and defends, and the preview of its chain (if open)."""
    if not state.attackers:
        return None
    return {
        "attacker_seat": state.attacker_seat,
        "defender_seat": 1 - state.attacker_seat,
        "labels": {
            "attacking": text.side_label("attacking", lang),
            "defending": text.side_label("defending", lang),
        },
        "preview": chain_preview(state, viewer, lang) if aids else None,
    }


def _why_not(state: KoboState, seat: int, lang: str) -> list[Json]:
    """Each of ``seat``'s cards and choices it may not use now, with the reason's text."""
    out = unplayable_reasons(state, seat)
    for entry in out:
        entry["text"] = text.reason_text(entry["code"], entry["params"], lang)
    return out


def _first_players(state: KoboState) -> list[int]:
    """The first player of each game so far, from the public log."""
    return [e.public["first"] for e in state.log if e.kind == "game_start"]


def render(
    state: KoboState, viewer: int | None, everything: bool, lang: str = "ja", aids: bool = True
) -> Json:
    """The view of ``state`` for ``viewer`` (a seat, or ``None`` for public information).

    Without ``aids`` (a COM's decision view) the fields drawn for people only are ``None``.
    """
    pending: Json | None = None
    if state.prompt is not None:
        seat, prompt = state.prompt
        mine = everything or viewer == seat
        pending = {
            "seat": seat,
            "prompt": prompt,
            "prompt_id": state.prompt_id,
            "legal": [str(a) for a in state.legal_actions()] if mine else None,
            "context": _context(state, viewer, everything, lang),
        }
    attack: Json | None = None
    if state.attackers:
        target_slot = state.slot_of(state.target) if state.target != EMPTY else EMPTY
        attack = {
            "seat": state.attacker_seat,
            "attackers": [state.slot_of(a) + 1 for a in state.attackers if state.on_field(a)],
            "target": target_slot + 1 if target_slot != EMPTY else None,
            "negated": state.negated,
        }
    outcome = state.outcome
    log = [e.visible(viewer, everything) for e in state.log]
    out: Json = {
        "ruleset": "kobo",
        "viewer": viewer,
        "everything": everything,
        "lang": lang,
        "match": {
            "best_of": state.config.best_of,
            "wins": state.wins[:],
            "game": state.game_no,
            "results": [
                {"winner": w, "reason": r, "turns": t, "first": first}
                for (w, r, t), first in zip(state.results, _first_players(state), strict=False)
            ],
            "winner": outcome.winner if outcome else None,
            "over": outcome is not None,
        },
        "first_player": state.first_player,
        "turn": state.turn,
        "turn_player": state.turn_player,
        "turn_limit": state.config.turn_limit,
        "priority": state.priority if state.stack and state.stack[-1][0] == "chain" else None,
        "players": [_side(state, s, viewer, everything, lang) for s in (0, 1)],
        "attack": attack,
        "chain": [_link(state, i, link, lang) for i, link in enumerate(state.chain)],
        "resolved": [
            _link(state, len(state.chain) + len(state.resolved) - 1 - i, link, lang)
            for i, link in enumerate(state.resolved)
        ],
        "pending": pending,
        "exchange": _exchange(state, viewer, lang, aids),
        "resolution": resolution_record(log, lang) if aids else None,
        "why_not": (
            _why_not(state, viewer, lang)
            if aids and viewer is not None and not everything
            else None
        ),
        # What each of the deciding seat's options gives (its own view only).
        "previews": (
            option_previews(state, viewer, lang)
            if aids and viewer is not None and not everything
            else None
        ),
        "log": log,
    }
    out.update(state.config.opening_view())
    if state.config.card_set:
        # The designer's card set both seats play with (public, like the deck lists).
        out["card_set"] = state.config.card_set
    if state.surprise is not None:
        out["surprise"] = {
            "cancelled": state.config.cancelled_surprise,
            "offers": [list(o) for o in state.surprise.offers],
        }
    return out

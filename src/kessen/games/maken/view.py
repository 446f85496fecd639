"""What a seat, an observer or an all-seeing spectator may see of a Maken state (§10).

The only place that redacts. Hidden from both players: stamina, LP, gauge and damage (counts
only). Hidden from the other seat: the hand and the set support cards (counts and positions).
Public: character cards, deck lists, dust, helper fields, attack fields (a DA/TA's face-down
extra shows as ``{"face": "down", "copy_of": <card>, "atk": n}``: everyone saw it bet), opened
support cards and the exchange. No instance number appears anywhere; cards are named by their
id (``SO01``) only where the viewer may know them. The fields are documented in docs/maken.md.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from kessen.engine.contract import Json
from kessen.games.maken.cards import (
    SHIPPED_POOL,
    STATS,
    MakenPool,
    card_text,
    character_name,
    distance_text,
)
from kessen.games.maken.rules import decider
from kessen.games.maken.state import (
    ATK,
    BACK,
    DOWN,
    FRONT,
    HIT,
    HP,
    INST,
    S_HP,
    S_INST,
    S_OPEN,
    S_SEQ,
    S_TURN,
    SPD,
    MakenState,
)

DOWN_CARD: Json = {"face": "down"}


@cache
def _card(pool: MakenPool, cid: str, lang: str) -> tuple[tuple[str, Any], ...]:
    card = pool.card[cid]
    return (
        ("card", cid),
        ("name", card.name(lang)),
        ("kind", card.kind),
        ("character", card.character),
        ("text", card_text(card, lang)),
    )


def card_view(cid: str, lang: str, pool: MakenPool = SHIPPED_POOL) -> Json:
    """A visible card: id, name, kind, character and generated text (of ``pool``: the
    game's, :attr:`MakenState.pool`)."""
    return dict(_card(pool, cid, lang))


def _field_entry(state: MakenState, entry: list[int], lang: str) -> Json:
    cid = state.cards[entry[INST]]
    if entry[DOWN]:
        return {
            "face": "down",
            "copy_of": cid,
            "name": state.pool.card[cid].name(lang),
            "atk": entry[ATK],
            "hit": bool(entry[HIT]),
            "helper_paid": bool(entry[HP]),
        }
    data = dict(zip(STATS, entry[SPD : SPD + 6], strict=True))
    return {
        "face": "up",
        **card_view(cid, lang, state.pool),
        "data": data,
        "distance": distance_text(entry[FRONT], entry[BACK]),
        "hit": bool(entry[HIT]),
        "helper_paid": bool(entry[HP]),
    }


def _support_entry(state: MakenState, entry: list[int], sees: bool, lang: str) -> Json:
    cid = state.cards[entry[S_INST]]
    if entry[S_OPEN]:
        return {
            "face": "up",
            **card_view(cid, lang, state.pool),
            "order": entry[S_SEQ],
            "opened_turn": entry[S_TURN],
            "helper_paid": bool(entry[S_HP]),
        }
    return {"face": "down", **card_view(cid, lang, state.pool)} if sees else dict(DOWN_CARD)


def _side(state: MakenState, seat: int, viewer: int | None, everything: bool, lang: str) -> Json:
    own = everything or viewer == seat
    hand = sorted(state.cards[i] for i in state.hand[seat])
    cfg = state.cfg
    deck = cfg.decks[seat]
    side: Json = {
        "seat": seat,
        "character": {"code": state.chars[seat], "name": character_name(state.chars[seat], lang)},
        "deck": dict(sorted(deck["cards"].items())),
        "lp": len(state.lp[seat]),
        "stamina": len(state.stamina[seat]),
        "gauge": len(state.gauge[seat]),
        "damage": len(state.damage[seat]),
        "hand": {
            "count": len(hand),
            "cards": [card_view(c, lang, state.pool) for c in hand] if own else None,
        },
        "dust": [card_view(state.cards[i], lang, state.pool) for i in state.dust[seat]],
        "helper": [card_view(state.cards[i], lang, state.pool) for i in state.helper[seat]],
        "field": [_field_entry(state, e, lang) for e in state.field[seat]],
        "total": state.total(seat),
        "support": [_support_entry(state, e, own, lang) for e in state.support[seat]],
        "defenceless": state.defenceless(seat),
        "defenceless_until": state.defenceless_until[seat],
        "mulligan": state.mulled[seat],
        "tp": seat == state.tp,
    }
    if everything:
        side["hidden"] = {
            name: [state.cards[i] for i in getattr(state, name)[seat]]
            for name in ("lp", "stamina", "gauge", "damage")
        }
    return side


def _bet(state: MakenState) -> Json | None:
    bet = state.bet
    if bet is None:
        return None
    names = state.cards
    return {
        "seat": bet["seat"],
        "kind": bet["kind"],
        "card": bet["cid"],
        "n": bet["n"],
        "option": bet["option"],
        "units": bet["units"],
        "cost": bet["cost"],
        "helper": bet["helper"],
        "dash": bet["dash"],
        "rv": bet["rv"],
        "eligible": [names[i] for i in bet["eligible"]],
        "picks": [names[i] for i in bet["picks"]],
    }


def view(
    state: MakenState, viewer: int | None, lang: str, everything: bool, aids: bool = True
) -> Json:
    """The view of ``viewer`` (``None``: an observer), or everything.

    With ``aids`` (every view but a COM's decision view) it also carries what is drawn for
    people: ``why_not`` (the seat's own view: :mod:`.reasons`), ``previews`` (the deciding
    seat's own view: :mod:`.preview`) and ``resolution`` (the last judge's record:
    :mod:`.record`); without them these are ``None``.
    """
    pending: Json | None = None
    if state.result is None:
        seat = decider(state)
        shows = everything or viewer == seat
        pending = {
            "seat": seat,
            "prompt": state.phase,
            "prompt_id": state.prompt_id,
            "legal": [str(a) for a in state.legal_actions()] if shows else None,
        }
    first = next((e.public["tp"] for e in state.log if e.kind == "setup"), None)
    outcome = None
    if state.result is not None:
        outcome = {"winner": state.result[0], "reason": state.result[1]}
    log = [e.visible(viewer, everything) for e in state.log]
    own = aids and viewer is not None and not everything
    return {
        "ruleset": "maken",
        "viewer": viewer,
        "config": state.config,
        "turn": state.turn,
        "tp": state.tp,
        "first_player": first,
        "phase": state.phase,
        "prompt_id": state.prompt_id,
        "situation": {
            "kind": state.sit,
            "guarding": state.guarding if state.guarding >= 0 else None,
            "actor": state.actor if state.actor >= 0 else None,
        },
        "downed_last": state.downed_last,
        "open_seq": state.open_seq,
        "bet": _bet(state),
        "judge": None if state.judge is None else dict(state.judge),
        "players": [_side(state, s, viewer, everything, lang) for s in (0, 1)],
        "pending": pending,
        "outcome": outcome,
        "why_not": _why_not(state, viewer, lang) if own and viewer is not None else None,
        "previews": (
            _previews(state, viewer, lang)
            if own and viewer is not None and pending is not None and pending["seat"] == viewer
            else None
        ),
        "resolution": _resolution(log, state.config, viewer, lang, state.pool) if aids else None,
        "log": log,
    }


def _why_not(state: MakenState, seat: int, lang: str) -> list[Json]:
    from kessen.games.maken.reasons import why_not

    return why_not(state, seat, lang)


def _previews(state: MakenState, seat: int, lang: str) -> dict[str, Json] | None:
    from kessen.games.maken.preview import option_previews

    return option_previews(state, seat, lang)


def _resolution(
    log: list[Json], config: Json, viewer: int | None, lang: str, pool: MakenPool
) -> Json | None:
    from kessen.games.maken.record import resolution_record

    return resolution_record(log, config, viewer, lang, pool)

"""What a seat, an observer or an all-seeing spectator may see of a TWGP state.

This is the only place that redacts (twgp-trump.md §2.3 "Visibility"). A hidden card carries no
identity: an opponent's hand, cards set aside, build pool and pile are counts, a face-down
charge card or vital is ``{"face": "down"}``, a stealth-summoned unit shows its pose but no
card. A unit that has been face up keeps a public identity when it turns face down (stealth or
a G-blast declaration), as every player saw it. No card id appears anywhere; cards are named by
their slug only where the viewer may know them. The config's fixed builds are never shown.

Besides the board, a view for people (``aids``) carries the deciding seat's reasons
(``why_not``, :mod:`.reasons`) and option previews (``previews``, :mod:`.preview`), and for
every reader the record of the last fight (``resolution``, :mod:`.fight`), read from the log
entries the viewer sees.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from kessen.engine.contract import Json
from kessen.engine.poses import Stack
from kessen.games.twgp.cards import CARDS, card_text
from kessen.games.twgp.config import VITALS
from kessen.games.twgp.fight import fight_record
from kessen.games.twgp.fightwords import names_of, pending_line, verdict
from kessen.games.twgp.moves import order_cards, power
from kessen.games.twgp.preview import option_previews
from kessen.games.twgp.state import (
    ASIDE,
    ATTACK_NAMES,
    EFFECT,
    EMPTY,
    GB,
    HAND,
    HIDDEN,
    PHASE_NAMES,
    PILE,
    POOL,
    POSE_NAMES,
    SETUP,
    STORAGE,
    SURGE,
    TwgpState,
)
from kessen.games.twgp.vitals import STEP_NAMES

DOWN: Json = {"face": "down"}


@cache
def _card_data(cid: int, lang: str) -> tuple[tuple[str, Any], ...]:
    cdef = CARDS[cid]
    return (
        ("slug", cdef.slug),
        ("label", cdef.label),
        ("name", cdef.name(lang)),
        ("kind", cdef.kind),
        ("base", cdef.base),
    )


def card_view(cid: int, lang: str) -> dict[str, Any]:
    """A visible card: slug, label (♠3), name, kind and base power (``None`` for a weapon)."""
    return dict(_card_data(cid, lang))


def card_text_view(cid: int, lang: str) -> str:
    """The generated rules text of a card (for tooltips)."""
    return card_text(CARDS[cid], lang)


def _cards(cids: list[int] | tuple[int, ...], lang: str) -> list[dict[str, Any]]:
    return [card_view(c, lang) for c in cids]


def _hidden_list(cids: list[int], sees: bool, lang: str) -> Json:
    return {"count": len(cids), "cards": _cards(cids, lang) if sees else None}


def _stack(state: TwgpState, seat: int, square: int, stack: Stack, sees: bool, lang: str) -> Json:
    shown = sees or not stack.secret
    attack = state.attack
    role = None
    if attack is not None:
        if seat == attack.seat and square == attack.attacker:
            role = "attacker"
        elif seat != attack.seat and square == attack.target:
            role = "target"
    return {
        "pose": POSE_NAMES[stack.pose],
        "face": "up" if stack.pose.face_up else "down",
        "unit": card_view(stack.top, lang) if shown else None,
        "frames": _cards(stack.under, lang),
        "weapons": _cards(stack.attached, lang),
        "base": CARDS[stack.top].base if shown else None,
        "pow": power(stack) if shown else None,
        "gb_turn": stack.mark if stack.pose == GB else None,
        "role": role,
    }


def _vital(state: TwgpState, index: int, sees: bool, lang: str) -> Json:
    cid = state.vitals[index]
    if cid == EMPTY:
        return {"face": "empty"}
    pose = state.vpose[index]
    if pose == HIDDEN:
        return {"face": "down", **card_view(cid, lang)} if sees else dict(DOWN)
    return {"face": "up", "status": "effect" if pose == EFFECT else "lost", **card_view(cid, lang)}


def _side(state: TwgpState, seat: int, viewer: int | None, everything: bool, lang: str) -> Json:
    sees = everything or viewer == seat
    w = state.width
    charge: list[Json | None] = []
    for cid in state.charge[seat * w : seat * w + w]:
        if cid == EMPTY:
            charge.append(None)
        else:
            charge.append({"face": "down", **card_view(cid, lang)} if sees else dict(DOWN))
    battle: list[Json | None] = []
    for i in range(w):
        stack = state.battle[seat * w + i]
        battle.append(_stack(state, seat, i, stack, sees, lang) if stack is not None else None)
    out: Json = {
        "seat": seat,
        "pile": len(state.zone(seat, PILE)),
        "hand": _hidden_list(state.zone(seat, HAND), sees, lang),
        "aside": _hidden_list(state.zone(seat, ASIDE), sees, lang),
        "vitals": [_vital(state, seat * VITALS + i, sees, lang) for i in range(VITALS)],
        "hidden_vitals": state.hidden_vitals(seat),
        "charge": charge,
        "battle": battle,
        "surge": _cards(state.zone(seat, SURGE), lang),
        "storage": _cards(state.zone(seat, STORAGE), lang),
        "wipe_used": state.wipe_used[seat],
        "zero_turn": state.zero_turn[seat] if state.zero_turn[seat] != EMPTY else None,
    }
    if state.zone(seat, POOL):
        out["pool"] = _hidden_list(state.zone(seat, POOL), sees, lang)
    if state.config.weapon_cache:
        out["cache"] = [_cards(state.cache[seat * w + i], lang) for i in range(w)]
    return out


def _context(state: TwgpState, lang: str) -> Json:
    """What the pending prompt is about (public facts only)."""
    if not state.stack or state.prompt is None:
        return {}
    frame = state.stack[-1]
    kind = frame[0]
    if kind == "build":
        seat = frame[1]
        vitals = sum(1 for c in state.vitals[seat * VITALS : seat * VITALS + VITALS] if c >= 0)
        if vitals < VITALS:
            return {"stage": "vitals"}
        if len(state.zone(seat, ASIDE)) < state.config.aside_count:
            return {"stage": "aside"}
        return {"stage": "hand"}
    if kind == "damage":
        return {"finished": _step_names(frame[2]), "current": STEP_NAMES.get(frame[3])}
    if kind == "vloss":
        return {"count": frame[2], "picked": [p + 1 for p in frame[3]]}
    if kind == "veffect":
        return {"picked": [p + 1 for p in frame[2]]}
    if kind == "recharge":
        return {"left": frame[2]}
    if kind == "reload16":
        return {"put": frame[2]}
    if kind == "dreload":
        below = state.stack[-2]  # the damage routine this reload belongs to
        return {"put": frame[2], "finished": _step_names(below[2])}
    if kind == "cache":
        seat, square = frame[1], frame[2]
        return {
            "square": square + 1,
            "weapons": _cards(state.cache[seat * state.width + square], lang),
        }
    if kind == "order":
        seat, ordered = frame[1], order_cards(state, frame[1], frame[2])
        surge = state.zone(seat, SURGE)
        return {"cards": _cards(ordered, lang), "surge": sum(1 for c in ordered if c in surge)}
    if kind in ("build_window", "battle_window", "response"):
        from kessen.games.twgp.actions import TOGGLE_CAP

        seat = state.prompt[0]
        return {"toggles_left": TOGGLE_CAP - state.toggles[seat]}
    return {}


def _step_names(finished: int) -> list[str]:
    """The damage-routine steps set in the bit mask ``finished``."""
    return [name for bit, name in STEP_NAMES.items() if finished & bit]


def _attack(state: TwgpState) -> Json | None:
    attack = state.attack
    if attack is None:
        return None
    return {
        "type": ATTACK_NAMES[attack.kind],
        "seat": attack.seat,
        "attacker": attack.attacker + 1,
        "target": attack.target + 1 if attack.target != EMPTY else None,
        "surge_a": attack.surge_a,
        "surge_d": attack.surge_d,
        "downloads": attack.downloads,
        "interrupter": attack.interrupter + 1 if attack.interrupter != EMPTY else None,
        "lost": attack.lost,
        "cancelled": attack.cancelled,
    }


def render(
    state: TwgpState, viewer: int | None, everything: bool, lang: str = "ja", aids: bool = True
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
            "context": _context(state, lang),
        }
    effect = None
    for index, pose in enumerate(state.vpose):
        if pose == EFFECT:
            effect = {"seat": index // VITALS, "card": card_view(state.vitals[index], lang)}
    outcome = state.outcome
    log = [e.visible(viewer, everything) for e in state.log]
    switches = state.config.to_json()
    del switches["builds"]
    return {
        "ruleset": "twgp",
        "viewer": viewer,
        "everything": everything,
        "lang": lang,
        "config": switches,
        "width": state.width,
        "turn": state.turn,
        "turn_player": state.turn_player,
        "first_player": state.first_player if state.phase != SETUP else None,
        "phase": PHASE_NAMES[state.phase],
        "quiet": state.quiet,
        "vital_effect": effect,
        "attack": _attack(state),
        "players": [_side(state, s, viewer, everything, lang) for s in (0, 1)],
        "pending": pending,
        "outcome": {"winner": outcome.winner, "reason": outcome.reason} if outcome else None,
        "why_not": (
            _why_not(state, viewer, lang)
            if aids and viewer is not None and not everything
            else None
        ),
        "previews": (
            option_previews(state, viewer, lang)
            if aids and viewer is not None and not everything
            else None
        ),
        "resolution": _resolution(state, log, viewer, lang) if aids else None,
        "log": log,
    }


def _resolution(
    state: TwgpState, entries: list[Json], viewer: int | None, lang: str
) -> Json | None:
    """The record of the last fight with a result (:mod:`.fight`), from the viewer's log
    ``entries``, with its words as ``viewer`` reads them and the vital loss still to be
    picked, if any."""
    pending = next((f for f in reversed(state.stack) if f[0] in ("vloss", "veffect")), None)
    record = fight_record(entries, loss_pending=pending is not None)
    if record is None:
        return None
    names = names_of(entries[record["result_index"] : record["end"]])
    record["words"] = verdict(record["outcome"], record["basis"], viewer, lang, names, past=True)
    if pending is not None:
        seat = int(pending[1])
        count = len(pending[2]) if pending[0] == "veffect" else int(pending[2])
        count = min(count, state.hidden_vitals(seat))
        record["pending_loss"] = {"seat": seat, "count": count}
        if count:
            record["words"]["lines"].append(pending_line(seat, count, viewer, lang))
    return record


def _why_not(state: TwgpState, seat: int, lang: str) -> list[Json]:
    """Each card of ``seat``'s hand that it may not use now, with the reason and its words
    (:mod:`.reasons`); only ever in the seat's own view."""
    from kessen.games.twgp.reasons import reason_text, unplayable_reasons

    out = unplayable_reasons(state, seat)
    for entry in out:
        entry["text"] = reason_text(entry["code"], entry["params"], lang)
    return out

"""Why a TWGP hand card cannot be used now: one reason per unusable card, as legal_actions says.

A hand card is used by an action that names it: a charge or stealth drive (units of base power
03 or less), a power drive (04 or more), a counter drive (as the new unit or a material), an
attached weapon, a reload. :func:`unplayable_reasons` lists every card of a seat's hand that no
legal action of the pending decision names (all of them when the decision is not the seat's),
each with the first reason that rules its usual use out, as a code with parameters; the words,
in Japanese and English, are :func:`reason_text`'s.

Which cards are usable comes from ``legal_actions`` itself; the reasons explain them. The tests
check over random games that every unusable card gets exactly one reason and that the
explanation never runs out (the ``no_use`` code is the guard for a case the checks would not
cover). Everything here reads the seat's own hand and public data only.
"""

from __future__ import annotations

from kessen.engine.contract import Json
from kessen.games.twgp.actions import banned, charge_drive_cost
from kessen.games.twgp.cards import CARDS, CHARGE_DRIVE_MAX
from kessen.games.twgp.drives import POWER_DRIVE_MIN
from kessen.games.twgp.moves import base, deck_room, engaged
from kessen.games.twgp.state import ACTIVE, HAND, WEAPON_CAP, TwgpState
from kessen.games.twgp.vitals import REBUILD

WINDOWS = frozenset({"build_window", "battle_window", "response", "damage"})
"""Decisions in which hand cards can be put to use (the damage routine's rebuild step too)."""

REASON_CODES = (
    "not_your_turn",
    "busy",
    "banned",
    "charge_full",
    "deck_limit",
    "no_square",
    "cached",
    "no_core",
    "drive_power",
    "no_armable",
    "no_use",
)
"""Why a hand card cannot be used now, in the order they are checked."""

_TEXT = {
    "ja": {
        "not_your_turn": "相手の選択を待っています。",
        "busy": "いまは手札を使う場面ではありません。",
        "banned": "ヴァイタル効果により、基本パワー{rank:02d}のユニットは召喚できません。",
        "charge_full": "チャージ召喚にはダウンロード{cost}枚が必要ですが、"
        "チャージ・マスの空きが{free}つしかありません。",
        "deck_limit": "チャージ召喚にはダウンロード{cost}枚が必要ですが、"
        "このターン山札から出せるのはあと{room}枚です。",
        "no_square": "バトル・マスに空きがありません。",
        "cached": "空いているバトル・マスにはウェポンが残っていて、このユニットは置けません。",
        "no_core": "コアにできる自分の表タテ置きユニット（攻撃に関わっていないもの）がいません。",
        "drive_power": "パワー召喚には基本パワー合計{needs}以上が必要ですが、"
        "いまは最大{most}です。",
        "no_armable": "ウェポンを敷ける自分の表タテ置きユニット（基本パワー00以外、"
        "ウェポン{cap}枚未満）がいません。",
        "no_use": "いまは使えません。",
    },
    "en": {
        "not_your_turn": "Waiting for your opponent.",
        "busy": "This decision does not use hand cards.",
        "banned": "The vital effect bans summoning units of base power {rank:02d}.",
        "charge_full": "A charge drive downloads {cost} card(s), but only {free} charge "
        "square(s) are empty.",
        "deck_limit": "A charge drive downloads {cost} card(s), but only {room} more may "
        "leave your pile this turn.",
        "no_square": "No battle square is empty.",
        "cached": "Weapons left in the empty battle squares keep this unit out.",
        "no_core": "None of your face-up upright units (not engaged in an attack) can be the core.",
        "drive_power": "A power drive needs base power {needs} in all; at most {most} can be "
        "gathered now.",
        "no_armable": "None of your face-up upright units can hold a weapon (base power "
        "other than 00, fewer than {cap} weapons).",
        "no_use": "Cannot be used now.",
    },
}


def reason_text(code: str, params: dict[str, object], lang: str = "ja") -> str:
    """The sentence for a reason code and its parameters.

    >>> reason_text("drive_power", {"needs": 7, "most": 5}, "en")
    'A power drive needs base power 7 in all; at most 5 can be gathered now.'
    """
    if lang not in _TEXT:
        raise ValueError(f"unknown language {lang!r}; expected ja or en")
    return _TEXT[lang][code].format(**params)


def _named(state: TwgpState, seat: int) -> set[str]:
    """The card names the pending decision's legal actions mention, if it is ``seat``'s."""
    prompt = state.prompt
    if prompt is None or prompt[0] != seat:
        return set()
    return {arg for action in state.legal_actions() for arg in action.args if isinstance(arg, str)}


def _charge_reason(state: TwgpState, seat: int, card: int) -> tuple[str, dict[str, object]]:
    cost = charge_drive_cost(state, seat)
    free = state.empty_charge(seat)
    if cost > free:
        return "charge_full", {"cost": cost, "free": free}
    room = deck_room(state, seat)
    if cost > room:
        return "deck_limit", {"cost": cost, "room": room}
    w = state.width
    squares = [i for i in range(w) if state.battle[seat * w + i] is None]
    if not squares:
        return "no_square", {}
    if all(state.cache[seat * w + i] for i in squares):
        return "cached", {}
    return "no_use", {}


def _power_reason(state: TwgpState, seat: int, card: int) -> tuple[str, dict[str, object]]:
    stacks = state.stacks(seat)
    attack = state.attack
    own_attacker = attack.attacker if attack is not None and attack.seat == seat else None
    cores = [i for i, s in stacks if s.pose == ACTIVE and not engaged(state, seat, i)]
    if not cores:
        return "no_core", {}
    most = max(
        base(core) + sum(base(s) for j, s in stacks if j != i and j != own_attacker)
        for i, core in stacks
        if i in cores
    )
    needs = CARDS[card].base or 0
    if needs > most:
        return "drive_power", {"needs": needs, "most": most}
    return "no_use", {}


def _card_reason(state: TwgpState, seat: int, card: int) -> tuple[str, dict[str, object]]:
    """Why ``card`` of ``seat``'s hand has no use in the pending decision (which is the
    seat's and is one of :data:`WINDOWS`)."""
    cdef = CARDS[card]
    if not cdef.is_unit:
        armable = [
            i
            for i, s in state.stacks(seat)
            if s.pose == ACTIVE and base(s) != 0 and len(s.attached) < WEAPON_CAP
        ]
        return ("no_armable", {"cap": WEAPON_CAP}) if not armable else ("no_use", {})
    rank = cdef.base or 0
    if banned(state, rank):
        return "banned", {"rank": rank}
    if rank <= CHARGE_DRIVE_MAX:
        return _charge_reason(state, seat, card)
    if rank >= POWER_DRIVE_MIN:
        return _power_reason(state, seat, card)
    return "no_use", {}


def _uses_hand(state: TwgpState) -> bool:
    """Whether the pending decision is one of :data:`WINDOWS` (in the damage routine: while
    its rebuild step is not finished)."""
    frame = state.stack[-1]
    if frame[0] == "damage":
        return not frame[2] & REBUILD
    return frame[0] in WINDOWS


def unplayable_reasons(state: TwgpState, seat: int) -> list[Json]:
    """Every card of ``seat``'s hand that it may not use now, each with one reason.

    Each entry: ``zone`` ("hand"), ``index`` (position in the hand, from 0), ``slug``, ``code``
    and ``params``. A card that a legal action names has no entry.
    """
    if state.outcome is not None:
        return []
    hand = state.zone(seat, HAND)
    if not hand:
        return []
    named = _named(state, seat)
    prompt = state.prompt
    out: list[Json] = []
    for index, card in enumerate(hand):
        slug = CARDS[card].slug
        if slug in named:
            continue
        params: dict[str, object] = {}
        if prompt is None or prompt[0] != seat:
            code = "not_your_turn"
        elif not _uses_hand(state):
            code, params = "busy", {"prompt": prompt[1]}
        else:
            code, params = _card_reason(state, seat, card)
        out.append({"zone": "hand", "index": index, "slug": slug, "code": code, "params": params})
    return out

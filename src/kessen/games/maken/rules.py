"""Who decides, the hand view of a bet (steps 1–5 of maken.md §8.1), legality (step 6, §7.4)
and the legal actions of every prompt (§7.8).

A *bet* is written ``<slug>`` (one card), ``<slug>x2 <図7 option>`` (DA) or ``<slug>x3 <図8
option>`` (TA), e.g. ``attack so09x2 powerful``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.maken.cards import STATS, Ability, Card
from kessen.games.maken.state import (
    ATK,
    BACK,
    DOWN,
    FRONT,
    INST,
    S_INST,
    S_OPEN,
    S_SEQ,
    SPD,
    MakenState,
)

DA_OPTIONS: dict[str, tuple[str | None, int, int]] = {
    "dash": ("spd", 2, 1),
    "surprise": ("front", 2, 0),
    "powerful": (None, 0, 0),
    "heavy": ("atk", 2, 0),
    "save": ("cost", -1, 0),
    "charge": ("gain", 1, 0),
}
"""図7: option -> (stat, change, dash cost)."""
TA_OPTIONS: dict[str, tuple[str | None, int, int]] = {
    "super-dash": ("spd", 4, 2),
    "big-surprise": ("front", 3, 0),
    "powerfulya": (None, 0, 0),
    "super-heavy": ("atk", 4, 0),
    "big-save": ("cost", -2, 0),
    "big-charge": ("gain", 2, 0),
}
"""図8: option -> (stat, change, dash cost)."""
FACE_DOWN_OPTIONS = frozenset({"powerful", "powerfulya"})
OPTION_JA = {
    "dash": "ダッシュ",
    "surprise": "サプライズド",
    "powerful": "パワフル",
    "heavy": "ヘビー",
    "save": "セーブ",
    "charge": "チャージ",
    "super-dash": "猛ダッシュ",
    "big-surprise": "大サプライズド",
    "powerfulya": "パワフリャア",
    "super-heavy": "超ヘビー",
    "big-save": "大セーブ",
    "big-charge": "大チャージ",
}
_INDEX = {name: i for i, name in enumerate(STATS)}


def option_name(option: str, lang: str) -> str:
    """A DA/TA option's name in ``lang``: 大サプライズド / Big Surprise."""
    if lang == "ja":
        return OPTION_JA.get(option, option)
    return option.replace("-", " ").title()


# Bet modes: which checks of §7.4 apply.
FB, EVEN, FORCE, GC, BONUS = "fb", "even", "force", "gc", "bonus"


@dataclass(frozen=True, slots=True)
class BetPlan:
    """A legal bet as step 6 fixes it: the card, copies, option, locked data and the units."""

    cid: str
    n: int
    option: str | None
    data: tuple[int, ...]
    cost: int
    helper: int
    dash: int

    @property
    def units(self) -> int:
        """Gauge units owed: cost + helper cost + dash cost."""
        return self.cost + self.helper + self.dash


def option_table(n: int) -> dict[str, tuple[str | None, int, int]]:
    """The option table of an ``n``-card bet (図7 for 2, 図8 for 3, none for 1)."""
    return DA_OPTIONS if n == 2 else TA_OPTIONS if n == 3 else {}


def decider(state: MakenState) -> int:
    """The seat the pending prompt asks."""
    phase = state.phase
    if phase == "mulligan":
        return state.tp if state.mulled[state.tp] < 0 else 1 - state.tp
    if phase in ("draw", "pre", "fb"):
        return state.tp
    if phase == "pay":
        assert state.bet is not None
        return int(state.bet["seat"])
    if phase == "bonus":
        assert state.judge is not None
        return int(state.judge["hitter"])
    return state.actor


# -- abilities ------------------------------------------------------------------------------


def has_tag(state: MakenState, entry: list[int] | None, tag: str) -> bool:
    """Whether a field entry exists, is face-up and has ``tag``."""
    return entry is not None and not entry[DOWN] and tag in state.card(entry[INST]).tags


def chain_below(state: MakenState, seat: int, index: int) -> list[int] | None:
    """The nearest face-up entry below field position ``index`` of ``seat``."""
    for entry in reversed(state.field[seat][:index]):
        if not entry[DOWN]:
            return entry
    return None


def condition(state: MakenState, ab: Ability, owner: int, bet: Json | None) -> bool:
    """Whether an ability's condition holds for its owner (``bet``: the bet in progress)."""
    cond = ab.cond
    if cond is None:
        return True
    if cond == "guarded":
        return state.sit == "guard" and state.guarding == 1 - owner
    if cond == "top":
        return has_tag(state, state.top(owner), ab.tag or "")
    if bet is None:
        return False
    if cond == "rv":
        return bool(bet["rv"])
    if cond == "costly":
        return int(bet["main_cost"]) >= 1
    if cond == "multi":
        return int(bet["n"]) >= 2
    if cond == "chain":
        seat = int(bet["seat"])
        return has_tag(state, chain_below(state, seat, len(state.field[seat]) - 1), ab.tag or "")
    return False


def modify(data: list[int], stat: str, n: int) -> None:
    """Apply ``mod(stat, n)`` to a data list, clamping at 0 after each change (S注3)."""
    for name in ("front", "back") if stat == "range" else (stat,):
        i = _INDEX[name]
        data[i] = max(0, data[i] + n)


def opened_in_order(state: MakenState, seat: int) -> list[list[int]]:
    """The seat's opened support entries in opening order."""
    return sorted((e for e in state.support[seat] if e[S_OPEN]), key=lambda e: e[S_SEQ])


def hand_mods(state: MakenState, seat: int) -> list[tuple[str, int]]:
    """Steps 1–4's changes to the data of any of ``seat``'s hand cards, in the order they apply:
    the HAND abilities of the opened supports and face-up field cards whose condition holds.
    They do not depend on the card, so a list of bets computes them once."""
    out: list[tuple[str, int]] = []
    opp = 1 - seat
    sources = (
        (opened_in_order(state, seat), S_INST, "HAND_OWN", seat),
        (opened_in_order(state, opp), S_INST, "HAND_OPP", opp),
        ([e for e in state.field[seat] if not e[DOWN]], INST, "HAND_OWN", seat),
        ([e for e in state.field[opp] if not e[DOWN]], INST, "HAND_OPP", opp),
    )
    for entries, slot, timing, owner in sources:
        for entry in entries:
            for ab in state.card(entry[slot]).abilities:
                if ab.timing == timing and condition(state, ab, owner, None):
                    out.append((ab.stat or "", ab.n))
    return out


def hand_view(
    state: MakenState, seat: int, cid: str, mods: list[tuple[str, int]] | None = None
) -> list[int]:
    """Steps 1–4: a hand card's data under the opened supports and face-up field cards
    (``mods``: :func:`hand_mods` of the state and seat, when the caller has them)."""
    data = list(state.pool.card[cid].data)
    for stat, n in hand_mods(state, seat) if mods is None else mods:
        modify(data, stat, n)
    return data


def helper_cost(state: MakenState, seat: int, card: Card) -> int:
    """The helper cost of betting or opening ``card`` now (§8.4): 2 or 0."""
    if card.character in (state.chars[seat], "GE"):
        return 0
    helper = state.helper[seat]
    if helper and state.card(helper[0]).character == card.character:
        return 0
    return 2


def face_up_count(state: MakenState, seat: int) -> int:
    """Face-up cards in the seat's attack field (instant gauge, §8.3)."""
    return sum(1 for e in state.field[seat] if not e[DOWN])


class BetContext:
    """What the candidate bets of one seat in one state share (steps 1–6): the hand-view
    changes, 無防備 on both sides, the opponent's top entry, the names on the seat's field, the
    units it can pay, its hand's copies of each card and each card's hand view. A list of bets
    computes them once; the state must not change while the context is used."""

    __slots__ = (
        "copies",
        "defenceless",
        "foe_defenceless",
        "funds",
        "mods",
        "names",
        "top",
        "views",
    )

    def __init__(self, state: MakenState, seat: int) -> None:
        self.mods = hand_mods(state, seat)
        self.defenceless = state.defenceless(seat)
        self.foe_defenceless = state.defenceless(1 - seat)
        self.top = state.top(1 - seat)
        self.names = {state.card(e[INST]).name_ja for e in state.field[seat]}
        self.funds = len(state.gauge[seat]) + face_up_count(state, seat)
        copies: dict[str, int] = {}
        for i in state.hand[seat]:
            cid = state.cards[i]
            copies[cid] = copies.get(cid, 0) + 1
        self.copies = copies
        self.views: dict[str, tuple[int, ...]] = {}

    def may_bet(self, card: Card, mode: str) -> bool:
        """The checks of step 6 that no option changes: 無防備 and the RV labels, ``no-fb``
        in a first bet, no card of the same name on the seat's field."""
        labels = card.labels
        if self.defenceless:
            if not ("rv-only" in labels or "rv-ok" in labels):
                return False
        elif "rv-only" in labels:
            return False
        if mode == FB and "no-fb" in labels:
            return False
        return card.name_ja not in self.names

    def hand_view(self, state: MakenState, seat: int, cid: str) -> list[int]:
        """:func:`hand_view` of the card (a new list each time)."""
        view = self.views.get(cid)
        if view is None:
            view = self.views[cid] = tuple(hand_view(state, seat, cid, self.mods))
        return list(view)


def plan_bet(
    state: MakenState,
    seat: int,
    cid: str,
    n: int,
    option: str | None,
    mode: str,
    context: BetContext | None = None,
) -> BetPlan | None:
    """Steps 5–6 for one candidate: the plan if the bet is legal in ``mode``, else ``None``
    (``context``: the :class:`BetContext` of the state and seat, when the caller has one)."""
    card = state.pool.card[cid]
    if card.kind != "attack":
        return None
    table = option_table(n)
    if (option is None) != (n == 1) or (option is not None and option not in table):
        return None
    ctx = BetContext(state, seat) if context is None else context
    if ctx.copies.get(cid, 0) < n or not ctx.may_bet(card, mode):
        return None
    data = ctx.hand_view(state, seat, cid)
    dash = 0
    if option is not None:
        stat, change, dash = table[option]
        if stat is not None:
            modify(data, stat, change)
    labels = card.labels
    top = ctx.top
    if mode in (EVEN, GC) and top is not None and (data[0] < top[SPD] or data[1] < top[BACK]):
        return None
    if mode == FB and data[1] == 0 and not ctx.foe_defenceless and "ambush" not in labels:
        return None
    helper = helper_cost(state, seat, card)
    if data[4] + helper + dash > ctx.funds:
        return None
    return BetPlan(cid, n, option, tuple(data), data[4], helper, dash)


_CARD_WORD = re.compile(r"(so|ri|mi|ga|ge)[0-9]{2}")
"""A card's word in an action: its id in lower case (``so03``)."""


def bet_word(cid: str, n: int) -> str:
    """The bet's card word: ``so03``, ``so09x2`` (a card's word is its id in lower case)."""
    return cid.lower() + ("" if n == 1 else f"x{n}")


def parse_bet(args: tuple[str | int, ...]) -> tuple[str, int, str | None]:
    """The card id, copies and option of a bet's action arguments."""
    word = str(args[0])
    n = 1
    if len(word) > 2 and word[-2] == "x" and word[-1] in "23":
        word, n = word[:-2], int(word[-1])
    if not _CARD_WORD.fullmatch(word):
        raise ValueError(f"unknown card {word!r}")
    option = str(args[1]) if len(args) > 1 else None
    return word.upper(), n, option


def bets(state: MakenState, seat: int, mode: str) -> Iterable[BetPlan]:
    """Every legal bet of ``seat`` in ``mode``, in a fixed order."""
    counts: dict[str, int] = {}
    for i in state.hand[seat]:
        cid = state.cards[i]
        if state.pool.card[cid].kind == "attack":
            counts[cid] = counts.get(cid, 0) + 1
    if not counts:
        return
    context = BetContext(state, seat)
    for cid in sorted(counts):
        if not context.may_bet(state.pool.card[cid], mode):
            continue  # (no copy count or option can make it legal)
        for n in range(1, min(3, counts[cid]) + 1):
            for option in option_table(n) or (None,):
                plan = plan_bet(state, seat, cid, n, option, mode, context)
                if plan is not None:
                    yield plan


def bet_action(verb: str, plan: BetPlan) -> Action:
    """The action of a bet plan under ``verb`` (fb, attack, gc, bonus)."""
    word = bet_word(plan.cid, plan.n)
    return Action.of(verb, word) if plan.option is None else Action.of(verb, word, plan.option)


def open_cost(state: MakenState, seat: int, inst: int) -> int:
    """What opening a set support card costs from the gauge (cost + helper cost)."""
    card = state.card(inst)
    return card.cost + helper_cost(state, seat, card)


def _open_actions(state: MakenState, seat: int) -> list[Action]:
    names = sorted(
        {
            state.cards[e[S_INST]]
            for e in state.support[seat]
            if not e[S_OPEN] and open_cost(state, seat, e[S_INST]) <= len(state.gauge[seat])
        }
    )
    return [Action.of("open", c.lower()) for c in names]


def _pre_actions(state: MakenState, seat: int) -> list[Action]:
    out: list[Action] = []
    cap = state.cfg.support_cap
    if cap is None or len(state.support[seat]) < cap:
        names = sorted(
            {state.cards[i] for i in state.hand[seat] if state.card(i).kind == "support"}
        )
        out += [Action.of("set", c.lower()) for c in names]
    out += _open_actions(state, seat)
    opened = sorted({state.cards[e[S_INST]] for e in state.support[seat] if e[S_OPEN]})
    closed = sorted({state.cards[e[S_INST]] for e in state.support[seat] if not e[S_OPEN]})
    out += [Action.of("clear", c.lower()) for c in opened]
    out += [Action.of("clear-set", c.lower()) for c in closed]
    out.append(Action.of("end"))
    return out


def _act_actions(state: MakenState, seat: int) -> list[Action]:
    out = _open_actions(state, seat)
    opp = 1 - seat
    if state.sit == "even":
        out += [bet_action("attack", p) for p in bets(state, seat, EVEN)]
        if not state.defenceless(seat):
            out.append(Action.of("guard"))
        out.append(Action.of("judge"))
    elif state.guarding == seat:
        out += [bet_action("gc", p) for p in bets(state, seat, GC)]
        out.append(Action.of("guard"))
    else:
        out += [bet_action("attack", p) for p in bets(state, seat, FORCE)]
        if state.total(seat) > state.total(opp):
            out.append(Action.of("gb"))
        out.append(Action.of("judge"))
    return out


def pay_actions(state: MakenState) -> list[Action]:
    """The ``pay`` prompt: a cancel per eligible card not yet picked; pay the rest if it fits."""
    bet = state.bet
    assert bet is not None
    seat = int(bet["seat"])
    picks = list(bet["picks"])
    out = [Action.of("cancel", state.card(i).slug) for i in bet["eligible"] if i not in picks]
    if int(bet["units"]) - len(picks) <= len(state.gauge[seat]):
        out.append(Action.of("pay-rest-from-gauge"))
    return out


def legal_actions(state: MakenState) -> list[Action]:
    """The legal answers to the pending prompt (§7.8), in a fixed order."""
    phase = state.phase
    seat = decider(state)
    if phase == "mulligan":
        return [Action.of("keep"), Action.of("mulligan")]
    if phase == "draw":
        limit = 2 if state.turn == 1 else 3
        return [Action.of("draw", n) for n in range(1, min(limit, len(state.stamina[seat])) + 1)]
    if phase == "pre":
        return _pre_actions(state, seat)
    if phase == "fb":
        return [bet_action("fb", p) for p in bets(state, seat, FB)]
    if phase == "act":
        return _act_actions(state, seat)
    if phase == "pay":
        return pay_actions(state)
    if phase == "bonus":
        return [bet_action("bonus", p) for p in bets(state, seat, BONUS)] + [Action.of("decline")]
    return []


def front_back(entry: list[int]) -> tuple[int, int]:
    """A field entry's (front, back)."""
    return entry[FRONT], entry[BACK]


__all__ = ["ATK", "BetPlan", "legal_actions", "plan_bet"]

"""Who decides, the hand view of a bet (steps 1–5 of maken.md §8.1), legality (step 6, §7.4)
and the legal actions of every prompt (§7.8).

A *bet* is written ``<slug>`` (one card), ``<slug>x2 <図7 option>`` (DA) or ``<slug>x3 <図8
option>`` (TA), e.g. ``attack so09x2 powerful``.
"""

from __future__ import annotations

import re
from typing import Final

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
    CardInfo,
    MakenState,
    decider,
    pool_info,
)

DA_OPTIONS: Final[dict[str, tuple[str | None, int, int]]] = {
    "dash": ("spd", 2, 1),
    "surprise": ("front", 2, 0),
    "powerful": (None, 0, 0),
    "heavy": ("atk", 2, 0),
    "save": ("cost", -1, 0),
    "charge": ("gain", 1, 0),
}
"""図7: option -> (stat, change, dash cost)."""
TA_OPTIONS: Final[dict[str, tuple[str | None, int, int]]] = {
    "super-dash": ("spd", 4, 2),
    "big-surprise": ("front", 3, 0),
    "powerfulya": (None, 0, 0),
    "super-heavy": ("atk", 4, 0),
    "big-save": ("cost", -2, 0),
    "big-charge": ("gain", 2, 0),
}
"""図8: option -> (stat, change, dash cost)."""
FACE_DOWN_OPTIONS: Final = frozenset({"powerful", "powerfulya"})
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
_INDEX: Final = {name: i for i, name in enumerate(STATS)}


def option_name(option: str, lang: str) -> str:
    """A DA/TA option's name in ``lang``: 大サプライズド / Big Surprise."""
    if lang == "ja":
        return OPTION_JA.get(option, option)
    return option.replace("-", " ").title()


# Bet modes: which checks of §7.4 apply.
FB: Final = "fb"
EVEN: Final = "even"
FORCE: Final = "force"
GC: Final = "gc"
BONUS: Final = "bonus"
_NO_OPTIONS: Final[dict[str, tuple[str | None, int, int]]] = {}
# The actions without a card (interned: the same objects as ``Action.of`` gives).
_KEEP: Final = Action.of("keep")
_MULLIGAN: Final = Action.of("mulligan")
_END: Final = Action.of("end")
_GUARD: Final = Action.of("guard")
_JUDGE: Final = Action.of("judge")
_GB: Final = Action.of("gb")
_PAY_REST: Final = Action.of("pay-rest-from-gauge")
_DECLINE: Final = Action.of("decline")
_DRAWS: Final = [Action.of("draw", n) for n in (1, 2, 3)]
_CARD_ACTIONS: Final[dict[str, dict[str, Action]]] = {}


def card_action(verb: str, cid: str) -> Action:
    """The action ``verb <card word>`` (``open so21``) of card ``cid`` (remembered)."""
    by_card = _CARD_ACTIONS.get(verb)
    if by_card is None:
        by_card = _CARD_ACTIONS[verb] = {}
    action = by_card.get(cid)
    if action is None:
        action = by_card[cid] = Action.of(verb, cid.lower())
    return action


class BetPlan:
    """A legal bet as step 6 fixes it: the card, copies, option, locked data and the units.

    A value with read-only fields; a plain slotted class rather than a frozen dataclass
    because every list of legal bets builds one per bet, and a frozen dataclass costs several
    times as much to build."""

    __slots__ = ("cid", "cost", "dash", "data", "helper", "n", "option")
    __match_args__ = ("cid", "n", "option", "data", "cost", "helper", "dash")

    def __init__(
        self,
        cid: str,
        n: int,
        option: str | None,
        data: tuple[int, ...],
        cost: int,
        helper: int,
        dash: int,
    ) -> None:
        self.cid: Final = cid
        self.n: Final = n
        self.option: Final = option
        self.data: Final = data
        self.cost: Final = cost
        self.helper: Final = helper
        self.dash: Final = dash

    def _fields(self) -> tuple[str, int, str | None, tuple[int, ...], int, int, int]:
        return (self.cid, self.n, self.option, self.data, self.cost, self.helper, self.dash)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BetPlan):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"BetPlan(cid={self.cid!r}, n={self.n!r}, option={self.option!r}, "
            f"data={self.data!r}, cost={self.cost!r}, helper={self.helper!r}, dash={self.dash!r})"
        )

    @property
    def units(self) -> int:
        """Gauge units owed: cost + helper cost + dash cost."""
        return self.cost + self.helper + self.dash


def option_table(n: int) -> dict[str, tuple[str | None, int, int]]:
    """The option table of an ``n``-card bet (図7 for 2, 図8 for 3, none for 1)."""
    return DA_OPTIONS if n == 2 else TA_OPTIONS if n == 3 else _NO_OPTIONS


# -- abilities ------------------------------------------------------------------------------


def has_tag(state: MakenState, entry: list[int] | None, tag: str) -> bool:
    """Whether a field entry exists, is face-up and has ``tag``."""
    return entry is not None and not entry[DOWN] and tag in state.info(entry[INST]).tags


def chain_below(state: MakenState, seat: int, index: int) -> list[int] | None:
    """The nearest face-up entry below field position ``index`` of ``seat``."""
    for entry in reversed(state.field[seat][:index]):
        if not entry[DOWN]:
            return entry
    return None


def condition(state: MakenState, ab: Ability, owner: int, bet: Json | None) -> bool:
    """Whether an ability's condition holds for its owner (``bet``: the bet in progress)."""
    return holds(state, ab.cond, ab.tag, owner, bet)


def holds(
    state: MakenState, cond: str | None, tag: str | None, owner: int, bet: Json | None
) -> bool:
    """Whether an ability's condition ``cond`` (with its ``tag``) holds for its owner (see
    :func:`condition`)."""
    if cond is None:
        return True
    if cond == "guarded":
        return state.sit == "guard" and state.guarding == 1 - owner
    if cond == "top":
        return has_tag(state, state.top(owner), tag or "")
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
        return has_tag(state, chain_below(state, seat, len(state.field[seat]) - 1), tag or "")
    return False


def modify(data: list[int], stat: str, n: int) -> None:
    """Apply ``mod(stat, n)`` to a data list, clamping at 0 after each change (S注3)."""
    if stat == "range":
        modify(data, "front", n)
        modify(data, "back", n)
        return
    i = _INDEX[stat]
    data[i] = max(0, data[i] + n)


def _seq(entry: list[int]) -> int:
    return entry[S_SEQ]


def opened_in_order(state: MakenState, seat: int) -> list[list[int]]:
    """The seat's opened support entries in opening order."""
    opened = [e for e in state.support[seat] if e[S_OPEN]]
    if len(opened) > 1:
        opened.sort(key=_seq)
    return opened


def hand_mods(state: MakenState, seat: int) -> list[tuple[str, int]]:
    """Steps 1–4's changes to the data of any of ``seat``'s hand cards, in the order they apply:
    the HAND abilities of the opened supports and face-up field cards whose condition holds.
    They do not depend on the card, so a list of bets computes them once."""
    out: list[tuple[str, int]] = []
    opp = 1 - seat
    infos = pool_info(state.pool)
    cards = state.cards
    if state.support[seat]:
        for entry in opened_in_order(state, seat):
            _hand_abilities(state, infos[cards[entry[S_INST]]], "HAND_OWN", seat, out)
    if state.support[opp]:
        for entry in opened_in_order(state, opp):
            _hand_abilities(state, infos[cards[entry[S_INST]]], "HAND_OPP", opp, out)
    for entry in state.field[seat]:
        if not entry[DOWN]:
            _hand_abilities(state, infos[cards[entry[INST]]], "HAND_OWN", seat, out)
    for entry in state.field[opp]:
        if not entry[DOWN]:
            _hand_abilities(state, infos[cards[entry[INST]]], "HAND_OPP", opp, out)
    return out


def _hand_abilities(
    state: MakenState, card: CardInfo, timing: str, owner: int, out: list[tuple[str, int]]
) -> None:
    """Append the changes of ``card``'s ``timing`` abilities whose condition holds to ``out``."""
    for ab in card.abilities:
        if ab.timing == timing and holds(state, ab.cond, ab.tag, owner, None):
            out.append((ab.stat or "", ab.n))


def hand_view(
    state: MakenState, seat: int, cid: str, mods: list[tuple[str, int]] | None = None
) -> list[int]:
    """Steps 1–4: a hand card's data under the opened supports and face-up field cards
    (``mods``: :func:`hand_mods` of the state and seat, when the caller has them)."""
    data = list(pool_info(state.pool)[cid].data)
    for stat, n in hand_mods(state, seat) if mods is None else mods:
        modify(data, stat, n)
    return data


def helper_cost(state: MakenState, seat: int, card: Card) -> int:
    """The helper cost of betting or opening ``card`` now (§8.4): 2 or 0."""
    return character_helper_cost(state, seat, card.character)


def character_helper_cost(state: MakenState, seat: int, character: str) -> int:
    """The helper cost of betting or opening a card of ``character`` now (§8.4): 2 or 0."""
    if character == state.chars[seat] or character == "GE":
        return 0
    helper = state.helper[seat]
    if helper and state.info(helper[0]).character == character:
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
        "infos",
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
        infos = self.infos = pool_info(state.pool)
        cards = state.cards
        field = state.field[seat]
        self.names = {infos[cards[e[INST]]].name_ja for e in field}
        self.funds = len(state.gauge[seat]) + sum(1 for e in field if not e[DOWN])
        copies: dict[str, int] = {}
        for i in state.hand[seat]:
            cid = cards[i]
            copies[cid] = copies.get(cid, 0) + 1
        self.copies = copies
        self.views: dict[str, tuple[int, ...]] = {}

    def may_bet(self, card: CardInfo, mode: str) -> bool:
        """The checks of step 6 that no option changes: 無防備 and the RV labels, ``no-fb``
        in a first bet, no card of the same name on the seat's field."""
        if self.defenceless:
            if not (card.rv_only or card.rv_ok):
                return False
        elif card.rv_only:
            return False
        if mode == FB and card.no_fb:
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
    card = pool_info(state.pool)[cid]
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
    top = ctx.top
    if mode in (EVEN, GC) and top is not None and (data[0] < top[SPD] or data[1] < top[BACK]):
        return None
    if mode == FB and data[1] == 0 and not ctx.foe_defenceless and not card.ambush:
        return None
    helper = character_helper_cost(state, seat, card.character)
    if data[4] + helper + dash > ctx.funds:
        return None
    return BetPlan(cid, n, option, tuple(data), data[4], helper, dash)


_CARD_WORD: Final = re.compile(r"(so|ri|mi|ga|ge)[0-9]{2}")
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


def bets(state: MakenState, seat: int, mode: str) -> list[BetPlan]:
    """Every legal bet of ``seat`` in ``mode``, in a fixed order."""
    out: list[BetPlan] = []
    infos = pool_info(state.pool)
    cards = state.cards
    counts: dict[str, int] = {}
    for i in state.hand[seat]:
        cid = cards[i]
        if infos[cid].kind == "attack":
            counts[cid] = counts.get(cid, 0) + 1
    if not counts:
        return out
    context = BetContext(state, seat)
    for cid in sorted(counts):
        if not context.may_bet(infos[cid], mode):
            continue  # (no copy count or option can make it legal)
        for n in range(1, min(3, counts[cid]) + 1):
            if n == 1:
                plan = plan_bet(state, seat, cid, 1, None, mode, context)
                if plan is not None:
                    out.append(plan)
                continue
            for option in option_table(n):
                plan = plan_bet(state, seat, cid, n, option, mode, context)
                if plan is not None:
                    out.append(plan)
    return out


_BET_ACTIONS: Final[dict[tuple[str, str, int, str | None], Action]] = {}


def bet_action(verb: str, plan: BetPlan) -> Action:
    """The action of a bet plan under ``verb`` (fb, attack, gc, bonus)."""
    key = (verb, plan.cid, plan.n, plan.option)
    action = _BET_ACTIONS.get(key)
    if action is None:
        word = bet_word(plan.cid, plan.n)
        action = (
            Action.of(verb, word) if plan.option is None else Action.of(verb, word, plan.option)
        )
        _BET_ACTIONS[key] = action
    return action


def _bet_actions(
    state: MakenState,
    seat: int,
    mode: str,
    verb: str,
    out: list[Action],
    plans: dict[Action, BetPlan] | None,
) -> None:
    """Append the actions of the seat's legal bets in ``mode`` under ``verb`` to ``out`` (and
    their plans by action to ``plans``)."""
    for plan in bets(state, seat, mode):
        action = bet_action(verb, plan)
        out.append(action)
        if plans is not None:
            plans[action] = plan


def open_cost(state: MakenState, seat: int, inst: int) -> int:
    """What opening a set support card costs from the gauge (cost + helper cost)."""
    card = state.info(inst)
    return card.cost + character_helper_cost(state, seat, card.character)


def _open_actions(state: MakenState, seat: int) -> list[Action]:
    support = state.support[seat]
    if not support:
        return []
    names = sorted(
        {
            state.cards[e[S_INST]]
            for e in support
            if not e[S_OPEN] and open_cost(state, seat, e[S_INST]) <= len(state.gauge[seat])
        }
    )
    return [card_action("open", c) for c in names]


def _pre_actions(state: MakenState, seat: int) -> list[Action]:
    out: list[Action] = []
    cap = state.cfg.support_cap
    support = state.support[seat]
    if cap is None or len(support) < cap:
        infos = pool_info(state.pool)
        cards = state.cards
        names = sorted({cards[i] for i in state.hand[seat] if infos[cards[i]].kind == "support"})
        out += [card_action("set", c) for c in names]
    if support:
        out += _open_actions(state, seat)
        opened = sorted({state.cards[e[S_INST]] for e in support if e[S_OPEN]})
        closed = sorted({state.cards[e[S_INST]] for e in support if not e[S_OPEN]})
        out += [card_action("clear", c) for c in opened]
        out += [card_action("clear-set", c) for c in closed]
    out.append(_END)
    return out


def _act_actions(state: MakenState, seat: int, plans: dict[Action, BetPlan] | None) -> list[Action]:
    out = _open_actions(state, seat)
    opp = 1 - seat
    if state.sit == "even":
        _bet_actions(state, seat, EVEN, "attack", out, plans)
        if not state.defenceless(seat):
            out.append(_GUARD)
        out.append(_JUDGE)
    elif state.guarding == seat:
        _bet_actions(state, seat, GC, "gc", out, plans)
        out.append(_GUARD)
    else:
        _bet_actions(state, seat, FORCE, "attack", out, plans)
        if state.total(seat) > state.total(opp):
            out.append(_GB)
        out.append(_JUDGE)
    return out


def pay_actions(state: MakenState) -> list[Action]:
    """The ``pay`` prompt: a cancel per eligible card not yet picked; pay the rest if it fits."""
    bet = state.bet
    assert bet is not None
    seat = int(bet["seat"])
    picks = list(bet["picks"])
    out = [card_action("cancel", state.cards[i]) for i in bet["eligible"] if i not in picks]
    if int(bet["units"]) - len(picks) <= len(state.gauge[seat]):
        out.append(_PAY_REST)
    return out


def legal_actions(state: MakenState, plans: dict[Action, BetPlan] | None = None) -> list[Action]:
    """The legal answers to the pending prompt (§7.8), in a fixed order (``plans``: filled
    with the plan of each bet among them, by action)."""
    phase = state.phase
    seat = decider(state)
    if phase == "mulligan":
        return [_KEEP, _MULLIGAN]
    if phase == "draw":
        limit = 2 if state.turn == 1 else 3
        return _DRAWS[: min(limit, len(state.stamina[seat]))]
    if phase == "pre":
        return _pre_actions(state, seat)
    out: list[Action] = []
    if phase == "fb":
        _bet_actions(state, seat, FB, "fb", out, plans)
        return out
    if phase == "act":
        return _act_actions(state, seat, plans)
    if phase == "pay":
        return pay_actions(state)
    if phase == "bonus":
        _bet_actions(state, seat, BONUS, "bonus", out, plans)
        out.append(_DECLINE)
        return out
    return out


def decide(state: MakenState) -> list[Action]:
    """:func:`legal_actions`, kept as the state's cache of the decision (``state.legal``) with
    the plans of its bets (``state.plans``, valid while ``state.plans_for`` is that list:
    ``apply`` places a bet by its plan instead of planning it again)."""
    plans: dict[Action, BetPlan] = {}
    legal = legal_actions(state, plans)
    state.legal = legal
    state.plans = plans
    state.plans_for = legal
    return legal


def front_back(entry: list[int]) -> tuple[int, int]:
    """A field entry's (front, back)."""
    return entry[FRONT], entry[BACK]


__all__ = ["ATK", "BetPlan", "decider", "legal_actions", "plan_bet"]

"""Why a Maken card or option cannot be chosen now: one reason per own card that no legal action
names, and one per standard option the prompt does not offer, as a code with parameters.

Which cards and options are usable comes from ``legal_actions`` itself; the reasons explain
them with the rules' own checks, in the order :func:`kessen.games.maken.rules.plan_bet` makes
them (maken.md §7.4, §8.1 step 6): 【RV専用】 and 無防備 (§7.7), the speed and distance check
against the opposing top card, FB不可 and the 先間合0 first bet, the same-name principle, and
what the seat can pay (gauge + face-up attack cards). A card gets the reason of its single bet
(a DA or TA that would pass makes it usable, and it then has no reason).

:func:`unplayable_reasons` lists, for the seat's own view only:

- ``zone: "hand"``: every hand card no legal action names (all of them when the decision is not
  the seat's), with ``index`` (place in the view's sorted hand) and ``card``;
- ``zone: "support"``: every own support card (set or opened) no legal action names, with
  ``index`` (place in the view's support list) and ``card``;
- ``zone: "field"``: at the seat's pay prompt, every own attack-field card it may not cancel;
- ``zone: "action"``: the standard options the page always shows (ガード, ガードブレイク,
  ジャッジ in the exchange; ドロー 1–3; 残りをゲージで支払う) when not legal, with ``action``.

The words, in Japanese and English, are :func:`reason_text`'s. Everything read here is the
seat's own hand and support cards and public data (counts, fields, the situation).
"""

from __future__ import annotations

from kessen.engine.contract import Json
from kessen.games.maken.cards import SHIPPED_POOL, MakenPool
from kessen.games.maken.rules import (
    BONUS,
    EVEN,
    FB,
    FORCE,
    GC,
    decider,
    face_up_count,
    hand_view,
    helper_cost,
    open_cost,
)
from kessen.games.maken.state import BACK, DOWN, INST, S_INST, S_OPEN, SPD, MakenState

REASON_CODES = (
    "not_your_turn",
    "busy",
    "pre_attack",
    "support_full",
    "support_timing",
    "rv_only",
    "defenceless",
    "slow",
    "far",
    "slow_far",
    "no_fb",
    "front_zero",
    "same_name",
    "cost",
    "open_cost",
    "in_play",
    "open_timing",
    "cancel_new",
    "cancel_down",
    "cancel_picked",
    "cancel_timing",
    "guard_defenceless",
    "guard_forcing",
    "gb_not_forcing",
    "gb_total",
    "judge_guarding",
    "draw_first_turn",
    "draw_stamina",
    "pay_short",
    "no_use",
)
"""Every reason code, hand and support reasons first, then the options'."""

_PROMPT = {
    "ja": {"mulligan": "マリガン", "draw": "ドロー", "pay": "支払い"},
    "en": {"mulligan": "the mulligan", "draw": "the draw", "pay": "the payment"},
}

_TEXT = {
    "ja": {
        "not_your_turn": "相手の選択を待っています。",
        "busy": "いまは{prompt}の選択です。手札は使いません。",
        "pre_attack": "アタック前は補助カードのセットとオープンだけです。攻撃カードは"
        "アタックフェイズでベットします。",
        "support_full": "補助フィールドが満杯です（{n}/{cap}枚）。",
        "support_timing": "補助カードはアタック前にだけセットできます。",
        "rv_only": "【RV専用】：無防備のときのリバーサルでしかベットできません。",
        "defenceless": "無防備のあいだは【RV専用】【RV可能】のカードしかベットできません。",
        "slow": "速度{spd}が相手のトップ「{top}」の速度{need}に届きません（速度チェック）。",
        "far": "先間合{front}が相手のトップ「{top}」の後間合{need}に届きません（間合チェック）。",
        "slow_far": "速度{spd}・先間合{front}が相手のトップ「{top}」の速度{need_spd}・"
        "後間合{need_back}に届きません。",
        "no_fb": "FB不可：ファーストベットには使えません。",
        "front_zero": "先間合0のカードは、相手が無防備か【奇襲】のときしか"
        "ファーストベットできません。",
        "same_name": "同名の「{name}」が自分のアタックフィールドにあります"
        "（同じの出さないでの原則）。",
        "cost": "支払えません：ゲージ消費{cost}＋助っ人コスト{helper}＝{units}枚が必要ですが、"
        "払えるのはゲージ札{gauge}枚と表向きのカード{up}枚です。",
        "open_cost": "オープンにはゲージ札{units}枚（ゲージ消費{cost}・助っ人{helper}）が"
        "必要ですが、{gauge}枚です（即ゲージ消費は使えません）。",
        "in_play": "オープン中の補助カードです。片付けられるのはアタック前だけです。",
        "open_timing": "セットした補助カードをオープンできるのは、アタック前と"
        "攻防で行動するときです。",
        "cancel_new": "いまベットしたカードはキャンセルに使えません。",
        "cancel_down": "裏向きのカードは即ゲージ消費に使えません。",
        "cancel_picked": "このカードはもうキャンセルに選びました。",
        "cancel_timing": "アタックフィールドのカードは、ベットの支払いのときだけ"
        "キャンセルに使えます。",
        "guard_defenceless": "無防備のあいだはガードできません。",
        "guard_forcing": "ガードさせている側はガードできません。攻撃を続けるか、"
        "ガードブレイクかジャッジです。",
        "gb_not_forcing": "ガードブレイクは、相手にガードさせているときだけできます。",
        "gb_total": "攻撃値合計{mine}が相手の{theirs}より大きくないので、"
        "ガードブレイクできません。",
        "judge_guarding": "ガードしている側はジャッジできません。ガードキャンセルするか、"
        "ガードを続けます。",
        "draw_first_turn": "第1ターンのドローは2枚までです。",
        "draw_stamina": "スタミナ札が{n}枚しかありません。",
        "pay_short": "残り{left}枚に対してゲージ札が{gauge}枚です。"
        "場のカードをキャンセルして払います。",
        "no_use": "いまは使えません。",
    },
    "en": {
        "not_your_turn": "Waiting for your opponent.",
        "busy": "This is {prompt}; it does not use hand cards.",
        "pre_attack": "Before the attack only support cards are set and opened; attack cards "
        "are bet in the attack phase.",
        "support_full": "The support field is full ({n}/{cap}).",
        "support_timing": "Support cards are set only before the attack.",
        "rv_only": "RV only: it may be bet only as a reversal while defenceless.",
        "defenceless": "While defenceless, only RV-only and RV-ok cards may be bet.",
        "slow": "Speed {spd} does not reach the speed {need} of the opposing top card "
        "({top}): the speed check.",
        "far": "Front distance {front} does not reach the back distance {need} of the opposing "
        "top card ({top}): the distance check.",
        "slow_far": "Speed {spd} and front distance {front} do not reach the speed {need_spd} "
        "and back distance {need_back} of the opposing top card ({top}).",
        "no_fb": "No FB: it cannot be the first bet.",
        "front_zero": "A card of front distance 0 can be the first bet only against a "
        "defenceless opponent or with Ambush.",
        "same_name": "{name} is already in your attack field (the same-name principle).",
        "cost": "Cannot pay: gauge cost {cost} + helper cost {helper} = {units}; you have "
        "{gauge} gauge and {up} face-up card(s).",
        "open_cost": "Opening needs {units} gauge (cost {cost}, helper {helper}); you have "
        "{gauge} (instant gauge does not apply).",
        "in_play": "An opened support card; it can be cleared only before the attack.",
        "open_timing": "A set support card opens before the attack or when you act in the "
        "exchange.",
        "cancel_new": "The card just bet cannot be cancelled for its own cost.",
        "cancel_down": "A face-down card cannot pay instant gauge.",
        "cancel_picked": "Already picked to cancel.",
        "cancel_timing": "Attack-field cards are cancelled only to pay for a bet.",
        "guard_defenceless": "A defenceless player cannot guard.",
        "guard_forcing": "The side making the other guard cannot guard: attack again, break "
        "the guard or call the judge.",
        "gb_not_forcing": "A guard break is made only while the opponent guards.",
        "gb_total": "Your attack total {mine} is not above the opponent's {theirs}: no guard "
        "break.",
        "judge_guarding": "The guarding side cannot call the judge: guard-cancel or keep guarding.",
        "draw_first_turn": "On turn 1 you draw at most 2.",
        "draw_stamina": "Only {n} stamina card(s) left.",
        "pay_short": "{left} left to pay and {gauge} gauge: cancel attack-field cards to pay.",
        "no_use": "Cannot be used now.",
    },
}


def reason_text(
    code: str, params: dict[str, object], lang: str = "ja", pool: MakenPool = SHIPPED_POOL
) -> str:
    """The sentence for a reason code and its parameters (cards named from ``pool``: the
    game's).

    >>> reason_text("gb_total", {"mine": 5, "theirs": 7}, "en")
    "Your attack total 5 is not above the opponent's 7: no guard break."
    """
    if lang not in _TEXT:
        raise ValueError(f"unknown language {lang!r}; expected ja or en")
    words = dict(params)
    for key in ("top", "name"):
        if key in words:
            card = pool.card.get(str(words[key]))
            words[key] = str(words[key]) if card is None else card.name(lang)
    if "prompt" in words:
        words["prompt"] = _PROMPT[lang].get(str(words["prompt"]), str(words["prompt"]))
    return _TEXT[lang][code].format(**words)


Reason = tuple[str, dict[str, object]]


def _mode(state: MakenState, seat: int) -> str:
    """The bet mode of the seat's pending prompt (fb, act or bonus)."""
    if state.phase == "fb":
        return FB
    if state.phase == "bonus":
        return BONUS
    if state.sit == "even":
        return EVEN
    return GC if state.guarding == seat else FORCE


def bet_reason(state: MakenState, seat: int, cid: str, mode: str) -> Reason:
    """Why the single bet of attack card ``cid`` fails in ``mode``: the first check of
    :func:`~kessen.games.maken.rules.plan_bet` it does not pass."""
    card = state.pool.card[cid]
    data = hand_view(state, seat, cid)
    defenceless = state.defenceless(seat)
    if card.has("rv-only") and not defenceless:
        return "rv_only", {}
    if defenceless and not (card.has("rv-only") or card.has("rv-ok")):
        return "defenceless", {}
    top = state.top(1 - seat)
    if mode in (EVEN, GC) and top is not None:
        slow, far = data[0] < top[SPD], data[1] < top[BACK]
        name = state.cards[top[INST]]
        if slow and far:
            return "slow_far", {
                "spd": data[0],
                "front": data[1],
                "need_spd": top[SPD],
                "need_back": top[BACK],
                "top": name,
            }
        if slow:
            return "slow", {"spd": data[0], "need": top[SPD], "top": name}
        if far:
            return "far", {"front": data[1], "need": top[BACK], "top": name}
    if mode == FB:
        if card.has("no-fb"):
            return "no_fb", {}
        if data[1] == 0 and not state.defenceless(1 - seat) and not card.has("ambush"):
            return "front_zero", {}
    if any(state.card(e[INST]).name_ja == card.name_ja for e in state.field[seat]):
        return "same_name", {"name": cid}
    helper = helper_cost(state, seat, card)
    units = data[4] + helper
    gauge, up = len(state.gauge[seat]), face_up_count(state, seat)
    if units > gauge + up:
        return "cost", {"units": units, "cost": data[4], "helper": helper, "gauge": gauge, "up": up}
    return "no_use", {}


def _hand_reason(state: MakenState, seat: int, cid: str) -> Reason:
    """Why hand card ``cid`` has no use in the seat's pending decision."""
    phase = state.phase
    card = state.pool.card[cid]
    if phase in ("mulligan", "draw", "pay"):
        return "busy", {"prompt": phase}
    if phase == "pre":
        if card.kind == "attack":
            return "pre_attack", {}
        cap = state.cfg.support_cap
        if cap is not None and len(state.support[seat]) >= cap:
            return "support_full", {"n": len(state.support[seat]), "cap": cap}
        return "no_use", {}
    if card.kind == "support":
        return "support_timing", {}
    return bet_reason(state, seat, cid, _mode(state, seat))


def _support_reason(state: MakenState, seat: int, entry: list[int]) -> Reason:
    if entry[S_OPEN]:
        return "in_play", {}
    if state.phase != "act" or decider(state) != seat:
        return "open_timing", {}
    card = state.card(entry[S_INST])
    helper = helper_cost(state, seat, card)
    return "open_cost", {
        "units": open_cost(state, seat, entry[S_INST]),
        "cost": card.cost,
        "helper": helper,
        "gauge": len(state.gauge[seat]),
    }


def _field_reasons(state: MakenState, seat: int, named: set[str]) -> list[Json]:
    """At the seat's pay prompt: each own attack-field card it may not cancel."""
    bet = state.bet
    if state.phase != "pay" or bet is None or int(bet["seat"]) != seat:
        return []
    out: list[Json] = []
    new = {int(bet["main"]), *bet["extras"]}
    for index, entry in enumerate(state.field[seat]):
        cid = state.cards[entry[INST]]
        if not entry[DOWN] and cid.lower() in named and entry[INST] not in new:
            continue
        if entry[INST] in bet["picks"]:
            code = "cancel_picked"
        elif entry[INST] in new:
            code = "cancel_new"
        elif entry[DOWN]:
            code = "cancel_down"
        else:
            code = "no_use"
        out.append({"zone": "field", "index": index, "card": cid, "code": code, "params": {}})
    return out


def _action_reasons(state: MakenState, seat: int, legal: set[str]) -> list[Json]:
    """The standard options of the prompt that are not legal now, each with its reason."""
    out: list[Json] = []

    def add(action: str, code: str, params: dict[str, object] | None = None) -> None:
        if action not in legal:
            out.append({"zone": "action", "action": action, "code": code, "params": params or {}})

    phase = state.phase
    if phase == "draw":
        stamina = len(state.stamina[seat])
        for n in (1, 2, 3):
            if n > 2 and state.turn == 1:
                add(f"draw {n}", "draw_first_turn")
            elif n > stamina:
                add(f"draw {n}", "draw_stamina", {"n": stamina})
    elif phase == "act":
        opp = 1 - seat
        if state.sit == "even":
            add("guard", "guard_defenceless")
            add("gb", "gb_not_forcing")
        elif state.guarding == seat:
            add("gb", "gb_not_forcing")
            add("judge", "judge_guarding")
        else:
            add("guard", "guard_forcing")
            add("gb", "gb_total", {"mine": state.total(seat), "theirs": state.total(opp)})
    elif phase == "pay" and state.bet is not None:
        left = int(state.bet["units"]) - len(state.bet["picks"])
        add("pay-rest-from-gauge", "pay_short", {"left": left, "gauge": len(state.gauge[seat])})
    return out


def unplayable_reasons(state: MakenState, seat: int) -> list[Json]:
    """Every own card and standard option ``seat`` may not choose now, each with one reason
    (see the module docstring for the entries)."""
    if state.outcome is not None:
        return []
    mine = state.pending is not None and decider(state) == seat
    legal = state.legal_actions() if mine else []
    named = {str(a.args[0]).split("x")[0] for a in legal if a.args and isinstance(a.args[0], str)}
    out: list[Json] = []
    hand = sorted(state.cards[i] for i in state.hand[seat])
    for index, cid in enumerate(hand):
        if cid.lower() in named:
            continue
        code, params = ("not_your_turn", {}) if not mine else _hand_reason(state, seat, cid)
        out.append({"zone": "hand", "index": index, "card": cid, "code": code, "params": params})
    verbs = {(a.verb, str(a.args[0])) for a in legal if a.args}
    for index, entry in enumerate(state.support[seat]):
        cid = state.cards[entry[S_INST]]
        uses = ("clear",) if entry[S_OPEN] else ("open", "clear-set")
        if any((verb, cid.lower()) in verbs for verb in uses):
            continue
        code, params = _support_reason(state, seat, entry)
        out.append({"zone": "support", "index": index, "card": cid, "code": code, "params": params})
    if mine:
        out += _field_reasons(state, seat, named)
        out += _action_reasons(state, seat, {str(a) for a in legal})
    return out


def why_not(state: MakenState, seat: int, lang: str) -> list[Json]:
    """:func:`unplayable_reasons` with each reason's words in ``lang`` (``text``)."""
    out = unplayable_reasons(state, seat)
    for entry in out:
        entry["text"] = reason_text(entry["code"], entry["params"], lang, state.pool)
    return out

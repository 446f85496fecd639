"""Option previews (``view["previews"]``): what each choice of the deciding seat gives if the
opponent adds nothing more — the bet's locked numbers and the speed and distance check against
the opposing top card, what it costs and how it is paid, who hits at the judge and for how much,
a down, the win.

:func:`option_previews` takes each legal action of the seat's exchange prompts (FB, the
exchange, a payment, a bonus bet) on a copy of the state and runs the copy on with the rules'
own code (``flow.apply``) to the end of the judge, answering every later prompt with the
choice that adds nothing (:func:`nothing_more`): the opponent takes the judge when it may, else
keeps guarding, and declines a bonus bet; the seat itself breaks the guard when it may, else
stops, pays the rest from the gauge (cancelling from the bottom up only for what the gauge
lacks) and declines a bonus bet. The preview's ``predict`` and ``basis`` are the
:func:`kessen.games.maken.record.summarize` of the copy's log as the seat sees it — the same
shapes as the resolution record's ``outcome`` and ``basis``, so whenever the real exchange keeps
the basis, the record's outcome is the prediction (``tests/maken/test_clarity.py``,
``tests/web/test_maken_clarity.py``).

What a preview reads: the seat's own hand and public data. The copy's hidden cards (stamina,
gauge, LP, the opponent's hand) only move as counts: a draw or gauge effect, the damage placed
from the stamina, the LP card of a down; nothing of them enters the preview. The test over
``resample_hidden`` worlds proves the previews the same in every world the seat cannot tell
apart. Opening a support card has no preview (the seat acts again after it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.maken.record import bounds, lower, summarize
from kessen.games.maken.rules import decider
from kessen.games.maken.state import MakenState
from kessen.games.maken.words import Words

PROMPTS = frozenset({"fb", "act", "pay", "bonus"})
"""The prompts whose options are previewed."""
EXCHANGE = frozenset({"act", "pay", "bonus"})
"""The phases of an exchange still open (the judge not yet resolved)."""
LIMIT = 40
"""At most this many answers after the option (an exchange is far shorter)."""

_ASSUME = {
    "opp_accept": (
        "相手がジャッジを選ぶ（ヒットを受ける）",
        "the opponent calls the judge (takes the hit)",
    ),
    "opp_keep_guard": ("相手がガードを続ける", "the opponent keeps guarding"),
    "opp_stop": ("相手が攻撃をやめる", "the opponent stops attacking"),
    "opp_decline": ("相手がボーナスベットをしない", "the opponent makes no bonus bet"),
    "opp_pay": ("相手の支払いはゲージ札から", "the opponent pays from the gauge"),
    "own_gb": ("そのあとあなたがガードブレイクする", "you then break the guard"),
    "own_stop": ("そのあとあなたが攻撃をやめる", "you then stop attacking"),
    "own_accept": ("そのあとあなたがジャッジを選ぶ", "you then call the judge"),
    "own_keep_guard": ("そのあとあなたがガードを続ける", "you then keep guarding"),
    "own_decline": ("ボーナスベットをしない", "you make no bonus bet"),
    "own_pay_gauge": ("残りはゲージ札で払う", "you pay the rest from the gauge"),
    "own_pay_cancel": (
        "ゲージ札で足りない分は下のカードからキャンセル",
        "you cancel from the bottom up what the gauge cannot pay",
    ),
}


def nothing_more(world: MakenState, seat: int) -> tuple[Action, str]:
    """The answer that adds nothing to the exchange, for whoever decides in ``world`` (see the
    module docstring), and the code of the assumption it stands for."""
    legal = world.legal_actions()
    texts = {str(a): a for a in legal}
    who = decider(world)
    own = who == seat
    phase = world.phase
    if phase == "pay":
        if "pay-rest-from-gauge" in texts:
            return texts["pay-rest-from-gauge"], "own_pay_gauge" if own else "opp_pay"
        return next(a for a in legal if a.verb == "cancel"), "own_pay_cancel" if own else "opp_pay"
    if phase == "bonus":
        return texts["decline"], "own_decline" if own else "opp_decline"
    if not own:
        if "judge" in texts:
            return texts["judge"], "opp_accept" if world.sit == "even" else "opp_stop"
        return texts["guard"], "opp_keep_guard"
    if world.sit == "even":
        return texts["judge"], "own_accept"
    if world.guarding == seat:
        return texts["guard"], "own_keep_guard"
    if "gb" in texts:
        return texts["gb"], "own_gb"
    return texts["judge"], "own_stop"


def _attack_start(state: MakenState) -> int:
    """The log index of the attack phase's start (its ``pre-end``), from which a simulated
    exchange's log is read."""
    for i in range(len(state.log) - 1, -1, -1):
        if state.log[i].kind == "pre-end":
            return i
    return 0


def simulate(state: MakenState, seat: int, action: Action) -> tuple[MakenState, list[str]] | None:
    """A copy of ``state`` with ``action`` taken and the exchange run to the end of its judge
    by :func:`nothing_more`; the assumption codes made on the way. ``None`` if it does not end
    within :data:`LIMIT` answers."""
    world = state.clone()
    world.apply(action)
    assumed: list[str] = []
    for _ in range(LIMIT):
        if world.result is not None or world.phase not in EXCHANGE:
            return world, assumed
        answer, code = nothing_more(world, seat)
        if code not in assumed:
            assumed.append(code)
        world.apply(answer)
    return None


def _tail(world: MakenState, seat: int, first: int) -> list[Json]:
    return [e.visible(seat) for e in world.log[first:]]


def _preview(state: MakenState, seat: int, action: Action, first: int, w: Words) -> Json | None:
    run = simulate(state, seat, action)
    if run is None:
        return None
    world, assumed = run
    tail = _tail(world, seat, first)
    found = bounds(tail)
    if found is None:
        return None
    start, _judge, end = found
    outcome, basis = summarize(tail, start, end)
    basis["log_index"] = start + first
    new = tail[len(state.log) - first :]
    lines = _bet_lines(state, seat, action, new, w) + _judge_lines(state, outcome, w)
    tone = w.tone(outcome)
    if outcome["winner"] is not None:
        tone = "good" if outcome["winner"] == seat else "bad"
    parts = [w.say(*_ASSUME[c]) for c in assumed]
    if w.ja:
        assumes = (
            "想定："
            + ("、".join(parts) + "。" if parts else "")
            + "相手はこれ以上カードを出さない。"
        )
    else:
        assumes = (
            "Assumes " + (", ".join(parts) + "; " if parts else "") + "the opponent adds no card."
        )
    return {
        "title": w.verdict(outcome),
        "lines": lines,
        "assumes": assumes,
        "tone": tone,
        "predict": outcome,
        "basis": basis,
    }


def _bet_lines(
    state: MakenState, seat: int, action: Action, new: Sequence[Mapping[str, Any]], w: Words
) -> list[str]:
    """The lines of the option itself: a bet's numbers, check and cost; a GB's totals."""
    opp = 1 - seat
    out: list[str] = []
    if action.verb == "gb":
        out.append(
            w.say(
                f"攻撃値合計 {state.total(seat)} 対 {state.total(opp)}",
                f"attack totals {state.total(seat)} vs {state.total(opp)}",
            )
        )
    elif action.verb == "guard" and state.total(opp) > state.total(seat):
        out.append(
            w.say(
                f"相手の攻撃値合計 {state.total(opp)} はあなたの {state.total(seat)} より大きい："
                "ガードブレイクされうる",
                f"the opponent's attack total {state.total(opp)} is above your "
                f"{state.total(seat)}: a guard break is possible",
            )
        )
    bet = next((e for e in new if e["kind"] == "bet" and e["seat"] == seat), None)
    if bet is None:
        return out
    spd, front, back, atk = bet["data"][:4]
    final = next((e["data"] for e in new if e["kind"] == "self" and e["seat"] == seat), None)
    top = state.top(opp)
    out.append(w.say("ベット：", "bet: ") + w.data(spd, front, back, atk))
    if final is not None:
        out.append(w.say("自身の効果で ", "its own effect makes it ") + w.data(*final[:4]))
    checked = bet["as"] == "gc" or (bet["as"] == "attack" and state.sit == "even")
    if checked and top is not None:
        vs = {"card": state.cards[top[0]], "spd": top[2], "back": top[4]}
        out.append(w.check(spd, front, vs))
    elif bet["as"] in ("fb", "bonus") or (bet["as"] == "attack" and state.sit != "even"):
        out.append(w.say("速度・間合のチェックなし", "no speed or distance check"))
    if bet["as"] in ("fb", "attack") and (bet["as"] == "fb" or state.sit == "even"):
        last = final if final is not None else bet["data"]
        out.append(w.answer_needs(int(last[0]), int(last[2])))
    pay = next((e for e in new if e["kind"] == "pay" and e["seat"] == seat), None)
    units = int(bet["units"])
    if units:
        how = []
        if pay is not None and pay["cancels"]:
            how.append(
                w.say(f"キャンセル {w.cards(pay['cancels'])}", f"cancel {w.cards(pay['cancels'])}")
            )
        if pay is not None and pay["gauge"]:
            how.append(w.say(f"ゲージ札{len(pay['gauge'])}枚", f"{len(pay['gauge'])} gauge"))
        helper = (
            w.say("（助っ人コスト2を含む）", " (helper cost 2 included)") if bet["helper"] else ""
        )
        out.append(
            w.say(f"コスト{units}{helper}：", f"cost {units}{helper}: ")
            + ("、" if w.ja else ", ").join(how)
        )
    else:
        out.append(w.say("コスト0", "cost 0"))
    gain = sum(int(e["n"]) for e in new if e["kind"] == "gauge" and e.get("why") == "gain")
    if gain:
        out.append(w.say(f"ゲージ増加 +{gain}", f"gauge gain +{gain}"))
    return out


def _judge_lines(state: MakenState, outcome: Mapping[str, Any], w: Words) -> list[str]:
    """The judge's line: who hits, the damage pile before and after, a down."""
    hitter = outcome["hitter"]
    if hitter is None:
        return [w.say("ジャッジ：ヒットなし", "judge: no hit")]
    loser = 1 - int(hitter)
    before = len(state.damage[loser])
    down_at = state.cfg.down_at
    after = before + int(outcome["placed"])
    line = w.say(
        f"{w.how(outcome['how'])}：{w.who(loser)}に{outcome['damage']}ダメージ"
        f"（ダメージ札 {before}→{after}/{down_at}）",
        f"{w.how(outcome['how'])}: {outcome['damage']} damage to {lower(w.who(loser))}"
        f" (damage pile {before}→{after}/{down_at})",
    )
    out = [line]
    if outcome["down"]:
        lp = len(state.lp[loser])
        out.append(w.say(f"ダウン：LP {lp}→{lp - 1}", f"down: LP {lp}→{lp - 1}"))
    if outcome["exhausted"]:
        out.append(w.say("スタミナ切れ", "stamina exhausted"))
    return out


def option_previews(state: MakenState, seat: int, lang: str = "ja") -> dict[str, Json] | None:
    """The previews of ``seat``'s legal actions at its pending exchange decision, by action
    text, or ``None`` when the decision is not the seat's or not one of :data:`PROMPTS`."""
    if state.result is not None or state.phase not in PROMPTS or decider(state) != seat:
        return None
    first = _attack_start(state)
    w = Words(lang, seat, state.pool)
    out: dict[str, Json] = {}
    for action in state.legal_actions():
        if action.verb == "open":
            continue
        preview = _preview(state, seat, action, first, w)
        if preview is not None:
            out[str(action)] = preview
    return out

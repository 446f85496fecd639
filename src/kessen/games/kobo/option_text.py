"""The words of Kōbō's option previews (:mod:`kessen.games.kobo.option_preview`), both languages.

A preview reads, for the seat that decides: the verdict and the totals in its title
(「勝ち — 5 対 4」 / "Win — 5 vs 4"), then short lines (the result in the rules' words, the
character the option assumes the seat then chooses, Lv changes, who retreats, what the option
costs, the other choices' verdicts), and the assumption it rests on, said on screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.kobo import text
from kessen.games.kobo.state import EMPTY, SLOTS, KoboState

ASSUMES = {"ja": "相手がこれ以上応答しなければ", "en": "if the opponent adds nothing more"}
"""The assumption every preview rests on (said on screen)."""

_VERDICT = {
    "ja": {
        "win": "勝ち",
        "loss": "負け",
        "tie": "同数",
        "negated": "攻撃無効",
        "no_battle": "攻撃結果なし",
        "game_win": "このゲームに勝利",
        "game_loss": "このゲームに敗北",
        "game_draw": "完全同点",
    },
    "en": {
        "win": "Win",
        "loss": "Loss",
        "tie": "Tie",
        "negated": "Attack negated",
        "no_battle": "No attack result",
        "game_win": "You win this game",
        "game_loss": "You lose this game",
        "game_draw": "Complete tie",
    },
}
VERDICTS = tuple(_VERDICT["ja"])
"""The verdict codes of a preview, from the deciding seat's side."""

_LINE = {
    "ja": {
        "vs": "{a} 対 {d}",
        "result": "{score}：{outcome}",
        "chosen": "対象：{who}{n}番 {name}（Lv{lv}）",
        "target": "攻撃対象：相手の{n}番 {name}（Lv{lv}）",
        "lv": "{who}{name} Lv{now}→{lv}",
        "retreats": "撤退：{names}",
        "play": "戦術手札から出す（作戦エリアの空き {free}→{left}枠）",
        "trap": "伏せた罠「{name}」（{n}番）を表にして発動",
        "pass_close": "パスすると攻防連鎖が閉じ、効果処理へ",
        "pass": "パス（相手もパスすれば攻防連鎖が閉じる）",
        "others": "ほかの対象：{list}",
        "other": "{n}番 {name}",
        "and": "・",
        "tie_pick": "防御側が撤退させる攻撃キャラを1体選ぶ",
        "own": "自分の",
        "opp": "相手の",
        "sep": "、",
        "groups": "／",
    },
    "en": {
        "vs": "{a} vs {d}",
        "result": "{score}: {outcome}",
        "chosen": "Choice: {who}slot {n} {name} (Lv{lv})",
        "target": "Target: opponent's slot {n} {name} (Lv{lv})",
        "lv": "{who}{name} Lv{now}→{lv}",
        "retreats": "Retreat: {names}",
        "play": "From your tactics hand (free strategy slots {free}→{left})",
        "trap": "Flip your set trap {name} (slot {n})",
        "pass_close": "Passing closes the chain; its effects resolve",
        "pass": "Pass (the chain closes if your opponent passes too)",
        "others": "Other choices: {list}",
        "other": "slot {n} {name}",
        "and": ", ",
        "tie_pick": "The defender chooses one attacker to retreat",
        "own": "your ",
        "opp": "opponent's ",
        "sep": ", ",
        "groups": "; ",
    },
}


def verdict(pv: Mapping[str, Any], seat: int) -> tuple[str, str]:
    """The verdict code of a chain preview for ``seat`` and its tone (good, bad, even, info)."""
    game_end = pv.get("game_end")
    if game_end is not None:
        winner = game_end.get("winner")
        if winner is None or winner < 0:
            return "game_draw", "even"
        return ("game_win", "good") if winner == seat else ("game_loss", "bad")
    attacker = pv["attacker_seat"] == seat
    outcome = pv["outcome"]
    if outcome == "attacker_wins":
        return ("win", "good") if attacker else ("loss", "bad")
    if outcome == "defender_wins":
        return ("loss", "bad") if attacker else ("win", "good")
    if outcome in ("tie_single", "tie_multi"):
        return "tie", "even"
    if outcome == "negated":
        return "negated", "bad" if attacker else "good"
    return "no_battle", "info"


def verdict_text(code: str, attack: int | None, defence: int | None, lang: str) -> str:
    """「勝ち — 5 対 4」: the verdict word, with the totals when there was an attack result."""
    word = _VERDICT[lang][code]
    if attack is None or defence is None:
        return word
    return f"{word} — {_LINE[lang]['vs'].format(a=attack, d=defence)}"


def _name(state: KoboState, slug: str | None, lang: str) -> str:
    if not slug:
        return ""
    for cdef in state.defs:
        if cdef.slug == slug:
            return cdef.name(lang)
    return slug


def _who(seat: int, owner: int, lang: str) -> str:
    return _LINE[lang]["own" if owner == seat else "opp"]


def _cost(state: KoboState, seat: int, action: Action, lang: str) -> str | None:
    words = _LINE[lang]
    if action.verb == "play":
        free = state.strategy[seat * SLOTS : seat * SLOTS + SLOTS].count(EMPTY)
        return words["play"].format(free=free, left=free - 1)
    if action.verb == "trap":
        card = state.strategy[seat * SLOTS + int(action.args[0]) - 1]
        return words["trap"].format(n=action.args[0], name=state.defs[card].name(lang))
    if action.verb == "pass" and state.stack and state.stack[-1][0] == "chain":
        return words["pass_close" if state.chain_passes >= 1 else "pass"]
    return None


def _lv_lines(state: KoboState, seat: int, pv: Mapping[str, Any], lang: str) -> list[str]:
    """The participants whose Lv the chain changes: 「相手の伝令狸 Lv3→5」."""
    out: list[str] = []
    parts = [*(pv.get("attackers") or []), pv.get("target")]
    for part in parts:
        if part and part.get("lv") is not None and part["lv"] != part["lv_now"]:
            out.append(
                _LINE[lang]["lv"].format(
                    who=_who(seat, part["seat"], lang),
                    name=_name(state, part["slug"], lang),
                    now=part["lv_now"],
                    lv=part["lv"],
                )
            )
    return out


def describe(
    state: KoboState,
    seat: int,
    action: Action,
    pv: Mapping[str, Any],
    basis: Mapping[str, Any],
    then: str | None,
    lang: str,
) -> Json:
    """The words of one preview (``pv``: the chain preview it shows; ``basis``: what it
    assumes; ``then``: the seat's next answer it assumes): ``title``, ``lines``, ``assumes``,
    ``tone`` and ``verdict`` (the verdict's code)."""
    words = _LINE[lang]
    code, tone = verdict(pv, seat)
    attack, defence = pv.get("attack"), pv.get("defence")
    scored = pv["outcome"] in ("attacker_wins", "defender_wins", "tie_single", "tie_multi")
    lines: list[str] = []
    outcome = text.outcome_text(str(pv["outcome"]), lang)
    if scored and attack is not None and defence is not None:
        score = text.score_text(attack, defence, lang)
        lines.append(words["result"].format(score=score, outcome=outcome))
    else:
        lines.append(outcome)
    chosen = _chosen_line(state, seat, action, then, basis, lang)
    if chosen:
        lines.append(chosen)
    lines += _lv_lines(state, seat, pv, lang)
    retreats = pv.get("retreats") or []
    if retreats and pv.get("game_end") is None:
        names = words["sep"].join(
            f"{_who(seat, r['seat'], lang)}{_name(state, r['slug'], lang)}" for r in retreats
        )
        lines.append(words["retreats"].format(names=names))
    cost = _cost(state, seat, action, lang)
    if cost:
        lines.append(cost)
    others = pv.get("others") or []
    if others:
        lines.append(_others_line(state, others, lang))
    return {
        "title": verdict_text(code, attack if scored else None, defence if scored else None, lang),
        "lines": lines,
        "assumes": ASSUMES[lang],
        "tone": tone,
        "verdict": code,
    }


def _others_line(state: KoboState, others: list[Mapping[str, Any]], lang: str) -> str:
    """「ほかの対象：2番 影の忍び・3番 槍足軽 → 負け — 6 対 4」: the other choices, those with
    the same verdict together."""
    words = _LINE[lang]
    groups: dict[str, list[str]] = {}
    for other in others:
        said = verdict_text(other["verdict"], other["attack"], other["defence"], lang)
        what = other["what"]
        name = words["other"].format(n=what["slot"], name=_name(state, what["slug"], lang))
        groups.setdefault(said, []).append(name)
    listed = words["groups"].join(
        f"{words['and'].join(names)} → {said}" for said, names in groups.items()
    )
    return words["others"].format(list=listed)


def _chosen_line(
    state: KoboState,
    seat: int,
    action: Action,
    then: str | None,
    basis: Mapping[str, Any],
    lang: str,
) -> str | None:
    """The character the option names or assumes the seat then names."""
    words = _LINE[lang]
    answer = Action.parse(then) if then else action
    if answer.verb == "target":
        card = state.battle[(1 - seat) * SLOTS + int(answer.args[0]) - 1]
        if card == EMPTY:
            return None
        name = state.defs[card].name(lang)
        return words["target"].format(n=answer.args[0], name=name, lv=state.lv(card))
    links = basis.get("links") or []
    if answer.verb == "slot" and links and links[-1][3] is not None:
        owner, slot = links[-1][3]
        card = state.battle[owner * SLOTS + slot - 1]
        if card == EMPTY:
            return None
        who = _who(seat, owner, lang)
        return words["chosen"].format(
            who=who, n=slot, name=state.defs[card].name(lang), lv=state.lv(card)
        )
    return None

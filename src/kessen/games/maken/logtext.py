"""Human log lines: one view log entry of a Maken game as a sentence in Japanese or English,
and the action texts of the prompts (§7.8) in words.

Seats are "あなた/相手" ("You/The opponent") from ``viewer``, or "P1/P2" for a neutral reader.
A part the viewer may not see (a draw, a set support card, an LP card reaching the hand) is
absent from the entry, and the sentence gives the count without naming the card.

>>> describe({"kind": "draw", "seat": 1, "n": 2, "why": "draw"}, "ja", 0)
'相手は2枚ドローした。'
>>> describe({"kind": "bet", "seat": 0, "as": "attack", "card": "SO09", "n": 2,
...           "option": "powerful", "data": [5, 2, 2, 3, 0, 0], "helper": 0}, "en", None)
'P1 bets Step-in Cut ×2 (Powerful) as attack: 5/2/3.'
>>> action_text(Action.parse("attack so09x2 powerful"), "ja")
'攻撃する：踏込斬り×2（パワフル）'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kessen.engine.action import Action
from kessen.engine.wording import SeatWords, lower_first
from kessen.games.maken.card_sets import active_card
from kessen.games.maken.cards import BY_SLUG, CARD, CHARACTER_NAMES, character_name, distance_text
from kessen.games.maken.rules import OPTION_JA, parse_bet

Entry = Mapping[str, Any]
LANGS = ("ja", "en")


class _Words(SeatWords):
    """Seat and card names in one language, for one viewer."""

    def card(self, cid: Any) -> str:
        card = active_card(str(cid)) or CARD.get(str(cid))
        return str(cid) if card is None else card.name(self.lang)

    def cards(self, cids: Sequence[Any]) -> str:
        if not cids:
            return "なし" if self.ja else "none"
        return ("・" if self.ja else ", ").join(self.card(c) for c in cids)

    def say(self, ja: str, en: str) -> str:
        return ja if self.ja else en

    def verb(self, seat: Any, third: str, plain: str) -> str:
        """An English verb agreeing with ``seat``'s subject: "You bet", "The opponent bets"."""
        return plain if self.viewer is not None and seat == self.viewer else third


def _option(w: _Words, option: Any) -> str:
    if option is None:
        return ""
    name = OPTION_JA.get(str(option), str(option))
    en = str(option).replace("-", " ").title()
    return w.say(f"（{name}）", f" ({en})")


def _char(w: _Words, code: Any) -> str:
    """A character by name (ソウマ / Souma), never by its code."""
    return character_name(str(code), w.lang) if str(code) in CHARACTER_NAMES else str(code)


def _data(e: Entry) -> str:
    spd, front, back, atk = e["data"][:4]
    return f"{spd}/{distance_text(front, back)}/{atk}"


_KIND_JA = {
    "fb": "ファーストベット",
    "attack": "攻撃",
    "gc": "ガードキャンセル",
    "bonus": "ボーナスベット",
}
_KIND_EN = {"fb": "first bet", "attack": "attack", "gc": "guard cancel", "bonus": "bonus bet"}


def _bet(w: _Words, e: Entry) -> str:
    n = int(e["n"])
    copies = "" if n == 1 else f" ×{n}" if not w.ja else f"×{n}"
    kind = str(e.get("as", ""))
    head = w.say(f"{w.who(e['seat'])}は", f"{w.who(e['seat'])} {w.verb(e['seat'], 'bets', 'bet')} ")
    extra = []
    if e.get("rv"):
        extra.append("RV")
    if e.get("helper"):
        extra.append(w.say("助っ人コスト2", "helper cost 2"))
    tail = w.say(f"（{'・'.join(extra)}）", f" ({', '.join(extra)})") if extra else ""
    name = w.card(e["card"]) + copies + _option(w, e.get("option"))
    label = _KIND_JA.get(kind, "") if w.ja else _KIND_EN.get(kind, "")
    if w.ja:
        return (
            f"{head}{name}をベットした{('（' + label + '）') if label else ''}：{_data(e)}{tail}。"
        )
    return f"{head}{name}{(' as ' + label) if label else ''}: {_data(e)}{tail}."


def _down(w: _Words, e: Entry) -> str:
    cause = w.say("スタミナ切れで", " by stamina exhaustion") if e.get("exhaustion") else ""
    card = e.get("card")
    where = {
        "hand": ("手札へ", "to the hand"),
        "dust": ("ダストへ", "to the dust"),
        "gauge": ("ゲージへ", "to the gauge"),
    }[str(e.get("to", "hand"))]
    name = w.card(card) if card else w.say("LP札", "an LP card")
    name_en = name if card else "an LP card"
    if w.ja:
        return f"{w.who(e['seat'])}は{cause}ダウンした。{name}が{where[0]}（残りLP {e['lp']}）。"
    be = w.verb(e["seat"], "is", "are")
    return f"{w.who(e['seat'])} {be} downed{cause}; {name_en} goes {where[1]} (LP {e['lp']} left)."


def _draw(w: _Words, e: Entry) -> str:
    names = e.get("cards")
    shown = w.say(f"（{w.cards(names)}）", f" ({w.cards(names)})") if names else ""
    return w.say(
        f"{w.who(e['seat'])}は{e['n']}枚ドローした{shown}。",
        f"{w.who(e['seat'])} drew {e['n']}{shown}.",
    )


def _judge(w: _Words, e: Entry) -> str:
    kind = e.get("how")
    if e.get("hitter") is None:
        return w.say("ジャッジ：ヒットなし（ガード成功）。", "Judge: no hit (the guard holds).")
    return w.say(
        f"ジャッジ（{kind}）：{w.who(e['hitter'])}のヒット。",
        f"Judge ({kind}): {lower_first(w.poss(e['hitter']))} hit.",
    )


_R: dict[str, Callable[[_Words, Entry], str]] = {
    "setup": lambda w, e: w.say(
        f"{w.who(0)}：{_char(w, e['chars'][0])}、{w.who(1)}：{_char(w, e['chars'][1])}。"
        f"最初のTPは{w.who(e['tp'])}。",
        f"{w.who(0)} {w.verb(0, 'plays', 'play')} {_char(w, e['chars'][0])}, "
        f"{lower_first(w.who(1))} {_char(w, e['chars'][1])}; "
        f"{lower_first(w.who(e['tp']))} {w.verb(e['tp'], 'starts', 'start')} as TP.",
    ),
    "mulligan": lambda w, e: w.say(
        f"{w.who(e['seat'])}は{'マリガンした' if e['again'] else '手札をキープした'}。",
        f"{w.who(e['seat'])} {'took a mulligan' if e['again'] else 'kept the hand'}.",
    ),
    "turn": lambda w, e: w.say(
        f"ターン{e['turn']}：TPは{w.who(e['tp'])}。",
        f"Turn {e['turn']}: {lower_first(w.who(e['tp']))} {w.verb(e['tp'], 'is', 'are')} TP.",
    ),
    "draw": _draw,
    "gauge": lambda w, e: w.say(
        f"{w.who(e['seat'])}のゲージ+{e['n']}。", f"{w.poss(e['seat'])} gauge +{e['n']}."
    ),
    "helper": lambda w, e: w.say(
        f"{w.card(e['card'])}が{w.poss(e['seat'])}助っ人表示フィールドへ。",
        f"{w.card(e['card'])} goes to {lower_first(w.poss(e['seat']))} helper field.",
    ),
    "drain": lambda w, e: w.say(
        f"{w.poss(e['seat'])}ゲージ{len(e['cards'])}枚がダストへ（{w.cards(e['cards'])}）。",
        f"{len(e['cards'])} of {lower_first(w.poss(e['seat']))} gauge cards go to the dust "
        f"({w.cards(e['cards'])}).",
    ),
    "exhausted": lambda w, e: w.say(
        f"{w.poss(e['seat'])}スタミナ札が尽きた。", f"{w.poss(e['seat'])} stamina is exhausted."
    ),
    "no-draw": lambda w, e: w.say(
        f"{w.who(e['seat'])}はドローできない。", f"{w.who(e['seat'])} cannot draw."
    ),
    "set": lambda w, e: w.say(
        f"{w.who(e['seat'])}は補助カード{w.card(e['card']) if 'card' in e else ''}をセットした。",
        f"{w.who(e['seat'])} set a support card"
        f"{(' (' + w.card(e['card']) + ')') if 'card' in e else ''}.",
    ),
    "open": lambda w, e: w.say(
        f"{w.who(e['seat'])}は{w.card(e['card'])}をオープンした。",
        f"{w.who(e['seat'])} opened {w.card(e['card'])}.",
    ),
    "clear": lambda w, e: w.say(
        f"{w.who(e['seat'])}は{w.card(e['card'])}を片付けた。",
        f"{w.who(e['seat'])} cleared {w.card(e['card'])}.",
    ),
    "pre-end": lambda w, e: w.say("アタックフェイズへ。", "The attack phase begins."),
    "no-fb": lambda w, e: w.say(
        f"{w.who(e['seat'])}はファーストベットできない。",
        f"{w.who(e['seat'])} {w.verb(e['seat'], 'has', 'have')} no first bet.",
    ),
    "bet": _bet,
    "pay": lambda w, e: w.say(
        f"{w.who(e['seat'])}の支払い：キャンセル {w.cards(e['cancels'])}、"
        f"ゲージ{len(e['gauge'])}枚。",
        f"{w.who(e['seat'])} {w.verb(e['seat'], 'pays', 'pay')}: "
        f"cancels {w.cards(e['cancels'])}, {len(e['gauge'])} gauge.",
    ),
    "extras": lambda w, e: w.say(
        f"{w.card(e['card'])}の残り{e['n']}枚はダスト送り。",
        f"The other {e['n']} {w.card(e['card'])} go to the dust.",
    ),
    "self": lambda w, e: w.say(
        f"{w.card(e['card'])}のデータ：{_data(e)}。", f"{w.card(e['card'])} is now {_data(e)}."
    ),
    "guard": lambda w, e: w.say(
        f"{w.who(e['seat'])}は{'ガードを続けた' if e['keep'] else 'ガードした'}。",
        f"{w.who(e['seat'])} {w.verb(e['seat'], 'keeps', 'keep')}"
        f"{' guarding' if e['keep'] else ''}."
        if e["keep"]
        else f"{w.who(e['seat'])} {w.verb(e['seat'], 'guards', 'guard')}.",
    ),
    "gb": lambda w, e: w.say(
        f"{w.who(e['seat'])}のガードブレイク。",
        f"{w.who(e['seat'])} {w.verb(e['seat'], 'breaks', 'break')} the guard.",
    ),
    "accept": lambda w, e: w.say(
        f"{w.who(e['seat'])}はジャッジを選んだ。",
        f"{w.who(e['seat'])} {w.verb(e['seat'], 'calls', 'call')} the judge.",
    ),
    "stop": lambda w, e: w.say(
        f"{w.who(e['seat'])}は攻撃をやめた。",
        f"{w.who(e['seat'])} {w.verb(e['seat'], 'stops', 'stop')}.",
    ),
    "judge": _judge,
    "decline": lambda w, e: w.say(
        f"{w.who(e['seat'])}はボーナスベットしなかった。",
        f"{w.who(e['seat'])} {w.verb(e['seat'], 'declines', 'decline')} the bonus bet.",
    ),
    "damage": lambda w, e: w.say(
        f"{w.who(e['seat'])}に{e['d']}ダメージ。",
        f"{w.who(e['seat'])} {w.verb(e['seat'], 'takes', 'take')} {e['d']} damage.",
    ),
    "placed": lambda w, e: w.say(
        f"{w.poss(e['seat'])}ダメージ札+{e['n']}。", f"{w.poss(e['seat'])} damage pile +{e['n']}."
    ),
    "down": _down,
    "cleanup": lambda w, e: w.say(
        "アタックフィールドを片付けた。", "The attack fields are cleared."
    ),
    "expire": lambda w, e: w.say(
        f"ターン終了：{w.cards([c for _, c in e['cards']])}がダスト送り。",
        f"Turn end: {w.cards([c for _, c in e['cards']])} leave play.",
    ),
    "end": lambda w, e: (
        w.say(f"{w.who(e['winner'])}の勝ち。", f"{w.who(e['winner'])} won.")
        if e.get("winner") is not None
        else w.say("ターン上限で引き分け。", "A draw at the turn limit.")
    ),
}


def describe(entry: Entry, lang: str = "ja", viewer: int | None = None) -> str:
    """One log entry of a view as a sentence in ``lang`` for ``viewer``."""
    words = _Words(lang if lang in LANGS else "ja", viewer)
    render = _R.get(str(entry.get("kind")))
    if render is None:
        return str(entry.get("kind"))
    text = render(words, entry)
    return text[0].upper() + text[1:] if text and not words.ja else text


_VERB_JA = {
    "fb": "ファーストベット",
    "attack": "攻撃する",
    "gc": "ガードキャンセル",
    "bonus": "ボーナスベット",
    "set": "セット",
    "open": "オープン",
    "clear": "片付ける",
    "clear-set": "片付ける（セット中）",
    "cancel": "キャンセル",
}
_PLAIN_JA = {
    "keep": "キープ",
    "mulligan": "マリガン",
    "end": "アタックフェイズへ",
    "guard": "ガードする",
    "gb": "ガードブレイク",
    "judge": "ジャッジ",
    "pay-rest-from-gauge": "残りをゲージで支払う",
    "decline": "ボーナスベットしない",
}


def action_text(action: Action, lang: str = "ja") -> str:
    """An action of §7.8 in words (``attack so09x2 powerful``: 攻撃する：踏込斬り×2（パワフル）)."""
    w = _Words(lang, None)
    verb = action.verb
    if verb in ("fb", "attack", "gc", "bonus"):
        cid, n, option = parse_bet(action.args)
        name = w.card(cid) + (f"×{n}" if n > 1 else "") + _option(w, option)
        label = _VERB_JA[verb] if w.ja else verb.upper() if verb in ("fb", "gc") else verb
        return f"{label}：{name}" if w.ja else f"{label}: {name}"
    if verb in ("set", "open", "clear", "clear-set", "cancel"):
        word = str(action.args[0])
        card = BY_SLUG.get(word)
        name = word.upper() if card is None else card.name(lang)
        return f"{_VERB_JA[verb]}：{name}" if w.ja else f"{verb}: {name}"
    if verb == "draw":
        return w.say(f"{action.args[0]}枚ドロー", f"draw {action.args[0]}")
    return _PLAIN_JA.get(verb, verb) if w.ja else verb

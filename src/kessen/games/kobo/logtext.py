"""Human log lines: one view log entry of a Kōbō match as a sentence in Japanese or English.

:func:`describe` renders the entries of ``view()["log"]`` (a ``kind`` plus fields). Card names
come from the card pool; seats are "あなた/相手" ("you/the opponent") seen from ``viewer``, or
"P1/P2" for a neutral reader. A part the viewer may not see (an opponent's drawn card, a
face-down trap) is absent from the entry and is said to be hidden.

>>> describe({"kind": "tactics_draw", "seat": 1}, viewer=0)
'相手は戦術カードを1枚引いた。'
>>> describe({"kind": "place", "seat": 0, "slot": 2, "card": "oni-warlord"}, "en", viewer=0)
'You placed Oni Warlord in battle slot 2.'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kessen.engine.wording import SeatWords, lower_first
from kessen.games.kobo.card_sets import active_pool
from kessen.games.kobo.cards import CardKind
from kessen.games.kobo.schema import load_pool
from kessen.games.kobo.text import condition_text

LANGS = ("ja", "en")
"""The languages log lines are available in."""

Entry = Mapping[str, Any]


@dataclass(frozen=True)
class _Words(SeatWords):
    """Seat names and card names in one language, for one viewer."""

    def card(self, slug: Any) -> str:
        """The card's name (「…」 in Japanese), or the slug if the pool does not know it (the
        pool of the set a match plays with where :func:`.card_sets.activate` named it)."""
        cdef = active_pool().cards.get(str(slug)) or load_pool().cards.get(str(slug))
        name = str(slug) if cdef is None else cdef.name(self.lang)
        return f"「{name}」" if self.ja else name

    def kind_card(self, slug: Any) -> str:
        """The card's name with its kind for traps and tactics: 罠「…」 / the trap …."""
        cdef = active_pool().cards.get(str(slug)) or load_pool().cards.get(str(slug))
        name = self.card(slug)
        if cdef is None:
            return name
        if cdef.kind is CardKind.TRAP:
            return "罠" + name if self.ja else f"the trap {name}"
        if cdef.kind is CardKind.TACTIC:
            return "戦術" + name if self.ja else f"the tactic {name}"
        return name

    def cards(self, slugs: Any) -> str:
        """Several card names."""
        items = [self.card(s) for s in (slugs or [])]
        if not items:
            return "なし" if self.ja else "none"
        return "".join(items) if self.ja else ", ".join(items)

    def slots(self, slots: Sequence[Any]) -> str:
        """Slot numbers: ``1・3番`` / ``slots 1, 3``."""
        numbers = [str(s) for s in slots]
        if self.ja:
            return "・".join(numbers) + "番"
        return ("slot " if len(numbers) == 1 else "slots ") + ", ".join(numbers)

    def char(self, seat: Any, slot: Any, slug: Any = None) -> str:
        """A character by owner and slot (and name when known)."""
        if self.ja:
            if slug is None:
                return f"{self.poss(seat)}{slot}番のキャラ"
            return f"{self.poss(seat)}{self.card(slug)}（{slot}番）"
        if slug is None:
            return f"{self.poss(seat)} character in slot {slot}"
        return f"{self.poss(seat)} {self.card(slug)} (slot {slot})"

    def seat_scores(self, scores: Sequence[Any]) -> str:
        """``P1 3 / P2 2``-style pair of numbers by seat."""
        return " / ".join(f"{self.who(s)} {v}" for s, v in enumerate(scores))


def _plural(n: Any, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


# --- one function per kind -------------------------------------------------------------------

Render = Callable[[Entry, _Words], str]


def _game_start(e: Entry, w: _Words) -> str:
    if w.ja:
        return f"第{e.get('game')}ゲーム開始。先攻は{w.who(e.get('first'))}。"
    return f"Game {e.get('game')} begins. First player: {lower_first(w.who(e.get('first')))}."


def _standby(e: Entry, w: _Words) -> str:
    if w.ja:
        return f"{w.poss(e.get('seat'))}スタンバイフェイズ。"
    return f"{w.poss(e.get('seat'))} standby phase begins."


def _draw(e: Entry, w: _Words) -> str:
    who, count = w.who(e.get("seat")), e.get("count", 0)
    cards = e.get("cards")
    if w.ja:
        shown = f"：{w.cards(cards)}" if cards is not None else "。"
        return f"{who}はメインデッキから{count}枚引いた{shown}"
    shown = f": {w.cards(cards)}." if cards is not None else "."
    return f"{who} drew {_plural(count, 'card')} from the main deck{shown}"


def _redraw(e: Entry, w: _Words) -> str:
    who, cards = w.who(e.get("seat")), w.cards(e.get("cards"))
    if w.ja:
        return f"{who}の手札にキャラがいないため、手札を公開して引き直す：{cards}"
    return f"{who} drew no character: hand revealed ({cards}), shuffled back and redrawn."


def _place(e: Entry, w: _Words) -> str:
    who, card, slot = w.who(e.get("seat")), w.card(e.get("card")), e.get("slot")
    if w.ja:
        return f"{who}は{card}をバトルエリア{slot}番に出した。"
    return f"{who} placed {card} in battle slot {slot}."


def _no_slot(e: Entry, w: _Words) -> str:
    poss, card = w.poss(e.get("seat")), w.card(e.get("card"))
    if w.ja:
        return f"バトルエリアに空きがないため、{poss}{card}は撤退エリアへ置かれた。"
    return f"No free battle slot: {lower_first(poss)} {card} went to the retreat area."


def _set(e: Entry, w: _Words) -> str:
    who, slot = w.who(e.get("seat")), e.get("slot")
    card = e.get("card")
    if w.ja:
        what = f"罠{w.card(card)}を" if card is not None else "罠を1枚"
        return f"{who}は作戦エリア{slot}番に{what}裏向きで伏せた。"
    what = f"the trap {w.card(card)}" if card is not None else "a trap"
    return f"{who} set {what} face down in strategy slot {slot}."


def _discard(e: Entry, w: _Words) -> str:
    who, card = w.who(e.get("seat")), w.card(e.get("card"))
    if w.ja:
        return f"{who}は{card}を使わずに撤退エリアへ置いた。"
    return f"{who} discarded {card} unused."


def _deploy(e: Entry, w: _Words) -> str:
    who, card = w.who(e.get("seat")), w.card(e.get("card"))
    if w.ja:
        return f"{who}は展開カード{card}を使った。"
    return f"{who} used the deploy card {card}."


def _no_target(e: Entry, w: _Words) -> str:
    card = w.card(e.get("card"))
    if w.ja:
        return f"{card}の対象にできるキャラがいないため、その効果は何もしない。"
    return f"{card} has no character to choose: that effect does nothing."


def _summon_fail(e: Entry, w: _Words) -> str:
    reason = e.get("reason")
    if w.ja:
        why = "バトルエリアに空きがない" if reason == "no_slot" else "メインデッキにキャラがいない"
        return f"{why}ため、{w.poss(e.get('seat'))}召喚は失敗した。"
    why = "no free battle slot" if reason == "no_slot" else "no character in the main deck"
    return f"{w.poss(e.get('seat'))} summon failed: {why}."


def _reveal(e: Entry, w: _Words) -> str:
    who, cards = w.who(e.get("seat")), w.cards(e.get("cards"))
    if w.ja:
        return f"{who}はメインデッキの上から公開した：{cards}"
    return f"{who} revealed from the top of the main deck: {cards}."


def _nominate_fail(e: Entry, w: _Words) -> str:
    reason = e.get("reason")
    if w.ja:
        why = (
            "バトルエリアに空きがない"
            if reason == "no_slot"
            else "メインデッキに名前の異なるキャラが3体揃わない"
        )
        return f"{why}ため、{w.poss(e.get('seat'))}援軍指名は無効になった。"
    why = "no free battle slot" if reason == "no_slot" else "no 3 different characters in the deck"
    return f"{w.poss(e.get('seat'))} Reinforcement Call does nothing: {why}."


def _nominate(e: Entry, w: _Words) -> str:
    who, cards = w.who(e.get("seat")), w.cards(e.get("cards"))
    if w.ja:
        return f"{who}は援軍指名で{cards}を公開し、裏向きにしてシャッフルした。"
    return f"{who} nominated {cards}, turned them face down and shuffled them."


def _blind_pick(e: Entry, w: _Words) -> str:
    who, position = w.who(e.get("seat")), e.get("position")
    card = e.get("card")
    if w.ja:
        shown = f"：{w.card(card)}が召喚される。" if card is not None else "。"
        return f"{who}は伏せられた{position}枚目を選んだ{shown}"
    shown = f": {w.card(card)} is summoned." if card is not None else "."
    return f"{who} picked face-down card {position}{shown}"


def _tactics_hand(e: Entry, w: _Words) -> str:
    who, count, cards = w.who(e.get("seat")), e.get("count", 0), e.get("cards")
    if w.ja:
        shown = f"：{w.cards(cards)}" if cards is not None else "。"
        return f"{who}は戦術手札を{count}枚選んだ{shown}"
    shown = f": {w.cards(cards)}." if cards is not None else "."
    return f"{who} chose {_plural(count, 'tactic')} as the tactics hand{shown}"


def _standby_end(e: Entry, w: _Words) -> str:
    if w.ja:
        return f"{w.poss(e.get('seat'))}スタンバイフェイズ終了。"
    return f"{w.poss(e.get('seat'))} standby phase is over."


def _turn(e: Entry, w: _Words) -> str:
    if w.ja:
        return f"ターン{e.get('turn')}：{w.poss(e.get('seat'))}ターン。"
    return f"Turn {e.get('turn')}: {lower_first(w.poss(e.get('seat')))} turn."


def _tactics_draw(e: Entry, w: _Words) -> str:
    who, card = w.who(e.get("seat")), e.get("card")
    if w.ja:
        shown = f"：{w.card(card)}" if card is not None else "。"
        return f"{who}は戦術カードを1枚引いた{shown}"
    shown = f": {w.card(card)}." if card is not None else "."
    return f"{who} drew a tactic{shown}"


def _pass(e: Entry, w: _Words) -> str:
    who, passes, penalty = w.who(e.get("seat")), e.get("passes"), e.get("penalty", 0)
    if w.ja:
        extra = f"、除外ペナルティ{penalty}枚" if penalty else ""
        return f"{who}は攻撃せずパスした（{passes}回目{extra}）。"
    extra = f"; penalty: exclude {penalty}" if penalty else ""
    return f"{who} passed without attacking (pass {passes}{extra})."


_SOURCES = {
    "ja": {"tactics_deck": "戦術デッキ", "tactics_hand": "戦術手札", "trap": "伏せた罠"},
    "en": {
        "tactics_deck": "tactics deck",
        "tactics_hand": "tactics hand",
        "trap": "face-down traps",
    },
}


def _exclude(e: Entry, w: _Words) -> str:
    source = _SOURCES[w.lang].get(str(e.get("source")), str(e.get("source")))
    cards = w.cards(e.get("cards"))
    if w.ja:
        return f"パスのペナルティ：{w.poss(e.get('seat'))}{source}から除外：{cards}"
    return f"Pass penalty: excluded from {lower_first(w.poss(e.get('seat')))} {source}: {cards}."


def _declare(e: Entry, w: _Words) -> str:
    seat = e.get("seat")
    foe = 1 - seat if isinstance(seat, int) else None
    attackers = list(e.get("attackers") or [])
    a, d, t = e.get("attack"), e.get("defence"), e.get("target")
    names = list(e.get("chars") or [])
    if len(names) == len(attackers) and e.get("target_char"):
        sep = "と" if w.ja else " and "
        group = sep.join(
            w.char(seat, s, n) if w.ja else lower_first(w.char(seat, s, n))
            for s, n in zip(attackers, names, strict=True)
        )
        aim = w.char(foe, t, e.get("target_char"))
        if w.ja:
            return f"{w.who(seat)}の攻撃宣言：{group}（攻撃力{a}）で{aim}（攻撃力{d}）を攻撃。"
        aim = lower_first(aim)
        return f"{w.who(seat)} declared an attack: {group} (Lv {a}) against {aim} (Lv {d})."
    if w.ja:
        return (
            f"{w.who(seat)}の攻撃宣言：{w.slots(attackers)}のキャラ（攻撃力{a}）で"
            f"{w.poss(foe)}{t}番のキャラ（攻撃力{d}）を攻撃。"
        )
    return (
        f"{w.who(seat)} declared an attack: {w.slots(attackers)} (Lv {a}) against "
        f"{lower_first(w.poss(foe))} slot {t} (Lv {d})."
    )


def _chain_pass(e: Entry, w: _Words) -> str:
    if w.ja:
        return f"{w.who(e.get('seat'))}はパスした（攻防連鎖）。"
    return f"{w.who(e.get('seat'))} passed (chain)."


def _chain_closed(e: Entry, w: _Words) -> str:
    links = e.get("links", 0)
    if w.ja:
        return f"攻防連鎖が閉じた（{links}枚）。後に発動したものから処理する。"
    return f"The chain closed with {_plural(links, 'link')}; it resolves last link first."


def _activate(e: Entry, w: _Words) -> str:
    who, link, card = w.who(e.get("seat")), e.get("link"), w.kind_card(e.get("card"))
    if w.ja:
        text = f"連鎖{link}：{who}が{card}を発動"
        if "target_slot" in e:
            text += f"（対象：{w.poss(e.get('target_seat'))}{e.get('target_slot')}番のキャラ）"
        elif "negates" in e:
            text += f"（連鎖{e.get('negates')}を無効にする）"
        return text + "。"
    text = f"Link {link}: {lower_first(who)} activated {card}"
    if "target_slot" in e:
        text += (
            f", choosing {lower_first(w.poss(e.get('target_seat')))} slot {e.get('target_slot')}"
        )
    elif "negates" in e:
        text += f", against link {e.get('negates')}"
    return text[:1].upper() + text[1:] + "."


def _resolve(e: Entry, w: _Words) -> str:
    link, card = e.get("link"), w.card(e.get("card"))
    if w.ja:
        if e.get("negated"):
            return f"連鎖{link}の{card}は無効にされていたため、何もしない。"
        return f"連鎖{link}の{card}を処理する。"
    if e.get("negated"):
        return f"Link {link} ({card}) was negated and does nothing."
    return f"Link {link} ({card}) resolves."


def _lv(e: Entry, w: _Words) -> str:
    amount = int(e.get("amount", 0))
    signed = f"+{amount}" if amount > 0 else f"−{-amount}"
    char = w.char(e.get("seat"), e.get("slot"), e.get("char"))
    card, base, lv = w.card(e.get("card")), e.get("base"), e.get("lv")
    if w.ja:
        how = "元Lvを永続的に" if e.get("permanent") else "この攻防の間Lvを"
        return f"{card}により、{char}の{how}{signed}（元Lv{base}・攻撃力{lv}）。"
    how = "base Lv permanently" if e.get("permanent") else "Lv for this exchange"
    return f"{card}: {lower_first(char)} gets {signed} {how} (base Lv {base}, Lv {lv})."


def _target_changed(e: Entry, w: _Words) -> str:
    char = w.char(e.get("seat"), e.get("slot"), e.get("char"))
    card = w.card(e.get("card"))
    if w.ja:
        return f"{card}により、攻撃対象が{char}に変わった。"
    return f"{card}: the attack target is now {lower_first(char)}."


def _attack_negated(e: Entry, w: _Words) -> str:
    card = w.card(e.get("card"))
    if w.ja:
        return f"{card}により、攻撃は無効になった。"
    return f"{card}: the attack is negated."


def _link_negated(e: Entry, w: _Words) -> str:
    link, card = e.get("link"), w.card(e.get("card"))
    if w.ja:
        return f"連鎖{link}の{card}は無効になった。"
    return f"Link {link} ({card}) is negated."


def _result(e: Entry, w: _Words) -> str:
    outcome = e.get("outcome")
    a, d = e.get("attack"), e.get("defence")
    ja = {
        "negated": "攻撃は無効になったため、攻撃結果はない。",
        "no_battle": "攻撃側か攻撃対象が場にいないため、攻撃結果はない。",
        "attacker_wins": f"攻撃結果：攻撃側{a}対防御側{d}。攻撃対象が撤退する。",
        "defender_wins": f"攻撃結果：攻撃側{a}対防御側{d}。攻撃したキャラがすべて撤退する。",
        "tie_single": f"攻撃結果：{a}対{d}の同数。両者の元Lvが1下がる。",
        "tie_multi": (
            f"攻撃結果：{a}対{d}の同数。攻撃対象の元Lvが1下がり、防御側が撤退させる"
            "攻撃キャラを1体選ぶ。"
        ),
    }
    en = {
        "negated": "The attack was negated: no attack result.",
        "no_battle": "An attacker or the target has left the field: no attack result.",
        "attacker_wins": f"Attack result: {a} against {d}. The target retreats.",
        "defender_wins": f"Attack result: {a} against {d}. Every attacker retreats.",
        "tie_single": f"Attack result: {a} against {d}, a tie. Both lose 1 base Lv.",
        "tie_multi": (
            f"Attack result: {a} against {d}, a tie. The target loses 1 base Lv and the "
            "defender chooses one attacker to retreat."
        ),
    }
    table = ja if w.ja else en
    return table.get(str(outcome), f"{'攻撃結果' if w.ja else 'Attack result'}: {outcome}")


def _tie_choice(e: Entry, w: _Words) -> str:
    seat = e.get("seat")
    foe = 1 - seat if isinstance(seat, int) else None
    char = w.char(foe, e.get("slot"), e.get("char") or e.get("card"))
    if w.ja:
        return f"{w.who(seat)}は{char}を撤退させることを選んだ。"
    return f"{w.who(seat)} chose {lower_first(char)} to retreat."


def _base_zero(e: Entry, w: _Words) -> str:
    char = w.char(e.get("seat"), e.get("slot"), e.get("card"))
    if w.ja:
        return f"{char}は元Lvが0になったため撤退する。"
    return f"{char} has base Lv 0 and retreats."


def _retreat(e: Entry, w: _Words) -> str:
    char = w.char(e.get("seat"), e.get("slot"), e.get("card"))
    if w.ja:
        return f"{char}が撤退した。"
    return f"{char} retreated."


def _cleanup(e: Entry, w: _Words) -> str:
    cards = e.get("cards") or []
    if w.ja:
        if not cards:
            return "攻防終了。"
        return f"攻防終了。発動したカードは撤退エリアへ：{w.cards(cards)}"
    if not cards:
        return "The exchange is over."
    return f"The exchange is over; the activated cards go to the retreat area: {w.cards(cards)}."


_REASONS = {
    "ja": {
        "wipeout": "一方のキャラが全滅",
        "both_wiped": "両者全滅、残りの罠・戦術カードの枚数で判定",
        "exhausted": "両者の罠・戦術カードが尽き、キャラの攻撃力合計で判定",
        "turn_limit": "ターン上限、キャラの攻撃力合計で判定",
    },
    "en": {
        "wipeout": "one side has no character left",
        "both_wiped": "both sides wiped out; decided by remaining traps and tactics",
        "exhausted": "no traps or tactics left; decided by total Lv",
        "turn_limit": "turn limit; decided by total Lv",
    },
}


def _reason(e: Entry, w: _Words) -> str:
    """Why a game ended, as the viewer reads it: a wipe-out names the side that was wiped out
    (あなた/相手/P1 — never "the opponent" for the viewer's own side)."""
    reason, winner = str(e.get("reason")), e.get("winner")
    if reason == "wipeout" and isinstance(winner, int) and winner >= 0:
        loser = 1 - winner
        if w.ja:
            return f"{w.who(loser)}のキャラが全滅"
        if w.viewer is not None and loser == w.viewer:
            return "you have no character left"
        return f"{lower_first(w.who(loser))} has no character left"
    return _REASONS[w.lang].get(reason, reason)


def _game_end(e: Entry, w: _Words) -> str:
    winner, game, turn = e.get("winner"), e.get("game"), e.get("turn")
    reason = _reason(e, w)
    scores = e.get("scores")
    if w.ja:
        score = f"（{w.seat_scores(scores)}）" if scores else ""
        if not isinstance(winner, int) or winner < 0:
            head = f"第{game}ゲーム終了（ターン{turn}）"
            return f"{head}：完全に同点{score}。このゲームは無効で再試合。"
        return f"第{game}ゲーム終了（ターン{turn}）：{w.who(winner)}の勝ち — {reason}{score}。"
    score = f" ({w.seat_scores(scores)})" if scores else ""
    if not isinstance(winner, int) or winner < 0:
        return f"Game {game} over (turn {turn}): a complete tie{score}; it is replayed."
    who = w.who(winner)
    won = "You won" if who == "You" else f"{who} won"
    return f"Game {game} over (turn {turn}): {won} — {reason}{score}."


def _match_end(e: Entry, w: _Words) -> str:
    winner = e.get("winner")
    wins = list(e.get("wins") or [])
    score = "-".join(str(x) for x in wins)
    if w.ja:
        return f"マッチ終了：{w.who(winner)}の勝利（{score}）。"
    who = w.who(winner)
    won = "You won" if who == "You" else f"{who} won"
    return f"Match over: {won} the match ({score})."


# --- the surprise zone (the match option) -------------------------------------------------


def _surprise_set(e: Entry, w: _Words) -> str:
    who, card = w.who(e.get("seat")), e.get("card")
    if w.ja:
        what = w.card(card) if card is not None else "カード1枚"
        return f"{who}はサプライズ置場に{what}を裏向きで置いた。"
    what = w.card(card) if card is not None else "a card"
    return f"{who} set {what} face down in the surprise zone."


def _surprise_draw(e: Entry, w: _Words) -> str:
    who, count, cards = w.who(e.get("seat")), e.get("count", 0), e.get("cards")
    if w.ja:
        shown = f"：{w.cards(cards)}" if cards else ""
        return f"{who}は戦術カードを{count}枚引いた{shown}。"
    shown = f": {w.cards(cards)}" if cards else ""
    return f"{who} drew {_plural(count, 'tactic')}{shown}."


def _surprise_clear(e: Entry, w: _Words) -> str:
    who, cards = w.who(e.get("seat")), w.cards(e.get("cards") or [])
    if w.ja:
        return f"{who}はサプライズ置場の{cards}を表向きで撤退エリアへ置いた。"
    return f"{who} cleared {cards} from the surprise zone to the retreat area, face up."


def _surprise_flip(e: Entry, w: _Words) -> str:
    who, card, link = w.who(e.get("seat")), w.card(e.get("card")), e.get("link", 0)
    cond = condition_text(str(e.get("condition")), w.lang)
    if w.ja:
        where = f"攻防連鎖{link}番目として" if link else "直ちに解決する"
        return f"{who}はサプライズ{card}を表にした（{cond}）：{where}。"
    where = f"it joins the chain as link {link}" if link else "it resolves at once"
    return f"{who} flipped the surprise {card} ({cond.lower()}): {where}."


def _surprise_decline(e: Entry, w: _Words) -> str:
    who = w.who(e.get("seat"))
    if w.ja:
        return f"{who}はサプライズ置場のカードを表にしなかった。"
    return f"{who} did not flip its surprise card."


_SURPRISE_END = {
    "ja": {
        "resolved": "解決した",
        "cancelled": "打ち消された",
        "not_carried_out": "何もしなかった",
    },
    "en": {"resolved": "resolved", "cancelled": "was cancelled", "not_carried_out": "did nothing"},
}


def _surprise_end(e: Entry, w: _Words) -> str:
    card, how = w.card(e.get("card")), _SURPRISE_END[w.lang].get(str(e.get("how")), "")
    if w.ja:
        return f"サプライズ{card}の能力は{how}。"
    return f"The surprise {card}'s ability {how}."


def _surprise_rule(e: Entry, w: _Words) -> str:
    who, card, rule = w.who(e.get("seat")), w.card(e.get("card")), e.get("rule")
    if w.ja:
        return f"ルール処理（{rule}）：{who}のサプライズ置場の{card}を表向きで撤退エリアへ置いた。"
    whose = lower_first(w.poss(e.get("seat")))
    return (
        f"Rule process ({rule}): {card} left {whose} surprise zone for the retreat area, face up."
    )


_SURPRISE_RENDER: dict[str, Render] = {
    "surprise_set": _surprise_set,
    "surprise_draw": _surprise_draw,
    "surprise_clear": _surprise_clear,
    "surprise_flip": _surprise_flip,
    "surprise_decline": _surprise_decline,
    "surprise_end": _surprise_end,
    "surprise_rule": _surprise_rule,
}
SURPRISE_KINDS = frozenset(_SURPRISE_RENDER)
"""The log kinds of the surprise-zone option (seen only in matches that switch it on)."""

_RENDER: dict[str, Render] = {
    "game_start": _game_start,
    "standby": _standby,
    "draw": _draw,
    "redraw": _redraw,
    "place": _place,
    "no_slot": _no_slot,
    "set": _set,
    "discard": _discard,
    "deploy": _deploy,
    "no_target": _no_target,
    "summon_fail": _summon_fail,
    "reveal": _reveal,
    "nominate_fail": _nominate_fail,
    "nominate": _nominate,
    "blind_pick": _blind_pick,
    "tactics_hand": _tactics_hand,
    "standby_end": _standby_end,
    "turn": _turn,
    "tactics_draw": _tactics_draw,
    "pass": _pass,
    "exclude": _exclude,
    "declare": _declare,
    "chain_pass": _chain_pass,
    "chain_closed": _chain_closed,
    "activate": _activate,
    "resolve": _resolve,
    "lv": _lv,
    "target_changed": _target_changed,
    "attack_negated": _attack_negated,
    "link_negated": _link_negated,
    "result": _result,
    "tie_choice": _tie_choice,
    "base_zero": _base_zero,
    "retreat": _retreat,
    "cleanup": _cleanup,
    "game_end": _game_end,
    "match_end": _match_end,
}

KINDS = frozenset(_RENDER)
"""Every log kind that has its own sentence."""


def describe(entry: Entry, lang: str = "ja", viewer: int | None = None) -> str:
    """One log entry as a sentence in ``lang``; seats relative to ``viewer`` if given.

    An unknown kind still gives a line (its kind and fields), never an error.

    >>> describe({"kind": "turn", "turn": 3, "seat": 1})
    'ターン3：P2のターン。'
    >>> describe({"kind": "set", "seat": 1, "slot": 4}, "en", viewer=0)
    'The opponent set a trap face down in strategy slot 4.'
    """
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")
    words = _Words(lang, viewer)
    kind = str(entry.get("kind", ""))
    render = _RENDER.get(kind) or _SURPRISE_RENDER.get(kind)
    if render is None:
        fields = ", ".join(f"{k}={v}" for k, v in entry.items() if k != "kind")
        return f"{kind}: {fields}" if fields else kind
    return render(entry, words)

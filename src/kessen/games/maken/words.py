"""The words of Maken's previews and resolution records, in Japanese and English: verdicts,
the steps of a bet and of a judge, the speed and distance check, what an option costs.

Seats are named as the viewer reads them (あなた/相手, You/The opponent; P1/P2 for an
observer), by :class:`kessen.engine.wording.SeatWords`.

>>> w = Words("en", 0)
>>> w.verdict({"how": "NORMAL", "hitter": 0, "damage": 4, "down": False, "winner": None})
'You hit — 4 damage'
>>> Words("ja", 0).verdict({"how": None, "hitter": None, "damage": 0, "down": False,
...                         "winner": None})
'ヒットなし'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kessen.engine.wording import SeatWords, lower_first
from kessen.games.maken.cards import SHIPPED_POOL, MakenPool, distance_text
from kessen.games.maken.rules import OPTION_JA

HOW_JA = {"NORMAL": "ジャッジ", "GC": "ガードキャンセル", "GB": "ガードブレイク"}
HOW_EN = {"NORMAL": "judge", "GC": "guard cancel", "GB": "guard break"}
STEP_JA = {
    "8-9": "手順8〜9 支払い",
    "9b": "手順9b キャンセル時効果",
    "10": "手順10 ゲージ増加",
    "11": "手順11 ダブル／トリプル",
    "12": "手順12 ベット時効果",
    "13": "手順13 カード自身の変更",
    "14": "手順14 自分の補助カード",
    "15": "手順15 相手の補助カード",
    "16": "手順16 自分のアタックカード",
    "17": "手順17 相手のアタックカード",
    "open": "オープン時効果",
    "hit": "ヒット時効果",
}
STEP_EN = {
    "8-9": "Steps 8–9: payment",
    "9b": "Step 9b: on cancel",
    "10": "Step 10: gauge gain",
    "11": "Step 11: double / triple",
    "12": "Step 12: on bet",
    "13": "Step 13: the card itself",
    "14": "Step 14: own supports",
    "15": "Step 15: opposing supports",
    "16": "Step 16: own attack cards",
    "17": "Step 17: opposing attack cards",
    "open": "On open",
    "hit": "On hit",
}


@dataclass(frozen=True)
class Words(SeatWords):
    """Sentences of previews and records in one language, for one viewer; cards are named
    from ``pool`` (the game's: its card set's, or the shipped cards)."""

    pool: MakenPool = SHIPPED_POOL

    def say(self, ja: str, en: str) -> str:
        """The Japanese or the English text."""
        return ja if self.ja else en

    def card(self, cid: Any) -> str:
        """A card's name."""
        card = self.pool.card.get(str(cid))
        return str(cid) if card is None else card.name(self.lang)

    def bet_name(self, cid: str, n: int, option: str | None) -> str:
        """霜月斬×2（パワフル） / Frost-Moon Cut ×2 (Powerful)."""
        name = self.card(cid) + (f"×{n}" if n > 1 and self.ja else f" ×{n}" if n > 1 else "")
        if option:
            en = option.replace("-", " ").title()
            name += self.say(f"（{OPTION_JA.get(option, option)}）", f" ({en})")
        return name

    def data(self, spd: int, front: int, back: int, atk: int) -> str:
        """速4 間2→1 攻3 / Spd 4 Dist 2→1 Atk 3."""
        dist = distance_text(front, back)
        return self.say(f"速{spd} 間{dist} 攻{atk}", f"Spd {spd} Dist {dist} Atk {atk}")

    def verdict(self, outcome: Mapping[str, Any]) -> str:
        """The result of a judge in a few words: who hits, for how much, a down, the win."""
        hitter = outcome.get("hitter")
        if hitter is None:
            return self.say("ヒットなし", "No hit")
        d = int(outcome.get("damage") or 0)
        who = self.poss(hitter)
        text = self.say(f"{who}ヒット — {d}ダメージ", f"{who} hit — {d} damage")
        if self.viewer is not None and hitter == self.viewer:
            text = self.say(f"あなたのヒット — {d}ダメージ", f"You hit — {d} damage")
        loser = 1 - int(hitter)
        if outcome.get("winner") is not None:
            text += self.say(
                f"・{self.who(outcome['winner'])}の勝ち",
                f" · {self.who(outcome['winner'])} "
                + ("win" if outcome["winner"] == self.viewer else "wins"),
            )
        elif outcome.get("down"):
            text += self.say(
                f"・{self.who(loser)}がダウン", f" · {lower_first(self.who(loser))} down"
            )
        return text

    def tone(self, outcome: Mapping[str, Any]) -> str:
        """good (the viewer hits), bad (the viewer is hit), even (no hit), info (observer)."""
        hitter = outcome.get("hitter")
        if hitter is None:
            return "even"
        if self.viewer is None:
            return "info"
        return "good" if hitter == self.viewer else "bad"

    def how(self, how: Any) -> str:
        """The kind of a judge in words."""
        if how is None:
            return self.say("攻撃をやめた", "the attack stopped")
        return HOW_JA.get(str(how), str(how)) if self.ja else HOW_EN.get(str(how), str(how))

    def step_label(self, step: Any) -> str:
        """The 17-step label of a bet's sub-step (手順10 ゲージ増加)."""
        table = STEP_JA if self.ja else STEP_EN
        return table.get(str(step), str(step))

    def check(self, spd: int, front: int, vs: Mapping[str, Any]) -> str:
        """The speed and distance check of a bet against the opposing top card."""
        ok_s = "≥" if spd >= int(vs["spd"]) else "<"
        ok_d = "≥" if front >= int(vs["back"]) else "<"
        name = self.card(vs["card"])
        return self.say(
            f"速度 {spd} {ok_s} {vs['spd']}・先間合 {front} {ok_d} 後間合 {vs['back']}（{name}）",
            f"speed {spd} {ok_s} {vs['spd']}, front {front} {ok_d} back {vs['back']} ({name})",
        )

    def answer_needs(self, spd: int, back: int) -> str:
        """What the opponent needs to answer a bet: speed and front distance at least these."""
        return self.say(
            f"相手が返すには：速度{spd}以上・先間合{back}以上",
            f"To answer it the opponent needs speed {spd}+ and front distance {back}+",
        )

    def cards(self, cids: Sequence[Any]) -> str:
        """A list of card names."""
        return ("・" if self.ja else ", ").join(self.card(c) for c in cids)

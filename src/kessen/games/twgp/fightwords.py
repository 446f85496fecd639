"""The words of a TWGP fight's outcome, from one seat's side: a verdict, detail lines, a tone.

Used for a preview (:mod:`.preview`) and for the result banner of a fight's record (the view's
``resolution``). Everything comes from an outcome and a basis (:mod:`.fight`) and the names
of the stacks the fight discarded; a reader that is no seat (``None``) reads neutral words.

>>> outcome = {"result": "attacker", "attack": 4, "defence": 2, "lost": [[1, 3]],
...            "surge": [0, 1], "vitals": [0, 0], "ignored": None, "winner": None}
>>> basis = {"declared": {"kind": "assault", "seat": 0}, "answers": []}
>>> words = verdict(outcome, basis, 0, "ja", {(1, 3): "♥2"})
>>> words["title"], words["tone"]
('勝ち — 4 対 2', 'good')
>>> words["lines"][1]
'相手のマス3（♥2）が捨札になる'
>>> verdict(outcome, basis, 1, "en", {})["title"]
'Loss — 4 vs 2'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kessen.engine.contract import Json
from kessen.engine.wording import SeatWords, lower_first
from kessen.games.twgp.cards import by_slug, is_slug

Names = Mapping[tuple[int, int], str]

_ATTACKER_WINS = frozenset({"attacker", "hit"})
_DEFENDER_WINS = frozenset({"target", "miss", "fail", "lost_lock_on", "cancelled"})

# (result) -> (ja, en) of the verdict for the side that won it, and for the side that lost it.
_WORDS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "attacker": (("勝ち", "Win"), ("負け", "Loss")),
    "target": (("勝ち", "Win"), ("負け", "Loss")),
    "hit": (("ダイレクト成立", "Direct hits"), ("ダイレクトを受ける", "Direct hits you")),
    "boost": (("ブースト成功", "Boost hits"), ("ブーストを受ける", "Boost hits you")),
    "miss": (("ブーストは届かない", "Boost misses"), ("ブースト失敗", "Boost misses")),
    "fail": (("ブーストは届かない", "Boost falls short"), ("ブースト失敗", "Boost falls short")),
    "lost_lock_on": (("回避（ロックオン喪失）", "Evaded"), ("回避される", "Evaded")),
    "cancelled": (("攻撃キャンセル", "Attack cancelled"), ("攻撃キャンセル", "Attack cancelled")),
}
_EVEN = {
    "tie": ("相打ち", "Both fall"),
    "zero": ("00制限で引き分け", "Tie by the 00 rule"),
}
_NEUTRAL = {
    "attacker": ("攻撃側の勝ち", "The attacker wins"),
    "target": ("防御側の勝ち", "The defender wins"),
    "hit": ("ダイレクト成立", "The direct hits"),
    "boost": ("ブースト成功", "The boost hits"),
    "miss": ("ブーストは届かない", "The boost misses"),
    "fail": ("ブースト失敗", "The boost falls short"),
    "lost_lock_on": ("回避（ロックオン喪失）", "Evaded"),
    "cancelled": ("攻撃キャンセル", "Attack cancelled"),
}


def _winning_side(result: str, kind: str) -> str:
    if result in _EVEN:
        return "even"
    if result in _ATTACKER_WINS or (kind == "boost" and result == "attacker"):
        return "attacker"
    if result in _DEFENDER_WINS:
        return "defender"
    return "even"


def _key(result: str, kind: str) -> str:
    return "boost" if kind == "boost" and result == "attacker" else result


def score_text(attack: Any, defence: Any, lang: str) -> str:
    """「攻撃 4 対 防御 5」 / "Attack 4 vs defence 5"."""
    if lang == "ja":
        return f"攻撃 {attack} 対 防御 {defence}"
    return f"Attack {attack} vs defence {defence}"


def verdict(
    outcome: Mapping[str, Any],
    basis: Mapping[str, Any],
    reader: int | None,
    lang: str,
    names: Names,
    past: bool = False,
) -> Json:
    """``{"title", "lines", "tone"}`` of an outcome as ``reader`` reads it (``None``: neutral).

    ``names`` labels the discarded stacks (``(seat, square)`` → ♠4), when known; ``past``
    words what happened (a record) rather than what would happen (a preview).
    """
    ja = lang == "ja"
    words = SeatWords("ja" if ja else "en", reader)
    declared = basis["declared"]
    kind = str(declared.get("kind"))
    attacker = int(declared.get("seat", 0))
    result = str(outcome.get("result"))
    side = _winning_side(result, kind)
    key = _key(result, kind)
    if side == "even":
        ja_word, en_word = _EVEN.get(result, ("引き分け", "Even"))
        tone = "even"
    elif reader is None:
        ja_word, en_word = _NEUTRAL.get(key, (result, result))
        tone = "info"
    else:
        mine = (side == "attacker") == (reader == attacker)
        won, lost = _WORDS.get(key, ((result, result), (result, result)))
        ja_word, en_word = won if mine else lost
        tone = "good" if mine else "bad"
    word = ja_word if ja else en_word
    attack, defence = outcome.get("attack"), outcome.get("defence")
    vs = "対" if ja else "vs"
    title = f"{word} — {attack} {vs} {defence}" if attack is not None else word
    lines: list[str] = []
    if attack is not None:
        lines.append(score_text(attack, defence, lang))
    for seat, square in outcome.get("lost", []):
        name = names.get((seat, square))
        where = f"マス{square}" if ja else f"square {square}"
        label = f"（{name}）" if ja and name else (f" ({name})" if name else "")
        if ja:
            lines.append(f"{words.poss(seat)}{where}{label}が捨札に{'なった' if past else 'なる'}")
        else:
            lines.append(f"{words.poss(seat)} {where}{label} {'was' if past else 'is'} discarded")
    for seat, count in enumerate(outcome.get("vitals", [0, 0])):
        if count:
            if ja:
                lines.append(
                    f"{words.who(seat)}はヴァイタルを{count}枚{'失った' if past else '失う'}"
                )
            else:
                verb = "lost" if past else "lose" if seat == reader else "loses"
                lines.append(f"{words.who(seat)} {verb} {count} vital{'s' if count > 1 else ''}")
    ignored = outcome.get("ignored")
    if ignored is not None:
        lines.append(
            f"{words.poss(ignored)}ダメージは無視{'された' if past else 'される'}"
            "（ヴァイタルが尽きたターン）"
            if ja
            else f"{words.poss(ignored)} damage {'was' if past else 'is'} ignored "
            "(vitals ran out this turn)"
        )
    surge = outcome.get("surge", [0, 0])
    if any(surge):
        parts = [(words.who(s), n) for s, n in enumerate(surge) if n]
        if ja:
            lines.append("サージへ：" + "・".join(f"{w} +{n}枚" for w, n in parts))
        else:
            lines.append("To the surge: " + ", ".join(f"{lower_first(w)} +{n}" for w, n in parts))
    paid = [(attacker, int(declared.get("surge", 0) or 0))]
    paid += [
        (int(a.get("seat", 1 - attacker)), int(a.get("k", 0)))
        for a in basis.get("answers", [])
        if a.get("kind") == "surge_pay"
    ]
    for seat, k in paid:
        if k:
            if ja:
                lines.append(
                    f"{words.who(seat)}はサージ{3 * k}枚を{'支払った' if past else '支払う'}"
                )
            else:
                verb = "paid" if past else "pay" if seat == reader else "pays"
                lines.append(f"{words.who(seat)} {verb} {3 * k} surge")
    winner = outcome.get("winner")
    if winner is not None:
        if winner < 0:
            lines.append("引き分けでゲーム終了" if ja else "The game ends in a draw")
        else:
            lines.append(
                f"{words.who(winner)}の勝ちでゲーム終了"
                if ja
                else f"{words.who(winner)} {_wins(winner, reader, past)} the game"
            )
            if reader is not None:
                tone = "good" if winner == reader else "bad"
    return {"title": title, "lines": lines, "tone": tone}


def _wins(winner: int, reader: int | None, past: bool) -> str:
    if past:
        return "won"
    return "win" if winner == reader else "wins"


def names_of(entries: Sequence[Mapping[str, Any]]) -> dict[tuple[int, int], str]:
    """The unit label (♠4) of each stack the discards among ``entries`` name (their first
    card, the unit; a fight's discards are stacks every seat has seen face up)."""
    out: dict[tuple[int, int], str] = {}
    for entry in entries:
        cards = entry.get("cards")
        if entry.get("kind") == "discard" and cards and is_slug(str(cards[0])):
            out[(int(entry["seat"]), int(entry["square"]))] = by_slug(str(cards[0])).label
    return out


def pending_line(seat: int, count: int, reader: int | None, lang: str) -> str:
    """The vital loss still to be picked: 「相手はヴァイタルを1枚失う（選んでいるところ）」."""
    words = SeatWords("ja" if lang == "ja" else "en", reader)
    if lang == "ja":
        return f"{words.who(seat)}はヴァイタルを{count}枚失う（どれを失うか選んでいるところ）"
    verb = "loses" if seat != reader else "lose"
    noun = "vital" if count == 1 else "vitals"
    return f"{words.who(seat)} {verb} {count} {noun} (choosing which)"

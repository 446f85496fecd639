"""Human log lines: one view log entry of a TWGP game as a sentence in Japanese or English.

:func:`describe` renders the entries of ``view()["log"]`` (a ``kind`` plus fields). Seats are
"あなた/相手" ("You/The opponent") seen from ``viewer``, or "P1/P2" for a neutral reader. A part
the viewer may not see (an opponent's download, a stealth summon) is absent from the entry and
the sentence says so without naming the card.

>>> describe({"kind": "charge_drive", "seat": 1, "square": 2, "face": "down"}, "ja", 0)
'相手はマス2にステルス召喚した（カードは非公開）。'
>>> describe({"kind": "direct", "seat": 0, "attacker": 1, "attack": 4}, "en", 0)
'You declared a direct with square 1 (power 4).'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kessen.engine.wording import SeatWords, lower_first
from kessen.games.twgp.cards import by_slug, is_slug

LANGS = ("ja", "en")
"""The languages log lines are available in."""

Entry = Mapping[str, Any]


@dataclass(frozen=True)
class _Words(SeatWords):
    """Seat names and card names in one language, for one viewer."""

    def card(self, slug: Any) -> str:
        if not is_slug(slug):
            return str(slug)
        cdef = by_slug(str(slug))
        return f"{cdef.label}" if self.ja else cdef.label

    def cards(self, slugs: Sequence[Any]) -> str:
        if not slugs:
            return "なし" if self.ja else "none"
        return ("・" if self.ja else ", ").join(self.card(s) for s in slugs)

    def say(self, ja: str, en: str) -> str:
        return ja if self.ja else en


Render = Callable[[_Words, Entry], str]


_R: dict[str, Render] = {
    "built": lambda w, e: _built(w, e),
    "deal": lambda w, e: w.say(
        f"先攻は{w.who(e['first'])}。", f"{w.who(e['first'])} will play first."
    ),
    "turn": lambda w, e: w.say(
        f"ターン{e['turn']}：{w.who(e['seat'])}のターン。",
        f"Turn {e['turn']}: {lower_first(w.poss(e['seat']))} turn.",
    ),
    "battle_phase": lambda w, e: w.say(
        f"{w.who(e['seat'])}はバトル・フェイズに入った。",
        f"{w.who(e['seat'])} entered the battle phase.",
    ),
    "end_turn": lambda w, e: w.say(
        f"{w.who(e['seat'])}はターンを終えた。", f"{w.who(e['seat'])} ended the turn."
    ),
    "setup": lambda w, e: w.say(
        f"{w.who(e['seat'])}はチャージ{e['square']}を手札にした{_paren(w, e)}。",
        f"{w.who(e['seat'])} set up charge square {e['square']}{_paren(w, e)}.",
    ),
    "download": lambda w, e: w.say(
        f"{w.who(e['seat'])}は{len(e['squares'])}枚ダウンロードした{_paren_list(w, e)}。",
        f"{w.who(e['seat'])} downloaded {len(e['squares'])}{_paren_list(w, e)}.",
    ),
    "recharge": lambda w, e: w.say(
        f"{w.who(e['seat'])}は手札をリ=チャージした{_paren(w, e)}。",
        f"{w.who(e['seat'])} re-charged a hand card{_paren(w, e)}.",
    ),
    "reactive": lambda w, e: w.say(
        f"{w.who(e['seat'])}はマス{e['square']}の{w.card(e['card'])}をリ=アクティヴした。",
        f"{w.who(e['seat'])} re-actived {w.card(e['card'])} in square {e['square']}.",
    ),
    "charge_drive": lambda w, e: _charge_drive(w, e),
    "interrupt": lambda w, e: w.say(
        f"マス{e['square']}のユニットが割り込んだ（ダイレクトはアサルトになる）。",
        f"The unit in square {e['square']} interrupts: the direct becomes an assault.",
    ),
    "attach": lambda w, e: w.say(
        f"{w.who(e['seat'])}はマス{e['square']}に{w.card(e['card'])}を敷いた。",
        f"{w.who(e['seat'])} attached {w.card(e['card'])} in square {e['square']}.",
    ),
    "weapon_back": lambda w, e: w.say(
        f"{w.who(e['seat'])}は{w.card(e['card'])}を手札に戻した。",
        f"{w.who(e['seat'])} returned {w.card(e['card'])} to the hand.",
    ),
    "weapon_move": lambda w, e: w.say(
        f"{w.who(e['seat'])}は{w.card(e['card'])}をマス{e['square']}からマス{e['to']}へ移した。",
        f"{w.who(e['seat'])} moved {w.card(e['card'])} from square {e['square']} to {e['to']}.",
    ),
    "stealth": lambda w, e: w.say(
        f"{w.who(e['seat'])}はマス{e['square']}のユニットを潜伏させた。",
        f"{w.who(e['seat'])} stealthed the unit in square {e['square']}.",
    ),
    "unstealth": lambda w, e: w.say(
        f"{w.who(e['seat'])}はマス{e['square']}の{w.card(e['card'])}の潜伏を解除した。",
        f"{w.who(e['seat'])} un-stealthed {w.card(e['card'])} in square {e['square']}.",
    ),
    "declare_gb": lambda w, e: w.say(
        f"{w.who(e['seat'])}はマス{e['square']}の{w.card(e['card'])}でGブラストを宣言した。",
        f"{w.who(e['seat'])} declared a G-blast with {w.card(e['card'])} in square {e['square']}.",
    ),
    "grid_blast": lambda w, e: w.say(
        f"{w.who(e['seat'])}はGブラストを実行した（パワー{e['power']}）。",
        f"{w.who(e['seat'])} executed a G-blast (power {e['power']}).",
    ),
    "power_drive": lambda w, e: w.say(
        f"{w.who(e['seat'])}はマス{e['square']}に{w.card(e['card'])}をパワー召喚した"
        f"（フレーム：{w.cards(e['frames'])}）。",
        f"{w.who(e['seat'])} power-drove {w.card(e['card'])} in square {e['square']} "
        f"(frames: {w.cards(e['frames'])}).",
    ),
    "counter_drive": lambda w, e: w.say(
        f"{w.who(e['seat'])}はマス{e['square']}に{w.card(e['card'])}をカウンター召喚した"
        f"（フレーム：{w.cards(e['frames'])}）。",
        f"{w.who(e['seat'])} counter-drove {w.card(e['card'])} in square {e['square']} "
        f"(frames: {w.cards(e['frames'])}).",
    ),
    "weapons_over_cap": lambda w, e: w.say(
        f"6枚を超えるウェポン{w.cards(e['cards'])}を捨てた。",
        f"Weapons over 6 were discarded: {w.cards(e['cards'])}.",
    ),
    "evaded": lambda w, e: w.say(
        "標的が素材になり、ロックオンが外れた。",
        "The target became a frame: the lock-on is lost.",
    ),
    "assault": lambda w, e: w.say(
        f"{w.who(e['seat'])}はマス{e['attacker']}でマス{e['target']}にアサルトした"
        f"（パワー{e['attack']}{_surge_ja(e)}）。",
        f"{w.who(e['seat'])} assaulted square {e['target']} with square {e['attacker']} "
        f"(power {e['attack']}{_surge_en(e)}).",
    ),
    "boost": lambda w, e: w.say(
        f"{w.who(e['seat'])}はマス{e['attacker']}でマス{e['target']}にチャージ・ブーストした"
        f"（パワー{e['attack']}＋{e['downloads']}）。",
        f"{w.who(e['seat'])} charge-boosted square {e['target']} with square "
        f"{e['attacker']} (power {e['attack']} + {e['downloads']}).",
    ),
    "direct": lambda w, e: w.say(
        f"{w.who(e['seat'])}はマス{e['attacker']}でダイレクトを宣言した（パワー{e['attack']}）。",
        f"{w.who(e['seat'])} declared a direct with square {e['attacker']} (power {e['attack']}).",
    ),
    "surge_pay": lambda w, e: w.say(
        f"{w.who(e['seat'])}はサージ{3 * e['k']}枚を消費した。",
        f"{w.who(e['seat'])} spent {3 * e['k']} surge cards.",
    ),
    "accept": lambda w, e: w.say(
        f"{w.who(e['seat'])}は応戦した。", f"{w.who(e['seat'])} accepted."
    ),
    "result": lambda w, e: _result(w, e),
    "discard": lambda w, e: w.say(
        f"{w.poss(e['seat'])}マス{e['square']}のスタックが捨札になった（{w.cards(e['cards'])}）。",
        f"{w.poss(e['seat'])} stack in square {e['square']} was discarded ({w.cards(e['cards'])}).",
    ),
    "charge_wiped": lambda w, e: w.say(
        f"{w.poss(e['seat'])}チャージ札が捨札になった（{w.cards(e['cards'])}）。",
        f"{w.poss(e['seat'])} charge cards were discarded ({w.cards(e['cards'])}).",
    ),
    "log_out": lambda w, e: w.say(
        f"{w.who(e['seat'])}は{w.card(e['card'])}を次に"
        + ("サージに置いた。" if e["zone"] == "surge" else "ストレージに置いた。"),
        f"{w.who(e['seat'])} put {w.card(e['card'])} next into the "
        + ("surge." if e["zone"] == "surge" else "storage."),
    ),
    "cache": lambda w, e: w.say(
        f"{w.who(e['seat'])}はウェポン{w.cards(e['cards'])}を"
        + ("マスに残した。" if e["keep"] else "捨てた。"),
        f"{w.who(e['seat'])} "
        + ("kept" if e["keep"] else "dropped")
        + f" the weapons {w.cards(e['cards'])}.",
    ),
    "vital_lost": lambda w, e: w.say(
        f"{w.who(e['seat'])}のヴァイタル{w.cards(e['cards'])}が失効した"
        f"（ヴァイタル効果：{w.card(e['effect'])}）。",
        f"{w.poss(e['seat'])} vitals {w.cards(e['cards'])} were lost "
        f"(vital effect: {w.card(e['effect'])}).",
    ),
    "damage_ignored": lambda w, e: w.say(
        f"{w.who(e['seat'])}は裏置きヴァイタルを失ったターンなので、ダメージは無視された。",
        f"{w.who(e['seat'])} ran out of vitals this turn: the damage is ignored.",
    ),
    "wipe": lambda w, e: w.say(
        f"ヴァイタル効果：基本パワー{e['rank']:02d}のユニットが場から捨てられる。",
        f"Vital effect: units of base power {e['rank']:02d} are wiped.",
    ),
    "damage_step": lambda w, e: w.say(
        f"{w.who(e['seat'])}のダメージ・ルーティン：{_step(w, e['step'])}。",
        f"{w.poss(e['seat'])} damage routine: {_step(w, e['step'])}.",
    ),
    "damage_done": lambda w, e: w.say(
        f"{w.who(e['seat'])}はダメージ・ルーティンを終えた。",
        f"{w.who(e['seat'])} finished the damage routine.",
    ),
    "reload": lambda w, e: w.say(
        f"{w.who(e['seat'])}はリ=ロードで手札を山札の下に戻した{_paren(w, e)}。",
        f"{w.who(e['seat'])} reloads: a hand card to the pile bottom{_paren(w, e)}.",
    ),
    "reload_bottom": lambda w, e: w.say(
        f"{w.who(e['seat'])}は手札を山札の下に戻した{_paren(w, e)}。",
        f"{w.who(e['seat'])} put a hand card on the pile bottom{_paren(w, e)}.",
    ),
    "reload_take": lambda w, e: w.say(
        f"{w.who(e['seat'])}は山札の上から{e['took']}枚を手札にした{_paren_list(w, e)}。",
        f"{w.who(e['seat'])} took {e['took']} from the pile top{_paren_list(w, e)}.",
    ),
    "shuffle": lambda w, e: w.say(
        f"{w.who(e['seat'])}は山札をシャッフルした。", f"{w.who(e['seat'])} shuffled the pile."
    ),
    "refill": lambda w, e: w.say(
        f"{w.poss(e['seat'])}ストレージ{e['count']}枚が山札になった（変則ルールB）。",
        f"{w.poss(e['seat'])} storage ({e['count']} cards) became the pile (variant B).",
    ),
    "game_over": lambda w, e: _game_over(w, e),
}


def _paren(w: _Words, e: Entry) -> str:
    return (
        f"（{w.card(e['card'])}）"
        if w.ja and "card" in e
        else (f" ({w.card(e['card'])})" if "card" in e else "")
    )


def _paren_list(w: _Words, e: Entry) -> str:
    if "cards" not in e:
        return ""
    return f"（{w.cards(e['cards'])}）" if w.ja else f" ({w.cards(e['cards'])})"


def _built(w: _Words, e: Entry) -> str:
    """The counts every reader sees; then, for the builder (or a reader of everything), the
    build itself: the starting hand, the vitals and the cards set aside."""
    counts = w.say(
        f"{w.who(e['seat'])}は構築を終えた（手札{e['hand']}枚・山札{e['pile']}枚）。",
        f"{w.who(e['seat'])} finished building ({e['hand']} in hand, {e['pile']} in the pile).",
    )
    parts = [
        (key, ja, en)
        for key, ja, en in (
            ("hand_cards", "手札", "hand"),
            ("vitals", "ヴァイタル", "vitals"),
            ("aside", "ゲーム外", "set aside"),
        )
        if key in e
    ]
    if not parts:
        return counts
    if w.ja:
        return counts + "、".join(f"{ja}：{w.cards(e[key])}" for key, ja, _ in parts) + "。"
    text = "; ".join(f"{en}: {w.cards(e[key])}" for key, _, en in parts)
    return f"{counts} {text[0].upper()}{text[1:]}."


def _surge_ja(e: Entry) -> str:
    return f"、サージ{3 * e['surge']}枚消費" if e.get("surge") else ""


def _surge_en(e: Entry) -> str:
    return f", {3 * e['surge']} surge spent" if e.get("surge") else ""


def _step(w: _Words, step: str) -> str:
    names = {
        "reload": ("リ=ロード", "reload"),
        "full_charge": ("フル=チャージ", "full-charge"),
        "setup": ("セットアップ", "set-up"),
        "rebuild": ("リ=ビルド", "re-build"),
        "reactive": ("リ=アクティヴ", "re-active"),
    }
    ja, en = names.get(step, (step, step))
    return w.say(ja, en)


def _charge_drive(w: _Words, e: Entry) -> str:
    if e.get("face") == "up":
        return w.say(
            f"{w.who(e['seat'])}はマス{e['square']}に{w.card(e['card'])}をチャージ召喚した。",
            f"{w.who(e['seat'])} charge-drove {w.card(e['card'])} into square {e['square']}.",
        )
    hidden = _paren(w, e) or "（カードは非公開）"
    return w.say(
        f"{w.who(e['seat'])}はマス{e['square']}にステルス召喚した{hidden}。",
        f"{w.who(e['seat'])} stealth-drove "
        f"{w.card(e['card']) if 'card' in e else 'a hidden unit'} into square {e['square']}.",
    )


_OUTCOMES = {
    "attacker": ("攻撃側の勝ち", "the attacker wins"),
    "target": ("防御側の勝ち", "the defender wins"),
    "tie": ("引き分け（相打ち）", "a tie: both fall"),
    "zero": ("00制限で引き分け", "a tie by the 00 restriction"),
    "hit": ("ダイレクト成立", "the direct hits"),
    "miss": ("ミス", "a miss"),
    "fail": ("失敗", "it fails"),
    "lost_lock_on": ("ロックオン喪失", "lock-on lost"),
    "cancelled": ("攻撃はキャンセルされた", "the attack is cancelled"),
}


def _result(w: _Words, e: Entry) -> str:
    ja, en = _OUTCOMES.get(e.get("outcome", ""), (e.get("outcome", ""),) * 2)
    if "attack" in e:
        return w.say(
            f"結果：{e['attack']}対{e['defence']}、{ja}。",
            f"Result: {e['attack']} vs {e['defence']}, {en}.",
        )
    return w.say(f"結果：{ja}。", f"Result: {en}.")


def _game_over(w: _Words, e: Entry) -> str:
    reason = e.get("reason")
    if e.get("winner", -1) < 0:
        why = {
            "quiet": ("12ターン動きがなく", "12 quiet turns"),
            "turn_limit": ("ターン上限に達し", "the turn limit"),
        }
        ja, en = why.get(str(reason), (str(reason), str(reason)))
        return w.say(f"{ja}、引き分け。", f"A draw ({en}).")
    return w.say(f"{w.who(e['winner'])}の勝ち。", f"{w.who(e['winner'])} won.")


def describe(entry: Entry, lang: str = "ja", viewer: int | None = None) -> str:
    """One log entry of a view as a sentence in ``lang`` for ``viewer``."""
    words = _Words(lang if lang in LANGS else "ja", viewer)
    render = _R.get(str(entry.get("kind")))
    if render is None:
        return str(entry.get("kind"))
    text = render(words, entry)
    return text[0].upper() + text[1:] if text and not words.ja else text

"""The Maken card pool and starter decks as validated data, with generated ja/en card text.

The data lives in ``data/cards.toml``, ``data/decks.toml`` and ``data/characters.toml``; a
pydantic schema checks it on load (maken.md §4 ranges, §11 vocabulary, §5 deck rules). A card's
rules text is generated from its abilities, never written per card.

>>> CARD["SO09"].atk, CARD["SO09"].tags
(3, ('斬',))
>>> card_text(CARD["SO09"], "en")
'Speed 4, distance 2, attack 3. Slash. SELF [the nearest face-up card below has Slash]: attack +2.'
>>> check_deck({"character": "SO", "cards": {"SO01": 4}})[0]
'the deck has 4 cards, not 50'
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    ValidationError,
    model_validator,
)

from kessen.engine.card_sets import Said

DATA = Path(__file__).parent / "data"
CHARACTERS = ("SO", "RI", "MI", "GA")
GENERIC = "GE"
STATS = ("spd", "front", "back", "atk", "cost", "gain")
"""The six data values of an attack card, in the order of a data tuple (§4)."""
DECK_SIZE = 50
MAX_COPIES = 3
MAX_HELPERS = 10

Timing = Literal[
    "HAND_OWN",
    "HAND_OPP",
    "ON_BET",
    "SELF",
    "AFTER_OWN_BET",
    "AFTER_OPP_BET",
    "ON_OPEN",
    "ON_HIT",
    "ON_CANCEL",
]
Cond = Literal["guarded", "rv", "top", "chain", "costly", "multi"]
Stat = Literal["spd", "front", "back", "range", "atk", "cost", "gain"]
"""``range`` is 間合±n: both the front and the back value (§8.5)."""


class _Invalid(ValueError):
    """A rule of the card data broken, in English with its Japanese text (``ja``)."""

    def __init__(self, en: str, ja: str) -> None:
        super().__init__(en)
        self.ja = ja


class Ability(BaseModel):
    """One ability ``TIMING[condition]: effect`` of §11."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    timing: Timing
    cond: Cond | None = Field(default=None, alias="if")
    tag: str | None = None
    effect: Literal["mod", "draw", "gauge", "drain"]
    stat: Stat | None = None
    n: int

    @model_validator(mode="after")
    def _shape(self) -> Ability:
        if (self.effect == "mod") != (self.stat is not None):
            raise _Invalid(
                "a stat is given exactly for the mod effect",
                "stat は効果が mod のときだけ、必ず書きます",
            )
        if (self.cond in ("top", "chain")) != (self.tag is not None):
            raise _Invalid(
                "a tag is given exactly for the top and chain conditions",
                "tag は条件が top か chain のときだけ、必ず書きます",
            )
        if self.effect != "mod" and self.n < 1:
            raise _Invalid(
                "draw, gauge and drain move at least one card",
                "draw・gauge・drain の n は1以上です",
            )
        if self.timing in ("HAND_OWN", "HAND_OPP", "SELF") and self.effect != "mod":
            raise _Invalid(
                f"{self.timing} abilities modify data only",
                f"{self.timing} の能力はデータを変える（mod）だけです",
            )
        if self.effect == "mod" and self.timing not in ("HAND_OWN", "HAND_OPP", "SELF"):
            raise _Invalid(
                "only HAND_OWN, HAND_OPP and SELF abilities modify data (§11)",
                "データを変える（mod）のは HAND_OWN・HAND_OPP・SELF の能力だけです（§11）",
            )
        return self


class Card(BaseModel):
    """One printed card (§4); attack cards carry data, support cards a duration."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str = Field(pattern=r"^(SO|RI|MI|GA|GE)[0-9]{2}$")
    name_ja: str
    name_en: str
    character: Literal["SO", "RI", "MI", "GA", "GE"]
    kind: Literal["attack", "support"]
    spd: int = Field(default=0, ge=0, le=9)
    front: int = Field(default=0, ge=0, le=5)
    back: int = Field(default=0, ge=0, le=5)
    atk: int = Field(default=0, ge=0, le=10)
    cost: int = Field(ge=0, le=4)
    gain: int = Field(default=0, ge=0, le=2)
    labels: tuple[Literal["no-fb", "rv-only", "rv-ok", "ambush"], ...] = ()
    tags: tuple[str, ...] = ()
    duration: Literal["turn", "lasting"] | None = None
    abilities: tuple[Ability, ...] = ()

    @model_validator(mode="after")
    def _kind(self) -> Card:
        if self.id[:2] != self.character:
            raise _Invalid(
                f"{self.id}: the id's prefix is its character",
                f"{self.id}：id の頭2文字はキャラ（character）と同じにします",
            )
        if self.kind == "support":
            if self.duration is None:
                raise _Invalid(
                    f"{self.id}: a support card has a duration",
                    f"{self.id}：補助カードには duration（turn か lasting）が要ります",
                )
            if self.labels or self.spd or self.front or self.back or self.atk or self.gain:
                raise _Invalid(
                    f"{self.id}: a support card has only a cost and a duration",
                    f"{self.id}：補助カードにあるのはゲージ消費と duration だけです",
                )
        elif self.duration is not None:
            raise _Invalid(
                f"{self.id}: an attack card has no duration",
                f"{self.id}：攻撃カードに duration はありません",
            )
        for ab in self.abilities:
            if self.kind == "support" and ab.timing in ("ON_BET", "SELF", "ON_HIT", "ON_CANCEL"):
                raise _Invalid(
                    f"{self.id}: {ab.timing} is an attack card's timing",
                    f"{self.id}：{ab.timing} は攻撃カードのタイミングです",
                )
            if self.kind == "attack" and ab.timing == "ON_OPEN":
                raise _Invalid(
                    f"{self.id}: ON_OPEN is a support card's timing",
                    f"{self.id}：ON_OPEN は補助カードのタイミングです",
                )
        return self

    @property
    def slug(self) -> str:
        """The card's word in action texts (lower-case id, e.g. ``so01``)."""
        return self.id.lower()

    @property
    def data(self) -> tuple[int, int, int, int, int, int]:
        """The printed data (spd, front, back, atk, cost, gain)."""
        return (self.spd, self.front, self.back, self.atk, self.cost, self.gain)

    def name(self, lang: str) -> str:
        """The card's name in ``lang``."""
        return self.name_ja if lang == "ja" else self.name_en

    def has(self, label: str) -> bool:
        """Whether the card carries ``label`` (no-fb, rv-only, rv-ok, ambush)."""
        return label in self.labels


class Deck(BaseModel):
    """A deck list: the character card and the counts of the 50 cards."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    character: Literal["SO", "RI", "MI", "GA"]
    cards: dict[str, StrictInt]


def _load() -> tuple[dict[str, Card], dict[str, Deck], dict[str, tuple[str, str]], str]:
    raw = b"".join((DATA / n).read_bytes() for n in ("cards.toml", "decks.toml", "characters.toml"))
    try:
        cards = [Card.model_validate(c) for c in tomllib.loads(raw_text("cards.toml"))["card"]]
        decks = {
            k: Deck.model_validate(v)
            for k, v in tomllib.loads(raw_text("decks.toml"))["deck"].items()
        }
    except ValidationError as err:
        raise ValueError(f"Maken card data: {err}") from err
    chars = {
        k: (v["name_ja"], v["name_en"])
        for k, v in tomllib.loads(raw_text("characters.toml"))["character"].items()
    }
    by_id = {c.id: c for c in cards}
    if len(by_id) != len(cards):
        raise ValueError("Maken card data: duplicate card ids")
    for key, deck in decks.items():
        problems = check_deck(deck.model_dump(), by_id)
        if problems:
            raise ValueError(f"Maken starter deck {key}: {'; '.join(problems)}")
    return by_id, decks, chars, hashlib.blake2b(raw, digest_size=8).hexdigest()


def raw_text(name: str) -> str:
    """The text of one data file."""
    return (DATA / name).read_text(encoding="utf-8")


def _shape_problems(deck: Any) -> list[str]:
    """What is wrong with the shape of a deck list (not its contents), one line each (each a
    :class:`~kessen.engine.card_sets.Said`: English carrying its Japanese)."""
    if not isinstance(deck, Mapping):
        return [
            Said(
                'a deck list is an object {"character": "SO", "cards": {"SO01": 3, ...}}',
                'デッキリストは {"character": "SO", "cards": {"SO01": 3, ...}} の形です',
            )
        ]
    problems: list[str] = [
        Said(
            f"{_short(key)}: unknown key (a deck list has character and cards)",
            f"{_short(key)}：知らない項目です（デッキリストにあるのは character と cards です）",
        )
        for key in deck
        if key not in ("character", "cards")
    ]
    character = deck.get("character")
    if not isinstance(character, str) or character not in CHARACTERS:
        problems.append(
            Said(
                f"character: expected one of {', '.join(CHARACTERS)}",
                f"character：{', '.join(CHARACTERS)} のどれかにしてください",
            )
        )
    cards = deck.get("cards")
    if not isinstance(cards, Mapping):
        problems.append(
            Said(
                'cards: expected an object of card ids and counts, such as {"SO01": 3}',
                'cards：{"SO01": 3} のようにカードidと枚数を並べてください',
            )
        )
        return problems
    bad = [
        cid
        for cid, n in cards.items()
        if not isinstance(cid, str) or not isinstance(n, int) or isinstance(n, bool)
    ]
    problems += [
        Said(
            f"cards.{_short(cid)}: expected a whole number of copies",
            f"cards.{_short(cid)}：枚数は整数にしてください",
        )
        for cid in bad[:5]
    ]
    if len(bad) > 5:
        problems.append(
            Said(
                f"cards: {len(bad) - 5} more counts that are not whole numbers",
                f"cards：ほかに{len(bad) - 5}か所、枚数が整数ではありません",
            )
        )
    return problems


def _short(key: Any) -> str:
    """A key a client sent, as a message names it: at most 20 characters."""
    text = str(key) if isinstance(key, str) else type(key).__name__
    return text if len(text) <= 20 else text[:19] + "…"


def check_deck(deck: Mapping[str, Any], pool: Mapping[str, Card] | None = None) -> list[str]:
    """Every problem of a deck list under §5 (empty when legal): 50 cards, ≤ 3 copies of a
    カード名称, only own, generic and at most 10 other characters' cards. A deck list of the
    wrong shape (``cards`` not an object of whole numbers, an unknown character) gets one
    line per wrong field, naming it. Each line is English carrying its Japanese
    (:class:`~kessen.engine.card_sets.Said`).

    >>> check_deck({"character": "SO", "cards": "x"})
    ['cards: expected an object of card ids and counts, such as {"SO01": 3}']
    >>> check_deck({"character": "SO", "cards": {"SO01": True}})
    ['cards.SO01: expected a whole number of copies']
    """
    cards = pool if pool is not None else CARD
    shape = _shape_problems(deck)
    if shape:
        return shape
    try:
        parsed = Deck.model_validate(deck)
    except ValidationError as err:  # unreachable after the shape check; kept as a last guard
        first = err.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "deck list"
        return [f"{where}: {first['msg']}"]
    problems: list[str] = []
    total = sum(parsed.cards.values())
    if total != DECK_SIZE:
        problems.append(
            Said(
                f"the deck has {total} cards, not {DECK_SIZE}",
                f"デッキが{total}枚です。{DECK_SIZE}枚にしてください",
            )
        )
    helpers = 0
    names: dict[str, int] = {}
    unknown = [cid for cid in parsed.cards if cid not in cards]
    problems += [
        Said(f"unknown card {_short(cid)}", f"{_short(cid)} というカードはありません")
        for cid in unknown[:5]
    ]
    if len(unknown) > 5:
        problems.append(
            Said(
                f"{len(unknown) - 5} more unknown cards",
                f"ほかに{len(unknown) - 5}枚、知らないカードがあります",
            )
        )
    for cid, n in parsed.cards.items():
        card = cards.get(cid)
        if card is None:
            continue
        if n < 1:
            problems.append(
                Said(f"{cid}: a count must be at least 1", f"{cid}：枚数は1以上にしてください")
            )
        names[card.name_ja] = names.get(card.name_ja, 0) + n
        if card.character not in (parsed.character, GENERIC):
            helpers += n
    problems += [
        Said(
            f"{n}: {k} copies (at most {MAX_COPIES})",
            f"{n}：{k}枚あります（同じ名前のカードは{MAX_COPIES}枚まで）",
        )
        for n, k in names.items()
        if k > MAX_COPIES
    ]
    if helpers > MAX_HELPERS:
        problems.append(
            Said(
                f"{helpers} helper cards (at most {MAX_HELPERS})",
                f"ほかのキャラのカードが{helpers}枚あります（{MAX_HELPERS}枚まで）",
            )
        )
    return problems


def deck_cards(deck: Mapping[str, Any]) -> list[str]:
    """The 50 card ids of a (checked) deck list, sorted."""
    return sorted(cid for cid, n in deck["cards"].items() for _ in range(n))


# -- generated card text --------------------------------------------------------------------

_STAT_JA = {
    "spd": "速度",
    "front": "先間合",
    "back": "後間合",
    "range": "間合",
    "atk": "攻撃値",
    "cost": "ゲージ消費",
    "gain": "ゲージ増加",
}
_STAT_EN = {
    "spd": "speed",
    "front": "front distance",
    "back": "back distance",
    "range": "distance",
    "atk": "attack",
    "cost": "gauge cost",
    "gain": "gauge gain",
}
_TIMING_JA = {
    "HAND_OWN": "自分の手札",
    "HAND_OPP": "相手の手札",
    "ON_BET": "ベット時",
    "SELF": "このカード",
    "AFTER_OWN_BET": "自分のベット後",
    "AFTER_OPP_BET": "相手のベット後",
    "ON_OPEN": "オープン時",
    "ON_HIT": "ヒット時",
    "ON_CANCEL": "キャンセル時",
}
_TIMING_EN = {
    "HAND_OWN": "YOUR HAND",
    "HAND_OPP": "OPPONENT'S HAND",
    "ON_BET": "ON BET",
    "SELF": "SELF",
    "AFTER_OWN_BET": "AFTER YOUR BET",
    "AFTER_OPP_BET": "AFTER OPPONENT'S BET",
    "ON_OPEN": "ON OPEN",
    "ON_HIT": "ON HIT",
    "ON_CANCEL": "ON CANCEL",
}
_LABEL_JA = {
    "no-fb": "FB不可",
    "rv-only": "【RV専用】",
    "rv-ok": "【RV可能】",
    "ambush": "【奇襲】",
}
_LABEL_EN = {
    "no-fb": "No FB",
    "rv-only": "[RV only]",
    "rv-ok": "[RV allowed]",
    "ambush": "[Ambush]",
}
TAG_EN = {"斬": "Slash", "舞": "Dance"}


def tag_name(tag: str, lang: str) -> str:
    """A tag word in ``lang``."""
    return tag if lang == "ja" else TAG_EN.get(tag, tag)


def _cond(ab: Ability, lang: str) -> str:
    tag = tag_name(ab.tag or "", lang)
    if lang == "ja":
        return {
            "guarded": "相手がガード中",
            "rv": "RVのとき",
            "top": f"自分のトップが{tag}",
            "chain": f"直下の表向きカードが{tag}",
            "costly": "ゲージ消費1以上のベット",
            "multi": "ダブル／トリプルアタック",
        }[ab.cond or ""]
    return {
        "guarded": "your opponent is guarding",
        "rv": "this bet is an RV",
        "top": f"your top card has {tag}",
        "chain": f"the nearest face-up card below has {tag}",
        "costly": "the bet's gauge cost is 1 or more",
        "multi": "the bet is a double or triple attack",
    }[ab.cond or ""]


def ability_text(ab: Ability, lang: str) -> str:
    """One ability as a sentence in ``lang``."""
    ja = lang == "ja"
    head = (_TIMING_JA if ja else _TIMING_EN)[ab.timing]
    if ab.cond is not None:
        head += f"［{_cond(ab, lang)}］" if ja else f" [{_cond(ab, lang)}]"
    sign = f"+{ab.n}" if ab.n >= 0 else f"−{-ab.n}"
    if ab.effect == "mod":
        stat = (_STAT_JA if ja else _STAT_EN)[ab.stat or ""]
        body = f"{stat}{sign}" if ja else f"{stat} {sign}"
    elif ab.effect == "draw":
        body = f"{ab.n}枚ドロー" if ja else f"draw {ab.n}"
    elif ab.effect == "gauge":
        body = f"ゲージ+{ab.n}" if ja else f"gauge +{ab.n}"
    else:
        body = f"相手のゲージ{ab.n}枚をダストへ" if ja else f"your opponent dusts {ab.n} gauge"
    return f"{head}：{body}" if ja else f"{head}: {body}."


def distance_text(front: int, back: int) -> str:
    """間合 as printed: ``X`` or ``X→Y`` (§8.5)."""
    return str(front) if front == back else f"{front}→{back}"


def card_text(card: Card, lang: str) -> str:
    """The generated rules text of a card in ``lang``."""
    ja = lang == "ja"
    parts: list[str] = []
    if card.kind == "attack":
        dist = distance_text(card.front, card.back)
        if ja:
            head = f"速度{card.spd} 間合{dist} 攻撃値{card.atk}"
            head += f" ゲージ消費{card.cost}" if card.cost else ""
            head += f" ゲージ増加{card.gain}" if card.gain else ""
        else:
            head = f"Speed {card.spd}, distance {dist}, attack {card.atk}"
            head += f", gauge cost {card.cost}" if card.cost else ""
            head += f", gauge gain {card.gain}" if card.gain else ""
        parts.append(head + ("" if ja else "."))
    else:
        dur = (
            ("ターン" if card.duration == "turn" else "持続")
            if ja
            else ("Turn" if card.duration == "turn" else "Lasting")
        )
        parts.append(
            f"補助（{dur}） ゲージ消費{card.cost}"
            if ja
            else f"Support ({dur}), gauge cost {card.cost}."
        )
    labels = [(_LABEL_JA if ja else _LABEL_EN)[x] for x in card.labels]
    tags = [tag_name(t, lang) for t in card.tags]
    if labels or tags:
        parts.append("・".join(labels + tags) if ja else " ".join(labels + tags) + ".")
    parts += [ability_text(ab, lang) for ab in card.abilities]
    return ("　" if ja else " ").join(parts)


CARD, DECKS, CHARACTER_NAMES, DATA_HASH = _load()
"""Cards by id, starter decks by name, character names (ja, en) and the data's hash."""
BY_SLUG = {c.slug: c for c in CARD.values()}
"""Cards by their action word."""


@dataclass(frozen=True, eq=False)
class MakenPool:
    """The cards a game plays with: by id (``card``) and by action word (``by_slug``), the
    starter decks by name, and the data's hash. The shipped pool is :data:`SHIPPED_POOL`; a
    designer's card set has its own (:mod:`kessen.games.maken.card_sets`). Compared and
    hashed by identity (one object per pool), so it can key a cache."""

    card: Mapping[str, Card]
    by_slug: Mapping[str, Card]
    decks: Mapping[str, Deck]
    data_hash: str

    @staticmethod
    def of(cards: Mapping[str, Card], decks: Mapping[str, Deck], data_hash: str) -> MakenPool:
        """The pool of ``cards`` (by id) and ``decks``."""
        return MakenPool(cards, {c.slug: c for c in cards.values()}, decks, data_hash)


SHIPPED_POOL: Final = MakenPool(CARD, BY_SLUG, DECKS, DATA_HASH)
"""The shipped cards and starter decks."""


def character_name(code: str, lang: str) -> str:
    """The name of a character code (SO, RI, MI, GA, GE) in ``lang``."""
    ja, en = CHARACTER_NAMES[code]
    return ja if lang == "ja" else en

"""The deck rules of Kōbō (kobo-rules.md §2) as structured problems, each readable in ja or en.

:func:`deck_problems` is the one check of a deck list: the engine refuses a config whose deck
has problems, ``kessen decks validate`` prints them, and the deck builder shows them live in
the player's language from the same objects.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kessen.games.kobo.cards import CardDef, CardKind
from kessen.games.kobo.schema import CardPool

MAIN_DECK_SIZE = 20
MIN_CHARACTERS = 8
TACTICS_DECK_SIZE = 15
MAX_COPIES = 2
MAX_LIMITED_COPIES = 1

_MAIN_KINDS = frozenset({CardKind.CHARACTER, CardKind.DEPLOY, CardKind.TRAP})
_TACTICS_KINDS = frozenset({CardKind.TACTIC})
_KIND_WORD = {
    "en": {
        CardKind.CHARACTER: "a character",
        CardKind.DEPLOY: "a deploy card",
        CardKind.TRAP: "a trap",
        CardKind.TACTIC: "a tactic",
    },
    "ja": {
        CardKind.CHARACTER: "キャラ",
        CardKind.DEPLOY: "展開カード",
        CardKind.TRAP: "罠カード",
        CardKind.TACTIC: "戦術カード",
    },
}
_SECTION = {
    "en": {"main": "main deck", "tactics": "tactics deck"},
    "ja": {"main": "メインデッキ", "tactics": "戦術デッキ"},
}


@dataclass(frozen=True)
class DeckProblem:
    """One broken deck rule: a code, the deck section, the card (if any) and the numbers.

    Codes: ``size`` (count, size), ``characters`` (count, needed), ``unknown`` (hint),
    ``kind`` (kind), ``count`` (count), ``limited`` (count, limit), ``copies`` (count, limit).
    """

    code: str
    section: str
    slug: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    card: CardDef | None = field(default=None, compare=False, repr=False)

    def to_json(self, lang: str) -> dict[str, Any]:
        """The problem for a client: its parts and its text in ``lang``."""
        return {
            "code": self.code,
            "section": self.section,
            "slug": self.slug,
            "params": dict(self.params),
            "text": self.text(lang),
        }

    def text(self, lang: str) -> str:
        """The problem as one sentence in ``lang`` ("ja" or "en")."""
        return _ja(self) if lang == "ja" else _en(self)


def deck_problems(
    main: Iterable[tuple[str, int]], tactics: Iterable[tuple[str, int]], pool: CardPool
) -> list[DeckProblem]:
    """Every deck rule the two lists break, in a fixed order; empty if the deck is legal."""
    main_counts, tactics_counts = _counts(main), _counts(tactics)
    problems = _size_problem("main", main_counts, MAIN_DECK_SIZE)
    characters = sum(
        n for slug, n in main_counts.items() if slug in pool and pool.get(slug).is_character
    )
    if characters < MIN_CHARACTERS:
        problems.append(
            DeckProblem(
                "characters", "main", params={"count": characters, "needed": MIN_CHARACTERS}
            )
        )
    problems += _card_problems("main", main_counts, pool, _MAIN_KINDS)
    problems += _size_problem("tactics", tactics_counts, TACTICS_DECK_SIZE)
    problems += _card_problems("tactics", tactics_counts, pool, _TACTICS_KINDS)
    return problems


def close_slugs(slug: object, pool: CardPool) -> list[str]:
    """The pool's slugs closest to a mistyped ``slug`` (at most two)."""
    return difflib.get_close_matches(str(slug), list(pool.cards), n=2)


def _counts(entries: Iterable[tuple[str, int]]) -> dict[str, int]:
    """Total copies per slug (a slug may be listed twice in a hand-built deck)."""
    counts: Counter[str] = Counter()
    for slug, count in entries:
        counts[slug] += count
    return dict(counts)


def _size_problem(section: str, counts: Mapping[str, int], size: int) -> list[DeckProblem]:
    """The deck must hold exactly ``size`` cards."""
    total = sum(counts.values())
    if total == size:
        return []
    return [DeckProblem("size", section, params={"count": total, "size": size})]


def _card_problems(
    section: str, counts: Mapping[str, int], pool: CardPool, kinds: frozenset[CardKind]
) -> list[DeckProblem]:
    """Per card: known, of an allowed kind, a positive count within the copy limits."""
    problems: list[DeckProblem] = []
    for slug, count in counts.items():
        if slug not in pool:
            problems.append(
                DeckProblem("unknown", section, slug, {"close": close_slugs(slug, pool)})
            )
            continue
        card = pool.get(slug)
        if card.kind not in kinds:
            problems.append(DeckProblem("kind", section, slug, {"kind": card.kind.value}, card))
        if count < 1:
            problems.append(DeckProblem("count", section, slug, {"count": count}, card))
        elif card.limited and count > MAX_LIMITED_COPIES:
            limit = {"count": count, "limit": MAX_LIMITED_COPIES}
            problems.append(DeckProblem("limited", section, slug, limit, card))
        elif count > MAX_COPIES:
            limit = {"count": count, "limit": MAX_COPIES}
            problems.append(DeckProblem("copies", section, slug, limit, card))
    return problems


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _en(p: DeckProblem) -> str:
    label = _SECTION["en"][p.section]
    n = p.params
    card = p.card
    shown = f"{card.slug!r} ({card.name_en} / {card.name_ja})" if card is not None else ""
    if p.code == "size":
        return f"{label} has {n['count']} card{_s(n['count'])}; it must hold exactly {n['size']}"
    if p.code == "characters":
        count = n["count"]
        return f"{label} has {count} character{_s(count)}; it needs at least {n['needed']}"
    if p.code == "unknown":
        hint = f"; did you mean {' or '.join(n['close'])}?" if n.get("close") else ""
        return f"{label}: unknown card {p.slug!r}{hint}"
    if p.code == "kind":
        allowed = (
            "the main deck holds only characters, deploy cards and traps"
            if p.section == "main"
            else "the tactics deck holds only tactics"
        )
        return f"{label}: {shown} is {_KIND_WORD['en'][CardKind(n['kind'])]}; {allowed}"
    if p.code == "count":
        return f"{label}: {shown} has count {n['count']}; counts must be at least 1"
    if p.code == "limited":
        return (
            f"{label}: {n['count']} copies of {shown}, which is limited; "
            f"at most {n['limit']} per deck"
        )
    return f"{label}: {n['count']} copies of {shown}; at most {n['limit']} per deck"


def _ja(p: DeckProblem) -> str:
    label = _SECTION["ja"][p.section]
    n = p.params
    name = f"「{p.card.name_ja}」" if p.card is not None else f"「{p.slug}」"
    if p.code == "size":
        return f"{label}が{n['count']}枚です。ちょうど{n['size']}枚にしてください。"
    if p.code == "characters":
        return f"{label}のキャラが{n['count']}枚です。{n['needed']}枚以上必要です。"
    if p.code == "unknown":
        return f"{label}：{name}というカードはありません。"
    if p.code == "kind":
        allowed = (
            "メインデッキに入るのはキャラ・展開カード・罠カードだけです"
            if p.section == "main"
            else "戦術デッキに入るのは戦術カードだけです"
        )
        return f"{label}：{name}は{_KIND_WORD['ja'][CardKind(n['kind'])]}です。{allowed}。"
    if p.code == "count":
        return f"{label}：{name}の枚数が{n['count']}です。1枚以上にしてください。"
    if p.code == "limited":
        return f"{label}：{name}が{n['count']}枚あります。制限カードは{n['limit']}枚までです。"
    return f"{label}：{name}が{n['count']}枚あります。同じカードは{n['limit']}枚までです。"

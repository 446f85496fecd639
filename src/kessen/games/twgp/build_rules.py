"""The rule of a TWGP build (twgp-trump.md §2.2), one function for the config and the builder.

A build splits a seat's pool (26 cards; 27 with the ``jokers`` switch) into 3 vitals, a 20-card
deck of which 0-6 cards are the starting hand, and the rest set aside (3; 4 with jokers). A game
config names a fixed build by its vitals, hand and either the cards set aside (the deck is the
rest, shuffled) or the pile in order (:mod:`kessen.games.twgp.config`); the deck builder names
vitals, hand and cards set aside (:mod:`kessen.games.twgp.build_book`). Both ask
:func:`build_problems`, and both say its problems in words: :meth:`BuildProblem.text`.

>>> [p.code for p in build_problems(0, False, ("s10", "c10"), (), ("s9", "c9", "s8"), None)]
['vitals', 'deck']
>>> build_problems(0, False, ("s10", "c10", "sk"), ("sa",), ("s9", "c9", "s8"), None)
[]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from kessen.engine.contract import Json
from kessen.games.twgp.cards import JOKER_IDS, by_slug, card, pool

HAND_LIMIT = 6
"""The most cards a starting hand may hold."""
VITALS = 3
"""The vitals of a build."""
DECK = 20
"""The cards of a deck, its starting hand included."""

_PARTS = {"vitals": "vitals", "hand": "starting hand", "aside": "set aside", "pile": "pile"}


def aside_count(jokers: bool) -> int:
    """The cards a build sets aside: 3, or 4 with jokers."""
    return 4 if jokers else 3


def pool_slugs(seat: int, jokers: bool) -> tuple[str, ...]:
    """The slugs of ``seat``'s pool, in card order (jokers last)."""
    return tuple(card(cid).slug for cid in pool(seat, jokers))


def _labels(slugs: Sequence[str]) -> str:
    return "・".join(by_slug(s).label for s in slugs)


@dataclass(frozen=True, slots=True)
class BuildProblem:
    """One thing wrong with a build: ``code``, the ``part`` it is about (``vitals``, ``hand``,
    ``aside``, ``pile``, ``deck`` or ``""`` for the whole build), the cards it names, and the
    count found against the count needed where it is about a size."""

    code: str
    part: str = ""
    slugs: tuple[str, ...] = field(default=())
    count: int = 0
    need: int = 0
    seat: int = 0

    def text(self, lang: str) -> str:
        """The problem as a sentence in ``lang`` (``ja`` or ``en``).

        >>> BuildProblem("vitals", "vitals", count=2, need=3).text("en")
        'expected 3 cards (2 given)'
        """
        ja = lang == "ja"
        cards = _labels(self.slugs)
        match self.code:
            case "joker-off":
                if ja:
                    return f"{cards}はjokersスイッチがオンのときだけプールに入ります。"
                return f"{cards} is in the pool only with the jokers switch on"
            case "foreign":
                if ja:
                    return f"席{self.seat + 1}のプールにないカードがあります：{cards}"
                return f"not in seat {self.seat}'s pool: {cards}"
            case "twice":
                if ja:
                    return f"同じカードが2か所にあります：{cards}"
                return f"a card is named twice: {cards}"
            case "vitals":
                if ja:
                    return f"ヴァイタルは{self.need}枚です（いま{self.count}枚）。"
                return f"expected {self.need} cards ({self.count} given)"
            case "hand":
                if ja:
                    return f"初期手札は{self.need}枚までです（いま{self.count}枚）。"
                return f"at most {self.need} cards ({self.count} given)"
            case "aside":
                if ja:
                    return f"除外するカードは{self.need}枚です（いま{self.count}枚）。"
                return f"expected {self.need} cards ({self.count} given)"
            case "deck":
                if ja:
                    return f"山札は初期手札を含めて{self.need}枚です（いま{self.count}枚）。"
                return f"the deck, hand included, must hold {self.need} cards ({self.count})"
            case "unplaced":
                if ja:
                    return f"どこにも置かれていないカードがあります：{cards}"
                return f"cards in no place: {cards}"
        return self.code  # pragma: no cover - every code is named above

    def to_json(self, lang: str) -> Json:
        """The builder's problem JSON: ``{code, section, slug, params, text}`` (an English
        ``text`` about the vitals, hand or cards set aside begins with the part's name; the
        Japanese sentences name it themselves)."""
        part = _PARTS.get(self.part)
        head = "" if part is None or lang == "ja" else f"{part}: "
        return {
            "code": self.code,
            "section": self.part,
            "slug": self.slugs[0] if len(self.slugs) == 1 else "",
            "params": {"cards": list(self.slugs), "count": self.count, "need": self.need},
            "text": head + self.text(lang),
        }


def build_problems(
    seat: int,
    jokers: bool,
    vitals: Sequence[str],
    hand: Sequence[str],
    aside: Sequence[str] | None,
    pile: Sequence[str] | None,
) -> list[BuildProblem]:
    """Every problem of a build of ``seat``'s pool (with or without the jokers), its cards
    named by known slugs: ``aside`` ``None`` means the cards named nowhere else are set aside,
    ``pile`` ``None`` that they form the rest of the deck (one of the two is given)."""
    owned = pool_slugs(seat, jokers)
    mine = set(owned)
    named = [*vitals, *hand, *(aside or ()), *(pile or ())]
    problems: list[BuildProblem] = []
    outside = [x for x in dict.fromkeys(named) if x not in mine]
    own_joker = [x for x in outside if by_slug(x).id in JOKER_IDS and by_slug(x).seat == seat]
    if own_joker:
        problems.append(BuildProblem("joker-off", slugs=tuple(own_joker)))
    foreign = [x for x in outside if x not in own_joker]
    if foreign:
        problems.append(BuildProblem("foreign", slugs=tuple(foreign), seat=seat))
    twice = sorted({x for x in named if named.count(x) > 1}, key=_order(owned))
    if twice:
        problems.append(BuildProblem("twice", slugs=tuple(twice)))
    if len(vitals) != VITALS:
        problems.append(BuildProblem("vitals", "vitals", count=len(vitals), need=VITALS))
    if len(hand) > HAND_LIMIT:
        problems.append(BuildProblem("hand", "hand", count=len(hand), need=HAND_LIMIT))
    rest = tuple(x for x in owned if x not in named)
    if aside is not None and pile is not None and rest:
        problems.append(BuildProblem("unplaced", slugs=rest))
    n_aside = len(aside) if aside is not None else len(rest)
    if n_aside != aside_count(jokers):
        problems.append(BuildProblem("aside", "aside", count=n_aside, need=aside_count(jokers)))
    if pile is not None:
        in_deck = len(hand) + len(pile)
    else:  # the pool less the vitals and the cards set aside (the hand is part of the deck)
        in_deck = len(mine - {*vitals, *(aside if aside is not None else rest)})
    if in_deck != DECK:
        problems.append(BuildProblem("deck", "deck", count=in_deck, need=DECK))
    return problems


def _order(owned: Sequence[str]) -> Callable[[str], int]:
    """A sort key putting slugs in the order of ``owned`` (unknown ones last)."""
    index = {slug: i for i, slug in enumerate(owned)}
    return lambda slug: index.get(slug, len(index))

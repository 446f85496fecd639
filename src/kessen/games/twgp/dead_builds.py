"""Builds the TWGP rules allow but that cannot act: the deck builder's warnings (twgp-trump.md).

A build (§2.2) is legal whatever its starting hand holds, but the rules let only some hands
act at all. On a player's first turn its battle grid, charge grid and surge are empty, so:

- set-up (A1) has no charge card to take, and every grid action needs an own stack: power
  drive (A4) an ACTIVE core, weapons (A6, A7), stealth (A8, A9), G-blast (A10, A11) and
  attacks (A12-A14) a unit on the grid; counter drive (A5) needs an own target;
- so the only way onto the grid is a **charge drive** (A3) of a hand unit of base ≤03 (A, 2,
  3, or the joker's 00; the deck holds ≥14 cards and the charge grid 5 empty squares, so its
  cost is always payable on the first turn);
- J, Q and K are weapons (§2.1): they only go under an own ACTIVE unit (A6), and 4-10 enter
  only onto an existing unit (A4) or an attacked one (A5, §2.9 #42).

A starting hand without a unit of base ≤03 therefore has nothing to do on any turn, in any
window, until its hand changes; with no stack and no charge card, the only way it changes is
the damage routine (§2.8: reload, full-charge and set-up after losing a vital), or the
``buildReload`` switch's A16 (off by default; it needs a non-empty hand). The warning is
exact for the first turn: a build is flagged if and only if its first turn offers nothing but
バトル・フェイズへ and ターン終了 (tests/twgp/test_dead_builds.py checks both directions).

>>> [w.code for w in build_warnings(["sq", "cq", "sj", "cj", "s10", "c10"])]
['no-starter']
>>> [w.code for w in build_warnings([])], build_warnings(["s10", "sa"])
(['empty-hand'], [])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kessen.engine.contract import Json
from kessen.games.twgp.cards import CHARGE_DRIVE_MAX, by_slug, is_slug


@dataclass(frozen=True, slots=True)
class BuildWarning:
    """A build the rules allow that cannot act: ``code`` (``empty-hand`` or ``no-starter``)
    and the hand's cards it is about."""

    code: str
    slugs: tuple[str, ...] = ()

    def text(self, lang: str) -> str:
        """The warning as a sentence in ``lang`` (``ja`` or ``en``).

        >>> BuildWarning("empty-hand").text("en")[:40]
        'The starting hand is empty: this player '
        """
        ja = lang == "ja"
        if self.code == "empty-hand":
            if ja:
                return (
                    "初期手札が0枚です。最初のターンにできることはバトル・フェイズへとターン終了"
                    "だけで、ヴァイタルを失うまで（ダメージ・ルーチンまで）何もできません。"
                )
            return (
                "The starting hand is empty: this player can only go to the battle phase and "
                "end its turn, and cannot act until it loses a vital (its damage routine)."
            )
        labels = "・".join(by_slug(s).label for s in self.slugs)
        if ja:
            return (
                f"初期手札（{labels}）に基本パワー03以下のユニット（A・2・3）がありません。"
                "最初のユニットはチャージ召喚でしか出せず、J・Q・Kはユニットの下に付ける"
                "ウェポン、4以上はユニットを素材にしてしか召喚できないため、この手札は"
                "ヴァイタルを失うまで（ダメージ・ルーチンまで）何もできません。"
            )
        return (
            f"The starting hand ({labels}) has no unit of base 03 or less (A, 2, 3): the first "
            "unit can only be charge-driven, J, Q and K are weapons that go under a unit, and "
            "4-10 need a unit as material, so this hand cannot act until the player loses a "
            "vital (its damage routine)."
        )

    def to_json(self, lang: str) -> Json:
        """The builder's warning JSON, shaped like a problem: ``{code, section, slug, params,
        text}`` (``section`` is ``hand``)."""
        return {
            "code": self.code,
            "section": "hand",
            "slug": "",
            "params": {"cards": list(self.slugs)},
            "text": self.text(lang),
        }


def can_start(slug: str) -> bool:
    """True for a card a player can put on an empty grid on its first turn: a unit of base
    ≤03 (charge drive, A3)."""
    found = by_slug(slug)
    return found.is_unit and (found.base or 0) <= CHARGE_DRIVE_MAX


def build_warnings(hand: Sequence[str]) -> list[BuildWarning]:
    """The warnings of a build whose starting hand is ``hand`` (card slugs; none for a hand
    naming an unknown card, which is the build rule's problem). Only the hand matters: the
    vitals, the pile and the cards set aside never reach the hand before the player acts."""
    if not all(is_slug(s) for s in hand):
        return []
    known = tuple(hand)
    if not known:
        return [BuildWarning("empty-hand")]
    if not any(can_start(s) for s in known):
        return [BuildWarning("no-starter", known)]
    return []

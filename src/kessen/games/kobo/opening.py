"""Kōbō's opening switches for designers: the opening tactics counts and the pass penalty.

The seed's opening is the standard: the second player chooses 7 tactics, the first player 5,
and the n-th pass of a game excludes n − 1 cards. A match may set other values (match options
``first_tactics``, ``second_tactics`` and ``pass_penalty``, checked by
:func:`opening_problems`); any other value is a *variant*, labelled so by the start screen, the
rules document and the record (the config keeps the keys only when they differ from the
standard, so a standard match's record and state hashes are those of before the switches).

>>> penalty("growing", 1), penalty("growing", 3), penalty("flat", 3), penalty("none", 5)
(0, 2, 1, 0)
>>> opening_problems({"second_tactics": 16})
['second_tactics: expected a whole number from 1 to 15, not 16']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from kessen.engine.contract import Json
from kessen.engine.refusals import shown
from kessen.games.kobo.deck_rules import TACTICS_DECK_SIZE

FIRST_TACTICS = 5
"""The seed's opening tactics hand of the first player."""
SECOND_TACTICS = 7
"""The seed's opening tactics hand of the second player."""
STANDARD_PENALTY = "growing"
"""The seed's pass penalty: the n-th pass excludes n − 1 cards."""
MIN_TACTICS = 1
"""The smallest opening tactics hand a config may ask for."""
MAX_TACTICS = TACTICS_DECK_SIZE
"""The largest: the whole tactics deck."""

PENALTIES: dict[str, Callable[[int], int]] = {
    "growing": lambda n: n - 1,
    "immediate": lambda n: n,
    "flat": lambda n: 1 if n >= 2 else 0,
    "none": lambda n: 0,
}
"""Each pass penalty schedule: the cards the n-th pass of a game excludes (n counts from 1)."""


def penalty(schedule: str, passes: int) -> int:
    """The cards the ``passes``-th pass excludes under ``schedule``."""
    return max(0, PENALTIES[schedule](passes))


@dataclass(frozen=True, slots=True)
class OpeningSwitch:
    """One opening switch: its config key, standard value, allowed values, and the names a
    player reads (the switch, what it decides, each value), in Japanese and English."""

    key: str
    default: Any
    values: tuple[Any, ...]
    name_ja: str
    name_en: str
    ja: str
    en: str
    value_ja: Callable[[Any], str]
    value_en: Callable[[Any], str]

    def to_json(self, lang: str) -> Json:
        """The catalogue's entry in ``lang``: key, standard value, values and their names."""
        ja = lang == "ja"
        name_of = self.value_ja if ja else self.value_en
        return {
            "key": self.key,
            "default": self.default,
            "values": list(self.values),
            "value_names": [name_of(v) for v in self.values],
            "name": self.name_ja if ja else self.name_en,
            "text": self.ja if ja else self.en,
        }


_PENALTY_NAMES: dict[str, tuple[str, str]] = {
    "growing": ("2回目から（n回目は n−1 枚）", "from the 2nd pass (n-th: n − 1 cards)"),
    "immediate": ("1回目から（n回目は n 枚）", "from the 1st pass (n-th: n cards)"),
    "flat": ("2回目から毎回1枚", "1 card a pass from the 2nd"),
    "none": ("なし", "none"),
}
_COUNTS = tuple(range(MIN_TACTICS, MAX_TACTICS + 1))

SWITCHES: tuple[OpeningSwitch, ...] = (
    OpeningSwitch(
        "first_tactics",
        FIRST_TACTICS,
        _COUNTS,
        "先攻の戦術手札",
        "First player's tactics hand",
        "スタンバイの最後に先攻が戦術デッキから選ぶ枚数",
        "tactics the first player chooses at the end of the standby",
        lambda n: f"{n}枚",
        lambda n: f"{n} cards",
    ),
    OpeningSwitch(
        "second_tactics",
        SECOND_TACTICS,
        _COUNTS,
        "後攻の戦術手札",
        "Second player's tactics hand",
        "後攻が先攻の盤面を見てから戦術デッキから選ぶ枚数",
        "tactics the second player chooses after seeing the first player's board",
        lambda n: f"{n}枚",
        lambda n: f"{n} cards",
    ),
    OpeningSwitch(
        "pass_penalty",
        STANDARD_PENALTY,
        tuple(PENALTIES),
        "パスのペナルティ",
        "Pass penalty",
        "パスで除外するカードの枚数（そのゲームのパスの回数で決まる）",
        "cards a pass excludes (by the count of the player's passes in the game)",
        lambda v: _PENALTY_NAMES[v][0],
        lambda v: _PENALTY_NAMES[v][1],
    ),
)
"""The opening switches, in the order a start screen shows them."""
KEYS = frozenset(s.key for s in SWITCHES)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def opening_problems(raw: Mapping[str, Any]) -> list[str]:
    """What is wrong with the opening keys of ``raw`` (a config), one precise line each."""
    problems: list[str] = []
    for key, standard in (("first_tactics", FIRST_TACTICS), ("second_tactics", SECOND_TACTICS)):
        value = raw.get(key, standard)
        if not _whole(value) or not MIN_TACTICS <= value <= MAX_TACTICS:
            problems.append(
                f"{key}: expected a whole number from {MIN_TACTICS} to {MAX_TACTICS}, "
                f"not {shown(value)}"
            )
    schedule = raw.get("pass_penalty", STANDARD_PENALTY)
    if not isinstance(schedule, str) or schedule not in PENALTIES:
        problems.append(
            f"pass_penalty: expected one of {', '.join(PENALTIES)}, not {shown(schedule)}"
        )
    return problems


def variant_keys(first: int, second: int, schedule: str) -> list[str]:
    """The opening keys whose value differs from the standard (empty: the seed's opening)."""
    out = []
    if first != FIRST_TACTICS:
        out.append("first_tactics")
    if second != SECOND_TACTICS:
        out.append("second_tactics")
    if schedule != STANDARD_PENALTY:
        out.append("pass_penalty")
    return out

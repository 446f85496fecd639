"""The configuration of a Kōbō match: the two decks, best-of, turn limit, test switches.

A config is plain JSON data (it is stored in replays). Decks are named starter decks or whole
deck objects; every deck is validated before a game starts, against the card data the config
names (``card_data``, a version of :mod:`~kessen.games.kobo.card_versions`; the current one
by default). Whatever the config, a match is
bounded: at most best of :data:`MAX_BEST_OF`, at most :data:`MAX_TURN_LIMIT` turns, and decks
no larger than :mod:`~kessen.games.kobo.decks`' hard caps (checked even with ``validate``
off, which only re-loading a recorded state uses).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kessen.engine import registry
from kessen.engine.card_sets import CardSetError
from kessen.engine.contract import Json, RulesError
from kessen.engine.refusals import shown
from kessen.games.kobo.card_sets import KoboSet, set_data
from kessen.games.kobo.card_versions import (
    LEGACY_VERSION,
    current_version,
    known_versions,
    pool_for,
    starters_for,
)
from kessen.games.kobo.decks import Deck, deck_from_json, deck_to_json, starter_decks
from kessen.games.kobo.decks import validate_deck as deck_errors
from kessen.games.kobo.opening import (
    FIRST_TACTICS,
    SECOND_TACTICS,
    STANDARD_PENALTY,
    SWITCHES,
    opening_problems,
    variant_keys,
)
from kessen.games.kobo.opening import KEYS as OPENING_KEYS

DEFAULT_TURN_LIMIT = 200
MAX_TURN_LIMIT = 1000
"""The longest turn limit a config may set (a match must end in bounded time)."""
MAX_BEST_OF = 9
"""The longest match a config may ask for: best of nine."""
_KEYS = {
    "decks",
    "best_of",
    "turn_limit",
    "first_player",
    "shuffle",
    "validate",
    "card_data",
    "card_set",
    "surprise",
    "cancelled_surprise",
} | OPENING_KEYS
CANCELLED_SURPRISE = ("rule_process", "stay")
"""The values of ``cancelled_surprise``: what a cancelled surprise card does (spec H2)."""
OPTIONS: dict[str, Json] = {
    "surprise": {
        "default": False,
        "label_ja": "サプライズ置場",
        "label_en": "Surprise zone",
        "help_ja": "手札の戦術を1枚、裏向きでサプライズ置場に伏せられる"
        "（【！】の条件で表にする）。",
        "help_en": "Set a tactic face down in the surprise zone; flip a 【！】 card when its "
        "condition is met.",
    },
}
"""The match options a start screen may offer, with their labels (the catalogue lists them)."""


class ConfigError(RulesError):
    """A config that cannot start a game; the message names every problem."""


@dataclass(frozen=True, slots=True)
class KoboConfig:
    """A validated match configuration."""

    decks: tuple[Deck, Deck]
    best_of: int = 3
    turn_limit: int = DEFAULT_TURN_LIMIT
    first_player: int | None = None
    shuffle: bool = True
    card_data: int = field(default_factory=current_version)
    """The version of the card data the match is played with."""
    surprise: bool = False
    """The surprise-zone module (:mod:`kessen.games.kobo.surprise`); off by default."""
    cancelled_surprise: str = "rule_process"
    """With the module on: ``rule_process`` (a cancelled surprise card leaves at the next check
    timing) or ``stay`` (it stays face up in the zone until Cleared)."""
    first_tactics: int = FIRST_TACTICS
    """The first player's opening tactics hand (the seed's 5; :mod:`.opening`)."""
    second_tactics: int = SECOND_TACTICS
    """The second player's opening tactics hand (the seed's 7)."""
    pass_penalty: str = STANDARD_PENALTY
    """The pass penalty's schedule (:data:`~kessen.games.kobo.opening.PENALTIES`)."""
    card_set: str = ""
    """A designer's card set the match is played with (``NAME@HASH``,
    :mod:`~kessen.games.kobo.card_sets`) instead of a shipped version; empty: none."""

    @property
    def variant(self) -> list[str]:
        """The opening switches set away from the seed's values (empty: the standard)."""
        return variant_keys(self.first_tactics, self.second_tactics, self.pass_penalty)

    def opening_view(self) -> Json:
        """What a view shows of the opening switches: ``{"opening": {...}}`` when they are set
        away from the standard (public: both players agreed them), else nothing."""
        if not self.variant:
            return {}
        return {
            "opening": {
                "first_tactics": self.first_tactics,
                "second_tactics": self.second_tactics,
                "pass_penalty": self.pass_penalty,
            }
        }

    @property
    def options(self) -> frozenset[str]:
        """The match options switched on (what decks may ``require``)."""
        return frozenset({"surprise"} if self.surprise else ())

    @property
    def wins_needed(self) -> int:
        """Game wins that decide the match (2 in a best of three)."""
        return self.best_of // 2 + 1

    def to_json(self) -> Json:
        """JSON form (decks written out whole, so a record never depends on a deck file).

        The card data version is left out when it is the legacy one, so every state of a
        match recorded before versions existed keeps its hash.
        """
        out: Json = {
            "decks": [deck_to_json(d) for d in self.decks],
            "best_of": self.best_of,
            "turn_limit": self.turn_limit,
            "first_player": self.first_player,
            "shuffle": self.shuffle,
        }
        if self.card_set:
            out["card_set"] = self.card_set
        elif self.card_data != LEGACY_VERSION:
            out["card_data"] = self.card_data
        if self.surprise:
            out["surprise"] = True
            out["cancelled_surprise"] = self.cancelled_surprise
        # The opening switches only when set away from the standard: a standard match's
        # record and state hashes stay those of before the switches.
        for key in self.variant:
            out[key] = getattr(self, key)
        return out


def default_config() -> Json:
    """The embedded default: two starter decks, best of three."""
    names = sorted(starter_decks())
    return {"decks": [names[0], names[1 % len(names)]], "best_of": 3}


def parse_config(raw: Mapping[str, Any]) -> KoboConfig:
    """Validate ``raw``; raise :class:`ConfigError` naming every problem at once."""
    problems: list[str] = []
    unknown = set(raw) - _KEYS
    if unknown:
        problems.append(f"unknown config keys: {', '.join(sorted(unknown))}")
    card_data = raw.get("card_data", current_version())
    if not _whole(card_data) or card_data not in known_versions():
        problems.append(
            f"card_data: expected a card data version, one of {known_versions()}, "
            f"not {shown(card_data)}"
        )
        card_data = current_version()
    card_set, designed = _card_set(raw, problems)
    surprise = raw.get("surprise", False)
    if not isinstance(surprise, bool):
        problems.append("surprise: expected true or false")
        surprise = False
    cancelled = raw.get("cancelled_surprise", "rule_process")
    if cancelled not in CANCELLED_SURPRISE:
        choices = ", ".join(CANCELLED_SURPRISE)
        problems.append(f"cancelled_surprise: expected one of {choices}, not {shown(cancelled)}")
        cancelled = "rule_process"
    options = {"surprise"} if surprise else set()
    decks_raw = raw.get("decks")
    decks: list[Deck] = []
    if not isinstance(decks_raw, list | tuple) or len(decks_raw) != 2:
        problems.append("decks: expected a list of two decks (starter names or deck objects)")
    else:
        if designed is not None:
            starters, pool = designed.starters(option_names()), designed.pool
        else:
            starters, pool = starters_for(card_data, option_names()), pool_for(card_data)
        for seat, item in enumerate(decks_raw):
            deck: Deck | None = None
            if isinstance(item, str):
                deck = starters.get(item)
                if deck is None:
                    problems.append(
                        f"decks[{seat}]: unknown starter deck {shown(item)}; "
                        f"known: {', '.join(sorted(starters))}"
                    )
            elif isinstance(item, Mapping):
                try:
                    deck = deck_from_json(dict(item))
                except (ValueError, KeyError, TypeError) as err:
                    problems.append(f"decks[{seat}]: {err}")
            else:
                problems.append(f"decks[{seat}]: expected a deck name or a deck object")
            if deck is not None:
                missing = sorted(set(deck.requires) - options)
                if missing:
                    problems.append(
                        f"decks[{seat}] ({deck.slug}): needs the match option "
                        f"{', '.join(missing)} (set it to true)"
                    )
                if raw.get("validate", True):
                    problems.extend(
                        f"decks[{seat}] ({deck.slug}): {e}" for e in deck_errors(deck, pool)
                    )
                decks.append(deck)
    best_of = raw.get("best_of", 3)
    if not _whole(best_of) or not 1 <= best_of <= MAX_BEST_OF or best_of % 2 == 0:
        problems.append(
            f"best_of: expected an odd number from 1 to {MAX_BEST_OF}, not {shown(best_of)}"
        )
    limit = raw.get("turn_limit", DEFAULT_TURN_LIMIT)
    if not _whole(limit) or not 1 <= limit <= MAX_TURN_LIMIT:
        problems.append(
            f"turn_limit: expected a whole number from 1 to {MAX_TURN_LIMIT}, not {shown(limit)}"
        )
    first = raw.get("first_player")
    if first is not None and (not _whole(first) or first not in (0, 1)):
        problems.append(f"first_player: expected 0, 1 or null, not {shown(first)}")
    shuffle = raw.get("shuffle", True)
    if not isinstance(shuffle, bool):
        problems.append("shuffle: expected true or false")
    problems.extend(opening_problems(raw))
    if problems:
        raise ConfigError("; ".join(problems))
    return KoboConfig(
        (decks[0], decks[1]),
        best_of,
        limit,
        first,
        shuffle,
        card_data,
        surprise,
        cancelled,
        raw.get("first_tactics", FIRST_TACTICS),
        raw.get("second_tactics", SECOND_TACTICS),
        raw.get("pass_penalty", STANDARD_PENALTY),
        card_set,
    )


def departures(config: Mapping[str, Any]) -> list[Json]:
    """How ``config`` departs from the standard rules
    (:class:`~kessen.engine.registry.Departures`): the designer's card set it plays, then each
    opening switch set away from the seed's value (``opening``, named as the start screen
    names it); none for a config that does not parse."""
    if not isinstance(config, Mapping):
        return []
    try:
        parsed = parse_config(config)
    except (ValueError, TypeError):  # ConfigError and CardSetError among them
        return []
    labels = registry.card_set_departure(parsed.card_set)
    for switch in SWITCHES:
        if switch.key in parsed.variant:
            value = getattr(parsed, switch.key)
            labels.append(
                registry.switch_departure(
                    "opening",
                    switch.key,
                    value,
                    (switch.name_ja, switch.name_en),
                    (switch.value_ja(value), switch.value_en(value)),
                )
            )
    return labels


def _card_set(raw: Mapping[str, Any], problems: list[str]) -> tuple[str, KoboSet | None]:
    """The config's card set (its ``NAME@HASH`` and data), if it names one; a problem when
    it cannot be used or comes with ``card_data`` too."""
    if "card_set" not in raw:
        return "", None
    if "card_data" in raw:
        problems.append("card_set: a config names a card set or a card_data version, not both")
    try:
        found = set_data(raw["card_set"])
    except CardSetError as err:
        problems.append(str(err))
        return "", None
    return str(found.ref), found


def _whole(value: Any) -> bool:
    """Whether ``value`` is a JSON whole number (``true`` and ``3.0`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def option_names() -> frozenset[str]:
    """Every match option's name."""
    return frozenset(OPTIONS)

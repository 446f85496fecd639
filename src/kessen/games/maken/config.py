"""The configuration of a Maken game: the switches of maken.md §14 and the two decks.

A config is plain JSON data (stored in replays). Every key is optional; the defaults are the
spec's. Switch keys keep the spec's names: ``gb``, ``bonusBet``, ``bonusBetMax``, ``lpTo``,
``cleanup``, ``downAt``, ``exhaustion``, ``supportCap`` (``null`` for Ver1.2-only play) and
``turnLimit``. Other keys: ``decks`` (two starter deck names, SO RI MI GA, or deck lists
``{"character": "SO", "cards": {"SO01": 2, ...}}``), ``firstPlayer`` (0, 1 or null for random),
and the simulator's ``best_of`` (1 only) and ``turn_limit`` (an alias of ``turnLimit`` that
wins when both are given; ``null`` is the same as leaving it out).

Values are taken as JSON types: ``true`` is not ``1`` and ``10.0`` is not ``10``. The turn
limit is a whole number from 1 to :data:`MAX_TURNS` (the game is a draw after that turn; §14
gives 0 no meaning, so it is refused).

>>> parse_config({}).down_at
10
>>> parse_config({"gb": "half"})
Traceback (most recent call last):
...
kessen.games.maken.config.ConfigError: gb: expected one of "excess", "total", not "half"
>>> parse_config({"turn_limit": 0})
Traceback (most recent call last):
...
kessen.games.maken.config.ConfigError: turn_limit: expected a whole number from 1 to 1000, not 0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kessen.engine import registry
from kessen.engine.card_sets import CardSetError
from kessen.engine.contract import Json, RulesError
from kessen.engine.refusals import shown
from kessen.games.maken.card_sets import set_data
from kessen.games.maken.cards import SHIPPED_POOL, MakenPool, check_deck, deck_cards

MAX_TURNS = 1000
"""The longest turn limit a config may ask for."""


class ConfigError(RulesError):
    """A config that cannot start a game; the message names every problem."""


@dataclass(frozen=True, slots=True)
class Switch:
    """One rule switch of §14: its config key, default and alternatives, and what a player
    reads of it: its name, what it decides, and a name for each value, in Japanese and English
    (``values``: ``(value, ja, en)``). The key and the raw values are the config's, never
    shown to a player."""

    key: str
    default: Any
    alternatives: tuple[Any, ...]
    name_ja: str
    name_en: str
    ja: str
    en: str
    values: tuple[tuple[Any, str, str], ...] = ()

    def name(self, lang: str) -> str:
        """The switch's name in ``lang``."""
        return self.name_ja if lang == "ja" else self.name_en

    def text(self, lang: str) -> str:
        """What the switch decides, in ``lang``."""
        return self.ja if lang == "ja" else self.en

    def value_names(self, lang: str) -> list[str]:
        """The name of the default and of each alternative, in that order, in ``lang``."""
        names = {_value_key(v): ja if lang == "ja" else en for v, ja, en in self.values}
        return [names[_value_key(v)] for v in (self.default, *self.alternatives)]


def _value_key(value: Any) -> str:
    return repr(value)


def _count(n: int) -> tuple[int, str, str]:
    return (n, f"{n}枚", f"{n} cards")


SWITCHES: tuple[Switch, ...] = (
    Switch(
        "gb",
        "excess",
        ("total",),
        "ガードブレイクのダメージ",
        "Guard-break damage",
        "ガードブレイクで相手に与えるダメージ",
        "the damage a guard break deals",
        (
            ("excess", "攻撃値合計の差", "the difference of the attack totals"),
            ("total", "攻撃値合計", "the full attack total"),
        ),
    ),
    Switch(
        "bonusBet",
        "special",
        ("always", "none"),
        "ボーナスベット",
        "Bonus bets",
        "ヒットした側がもう1枚ベットできるとき",
        "when the hitter may bet one more card",
        (
            ("special", "GC・GB・無防備の相手のときだけ", "on GC, GB or a defenceless loser only"),
            ("always", "ヒットのたび", "on every hit"),
            ("none", "なし", "never"),
        ),
    ),
    Switch(
        "bonusBetMax",
        1,
        (2,),
        "ボーナスベットの上限",
        "Bonus bet limit",
        "ジャッジごとのボーナスベットの回数",
        "bonus bets per judge",
        ((1, "1回", "once"), (2, "2回", "twice")),
    ),
    Switch(
        "lpTo",
        "hand",
        ("dust", "gauge"),
        "ダウン時のLP札",
        "LP card on a down",
        "ダウンしたときのLP札の行き先",
        "where the LP card goes on a down",
        (
            ("hand", "手札へ", "to the hand"),
            ("dust", "ダストへ", "to the dust"),
            ("gauge", "ゲージへ", "to the gauge"),
        ),
    ),
    Switch(
        "cleanup",
        "dust",
        ("gauge",),
        "ジャッジ後の片付け",
        "After the judge",
        "ジャッジ後のアタックフィールドのカードの行き先",
        "where the cards of the attack fields go after the judge",
        (
            ("dust", "ダストへ", "to the dust"),
            ("gauge", "助っ人以外はゲージへ", "to the gauge, but for helpers"),
        ),
    ),
    Switch(
        "downAt",
        10,
        (8, 12),
        "ダウンの枚数",
        "Damage for a down",
        "ダウンするダメージ札の枚数",
        "damage cards that down a player",
        (_count(10), _count(8), _count(12)),
    ),
    Switch(
        "exhaustion",
        "refresh",
        ("none",),
        "スタミナ切れ",
        "Stamina exhaustion",
        "スタミナが尽きたとき",
        "when the stamina runs out",
        (
            ("refresh", "ダウンし、ダストも戻す", "a down, and the dust is shuffled back"),
            (
                "none",
                "ドローフェイズでは起きず、ダストは戻さない",
                "none in the draw phase, no dust back",
            ),
        ),
    ),
    Switch(
        "supportCap",
        6,
        (None,),
        "補助フィールドの上限",
        "Support field cap",
        "補助フィールドに置けるカードの枚数",
        "cards the support field may hold",
        (_count(6), (None, "なし（Ver1.2のみで遊ぶ場合）", "none (Ver1.2-only play)")),
    ),
    Switch(
        "turnLimit",
        100,
        (),
        "ターン上限",
        "Turn limit",
        "このターンの終了で引き分け",
        "the game is a draw after this turn",
        ((100, "100ターン", "100 turns"),),
    ),
)
"""Every switch of §14, default first."""

_BY_KEY = {s.key: s for s in SWITCHES}


@dataclass(frozen=True, slots=True)
class Config:
    """A checked config."""

    decks: tuple[Json, Json]
    gb: str = "excess"
    bonus_bet: str = "special"
    bonus_bet_max: int = 1
    lp_to: str = "hand"
    cleanup: str = "dust"
    down_at: int = 10
    exhaustion: str = "refresh"
    support_cap: int | None = 6
    turn_limit: int = 100
    first_player: int | None = None
    card_set: str = ""
    """A designer's card set the game is played with (``NAME@HASH``), empty for the shipped
    cards."""
    pool: MakenPool = SHIPPED_POOL
    """The cards and starter decks of the game: the set's, or the shipped ones."""


def default_config() -> Json:
    """The default config: every switch at its default, SO against GA."""
    out: Json = {s.key: s.default for s in SWITCHES}
    out["decks"] = ["SO", "GA"]
    return out


def _same(value: Any, allowed: Any) -> bool:
    """Whether ``value`` is ``allowed`` as JSON sees it (``true`` is not 1, ``10.0`` not 10)."""
    return type(value) is type(allowed) and value == allowed


def _deck(value: Any, problems: list[str], index: int, pool: MakenPool = SHIPPED_POOL) -> Json:
    decks = pool.decks
    fallback = {"character": "SO", "cards": {}}
    if isinstance(value, str):
        if value not in decks:
            problems.append(
                f"decks[{index}]: unknown starter deck {shown(value)} ({', '.join(decks)})"
            )
            return fallback
        return decks[value].model_dump()
    if not isinstance(value, Mapping):
        problems.append(
            f"decks[{index}]: expected a starter deck name ({', '.join(decks)}) or a deck list "
            f'{{"character": ..., "cards": {{...}}}}, not {shown(value)}'
        )
        return fallback
    found = check_deck(value, pool.card)
    if found:
        problems += [f"decks[{index}]: {p}" for p in found]
        return fallback
    return {"character": value["character"], "cards": dict(value["cards"])}


def config_pool(config: Mapping[str, Any]) -> MakenPool:
    """The pool of an already checked config, without checking it again: its card set's, or
    the shipped cards (a state rebuilt from its JSON form)."""
    ref = config.get("card_set")
    return SHIPPED_POOL if ref is None else set_data(ref).pool


def _card_set(config: Mapping[str, Any], problems: list[str]) -> tuple[str, MakenPool]:
    """The config's card set (its ``NAME@HASH`` and pool), if it names one."""
    if "card_set" not in config:
        return "", SHIPPED_POOL
    try:
        found = set_data(config["card_set"])
    except CardSetError as err:
        problems.append(str(err))
        return "", SHIPPED_POOL
    return str(found.ref), found.pool


def _turn_limit(config: Mapping[str, Any], problems: list[str]) -> int:
    """``turn_limit`` (the alias wins when given and not null) or ``turnLimit``."""
    key = "turn_limit" if config.get("turn_limit") is not None else "turnLimit"
    value = config.get(key, _BY_KEY["turnLimit"].default)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_TURNS:
        problems.append(f"{key}: expected a whole number from 1 to {MAX_TURNS}, not {shown(value)}")
        return int(_BY_KEY["turnLimit"].default)
    return value


def parse_config(config: Mapping[str, Any]) -> Config:
    """Check ``config`` and return it with defaults filled in; raise :class:`ConfigError`."""
    if not isinstance(config, Mapping):
        raise ConfigError(f"a config must be an object, not {shown(config)}")
    problems: list[str] = []
    known = {s.key for s in SWITCHES} | {
        "decks",
        "firstPlayer",
        "best_of",
        "turn_limit",
        "card_set",
    }
    problems += [f"{shown(k)}: unknown config key" for k in config if k not in known]
    card_set, pool = _card_set(config, problems)
    values: dict[str, Any] = {}
    for switch in SWITCHES:
        value = config.get(switch.key, switch.default)
        if switch.key == "turnLimit":
            value = _turn_limit(config, problems)
        elif not any(_same(value, a) for a in (switch.default, *switch.alternatives)):
            allowed = ", ".join(shown(v) for v in (switch.default, *switch.alternatives))
            problems.append(f"{switch.key}: expected one of {allowed}, not {shown(value)}")
            value = switch.default
        values[switch.key] = value
    raw_decks = config.get("decks", ["SO", "GA"])
    if not isinstance(raw_decks, list | tuple) or len(raw_decks) != 2:
        problems.append(f"decks: expected a list of two decks, not {shown(raw_decks)}")
        raw_decks = ["SO", "GA"]
    decks = (_deck(raw_decks[0], problems, 0, pool), _deck(raw_decks[1], problems, 1, pool))
    best_of = config.get("best_of", 1)
    if not _same(best_of, 1):
        problems.append(f"best_of: Maken plays single games (1), not {shown(best_of)}")
    first = config.get("firstPlayer")
    if not any(_same(first, a) for a in (None, 0, 1)):
        problems.append(f"firstPlayer: expected 0, 1 or null, not {shown(first)}")
        first = None
    if problems:
        raise ConfigError("; ".join(problems))
    return Config(
        decks=decks,
        gb=values["gb"],
        bonus_bet=values["bonusBet"],
        bonus_bet_max=values["bonusBetMax"],
        lp_to=values["lpTo"],
        cleanup=values["cleanup"],
        down_at=values["downAt"],
        exhaustion=values["exhaustion"],
        support_cap=values["supportCap"],
        turn_limit=values["turnLimit"],
        first_player=first,
        card_set=card_set,
        pool=pool,
    )


def departures(config: Mapping[str, Any]) -> list[Json]:
    """How ``config`` departs from the spec's rules
    (:class:`~kessen.engine.registry.Departures`): the designer's card set it plays, then each
    rule switch away from its default (``switch``, named as the start screen names it); none
    for a config that does not parse. The turn limit bounds a game's length and is no label
    (the simulator sets its own)."""
    if not isinstance(config, Mapping):
        return []
    try:
        parsed = parse_config(config)
    except (ValueError, TypeError):  # ConfigError and CardSetError among them
        return []
    labels = registry.card_set_departure(parsed.card_set)
    for switch in SWITCHES:
        value = config.get(switch.key, switch.default)
        if switch.key == "turnLimit" or _same(value, switch.default):
            continue
        names = {_value_key(v): (ja, en) for v, ja, en in switch.values}
        shown = names.get(_value_key(value), (str(value), str(value)))
        labels.append(
            registry.switch_departure(
                "switch", switch.key, value, (switch.name_ja, switch.name_en), shown
            )
        )
    return labels


def deck_list(deck: Json) -> list[str]:
    """The 50 card ids of a checked deck, sorted (instance order)."""
    return deck_cards(deck)


__all__ = [
    "SWITCHES",
    "_BY_KEY",
    "Config",
    "ConfigError",
    "default_config",
    "departures",
    "parse_config",
]

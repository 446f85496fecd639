"""The configuration of a TWGP トランプ版 game: the switches of twgp-trump.md §2.10 and the builds.

A config is plain JSON data (it is stored in replays). Every key is optional; the defaults are
the spec's. Switch keys keep the spec's names (``gridWidth``, ``jokers``, ``vitalEffect``,
``buildReload``, ``variantA``, ``variantB``, ``weaponCache``, ``quickStart``,
``strictMatrix05``, ``setupAnytime``). Other keys: ``vitalWipe`` (with ``vitalEffect``: false
keeps only the ban, a simulation row of §2.12), ``firstPlayer`` (0, 1 or null for random),
``turnLimit`` (200), ``quietTurns`` (12) and ``builds``: per seat ``null`` (the player builds
during the game) or a fixed build
``{"vitals": [3 slugs], "hand": [0-6 slugs], "aside": [slugs], "pile": [slugs]}`` where
``pile`` (top card first, not shuffled) or ``aside`` may be left out.

>>> parse_config({}).grid_width
5
>>> parse_config({"gridWidth": 4})
Traceback (most recent call last):
...
kessen.games.twgp.config.ConfigError: gridWidth: expected 5 or 3
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kessen.engine import registry
from kessen.engine.contract import Json, RulesError
from kessen.games.twgp.build_rules import DECK as DECK
from kessen.games.twgp.build_rules import HAND_LIMIT as HAND_LIMIT
from kessen.games.twgp.build_rules import VITALS as VITALS
from kessen.games.twgp.build_rules import build_problems, pool_slugs
from kessen.games.twgp.cards import is_slug

MAX_TURNS = 1000
"""The longest game a config may ask for (turn limit, turns without damage): no client may
make a game unbounded."""


class ConfigError(RulesError):
    """A config that cannot start a game; the message names every problem."""


@dataclass(frozen=True, slots=True)
class Switch:
    """One rule switch of §2.10: its config key, default, the player-facing name and what it
    does, each in Japanese and English (the key is the config's, never shown to a player)."""

    key: str
    default: Any
    alternative: Any
    name_ja: str
    name_en: str
    ja: str
    en: str

    def name(self, lang: str) -> str:
        """The switch's name in ``lang``."""
        return self.name_ja if lang == "ja" else self.name_en

    def text(self, lang: str) -> str:
        """What the switch does, in ``lang``."""
        return self.ja if lang == "ja" else self.en


SWITCHES: tuple[Switch, ...] = (
    Switch(
        "gridWidth",
        5,
        3,
        "グリッドの横幅",
        "Grid width",
        "3にするとドルサーガ風の狭いグリッドになる",
        "3 gives the narrow grid of Dolsaga",
    ),
    Switch(
        "jokers",
        False,
        True,
        "ジョーカー",
        "Jokers",
        "各自ジョーカー1枚（基本パワー00ユニット）を加える。プール27枚、4枚を除外",
        "one joker (a base-00 unit) per player: pools of 27, 4 set aside",
    ),
    Switch(
        "vitalEffect",
        False,
        True,
        "ヴァイタル効果",
        "Vital effect",
        "トランプ版の変則ルール：ヴァイタル効果のランクのユニットを場から捨て、召喚も禁止",
        "the playing-card edition's variant: units of the vital effect's rank are discarded "
        "from the board and may not be summoned",
    ),
    Switch(
        "buildReload",
        False,
        True,
        "ビルド中のリロード",
        "Reload while building",
        "ビルド中に1ターン1回、手札を山札の下へ戻し最大3枚引く",
        "once per turn in the build window, put hand cards on the pile bottom and take up to 3",
    ),
    Switch(
        "variantA",
        False,
        True,
        "変則ルールA",
        "Variant A",
        "最後のヴァイタルが失効した瞬間に負ける",
        "lose the instant the last vital flips",
    ),
    Switch(
        "variantB",
        False,
        True,
        "変則ルールB",
        "Variant B",
        "山札が尽きたらストレージを山札にする（サージは残る）",
        "refill an empty pile from the storage (the surge stays)",
    ),
    Switch(
        "weaponCache",
        False,
        True,
        "ウェポンを残す",
        "Weapons stay",
        "ユニットが捨札になってもウェポンをその場に残し、次のユニットが使える",
        "weapons may stay in a square whose unit was discarded, for the next unit placed there",
    ),
    Switch(
        "quickStart",
        False,
        True,
        "ランダム配布",
        "Random deal",
        "構築せずプールを切って配る（ヴァイタル3、デッキ20、手札は山札の上6枚）",
        "deal at random instead of building: 3 vitals, 20-card deck, its top 6 the hand",
    ),
    Switch(
        "strictMatrix05",
        False,
        True,
        "山札減少の上限（マトリクス05）",
        "Deck-loss cap (Matrix 05)",
        "各ターン、各自の山札から出るカードは3枚まで",
        "at most 3 deck cards leave a player's deck per turn",
    ),
    Switch(
        "setupAnytime",
        False,
        True,
        "いつでもセットアップ",
        "Set up at any time",
        "ターン・プレイヤーはビルド・ウィンドウ中いつでもセットアップできる（旧来の読み方）",
        "the turn player may set up at any point of its build window (the earlier reading)",
    ),
)
_BOOLS = {s.key for s in SWITCHES if isinstance(s.default, bool)} | {"vitalWipe"}
_KEYS = {s.key for s in SWITCHES} | {
    "vitalWipe",
    "firstPlayer",
    "turnLimit",
    "quietTurns",
    "builds",
}


@dataclass(frozen=True, slots=True)
class Build:
    """One seat's fixed build: vitals (squares 1-3), starting hand, cards set aside, pile order.

    ``pile`` is top card first; ``None`` means the rest of the deck, shuffled.
    """

    vitals: tuple[str, ...]
    hand: tuple[str, ...]
    aside: tuple[str, ...]
    pile: tuple[str, ...] | None

    def to_json(self) -> Json:
        """JSON form (every part written out)."""
        out: Json = {
            "vitals": list(self.vitals),
            "hand": list(self.hand),
            "aside": list(self.aside),
        }
        if self.pile is not None:
            out["pile"] = list(self.pile)
        return out


@dataclass(frozen=True, slots=True)
class TwgpConfig:
    """A validated game configuration."""

    grid_width: int = 5
    jokers: bool = False
    vital_effect: bool = False
    vital_wipe: bool = True
    build_reload: bool = False
    variant_a: bool = False
    variant_b: bool = False
    weapon_cache: bool = False
    quick_start: bool = False
    strict_matrix05: bool = False
    setup_anytime: bool = False
    first_player: int | None = None
    turn_limit: int = 200
    quiet_turns: int = 12
    builds: tuple[Build | None, Build | None] = (None, None)

    @property
    def aside_count(self) -> int:
        """Cards each player sets aside: 3, or 4 with jokers."""
        return 4 if self.jokers else 3

    def to_json(self) -> Json:
        """The normalized JSON form (all keys)."""
        return {
            "gridWidth": self.grid_width,
            "jokers": self.jokers,
            "vitalEffect": self.vital_effect,
            "vitalWipe": self.vital_wipe,
            "buildReload": self.build_reload,
            "variantA": self.variant_a,
            "variantB": self.variant_b,
            "weaponCache": self.weapon_cache,
            "quickStart": self.quick_start,
            "strictMatrix05": self.strict_matrix05,
            "setupAnytime": self.setup_anytime,
            "firstPlayer": self.first_player,
            "turnLimit": self.turn_limit,
            "quietTurns": self.quiet_turns,
            "builds": [b.to_json() if b else None for b in self.builds],
        }


def default_config() -> Json:
    """The default config: every switch at its default, both players build during the game."""
    return {s.key: s.default for s in SWITCHES}


def _whole(value: Any) -> bool:
    """Whether ``value`` is a JSON whole number (``true`` and ``5.0`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _slugs(value: Any, where: str, problems: list[str]) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(x, str) for x in value):
        problems.append(f"{where}: expected a list of card slugs")
        return ()
    bad = [x for x in value if not is_slug(x)]
    if bad:
        problems.append(f"{where}: unknown cards {', '.join(bad)}")
        return ()
    return tuple(value)


def _parse_build(raw: Any, seat: int, jokers: bool, problems: list[str]) -> Build | None:
    where = f"builds[{seat}]"
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        problems.append(f"{where}: expected null or an object")
        return None
    unknown = set(raw) - {"vitals", "hand", "aside", "pile"}
    if unknown:
        problems.append(f"{where}: unknown keys {', '.join(sorted(unknown))}")
    before = len(problems)
    vitals = _slugs(raw.get("vitals", []), f"{where}.vitals", problems)
    hand = _slugs(raw.get("hand", []), f"{where}.hand", problems)
    aside = _slugs(raw.get("aside", []), f"{where}.aside", problems) if "aside" in raw else None
    pile = _slugs(raw["pile"], f"{where}.pile", problems) if "pile" in raw else None
    if len(problems) > before:
        return None
    unsized = aside is None and pile is None  # nothing says where the rest goes
    for problem in build_problems(seat, jokers, vitals, hand, aside, pile):
        if unsized and problem.code in ("aside", "deck"):
            continue
        part = "" if problem.part in ("", "deck") else f".{problem.part}"
        problems.append(f"{where}{part}: {problem.text('en')}")
    if unsized:
        problems.append(f"{where}: give the cards set aside or the pile order")
        return None
    if aside is None:
        named = {*vitals, *hand, *(pile or ())}
        aside = tuple(x for x in sorted(pool_slugs(seat, jokers)) if x not in named)
    return Build(vitals, hand, aside, pile)


def parse_config(raw: Mapping[str, Any]) -> TwgpConfig:
    """Validate ``raw``; raise :class:`ConfigError` naming every problem at once."""
    if not isinstance(raw, Mapping):
        raise ConfigError("a config must be an object")
    problems: list[str] = []
    unknown = set(raw) - _KEYS
    if unknown:
        problems.append(f"unknown config keys: {', '.join(sorted(unknown))}")
    for key in sorted(_BOOLS & set(raw)):
        if not isinstance(raw[key], bool):
            problems.append(f"{key}: expected true or false")
    width = raw.get("gridWidth", 5)
    if not _whole(width) or width not in (5, 3):
        problems.append("gridWidth: expected 5 or 3")
    first = raw.get("firstPlayer")
    if first is not None and (not _whole(first) or first not in (0, 1)):
        problems.append("firstPlayer: expected 0, 1 or null")
    limit = raw.get("turnLimit", 200)
    if not _whole(limit) or not 1 <= limit <= MAX_TURNS:
        problems.append(f"turnLimit: expected a whole number from 1 to {MAX_TURNS}")
    quiet = raw.get("quietTurns", 12)
    if not _whole(quiet) or not 1 <= quiet <= MAX_TURNS:
        problems.append(f"quietTurns: expected a whole number from 1 to {MAX_TURNS}")
    jokers = raw.get("jokers", False) is True
    builds: list[Build | None] = [None, None]
    raw_builds = raw.get("builds")
    if raw_builds is not None:
        if (
            not isinstance(raw_builds, Sequence)
            or isinstance(raw_builds, str)
            or len(raw_builds) != 2
        ):
            problems.append("builds: expected a list of two builds (or nulls)")
        else:
            builds = [_parse_build(b, s, jokers, problems) for s, b in enumerate(raw_builds)]
            if raw.get("quickStart") is True and any(builds):
                problems.append("builds: a quick start deals at random; give no builds")
    if problems:
        raise ConfigError("; ".join(problems))

    def flag(key: str, default: bool = False) -> bool:
        return bool(raw.get(key, default))

    return TwgpConfig(
        grid_width=int(width),
        jokers=jokers,
        vital_effect=flag("vitalEffect"),
        vital_wipe=flag("vitalWipe", True),
        build_reload=flag("buildReload"),
        variant_a=flag("variantA"),
        variant_b=flag("variantB"),
        weapon_cache=flag("weaponCache"),
        quick_start=flag("quickStart"),
        strict_matrix05=flag("strictMatrix05"),
        setup_anytime=flag("setupAnytime"),
        first_player=first,
        turn_limit=int(limit),
        quiet_turns=int(quiet),
        builds=(builds[0], builds[1]),
    )


VITAL_WIPE_NAMES: tuple[str, str] = ("ヴァイタル効果の除去", "Vital effect's discard")
"""The name of ``vitalWipe`` (no switch of the start screen: the simulations' ban-only row)."""


def departures(config: Mapping[str, Any]) -> list[Json]:
    """How ``config`` departs from the spec's rules (:class:`~kessen.engine.registry.Departures`):
    each rule switch away from its default (``switch``, named as the start screen names it),
    and ``vitalWipe`` off under the vital effect; none for a config that does not parse. The
    builds are never read (a seat's fixed build may be its player's secret, and no label
    depends on it)."""
    if not isinstance(config, Mapping):
        return []
    try:
        parsed = parse_config({k: v for k, v in config.items() if k != "builds"})
    except (ValueError, TypeError):
        return []
    values = parsed.to_json()
    labels: list[Json] = []
    for switch in SWITCHES:
        value = values[switch.key]
        if value != switch.default:
            shown = ("あり", "on") if value is True else (str(value), str(value))
            names = (switch.name_ja, switch.name_en)
            labels.append(registry.switch_departure("switch", switch.key, value, names, shown))
    if parsed.vital_effect and not parsed.vital_wipe:
        off = ("なし（召喚の禁止のみ）", "off (the summoning ban only)")
        labels.append(
            registry.switch_departure("switch", "vitalWipe", False, VITAL_WIPE_NAMES, off)
        )
    return labels

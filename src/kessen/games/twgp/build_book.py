"""TWGP's builds for the deck builder: check a build, read and write the build file format.

The server's deck endpoints are game-agnostic; they reach TWGP's build rule through
:data:`TWGP_BUILDS` (``Ruleset.decks``). A build, as the builder edits and the store keeps it::

    {"name": "...", "jokers": false,
     "vitals": ["s10", "c10", "sk"], "hand": ["sa"], "aside": ["s9", "c9", "s8"]}

names cards of one pool; the deck is the rest of the pool (27 cards with ``jokers``). Its
check is the config's own (:func:`kessen.games.twgp.build_rules.build_problems`); a build
without problems may still carry warnings, when the rules allow it but it cannot act
(:func:`kessen.games.twgp.dead_builds.build_warnings`). A build is
kept in seat 0's suits (♠♣, the black joker): one written wholly in ♥♦ is turned into ♠♣ by the
check, and a saved build chosen for seat 1 is played in ♥♦ (♠→♥, ♣→♦, black joker → red
joker; suits mean nothing else in TWGP). A build for a game with jokers is not one for a game
without them: :func:`for_seat` refuses the mismatch with a sentence saying so.

>>> checked = check({"vitals": ["h10", "d10", "hk"], "hand": [], "aside": ["h9", "d9", "h8"]}, "en")
>>> checked.deck["vitals"], checked.problems
(['s10', 'c10', 'sk'], [])
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any

from kessen.engine.contract import Json
from kessen.engine.registry import DeckCheck, DeckFormat
from kessen.games.twgp.build_rules import build_problems, pool_slugs
from kessen.games.twgp.cards import JOKER_IDS, by_slug, card, is_slug
from kessen.games.twgp.dead_builds import build_warnings

PARTS = ("vitals", "hand", "aside")
"""The lists of a build, in file order; the deck is what they leave of the pool."""
MAX_NAME = 60
"""The longest build name."""
_KEYS = {"name", "jokers", *PARTS}
_MAX_LIST = 30


def mirror(slug: str, seat: int) -> str:
    """The card of ``seat``'s pool that stands where ``slug`` stands in the other pool (itself
    when it is ``seat``'s already).

    >>> mirror("s10", 1), mirror("dk", 0), mirror("joker-b", 1), mirror("hq", 1)
    ('h10', 'ck', 'joker-r', 'hq')
    """
    found = by_slug(slug)
    if found.seat == seat:
        return slug
    if found.id in JOKER_IDS:
        return card(JOKER_IDS[seat]).slug
    return card(found.id + 26 if seat == 1 else found.id - 26).slug


def _shape(build: Mapping[str, Any]) -> tuple[Json | None, list[str]]:
    """The build in its normal form (``None`` when its shape is wrong) and what is wrong with
    its shape, one line each."""
    if not isinstance(build, Mapping):
        return None, ["a build must be an object"]
    lines = [f"unknown key {key!r}" for key in sorted(set(build) - _KEYS, key=str)]
    name = build.get("name", "")
    if not isinstance(name, str) or len(name) > MAX_NAME:
        lines.append(f"name: expected text of at most {MAX_NAME} characters")
    jokers = build.get("jokers", False)
    if not isinstance(jokers, bool):
        lines.append("jokers: expected true or false")
    parts: dict[str, list[str]] = {}
    for part in PARTS:
        value = build.get(part, [])
        if not isinstance(value, list) or len(value) > _MAX_LIST:
            lines.append(f"{part}: expected a list of card slugs")
            continue
        for index, slug in enumerate(value):
            if not isinstance(slug, str):
                lines.append(f'{part}[{index}]: expected a card slug (text such as "s10")')
            elif not is_slug(slug):
                shown = slug if len(slug) <= 20 else slug[:19] + "…"
                lines.append(f"{part}[{index}]: no card {shown!r} in the pack")
        parts[part] = [str(slug) for slug in value]
    if lines:
        return None, lines
    named = [slug for part in PARTS for slug in parts[part]]
    if named and all(by_slug(slug).seat == 1 for slug in named):
        parts = {part: [mirror(slug, 0) for slug in slugs] for part, slugs in parts.items()}
    return {"name": name, "jokers": jokers, **parts}, []


def check(build: Mapping[str, Any], lang: str) -> DeckCheck:
    """The build normalised (``None`` if its shape is wrong) and every problem, in ``lang``."""
    normal, lines = _shape(build)
    if normal is None:
        return DeckCheck(None, [_shape_problem(line) for line in lines])
    problems = build_problems(
        0, normal["jokers"], normal["vitals"], normal["hand"], normal["aside"], None
    )
    warnings = [] if problems else build_warnings(normal["hand"])
    return DeckCheck(
        normal,
        [problem.to_json(lang) for problem in problems],
        [warning.to_json(lang) for warning in warnings],
    )


def from_toml(text: str) -> Json:
    """A build file's build as JSON; :class:`ValueError` names the line or field that is wrong.

    >>> from_toml('vitals = ["s10"]\\nhand = "sa"')
    Traceback (most recent call last):
    ...
    ValueError: build file: hand: expected a list of card slugs
    >>> from_toml("hand = " + "[" * 3000 + "]" * 3000)
    Traceback (most recent call last):
    ...
    ValueError: build file: nested too deeply (arrays or inline tables)
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"build file: {err}") from None
    except RecursionError:  # tomllib recurses once per nested array or inline table
        raise ValueError("build file: nested too deeply (arrays or inline tables)") from None
    normal, lines = _shape(data)
    if normal is None:
        raise ValueError("\n".join(f"build file: {line}" for line in lines))
    return normal


def _toml_list(slugs: list[str]) -> str:
    return "[" + ", ".join(f'"{slug}"' for slug in slugs) + "]"


def _toml_text(text: str) -> str:
    escaped = "".join(c if c.isprintable() and c not in '"\\' else f"\\U{ord(c):08x}" for c in text)
    return f'"{escaped}"'


def to_toml(build: Mapping[str, Any]) -> str:
    """The build as a build file (which :func:`from_toml` reads back to the same build);
    :class:`ValueError` if its shape is wrong."""
    normal, lines = _shape(build)
    if normal is None:
        raise ValueError("; ".join(lines))
    named = {slug for part in PARTS for slug in normal[part]}
    deck = [slug for slug in pool_slugs(0, normal["jokers"]) if slug not in named]
    labels = " ".join(by_slug(slug).label for slug in deck)
    return "\n".join(
        [
            "# A TWGP トランプ版 build (twgp-trump.md §2.2): 3 vitals, a 20-card deck of which",
            "# 0-6 cards are the starting hand, the rest set aside. The deck is what the lists",
            "# leave of the pool.",
            f"name = {_toml_text(normal['name'])}",
            f"jokers = {'true' if normal['jokers'] else 'false'}",
            *(f"{part} = {_toml_list(normal[part])}" for part in PARTS),
            f"# the rest of the deck ({len(deck)}): {labels}",
            "",
        ]
    )


def for_seat(deck: Mapping[str, Any], seat: int, name: str, config: Mapping[str, Any]) -> Json:
    """A saved build (``deck``) as seat ``seat``'s entry of a game config's ``builds`` (in that
    seat's suits); :class:`ValueError` when it was made for the other setting of ``jokers``."""
    normal, lines = _shape(deck)
    if normal is None:
        raise ValueError("; ".join(lines))
    want = config.get("jokers", False) is True
    if normal["jokers"] != want:
        made = "with jokers (27 cards)" if normal["jokers"] else "without jokers (26 cards)"
        game = "has jokers" if want else "has no jokers"
        raise ValueError(f"it is a build {made}, and this game {game}")
    return {part: [mirror(slug, seat) for slug in normal[part]] for part in PARTS}


def _shape_problem(line: str) -> Json:
    return {"code": "shape", "section": "", "slug": "", "params": {}, "text": line}


TWGP_BUILDS = DeckFormat(
    check=check,
    from_toml=from_toml,
    to_toml=to_toml,
    extension="toml",
    file_stem="build",
    secret=True,
    config_key="builds",
    for_seat=for_seat,
)
"""What the deck builder needs of TWGP: its builds fill a new game's ``builds``."""

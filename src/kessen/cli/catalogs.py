"""TWGP's and Project Maken's cards and decks for ``kessen cards`` and ``kessen decks``.

Each is read from its ruleset's public catalogue (``Ruleset.catalog``), in the language asked
for: TWGP's cards are a pack of playing cards whose two halves are the seats' pools (♠♣ and
♥♦; a build picks vitals, a starting hand and cards set aside from one), Project Maken's decks
are its characters' fixed decks. Kōbō's tables are :mod:`kessen.cli.decks`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from kessen.cli.common import EXIT_INVALID, TITLES, UserError
from kessen.engine import registry
from kessen.engine.contract import Json

CARD_KINDS: dict[str, tuple[str, ...]] = {
    "kobo": ("character", "deploy", "trap", "tactic"),
    "twgp": ("unit", "weapon"),
    "maken": ("attack", "support"),
}
"""The card kinds of each ruleset, the values ``kessen cards --kind`` takes."""

_KIND_LABELS = {
    "unit": ("ユニット", "Unit"),
    "weapon": ("ウェポン", "Weapon"),
    "attack": ("攻撃", "Attack"),
    "support": ("補助", "Support"),
}
_POOLS = {"p1": (0, "♠♣"), "p2": (1, "♥♦")}
"""TWGP's decks: each seat's half of the pack (its pool), by the name ``kessen decks show``
takes."""
_WORDS = {
    "ja": {
        "pool": "{seat}のプール（{suits}）",
        "rule": "ビルド：この{count}枚からヴァイタル{vitals}枚と除外{aside}枚を選び、残り{deck}枚が"
        "デッキ（うち0〜{hand}枚が初期手札）。ジョーカーありは{count1}枚で、除外{aside1}枚。",
        "vitals": "ヴァイタル",
        "hand": "初期手札",
        "aside": "除外",
        "deck": "デッキ（初期手札以外）",
    },
    "en": {
        "pool": "{seat}'s pool ({suits})",
        "rule": "A build picks from these {count} cards {vitals} vitals and {aside} cards set "
        "aside; the other {deck} are the deck, 0-{hand} of them the starting hand. With jokers: "
        "{count1} cards, {aside1} set aside.",
        "vitals": "vitals",
        "hand": "starting hand",
        "aside": "set aside",
        "deck": "deck (besides the starting hand)",
    },
}


def _build_rule(lang: str) -> str:
    """TWGP's build rule in ``lang``, with the counts of :mod:`kessen.games.twgp.build_rules`."""
    from kessen.games.twgp.build_rules import DECK, HAND_LIMIT, VITALS, aside_count, pool_slugs

    return _WORDS["ja" if lang == "ja" else "en"]["rule"].format(
        count=len(pool_slugs(0, False)),
        count1=len(pool_slugs(0, True)),
        vitals=VITALS,
        aside=aside_count(False),
        aside1=aside_count(True),
        deck=DECK,
        hand=HAND_LIMIT,
    )


def kind_label(kind: str, lang: str) -> str:
    """A TWGP or Maken card kind as a player reads it in ``lang``."""
    ja, en = _KIND_LABELS.get(kind, (kind, kind))
    return ja if lang == "ja" else en


def check_kind(ruleset: str, kind: str | None) -> None:
    """Refuse a ``--kind`` that is not one of ``ruleset``'s card kinds, naming them."""
    kinds = CARD_KINDS[ruleset]
    if kind is not None and kind not in kinds:
        raise UserError(
            f"--kind {kind!r}: the card kinds of {TITLES[ruleset]} are {', '.join(kinds)}"
        )


def _cards(ruleset: str, lang: str) -> Mapping[str, Json]:
    cards: Mapping[str, Json] = registry.get(ruleset).catalog(lang)["cards"]
    return cards


# --------------------------------------------------------------------------------------------
# kessen cards
# --------------------------------------------------------------------------------------------


def card_table(ruleset: str, lang: str, kind: str | None) -> Table:
    """Every card of TWGP's pack or of Maken's pool (of kind ``kind`` when given) with its
    text in ``lang``."""
    check_kind(ruleset, kind)
    table = Table(show_lines=True)
    if ruleset == "twgp":
        for column in ("slug", "card", "name", "kind", "text"):
            table.add_column(column, no_wrap=column in ("slug", "card"))
        for card in _cards("twgp", lang).values():
            if kind is None or card["kind"] == kind:
                table.add_row(
                    card["slug"],
                    card["label"],
                    card["name"],
                    kind_label(card["kind"], lang),
                    card["text"],
                )
        return table
    characters = registry.get("maken").catalog(lang)["characters"]
    for column in ("card", "name", "character", "kind", "text"):
        table.add_column(column, no_wrap=column == "card")
    for card in _cards("maken", lang).values():
        if kind is None or card["kind"] == kind:
            table.add_row(
                card["card"],
                card["name"],
                characters.get(card["character"], card["character"]),
                kind_label(card["kind"], lang),
                card["text"],
            )
    return table


# --------------------------------------------------------------------------------------------
# kessen decks list / show
# --------------------------------------------------------------------------------------------


def deck_names(ruleset: str) -> list[str]:
    """The names ``kessen decks show`` takes for ``ruleset`` (Kōbō's are its starter decks)."""
    if ruleset == "twgp":
        return list(_POOLS)
    return list(registry.get(ruleset).catalog("en").get("decks") or {})


def deck_list_table(ruleset: str, lang: str) -> tuple[Table, str]:
    """The decks of TWGP (the seats' pools) or Maken (the characters' decks) in ``lang``, and
    a line to print under them ("" when none)."""
    words = _WORDS["ja" if lang == "ja" else "en"]
    table = Table(show_lines=True)
    if ruleset == "twgp":
        for column in ("deck", "name", "cards", "units", "weapons"):
            table.add_column(column, no_wrap=column == "deck")
        cards = _cards("twgp", lang).values()
        for name, (seat, suits) in _POOLS.items():
            pool = [c for c in cards if c["seat"] == seat and not c["joker"]]
            table.add_row(
                name,
                words["pool"].format(seat=f"P{seat + 1}", suits=suits),
                str(len(pool)),
                str(sum(1 for c in pool if c["kind"] == "unit")),
                str(sum(1 for c in pool if c["kind"] == "weapon")),
            )
        return table, _build_rule(lang)
    info = registry.get("maken").catalog(lang)["character_info"]
    for column in ("deck", "name", "style", "cards", "attack", "support", "trump card"):
        table.add_column(column, no_wrap=column == "deck")
    for code in deck_names("maken"):
        character = info[code]
        deck = character["deck"]
        table.add_row(
            code,
            character["name"],
            character["style"],
            str(deck["cards"]),
            str(deck["attack"]),
            str(deck["support"]),
            character["signature_name"],
        )
    return table, ""


def _card_rows(table: Table, slugs: list[str], cards: Mapping[str, Json], lang: str) -> None:
    for slug in slugs:
        card = cards[slug]
        table.add_row(card["label"], card["name"], kind_label(card["kind"], lang), card["text"])


def _twgp_table(title: str, slugs: list[str], cards: Mapping[str, Json], lang: str) -> Table:
    table = Table(title=f"{title}: {len(slugs)}", show_lines=True)
    for column in ("card", "name", "kind", "text"):
        table.add_column(column, no_wrap=column == "card")
    _card_rows(table, slugs, cards, lang)
    return table


def _read_build(path: Path) -> Json:
    """The TWGP build in the file ``path``; :class:`UserError` naming the file and the line or
    field that is wrong."""
    if not path.is_file():
        raise UserError(f"{path}: no such build file")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise UserError(f"{path}: cannot read the file: {err}") from None
    builds = registry.get("twgp").decks
    assert builds is not None  # TWGP registers its build format
    try:
        return builds.from_toml(text)
    except ValueError as err:
        raise UserError("\n".join(f"{path}: {line}" for line in str(err).splitlines())) from None


def show_twgp(name: str, lang: str, out: Console) -> None:
    """Print a seat's pool (``p1``, ``p2``) or a build file's vitals, starting hand, cards set
    aside and the rest of its deck, card by card."""
    from kessen.games.twgp.build_rules import pool_slugs

    words = _WORDS["ja" if lang == "ja" else "en"]
    cards = _cards("twgp", lang)
    if name in _POOLS:
        seat, suits = _POOLS[name]
        title = words["pool"].format(seat=f"P{seat + 1}", suits=suits)
        out.print(Text(f"{title} ({name})", style="bold"))
        out.print(_twgp_table(title, list(pool_slugs(seat, False)), cards, lang))
        out.print(_build_rule(lang))
        return
    if Path(name).suffix != ".toml" and not Path(name).exists():
        raise UserError(
            f"unknown deck {name!r}; {TITLES['twgp']}'s decks are the seats' piles "
            f"{', '.join(_POOLS)} (or a build .toml file)"
        )
    build = _read_build(Path(name))
    out.print(Text(f"{build['name'] or Path(name).stem} ({name})", style="bold"))
    named = {slug for part in ("vitals", "hand", "aside") for slug in build[part]}
    rest = [slug for slug in pool_slugs(0, build["jokers"]) if slug not in named]
    for part, slugs in (
        ("vitals", build["vitals"]),
        ("hand", build["hand"]),
        ("aside", build["aside"]),
        ("deck", rest),
    ):
        out.print(_twgp_table(words[part], list(slugs), cards, lang))


def show_maken(name: str, lang: str, out: Console) -> None:
    """Print a Maken character's deck card by card (``name``: its code, e.g. ``SO``)."""
    catalog = registry.get("maken").catalog(lang)
    decks: Mapping[str, Any] = catalog["decks"]
    code = name.upper()
    if code not in decks:
        known = ", ".join(f"{c} ({catalog['characters'][c]})" for c in decks)
        raise UserError(f"unknown deck {name!r}; {TITLES['maken']}'s decks: {known}")
    character = catalog["character_info"][code]
    out.print(Text(f"{character['name']} ({code})", style="bold"))
    out.print(f"{character['style']}: {character['about']}")
    entries: Mapping[str, int] = decks[code]["cards"]
    table = Table(title=f"{code}: {sum(entries.values())}", show_lines=True)
    for column in ("×", "card", "name", "kind", "text"):
        table.add_column(column, no_wrap=column == "card")
    cards = catalog["cards"]
    for card_code, count in entries.items():
        card = cards[card_code]
        table.add_row(
            str(count), card_code, card["name"], kind_label(card["kind"], lang), card["text"]
        )
    out.print(table)


# --------------------------------------------------------------------------------------------
# kessen decks validate --ruleset twgp
# --------------------------------------------------------------------------------------------


def validate_build(path: Path, out: Console) -> int:
    """Check a TWGP build file: print every rule it breaks (exit code 1) or ``valid`` (0),
    with any warning; :class:`UserError` (exit 2) for a file that cannot be read as a build."""
    build = _read_build(path)
    builds = registry.get("twgp").decks
    assert builds is not None
    checked = builds.check(build, "en")
    for warning in checked.warnings:
        out.print(f"{path}: warning: {warning['text']}")
    if checked.problems:
        for problem in checked.problems:
            out.print(f"{path}: {problem['text']}")
        return EXIT_INVALID
    out.print(f"{path}: valid")
    return 0

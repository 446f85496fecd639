"""The ``cards`` command and the ``decks`` group: each ruleset's cards, decks and deck files.

Kōbō's card pool, starter decks and deck files are here; TWGP's pack and builds and Project
Maken's characters' decks are :mod:`kessen.cli.catalogs`. ``decks validate`` serves the
rulesets with deck files (Kōbō's decks, TWGP's builds); Maken's decks are fixed.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from kessen.cli import catalogs
from kessen.cli.common import (
    DEFAULT_RULESET,
    EXIT_INVALID,
    Lang,
    RulesetOption,
    UserError,
    fail,
    load_deck_file,
    require,
    stdout,
)
from kessen.games.kobo.cards import CardKind
from kessen.games.kobo.decks import starter_decks, validate_deck
from kessen.games.kobo.schema import load_pool
from kessen.games.kobo.text import card_text, kind_label


class Kind(StrEnum):
    """Kōbō's card kinds (``kessen cards --kind``; the other rulesets' are
    :data:`kessen.cli.catalogs.CARD_KINDS`)."""

    character = "character"
    deploy = "deploy"
    trap = "trap"
    tactic = "tactic"


decks_app = typer.Typer(
    help="Decks of Kōbō (starter decks), TWGP (each seat's pool; builds) and Project Maken "
    "(the characters' decks); deck and build files.",
    no_args_is_help=True,
)

_KINDS_HELP = "; ".join(f"{r}: {', '.join(k)}" for r, k in catalogs.CARD_KINDS.items())


def cards(
    lang: Annotated[Lang, typer.Option(help="Language of names and text.")] = Lang.ja,
    kind: Annotated[
        str | None, typer.Option(help=f"Show only this kind of card ({_KINDS_HELP}).")
    ] = None,
    ruleset: RulesetOption = DEFAULT_RULESET,
) -> None:
    """List a game's cards with each card's text: Kōbō's card pool, TWGP's pack of playing
    cards or Project Maken's cards (--ruleset kobo, twgp or maken)."""
    code = lang.value
    try:
        if ruleset.value != "kobo":
            stdout().print(catalogs.card_table(ruleset.value, code, kind))
            return
        catalogs.check_kind("kobo", kind)
    except UserError as err:
        fail(str(err), err.code)
    table = Table(show_lines=True)
    table.add_column("slug", no_wrap=True)
    for column in ("name", "kind", "Lv", "text"):
        table.add_column(column)
    for card in load_pool():
        if kind is not None and card.kind.value != kind:
            continue
        table.add_row(
            card.slug,
            card.name(code),
            kind_label(card.kind, code),
            str(card.lv) if card.is_character else "",
            card_text(card, code),
        )
    stdout().print(table)


@decks_app.command("list")
def decks_list(
    lang: Annotated[Lang, typer.Option(help="Language of names and styles.")] = Lang.ja,
    ruleset: RulesetOption = DEFAULT_RULESET,
) -> None:
    """List a game's decks: Kōbō's starter decks, TWGP's two pools (p1 ♠♣, p2 ♥♦: a build
    picks from one) or Project Maken's characters' decks."""
    if ruleset.value != "kobo":
        table, note = catalogs.deck_list_table(ruleset.value, lang.value)
        stdout().print(table)
        if note:
            stdout().print(note)
        return
    pool = load_pool()
    table = Table(show_lines=True)
    table.add_column("slug", no_wrap=True)
    for column in ("name", "style", "main", "characters", "tactics"):
        table.add_column(column)
    for slug, deck in starter_decks().items():
        main = deck.main_slugs()
        chars = sum(1 for s in main if s in pool and pool.get(s).is_character)
        table.add_row(
            slug,
            deck.name(lang.value),
            deck.style(lang.value),
            str(len(main)),
            str(chars),
            str(len(deck.tactics_slugs())),
        )
    stdout().print(table)


@decks_app.command("show")
def decks_show(
    name: Annotated[
        str,
        typer.Argument(
            help="Kōbō: a starter deck name or a deck .toml file; TWGP: p1, p2 or a build "
            ".toml file; Project Maken: a character's deck (SO, RI, MI, GA)."
        ),
    ],
    lang: Annotated[Lang, typer.Option(help="Language of names and text.")] = Lang.ja,
    ruleset: RulesetOption = DEFAULT_RULESET,
) -> None:
    """Show one deck of a game card by card (Kōbō, TWGP or Project Maken: --ruleset)."""
    code = lang.value
    starters = starter_decks()
    try:
        if ruleset.value == "twgp":
            catalogs.show_twgp(name, code, stdout())
            return
        if ruleset.value == "maken":
            catalogs.show_maken(name, code, stdout())
            return
        if name in starters:
            deck = starters[name]
        elif Path(name).suffix == ".toml" or Path(name).exists():
            deck = load_deck_file(Path(name))
        else:
            raise UserError(f"unknown deck {name!r}; starter decks: {', '.join(starters)}")
    except UserError as err:
        fail(str(err), err.code)
    pool = load_pool()
    out = stdout()
    out.print(Text(f"{deck.name(code)} ({deck.slug})", style="bold"))
    out.print(deck.style(code))
    for title, entries in (("main", deck.main), ("tactics", deck.tactics)):
        table = Table(title=f"{title}: {sum(n for _, n in entries)}", show_lines=True)
        for column in ("×", "name", "kind", "Lv", "text"):
            table.add_column(column)
        for slug, count in entries:
            if slug not in pool:
                table.add_row(str(count), slug, "?", "", "")
                continue
            card = pool.get(slug)
            table.add_row(
                str(count),
                card.name(code),
                kind_label(card.kind, code),
                str(card.lv) if card.kind is CardKind.CHARACTER else "",
                card_text(card, code),
            )
        out.print(table)


@decks_app.command("validate")
def decks_validate(
    file: Annotated[Path, typer.Argument(help="A Kōbō deck or TWGP build .toml file.")],
    ruleset: RulesetOption = DEFAULT_RULESET,
) -> None:
    """Check a Kōbō deck file or a TWGP build file against its rules; print every violation
    (exit 1), or "valid". Kōbō and TWGP only: Project Maken's characters play fixed decks."""
    try:
        require(
            "decks validate",
            ruleset.value,
            "its characters play fixed decks, so it has no deck files",
        )
        if ruleset.value == "twgp":
            code = catalogs.validate_build(file, stdout())
            if code:
                raise typer.Exit(code)
            return
        deck = load_deck_file(file)
    except UserError as err:
        fail(str(err), err.code)
    problems = validate_deck(deck, load_pool())
    out = stdout()
    if problems:
        for problem in problems:
            out.print(f"{file}: {problem}")
        raise typer.Exit(EXIT_INVALID)
    out.print(f"{file}: valid")

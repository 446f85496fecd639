"""The ``cards`` command and the ``decks`` group: Kōbō's card pool, starter decks, deck files."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from kessen.cli.common import EXIT_INVALID, Lang, UserError, fail, load_deck_file, stdout
from kessen.games.kobo.cards import CardKind
from kessen.games.kobo.decks import starter_decks, validate_deck
from kessen.games.kobo.schema import load_pool
from kessen.games.kobo.text import card_text, kind_label


class Kind(StrEnum):
    """Card kind filter."""

    character = "character"
    deploy = "deploy"
    trap = "trap"
    tactic = "tactic"


decks_app = typer.Typer(help="Starter decks and deck files.", no_args_is_help=True)


def cards(
    lang: Annotated[Lang, typer.Option(help="Language of names and text.")] = Lang.ja,
    kind: Annotated[Kind | None, typer.Option(help="Show only this kind of card.")] = None,
) -> None:
    """List the card pool with each card's generated text."""
    code = lang.value
    table = Table(show_lines=True)
    table.add_column("slug", no_wrap=True)
    for column in ("name", "kind", "Lv", "text"):
        table.add_column(column)
    for card in load_pool():
        if kind is not None and card.kind.value != kind.value:
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
) -> None:
    """List the starter decks."""
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
    name: Annotated[str, typer.Argument(help="A starter deck name or a deck .toml file.")],
    lang: Annotated[Lang, typer.Option(help="Language of names and text.")] = Lang.ja,
) -> None:
    """Show one deck card by card."""
    code = lang.value
    starters = starter_decks()
    try:
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
    file: Annotated[Path, typer.Argument(help="A deck .toml file.")],
) -> None:
    """Check a deck file against the deck rules; print every violation, or "valid"."""
    try:
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

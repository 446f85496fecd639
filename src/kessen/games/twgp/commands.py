"""The ``kessen twgp`` commands: TWGP tools on the command line (a typer sub-app).

Mounted by the main CLI with ``app.add_typer(twgp_app, name="twgp")``::

    kessen twgp power pokemon 120        # → 12
    kessen twgp power yugioh 4 1800 0    # → 00 (ATK or DEF is 0)
    kessen twgp games
"""

from __future__ import annotations

from typing import Annotated

import typer

from kessen.games.twgp.power import PowerError, convert, games, label

twgp_app = typer.Typer(
    help="TWGP トランプ版: the power conversion table and other ruleset tools.",
    no_args_is_help=True,
)


@twgp_app.command("power")
def power_command(
    game: Annotated[str, typer.Argument(help="source game (slug or alias; see `games`)")],
    fields: Annotated[list[int], typer.Argument(help="the printed values")],
) -> None:
    """Convert a card of another TCG to a TWGP power (00-99), per the seed's table."""
    try:
        value = convert(game, fields)
    except PowerError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(1) from None
    typer.echo(label(value))


@twgp_app.command("games")
def games_command(lang: Annotated[str, typer.Option(help="ja or en")] = "ja") -> None:
    """List the source games of the power table with their fields and the seed's examples."""
    for g in games().values():
        examples = ", ".join(f"{'/'.join(str(v) for v in f)}→{label(p)}" for f, p in g.examples)
        typer.echo(
            f"{g.slug:15} {g.name(lang)} [{', '.join(g.fields)}] {g.rule}"
            + (f"  ({examples})" if examples else "")
        )

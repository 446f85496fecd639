"""The ``kessen`` command line: watch and simulate matches, browse cards and decks, replays.

``watch``, ``cards`` and ``decks`` are Kōbō's; ``replay``, ``sim`` and ``store`` take records of
any registered ruleset (Kōbō, TWGP トランプ版 and Project Maken), each described with its own
log texts. Every command works from the engine contract only (``new_game``, ``legal_actions``,
``apply``, ``view``); a match shown on the terminal is always a seat's view, never the true
state. User errors (an unknown deck, a malformed file) end with a one-line message and a
non-zero exit code.

The commands live in their own modules: :mod:`kessen.cli.common` (exit codes, one-line errors),
:mod:`kessen.cli.matches` (``play``, ``watch``), :mod:`kessen.cli.decks` (``cards``, ``decks``),
:mod:`kessen.cli.replay` (``replay``); ``sim`` and ``store`` are :mod:`kessen.sim.commands`,
``twgp`` is :mod:`kessen.games.twgp.commands`. This module builds :data:`app` from them.
"""

from __future__ import annotations

import typer

from kessen.cli.common import EXIT_INVALID, EXIT_USAGE, RULESET, Lang, UserError
from kessen.cli.decks import Kind, cards, decks_app
from kessen.cli.matches import play, render_board, watch
from kessen.cli.replay import Seat, replay, twgp_board
from kessen.games.twgp.commands import twgp_app
from kessen.sim.commands import mount as mount_sim_and_store

__all__ = [
    "EXIT_INVALID",
    "EXIT_USAGE",
    "RULESET",
    "Kind",
    "Lang",
    "Seat",
    "UserError",
    "app",
    "main",
    "render_board",
    "twgp_board",
]

app = typer.Typer(
    name="kessen",
    help="Kessen (決戦): play, simulate and inspect Kōbō (攻防) and TWGP card battles.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(decks_app, name="decks")
app.add_typer(twgp_app, name="twgp")

# Registered in the order ``kessen --help`` lists them.
app.command()(play)
app.command()(watch)
app.command()(cards)
app.command()(replay)

mount_sim_and_store(app)


@app.command(
    context_settings={
        "allow_extra_args": True,
        "ignore_unknown_options": True,
        "help_option_names": [],
    }
)
def tournament(ctx: typer.Context) -> None:
    """COM tournaments (levels, honesty, peer): win rates with Wilson 95% intervals.

    ``kessen tournament --suite levels --suite honesty --suite peer [--games N]``; ``--help``
    lists every option.
    """
    from kessen.ai.tournament import tournament_main

    raise typer.Exit(tournament_main(ctx.args))


def main() -> None:
    """Run the command line (``python -m kessen.cli``)."""
    app()

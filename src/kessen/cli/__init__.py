"""The ``kessen`` command line: watch and simulate matches, browse cards and decks, replays.

Every command serves Kōbō (攻防), TWGP トランプ版 and Project Maken (``--ruleset kobo|twgp|maken``
where a command takes one; ``replay`` and ``store`` read each record's own), except
``decks validate`` (Kōbō's deck files and TWGP's build files: Maken's decks are fixed) and the
``twgp`` tools; :data:`kessen.cli.common.SERVES` lists them. Every command works from the
engine contract only (``new_game``, ``legal_actions``, ``apply``, ``view``); a match shown on
the terminal is always a seat's view, never the true state. User errors (an unknown deck, a
malformed file, a game the command does not serve) end with a one-line message and a non-zero
exit code.

The commands live in their own modules: :mod:`kessen.cli.common` (exit codes, one-line errors,
the rulesets each command serves), :mod:`kessen.cli.matches` (``play``, ``watch``),
:mod:`kessen.cli.decks` (``cards``, ``decks``; TWGP's and Maken's tables in
:mod:`kessen.cli.catalogs`), :mod:`kessen.cli.replay` (``replay``), :mod:`kessen.cli.sets`
(``sets``: designers' card sets); ``sim`` and ``store`` are
:mod:`kessen.sim.commands`, ``twgp`` is :mod:`kessen.games.twgp.commands`. This module builds
:data:`app` from them.
"""

from __future__ import annotations

import typer

from kessen.cli.common import (
    EXIT_INVALID,
    EXIT_USAGE,
    RULESET,
    RULESETS,
    SERVES,
    Lang,
    RulesetName,
    UserError,
)
from kessen.cli.decks import Kind, cards, decks_app
from kessen.cli.matches import play, render_board, watch
from kessen.cli.replay import Seat, replay, twgp_board
from kessen.cli.sets import sets_app
from kessen.games.twgp.commands import twgp_app
from kessen.sim.commands import mount as mount_sim_and_store

__all__ = [
    "EXIT_INVALID",
    "EXIT_USAGE",
    "RULESET",
    "RULESETS",
    "SERVES",
    "Kind",
    "Lang",
    "RulesetName",
    "Seat",
    "UserError",
    "app",
    "main",
    "render_board",
    "twgp_board",
]

app = typer.Typer(
    name="kessen",
    help="Kessen (決戦): play, watch, simulate and inspect three card battles: Kōbō (攻防, "
    "--ruleset kobo, the default), TWGP トランプ版 (twgp) and Project Maken (maken).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(decks_app, name="decks")
app.add_typer(sets_app, name="sets")
app.add_typer(
    twgp_app,
    name="twgp",
    help="TWGP トランプ版 only: the power conversion table and other ruleset tools.",
)

# Registered in the order ``kessen --help`` lists them.
app.command()(play)
app.command()(watch)
app.command()(cards)
app.command()(replay)

mount_sim_and_store(app)


PASS_THROUGH: dict[str, object] = {
    "allow_extra_args": True,
    "ignore_unknown_options": True,
    "help_option_names": [],
}
"""Typer settings of a command that hands its whole command line to its own parser."""


@app.command(context_settings=PASS_THROUGH)
def tournament(ctx: typer.Context) -> None:
    """COM tournaments (suites levels, honesty, peer) of Kōbō, TWGP or Project Maken
    (--ruleset kobo|twgp|maken; peer: Kōbō only): win rates with Wilson 95% intervals.

    ``kessen tournament --suite levels --suite honesty --suite peer [--games N]``; ``--help``
    lists every option.
    """
    from kessen.ai.tournament import tournament_main

    raise typer.Exit(tournament_main(ctx.args))


@app.command(context_settings=PASS_THROUGH)
def ladder(ctx: typer.Context) -> None:
    """The COM levels' ladder in every game (やさしい < 定石 < ふつう < つよい): each step played
    on the tournament's deals and tested (95% Wilson intervals), Kōbō's honesty control and
    OpenSpiel peer included.

    ``kessen ladder [--rulesets kobo,twgp,maken] [--games 200] [--md FILE] [--json-dir DIR]``;
    ``--help`` lists every option.
    """
    from kessen.ai.ladder import ladder_main

    raise typer.Exit(ladder_main(ctx.args))


def main() -> None:
    """Run the command line (``python -m kessen.cli``)."""
    app()

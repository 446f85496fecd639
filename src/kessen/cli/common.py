"""What every ``kessen`` command shares: exit codes, the language option, one-line errors.

A mistake in a command's input is a :class:`UserError`; :func:`fail` prints it as one line
on standard error and exits with its code, never with a traceback.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import NoReturn

import typer
from rich.console import Console
from rich.text import Text

from kessen.games.kobo.decks import Deck, load_deck
from kessen.games.kobo.schema import CardDataError, load_pool

RULESET = "kobo"
"""The ruleset of ``watch``, ``cards`` and ``decks`` (``replay`` reads a record's own)."""
EXIT_INVALID = 1
EXIT_USAGE = 2


class Lang(StrEnum):
    """Display language."""

    ja = "ja"
    en = "en"


class UserError(Exception):
    """A mistake in the command's input: shown as one line, never as a traceback."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Print ``error: message`` on standard error and exit with ``code``."""
    Console(stderr=True, soft_wrap=True).print(Text(f"error: {message}", style="bold red"))
    raise typer.Exit(code)


def stdout() -> Console:
    """A console on the current standard output (looked up per command, for test runners)."""
    return Console(highlight=False, soft_wrap=True)


def load_deck_file(path: Path) -> Deck:
    """The Kōbō deck in the .toml file ``path``; :class:`UserError` if it cannot be read."""
    if not path.is_file():
        raise UserError(f"{path}: no such deck file")
    try:
        return load_deck(path, load_pool())
    except CardDataError as err:
        raise UserError(str(err)) from None
    except (OSError, UnicodeDecodeError) as err:
        raise UserError(f"{path}: cannot read the file: {err}") from None
    except RecursionError:
        raise UserError(f"{path}: nested too deeply to be a deck file") from None

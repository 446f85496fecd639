"""What every ``kessen`` command shares: exit codes, the language and ruleset options, the
rulesets each command serves, one-line errors.

A mistake in a command's input is a :class:`UserError`; :func:`fail` prints it as one line
on standard error and exits with its code, never with a traceback. :data:`SERVES` says which
rulesets each command serves; :func:`require` refuses another with a sentence naming them.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from kessen.games.kobo.decks import Deck, load_deck
from kessen.games.kobo.schema import CardDataError, load_pool

RULESET = "kobo"
"""The default ruleset of the commands that take ``--ruleset`` (``replay`` reads a record's
own)."""
RULESETS = ("kobo", "twgp", "maken")
"""Every ruleset of the project, in the order the command line lists them."""
TITLES = {"kobo": "Kōbō (攻防)", "twgp": "TWGP トランプ版", "maken": "Project Maken"}
"""Each ruleset's name for people, by its registry name."""
SERVES: dict[str, tuple[str, ...]] = {
    "play": RULESETS,
    "watch": RULESETS,
    "cards": RULESETS,
    "decks list": RULESETS,
    "decks show": RULESETS,
    "decks validate": ("kobo", "twgp"),
    "replay": RULESETS,
    "sim": RULESETS,
    "tournament": RULESETS,
    "tournament --suite peer": ("kobo",),
    "store": RULESETS,
    "sets": ("kobo", "maken"),
    "sim --set": ("kobo", "maken"),
    "twgp": ("twgp",),
}
"""The rulesets each command (or every command of a group, or one form of a command) serves,
by its first words after ``kessen``; a command not listed is its group's."""
EXIT_INVALID = 1
EXIT_USAGE = 2


class Lang(StrEnum):
    """Display language."""

    ja = "ja"
    en = "en"


class RulesetName(StrEnum):
    """A ruleset, by its registry name (the ``--ruleset`` option)."""

    kobo = "kobo"
    twgp = "twgp"
    maken = "maken"


DEFAULT_RULESET = RulesetName(RULESET)
"""The ``--ruleset`` option's default."""
RulesetOption = Annotated[
    RulesetName,
    typer.Option(help="The game: kobo (Kōbō), twgp (TWGP トランプ版) or maken (Project Maken)."),
]
"""The ``--ruleset`` option of the commands that serve several games."""


def served(command: str) -> tuple[str, ...]:
    """The rulesets ``command`` (its words after ``kessen``, e.g. ``"decks show"``) serves:
    the entry of :data:`SERVES` for its longest listed start; every ruleset when none is.

    >>> served("decks validate deck.toml"), served("store list")
    (('kobo', 'twgp'), ('kobo', 'twgp', 'maken'))
    """
    words = command.split()
    while words:
        found = SERVES.get(" ".join(words))
        if found is not None:
            return found
        words.pop()
    return RULESETS


def titles(rulesets: tuple[str, ...] | list[str]) -> str:
    """The rulesets' names for people with their option values, e.g. ``Kōbō (攻防) (kobo) and
    TWGP トランプ版 (twgp)``."""
    names = [f"{TITLES.get(r, r)} ({r})" for r in rulesets]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class UserError(Exception):
    """A mistake in the command's input: shown as one line, never as a traceback."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Print ``error: message`` on standard error and exit with ``code``."""
    Console(stderr=True, soft_wrap=True).print(Text(f"error: {message}", style="bold red"))
    raise typer.Exit(code)


def require(command: str, ruleset: str, why: str = "") -> None:
    """Refuse ``ruleset`` for ``command`` when the command does not serve it: a
    :class:`UserError` naming the rulesets it serves (and ``why``, when given)."""
    serves = served(command)
    if ruleset in serves:
        return
    reason = f": {why}" if why else ""
    raise UserError(
        f"`kessen {command}` serves {titles(serves)} only, not {TITLES.get(ruleset, ruleset)} "
        f"({ruleset}){reason}"
    )


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

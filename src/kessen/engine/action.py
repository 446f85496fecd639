"""Actions: tiny frozen values with one text form that parses back.

An action is a verb and a few arguments (short words or integers). Its text form is used in
logs, replays, tests and the wire protocol alike.

>>> a = Action.of("slot", 3)
>>> str(a)
'slot 3'
>>> Action.parse("slot 3") == a
True
"""

from __future__ import annotations

import re
from typing import NamedTuple

Arg = str | int

_WORD = re.compile(r"[a-z][a-z0-9_-]*\Z")
_INT = re.compile(r"-?[0-9]+\Z")
_MAX_TEXT = 200
_interned: dict[str, dict[tuple[Arg, ...], Action]] = {}
"""The interned actions by verb, then by arguments (see :meth:`Action.of`)."""
_interned_one: dict[str, dict[Arg, Action]] = {}


class ActionParseError(ValueError):
    """Raised when a text is not the text form of any action."""


class Action(NamedTuple):
    """A decision: a verb and its arguments. Compare, hash and print it like a value."""

    verb: str
    args: tuple[Arg, ...] = ()

    @staticmethod
    def of(verb: str, *args: Arg) -> Action:
        """The (interned) action ``verb args...``; cheap to call in hot loops."""
        by_args = _interned.get(verb)
        if by_args is None:
            by_args = _interned[verb] = {}
        found = by_args.get(args)
        if found is None:
            found = by_args[args] = Action(verb, args)
        return found

    def __str__(self) -> str:
        if not self.args:
            return self.verb
        return self.verb + " " + " ".join(str(arg) for arg in self.args)

    @staticmethod
    def parse(text: object) -> Action:
        """Parse the text form; raise :class:`ActionParseError` naming what is wrong (also for
        a value that is not text: it comes from outside, so its type is checked here, not
        assumed).

        >>> Action.parse("pick reinforcement-call")
        Action(verb='pick', args=('reinforcement-call',))
        """
        if not isinstance(text, str):
            raise ActionParseError(f"an action must be text, not {type(text).__name__}")
        if len(text) > _MAX_TEXT:
            raise ActionParseError(f"action text longer than {_MAX_TEXT} characters")
        tokens = text.split()
        if not tokens:
            raise ActionParseError("empty action text")
        verb, *rest = tokens
        if not _WORD.match(verb):
            raise ActionParseError(f"bad action verb {verb!r}: expected a lower-case word")
        args: list[Arg] = []
        for token in rest:
            if _INT.match(token):
                args.append(int(token))
            elif _WORD.match(token):
                args.append(token)
            else:
                raise ActionParseError(f"bad action argument {token!r} in {text!r}")
        return Action(verb, tuple(args))  # not interned: client text must not grow memory


def one(verb: str, arg: Arg) -> Action:
    """``Action.of(verb, arg)`` for the hot loops that list a ruleset's answers: the same
    interned action, found without building a key (a plain function, which compiled callers
    reach directly)."""
    by_arg = _interned_one.get(verb)
    if by_arg is None:
        by_arg = _interned_one[verb] = {}
    found = by_arg.get(arg)
    if found is None:
        found = by_arg[arg] = Action.of(verb, arg)
    return found

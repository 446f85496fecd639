"""Card set data as text and as changes: the canonical TOML writer and the changelog's diff.

A set is stored and hashed as canonical TOML (:func:`toml_value` and friends write the same
data the same way every time, in the shape of the ruleset's shipped files), and every revision
records what changed against the one before (:func:`diff`), field by field: a card's Lv, an
added card, a starter deck's copies of a card.

>>> [c.text("en") for c in diff({"cards": [{"slug": "a", "lv": 3}]},
...                              {"cards": [{"slug": "a", "lv": 4}]}, "slug")]
['card a: lv 3 → 4']
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kessen.engine.card_sets import FieldProblem, Said, SetProblems, by_key, problem
from kessen.engine.contract import Json

_BARE_KEY: Final = re.compile(r"[A-Za-z0-9_-]+")
_MISSING: Final = object()


# --------------------------------------------------------------------------------------------
# TOML reading and writing
# --------------------------------------------------------------------------------------------


def read_toml(text: str, source: str) -> dict[str, Any]:
    """A set's TOML text as data; :class:`~kessen.engine.card_sets.SetProblems` saying where
    it is not TOML (``source``, line and column).

    >>> read_toml("a = 1", "x")
    {'a': 1}
    >>> read_toml("a = ?", "x")
    Traceback (most recent call last):
    ...
    kessen.engine.card_sets.SetProblems: x: Invalid value (at line 1, column 5)
    """
    try:
        text.encode("utf-8")
        return tomllib.loads(text)
    except UnicodeEncodeError:
        en, ja = "not valid UTF-8 text", "UTF-8 の文字列ではありません"
    except tomllib.TOMLDecodeError as err:
        en, ja = str(err), f"TOMLとして読めません：{err}"
    except RecursionError:  # tomllib recurses once per nested array or inline table
        en, ja = "nested too deeply", "入れ子が深すぎます"
    raise SetProblems([FieldProblem("", f"{source}: {en}", f"{source}：{ja}")])


def toml_key(key: str) -> str:
    """A TOML key: bare when it can be, else a basic string.

    >>> toml_key("oni-warlord"), toml_key("a b")
    ('oni-warlord', '"a b"')
    """
    return key if _BARE_KEY.fullmatch(key) else toml_string(key)


def toml_string(text: str) -> str:
    """A TOML basic string (a JSON string is one, once DEL is escaped too).

    >>> toml_string('say "hi"\\n')
    '"say \\\\"hi\\\\"\\\\n"'
    """
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def toml_value(value: Any) -> str:
    """A TOML value on one line: strings, whole numbers, booleans, finite floats, arrays and
    inline tables (``None`` has no TOML form: leave such keys out first).

    >>> toml_value([{"verb": "draw", "amount": 1}])
    '[{ verb = "draw", amount = 1 }]'
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and math.isfinite(value):
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        inner = ", ".join(f"{toml_key(str(k))} = {toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {type(value).__name__}")


def toml_pairs(table: Mapping[str, Any], order: Iterable[str] = ()) -> list[str]:
    """``key = value`` lines of ``table``: the keys of ``order`` first (those present), then
    the others sorted; ``None`` values left out."""
    first = [k for k in order if k in table]
    rest = sorted(k for k in table if k not in first)
    return [f"{toml_key(k)} = {toml_value(table[k])}" for k in first + rest if table[k] is not None]


# --------------------------------------------------------------------------------------------
# Changes between two revisions
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One difference between two revisions of a set.

    ``op`` is ``added``, ``removed`` or ``changed`` (a card, a deck, a field), ``order`` (the
    cards' order) or ``derived`` (the first entry: ``key`` names the parent); ``what`` is
    ``card``, ``deck`` or ``set``; ``field`` is the dotted field of a change
    (``lv``, ``main.oni-warlord``).
    """

    op: str
    what: str
    key: str = ""
    field: str = ""
    old: Any = None
    new: Any = None

    def text(self, lang: str) -> str:
        """The change as one line in ``lang`` (``ja`` or ``en``)."""
        ja = lang == "ja"
        noun = {
            "card": "カード" if ja else "card",
            "deck": "デッキ" if ja else "deck",
            "set": "",
        }[self.what]
        if self.op == "derived":
            return f"{self.key} から派生" if ja else f"derived from {self.key}"
        if self.op == "order":
            return "カードの並び順を変更" if ja else "card order changed"
        if self.op == "added":
            return f"{noun} {self.key} を追加" if ja else f"{noun} {self.key} added"
        if self.op == "removed":
            return f"{noun} {self.key} を削除" if ja else f"{noun} {self.key} removed"
        head = f"{noun} {self.key}".strip()
        values = f"{_shown(self.old)} → {_shown(self.new)}"
        if not head:
            return f"{self.field} {values}"
        return f"{head}：{self.field} {values}" if ja else f"{head}: {self.field} {values}"

    def to_json(self) -> Json:
        """JSON form (what a changelog entry stores)."""
        out: Json = {"op": self.op, "what": self.what, "key": self.key, "field": self.field}
        if self.op == "changed":
            out["old"] = self.old
            out["new"] = self.new
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Change:
        """Inverse of :meth:`to_json`."""
        return Change(
            str(data.get("op", "")),
            str(data.get("what", "set")),
            str(data.get("key", "")),
            str(data.get("field", "")),
            data.get("old"),
            data.get("new"),
        )


def _shown(value: Any) -> str:
    """A value as a change line shows it (``—`` when absent), at most 60 characters."""
    if value is None:
        return "—"
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:59] + "…"


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    """Nested tables as dotted keys (``{"main": {"a": 2}}`` → ``{"main.a": 2}``); lists and
    scalars are leaves."""
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            out.update(_flat(item, f"{prefix}.{key}" if prefix else str(key)))
        return out
    return {prefix: value}


def _entries(items: Any, key: str) -> dict[str, Mapping[str, Any]]:
    """Cards or decks by key: a list keyed by each entry's ``key`` field, or a table as is."""
    if isinstance(items, Mapping):
        return {str(k): v for k, v in items.items() if isinstance(v, Mapping)}
    if isinstance(items, list):
        return by_key(items, key)
    return {}


def _compare(what: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Change]:
    """Added, removed and changed entries (fields of a changed one, dotted, sorted)."""
    out: list[Change] = []
    for key in old:
        if key not in new:
            out.append(Change("removed", what, key))
    for key, entry in new.items():
        before = old.get(key)
        if before is None:
            out.append(Change("added", what, key))
            continue
        a, b = _flat(before), _flat(entry)
        for name in sorted(set(a) | set(b)):
            if a.get(name, _MISSING) != b.get(name, _MISSING):
                out.append(Change("changed", what, key, name, a.get(name), b.get(name)))
    return out


def diff(old: Mapping[str, Any], new: Mapping[str, Any], card_key: str) -> list[Change]:
    """What changed from set data ``old`` to ``new`` (JSON forms): the cards by
    ``card_key``, their order, the starter decks by slug (or by their table key), and any other
    top-level field."""
    out: list[Change] = []
    for name in sorted(set(old) | set(new)):
        if name in ("cards", "decks"):
            continue
        if old.get(name, _MISSING) != new.get(name, _MISSING):
            out.append(Change("changed", "set", "", name, old.get(name), new.get(name)))
    old_cards = _entries(old.get("cards"), card_key)
    new_cards = _entries(new.get("cards"), card_key)
    out += _compare("card", old_cards, new_cards)
    kept = [k for k in old_cards if k in new_cards]
    if kept != [k for k in new_cards if k in old_cards]:
        out.append(Change("order", "card"))
    out += _compare("deck", _entries(old.get("decks"), "slug"), _entries(new.get("decks"), "slug"))
    return out


def set_shape(
    data: Any, fields: Sequence[str], normalize: Callable[[Json], Json]
) -> tuple[Json | None, list[FieldProblem]]:
    """A set's JSON form as a ruleset's checks read it (``normalize``), and the problems of its
    shape: not an object (then there is no form to check further: ``None``), or top-level
    fields other than ``fields``, the ones the ruleset's sets hold."""
    listed_ja = "・".join(fields)
    if not isinstance(data, Mapping):
        braced = ", ".join(f'"{name}"' for name in fields)
        said = Said(
            f"a card set is an object {{{braced}}}",
            f"カードセットは {listed_ja} を持つ表（オブジェクト）です",
        )
        return None, [problem("", said)]
    listed_en = " and ".join([", ".join(fields[:-1]), fields[-1]] if len(fields) > 1 else fields)
    form = normalize(dict(data))
    unknown = Said(
        f"unknown field (a set holds {listed_en})",
        f"知らない項目です（セットにあるのは {listed_ja} です）",
    )
    return form, [problem(toml_key(str(key)), unknown) for key in form if key not in fields]

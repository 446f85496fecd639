"""Designers' card sets in the kernel: how a config names one and where its data comes from.

A *card set* is a designer's own version of a ruleset's card data (cards and starter decks),
derived from a shipped version. A match config names the set it is played with by name and
content hash, ``{"card_set": "my-set@<sha256 of its data>"}``; the hash is what counts (the
name is for people), so a record replays under exactly the data it was played with.

The kernel never reads the match store. A ruleset asks :func:`set_text` for a set's data; the
text comes from, in order: the sets this process was handed (:func:`remember`: a simulator's
game spec, an imported replay), the resolvers the application registered
(:func:`add_resolver`: a store-backed one for every open match store), and a small on-disk
cache by content hash (:func:`cache_dir`), so that worker processes of the same machine (COM
workers, simulator workers) find the sets their parent resolved. Every text is checked
against its hash before use.

A ruleset with card sets provides a :class:`SetFormat` as ``FORMAT`` in its module
``kessen.games.<ruleset>.card_sets`` (:func:`format_for`): how its data reads and writes as
TOML (the shape of the files it ships), its shipped versions (the parents a set derives from),
and its own validation, whose problems (:class:`FieldProblem`) name the field (``cards[12].lv``)
and say what is wrong in Japanese and English.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import re
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

from kessen.engine.contract import Json, RulesError

SET_KEY: Final = "card_set"
"""The config key that names a card set."""
SHIPPED: Final = "shipped"
"""The word for a ruleset's shipped card data where a set's name could stand (never a name)."""
MAX_NAME: Final = 60
"""The longest set name, in characters."""
CACHE_ENV: Final = "KESSEN_CARD_SET_CACHE"
"""The environment variable that moves the on-disk cache of resolved sets."""
_NAME_RE: Final = re.compile(r"[^\W_](?:[\w.\- ]*[\w.\-])?")
_HASH_RE: Final = re.compile(r"[0-9a-f]{64}")
_VERSION_RE: Final = re.compile(r"v[0-9]+")


class CardSetError(RulesError):
    """A card set that cannot be used: a malformed reference, an unknown set, bad data."""


class Said(str):
    """An English message that also carries its Japanese text (:attr:`ja`); it is the English
    ``str`` wherever a plain message is expected."""

    ja: str

    def __new__(cls, en: str, ja: str) -> Said:
        """The message ``en`` with its Japanese text ``ja``."""
        said = super().__new__(cls, en)
        said.ja = ja
        return said


def japanese(message: str) -> str:
    """The Japanese text of ``message`` (itself when it has none)."""
    return message.ja if isinstance(message, Said) else message


@dataclass(frozen=True)
class FieldProblem:
    """One problem of a card set's data: the field (``cards[12].lv``, ``decks[0].main``; empty
    for the whole set) and what is wrong, in English and Japanese."""

    path: str
    en: str
    ja: str

    def text(self, lang: str) -> str:
        """The message in ``lang`` (``ja`` or ``en``), prefixed with the field."""
        message = self.ja if lang == "ja" else self.en
        return f"{self.path}: {message}" if self.path else message

    def to_json(self) -> Json:
        """The problem for a client: ``{"path", "en", "ja"}``."""
        return {"path": self.path, "en": self.en, "ja": self.ja}


def problem(path: str, message: str) -> FieldProblem:
    """A :class:`FieldProblem` from a (possibly bilingual, :class:`Said`) message."""
    return FieldProblem(path, str(message), japanese(message))


def field_path(prefix: str, loc: Iterable[int | str]) -> str:
    """``prefix`` and a location inside it as a field path.

    >>> field_path("cards[3]", ("steps", 0, "verb")), field_path("decks[0].main", ("a b",))
    ('cards[3].steps[0].verb', 'decks[0].main."a b"')
    """
    out = prefix
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            key = part if re.fullmatch(r"[A-Za-z0-9_-]+", part) else f'"{part}"'
            out += f".{key}" if out else key
    return out


_PYDANTIC_JA: Final[dict[str, str]] = {
    "missing": "必須の項目です",
    "extra_forbidden": "この項目はありません（余分な項目です）",
    "string_type": "文字列にしてください",
    "int_type": "整数にしてください",
    "int_from_float": "整数にしてください",
    "int_parsing": "整数にしてください",
    "bool_type": "true か false にしてください",
    "less_than_equal": "{le}以下にしてください",
    "greater_than_equal": "{ge}以上にしてください",
    "less_than": "{lt}より小さくしてください",
    "greater_than": "{gt}より大きくしてください",
    "enum": "次のどれかにしてください：{expected}",
    "literal_error": "次のどれかにしてください：{expected}",
    "string_too_short": "{min_length}文字以上にしてください",
    "string_too_long": "{max_length}文字以下にしてください",
    "string_pattern_mismatch": "形式が正しくありません",
    "model_type": "表（オブジェクト）にしてください",
    "model_attributes_type": "表（オブジェクト）にしてください",
    "dict_type": "表（オブジェクト）にしてください",
    "tuple_type": "リストにしてください",
    "list_type": "リストにしてください",
    "too_long": "{max_length}個以下にしてください",
    "too_short": "{min_length}個以上にしてください",
}


def pydantic_problems(errors: Iterable[Mapping[str, Any]], prefix: str) -> list[FieldProblem]:
    """One :class:`FieldProblem` per error of a pydantic ``ValidationError.errors()``, under
    the field ``prefix``; Japanese from the error's type (a validator's own error may carry
    its Japanese as a :class:`Said` or a ``ja`` attribute)."""
    out: list[FieldProblem] = []
    for error in errors:
        path = field_path(prefix, tuple(error.get("loc", ())))
        message = str(error.get("msg", ""))
        ctx = dict(error.get("ctx") or {})
        cause = ctx.get("error")
        kind = str(error.get("type", ""))
        if kind == "value_error" and cause is not None:
            en = str(cause)
            ja = getattr(cause, "ja", None) or japanese(en)
            out.append(FieldProblem(path, en, str(ja)))
            continue
        template = _PYDANTIC_JA.get(kind)
        if "expected" in ctx:
            ctx["expected"] = str(ctx["expected"]).replace(" or ", ", ")
        try:
            ja = template.format(**ctx) if template else f"値が正しくありません（{message}）"
        except (KeyError, IndexError):
            ja = f"値が正しくありません（{message}）"
        out.append(FieldProblem(path, message, ja))
    return out


class SetProblems(CardSetError):
    """Card set data that does not pass its ruleset's checks; :attr:`problems` lists them all."""

    def __init__(self, problems: Iterable[FieldProblem]) -> None:
        self.problems = list(problems)
        lines = [p.text("en") for p in self.problems[:20]]
        more = len(self.problems) - len(lines)
        if more > 0:
            lines.append(f"... and {more} more")
        super().__init__("; ".join(lines) or "the card set is not valid")


# --------------------------------------------------------------------------------------------
# Names and references
# --------------------------------------------------------------------------------------------


def content_hash(text: str) -> str:
    """The SHA-256 of a set's canonical TOML text: its identity."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def name_problem(name: str) -> Said | None:
    """What is wrong with ``name`` as a set's name, if anything.

    >>> name_problem("balance-2") is None, name_problem("調整案 A") is None
    (True, True)
    >>> str(name_problem("a@b"))
    "a set's name is letters, digits, spaces and . - _ (1 to 60 characters, no @ , / )"
    >>> str(name_problem("v3"))
    "'v3' names a shipped version; choose another name"
    """
    if name == SHIPPED or _VERSION_RE.fullmatch(name):
        return Said(
            f"{name!r} names a shipped version; choose another name",
            f"「{name}」は同梱版の名前です。別の名前にしてください",
        )
    if len(name) > MAX_NAME or not _NAME_RE.fullmatch(name):
        return Said(
            "a set's name is letters, digits, spaces and . - _ "
            f"(1 to {MAX_NAME} characters, no @ , / )",
            f"セット名は文字・数字・空白と . - _ で1〜{MAX_NAME}文字です（@ , / は使えません）",
        )
    return None


@dataclass(frozen=True)
class SetRef:
    """A card set as a config names it: ``name@hash``."""

    name: str
    hash: str

    def __str__(self) -> str:
        return f"{self.name}@{self.hash}"

    @property
    def short(self) -> str:
        """``name@`` and the hash's first 12 digits (for people)."""
        return f"{self.name}@{self.hash[:12]}"


def parse_ref(value: Any) -> SetRef:
    """A config's ``card_set`` value as a :class:`SetRef`; :class:`CardSetError` saying what a
    reference looks like otherwise.

    >>> parse_ref("test@" + "0" * 64).name
    'test'
    >>> parse_ref("test")
    Traceback (most recent call last):
    ...
    kessen.engine.card_sets.CardSetError: card_set: expected NAME@HASH (the set's name and the \
SHA-256 of its data, as `kessen sets show` prints it), not "test"
    """
    if isinstance(value, str):
        name, sep, digest = value.rpartition("@")
        if sep and _HASH_RE.fullmatch(digest) and name_problem(name) is None:
            return SetRef(name, digest)
    from kessen.engine.refusals import shown

    raise CardSetError(
        "card_set: expected NAME@HASH (the set's name and the SHA-256 of its data, as "
        f"`kessen sets show` prints it), not {shown(value)}"
    )


# --------------------------------------------------------------------------------------------
# Where a set's data comes from
# --------------------------------------------------------------------------------------------

Resolver = Callable[[str, str], str | None]
"""``(ruleset, content hash) -> the set's canonical TOML text``, or ``None`` if unknown."""

_RESOLVERS: list[Resolver] = []
_KNOWN: dict[tuple[str, str], str] = {}
_LOCK = threading.Lock()


def add_resolver(resolver: Resolver) -> Callable[[], None]:
    """Ask ``resolver`` for sets this process was not handed; returns the function that
    removes it again. A resolver that raises is skipped (a closed store, a lost connection)."""
    with _LOCK:
        _RESOLVERS.append(resolver)

    def remove() -> None:
        with _LOCK, contextlib.suppress(ValueError):
            _RESOLVERS.remove(resolver)

    return remove


def remember(ruleset: str, text: str) -> str:
    """Make the set data ``text`` of ``ruleset`` known to this process; returns its hash."""
    digest = content_hash(text)
    _KNOWN[(ruleset, digest)] = text
    return digest


def cache_dir() -> Path:
    """Where resolved sets are cached on disk by content hash (``$KESSEN_CARD_SET_CACHE``, or
    ``card-sets`` in the user's cache directory)."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return platformdirs.user_cache_path("kessen", appauthor=False) / "card-sets"


def _cache_file(ruleset: str, digest: str) -> Path:
    return cache_dir() / f"{ruleset}-{digest}.toml"


def _from_cache(ruleset: str, digest: str) -> str | None:
    try:
        text = _cache_file(ruleset, digest).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return text if content_hash(text) == digest else None


def _to_cache(ruleset: str, digest: str, text: str) -> None:
    """Keep ``text`` on disk for worker processes (best effort: a read-only home loses only
    the cache)."""
    path = _cache_file(ruleset, digest)
    if path.exists():
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.part")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    except OSError:
        return


def set_text(ruleset: str, digest: str) -> str | None:
    """The canonical TOML text of ``ruleset``'s set whose content hash is ``digest``, or
    ``None`` when neither this process, a registered resolver nor the cache has it."""
    known = _KNOWN.get((ruleset, digest))
    if known is not None:
        return known
    with _LOCK:
        resolvers = list(_RESOLVERS)
    for resolver in resolvers:
        try:
            text = resolver(ruleset, digest)
        except Exception:  # a store that went away must not stop the others
            continue
        if text is not None and content_hash(text) == digest:
            _KNOWN[(ruleset, digest)] = text
            _to_cache(ruleset, digest, text)
            return text
    cached = _from_cache(ruleset, digest)
    if cached is not None:
        _KNOWN[(ruleset, digest)] = cached
    return cached


def require_text(ruleset: str, ref: SetRef) -> str:
    """:func:`set_text` of ``ref``, or :class:`CardSetError` saying where sets come from."""
    text = set_text(ruleset, ref.hash)
    if text is None:
        raise CardSetError(
            f"card_set: no {ruleset} card set {ref.short}… here; a set lives in the match "
            "store that made it (import it with `kessen sets import`, or import a replay "
            "exported with it)"
        )
    return text


# --------------------------------------------------------------------------------------------
# What a ruleset provides
# --------------------------------------------------------------------------------------------


class SetFormat(Protocol):
    """A ruleset's card sets: the shape of their data, its checks, its shipped versions.

    The JSON form of a set is an object whose ``cards`` list holds one object per card (the
    fields of the ruleset's card TOML, keyed by :attr:`card_key`) and whose ``decks`` hold the
    starter decks; its TOML form is the shape of the files the ruleset ships.
    """

    ruleset: str
    card_key: str

    def parents(self) -> list[str]:
        """The shipped versions a set may derive from, newest first (e.g. ``["v3", "v2"]``)."""
        ...

    def shipped(self, label: str) -> Json:
        """The JSON form of shipped version ``label``; ``KeyError`` if there is none."""
        ...

    def from_toml(self, text: str, source: str) -> Json:
        """The JSON form of TOML text; :class:`SetProblems` for text that is not TOML or not
        shaped like a set."""
        ...

    def to_toml(self, data: Json) -> str:
        """The canonical TOML text of valid set data (its hash is the set's identity)."""
        ...

    def validate(self, data: Any) -> list[FieldProblem]:
        """Every problem of a set's JSON form, by field; empty when it is valid."""
        ...

    def normalize(self, data: Json) -> Json:
        """The JSON form as the checks read it (``null`` fields dropped)."""
        ...

    def card_preview(self, card: Any) -> Json:
        """A draft card's generated text ``{"ja", "en"}`` and name, or its problems:
        ``{"problems": [...], "text": {...} | None, "name": {...}}``."""
        ...


def format_for(ruleset: str) -> SetFormat:
    """The :class:`SetFormat` of ``ruleset`` (``kessen.games.<ruleset>.card_sets.FORMAT``);
    :class:`CardSetError` for a ruleset without card sets."""
    if not ruleset.isidentifier():
        raise CardSetError(f"unknown ruleset {ruleset!r}")
    module_name = f"kessen.games.{ruleset}.card_sets"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name not in (module_name, f"kessen.games.{ruleset}"):
            raise
        raise CardSetError(
            f"{ruleset} has no card sets (its cards are not data a designer edits)"
        ) from None
    found: SetFormat = module.FORMAT
    return found


def canonical(fmt: SetFormat, data: Json) -> tuple[str, str]:
    """The canonical TOML text of valid set data and its content hash (:class:`SetProblems`
    if the data does not pass the ruleset's checks)."""
    problems = fmt.validate(data)
    if problems:
        raise SetProblems(problems)
    text = fmt.to_toml(fmt.normalize(data))
    return text, content_hash(text)


def by_key(items: Iterable[Mapping[str, Any]], key: str) -> dict[str, Mapping[str, Any]]:
    """The entries of ``items`` by their ``key`` field (entries without one are left out)."""
    return {str(item[key]): item for item in items if isinstance(item, Mapping) and key in item}


def activate(ruleset: str, config: Mapping[str, Any]) -> None:
    """Let the card lookups of ``ruleset`` in this thread or task (its log's card names, its
    COM) read the designer's set ``config`` names, or the shipped cards when it names none.
    A ruleset without card sets (or without such lookups) is left as it is."""
    if not ruleset.isidentifier():
        return
    module_name = f"kessen.games.{ruleset}.card_sets"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name in (module_name, f"kessen.games.{ruleset}"):
            return
        raise
    switch = getattr(module, "activate", None)
    if switch is not None:
        switch(config.get(SET_KEY))

"""A ruleset's glossary: its jargon, each word with a short explanation in Japanese and English.

A ruleset ships ``data/glossary.toml`` in its package, one ``[[term]]`` table per word::

    [[term]]
    key = "vital"
    ja = "ヴァイタル"
    en = "Vital"
    ja_text = "…"
    en_text = "…"

The browser wraps a word of the board in a ``term`` span by its key and shows the explanation on
hover, focus or tap; the rules screen lists the whole glossary. :func:`parse_glossary` checks a
file (keys unique and lower-case identifiers, both languages present and not empty), so a broken
glossary fails the tests rather than a player's screen.
"""

from __future__ import annotations

import importlib.resources
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass

from kessen.engine.contract import Json

LANGS = ("ja", "en")
KEY = re.compile(r"[a-z0-9_]+")
MAX_TEXT = {"ja": 160, "en": 260}
"""The longest explanation allowed per language (a tooltip, not a rules section)."""


@dataclass(frozen=True)
class Term:
    """One word of a glossary: its key, its word and its explanation in each language."""

    key: str
    words: dict[str, str]
    texts: dict[str, str]

    def entry(self, lang: str) -> Json:
        """The term in ``lang`` (Japanese for a language it lacks) as the API sends it."""
        lang = lang if lang in self.words else "ja"
        return {"key": self.key, "term": self.words[lang], "text": self.texts[lang]}


def parse_glossary(text: str) -> list[Term]:
    """The terms of a glossary file, in file order; ``ValueError`` naming the first mistake."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"glossary: not TOML: {err}") from None
    raw = data.get("term")
    if not isinstance(raw, list) or not raw:
        raise ValueError("glossary: no [[term]] tables")
    terms: list[Term] = []
    seen: set[str] = set()
    for index, item in enumerate(raw, 1):
        key = item.get("key")
        if not isinstance(key, str) or not KEY.fullmatch(key):
            raise ValueError(f"glossary: term {index}: key must be [a-z0-9_]+, got {key!r}")
        if key in seen:
            raise ValueError(f"glossary: term {key!r} appears twice")
        seen.add(key)
        words: dict[str, str] = {}
        texts: dict[str, str] = {}
        for lang in LANGS:
            word, explanation = item.get(lang), item.get(f"{lang}_text")
            if not isinstance(word, str) or not word.strip():
                raise ValueError(f"glossary: term {key!r}: no {lang} word")
            if not isinstance(explanation, str) or not explanation.strip():
                raise ValueError(f"glossary: term {key!r}: no {lang}_text")
            if len(explanation) > MAX_TEXT[lang]:
                raise ValueError(
                    f"glossary: term {key!r}: {lang}_text has {len(explanation)} characters "
                    f"(at most {MAX_TEXT[lang]})"
                )
            words[lang], texts[lang] = word.strip(), explanation.strip()
        unknown = set(item) - {"key", *LANGS, *(f"{lang}_text" for lang in LANGS)}
        if unknown:
            raise ValueError(f"glossary: term {key!r}: unknown fields {sorted(unknown)}")
        terms.append(Term(key, words, texts))
    return terms


Glossary = Callable[[str], list[Json]]
"""A ruleset's glossary in a language: ``[{key, term, text}]`` (empty when it has none)."""


def no_glossary(lang: str) -> list[Json]:
    """The default glossary: none."""
    return []


def packaged_glossary(package: str) -> Glossary:
    """A :data:`Glossary` reading ``data/glossary.toml`` shipped inside ``package`` (none when
    the file is absent); the file is parsed once, at the first call."""
    cache: list[list[Term]] = []

    def read(lang: str) -> list[Json]:
        if not cache:
            source = importlib.resources.files(package).joinpath("data", "glossary.toml")
            text = source.read_text(encoding="utf-8") if source.is_file() else ""
            cache.append(parse_glossary(text) if text else [])
        return [term.entry(lang) for term in cache[0]]

    return read

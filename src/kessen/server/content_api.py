"""Read-only content for the browser: each ruleset's rules as HTML, and the credits of assets.

The rules are the Markdown documents each ruleset ships (``Ruleset.rules_document``), rendered
here once per ruleset and language with markdown-it (raw HTML in a document is escaped, and
link targets are checked by markdown-it's own validator), with an id on every heading so a
game's board can open its screen guide at the right section. Nothing here depends on a
match: these answers are the same for every visitor.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from typing import Any, Literal

from fastapi import APIRouter, HTTPException
from markdown_it import MarkdownIt
from markdown_it.token import Token

from kessen.engine import registry
from kessen.engine.contract import Json

_NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?\s")


def heading_id(title: str, index: int) -> str:
    """A stable anchor for a heading: ``sec-13`` for "13. Using the screen", else ``h-<index>``.

    >>> heading_id("13. Using the screen", 4), heading_id("4.2 Order", 5), heading_id("Glossary", 7)
    ('sec-13', 'sec-4-2', 'h-7')
    """
    match = _NUMBERED.match(title)
    return f"sec-{match.group(1).replace('.', '-')}" if match else f"h-{index}"


def render_rules(markdown: str) -> tuple[str, list[Json]]:
    """The document as HTML with heading ids, and its table of contents (levels 1–3)."""
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    tokens = md.parse(markdown)
    _join_cjk_lines(tokens)
    toc: list[Json] = []
    used: set[str] = set()
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        title = _inline_text(tokens[index + 1 : index + 2])
        anchor = heading_id(title, index)
        while anchor in used:
            anchor += "-"
        used.add(anchor)
        token.attrSet("id", anchor)
        level = int(token.tag[1])
        if level <= 3:
            toc.append({"id": anchor, "level": level, "title": title})
    return md.renderer.render(tokens, md.options, {}), toc


def _wide(char: str) -> bool:
    """Whether ``char`` is written without spaces around it (kana, kanji, full-width forms).

    >>> _wide("あ"), _wide("漢"), _wide("。"), _wide("a"), _wide(" ")
    (True, True, True, False, False)
    """
    return unicodedata.east_asian_width(char) in ("W", "F")


def _join_cjk_lines(tokens: Sequence[Token]) -> None:
    """Drop the soft line breaks of a paragraph that fall next to Japanese text: a browser
    shows a line break in HTML as a space, which Japanese does not put between words
    (「定めた ルール」). Between Latin words the break stays (it is their space)."""
    for token in tokens:
        children = token.children or []
        for at, child in enumerate(children):
            if child.type != "softbreak" or at == 0 or at + 1 == len(children):
                continue
            before = next((c.content for c in reversed(children[:at]) if c.content), "")
            after = next((c.content for c in children[at + 1 :] if c.content), "")
            if (before and _wide(before[-1])) or (after and _wide(after[0])):
                child.type, child.content = "text", ""


def _inline_text(tokens: Sequence[Token]) -> str:
    """The plain text of a heading's inline token."""
    parts: list[str] = []
    for token in tokens:
        for child in token.children or []:
            if child.type in ("text", "code_inline"):
                parts.append(child.content)
    return "".join(parts).strip()


@functools.cache
def rules_page(ruleset: str, lang: str) -> Json:
    """The rules screen's content for ``ruleset`` in ``lang`` (cached: documents are data)."""
    markdown = registry.get(ruleset).rules_document(lang)
    if not markdown:
        raise LookupError(ruleset)
    html, toc = render_rules(markdown)
    return {"ruleset": ruleset, "lang": lang, "html": html, "toc": toc}


def credits_page(rulesets: Sequence[str]) -> Json:
    """Every ruleset's asset credits, by ruleset."""
    return {"rulesets": {name: registry.get(name).credits() for name in rulesets}}


def content_router(rulesets: Sequence[str]) -> APIRouter:
    """``GET /api/rules/{ruleset}``, ``GET /api/glossary/{ruleset}`` and ``GET /api/credits``
    for the offered ``rulesets``."""
    router = APIRouter()
    offered = tuple(rulesets)

    @router.get("/api/rules/{ruleset}")
    async def rules(ruleset: str, lang: Literal["ja", "en"] = "ja") -> dict[str, Any]:
        if ruleset not in offered:
            raise HTTPException(404, "unknown ruleset")
        try:
            page = rules_page(ruleset, lang)
        except LookupError:
            raise HTTPException(404, "this ruleset has no rules document") from None
        assert isinstance(page, dict)
        return page

    @router.get("/api/glossary/{ruleset}")
    async def glossary(ruleset: str, lang: Literal["ja", "en"] = "ja") -> dict[str, Any]:
        if ruleset not in offered:
            raise HTTPException(404, "unknown ruleset")
        return {"ruleset": ruleset, "lang": lang, "terms": registry.get(ruleset).glossary(lang)}

    @router.get("/api/credits")
    async def credits() -> dict[str, Any]:
        page = credits_page(offered)
        assert isinstance(page, dict)
        return page

    return router

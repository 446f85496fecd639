"""A recorded match as one self-contained HTML file: the app's own replay viewer, from disk.

:func:`render` writes the app's page (``web/static/index.html``) with everything it loads
inside it, so it opens from a ``file://`` address without a server or a network, and draws the
match with the same board modules and replay shell as the app (one source, no second
renderer): the slider, the speeds, the choice of perspective, names rather than ids.

- Its stylesheets become ``<style>`` blocks, in the same order.
- Every ES module the page reaches from ``shell/main.js`` becomes a ``data:`` URL under an
  import map, its relative imports (``./x.js``, ``../games/x.js``) rewritten to the map's keys
  (``kessen/shell/x.js``): a ``data:`` URL has no directory to resolve them against. A
  stylesheet a module links itself (``'/static/games/x.css'``) becomes a ``data:`` URL too.
- The record travels as the JSON the server's routes answer, made by the server's own
  functions (:mod:`kessen.server.matches_api`; nothing here computes a view): the match
  (``/api/matches/{id}``), its whole replay (``/api/matches/{id}/replay``) for each seat the
  record lets anyone see and each language, and what the page reads besides (``/api/meta``,
  the catalogue, glossary and rules of the record's ruleset, the credits). Each answer is
  gzip-compressed and base64-encoded in one ``<script type="application/json">``;
  ``shell/embedded.js`` answers the page's fetches from it and ``shell/main.js`` opens the
  replay at once.

The page carries a Content-Security-Policy of its own (a ``<meta>``): scripts only from the
import map's ``data:`` URLs and the import map itself (by its hash), its own style blocks (by
their hashes), and no connection anywhere.

Which views: those the server shows anyone (:func:`~kessen.server.matches_api.viewable_seats`
without a token): every seat and ``all`` for a finished match, none of an unfinished one or of
a secret build's seat (TWGP between two people). ``seats`` overrides that: the owner of the
store may export any views of their own records.
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import hashlib
import html
import json
import posixpath
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from kessen.engine import registry
from kessen.engine.action import Action, ActionParseError
from kessen.engine.contract import Json
from kessen.store.records import MatchStore

STATIC: Final = Path(__file__).resolve().parent.parent / "web" / "static"
"""The app's page and modules (what the server serves under ``/static``)."""
ENTRY: Final = "shell/main.js"
"""The page's module, relative to :data:`STATIC`."""
KEY_PREFIX: Final = "kessen/"
"""The import map's keys: ``kessen/`` and the module's path under :data:`STATIC`."""
LANGS: Final = ("ja", "en")
"""The languages an exported page carries (its language switch works)."""
SEAT_KEYS: Final = ("0", "1", "all")
EXPORT_ID: Final = "kessen-export"
"""The id of the element that carries the answers (``shell/embedded.js`` reads it)."""

_IMPORT: Final = re.compile(r"""(\bfrom\s*|\bimport\s*\(?\s*)(['"])([^'"\n]+)\2""")
_STYLESHEET: Final = re.compile(r'<link rel="stylesheet" href="/static/([^"]+)">')
_LINKED_CSS: Final = re.compile(r"""(['"])/static/([\w./-]+\.css)\1""")
_MODULE: Final = re.compile(r'<script type="module" src="/static/([^"]+)"></script>')


class ExportError(ValueError):
    """The match cannot be exported as asked (no view may be shown, a bad seat)."""


# --- the record's answers ------------------------------------------------------------------


def shown_action(text: str, actor: int, viewer: int | None, ruleset: str) -> str:
    """The action as ``viewer`` saw it: another seat's secret choices (the ruleset's
    ``secret_action``: in Kōbō a card taken, named or picked from a hidden hand; in TWGP a
    build choice, a stealth summon, a card re-charged or reloaded) read as their verb alone.

    >>> shown_action("stealth-drive s3 4", 0, 1, "twgp")
    'stealth-drive …'
    >>> shown_action("charge-drive s3 4", 0, 1, "twgp")
    'charge-drive s3 4'
    """
    if viewer is None or actor == viewer:
        return text
    try:
        action = Action.parse(text)
    except ActionParseError:
        return text
    return f"{action.verb} …" if registry.get(ruleset).secret_action(action) else text


def _meta(ruleset: str) -> Json:
    """``/api/meta`` as the server answers it, offering only the record's ruleset, without a
    store (no history, no saved decks) and without sharing."""
    from kessen.server.app import DEFAULT_COM, ruleset_meta  # the server's own, not a copy

    return {
        "pace": 0,
        "rulesets": {ruleset: ruleset_meta(registry.get(ruleset), DEFAULT_COM)},
        "store": False,
        "saved_decks": False,
        "share": None,
    }


def answers(
    store: MatchStore, match_id: int, seats: Sequence[str] | None = None
) -> tuple[dict[str, Json], list[str]]:
    """The answers an exported page of match ``match_id`` carries, by request (path, and the
    ``seat`` and ``lang`` of the query, as ``shell/embedded.js`` looks them up), and the views
    they hold. :class:`~kessen.store.records.StoreError` when there is no such match,
    :class:`~kessen.engine.replay.ReplayDivergence` when it no longer replays,
    :class:`ExportError` when no view may be shown."""
    from kessen.server import matches_api as api
    from kessen.server.content_api import credits_page, rules_page

    record = store.get(match_id)
    rep = api.replay_record(record)
    info = rep.info
    open_ = api.is_open(store, info)
    secret = api.secret_seats(info, rep.config)
    if seats is None:
        shown: list[api.SeatKey] = api.viewable_seats(info, open_, rep.meta, None, secret)
        if not shown:
            why = "is not finished" if open_ else "holds each player's secret build"
            raise ExportError(
                f"match {match_id} {why}: no view of it may be shown to anyone; "
                "name the views to export with --seat (0, 1 or all)"
            )
    else:
        unknown = [s for s in seats if s not in SEAT_KEYS]
        if unknown or not seats:
            raise ExportError(f"seat: expected 0, 1 or all, got {', '.join(unknown) or 'none'}")
        shown = [s for s in SEAT_KEYS if s in seats]
    listing = api.public_info(info, open_, rep.meta, bool(secret), rep.config)
    out: dict[str, Json] = {
        "/api/meta": _meta(info.ruleset),
        f"/api/matches/{match_id}": api.match_answer(rep, open_, shown, listing),
        "/api/credits": credits_page((info.ruleset,)),
    }
    rules = registry.get(info.ruleset)
    try:
        catalog_config: Json | None = rules.record_config(rep.config, info.data_hash)
    except Exception:  # the card data of the record is not known here: today's
        catalog_config = None
    for lang in LANGS:
        try:
            out[f"/api/catalog/{info.ruleset}?lang={lang}"] = rules.catalog(lang, catalog_config)
        except Exception:  # what the server answers for any record of the ruleset
            out[f"/api/catalog/{info.ruleset}?lang={lang}"] = rules.catalog(lang)
        out[f"/api/glossary/{info.ruleset}?lang={lang}"] = {
            "ruleset": info.ruleset,
            "lang": lang,
            "terms": rules.glossary(lang),
        }
        with contextlib.suppress(LookupError):  # none: the rules screen says it cannot load
            out[f"/api/rules/{info.ruleset}?lang={lang}"] = rules_page(info.ruleset, lang)
        for seat in shown:
            key = f"/api/matches/{match_id}/replay?seat={seat}&lang={lang}"
            out[key] = api.whole_replay(rep, seat, lang, listing)
    return out, list(shown)


def _packed(value: Json) -> str:
    """``value`` as JSON, gzip-compressed (no time stamp: the same record gives the same
    file), base64-encoded."""
    raw = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, 9, mtime=0)).decode("ascii")


def unpacked(text: str) -> Json:
    """What :func:`_packed` packed (the tests read the page's answers with it)."""
    value: Json = json.loads(gzip.decompress(base64.b64decode(text)).decode("utf-8"))
    return value


def build(
    store: MatchStore, match_id: int, lang: str = "ja", seats: Sequence[str] | None = None
) -> Json:
    """The data the page embeds: the match id, the language it opens in, the views it holds
    and the answers (:func:`answers`, each packed)."""
    if lang not in LANGS:
        raise ExportError(f"lang: expected ja or en, got {lang!r}")
    found, shown = answers(store, match_id, seats)
    return {
        "format": 1,
        "match": match_id,
        "lang": lang,
        "seats": shown,
        "answers": {key: _packed(value) for key, value in found.items()},
    }


# --- the page ------------------------------------------------------------------------------


def module_key(path: str) -> str:
    """The import map's key of the module at ``path`` (relative to :data:`STATIC`).

    >>> module_key("games/kobo.js")
    'kessen/games/kobo.js'
    """
    return KEY_PREFIX + path


def _css_url(path: str) -> str:
    css = (STATIC / path).read_text(encoding="utf-8")
    return "data:text/css;base64," + base64.b64encode(css.encode("utf-8")).decode()


def _rewritten(path: str, source: str) -> tuple[str, list[str]]:
    """``source`` of the module at ``path`` with its relative imports written as import map
    keys (and a stylesheet it links itself, ``'/static/….css'``, as a ``data:`` URL), and the
    paths of the modules it imports."""
    found: list[str] = []
    source = _LINKED_CSS.sub(
        lambda m: (
            f"{m.group(1)}{_css_url(m.group(2))}{m.group(1)}"
            if (STATIC / m.group(2)).is_file()
            else m.group(0)
        ),
        source,
    )

    def key(match: re.Match[str]) -> str:
        target = match.group(3)
        if not target.startswith(("./", "../")):
            return match.group(0)
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
        if resolved.startswith("../") or not (STATIC / resolved).is_file():
            raise ExportError(f"{path}: imports {target!r}, which is not a module of the app")
        found.append(resolved)
        return f"{match.group(1)}{match.group(2)}{module_key(resolved)}{match.group(2)}"

    return _IMPORT.sub(key, source), found


def modules(entry: str = ENTRY) -> dict[str, str]:
    """Every module the page reaches from ``entry``, by path, its imports rewritten."""
    out: dict[str, str] = {}
    todo = [entry]
    while todo:
        path = todo.pop()
        if path in out:
            continue
        out[path], deps = _rewritten(path, (STATIC / path).read_text(encoding="utf-8"))
        todo.extend(d for d in deps if d not in out)
    return dict(sorted(out.items()))


def _data_url(source: str) -> str:
    return "data:text/javascript;base64," + base64.b64encode(source.encode("utf-8")).decode()


def _sha256(text: str) -> str:
    """A CSP source for the inline block ``text``."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


_SCRIPT_SAFE: Final = {
    ord("<"): "\\u003c",
    ord(">"): "\\u003e",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def script_json(value: Any) -> str:
    """``value`` as JSON safe inside an HTML ``<script>`` block: ``<``, ``>``, ``&``, U+2028
    and U+2029 are written as ``\\u`` escapes, so no text (``</script>``, ``<!--``,
    ``<script``) can end the block or switch the HTML parser's state, and the JSON reads back
    the same.

    >>> script_json({"t": "</script><!--"})
    '{"t":"\\\\u003c/script\\\\u003e\\\\u003c!--"}'
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.translate(_SCRIPT_SAFE)


EXPORTED_CSS: Final = """
/* An exported replay (kessen store html): nothing that needs the server. */
body.exported #btn-quit, body.exported #btn-history, body.exported .rp-continue {
  display: none !important;
}
"""
"""What the exported page hides: 新しい対戦, the match list and 「この局面から対戦」."""


def page(data: Json, title: str = "") -> str:
    """The app's page with its stylesheets, its modules and ``data`` inside it."""
    index = (STATIC / "index.html").read_text(encoding="utf-8")
    styles: list[str] = []

    def style(match: re.Match[str]) -> str:
        css = (STATIC / match.group(1)).read_text(encoding="utf-8")
        if "</style" in css.lower():
            raise ExportError(f"{match.group(1)}: a stylesheet may not contain '</style'")
        styles.append(css)
        return f"<style>{css}</style>"

    out = _STYLESHEET.sub(style, index)
    entries = _MODULE.findall(out)
    if entries != [ENTRY]:
        raise ExportError(f"index.html: expected one module script, {ENTRY}; found {entries}")
    found = modules()
    imports = {module_key(path): _data_url(source) for path, source in found.items()}
    import_map = script_json({"imports": imports})
    boot = f"import '{module_key(ENTRY)}';"
    styles.append(EXPORTED_CSS)
    csp = "; ".join(
        [
            "default-src 'none'",
            f"script-src data: {_sha256(import_map)}",
            "style-src data: " + " ".join(sorted({_sha256(css) for css in styles})),
            "img-src data:",
            "font-src data:",
            "connect-src 'none'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'none'",
        ]
    )
    scripts = "\n".join(
        [
            f"<style>{EXPORTED_CSS}</style>",
            f'<script type="importmap">{import_map}</script>',
            f'<script type="application/json" id="{EXPORT_ID}">{script_json(data)}</script>',
            f'<script type="module" src="{_data_url(boot)}"></script>',
        ]
    )
    out = _MODULE.sub(lambda _m: scripts, out)
    out = out.replace(
        '<meta charset="utf-8">',
        '<meta charset="utf-8">\n  <meta http-equiv="Content-Security-Policy" '
        f'content="{html.escape(csp)}">',
        1,
    )
    out = out.replace('<body class="', '<body class="exported ', 1)
    out = re.sub(r"^<!doctype html>", "<!DOCTYPE html>", out, count=1, flags=re.IGNORECASE)
    out = re.sub(r'<html lang="[^"]*">', f'<html lang="{data["lang"]}">', out, count=1)
    if title:
        out = re.sub(r"<title>.*?</title>", lambda _m: f"<title>{html.escape(title)}</title>", out)
    return out


def render(
    store: MatchStore,
    match_id: int,
    lang: str = "ja",
    *,
    seats: Sequence[str] | None = None,
    title: str = "",
) -> str:
    """One self-contained HTML page replaying match ``match_id`` of ``store`` in the app's
    own viewer (see the module docstring), opening in ``lang``."""
    return page(build(store, match_id, lang, seats), title)

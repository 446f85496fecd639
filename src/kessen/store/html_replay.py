"""A recorded match as one self-contained HTML file: step, seek, play/pause, switch seats.

:func:`render` replays the record through the engine (verifying its hashes) and embeds, for
every step, the view of seat 0, of seat 1 and of everything, with the log texts (the ruleset's
own ``describe``). Inline CSS and JS only: the file opens from disk without a server or a
network. The page's script is a shell (``replay_page/shell.js``: decoding, controls, log) and
the board module of the record's ruleset (``replay_page/<ruleset>.js``: Kōbō, TWGP トランプ版,
Project Maken), with its stylesheet ``replay_page/page.css``.

Views change little from one step to the next, so they are stored as a table of unique values:
a view is an index into the table, a dict or list node holds indexes of its children. The log
only grows, so each seat's log is stored once with its length at every step.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from typing import Any, Final

from kessen.engine import registry
from kessen.engine.action import Action, ActionParseError
from kessen.engine.contract import GameState, Json
from kessen.engine.replay import Replay

VIEWERS: Final[tuple[tuple[str, int | None], ...]] = (("0", 0), ("1", 1), ("all", None))
_DEPTH: Final = 5


class _Table:
    """Interned JSON values: leaves as themselves, dicts and lists as nodes of indexes."""

    def __init__(self) -> None:
        self.kinds: list[str] = []
        self.values: list[Any] = []
        self._index: dict[Any, int] = {}

    def add(self, value: Any, depth: int = _DEPTH) -> int:
        """The index of ``value`` (interned down to ``depth`` levels)."""
        kind = "v"
        node: Any = value
        key: Any
        if depth > 0 and isinstance(value, dict) and value:
            kind, node = "d", {k: self.add(v, depth - 1) for k, v in value.items()}
            key = ("d", tuple(node.items()))
        elif depth > 0 and isinstance(value, list) and value:
            kind, node = "l", [self.add(v, depth - 1) for v in value]
            key = ("l", tuple(node))
        elif value is None or isinstance(value, str | int | float | bool):
            key = (type(value).__name__, value)
        else:
            key = ("j", json.dumps(value, sort_keys=True, ensure_ascii=False))
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self.values)
            self.kinds.append(kind)
            self.values.append(node)
        return found


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


def _view(state: GameState, viewer: int | None, lang: str) -> Json:
    return state.view_all(lang) if viewer is None else state.view(viewer, lang)


def _card_texts(replay: Replay, lang: str, slugs: set[str]) -> Json:
    """The texts of the cards the replay shows, as the card data of its match had them."""
    rules = registry.get(replay.ruleset)
    try:
        config = rules.record_config(replay.config, replay.data_hash)
        cards = rules.catalog(lang, config).get("cards", {})
    except Exception:  # a catalogue is a nicety; the replay works without it
        return {}
    return {slug: cards[slug] for slug in sorted(slugs) if slug in cards}


def _slugs(value: Any, out: set[str]) -> None:
    if isinstance(value, dict):
        slug = value.get("slug")
        if isinstance(slug, str):
            out.add(slug)
        for item in value.values():
            _slugs(item, out)
    elif isinstance(value, list):
        for item in value:
            _slugs(item, out)


def build(replay: Replay, lang: str = "ja", *, verify: bool = True, title: str = "") -> Json:
    """The data the HTML page embeds (see the module docstring for its shape)."""
    rules = registry.get(replay.ruleset)
    table = _Table()
    views: dict[str, list[int]] = {key: [] for key, _ in VIEWERS}
    raw_logs: dict[str, list[Json]] = {key: [] for key, _ in VIEWERS}
    texts: dict[str, list[list[str]]] = {key: [] for key, _ in VIEWERS}
    lengths: dict[str, list[int]] = {key: [] for key, _ in VIEWERS}
    overrides: dict[str, dict[int, list[list[str]]]] = {key: {} for key, _ in VIEWERS}
    steps: list[Json] = []
    slugs: set[str] = set()
    previous: GameState | None = None
    for index, state in enumerate(replay.states(verify=verify)):
        if previous is not None:
            pending = previous.pending
            actor = pending.seat if pending is not None else -1
            text = replay.actions[index - 1]
            steps.append(
                {
                    "actor": actor,
                    "action": {
                        key: shown_action(text, actor, viewer, replay.ruleset)
                        for key, viewer in VIEWERS
                    },
                }
            )
        for key, viewer in VIEWERS:
            view = _view(state, viewer, lang)
            log: list[Json] = view.pop("log", [])
            if viewer is None:
                _slugs(view, slugs)
            known = raw_logs[key]
            if len(log) >= len(known) and log[: len(known)] == known:
                for entry in log[len(known) :]:
                    known.append(entry)
                    texts[key].append(
                        [str(entry.get("kind", "")), rules.describe(entry, lang, viewer)]
                    )
                lengths[key].append(len(log))
            else:  # a log that is not an extension of the previous one: keep it whole
                overrides[key][index] = [
                    [str(e.get("kind", "")), rules.describe(e, lang, viewer)] for e in log
                ]
                lengths[key].append(-1)
            views[key].append(table.add(view))
        previous = state
    outcome = previous.outcome if previous is not None else None
    return {
        "title": title,
        "lang": lang,
        "ruleset": replay.ruleset,
        "seed": replay.seed,
        "version": replay.version,
        "data_hash": replay.data_hash,
        "outcome": None
        if outcome is None
        else {"winner": outcome.winner, "reason": outcome.reason},
        "steps": steps,
        "kinds": "".join(table.kinds),
        "values": table.values,
        "views": views,
        "logs": texts,
        "log_lengths": lengths,
        "log_overrides": {k: {str(i): v for i, v in o.items()} for k, o in overrides.items()},
        "cards": _card_texts(replay, lang, slugs),
    }


def render(replay: Replay, lang: str = "ja", *, verify: bool = True, title: str = "") -> str:
    """One self-contained HTML page replaying ``replay`` (hashes verified unless told not)."""
    data = build(replay, lang, verify=verify, title=title)
    heading = title or f"Kessen {replay.ruleset} — seed {replay.seed}"
    parts = {
        "TITLE": html.escape(heading),
        "LANG": html.escape(lang),
        "CSS": _asset("page.css"),
        "JS": _script(replay.ruleset),
        "DATA": script_json(data),
    }
    # One pass: a value that happens to contain "@@DATA@@" is never substituted again.
    return _SLOT.sub(lambda m: parts[m.group(1)], _PAGE)


_SLOT: Final = re.compile(r"@@([A-Z]+)@@")
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


_PAGE: Final = """<!DOCTYPE html>
<html lang="@@LANG@@">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@@TITLE@@</title>
<style>@@CSS@@</style>
</head>
<body>
<header>
  <h1 id="title">@@TITLE@@</h1>
  <div id="summary"></div>
</header>
<nav id="controls">
  <button id="first" title="Home">⇤</button>
  <button id="prev" title="←">‹</button>
  <button id="play" title="Space">▶</button>
  <button id="next" title="→">›</button>
  <button id="last" title="End">⇥</button>
  <input id="seek" type="range" min="0" value="0">
  <span id="stepno"></span>
  <label><span data-l="speed"></span>
    <select id="speed">
      <option value="1000">1×</option><option value="400" selected>2.5×</option>
      <option value="150">6×</option><option value="40">25×</option>
    </select></label>
  <label><span data-l="seat"></span>
    <select id="viewer">
      <option value="0">P1</option><option value="1">P2</option>
      <option value="all" selected>all</option>
    </select></label>
</nav>
<div id="action"></div>
<main>
  <section id="board"></section>
  <aside><h2 data-l="log"></h2><ol id="log"></ol></aside>
</main>
<footer id="foot"></footer>
<script id="kessen-data" type="application/json">@@DATA@@</script>
<script>@@JS@@</script>
</body>
</html>
"""

_ASSETS: Final = resources.files("kessen.store") / "replay_page"
"""The page's stylesheet and scripts: ``shell.js`` and one board module per ruleset."""


def _asset(name: str) -> str:
    return (_ASSETS / name).read_text(encoding="utf-8")


def _script(ruleset: str) -> str:
    """The page's script: the shell, the board module of ``ruleset`` (if there is one), start.

    A ruleset without a board module shows each view as JSON."""
    board = _ASSETS / f"{ruleset}.js"
    game = board.read_text(encoding="utf-8") if board.is_file() else ""
    return '"use strict";\n' + _asset("shell.js") + game + "show();\n"

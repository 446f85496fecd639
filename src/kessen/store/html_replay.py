"""A recorded match as one self-contained HTML file: step, seek, play/pause, switch seats.

:func:`render` replays the record through the engine (verifying its hashes) and embeds, for
every step, the view of seat 0, of seat 1 and of everything, with the log texts (the ruleset's
own ``describe``). Inline CSS and JS only: the file opens from disk without a server or a
network. The page draws Kōbō's board and TWGP トランプ版's (vitals, battle stacks with pow,
pose, frames and weapons, charge squares, hand, surge, storage).

Views change little from one step to the next, so they are stored as a table of unique values:
a view is an index into the table, a dict or list node holds indexes of its children. The log
only grows, so each seat's log is stored once with its length at every step.
"""

from __future__ import annotations

import html
import json
import re
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
        "CSS": _CSS,
        "JS": _JS,
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

_CSS: Final = """
:root { --bg:#f6f3ec; --ink:#222; --muted:#777; --line:#d8d0c0; --p0:#1f5fa8; --p1:#a8321f;
  --card:#fffdf8; --hi:#fff1b8; }
* { box-sizing:border-box; }
body { margin:0; font:14px/1.4 system-ui, "Hiragino Sans", "Noto Sans JP", sans-serif;
  background:var(--bg); color:var(--ink); }
header { padding:8px 16px; border-bottom:1px solid var(--line); }
h1 { font-size:18px; margin:0; } h2 { font-size:14px; margin:4px 0; }
#summary, #foot { color:var(--muted); font-size:12px; padding:4px 16px; }
#controls { display:flex; gap:6px; align-items:center; padding:8px 16px; flex-wrap:wrap;
  position:sticky; top:0; background:var(--bg); border-bottom:1px solid var(--line); z-index:2; }
#controls button { font-size:16px; min-width:36px; }
#seek { flex:1; min-width:160px; }
#action { padding:6px 16px; font-weight:600; min-height:1.6em; }
main { display:grid; grid-template-columns:minmax(0,3fr) minmax(240px,1fr); gap:12px;
  padding:0 16px 16px; }
@media (max-width:800px) { main { grid-template-columns:1fr; } }
aside { max-height:78vh; overflow:auto; background:var(--card); border:1px solid var(--line);
  border-radius:6px; padding:4px 8px; }
#log { margin:0; padding-left:2.6em; font-size:12px; }
#log li.new { background:var(--hi); }
#log li.k-turn, #log li.k-game_end, #log li.k-match_end, #log li.k-game_start,
#log li.k-game_over { font-weight:700; }
.side { border:1px solid var(--line); border-radius:6px; padding:6px 8px; margin:6px 0;
  background:var(--card); }
.side.s0 { border-left:5px solid var(--p0); } .side.s1 { border-left:5px solid var(--p1); }
.side.turn { box-shadow:0 0 0 2px #e2b400 inset; }
.row { display:flex; gap:6px; margin:4px 0; align-items:stretch; }
.row > .label { width:5.5em; color:var(--muted); font-size:12px; align-self:center; }
.slot { flex:1; min-height:46px; border:1px dashed var(--line); border-radius:4px; padding:2px 4px;
  font-size:12px; background:#fbf9f4; }
.slot.card { border-style:solid; background:#fff; }
.slot .lv { font-size:18px; font-weight:700; float:right; }
.slot.attacking { outline:2px solid #e07000; } .slot.target { outline:2px solid #c00; }
.slot.down { background:repeating-linear-gradient(45deg, #e8e1d2, #e8e1d2 6px,
  #f2ece0 6px, #f2ece0 12px); }
.meta { display:flex; gap:12px; flex-wrap:wrap; font-size:12px; color:var(--muted); }
.chips span { display:inline-block; border:1px solid var(--line); border-radius:10px;
  padding:0 6px; margin:1px; font-size:12px; background:#fff; }
.center { margin:8px 0; padding:6px 8px; border-radius:6px; background:#efe9dc; font-size:13px; }
.legal code { background:#fff; border:1px solid var(--line); border-radius:3px; padding:0 3px;
  margin:1px; display:inline-block; }
pre { white-space:pre-wrap; font-size:11px; }
"""

_JS: Final = r"""
"use strict";
const D = JSON.parse(document.getElementById("kessen-data").textContent);
const L = {
  ja: {speed:"速度", seat:"視点", log:"ログ", step:"手", start:"開始", hand:"手札",
       thand:"戦術手札", battle:"バトル", strategy:"作戦", main:"山札", tdeck:"戦術デッキ",
       retreat:"撤退", excluded:"除外", passes:"パス", game:"ゲーム", turn:"ターン",
       wins:"勝利", waits:"待ち", chain:"チェーン", attack:"攻撃", legal:"選択肢",
       winner:"勝者", none:"勝者なし", all:"全体", down:"伏せ", reveal:"公開",
       pile:"山札", surge:"サージ", storage:"ストレージ", vitals:"ヴァイタル", charge:"チャージ",
       aside:"除外", frames:"フレーム", quiet:"動きのないターン", phase_setup:"構築",
       phase_build:"ビルド", phase_battle:"バトル", phase_over:"終了", pose_active:"表タテ",
       pose_save:"表ヨコ", pose_stealth:"潜伏", pose_gb:"Gブラスト宣言", lost:"失効",
       effect:"ヴァイタル効果"},
  en: {speed:"speed", seat:"view", log:"Log", step:"step", start:"start", hand:"hand",
       thand:"tactics hand", battle:"Battle", strategy:"Strategy", main:"deck",
       tdeck:"tactics deck", retreat:"retreat", excluded:"excluded", passes:"passes",
       game:"Game", turn:"Turn", wins:"wins", waits:"waits for", chain:"chain",
       attack:"attack", legal:"choices", winner:"winner", none:"no winner", all:"all",
       down:"face down", reveal:"revealed", pile:"pile", surge:"surge", storage:"storage",
       vitals:"vitals", charge:"charge", aside:"set aside", frames:"frames",
       quiet:"quiet turns", phase_setup:"building", phase_build:"build phase",
       phase_battle:"battle phase", phase_over:"over", pose_active:"active", pose_save:"save",
       pose_stealth:"stealth", pose_gb:"G-blast declared", lost:"lost",
       effect:"vital effect"}
}[D.lang] || {};
const t = k => L[k] || esc(k);
const cache = new Array(D.values.length);
function dec(i) {
  if (cache[i] !== undefined) return cache[i];
  const k = D.kinds[i], v = D.values[i];
  let out;
  if (k === "d") { out = {}; for (const key in v) out[key] = dec(v[key]); }
  else if (k === "l") { out = v.map(dec); }
  else out = v;
  cache[i] = out;
  return out;
}
const N = D.views.all.length;
let step = 0, viewer = "all", timer = null;
const $ = id => document.getElementById(id);
const ESC = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"};
function esc(s) { return String(s).replace(/[&<>"']/g, c => ESC[c]); }
const seatName = s => (s === 0 || s === 1) ? "P" + (s + 1) : "—";
function cardTitle(c) {
  const info = c && c.slug && D.cards[c.slug];
  if (!info) return "";
  const lv = info.lv ? " Lv" + info.lv : "";
  return ` title="${esc(info.name + lv + "\n" + (info.text || ""))}"`;
}
function chip(c) {
  return c ? `<span${cardTitle(c)}>${esc(c.name || c.slug || "?")}</span>` : "";
}
function slot(c, kind) {
  if (!c) return `<div class="slot"></div>`;
  if (kind === "battle") {
    const cls = ["slot", "card", c.attacking ? "attacking" : "", c.target ? "target" : ""];
    const mod = c.lv !== c.printed ? ` <small>(${esc(c.printed)})</small>` : "";
    return `<div class="${cls.join(" ")}"${cardTitle(c)}>` +
      `<span class="lv">${esc(c.lv)}</span>${esc(c.name)}${mod}</div>`;
  }
  const down = c.face === "down";
  const name = c.name ? esc(c.name) : `<i>${t("down")}</i>`;
  const note = down && c.name ? ` <small>(${t("down")})</small>` : "";
  return `<div class="slot card ${down ? "down" : ""}"${cardTitle(c)}>${name}${note}</div>`;
}
function hidden(h) {
  if (!h) return "";
  return h.cards ? `<span class="chips">${h.cards.map(chip).join("")}</span>`
    : `<b>${esc(h.count)}</b>`;
}
function row(label, body) {
  return `<div class="row"><span class="label">${t(label)}</span>${body}</div>`;
}
function chips(cards) {
  return `<div class="chips">${cards.map(c => c.name ? chip(c) : `<span>${t("down")}</span>`)
    .join("")}</div>`;
}
function side(p, v) {
  const turn = v.turn_player === p.seat && !v.match.over ? " turn" : "";
  const deck = p.deck ? (p.deck.name || p.deck.slug || "") : "";
  const rows = [
    `<div class="meta"><b>${seatName(p.seat)}</b><span>${esc(deck)}</span>` +
      `<span>${t("main")}: ${p.main_deck}</span>` +
      `<span>${t("tdeck")}: ${p.tactics_deck}</span>` +
      `<span>${t("passes")}: ${p.passes}</span>` +
      `<span>${t("wins")}: ${v.match.wins[p.seat]}</span></div>`,
    row("strategy", p.strategy.map(c => slot(c, "strategy")).join("")),
    row("battle", p.battle.map(c => slot(c, "battle")).join("")),
    row("hand", `<div>${hidden(p.hand)}</div>`),
    row("thand", `<div>${hidden(p.tactics_hand)}</div>`),
  ];
  if (p.reveal && p.reveal.length) rows.push(row("reveal", chips(p.reveal)));
  if (p.retreat.length) rows.push(row("retreat", chips(p.retreat)));
  if (p.excluded.length) rows.push(row("excluded", chips(p.excluded)));
  return `<div class="side s${p.seat}${turn}">${rows.join("")}</div>`;
}
function center(v) {
  const parts = [];
  const a = v.attack;
  if (a) {
    parts.push(`<div>${t("attack")}: ${seatName(a.seat)} [${esc(a.attackers.join(", "))}] → ` +
      `${esc(a.target ?? "—")}${a.negated ? " ✕" : ""}</div>`);
  }
  if (v.chain && v.chain.length) {
    const links = v.chain.map(l =>
      `${l.link}. ${seatName(l.seat)} ${chip(l)}${l.negated ? " ✕" : ""}`);
    parts.push(`<div>${t("chain")}: ${links.join(" · ")}</div>`);
  }
  const p = v.pending;
  if (p) {
    const codes = p.legal ? p.legal.map(x => `<code>${esc(x)}</code>`).join("") : "";
    const legal = p.legal ? `<div class="legal">${t("legal")}: ${codes}</div>` : "";
    parts.push(`<div>${t("waits")}: <b>${seatName(p.seat)}</b> — ${esc(p.prompt)}</div>` + legal);
  }
  const m = v.match;
  if (m && m.over) {
    const who = m.winner === null ? t("none") : t("winner") + ": " + seatName(m.winner);
    parts.push(`<div><b>${who}</b></div>`);
  }
  return parts.length ? `<div class="center">${parts.join("")}</div>` : "";
}
// TWGP トランプ版: cards by their label (♠3); stacks with pow, pose, frames and weapons.
const tw = c => c ? (c.label || c.name || c.slug || "?") : "?";
function twChips(cards) {
  return `<div class="chips">${cards.map(c =>
    `<span${cardTitle(c)}>${c.label ? esc(tw(c)) : t("down")}</span>`).join("")}</div>`;
}
function twHidden(h) {
  if (!h) return "";
  return h.cards ? twChips(h.cards) : `<b>${esc(h.count)}</b>`;
}
function twStack(s) {
  if (!s) return `<div class="slot"></div>`;
  const cls = ["slot", "card", s.face === "down" ? "down" : "",
    s.role === "attacker" ? "attacking" : "", s.role === "target" ? "target" : ""];
  const pose = `<small>${t("pose_" + s.pose)}</small>`;
  if (!s.unit) return `<div class="${cls.join(" ")}"><i>${t("down")}</i> ${pose}</div>`;
  let extra = "";
  if (s.frames.length) extra += `<br><small>${t("frames")} ${s.frames.map(tw).join(" ")}</small>`;
  if (s.weapons.length) extra += `<br><small>+ ${s.weapons.map(tw).join(" ")}</small>`;
  return `<div class="${cls.join(" ")}"${cardTitle(s.unit)}><span class="lv">${esc(s.pow)}</span>` +
    `${esc(tw(s.unit))} ${pose}${extra}</div>`;
}
function twCard(c, empty) {
  if (!c || c.face === "empty") return `<div class="slot">${empty || ""}</div>`;
  const down = c.face === "down";
  const name = c.label ? esc(tw(c)) : `<i>${t("down")}</i>`;
  const status = c.status ? ` <small>(${t(c.status)})</small>` : "";
  return `<div class="slot card ${down ? "down" : ""}"${cardTitle(c)}>${name}${status}</div>`;
}
function twSide(p, v) {
  const turn = v.turn_player === p.seat && !v.outcome ? " turn" : "";
  const rows = [
    `<div class="meta"><b>${seatName(p.seat)}</b>` +
      `<span>${t("pile")}: ${p.pile}</span><span>${t("hand")}: ${p.hand.count}</span>` +
      `<span>${t("surge")}: ${p.surge.length}</span>` +
      `<span>${t("storage")}: ${p.storage.length}</span></div>`,
    row("vitals", p.vitals.map(c => twCard(c)).join("")),
    row("battle", p.battle.map(twStack).join("")),
    row("charge", p.charge.map(c => twCard(c)).join("")),
    row("hand", `<div>${twHidden(p.hand)}</div>`),
  ];
  if (p.aside && p.aside.cards) rows.push(row("aside", twChips(p.aside.cards)));
  if (p.surge.length) rows.push(row("surge", twChips(p.surge)));
  if (p.storage.length) rows.push(row("storage", twChips(p.storage)));
  return `<div class="side s${p.seat}${turn}">${rows.join("")}</div>`;
}
function twCenter(v) {
  const parts = [];
  const a = v.attack;
  if (a) {
    parts.push(`<div>${t("attack")}: ${seatName(a.seat)} ${esc(a.type)} ${esc(a.attacker)} → ` +
      `${esc(a.target ?? "—")}${a.cancelled || a.lost ? " ✕" : ""}</div>`);
  }
  const p = v.pending;
  if (p) {
    const codes = p.legal ? p.legal.map(x => `<code>${esc(x)}</code>`).join("") : "";
    const legal = p.legal ? `<div class="legal">${t("legal")}: ${codes}</div>` : "";
    parts.push(`<div>${t("waits")}: <b>${seatName(p.seat)}</b> — ${esc(p.prompt)}</div>` + legal);
  }
  const o = v.outcome;
  if (o) {
    const who = o.winner === null ? t("none") : t("winner") + ": " + seatName(o.winner);
    parts.push(`<div><b>${who}</b> (${esc(o.reason)})</div>`);
  }
  return parts.length ? `<div class="center">${parts.join("")}</div>` : "";
}
function twBoard(v) {
  const bottom = viewer === "1" ? 1 : 0;
  const ve = v.vital_effect;
  const effect = ve ? `<span>${t("effect")}: ${seatName(ve.seat)} ${esc(tw(ve.card))}</span>` : "";
  const head = `<div class="meta"><span>${t("turn")} ${v.turn}</span>` +
    `<span>${t("turn")}: ${seatName(v.turn_player)}</span>` +
    `<span>${t("phase_" + v.phase)}</span><span>${t("quiet")}: ${v.quiet}</span>${effect}</div>`;
  return head + twSide(v.players[1 - bottom], v) + twCenter(v) + twSide(v.players[bottom], v);
}
function board(v) {
  if (!v.players) return `<pre>${esc(JSON.stringify(v, null, 1))}</pre>`;
  if (D.ruleset === "twgp") return twBoard(v);
  const bottom = viewer === "1" ? 1 : 0;
  const m = v.match || {};
  const head = `<div class="meta">` +
    `<span>${t("game")} ${m.game ?? "?"} / ${m.best_of ?? "?"}</span>` +
    `<span>${t("turn")} ${v.turn}${v.turn_limit ? " / " + v.turn_limit : ""}</span>` +
    `<span>${t("turn")}: ${seatName(v.turn_player)}</span></div>`;
  return head + side(v.players[1 - bottom], v) + center(v) + side(v.players[bottom], v);
}
function logAt(i) {
  const o = D.log_overrides[viewer][String(i)];
  if (o) return o;
  return D.logs[viewer].slice(0, D.log_lengths[viewer][i]);
}
function show() {
  const v = dec(D.views[viewer][step]);
  $("board").innerHTML = board(v);
  const log = logAt(step), before = step > 0 ? logAt(step - 1).length : 0;
  $("log").innerHTML = log.map(([k, s], i) =>
    `<li class="k-${esc(k)}${i >= before ? " new" : ""}">${esc(s)}</li>`).join("");
  const last = $("log").lastElementChild;
  if (last) last.scrollIntoView({block: "nearest"});
  const st = step > 0 ? D.steps[step - 1] : null;
  $("action").textContent =
    st ? `${t("step")} ${step}: ${seatName(st.actor)} → ${st.action[viewer]}` : t("start");
  $("seek").value = step;
  $("stepno").textContent = `${step} / ${N - 1}`;
}
function go(i) { step = Math.max(0, Math.min(N - 1, i)); show(); if (step >= N - 1) pause(); }
function pause() { if (timer) clearInterval(timer); timer = null; $("play").textContent = "▶"; }
function play() {
  if (timer) return pause();
  if (step >= N - 1) step = 0;
  $("play").textContent = "❚❚";
  timer = setInterval(() => go(step + 1), Number($("speed").value));
}
document.querySelectorAll("[data-l]").forEach(e => { e.textContent = t(e.dataset.l); });
$("viewer").options[2].textContent = t("all");
$("seek").max = N - 1;
$("first").onclick = () => go(0);
$("prev").onclick = () => go(step - 1);
$("next").onclick = () => go(step + 1);
$("last").onclick = () => go(N - 1);
$("play").onclick = play;
$("seek").oninput = e => go(Number(e.target.value));
$("speed").onchange = () => { if (timer) { pause(); play(); } };
$("viewer").onchange = e => { viewer = e.target.value; show(); };
document.addEventListener("keydown", e => {
  if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
  if (e.key === "ArrowRight") go(step + 1);
  else if (e.key === "ArrowLeft") go(step - 1);
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(N - 1);
  else if (e.key === " ") { e.preventDefault(); play(); }
});
const o = D.outcome;
const result = o ? (o.winner === null ? t("none") : `${t("winner")}: ${seatName(o.winner)}`) +
  ` (${o.reason})` : "…";
$("summary").textContent = `${D.ruleset} · seed ${D.seed} · ${N - 1} ${t("step")} · ${result}`;
$("foot").textContent = `engine ${D.version} · cards ${String(D.data_hash).slice(0, 12)}`;
show();
"""

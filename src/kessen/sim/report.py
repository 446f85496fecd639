"""The tournament report: one HTML page with matplotlib plots (inline PNG) and a JSON file.

The HTML shows how games ended by side (the first player's wins, the second player's, draws,
with Wilson 95% intervals, and the median / p90 length in turns), the matchups (win rates with
Wilson 95% intervals, first-player edge, game lengths), each entrant's overall score, the
ruleset's own per-game facts (:mod:`kessen.sim.facts`; TWGP: attacks, vitals lost, the first
turn...), per-card statistics where the ruleset has them (Kōbō: games in which a card was
drawn, set, activated, placed or deployed, and the win rate then) and every game, linked to its
replay: to an HTML replay file when one was written next to the report, else named by its id
in the match store (``kessen store html ID``).
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from kessen.engine.contract import Json
from kessen.sim.facts import profile
from kessen.sim.stats import CARD_EVENTS
from kessen.sim.tournament import TournamentResult

_DONE: Final = {
    "draw": "drawn",
    "set": "set",
    "activate": "activated",
    "place": "placed",
    "deploy": "deployed",
}
MIN_CARD_GAMES: Final = 10
"""Cards seen in fewer seat-games than this are left out of the card plot."""


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _rate_cell(rate: Mapping[str, Any]) -> str:
    if not rate.get("n"):
        return "—"
    lo, hi = rate["ci95"]
    return f"{_pct(rate['rate'])} <small>[{_pct(lo)}, {_pct(hi)}] n={rate['n']}</small>"


def _figure_png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode()


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_matrix(labels: Sequence[str], matchups: Sequence[Json]) -> str:
    """Heat map of game win rates, row entrant against column entrant (PNG, base64)."""
    plt = _pyplot()
    import numpy as np

    size = len(labels)
    grid = np.full((size, size), np.nan)
    for m in matchups:
        rate = m["games"]
        if rate["n"]:
            grid[m["a"], m["b"]] = rate["rate"]
            grid[m["b"], m["a"]] = 1 - rate["rate"] if m["a"] != m["b"] else rate["rate"]
    fig, ax = plt.subplots(figsize=(1.2 + 0.75 * size, 1.0 + 0.6 * size))
    image = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(size), labels, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(size), labels, fontsize=8)
    for i in range(size):
        for j in range(size):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=7)
    ax.set_title("game win rate (row vs column)")
    fig.colorbar(image, ax=ax, fraction=0.046)
    return _figure_png(fig)


def plot_matchups(labels: Sequence[str], matchups: Sequence[Json], key: str, title: str) -> str:
    """Per matchup, ``key``'s rate with its Wilson 95% interval (PNG, base64)."""
    plt = _pyplot()
    names = [f"{labels[m['a']]} – {labels[m['b']]}" for m in matchups]
    rates = [m[key]["rate"] for m in matchups]
    low = [m[key]["rate"] - m[key]["ci95"][0] for m in matchups]
    high = [m[key]["ci95"][1] - m[key]["rate"] for m in matchups]
    fig, ax = plt.subplots(figsize=(7, 0.8 + 0.28 * len(names)))
    ax.errorbar(rates, range(len(names)), xerr=[low, high], fmt="o", capsize=3)
    ax.axvline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_yticks(range(len(names)), names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_title(title)
    return _figure_png(fig)


def plot_lengths(labels: Sequence[str], summaries: Sequence[Json]) -> str:
    """Histogram of game lengths in turns, and steps per match (PNG, base64)."""
    plt = _pyplot()
    turns = [
        g["turns"] for s in summaries for g in s.get("games", []) if g.get("turns") is not None
    ]
    steps = [s.get("steps", 0) for s in summaries]
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.2))
    axes[0].hist(turns, bins=min(30, max(5, len(set(turns)))), color="#4c72b0")
    axes[0].set_title("game length (turns)")
    axes[1].hist(steps, bins=30, color="#dd8452")
    axes[1].set_title("match length (decisions)")
    return _figure_png(fig)


def plot_cards(cards: Mapping[str, Json], kind: str) -> str | None:
    """Win rate when a card was ``kind`` (drawn, activated...), with intervals (PNG, base64)."""
    rows = [(slug, c[kind]) for slug, c in cards.items() if c[kind]["n"] >= MIN_CARD_GAMES]
    if not rows:
        return None
    rows.sort(key=lambda r: r[1]["rate"])
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 0.8 + 0.25 * len(rows)))
    rates = [r[1]["rate"] for r in rows]
    low = [r[1]["rate"] - r[1]["ci95"][0] for r in rows]
    high = [r[1]["ci95"][1] - r[1]["rate"] for r in rows]
    ax.errorbar(rates, range(len(rows)), xerr=[low, high], fmt="o", capsize=2)
    ax.axvline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_yticks(range(len(rows)), [f"{s} (n={r['n']})" for s, r in rows], fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_title(f"win rate of the seat when the card was {_DONE.get(kind, kind)}")
    return _figure_png(fig)


def _share_cell(share: Mapping[str, Any]) -> str:
    if not share.get("n"):
        return "—"
    lo, hi = share["ci95"]
    return f"{_pct(share['rate'])} <small>[{_pct(lo)}, {_pct(hi)}] {share['count']}</small>"


def sides_table(sides: Mapping[str, Any]) -> str:
    """The first player's wins, the second player's, draws and the length in turns (HTML)."""
    turns = sides.get("turns") or {}
    length = (
        f"{turns['median']:g} / {turns['p90']:g} <small>(mean {turns['mean']:g}, "
        f"{turns['min']:g}–{turns['max']:g})</small>"
        if turns.get("n")
        else "—"
    )
    return (
        "<table><tr><th>games</th><th>first player wins</th><th>second player wins</th>"
        "<th>draws</th><th>turns: median / p90</th></tr>"
        f"<tr><td>{sides.get('n', 0)}</td><td>{_share_cell(sides.get('first', {}))}</td>"
        f"<td>{_share_cell(sides.get('second', {}))}</td>"
        f"<td>{_share_cell(sides.get('draws', {}))}</td><td>{length}</td></tr></table>"
    )


def facts_table(facts: Mapping[str, Any], help_texts: Mapping[str, str]) -> str:
    """The ruleset's per-game facts: mean per game, share of games, maximum (HTML)."""
    rows = [
        "<table><tr><th>fact</th><th>what it counts</th><th>per game (mean)</th>"
        "<th>games with any</th><th>max</th></tr>"
    ]
    for name, row in facts.items():
        rows.append(
            f"<tr><td><code>{html.escape(name)}</code></td>"
            f"<td>{html.escape(help_texts.get(name, ''))}</td><td>{row['mean']:.3f}</td>"
            f"<td>{_pct(row['games'])}</td><td>{row['max']:g}</td></tr>"
        )
    rows.append("</table>")
    return "".join(rows)


def _img(data: str | None, alt: str) -> str:
    if data is None:
        return f"<p><i>{html.escape(alt)}: not enough games</i></p>"
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _replay_link(match_id: Any, replays: Mapping[int, str]) -> str:
    if match_id is None:
        return "—"
    href = replays.get(int(match_id))
    if href:
        return f'<a href="{html.escape(href)}">#{match_id}</a>'
    return f'<span title="kessen store html {match_id}">#{match_id}</span>'


_CSS: Final = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 16px 24px; color: #222; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #f3f0e8; } small { color: #777; }
img { max-width: 100%; margin: 6px 0; }
details { margin: 8px 0; } code { background: #f3f3f3; padding: 0 3px; }
"""


def render_html(result: TournamentResult, replays: Mapping[int, str] | None = None) -> str:
    """The report page (self-contained: plots are inline PNGs)."""
    replays = replays or {}
    data = result.to_json()
    stats = data["stats"]
    labels: list[str] = data["entrants"]
    spec = data["spec"]
    sim_profile = profile(str(spec["ruleset"]))
    esc = html.escape
    options = spec.get("options") or {}
    setup = f"best of {spec['best_of']}" if spec.get("decks") else "single games"
    if options:
        setup += " · options " + ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items())
    parts: list[str] = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        f"<title>Kessen tournament {esc(result.name)}</title><style>{_CSS}</style></head><body>",
        f"<h1>Tournament {esc(result.name)}</h1>",
        "<p>"
        + esc(
            f"{spec['ruleset']} · entrants {', '.join(str(d) for d in labels)} · "
            f"{spec['games']} matches per matchup · {setup} · seed "
            f"{spec['seed']} · {stats['games']} matches · backend {data['backend']} · "
            f"{data['seconds']} s"
            + ("" if data["complete"] else " · INCOMPLETE (resume to finish)")
        )
        + "</p>",
        "<p>Win rates are mean scores (a win 1, a complete tie ½); the brackets give the "
        "Wilson 95% interval and n the number of games.</p>",
        f"<p>First player's game score over the whole tournament: "
        f"{_rate_cell(stats['first_player'])}</p>",
        "<h2>Sides and draws</h2><p>Every game by who won it: the first player, the second "
        "player, or nobody (a draw); each share with its Wilson 95% interval and count. Game "
        "length in turns as the ruleset counts them (TWGP: the turn number at the end, both "
        "players' turns counted; p90 interpolated).</p>",
        sides_table(stats.get("sides") or {}),
        "<h2>Matchups</h2><table><tr><th>A</th><th>B</th><th>A's game win rate</th>"
        "<th>A's match win rate</th><th>first player's rate</th><th>turns (median, p10–p90)"
        "</th><th>endings</th></tr>",
    ]
    for m in stats["matchups"]:
        turns = m["turns"]
        length = (
            f"{turns['median']:g} ({turns['p10']:g}–{turns['p90']:g})" if turns.get("n") else "—"
        )
        endings = ", ".join(f"{k} {v}" for k, v in m["reasons"].items())
        parts.append(
            f"<tr><td>{esc(labels[m['a']])}</td><td>{esc(labels[m['b']])}</td>"
            f"<td>{_rate_cell(m['games'])}</td><td>{_rate_cell(m['matches'])}</td>"
            f"<td>{_rate_cell(m['first_player'])}</td><td>{length}</td>"
            f"<td>{esc(endings)}</td></tr>"
        )
    parts.append("</table>")
    parts.append(_img(plot_matrix(labels, stats["matchups"]), "win-rate matrix"))
    parts.append(
        _img(
            plot_matchups(labels, stats["matchups"], "games", "A's game win rate (95% Wilson)"),
            "matchups",
        )
    )
    parts.append(
        _img(
            plot_matchups(labels, stats["matchups"], "first_player", "first player's win rate"),
            "first player",
        )
    )
    parts.append(
        "<h2>Entrants</h2><table><tr><th>entrant</th><th>game score vs the others</th></tr>"
    )
    for label, rate in zip(labels, stats["entrants"], strict=True):
        parts.append(f"<tr><td>{esc(label)}</td><td>{_rate_cell(rate)}</td></tr>")
    parts.append("</table><h2>Game lengths</h2>")
    parts.append(_img(plot_lengths(labels, data["games"]), "lengths"))
    facts = stats.get("facts") or {}
    if facts:
        parts.append(f"<h2>Per-game facts ({esc(str(spec['ruleset']))})</h2>")
        parts.append(facts_table(facts, sim_profile.facts_help))
    if sim_profile.cards:
        parts.append("<h2>Cards</h2>")
        for kind in ("activate", "place", "draw"):
            parts.append(_img(plot_cards(stats["cards"], kind), f"cards {kind}"))
        parts.append(
            "<table><tr><th>card</th>"
            + "".join(f"<th>{_DONE.get(k, k)}</th>" for k in CARD_EVENTS)
            + "</tr>"
        )
        for slug, row in stats["cards"].items():
            cells = "".join(f"<td>{_rate_cell(row[k])}</td>" for k in CARD_EVENTS)
            parts.append(f"<tr><td>{esc(slug)}</td>{cells}</tr>")
        parts.append("</table>")
    else:
        parts.append(
            f"<p><i>No per-card statistics: the cards of {esc(str(spec['ruleset']))} carry no "
            "text and every seat has the same ones.</i></p>"
        )
    parts.append(
        f"<h2>Games</h2><details open><summary>{len(data['games'])} matches</summary>"
        "<table><tr><th>#</th><th>seat 0</th><th>seat 1</th><th>seed</th><th>winner</th>"
        "<th>games (winner/reason/turns)</th><th>steps</th><th>replay</th></tr>"
    )
    for s in data["games"]:
        seat_labels = (
            (labels[s["a"]], labels[s["b"]])
            if s["seat_a"] == 0
            else (labels[s["b"]], labels[s["a"]])
        )
        winner = "—" if s["winner"] is None else f"P{s['winner'] + 1}"
        games = "; ".join(
            f"{'tie' if g['winner'] in (None, -1) else 'P' + str(g['winner'] + 1)}/"
            f"{g['reason']}/{g['turns']}"
            for g in s["games"]
        )
        parts.append(
            f"<tr><td>{s['index']}</td><td>{esc(seat_labels[0])}</td>"
            f"<td>{esc(seat_labels[1])}</td><td>{s['seed']}</td><td>{winner}</td>"
            f"<td>{esc(games)}</td><td>{s['steps']}</td>"
            f"<td>{_replay_link(s.get('match_id'), replays)}</td></tr>"
        )
    parts.append("</table></details></body></html>")
    return "\n".join(parts)


def write(
    result: TournamentResult, directory: str | Path, replays: Mapping[int, str] | None = None
) -> tuple[Path, Path]:
    """Write ``report.html`` and ``report.json`` into ``directory``; return both paths."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    json_path = out / "report.json"
    json_path.write_text(
        json.dumps(result.to_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    html_path = out / "report.html"
    html_path.write_text(render_html(result, replays), encoding="utf-8")
    return html_path, json_path

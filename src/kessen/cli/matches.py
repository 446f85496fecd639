"""The ``play`` and ``watch`` commands: Kōbō in the browser, or COM against COM in the terminal.

``watch`` takes its decks and players from options and prints each turn's board
(:func:`render_board`) as the bottom seat sees it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Group
from rich.table import Table
from rich.text import Text

from kessen.cli.common import RULESET, Lang, UserError, fail, load_deck_file, stdout
from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json, RulesError
from kessen.engine.players import Player, play_out
from kessen.engine.registry import PlayerFactory
from kessen.games.kobo.decks import deck_to_json, starter_decks
from kessen.server.app import DEFAULT_PACE
from kessen.server.run import DEFAULT_PORT, PortInUseError, Unguarded, serve
from kessen.server.security import normalize_origin
from kessen.store.db import SchemaError
from kessen.store.records import MatchStore, StoreError


def _known_players() -> dict[str, PlayerFactory]:
    """The COM players selectable on the command line: the ruleset's, by name."""
    return dict(registry.get(RULESET).players)


# --------------------------------------------------------------------------------------------
# Decks and players from options
# --------------------------------------------------------------------------------------------


def _deck_arg(value: str) -> str | Json:
    """A starter deck name as is, or a deck file loaded into a deck object."""
    starters = starter_decks()
    if value in starters:
        return value
    path = Path(value)
    if path.suffix == ".toml" or path.exists():
        return deck_to_json(load_deck_file(path))
    known = ", ".join(starters)
    raise UserError(f"unknown deck {value!r}; starter decks: {known} (or a .toml file)")


def _players(spec: str) -> list[str]:
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if len(names) == 1:
        names *= 2
    if len(names) != 2:
        raise UserError(f"--players takes two names separated by a comma, got {spec!r}")
    known = _known_players()
    for name in names:
        if name not in known:
            raise UserError(f"unknown player {name!r}; known: {', '.join(known)}")
    return names


def _config(deck0: str | None, deck1: str | None, best_of: int) -> Json:
    default = registry.get(RULESET).default_config
    decks = [
        _deck_arg(d) if d is not None else default["decks"][i] for i, d in enumerate((deck0, deck1))
    ]
    return {"decks": decks, "best_of": best_of}


def _new_game(config: Json, seed: int) -> GameState:
    try:
        return registry.get(RULESET).new_game(config, seed)
    except RulesError as err:
        raise UserError(str(err)) from None


def _make_players(names: Sequence[str], seed: int) -> dict[int, Player]:
    known = _known_players()
    return {seat: known[name](seed * 2 + seat) for seat, name in enumerate(names)}


def _describe(entry: Json, lang: str, viewer: int | None) -> str:
    """A Kōbō log entry as text (``watch``)."""
    return registry.get(RULESET).describe(entry, lang, viewer)


# --------------------------------------------------------------------------------------------
# Rendering a view
# --------------------------------------------------------------------------------------------

_LABELS = {
    "ja": {
        "main": "メイン",
        "hand": "手札",
        "tdeck": "戦術デッキ",
        "thand": "戦術手札",
        "retreat": "撤退",
        "excluded": "除外",
        "passes": "パス",
        "battle": "バトル",
        "strategy": "作戦",
        "down": "［伏せ］",
        "base": "元",
        "turn": "ターン",
        "game": "ゲーム",
        "wins": "勝利数",
    },
    "en": {
        "main": "main",
        "hand": "hand",
        "tdeck": "tactics deck",
        "thand": "tactics hand",
        "retreat": "retreat",
        "excluded": "excluded",
        "passes": "passes",
        "battle": "Battle",
        "strategy": "Strategy",
        "down": "[face down]",
        "base": "base",
        "turn": "Turn",
        "game": "Game",
        "wins": "wins",
    },
}


def _seat_name(seat: int, names: Sequence[str] | None = None) -> str:
    label = f"P{seat + 1}"
    return f"{label} ({names[seat]})" if names else label


def _char_cell(char: Json | None, lang: str) -> Text:
    if char is None:
        return Text("·", style="dim")
    words = _LABELS[lang]
    text = Text(str(char["name"]), style="bold")
    lv, base = char["lv"], char["base"]
    text.append(f"\nLv{lv}" if lang == "ja" else f"\nLv {lv}")
    if base != lv:
        text.append(f" ({words['base']}{base})" if lang == "ja" else f" (base {base})")
    if char.get("attacking"):
        text.append(" ⚔", style="red")
    if char.get("target"):
        text.append(" ◎", style="yellow")
    return text


def _strategy_cell(card: Json | None, lang: str) -> Text:
    if card is None:
        return Text("·", style="dim")
    if card.get("face") == "down":
        text = Text(_LABELS[lang]["down"], style="cyan")
        if "name" in card:
            text.append(f"\n{card['name']}", style="dim")
        return text
    return Text(str(card.get("name", "?")), style="bold magenta")


def _side_summary(player: Json, lang: str, names: Sequence[str] | None) -> Text:
    words = _LABELS[lang]
    seat = int(player["seat"])
    deck_name = player["deck"].get("name") or player["deck"].get("slug", "")
    text = Text(f"{_seat_name(seat, names)}  {deck_name}  ", style="bold")
    counts = [
        (words["main"], player["main_deck"]),
        (words["hand"], player["hand"]["count"]),
        (words["tdeck"], player["tactics_deck"]),
        (words["thand"], player["tactics_hand"]["count"]),
        (words["retreat"], len(player["retreat"])),
        (words["excluded"], len(player["excluded"])),
        (words["passes"], player["passes"]),
    ]
    text.append(" | ".join(f"{k} {v}" for k, v in counts), style="")
    return text


def render_board(view: Json, lang: str = "ja", names: Sequence[str] | None = None) -> Group:
    """The board of ``view``: the other side on top, the viewer's side (or P1) below."""
    words = _LABELS[lang]
    bottom = view["viewer"] if isinstance(view.get("viewer"), int) else 0
    top = 1 - bottom
    players = view["players"]
    table = Table(show_header=True, header_style="dim", expand=False, show_lines=True)
    table.add_column("")
    for slot in range(1, 6):
        table.add_column(str(slot), justify="center", min_width=10)
    table.add_row(
        Text(f"{_seat_name(top)} {words['strategy']}", style="dim"),
        *(_strategy_cell(c, lang) for c in players[top]["strategy"]),
    )
    table.add_row(
        Text(f"{_seat_name(top)} {words['battle']}", style="dim"),
        *(_char_cell(c, lang) for c in players[top]["battle"]),
    )
    table.add_row(
        Text(f"{_seat_name(bottom)} {words['battle']}", style="dim"),
        *(_char_cell(c, lang) for c in players[bottom]["battle"]),
    )
    table.add_row(
        Text(f"{_seat_name(bottom)} {words['strategy']}", style="dim"),
        *(_strategy_cell(c, lang) for c in players[bottom]["strategy"]),
    )
    match = view["match"]
    head = Text(
        f"{words['game']} {match['game']}  {words['turn']} {view['turn']}  "
        f"{words['wins']} {match['wins'][0]}-{match['wins'][1]}",
        style="bold blue",
    )
    return Group(
        head,
        _side_summary(players[top], lang, names),
        table,
        _side_summary(players[bottom], lang, names),
    )


# --------------------------------------------------------------------------------------------
# Matches
# --------------------------------------------------------------------------------------------


def play(
    port: Annotated[
        int | None,
        typer.Option(
            min=0,
            max=65535,
            show_default=str(DEFAULT_PORT),
            help=f"Port on 127.0.0.1. Given, it is required (refused if another program holds "
            f"it); by default {DEFAULT_PORT}, or a free one (said so) if another program holds it.",
        ),
    ] = None,
    pace: Annotated[float, typer.Option(min=0.0, help="Seconds per COM action.")] = DEFAULT_PACE,
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Do not open a browser window.")
    ] = False,
    database: Annotated[
        Path | None,
        typer.Option("--db", help="The match store (default: $KESSEN_DB or the user data dir)."),
    ] = None,
    no_store: Annotated[
        bool, typer.Option("--no-store", help="Record nothing (no match history, no resume).")
    ] = False,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-origin",
            help="Another origin (scheme://host:port) whose pages may open game connections "
            "and send requests; repeatable. The server's own origins are always allowed.",
        ),
    ] = None,
    host: Annotated[
        str,
        typer.Option(
            help="The address to listen on: 0.0.0.0 (or this machine's address) serves other "
            "machines of the network, for 友達と対戦; the address to share is printed.",
        ),
    ] = "127.0.0.1",
) -> None:
    """Play Kōbō in the browser: start the game server on 127.0.0.1 and open the page.

    Every match is recorded in the match store; unfinished matches against COM resume when
    the server is started again. Pages of other sites can neither open a game connection nor
    reach the API (Origin and Host allow-lists), unless an origin is added with
    ``--allow-origin``.
    """
    origins = list(allow_origin or [])
    for origin in origins:
        try:
            normalize_origin(origin)
        except ValueError as err:
            fail(f"--allow-origin: {err}")
    store = None
    if not no_store:
        # One server per store (its lock), every page readable, writable: else refuse now.
        try:
            store = MatchStore(database, verify=True, exclusive=True)
        except (SchemaError, StoreError, OSError) as err:
            fail(f"cannot open the match store: {err}")
    try:
        serve(
            port=port,
            pace=pace,
            open_browser=not no_browser,
            host=host,
            store=store,
            allow_origins=origins,
        )
    except PortInUseError as err:
        fail(str(err.strerror))
    except Unguarded as err:
        fail(str(err))
    except OSError as err:
        fail(f"cannot start the server on port {port or DEFAULT_PORT}: {err}")
    finally:
        if store is not None:
            store.close()


def watch(
    deck0: Annotated[
        str | None, typer.Option("--deck0", help="Seat P1's deck: a starter name or a .toml file.")
    ] = None,
    deck1: Annotated[
        str | None, typer.Option("--deck1", help="Seat P2's deck: a starter name or a .toml file.")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the match.")] = 0,
    pace: Annotated[
        float, typer.Option(min=0.0, help="Seconds to wait after each COM action.")
    ] = 0.0,
    lang: Annotated[Lang, typer.Option(help="Language of cards and log.")] = Lang.ja,
    players: Annotated[
        str, typer.Option(help="The two COM players, e.g. heuristic,random.")
    ] = "heuristic,heuristic",
    best_of: Annotated[int, typer.Option("--best-of", help="Games in the match (odd).")] = 3,
) -> None:
    """Watch one COM-vs-COM match in the terminal, as P1 (the bottom seat) sees it."""
    try:
        names = _players(players)
        config = _config(deck0, deck1, best_of)
        state = _new_game(config, seed)
    except UserError as err:
        fail(str(err), err.code)
    out = stdout()
    code = lang.value
    seen = 0
    out.rule(f"Kōbō — {names[0]} vs {names[1]} — seed {seed}")

    def flush() -> None:
        nonlocal seen
        view = state.view(0, code)
        log = view["log"]
        for entry in log[seen:]:
            if entry.get("kind") == "turn":
                out.print(render_board(view, code, names))
            style = "bold" if entry.get("kind") in ("game_end", "match_end", "turn") else ""
            out.print(Text(_describe(entry, code, None), style=style))
        seen = len(log)

    def step(_state: GameState, _seat: int, _action: Action) -> None:
        flush()
        if pace > 0:
            time.sleep(pace)

    flush()
    play_out(state, _make_players(names, seed), on_step=step)
    outcome = state.outcome
    final = state.view(0, code)
    out.rule()
    wins = final["match"]["wins"]
    if outcome is None or outcome.winner is None:
        out.print(Text(f"Match over: no winner ({wins[0]}-{wins[1]})", style="bold"))
    else:
        winner = outcome.winner
        out.print(
            Text(
                f"Winner: {_seat_name(winner, names)} — {wins[0]}-{wins[1]}",
                style="bold green",
            )
        )

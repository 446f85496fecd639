"""The ``kessen`` command line: watch and simulate matches, browse cards and decks, replays.

``watch``, ``cards`` and ``decks`` are Kōbō's; ``replay``, ``sim`` and ``store`` take records of
any registered ruleset (Kōbō and TWGP トランプ版), each described with its own log texts. Every
command works from the engine contract only (``new_game``, ``legal_actions``, ``apply``,
``view``); a match shown on the terminal is always a seat's view, never the true state. User
errors (an unknown deck, a malformed file) end with a one-line message and a non-zero exit code.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json, RulesError
from kessen.engine.players import Player, play_out
from kessen.engine.registry import PlayerFactory
from kessen.engine.replay import Replay, ReplayDivergence
from kessen.games.kobo.cards import CardKind
from kessen.games.kobo.decks import (
    Deck,
    deck_to_json,
    load_deck,
    starter_decks,
    validate_deck,
)
from kessen.games.kobo.schema import CardDataError, load_pool
from kessen.games.kobo.text import card_text, kind_label
from kessen.games.twgp.commands import twgp_app
from kessen.server.app import DEFAULT_PACE
from kessen.server.run import DEFAULT_PORT, PortInUseError, serve
from kessen.server.security import normalize_origin
from kessen.sim.commands import mount as mount_sim_and_store
from kessen.store.db import SchemaError
from kessen.store.exchange import replay_record
from kessen.store.html_replay import shown_action
from kessen.store.records import MatchStore, StoreError

RULESET = "kobo"
"""The ruleset of ``watch``, ``cards`` and ``decks`` (``replay`` reads a record's own)."""
EXIT_INVALID = 1
EXIT_USAGE = 2

app = typer.Typer(
    name="kessen",
    help="Kessen (決戦): play, simulate and inspect Kōbō (攻防) and TWGP card battles.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
decks_app = typer.Typer(help="Starter decks and deck files.", no_args_is_help=True)
app.add_typer(decks_app, name="decks")
app.add_typer(twgp_app, name="twgp")


class Lang(StrEnum):
    """Display language."""

    ja = "ja"
    en = "en"


class Kind(StrEnum):
    """Card kind filter."""

    character = "character"
    deploy = "deploy"
    trap = "trap"
    tactic = "tactic"


def _known_players() -> dict[str, PlayerFactory]:
    """The COM players selectable on the command line: the ruleset's, by name."""
    return dict(registry.get(RULESET).players)


class UserError(Exception):
    """A mistake in the command's input: shown as one line, never as a traceback."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


def _fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    Console(stderr=True, soft_wrap=True).print(Text(f"error: {message}", style="bold red"))
    raise typer.Exit(code)


def _out() -> Console:
    """A console on the current standard output (looked up per command, for test runners)."""
    return Console(highlight=False, soft_wrap=True)


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
        return deck_to_json(_load_deck_file(path))
    known = ", ".join(starters)
    raise UserError(f"unknown deck {value!r}; starter decks: {known} (or a .toml file)")


def _load_deck_file(path: Path) -> Deck:
    if not path.is_file():
        raise UserError(f"{path}: no such deck file")
    try:
        return load_deck(path, load_pool())
    except CardDataError as err:
        raise UserError(str(err)) from None
    except (OSError, UnicodeDecodeError) as err:
        raise UserError(f"{path}: cannot read the file: {err}") from None
    except RecursionError:
        raise UserError(f"{path}: nested too deeply to be a deck file") from None


def _deck_label(deck: str | Json) -> str:
    if isinstance(deck, str):
        return deck
    return str(deck.get("slug", "?"))


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


@app.command()
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
            _fail(f"--allow-origin: {err}")
    store = None
    if not no_store:
        # One server per store (its lock), every page readable, writable: else refuse now.
        try:
            store = MatchStore(database, verify=True, exclusive=True)
        except (SchemaError, StoreError, OSError) as err:
            _fail(f"cannot open the match store: {err}")
    try:
        serve(port=port, pace=pace, open_browser=not no_browser, store=store, allow_origins=origins)
    except PortInUseError as err:
        _fail(str(err.strerror))
    except OSError as err:
        _fail(f"cannot start the server on port {port or DEFAULT_PORT}: {err}")
    finally:
        if store is not None:
            store.close()


@app.command()
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
        _fail(str(err), err.code)
    out = _out()
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


@app.command()
def cards(
    lang: Annotated[Lang, typer.Option(help="Language of names and text.")] = Lang.ja,
    kind: Annotated[Kind | None, typer.Option(help="Show only this kind of card.")] = None,
) -> None:
    """List the card pool with each card's generated text."""
    code = lang.value
    table = Table(show_lines=True)
    table.add_column("slug", no_wrap=True)
    for column in ("name", "kind", "Lv", "text"):
        table.add_column(column)
    for card in load_pool():
        if kind is not None and card.kind.value != kind.value:
            continue
        table.add_row(
            card.slug,
            card.name(code),
            kind_label(card.kind, code),
            str(card.lv) if card.is_character else "",
            card_text(card, code),
        )
    _out().print(table)


@decks_app.command("list")
def decks_list(
    lang: Annotated[Lang, typer.Option(help="Language of names and styles.")] = Lang.ja,
) -> None:
    """List the starter decks."""
    pool = load_pool()
    table = Table(show_lines=True)
    table.add_column("slug", no_wrap=True)
    for column in ("name", "style", "main", "characters", "tactics"):
        table.add_column(column)
    for slug, deck in starter_decks().items():
        main = deck.main_slugs()
        chars = sum(1 for s in main if s in pool and pool.get(s).is_character)
        table.add_row(
            slug,
            deck.name(lang.value),
            deck.style(lang.value),
            str(len(main)),
            str(chars),
            str(len(deck.tactics_slugs())),
        )
    _out().print(table)


@decks_app.command("show")
def decks_show(
    name: Annotated[str, typer.Argument(help="A starter deck name or a deck .toml file.")],
    lang: Annotated[Lang, typer.Option(help="Language of names and text.")] = Lang.ja,
) -> None:
    """Show one deck card by card."""
    code = lang.value
    starters = starter_decks()
    try:
        if name in starters:
            deck = starters[name]
        elif Path(name).suffix == ".toml" or Path(name).exists():
            deck = _load_deck_file(Path(name))
        else:
            raise UserError(f"unknown deck {name!r}; starter decks: {', '.join(starters)}")
    except UserError as err:
        _fail(str(err), err.code)
    pool = load_pool()
    out = _out()
    out.print(Text(f"{deck.name(code)} ({deck.slug})", style="bold"))
    out.print(deck.style(code))
    for title, entries in (("main", deck.main), ("tactics", deck.tactics)):
        table = Table(title=f"{title}: {sum(n for _, n in entries)}", show_lines=True)
        for column in ("×", "name", "kind", "Lv", "text"):
            table.add_column(column)
        for slug, count in entries:
            if slug not in pool:
                table.add_row(str(count), slug, "?", "", "")
                continue
            card = pool.get(slug)
            table.add_row(
                str(count),
                card.name(code),
                kind_label(card.kind, code),
                str(card.lv) if card.kind is CardKind.CHARACTER else "",
                card_text(card, code),
            )
        out.print(table)


@decks_app.command("validate")
def decks_validate(
    file: Annotated[Path, typer.Argument(help="A deck .toml file.")],
) -> None:
    """Check a deck file against the deck rules; print every violation, or "valid"."""
    try:
        deck = _load_deck_file(file)
    except UserError as err:
        _fail(str(err), err.code)
    problems = validate_deck(deck, load_pool())
    out = _out()
    if problems:
        for problem in problems:
            out.print(f"{file}: {problem}")
        raise typer.Exit(EXIT_INVALID)
    out.print(f"{file}: valid")


# --------------------------------------------------------------------------------------------
# Replays
# --------------------------------------------------------------------------------------------


class Seat(StrEnum):
    """Whose view a replay is shown from."""

    p1 = "0"
    p2 = "1"
    all = "all"


def _load_replays(path: Path) -> list[Replay]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise UserError(f"{path}: cannot read the file: {err}") from None
    except json.JSONDecodeError as err:
        raise UserError(f"{path}:{err.lineno}:{err.colno}: not JSON: {err.msg}") from None
    except RecursionError:
        raise UserError(f"{path}: JSON nested too deeply to be a replay record") from None
    except ValueError as err:  # e.g. an integer with more digits than Python reads
        raise UserError(f"{path}: not a readable JSON file: {err}") from None
    items: list[Any]
    if isinstance(data, list):
        items = [d.get("replay") if isinstance(d, dict) else None for d in data]
        if not items or any(i is None for i in items):
            raise UserError(
                f"{path}: a results list without replay records (run `kessen sim --replays`)"
            )
    elif isinstance(data, dict) and isinstance(data.get("replay"), dict):
        items = [data["replay"]]
    else:
        items = [data]
    out: list[Replay] = []
    for i, item in enumerate(items):
        try:
            out.append(replay_record(item))
        except (KeyError, TypeError, ValueError, OverflowError) as err:
            raise UserError(f"{path}: replay {i}: not a replay record ({err})") from None
    return out


def _shown_action(action_text: str, actor: int, viewer: int | None, ruleset: str = RULESET) -> str:
    """The action as ``viewer`` may see it: another seat's secret choices are hidden (the
    ruleset's ``secret_action``)."""
    return shown_action(action_text, actor, viewer, ruleset)


_TWGP_WORDS: dict[str, dict[str, str]] = {
    "ja": {
        "turn": "ターン",
        "of": "のターン",
        "setup": "構築",
        "build": "ビルド・フェイズ",
        "battle": "バトル・フェイズ",
        "over": "終了",
        "quiet": "動きのないターン",
        "pile": "山札",
        "hand": "手札",
        "surge": "サージ",
        "storage": "ストレージ",
        "vitals": "ヴァイタル",
        "row_battle": "バトル",
        "row_charge": "チャージ",
        "pow": "パワー",
        "frames": "フレーム",
        "weapons": "ウェポン",
        "lost": "失効",
        "effect": "効果",
        "you": "あなた",
        "switches": "スイッチ",
        "defaults": "すべて既定",
        "active": "表タテ",
        "save": "表ヨコ",
        "stealth": "潜伏",
        "gb": "Gブラスト宣言",
    },
    "en": {
        "turn": "Turn",
        "of": "'s turn",
        "setup": "building",
        "build": "build phase",
        "battle": "battle phase",
        "over": "over",
        "quiet": "quiet turns",
        "pile": "pile",
        "hand": "hand",
        "surge": "surge",
        "storage": "storage",
        "vitals": "vitals",
        "row_battle": "battle",
        "row_charge": "charge",
        "pow": "pow",
        "frames": "frames",
        "weapons": "weapons",
        "lost": "lost",
        "effect": "effect",
        "you": "you",
        "switches": "switches",
        "defaults": "all defaults",
        "active": "active",
        "save": "save",
        "stealth": "stealth",
        "gb": "G-blast declared",
    },
}
_HIDDEN_CARD = "▮"
_EMPTY_SQUARE = "·"


def _label(card: Json | None) -> str:
    return str(card.get("label") or card.get("slug") or "?") if card else "?"


def _twgp_stack(stack: Json | None, words: dict[str, str]) -> str:
    if stack is None:
        return _EMPTY_SQUARE
    pose = words.get(str(stack.get("pose")), str(stack.get("pose")))
    if stack.get("unit") is None:
        return f"{_HIDDEN_CARD} ({pose})"
    text = f"{_label(stack['unit'])} {words['pow']} {stack.get('pow')} ({pose}"
    if stack.get("frames"):
        text += f", {words['frames']} {len(stack['frames'])}"
    if stack.get("weapons"):
        text += f", {words['weapons']} " + "".join(_label(w) for w in stack["weapons"])
    return text + ")"


def _twgp_vital(vital: Json) -> str:
    face = vital.get("face")
    if face == "empty":
        return _EMPTY_SQUARE
    if face == "down":
        return f"{_label(vital)}?" if "label" in vital else _HIDDEN_CARD
    return f"{_label(vital)}" + ("!" if vital.get("status") == "effect" else "×")


def _twgp_side(side: Json, viewer: int | None, words: dict[str, str]) -> list[str]:
    seat = int(side["seat"])
    name = f"P{seat + 1}" + (f" ({words['you']})" if viewer == seat else "")
    hand = side["hand"]
    shown_hand = " ".join(_label(c) for c in hand["cards"]) if hand.get("cards") is not None else ""
    counts = [
        f"{words['pile']} {side['pile']}",
        f"{words['hand']} {hand['count']}" + (f" [{shown_hand}]" if shown_hand else ""),
        f"{words['surge']} {len(side['surge'])}",
        f"{words['storage']} {len(side['storage'])}",
        f"{words['vitals']} " + " ".join(_twgp_vital(v) for v in side["vitals"]),
    ]
    battle = "  ".join(
        f"{i}:{_twgp_stack(stack, words)}" for i, stack in enumerate(side["battle"], start=1)
    )
    charge = "  ".join(
        f"{i}:" + (_EMPTY_SQUARE if c is None else (_label(c) if "label" in c else _HIDDEN_CARD))
        for i, c in enumerate(side["charge"], start=1)
    )
    return [
        f"{name}: " + " · ".join(counts),
        f"    {words['row_battle']}  {battle}",
        f"    {words['row_charge']}  {charge}",
    ]


def twgp_board(view: Json, lang: str = "ja") -> list[str]:
    """A plain-text summary of a TWGP view: the turn, then each side (the viewer's last) with
    its counts, vitals, battle squares and charge squares, as the viewer may see them.

    Hidden cards are ``▮``; a face-down vital the viewer knows is ``♠10?``, a lost vital
    ``♠10×`` and the vital effect ``♠10!``; empty squares ``·``.
    """
    words = _TWGP_WORDS["ja" if lang == "ja" else "en"]
    viewer = view.get("viewer") if isinstance(view.get("viewer"), int) else None
    bottom = viewer if viewer is not None else 0
    phase = words.get(str(view.get("phase")), str(view.get("phase")))
    head = f"{words['turn']} {view.get('turn')}"
    turn_player = view.get("turn_player")
    if isinstance(turn_player, int) and view.get("phase") != "setup":
        head += f" · P{turn_player + 1}{words['of']}"
    head += f" · {phase} · {words['quiet']} {view.get('quiet', 0)}"
    lines = [head]
    for seat in (1 - bottom, bottom):
        lines.extend(_twgp_side(view["players"][seat], viewer, words))
    return lines


def _twgp_switches(view: Json, lang: str) -> str:
    """The switches of a TWGP view that differ from their defaults."""
    words = _TWGP_WORDS["ja" if lang == "ja" else "en"]
    switches = registry.get("twgp").catalog(lang).get("switches", {})
    config = view.get("config", {})
    changed = [
        f"{key}={json.dumps(config[key])}"
        for key, switch in switches.items()
        if key in config and config[key] != switch.get("default")
    ]
    return f"{words['switches']}: " + (", ".join(changed) if changed else words["defaults"])


_BOARDS = {"twgp": twgp_board}
"""Per ruleset, the plain-text board ``kessen replay`` prints at each turn start and at the
end (Kōbō's replay prints the log only; its board is ``watch``'s)."""


def _actor_label(actor: int, viewer: int | None, lang: str) -> str:
    """The acting seat as the log names it: P1/P2, or you/the opponent for a seat's view."""
    if viewer is None:
        return f"P{actor + 1}"
    if lang == "ja":
        return "あなた" if actor == viewer else "相手"
    return "you" if actor == viewer else "opponent"


def _show_replay(replay: Replay, seat: Seat, lang: str, out: Console) -> None:
    viewer = None if seat is Seat.all else int(seat.value)
    rules = registry.get(replay.ruleset)
    board = _BOARDS.get(replay.ruleset)
    seen = 0
    last_view: Json = {}

    def lines(state: GameState) -> tuple[list[str], bool]:
        """The new log lines of ``state`` and whether a turn started among them."""
        nonlocal seen, last_view
        view = state.view_all(lang) if viewer is None else state.view(viewer, lang)
        last_view = view
        log = view["log"]
        if len(log) < seen:
            seen = 0
        entries = log[seen:]
        seen = len(log)
        turn = any(e.get("kind") == "turn" for e in entries)
        return [rules.describe(e, lang, viewer) for e in entries], turn

    def show_board() -> None:
        if board is not None:
            for line in board(last_view, lang):
                out.print(Text(f"      │ {line}", style="cyan"))

    previous: GameState | None = None
    step = 0
    try:
        for state in replay.states(verify=True):
            if previous is None:
                new, turn = lines(state)
                if replay.ruleset == "twgp":
                    out.print(Text(f"      {_twgp_switches(last_view, lang)}", style="dim"))
            else:
                pending = previous.pending
                actor = pending.seat if pending is not None else -1
                shown = _shown_action(replay.actions[step - 1], actor, viewer, replay.ruleset)
                name = _actor_label(actor, viewer, lang)
                out.print(Text(f"{step:>4}  {name}: {shown}", style="bold"))
                new, turn = lines(state)
            for line in new:
                out.print(Text(f"      {line}"))
            if turn:
                show_board()
            previous = state
            step += 1
    except ReplayDivergence as err:
        _fail(
            f"replay diverged at {err} (the rules or the cards changed since this match was "
            "recorded)",
            EXIT_INVALID,
        )
    except RulesError as err:
        raise UserError(f"the replay cannot start: {err}") from None
    except (KeyError, TypeError, ValueError, RecursionError) as err:
        # A config the rules cannot read (a hand-edited record): say so, with the step.
        where = "start" if previous is None else f"step {step}"
        raise UserError(f"the replay cannot go on at {where}: {err!r}", EXIT_INVALID) from None
    outcome = previous.outcome if previous is not None else None
    if board is not None and previous is not None:
        show_board()
    checked = (
        f"{len(replay.hashes)} recorded hashes verified"
        if replay.hashes
        else "no hashes recorded: not verified"
    )
    if outcome is not None:
        winner = "no winner" if outcome.winner is None else f"P{outcome.winner + 1}"
        why = outcome.reason
        if board is not None and last_view.get("turn") is not None:
            why += f", turn {last_view['turn']}"
        out.print(Text(f"result: {winner} ({why}); {checked}", style="green"))
    else:
        out.print(Text(f"the record ends before the match does; {checked}", style="yellow"))


@app.command()
def replay(
    file: Annotated[
        Path,
        typer.Argument(
            help="A replay JSON, a `kessen store export` file, or a list of replay records."
        ),
    ],
    seat: Annotated[
        Seat, typer.Option(help="Show the match as seat 0 or 1 sees it, or all of it.")
    ] = Seat.all,
    lang: Annotated[Lang, typer.Option(help="Language of the log.")] = Lang.ja,
    match: Annotated[
        int | None, typer.Option(help="Only this match of a results file (0-based).")
    ] = None,
) -> None:
    """Print a recorded match (Kōbō or TWGP) step by step, verifying its state hashes as it
    goes; with --seat, as that seat saw it (the other seat's hidden cards and secret choices
    stay hidden). A TWGP replay also prints a text board at each turn start and at the end."""
    out = _out()
    try:
        records = _load_replays(file)
        if match is not None:
            if not 0 <= match < len(records):
                raise UserError(f"--match {match}: the file holds {len(records)} match(es)")
            records = [records[match]]
        for index, record in enumerate(records):
            if len(records) > 1:
                out.rule(f"match {index} — seed {record.seed}")
            registry.get(record.ruleset)  # an unknown ruleset raises KeyError
            _show_replay(record, seat, lang.value, out)
    except UserError as err:
        _fail(str(err), err.code)
    except KeyError as err:
        _fail(str(err.args[0]) if err.args else str(err))


mount_sim_and_store(app)


@app.command(
    context_settings={
        "allow_extra_args": True,
        "ignore_unknown_options": True,
        "help_option_names": [],
    }
)
def tournament(ctx: typer.Context) -> None:
    """COM tournaments (levels, honesty, peer): win rates with Wilson 95% intervals.

    ``kessen tournament --suite levels --suite honesty --suite peer [--games N]``; ``--help``
    lists every option.
    """
    from kessen.ai.tournament import tournament_main

    raise typer.Exit(tournament_main(ctx.args))


def main() -> None:
    """Run the command line (``python -m kessen.cli``)."""
    app()


if __name__ == "__main__":
    main()

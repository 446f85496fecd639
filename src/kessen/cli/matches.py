"""The ``play`` and ``watch`` commands: every game in the browser, or COM against COM in the
terminal.

``watch`` takes its ruleset, decks and players from options and prints each turn's board as the
bottom seat sees it: Kōbō's (:func:`render_board`), or TWGP's and Project Maken's text boards
(:func:`kessen.cli.replay.text_board`).
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

from kessen.cli.common import (
    DEFAULT_RULESET,
    RULESET,
    TITLES,
    Lang,
    RulesetOption,
    UserError,
    fail,
    load_deck_file,
    stdout,
)
from kessen.cli.replay import text_board
from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json, RulesError
from kessen.engine.players import Player, play_out
from kessen.engine.registry import PlayerFactory
from kessen.games.kobo.decks import deck_to_json, starter_decks
from kessen.server.app import DEFAULT_PACE
from kessen.server.com_pool import ComPool
from kessen.server.leases import Sharing, default_owner
from kessen.server.limits import EVICT_AFTER
from kessen.server.renewal import GROWTH_MB
from kessen.server.run import DEFAULT_PORT, PortInUseError, Unguarded, serve
from kessen.server.security import normalize_origin
from kessen.store.backend import is_postgres
from kessen.store.backend import resolve as resolve_store
from kessen.store.db import SchemaError
from kessen.store.leases import LEASE_SECONDS, MAX_SECONDS, MIN_SECONDS
from kessen.store.records import MatchStore, StoreError


def _known_players(ruleset: str = RULESET) -> dict[str, PlayerFactory]:
    """The COM players selectable on the command line: the ruleset's, by name."""
    return dict(registry.get(ruleset).players)


# --------------------------------------------------------------------------------------------
# Decks and players from options
# --------------------------------------------------------------------------------------------


def _deck_arg(value: str, ruleset: str = RULESET) -> str | Json:
    """A starter deck name as is, or (Kōbō) a deck file loaded into a deck object."""
    if ruleset == "twgp":
        raise UserError(
            f"{TITLES['twgp']} has no deck to choose: each seat plays its own half of the pack "
            "(p1 ♠♣, p2 ♥♦; `kessen decks list --ruleset twgp`); leave out --deck0 and --deck1"
        )
    if ruleset != "kobo":
        catalog = registry.get(ruleset).catalog("en")
        names = {name.upper(): name for name in catalog.get("decks") or {}}
        if value.upper() in names:
            return str(names[value.upper()])
        shown = ", ".join(
            f"{name} ({catalog.get('characters', {}).get(name, name)})" for name in names.values()
        )
        raise UserError(f"unknown deck {value!r}; {TITLES[ruleset]}'s decks: {shown}")
    starters = starter_decks()
    if value in starters:
        return value
    path = Path(value)
    if path.suffix == ".toml" or path.exists():
        return deck_to_json(load_deck_file(path))
    known = ", ".join(starters)
    raise UserError(f"unknown deck {value!r}; starter decks: {known} (or a .toml file)")


def _players(spec: str, ruleset: str = RULESET) -> list[str]:
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if len(names) == 1:
        names *= 2
    if len(names) != 2:
        raise UserError(f"--players takes two names separated by a comma, got {spec!r}")
    known = _known_players(ruleset)
    for name in names:
        if name not in known:
            raise UserError(f"unknown player {name!r}; known: {', '.join(known)}")
    return names


def _config(
    deck0: str | None, deck1: str | None, best_of: int | None, ruleset: str = RULESET
) -> Json:
    """The config of a watched match: the ruleset's default, with the decks and the match
    length given (Kōbō plays best of three by default; TWGP and Maken play single games)."""
    config = dict(registry.get(ruleset).default_config)
    if deck0 is not None or deck1 is not None:
        decks = list(config.get("decks") or ())
        for seat, deck in enumerate((deck0, deck1)):
            if deck is not None:
                decks[seat] = _deck_arg(deck, ruleset)
        config["decks"] = decks
    if best_of is not None:
        if "best_of" not in config and ruleset != "maken":
            raise UserError(f"--best-of: {TITLES[ruleset]} plays single games")
        config["best_of"] = best_of
    elif ruleset == "kobo":
        config["best_of"] = 3
    return config


def _new_game(config: Json, seed: int, ruleset: str = RULESET) -> GameState:
    try:
        return registry.get(ruleset).new_game(config, seed)
    except RulesError as err:
        raise UserError(str(err)) from None


def _make_players(names: Sequence[str], seed: int, ruleset: str = RULESET) -> dict[int, Player]:
    known = _known_players(ruleset)
    return {seat: known[name](seed * 2 + seat) for seat, name in enumerate(names)}


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
        str | None,
        typer.Option(
            "--db",
            help="The match store: an SQLite file, or a PostgreSQL database as "
            "postgresql://USER@HOST[:PORT]/NAME (default: $KESSEN_DB or the user data dir).",
        ),
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
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="ADDRESS",
            help="COM's search levels think on a Ray cluster, making the same decisions as "
            "here: 'auto' joins this machine's cluster (ray start) or starts a local Ray; "
            "ray://HOST:10001 or HOST:6379 joins that cluster (its workers need Kessen). "
            "Quick levels still decide here; a failed task is made again here. A cluster "
            "that cannot be reached is refused at start.",
        ),
    ] = None,
    com_workers: Annotated[
        int | None,
        typer.Option(
            "--com-workers",
            min=1,
            help="COM search decisions at once (more wait their turn, people's first): "
            "default one per core, or with --ray the cluster's CPUs.",
        ),
    ] = None,
    owner_id: Annotated[
        str | None,
        typer.Option(
            "--owner-id",
            help="This server's name among the kessen play processes sharing one PostgreSQL "
            "store (default HOST:PID:RANDOM); each serves the matches it holds a lease on.",
        ),
    ] = None,
    lease_seconds: Annotated[
        float | None,
        typer.Option(
            "--lease-seconds",
            min=MIN_SECONDS,
            max=MAX_SECONDS,
            show_default=f"{LEASE_SECONDS:g}",
            help="With a PostgreSQL store: how long this server's hold on a match lasts unless "
            "renewed, so the longest its matches wait for another server if it dies.",
        ),
    ] = None,
    proxy: Annotated[
        str | None,
        typer.Option(
            "--proxy",
            metavar="ADDRESS",
            help="The address of the reverse proxy in front of this server (e.g. 127.0.0.1; "
            "deploy/nginx-kessen.conf): its X-Forwarded-For names each player, and the "
            "server answers as one serving the network (saved decks: this machine's only).",
        ),
    ] = None,
    renew_after: Annotated[
        float,
        typer.Option(
            "--renew-after",
            metavar="MB",
            min=0.0,
            help="Once every match has left memory and the server has grown by this many MB "
            "since it started, it renews its process in place (same port, same address; "
            "nothing is lost): CPython keeps most of what a load took. 0: never.",
        ),
    ] = GROWTH_MB,
    keep_finished: Annotated[
        float,
        typer.Option(
            "--keep-finished",
            metavar="SECONDS",
            min=0.0,
            help="How long a finished match stays in memory for its page (its record stays "
            "in the store).",
        ),
    ] = EVICT_AFTER,
) -> None:
    """Play Kōbō, TWGP or Project Maken in the browser: start the game server on 127.0.0.1 and
    open the page, whose start screen offers every game.

    Every match is recorded in the match store; unfinished matches against COM resume when
    the server is started again. Several servers may share one PostgreSQL store, behind a
    reverse proxy (deploy/nginx-kessen.conf): each serves the matches it holds a lease on, and
    the matches of one that stops or dies resume on another (docs/scaling.md). Ctrl+C stops
    the server (exit code 130). Pages of other sites can neither open a game connection nor
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
    shared = False
    if not no_store:
        # One server per SQLite file (its lock); several on PostgreSQL, each holding leases on
        # the matches it serves. Every page readable, writable: else refuse now.
        try:
            shared = is_postgres(resolve_store(database))
            store = MatchStore(database, verify=True, exclusive=not shared)
        except (SchemaError, StoreError, OSError) as err:
            fail(f"cannot open the match store: {err}")
    sharing = _sharing(shared, owner_id, lease_seconds, store)
    com = _com_pool(ray, com_workers, store)
    renewal = None
    try:
        renewal = serve(
            port=port,
            pace=pace,
            open_browser=not no_browser,
            host=host,
            store=store,
            allow_origins=origins,
            com_pool=com,
            sharing=sharing,
            proxy=proxy,
            # On a Ray cluster a renewal would join it again: such a server does not renew.
            renew_after_mb=renew_after if ray is None else None,
            keep_finished=keep_finished,
        )
    except PortInUseError as err:
        fail(str(err.strerror))
    except Unguarded as err:
        fail(str(err))
    except OSError as err:
        fail(f"cannot start the server on port {port or DEFAULT_PORT}: {err}")
    finally:
        if com is not None:
            com.close()
        if store is not None:
            store.close()
    if renewal is not None:  # every match has left memory, the store is closed: start afresh
        renewal.execute()


def _sharing(
    shared: bool, owner: str | None, seconds: float | None, store: MatchStore | None
) -> Sharing | None:
    """The leases of ``kessen play`` on a PostgreSQL store (``None`` on an SQLite file, where
    --owner-id and --lease-seconds are refused: one server per file)."""
    if not shared or store is None:
        if owner is not None or seconds is not None:
            if store is not None:
                store.close()
            fail(
                "--owner-id and --lease-seconds are for servers sharing a PostgreSQL store "
                "(--db postgresql://...); an SQLite file has one server"
            )
        return None
    if owner is not None and not 1 <= len(owner) <= 200:
        store.close()
        fail("--owner-id: 1 to 200 characters")
    return Sharing(owner or default_owner(), LEASE_SECONDS if seconds is None else seconds)


def _com_pool(ray: str | None, workers: int | None, store: MatchStore | None) -> ComPool | None:
    """The COM pool of ``kessen play --ray/--com-workers`` (``None``: the server's default); a
    Ray cluster that cannot be used fails the command with its reason."""
    if ray is None:
        return None if workers is None else ComPool(workers=workers, processes=True)
    from kessen.server.com_ray import RayCom
    from kessen.sim.backends import BackendError

    try:
        cluster = RayCom.connect(ray)
    except BackendError as err:
        if store is not None:
            store.close()
        fail(str(err))
    pool = ComPool(workers=workers or 0, processes=True, cluster=cluster)
    print(
        f"COM's search levels think on Ray at {cluster.where} ({cluster.width} CPUs); this "
        f"server sends it at most {pool.workers} at once",
        flush=True,
    )
    return pool


def watch(
    deck0: Annotated[
        str | None,
        typer.Option(
            "--deck0",
            help="Seat P1's deck: Kōbō: a starter name or a .toml file; Project Maken: a "
            "character (SO, RI, MI, GA); TWGP has none.",
        ),
    ] = None,
    deck1: Annotated[
        str | None, typer.Option("--deck1", help="Seat P2's deck, as --deck0.")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the match.")] = 0,
    pace: Annotated[
        float, typer.Option(min=0.0, help="Seconds to wait after each COM action.")
    ] = 0.0,
    lang: Annotated[Lang, typer.Option(help="Language of cards and log.")] = Lang.ja,
    players: Annotated[
        str, typer.Option(help="The two COM players, e.g. heuristic,random.")
    ] = "heuristic,heuristic",
    best_of: Annotated[
        int | None,
        typer.Option(
            "--best-of",
            help="Games in the match (odd; Kōbō: 3 by default; TWGP and Project Maken play "
            "single games).",
        ),
    ] = None,
    ruleset: RulesetOption = DEFAULT_RULESET,
) -> None:
    """Watch one COM-vs-COM match of Kōbō, TWGP or Project Maken (--ruleset) in the terminal,
    as P1 (the bottom seat) sees it: the log, the board at each turn, then the result."""
    rules_name = ruleset.value
    try:
        names = _players(players, rules_name)
        config = _config(deck0, deck1, best_of, rules_name)
        state = _new_game(config, seed, rules_name)
    except UserError as err:
        fail(str(err), err.code)
    rules = registry.get(rules_name)
    board = text_board(rules_name)
    out = stdout()
    code = lang.value
    seen = 0
    out.rule(f"{TITLES[rules_name]} — {names[0]} vs {names[1]} — seed {seed}")

    def show_board(view: Json) -> None:
        if board is None:
            out.print(render_board(view, code, names))
        else:
            for line in board(view, code):
                out.print(Text(f"  │ {line}", style="cyan"))

    def flush() -> None:
        nonlocal seen
        view = state.view(0, code)
        log = view["log"]
        for entry in log[seen:]:
            if entry.get("kind") == "turn":
                show_board(view)
            style = "bold" if entry.get("kind") in ("game_end", "match_end", "turn") else ""
            out.print(Text(rules.describe(entry, code, None), style=style))
        seen = len(log)

    def step(_state: GameState, _seat: int, _action: Action) -> None:
        flush()
        if pace > 0:
            time.sleep(pace)

    flush()
    play_out(state, _make_players(names, seed, rules_name), on_step=step)
    outcome = state.outcome
    final = state.view(0, code)
    out.rule()
    if board is not None:
        show_board(final)
    match = final.get("match")
    score = f" — {match['wins'][0]}-{match['wins'][1]}" if isinstance(match, dict) else ""
    if outcome is None or outcome.winner is None:
        why = f" ({outcome.reason})" if outcome is not None else ""
        out.print(Text(f"Match over: no winner{why}{score}", style="bold"))
    else:
        winner = outcome.winner
        why = "" if score else f" ({outcome.reason})"
        out.print(Text(f"Winner: {_seat_name(winner, names)}{why}{score}", style="bold green"))

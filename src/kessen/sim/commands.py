"""The ``kessen sim`` and ``kessen store`` commands (typer), to be mounted on the main app.

Mount them with :func:`mount` (replacing any older ``sim`` command)::

    from kessen.sim.commands import mount
    mount(app)            # adds `kessen sim ...` and `kessen store ...`

or by hand: ``app.command("sim")(sim_command)`` and ``app.add_typer(store_app, name="store")``.

User errors end with a one-line message and exit code 2 (1 for a record that no longer
replays); an interrupted simulation says how to resume it (exit code 130).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from kessen.engine.contract import Json, RulesError
from kessen.engine.replay import ReplayDivergence
from kessen.store import backend, db, exchange, html_replay
from kessen.store.records import NO_RESULT, MatchStore, NewMatch, StoreError

EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
P = ParamSpec("P")
R = TypeVar("R")

store_app = typer.Typer(
    help="The match store, with the matches of every game (Kōbō, TWGP トランプ版, Project "
    "Maken), in an SQLite file or a PostgreSQL database: list, show, export, import, HTML "
    "replays, integrity checks, copy from one database to another.",
    no_args_is_help=True,
)

DB_HELP = (
    "The store: an SQLite file, or a PostgreSQL database as postgresql://USER@HOST[:PORT]/NAME "
    f"(default: ${db.ENV_VAR} or a file in the user data directory)."
)
DbOption = Annotated[str | None, typer.Option("--db", help=DB_HELP)]


def _fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    Console(stderr=True, soft_wrap=True).print(Text(f"error: {message}", style="bold red"))
    raise typer.Exit(code)


def _out() -> Console:
    return Console(highlight=False, soft_wrap=True)


def _open(path: str | None) -> MatchStore:
    try:
        return MatchStore(path)
    except (db.SchemaError, OSError, ValueError) as err:
        _fail(str(err))
    except Exception as err:  # sqlite3.DatabaseError: not a database, locked...
        _fail(f"cannot open the match store: {err}")


def _store_faults(command: Callable[P, R]) -> Callable[P, R]:
    """Run a command; a store that fails under it (damaged, read-only, not a store) ends it
    with the store's one-line message, never a traceback."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except (StoreError, db.SchemaError) as err:
            _fail(str(err))

    return run


def _check_ruleset(name: str) -> None:
    """End the command with a one-line error when ``name`` is no ruleset of the project,
    naming those there are."""
    import pkgutil

    import kessen.games
    from kessen.engine import registry

    known = sorted(m.name for m in pkgutil.iter_modules(kessen.games.__path__) if m.ispkg)
    if name in known:
        try:
            registry.get(name)
            return
        except KeyError:
            pass
    _fail(f"--ruleset: unknown ruleset {name!r}; known: {', '.join(known)}")


def _when(text: str | None, option: str) -> float | None:
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError:
        _fail(f"{option}: expected a date like 2025-01-31 or 2025-01-31T18:00, got {text!r}")


# --------------------------------------------------------------------------------------------
# kessen store ...
# --------------------------------------------------------------------------------------------


@store_app.command("path")
@_store_faults
def store_path(database: DbOption = None) -> None:
    """Print where the store is: its file, or its PostgreSQL URL without the password (one
    store keeps the matches of Kōbō, TWGP and Project Maken)."""
    _out().print(backend.describe(database), markup=False)


@store_app.command("list")
@_store_faults
def store_list(
    database: DbOption = None,
    deck: Annotated[str | None, typer.Option(help="Either seat's deck.")] = None,
    result: Annotated[
        str | None, typer.Option(help="Winner seat 0 or 1, or 'none' (no winner).")
    ] = None,
    since: Annotated[str | None, typer.Option(help="Created on or after (ISO date).")] = None,
    until: Annotated[str | None, typer.Option(help="Created before (ISO date).")] = None,
    ruleset: Annotated[
        str | None, typer.Option(help="Only this game's matches: kobo, twgp or maken.")
    ] = None,
    finished: Annotated[
        bool | None, typer.Option("--finished/--unfinished", help="Only finished/unfinished.")
    ] = None,
    source: Annotated[str | None, typer.Option(help="play, sim, server, import, branch...")] = None,
    player: Annotated[str | None, typer.Option(help="A seat's player name.")] = None,
    limit: Annotated[int, typer.Option(help="At most this many (newest first).")] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines instead of a table.")] = False,
) -> None:
    """List stored matches of every game (Kōbō, TWGP, Project Maken; --ruleset: one of them),
    newest first."""
    parsed: int | str | None = None
    if ruleset is not None:
        _check_ruleset(ruleset)
    if result is not None:
        if result not in ("0", "1", NO_RESULT):
            _fail(f"--result: expected 0, 1 or none, got {result!r}")
        parsed = NO_RESULT if result == NO_RESULT else int(result)
    with _open(database) as store:
        rows = store.list_matches(
            deck=deck,
            result=parsed,
            since=_when(since, "--since"),
            until=_when(until, "--until"),
            ruleset=ruleset,
            finished=finished,
            source=source,
            player=player,
            limit=limit,
        )
    out = _out()
    if as_json:
        for row in rows:
            out.print(json.dumps(row.to_json(), ensure_ascii=False), markup=False)
        return
    table = Table("id", "created", "source", "decks", "players", "steps", "result")
    for row in rows:
        info = row.to_json()
        outcome = (
            "…"
            if not row.is_finished
            else ("no winner" if row.winner is None else f"P{row.winner + 1}") + f" ({row.reason})"
        )
        table.add_row(
            str(row.id),
            info["created"],
            row.source,
            _deck_cell(row.decks, row.ruleset),
            ", ".join(f"{k}:{v}" for k, v in row.players.items()),
            str(row.steps),
            outcome,
        )
    out.print(table)


@store_app.command("show")
@_store_faults
def store_show(
    match_id: Annotated[int, typer.Argument(help="Match id.")],
    database: DbOption = None,
) -> None:
    """Show one match's record (without its actions) as JSON: a match of any game (Kōbō,
    TWGP or Project Maken)."""
    with _open(database) as store:
        try:
            record = store.get(match_id)
        except StoreError as err:
            _fail(str(err))
    data: Json = {
        **record.info.to_json(),
        "config": record.config,
        "results": record.results,
        "meta": record.meta,
        "hashes": {str(k): v for k, v in record.replay().hashes.items()},
    }
    _out().print(json.dumps(data, ensure_ascii=False, indent=1), markup=False)


@store_app.command("export")
@_store_faults
def store_export(
    match_id: Annotated[int, typer.Argument(help="Match id.")],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="File (default match-ID.json; - : stdout)."),
    ] = None,
    database: DbOption = None,
) -> None:
    """Export one match of any game (Kōbō, TWGP or Project Maken) as one JSON file."""
    with _open(database) as store:
        try:
            document = exchange.export_match(store, match_id)
        except StoreError as err:
            _fail(str(err))
    text = exchange.dumps(document)
    if output is not None and str(output) == "-":
        sys.stdout.write(text)
        return
    target = output or Path(f"match-{match_id}.json")
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as err:
        _fail(f"{target}: cannot write: {err}")
    _out().print(f"wrote {target}")


@store_app.command("import")
@_store_faults
def store_import(
    files: Annotated[list[Path], typer.Argument(help="Match JSON files (from store export).")],
    database: DbOption = None,
    no_verify: Annotated[
        bool,
        typer.Option(
            "--no-verify",
            help="Import without replaying the record to verify its hashes (a record you "
            "trust that was recorded under other rules or cards).",
        ),
    ] = False,
) -> None:
    """Import exported matches of any game (Kōbō, TWGP or Project Maken); prints each new id.

    Each record is replayed first and every state hash it carries verified: a tampered record
    is refused (exit 1, naming the first step that differs) unless --no-verify. Every file is
    checked before any is imported: one bad file imports none.
    """
    out = _out()
    checked: list[tuple[Path, NewMatch, str]] = []
    for path in files:
        try:
            new = exchange.from_json(exchange.load(path))
            if no_verify:
                note = "not verified (--no-verify)"
            else:
                count = exchange.verify(new)
                note = f"{count} hashes verified" if count else "no hashes recorded: not verified"
        except FileNotFoundError:
            _fail(f"{path}: no such file")
        except exchange.ImportDivergence as err:
            _fail(f"{path}: {err}", EXIT_INVALID)
        except (exchange.ExchangeError, OSError, UnicodeDecodeError) as err:
            message = str(err)
            _fail(message if message.startswith(str(path)) else f"{path}: {message}")
        checked.append((path, new, note))
    with _open(database) as store:
        for path, new, note in checked:
            new_id = store.add_match(new)
            out.print(f"{path}: imported as match {new_id} ({note})")


@store_app.command("html")
@_store_faults
def store_html(
    match_id: Annotated[int, typer.Argument(help="Match id.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="File (default match-ID.html).")
    ] = None,
    lang: Annotated[str, typer.Option(help="The language it opens in: ja or en.")] = "ja",
    seat: Annotated[
        list[str] | None,
        typer.Option(
            help="A view to include: 0, 1 or all (repeatable). Default: the views anyone may "
            "see (every seat and all once the match is over); an unfinished match needs it."
        ),
    ] = None,
    database: DbOption = None,
) -> None:
    """Write a self-contained HTML replay of one match of any game (Kōbō, TWGP or Project
    Maken): the app's replay viewer, opening from disk without a server or a network."""
    if lang not in ("ja", "en"):
        _fail(f"--lang: expected ja or en, got {lang!r}")
    with _open(database) as store:
        try:
            page = html_replay.render(store, match_id, lang, seats=seat or None)
        except StoreError as err:
            _fail(str(err))
        except html_replay.ExportError as err:
            _fail(str(err))
        except ReplayDivergence as err:
            _fail(
                f"match {match_id} no longer replays ({err}); see `kessen store check {match_id}`",
                EXIT_INVALID,
            )
    target = output or Path(f"match-{match_id}.html")
    try:
        target.write_text(page, encoding="utf-8")
    except OSError as err:
        _fail(f"{target}: cannot write: {err}")
    _out().print(f"wrote {target}")


@store_app.command("check")
@_store_faults
def store_check(
    match_ids: Annotated[list[int], typer.Argument(help="Match ids.")],
    database: DbOption = None,
) -> None:
    """Replay matches of any game (Kōbō, TWGP or Project Maken) under the current rules and
    cards; report where one diverges and the cards involved (exit 1 if any does)."""
    out = _out()
    bad = 0
    with _open(database) as store:
        for match_id in match_ids:
            try:
                divergence = store.check(match_id)
            except StoreError as err:
                _fail(str(err))
            if divergence is None:
                out.print(f"match {match_id}: replays exactly")
            else:
                bad += 1
                out.print(Text(f"match {match_id}: " + divergence.describe(), style="red"))
    if bad:
        raise typer.Exit(EXIT_INVALID)


@store_app.command("branch")
@_store_faults
def store_branch(
    match_id: Annotated[int, typer.Argument(help="Match id.")],
    step: Annotated[int, typer.Argument(help="Continue after this many actions.")],
    database: DbOption = None,
) -> None:
    """Start a new unfinished match from a step of another ("continue from here"), in any
    game (Kōbō, TWGP or Project Maken)."""
    with _open(database) as store:
        try:
            new_id = store.branch(match_id, step)
        except (StoreError, RulesError) as err:
            _fail(str(err))
    _out().print(f"match {new_id} continues match {match_id} after step {step}")


@store_app.command("runs")
@_store_faults
def store_runs(database: DbOption = None) -> None:
    """List simulation runs of every game (Kōbō, TWGP, Project Maken); resume one with
    `kessen sim --run NAME` and the same settings."""
    table = Table("id", "name", "games done", "created", "finished")
    with _open(database) as store:
        for run in store.sim_runs():
            spec = run["spec"]
            total = spec.get("games", 0)
            table.add_row(
                str(run["id"]),
                run["name"],
                f"{run['games']} ({total} per matchup)",
                datetime.fromtimestamp(run["created"]).isoformat(timespec="seconds"),
                "—"
                if run["finished"] is None
                else datetime.fromtimestamp(run["finished"]).isoformat(timespec="seconds"),
            )
    _out().print(table)


@store_app.command("copy")
@_store_faults
def store_copy(
    source: Annotated[
        str, typer.Argument(metavar="SRC", help="The store to copy: a file or a URL.")
    ],
    target: Annotated[
        str,
        typer.Argument(metavar="DST", help="A new, empty store to copy into: a file or a URL."),
    ],
) -> None:
    """Copy a whole store (every match of Kōbō, TWGP and Project Maken, every simulation run
    and saved deck, with their ids) into an empty one: SQLite to PostgreSQL, PostgreSQL to
    SQLite, or file to file. Every record is verified before the copy is kept (each table's
    count and content, each match's content hash); one that differs keeps nothing (exit 1)."""
    from kessen.store.copy import CopyError, copy_store

    err_console = Console(stderr=True)
    with _open(source) as src, _open(target) as dst:
        progress = Progress(
            TextColumn("copying matches"), BarColumn(), MofNCompleteColumn(), console=err_console
        )
        task = progress.add_task("copy", total=None)
        try:
            with progress:
                report = copy_store(
                    src,
                    dst,
                    progress=lambda done, total: progress.update(task, completed=done, total=total),
                )
        except CopyError as err:
            _fail(str(err), EXIT_USAGE if err.verified else EXIT_INVALID)
    _out().print(report.describe(), markup=False)


# --------------------------------------------------------------------------------------------
# kessen sim
# --------------------------------------------------------------------------------------------


def _decks(spec: str, ruleset: str, card_set: str = "") -> list[str | Json]:
    names = [d.strip() for d in spec.split(",") if d.strip()]
    if not names:
        _fail("--decks: give at least one deck")
    if ruleset != "kobo":
        return list(names)
    from kessen.games.kobo.card_sets import set_data
    from kessen.games.kobo.decks import deck_to_json, load_deck, starter_decks
    from kessen.games.kobo.schema import CardDataError, load_pool

    designed = set_data(card_set) if card_set else None
    starters = designed.starters() if designed is not None else starter_decks()
    pool = designed.pool if designed is not None else load_pool()
    out: list[str | Json] = []
    for name in names:
        if name in starters:
            out.append(name)
            continue
        path = Path(name)
        if not path.is_file():
            _fail(f"unknown deck {name!r}; starter decks: {', '.join(starters)} (or a .toml file)")
        try:
            out.append(deck_to_json(load_deck(path, pool)))
        except (CardDataError, OSError, UnicodeDecodeError) as err:
            _fail(str(err))
        except RecursionError:
            _fail(f"{path}: nested too deeply to be a deck file")
    return out


def _default_decks(ruleset: str, refs: Sequence[str] = ("",)) -> str:
    """Every starter deck of ``ruleset`` (its catalogue's decks: Kōbō's four, Maken's four
    characters; those of its card sets ``refs``, the ones they all have), comma-separated."""
    from kessen.cli.sets import common_decks

    return common_decks(ruleset, list(refs))


def sim_command(
    decks: Annotated[
        str | None,
        typer.Option(
            help="Decks, comma-separated: Kōbō's starter names or .toml files, Project Maken's "
            "characters (SO, RI, MI, GA); default: every starter deck. TWGP has none."
        ),
    ] = None,
    players: Annotated[
        str, typer.Option(help="COM levels (registry player names), comma-separated.")
    ] = "random,heuristic",
    games: Annotated[int, typer.Option("--games", "-n", help="Matches per matchup.")] = 10,
    seed: Annotated[int, typer.Option(help="Tournament seed (each game's seed derives).")] = 0,
    best_of: Annotated[int, typer.Option("--best-of", help="Games per match (odd).")] = 1,
    mirror: Annotated[bool, typer.Option(help="Also play each entrant against itself.")] = False,
    turn_limit: Annotated[
        int | None,
        typer.Option(help="Turn limit of a game (Kōbō; TWGP: --option turnLimit=N)."),
    ] = None,
    ruleset: Annotated[str, typer.Option(help="Ruleset: kobo, twgp or maken.")] = "kobo",
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            help="A config key of every game, KEY=VALUE (repeatable; VALUE read as JSON), e.g. "
            "the TWGP switches: --option strictMatrix05=true --option gridWidth=3.",
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="Worker processes (default: all cores; 1: this process).")
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(help="Run on Ray: 'auto' starts a local Ray, an address joins a cluster."),
    ] = None,
    database: DbOption = None,
    no_store: Annotated[
        bool, typer.Option("--no-store", help="Keep no replays in the match store.")
    ] = False,
    journal: Annotated[
        Path | None,
        typer.Option(help="Journal results to this JSONL file (resumable) instead of the store."),
    ] = None,
    run_name: Annotated[
        str | None,
        typer.Option("--run", help="Run name in the store; the same name and settings resume."),
    ] = None,
    report: Annotated[
        Path | None, typer.Option(help="Directory for report.html and report.json.")
    ] = Path("sim-report"),
    html_replays: Annotated[
        int,
        typer.Option(
            "--html-replays",
            help="Write HTML replays of the first N games by the report (-1: all).",
        ),
    ] = 0,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
    card_set: Annotated[
        str | None,
        typer.Option(
            "--set",
            help="Play every game with this card set of the store (`kessen sets list`; Kōbō "
            "and Project Maken); default decks: its starter decks.",
        ),
    ] = None,
    compare: Annotated[
        str | None,
        typer.Option(
            help="A,B: play the same games (same seeds) with two card data, each a set's name "
            "or 'shipped', and print every figure side by side with the difference B − A and "
            "whether it is significant (paired by seed); compare.json in the report directory.",
        ),
    ] = None,
) -> None:
    """Round-robin tournament of COM players over decks × levels of Kōbō, TWGP or Project Maken
    (--ruleset kobo|twgp|maken), on all cores or on Ray.

    A ruleset without decks (twgp) plays its COM levels against each other (--mirror: also
    each against itself), with --option for its switches. Every game is kept in the match
    store (replayable) and journaled, so an interrupted run resumes where it stopped with the
    same --run name; a report (HTML with plots, and JSON) gives win rates with Wilson 95%
    intervals, first- and second-player wins and draws, game lengths in turns (median, p90),
    per-card statistics where the ruleset's cards warrant them and the ruleset's own per-game
    facts.
    """
    from kessen.sim import report as report_module
    from kessen.sim.backends import BackendError, make_backend
    from kessen.sim.tournament import (
        Journal,
        JsonlJournal,
        MemoryJournal,
        SimError,
        StoreJournal,
        TournamentSpec,
        parse_option,
        run,
        uses_decks,
    )

    err_console = Console(stderr=True)
    _check_ruleset(ruleset)
    sets_store: MatchStore | None = None
    refs = [""]
    if card_set is not None or compare is not None:
        from kessen.cli.sets import pin_sets

        if card_set is not None and compare is not None:
            _fail("--set and --compare: give one or the other")
        chosen_sets = [card_set] if card_set is not None else str(compare).split(",")
        if len(chosen_sets) != (1 if card_set is not None else 2):
            _fail("--compare: expected two card data, A,B (a set's name or 'shipped')")
        sets_store = _open(database)  # the sets live in the store
        refs = pin_sets(sets_store, ruleset, chosen_sets)
    try:
        with_decks = uses_decks(ruleset)
        if with_decks:
            default = _default_decks(ruleset, refs)
            chosen_decks = _decks(decks if decks is not None else default, ruleset, refs[0])
        elif decks is not None:
            raise SimError(f"ruleset {ruleset} has no decks: leave out --decks")
        else:
            chosen_decks = []
        options = dict(parse_option(o) for o in option or ())
        spec = TournamentSpec(
            decks=tuple(chosen_decks),
            players=tuple(p.strip() for p in players.split(",") if p.strip()),
            games=games,
            seed=seed,
            best_of=best_of,
            ruleset=ruleset,
            mirror=mirror,
            turn_limit=turn_limit,
            options=options,
            card_set=refs[0],
        )
        spec.validate()
        specs = [spec, *(dataclasses.replace(spec, card_set=r) for r in refs[1:])]
        for other in specs[1:]:
            other.validate()
    except (SimError, KeyError, RulesError) as err:
        _fail(str(err.args[0]) if err.args else str(err))
    store = None if no_store else sets_store or _open(database)
    name = run_name or datetime.now().strftime("sim-%Y%m%d-%H%M%S")
    if compare is not None:
        from kessen.cli.sets import run_comparison

        names = [n.strip() for n in str(compare).split(",")]
        run_comparison(specs, names, store, name, make_backend(ray, workers), report, quiet)
        if sets_store is not None:
            sets_store.close()
        return
    chosen: Journal
    try:
        if journal is not None:
            chosen = JsonlJournal(journal, spec, store)
        elif store is not None:
            chosen = StoreJournal(store, name, spec)
        else:
            chosen = MemoryJournal(name)
    except (SimError, StoreError) as err:
        _fail(str(err))
    try:
        backend = make_backend(ray, workers)
    except BackendError as err:
        _fail(str(err))
    total = len(spec.matchups) * spec.games
    already = len(chosen.done())
    if already:
        err_console.print(f"resuming run {chosen.name}: {already} of {total} games done")
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} games/s"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    progress = Progress(*columns, console=err_console, disable=quiet)
    task = progress.add_task(f"sim on {backend.name}", total=total, completed=already, rate="—")
    started = datetime.now()

    def advance(done: int, _total: int, _entry: Json) -> None:
        seconds = max(1e-9, (datetime.now() - started).total_seconds())
        rate = f"{(done - already) / seconds:.1f}"
        progress.update(task, completed=done, rate=rate)

    try:
        with progress:
            result = run(spec, chosen, backend, progress=advance)
    except KeyboardInterrupt:
        backend.close()
        chosen.close()
        done = len(chosen.done())
        hint = f"--journal {journal}" if journal is not None else f"--run {chosen.name}"
        err_console.print(
            f"interrupted: {done} of {total} games kept; run again with {hint} and the same "
            "settings to resume"
        )
        raise typer.Exit(EXIT_INTERRUPTED) from None
    finally:
        backend.close()
    chosen.close()
    out = _out()
    labels = [e.label for e in spec.entrants]
    table = Table("A", "B", "A's game win rate [95% CI]", "first player", "turns (median)")
    for m in result.stats["matchups"]:
        g = m["games"]
        f = m["first_player"]
        table.add_row(
            labels[m["a"]],
            labels[m["b"]],
            f"{g['rate']:.3f} [{g['ci95'][0]:.3f}, {g['ci95'][1]:.3f}] n={g['n']}",
            f"{f['rate']:.3f}",
            f"{m['turns'].get('median', '—')}",
        )
    out.print(table)
    out.print(sides_line(result.stats["sides"]))
    replays: dict[int, str] = {}
    if report is not None:
        if store is not None and html_replays:
            replays = _write_replays(store, result.summaries, report, html_replays)
        html_path, json_path = report_module.write(result, report, replays)
        out.print(f"report: {html_path} and {json_path}")
    if store is not None:
        out.print(f"run {chosen.name}: {total} games in {store.path}")
        store.close()
    if sets_store is not None and sets_store is not store:
        sets_store.close()


def sides_line(sides: Json) -> str:
    """One line: first- and second-player wins, draws, and the median / p90 length in turns.

    >>> sides_line({"n": 0, "turns": {"n": 0}})
    'no finished game with a known first player'
    """
    if not sides.get("n"):
        return "no finished game with a known first player"
    turns = sides["turns"]
    length = f"median {turns['median']:g}, p90 {turns['p90']:g}" if turns.get("n") else "—"
    parts = [
        f"{label} {100 * sides[key]['rate']:.1f}% [{100 * sides[key]['ci95'][0]:.1f}, "
        f"{100 * sides[key]['ci95'][1]:.1f}]"
        for key, label in (("first", "first player wins"), ("second", "second player wins"))
    ]
    draws = sides["draws"]
    return (
        f"{sides['n']} games: {', '.join(parts)}, draws {100 * draws['rate']:.2f}% "
        f"({draws['count']}); turns {length}"
    )


def _deck_cell(decks: Sequence[str | None], ruleset: str) -> str:
    """The decks of a listed match, or its ruleset when it has none (TWGP)."""
    if not any(d is not None for d in decks):
        return f"({ruleset})"
    return " vs ".join(str(d) for d in decks)


def _write_replays(
    store: MatchStore, summaries: list[Json], directory: Path, count: int
) -> dict[int, str]:
    folder = directory / "replays"
    folder.mkdir(parents=True, exist_ok=True)
    chosen = summaries if count < 0 else summaries[:count]
    out: dict[int, str] = {}
    for summary in chosen:
        match_id = summary.get("match_id")
        if match_id is None:
            continue
        # COM against COM: no person's hidden cards, every view (a game cut short too).
        page = html_replay.render(store, int(match_id), "ja", seats=html_replay.SEAT_KEYS)
        name = f"match-{match_id}.html"
        (folder / name).write_text(page, encoding="utf-8")
        out[int(match_id)] = f"replays/{name}"
    return out


def mount(app: typer.Typer, sim_name: str = "sim", store_name: str = "store") -> None:
    """Add the ``sim`` command and the ``store`` group to the main ``kessen`` app."""
    app.command(sim_name)(_store_faults(sim_command))
    app.add_typer(store_app, name=store_name)


def _standalone() -> typer.Typer:
    app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
    mount(app)
    return app


def main(argv: list[str] | None = None) -> Any:
    """Run ``sim``/``store`` without the main CLI (``python -m kessen.sim.commands``)."""
    return _standalone()(argv)


if __name__ == "__main__":
    main()

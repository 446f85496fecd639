"""``kessen sets``: designers' card sets of Kōbō and Project Maken, kept in the match store.

A set is a designer's own version of a game's card data (cards and starter decks), derived
from a shipped version or another set (:mod:`kessen.store.card_sets`). The way to edit one
from the command line: ``derive`` it, ``export`` it as TOML (the shape of the files the game
ships), edit the file, ``import`` it back over the set: a new revision, its changelog computed
from the data. ``kessen sim --set NAME`` plays a set, ``--compare A,B`` two of them on the same
games (:mod:`kessen.sim.compare`).
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from kessen.cli.common import Lang, UserError, fail, require, stdout
from kessen.engine.card_sets import SHIPPED, CardSetError, SetProblems, format_for
from kessen.engine.contract import Json
from kessen.engine.set_data import Change, diff
from kessen.store import db
from kessen.store.card_sets import CardSetInfo, CardSets, CardSetStoreError
from kessen.store.records import MatchStore, StoreError

if TYPE_CHECKING:
    from kessen.sim.tournament import TournamentSpec

SET_RULESETS = ("kobo", "maken")
"""The games whose card data a designer edits (TWGP's pool is a deck of playing cards)."""

sets_app = typer.Typer(
    help="Designers' card sets of Kōbō and Project Maken only (TWGP's pool is a deck of playing "
    "cards): their own versions of a game's cards "
    "and starter decks, kept in the match store with their parent and changelog. Derive one, "
    "export it as TOML, edit it, import it back (a new revision); play it with "
    "`kessen sim --set NAME`, compare two with `kessen sim --compare A,B`.",
    no_args_is_help=True,
)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="The store: an SQLite file or a postgresql:// URL "
        f"(default: ${db.ENV_VAR} or a file in the user data directory).",
    ),
]
LangOption = Annotated[Lang, typer.Option(help="The language of changes and problems.")]
SetsRuleset = Annotated[str, typer.Option(help="The game: kobo or maken.")]


def _open(database: str | None) -> MatchStore:
    try:
        return MatchStore(database)
    except (db.SchemaError, OSError, ValueError) as err:
        fail(str(err))
    except Exception as err:  # sqlite3.DatabaseError: not a database, locked...
        fail(f"cannot open the match store: {err}")


def _check_ruleset(ruleset: str, command: str = "sets") -> None:
    """End with the one-line refusal naming the games ``command`` serves, for another."""
    try:
        require(command, ruleset, "TWGP's pool is a deck of playing cards, not card data to edit")
    except UserError as err:
        fail(str(err), err.code)


def _problems(err: SetProblems, lang: str) -> None:
    """Every field problem, one per line, then exit 2."""
    out = stdout()
    count = len(err.problems)
    head = f"{count}件の問題があります：" if lang == "ja" else f"{count} problem(s):"
    out.print(Text(head, style="bold red"))
    for found in err.problems:
        out.print(f"  {found.text(lang)}", markup=False)
    raise typer.Exit(2)


def _changes(changes: list[Change], lang: str) -> None:
    out = stdout()
    if not changes:
        out.print("変更なし" if lang == "ja" else "no change", markup=False)
    for change in changes:
        out.print(f"  {change.text(lang)}", markup=False)


def _when(stamp: float) -> str:
    return datetime.fromtimestamp(stamp).isoformat(timespec="seconds")


@sets_app.command("list")
def sets_list(
    database: DbOption = None,
    ruleset: Annotated[str | None, typer.Option(help="Only this game's sets.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines instead of a table.")] = False,
) -> None:
    """List the card sets in the store (Kōbō and Project Maken only)."""
    if ruleset is not None:
        _check_ruleset(ruleset, "sets list")
    try:
        with _open(database) as store:
            found = store.card_sets().list_sets(ruleset)
    except StoreError as err:
        fail(str(err))
    out = stdout()
    if as_json:
        for info in found:
            out.print(json.dumps(info.to_json(), ensure_ascii=False), markup=False)
        return
    table = Table("name", "game", "derived from", "revisions", "updated", "ref")
    for info in found:
        table.add_row(
            info.name,
            info.ruleset,
            info.parent_label,
            str(info.revisions),
            _when(info.updated),
            info.ref.short + "…",
        )
    out.print(table)


@sets_app.command("show")
def sets_show(
    name: Annotated[str, typer.Argument(help="The set's name.")],
    database: DbOption = None,
    lang: LangOption = Lang.en,
    as_json: Annotated[bool, typer.Option("--json", help="JSON instead of text.")] = False,
) -> None:
    """Show a card set of Kōbō or Project Maken (only they have sets): its game, parent,
    current revision (the NAME@HASH a config names) and its changelog."""
    try:
        with _open(database) as store:
            info = store.card_sets().info(name, with_log=True)
            data = store.card_sets().data(name)
    except (CardSetStoreError, StoreError, CardSetError) as err:
        fail(str(err))
    out = stdout()
    if as_json:
        out.print(json.dumps(info.to_json(), ensure_ascii=False, indent=1), markup=False)
        return
    _describe(info, data, lang.value)


def _describe(info: CardSetInfo, data: dict[str, object], lang: str) -> None:
    out = stdout()
    cards = data.get("cards")
    decks = data.get("decks")
    lines = [
        f"card set {info.name} ({info.ruleset}), derived from {info.parent_label}",
        f"ref: {info.ref}",
        f"{len(cards) if isinstance(cards, list | dict) else 0} cards, "
        f"{len(decks) if isinstance(decks, list | dict) else 0} starter decks; "
        f"{info.revisions} revision(s), created {_when(info.created)}, "
        f"updated {_when(info.updated)}",
        "changelog:",
    ]
    out.print("\n".join(lines), markup=False)
    for entry in info.log:
        note = f" — {entry.note}" if entry.note else ""
        out.print(
            f" revision {entry.revision} ({_when(entry.created)}, {entry.hash[:12]}…){note}",
            markup=False,
        )
        _changes(entry.changes, lang)


@sets_app.command("derive")
def sets_derive(
    name: Annotated[str, typer.Argument(help="The new set's name.")],
    source: Annotated[
        str,
        typer.Option(
            "--from",
            help="What it starts from: a shipped version (kobo: v3, v2, v1; maken: shipped; "
            "'shipped' is the newest) or another set's name.",
        ),
    ] = SHIPPED,
    ruleset: SetsRuleset = "kobo",
    note: Annotated[str, typer.Option(help="A note for the changelog.")] = "",
    database: DbOption = None,
) -> None:
    """Make a new card set of Kōbō or Project Maken (only they have sets) from a shipped
    version or another set (the shipped data never changes: the set is a copy in the
    store)."""
    try:
        with _open(database) as store:
            sets = store.card_sets()
            if source != SHIPPED and not _shipped_label(source):
                ruleset = sets.info(source).ruleset
            _check_ruleset(ruleset, "sets derive")
            info = sets.derive(name, ruleset, source, note)
    except SetProblems as err:
        _problems(err, "en")
    except (CardSetStoreError, StoreError, CardSetError) as err:
        fail(str(err))
    stdout().print(f"card set {info.name} ({info.ruleset}) derived from {info.parent_label}")
    stdout().print(f"ref: {info.ref}", markup=False)


@sets_app.command("export")
def sets_export(
    name: Annotated[str, typer.Argument(help="The set's name.")],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="File (default NAME.toml; - : stdout)."),
    ] = None,
    database: DbOption = None,
) -> None:
    """Write a card set (Kōbō or Project Maken only) as TOML: the shape of the files the game
    ships (cards, then starter decks), ready to edit and import back."""
    try:
        with _open(database) as store:
            text = store.card_sets().export(name)
    except (CardSetStoreError, StoreError, CardSetError) as err:
        fail(str(err))
    if output is not None and str(output) == "-":
        sys.stdout.write(text)
        return
    target = output or Path(f"{name}.toml")
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as err:
        fail(f"{target}: cannot write: {err}")
    stdout().print(f"wrote {target}")


@sets_app.command("import")
def sets_import(
    file: Annotated[Path, typer.Argument(help="A set's TOML file (from `kessen sets export`).")],
    name: Annotated[
        str | None, typer.Option(help="The set to revise or create (default: the file's name).")
    ] = None,
    ruleset: Annotated[
        str | None, typer.Option(help="The game of a new set: kobo or maken.")
    ] = None,
    source: Annotated[
        str, typer.Option("--from", help="A new set's parent (a shipped version or a set).")
    ] = SHIPPED,
    note: Annotated[str, typer.Option(help="A note for the changelog.")] = "",
    lang: LangOption = Lang.en,
    database: DbOption = None,
) -> None:
    """Import a card set's TOML file (Kōbō or Project Maken only): the next revision of the
    set of that name (its changelog
    says what changed), or a new set. Every problem is named by its field; nothing is saved
    unless the whole file passes the game's checks."""
    target = name or file.stem
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        fail(f"{file}: no such file")
    except (OSError, UnicodeDecodeError) as err:
        fail(f"{file}: cannot read the file: {err}")
    if ruleset is not None:
        _check_ruleset(ruleset, "sets import")
    try:
        with _open(database) as store:
            sets = store.card_sets()
            info, changes, new = sets.import_toml(
                target, text, ruleset=ruleset, source=source, note=note
            )
    except SetProblems as err:
        _problems(err, lang.value)
    except (CardSetStoreError, StoreError, CardSetError) as err:
        fail(str(err))
    out = stdout()
    if new:
        out.print(f"new card set {info.name} ({info.ruleset}), derived from {info.parent_label}")
    elif changes:
        out.print(f"card set {info.name}: revision {info.revisions}")
    else:
        out.print(f"card set {info.name}: the file holds its current revision")
    _changes([c for c in changes if c.op != "derived"], lang.value)
    out.print(f"ref: {info.ref}", markup=False)


@sets_app.command("diff")
def sets_diff(
    first: Annotated[str, typer.Argument(help="A set's name or a shipped version (v3, shipped).")],
    second: Annotated[str, typer.Argument(help="Another set's name or a shipped version.")],
    ruleset: SetsRuleset = "kobo",
    lang: LangOption = Lang.en,
    database: DbOption = None,
) -> None:
    """What changes from the first card data to the second, field by field (card sets and
    shipped versions of Kōbō or Project Maken only)."""
    try:
        with _open(database) as store:
            sets = store.card_sets()
            game = _game_of(sets, (first, second), ruleset)
            a, _ = sets.source_data(game, first)
            b, _ = sets.source_data(game, second)
    except (CardSetStoreError, StoreError, CardSetError) as err:
        fail(str(err))
    fmt = format_for(game)
    _changes(diff(fmt.normalize(a), fmt.normalize(b), fmt.card_key), lang.value)


def _shipped_label(name: str) -> bool:
    """Whether ``name`` is a shipped version's label of some game (``v3``, ``shipped``)."""
    return any(name in format_for(game).parents() for game in SET_RULESETS)


def _game_of(sets: CardSets, names: tuple[str, ...], ruleset: str) -> str:
    """The game of the sets among ``names`` (``ruleset`` when they are shipped versions);
    :class:`CardSetStoreError` when two sets are of different games."""
    _check_ruleset(ruleset, "sets diff")
    games = set()
    for name in names:
        if name == SHIPPED or _shipped_label(name):
            continue
        games.add(sets.info(name).ruleset)
    if len(games) > 1:
        raise CardSetStoreError(f"the sets are of different games: {', '.join(sorted(games))}")
    game = games.pop() if games else ruleset
    _check_ruleset(game, "sets diff")
    return game


@sets_app.command("delete")
def sets_delete(
    name: Annotated[str, typer.Argument(help="The set's name.")],
    database: DbOption = None,
) -> None:
    """Delete a card set (Kōbō or Project Maken only) and its changelog (the data of a
    revision a stored match or another set names is kept, so every record still replays)."""
    try:
        with _open(database) as store:
            gone = store.card_sets().delete(name)
    except (CardSetStoreError, StoreError) as err:
        fail(str(err))
    stdout().print(f"deleted card set {name} ({gone} revision(s) of data no record names)")


# --------------------------------------------------------------------------------------------
# kessen sim --set / --compare
# --------------------------------------------------------------------------------------------


def pin_sets(store: MatchStore, ruleset: str, names: list[str]) -> list[str]:
    """Each of ``names`` as a config's ``card_set``: a set's current revision ``NAME@HASH``,
    or ``""`` for ``shipped`` (the game's shipped cards); one-line errors for the rest."""
    _check_ruleset(ruleset, "sim --set")
    out: list[str] = []
    for raw in names:
        name = raw.strip()
        if name == SHIPPED:
            out.append("")
            continue
        try:
            info = store.card_sets().info(name)
        except (CardSetStoreError, StoreError) as err:
            fail(f"--set/--compare: {err}")
        if info.ruleset != ruleset:
            fail(f"card set {name!r} is a {info.ruleset} set: add --ruleset {info.ruleset}")
        out.append(str(info.ref))
    return out


def common_decks(ruleset: str, refs: list[str]) -> str:
    """The starter decks every one of ``refs`` (card sets, ``""``: the shipped cards) has,
    comma-separated, in the first one's order (what ``--compare`` plays by default)."""
    from kessen.engine import registry

    lists = [
        list(registry.get(ruleset).catalog("en", {"card_set": ref} if ref else None)["decks"])
        for ref in refs
    ]
    return ",".join(d for d in lists[0] if all(d in other for other in lists[1:]))


def print_comparison(found: Json) -> None:
    """The A/B comparison of :func:`kessen.sim.compare.compare` as tables."""
    out = stdout()
    a, b = found["names"]
    out.print(
        f"A = {a}, B = {b}: {found['paired_games']} games paired by seed "
        f"(significant: p < {found['alpha']})",
        markup=False,
    )
    table = Table("", f"A: {a}", f"B: {b}", "B − A [95% CI]", "p", "")
    for title, key in (("matchups", "matchups"), ("entrants", "entrants")):
        for row in found[key]:
            label = " vs ".join(row["labels"]) if title == "matchups" else row["label"]
            table.add_row(*_cells(label, row))
    for label, key in (("first player wins", "first_player"), ("draws", "draws")):
        table.add_row(*_cells(label, found[key]))
    out.print(table)
    turns = found["turns"]
    test = turns["test"]
    out.print(
        f"turns per game: mean {turns['a']:g} vs {turns['b']:g} (B − A {turns['diff']:+g} "
        f"[{turns['diff_ci95'][0]:+g}, {turns['diff_ci95'][1]:+g}], p {test['p']:.3g}), "
        f"median {turns['median_a']} vs {turns['median_b']}",
        markup=False,
    )
    moved = [
        (slug, kind, entry)
        for slug, kinds in found["cards"].items()
        for kind, entry in kinds.items()
        if entry["test"]["significant"]
    ]
    if moved:
        out.print("cards whose win rate changed significantly (not paired: z test):")
        for slug, kind, entry in moved:
            out.print(
                f"  {slug} ({kind}): {entry['rate_a']['rate']:.3f} → {entry['rate_b']['rate']:.3f}"
                f" (p {entry['test']['p']:.3g})",
                markup=False,
            )


def _cells(label: str, row: Json) -> tuple[str, ...]:
    ra, rb, test = row["rate_a"], row["rate_b"], row["test"]
    lo, hi = row["diff_ci95"]

    def rate(r: Json) -> str:
        return f"{r['rate']:.3f} [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] n={r['n']}"

    return (
        label,
        rate(ra),
        rate(rb),
        f"{row['diff']:+.3f} [{lo:+.3f}, {hi:+.3f}]",
        f"{test['p']:.3g}",
        "significant" if test["significant"] else "",
    )


def run_comparison(
    specs: list[TournamentSpec],
    names: list[str],
    store: MatchStore | None,
    run_name: str,
    backend: Any,
    report: Path | None,
    quiet: bool,
) -> None:
    """``kessen sim --compare A,B``: play both specs (journaled in ``store`` as runs
    ``RUN-a`` and ``RUN-b``, resumable), print the comparison, write ``compare.json`` and each
    run's report (``a/``, ``b/``) into ``report``."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from kessen.sim import report as report_module
    from kessen.sim.compare import run_pair
    from kessen.sim.tournament import Journal, MemoryJournal, SimError, StoreJournal

    journals: list[Journal] = []
    try:
        for spec, suffix in zip(specs, ("a", "b"), strict=True):
            label = f"{run_name}-{suffix}"
            journals.append(StoreJournal(store, label, spec) if store else MemoryJournal(label))
    except (SimError, StoreError) as err:
        fail(str(err))
    progress = Progress(
        TextColumn(f"A/B {names[0]} vs {names[1]}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        disable=quiet,
    )
    task = progress.add_task("compare", total=None)
    try:
        with progress:
            result_a, result_b, found = run_pair(
                specs[0],
                specs[1],
                (journals[0], journals[1]),
                backend,
                names=(names[0], names[1]),
                progress=lambda done, total, _e: progress.update(task, completed=done, total=total),
            )
    except KeyboardInterrupt:
        fail(
            f"interrupted: run again with --run {run_name} and the same settings to resume",
            130,
        )
    finally:
        backend.close()
    for journal in journals:
        journal.close()
    print_comparison(found)
    if report is not None:
        report.mkdir(parents=True, exist_ok=True)
        for result, sub in ((result_a, "a"), (result_b, "b")):
            report_module.write(result, report / sub, {})
        target = report / "compare.json"
        document = {
            "names": names,
            "specs": [s.to_json() for s in specs],
            "runs": [j.name for j in journals],
            **found,
        }
        target.write_text(json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8")
        stdout().print(f"comparison: {target}; reports: {report / 'a'} and {report / 'b'}")

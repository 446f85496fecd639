"""Every command the README documents, run as a newcomer types it, and every ``--help``.

The commands are read from the README itself (its shell code blocks and the first column of
its commands table), so a command added there is run here without editing this file. Each form
runs with its defaults (``[...]`` parts left out, each ``a|b`` alternative in turn, placeholders
such as ``FILE`` or ``ID`` filled with real files and records), and once per other ruleset with
``--ruleset R`` wherever the command takes ``--ruleset``: a game it serves must work (exit 0, no
traceback), a game it does not serve must be refused with the rulesets it serves named (exit 2).
Only options the command documents that make it smaller are added (:data:`SIZE`), with a
temporary store (``--db``, ``KESSEN_DB``) in a temporary directory; ``play`` runs as a server on
a free port that must answer ``/``. Every ``--help`` of the ``kessen`` app (walked, not listed)
must name each game its command serves, and say "only" where it serves some of them.
"""

from __future__ import annotations

import functools
import itertools
import os
import pkgutil
import re
import shutil
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import kessen.games
from kessen.cli import app
from kessen.cli.catalogs import deck_names
from kessen.cli.common import RULESET, RULESETS, served
from kessen.engine import registry
from kessen.games.kobo.decks import DECKS_DIR
from kessen.store import MatchStore, Recorder, exchange

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
LAUNCHER = ROOT / "kessen"

SIZE: dict[str, list[str]] = {
    "sim": ["--games", "1", "--workers", "1"],
    "tournament --suite": ["--games", "0"],
    "tournament --match": ["--games", "1", "--processes", "1"],
    "ladder": ["--games", "0"],
}
"""Options added to a form (by its first words) to keep it small: the fewest games the command
accepts. A tournament suite plays best-of-three matches of the strongest search levels (over
three minutes a suite at ``--games 1`` on two cores), so the suites and the ladder run with
``--games 0``, which checks every matchup's players and first deal; ``--match`` plays real
games."""

ALIASES = {"kobo": ("kobo", "kōbō"), "twgp": ("twgp",), "maken": ("maken",)}
"""How a ``--help`` may name each ruleset."""

runner = CliRunner()


# --------------------------------------------------------------------------------------------
# The README's commands
# --------------------------------------------------------------------------------------------


def _table_cells(row: str) -> list[str]:
    """The cells of a Markdown table row (a ``\\|`` inside a cell is not a separator)."""
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", row.strip().strip("|"))]


def readme_forms(text: str) -> list[str]:
    """The command forms of the README: each line of its shell code blocks, and each code span
    of the first column of the table under "## Commands".

    >>> readme_forms("```sh\\n./kessen x\\n```\\n## Commands\\n| a | b |\\n|---|---|\\n"
    ...              "| `kessen y [--z a\\\\|b]` / `kessen w` | c |\\n## Next\\n")
    ['./kessen x', 'kessen y [--z a|b]', 'kessen w']
    """
    forms: list[str] = []
    for block in re.findall(r"^```(?:sh|bash|console)\n(.*?)^```", text, re.S | re.M):
        forms += [line.strip() for line in block.splitlines() if line.strip()]
    section = text.split("\n## Commands\n", 1)[1].split("\n## ", 1)[0]
    for row in section.splitlines():
        if not row.startswith("| `"):
            continue
        first = _table_cells(row)[0]
        forms += [span.replace("\\|", "|") for span in re.findall(r"`([^`]+)`", first)]
    return forms


def expand(form: str) -> list[list[str]]:
    """The runs of a form with its defaults: the optional ``[...]`` parts left out, one run per
    alternative of each ``a|b`` word.

    >>> expand("kessen store show|check ID [--db FILE] [--x a|b]")
    [['kessen', 'store', 'show', 'ID'], ['kessen', 'store', 'check', 'ID']]
    """
    words = re.sub(r"\[[^\]]*\]", " ", form).split()
    choices = [word.split("|") for word in words]
    return [list(run) for run in itertools.product(*choices)]


def _is_placeholder(word: str) -> bool:
    return re.fullmatch(r"[A-Z][A-Z0-9_:,]*…?", word) is not None


@dataclass(frozen=True)
class Case:
    """One run of a README form: its words (placeholders unfilled) and the ruleset it is for
    (``--ruleset`` added when the command takes it and the ruleset is not the default)."""

    form: str
    words: tuple[str, ...]
    ruleset: str
    with_option: bool
    per_ruleset: bool = False

    @property
    def id(self) -> str:
        """The words, and the ruleset where the form runs once per ruleset."""
        return " ".join(self.words) + (f" [{self.ruleset}]" if self.per_ruleset else "")


@functools.cache
def _app_command() -> Any:
    """The click command typer builds of the ``kessen`` app."""
    return typer.main.get_command(app)


def _is_group(command: Any) -> bool:
    return isinstance(getattr(command, "commands", None), dict)


def _click_command(words: list[str]) -> Any:
    """The (click) command that ``kessen WORDS…`` runs (``KeyError`` for a word it lacks)."""
    command = _app_command()
    for word in words:
        if not _is_group(command) or word.startswith("-"):
            break
        command = command.commands[word]
    return command


def _takes_ruleset(form: str, words: list[str]) -> bool:
    command = _click_command(words)
    options = {opt for param in command.params for opt in getattr(param, "opts", ())}
    return "--ruleset" in options or "--ruleset" in form


def _cases() -> list[Case]:
    cases: list[Case] = []
    for form in readme_forms(README.read_text(encoding="utf-8")):
        for run in expand(form):
            words = run[1:]  # after ./kessen or kessen
            if run[0] == "./kessen" and words[:1] == ["test"]:
                cases.append(Case(form, tuple(run), RULESET, False))
                continue
            if _takes_ruleset(form, words):
                for ruleset in RULESETS:
                    cases.append(Case(form, tuple(run), ruleset, ruleset != RULESET, True))
                continue
            # A record or a deck of each game it serves, else one run.
            serves = served(" ".join(words))
            fills = any(word in ("FILE", "ID", "NAME") for word in words)
            for ruleset in serves if fills else serves[:1]:
                cases.append(Case(form, tuple(run), ruleset, False, fills and len(serves) > 1))
    return cases


CASES = _cases()


# --------------------------------------------------------------------------------------------
# Records, files and the temporary store
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Material:
    """What the placeholders are filled with: a store with one finished match per ruleset,
    its export files and a deck (or build) file per ruleset."""

    database: Path
    match_ids: dict[str, int]
    exports: dict[str, Path]
    deck_files: dict[str, Path]
    set_files: dict[str, Path]
    """A card set of each game that has them, in the store (named as ``NAME`` is filled) and
    exported beside it under that name."""


def _record(store: MatchStore, ruleset: str) -> int:
    rules = registry.get(ruleset)
    config = dict(rules.default_config)
    if "best_of" in config:
        config["best_of"] = 1
    seed = 7
    state = rules.new_game(config, seed)
    recorder = Recorder.start(
        store, state, config, seed, players={0: "heuristic", 1: "heuristic"}, source="sim"
    )
    players = {seat: rules.players["heuristic"](seed + seat) for seat in (0, 1)}
    while (pending := state.pending) is not None:
        action = players[pending.seat].choose(state.view(pending.seat), state.legal_actions())
        state.apply(action)
        recorder.record(action, state)
    return recorder.match_id


@pytest.fixture(scope="module")
def material(tmp_path_factory: pytest.TempPathFactory) -> Material:
    folder = tmp_path_factory.mktemp("material")
    database = folder / "store.sqlite3"
    builds = registry.get("twgp").decks
    assert builds is not None
    deck_files = {
        "kobo": folder / "deck.toml",
        "twgp": folder / "build.toml",
        "maken": folder / "maken-deck.toml",
    }
    shutil.copy(DECKS_DIR / "tempo.toml", deck_files["kobo"])
    shutil.copy(DECKS_DIR / "tempo.toml", deck_files["maken"])
    build = {
        "name": "t",
        "vitals": ["s10", "c10", "sk"],
        "hand": ["sa"],
        "aside": ["s9", "c9", "s8"],
    }
    deck_files["twgp"].write_text(builds.to_toml(build), encoding="utf-8")
    exports: dict[str, Path] = {}
    match_ids: dict[str, int] = {}
    set_files: dict[str, Path] = {}
    with MatchStore(database) as store:
        for ruleset in RULESETS:
            match_ids[ruleset] = _record(store, ruleset)
            exports[ruleset] = folder / f"{ruleset}-match.json"
            exports[ruleset].write_text(
                exchange.dumps(exchange.export_match(store, match_ids[ruleset])), encoding="utf-8"
            )
        for ruleset in served("sets"):
            name = deck_names(ruleset)[0]
            store.card_sets().derive(name, ruleset, "shipped")
            set_files[ruleset] = folder / "sets" / f"{name}.toml"
            set_files[ruleset].parent.mkdir(exist_ok=True)
            set_files[ruleset].write_text(store.card_sets().export(name), encoding="utf-8")
    return Material(database, match_ids, exports, deck_files, set_files)


def _fill(words: tuple[str, ...], ruleset: str, material: Material) -> list[str]:
    """The words with each placeholder replaced by a real value for ``ruleset``."""
    out: list[str] = []
    for word in words:
        if not _is_placeholder(word):
            out.append(word)
        elif word == "FILE" and words[:1] == ("sets",):
            out.append(str(material.set_files.get(ruleset, material.set_files[RULESET])))
        elif word == "FILE":
            deck_command = words[:1] == ("decks",)
            files = material.deck_files if deck_command else material.exports
            out.append(str(files[ruleset]))
        elif word == "ID":
            out.append(str(material.match_ids[ruleset]))
        elif word == "STEP":
            out.append("1")
        elif word == "NAME":
            out.append(deck_names(ruleset)[0])
        elif word == "NEW":
            out.append("new-set")
        elif word == "GAME":
            out.append("pokemon")
        elif word == "FIELDS…":
            out.append("120")
        elif word == "A:B":
            out.append("heuristic:random")
        else:
            raise AssertionError(f"no value for the README placeholder {word!r} in {words}")
    return out


def _size(words: list[str]) -> list[str]:
    """The size-limiting options of :data:`SIZE` for these words (the longest start)."""
    text = " ".join(words)
    keys = [key for key in SIZE if text == key or text.startswith(key + " ")]
    return SIZE[max(keys, key=len)] if keys else []


def _documented(words: list[str], option: str) -> bool:
    """Whether the command ``kessen WORDS…`` has the option ``option`` (``tournament`` and
    ``ladder`` pass their arguments on: their ``--help`` lists them)."""
    if words[0] in ("tournament", "ladder"):
        return option in runner.invoke(app, [words[0], "--help"]).output
    command = _click_command(words)
    return any(option in getattr(p, "opts", ()) for p in command.params)


# --------------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve_and_stop(command: list[str], cwd: Path, env: dict[str, str]) -> None:
    """Start a ``play`` command, check that it answers ``/`` with the page, stop it (Ctrl+C)."""
    server = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        url = None
        deadline = time.monotonic() + 60
        while url is None and time.monotonic() < deadline:
            line = server.stdout.readline()
            if not line:
                break
            found = re.search(r"running at (http://\S+)", line)
            url = found.group(1) if found else None
        assert url is not None, server.stderr.read() if server.stderr else ""
        page = ""
        while not page and time.monotonic() < deadline and server.poll() is None:
            try:  # the address is printed as the server starts: it may not answer yet
                with urllib.request.urlopen(url, timeout=30) as answer:
                    assert answer.status == 200
                    page = answer.read().decode("utf-8")
            except urllib.error.URLError:
                time.sleep(0.1)
        assert "<html" in page.lower()
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=30)
    # Ctrl+C is how the server stops: 130, as the play command's help says.
    assert server.returncode in (0, 130), err
    assert "Traceback" not in out + err


def _fake_root(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the launcher beside a prepared ``.venv`` whose tools only log their
    arguments and whose ``kessen`` is this one: the launcher's own steps run, nothing else."""
    root = tmp_path / "checkout"
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    shutil.copy(LAUNCHER, root / "kessen")
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    os.utime(root / "pyproject.toml", (1_000_000_000, 1_000_000_000))
    (root / ".venv" / ".installed").touch()
    (bin_dir / "python").symlink_to(sys.executable)
    log = tmp_path / "tools.log"
    scripts = {
        "kessen": f'#!/bin/sh\nexec "{sys.executable}" -m kessen.cli "$@"\n',
        **{
            tool: f'#!/bin/sh\necho "{tool} $*" >> "{log}"\n' for tool in ("ruff", "mypy", "pytest")
        },
    }
    for name, text in scripts.items():
        path = bin_dir / name
        path.write_text(text, encoding="utf-8")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return root, log


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_readme_command(
    case: Case, material: Material, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    database = tmp_path / "store.sqlite3"
    with sqlite3.connect(material.database) as source, sqlite3.connect(database) as copy:
        source.backup(copy)
    env = {**os.environ, "KESSEN_DB": str(tmp_path / "default-store.sqlite3")}
    launcher, *words = case.words
    if launcher == "./kessen" and words[:1] == ["test"]:
        root, log = _fake_root(tmp_path)
        done = subprocess.run(
            [str(root / "kessen"), *words], cwd=root, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        assert [line.strip() for line in log.read_text(encoding="utf-8").splitlines()] == [
            "ruff check src tests bench",
            "ruff format --check --quiet src tests bench",
            "mypy",
            "pytest -n auto",
        ]
        return
    args = _fill(tuple(words), case.ruleset, material)
    if case.with_option:
        args += ["--ruleset", case.ruleset]
    for option in _size(words):
        if option.startswith("--"):
            assert _documented(words, option), f"{option} is not an option of {words}"
    args += _size(words)
    if _documented(words, "--db") and "--db" not in args:
        args += ["--db", str(database)]
    serves = served(" ".join(words))
    if words[:1] == ["play"]:
        args += ["--no-browser", "--port", str(_free_port())]
        if launcher == "./kessen":
            root, _log = _fake_root(tmp_path)
            command = [str(root / "kessen"), *args]
        else:
            command = [sys.executable, "-m", "kessen.cli", *args]
        _serve_and_stop(command, tmp_path, env)
        return
    result = runner.invoke(app, args, env={"KESSEN_DB": env["KESSEN_DB"]})
    shown = f"kessen {' '.join(args)}\n{result.output}"
    assert "Traceback" not in result.output, shown
    assert result.exception is None or isinstance(result.exception, SystemExit), shown + repr(
        result.exception
    )
    if case.ruleset in serves:
        assert result.exit_code == 0, shown
        assert result.output.strip(), shown
    else:
        assert result.exit_code == 2, shown
        said = result.output.lower()
        assert "only" in said, shown
        for ruleset in serves:
            assert any(alias in said for alias in ALIASES[ruleset]), shown


# --------------------------------------------------------------------------------------------
# Every --help
# --------------------------------------------------------------------------------------------


def _paths(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    yield path
    if _is_group(command):
        for name, sub in command.commands.items():
            yield from _paths(sub, (*path, name))


HELP_PATHS = list(_paths(_app_command()))


@pytest.mark.parametrize("path", HELP_PATHS, ids=[" ".join(p) or "kessen" for p in HELP_PATHS])
def test_help_names_the_rulesets(path: tuple[str, ...]) -> None:
    result = runner.invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    said = result.output.lower()
    serves = served(" ".join(path))
    for ruleset in serves:
        assert any(alias in said for alias in ALIASES[ruleset]), (ruleset, result.output)
    if len(serves) < len(RULESETS) and path[:1] != serves[:1]:
        assert "only" in said, result.output


def test_the_readme_documents_every_command_of_the_app() -> None:
    """Every README form names a command the app has (not a bare group), and every command of
    the app is in the README."""
    documented: set[str] = set()
    for case in CASES:
        launcher, *words = case.words
        if launcher == "./kessen" and words[:1] == ["test"]:
            continue
        assert not _is_group(_click_command(words)), case.form
        documented.add(words[0])
    assert set(_app_command().commands) <= documented


def test_the_command_line_knows_every_ruleset() -> None:
    """The command line's list of rulesets is the project's: each package of
    ``kessen.games`` registers one of that name."""
    packages = {m.name for m in pkgutil.iter_modules(kessen.games.__path__) if m.ispkg}
    assert set(RULESETS) == packages
    for name in RULESETS:
        assert registry.get(name).name == name

"""The compiled build: the hot modules compiled with mypyc into ``build/compiled``, beside the
pure sources, which stay plain Python and run wherever no compiler is.

``build/compiled`` holds a ``kessen`` package made of symbolic links to everything in
``src/kessen`` (the modules, the card data, the web client) and, beside each compiled module's
source, its C extension built by mypyc from that typed source, which Python imports instead.
So the same package runs compiled when ``build/compiled`` comes first on ``sys.path``
(``PYTHONPATH``) and pure otherwise. The launcher (``./kessen play``, ``./kessen test``) does
both; by hand::

    .venv/bin/python -m kessen.build_compiled          # build if the sources changed
    PYTHONPATH=build/compiled .venv/bin/kessen watch   # run compiled

A build is remembered by a stamp: a hash of the compiled modules' sources and of every kessen
module they import (mypyc compiles against their types), of this file, and of the Python and
mypy versions. Nothing is built while the stamp matches; after a change mypyc translates every
module again (about a minute) but only the C files that changed are compiled again (one
extension per module). ``python -m kessen.build_compiled --check`` says whether the build is
up to date without building. The exit status is 0 when the compiled build can be used, 1 when
it is out of date (``--check``) or its build failed, 2 when this machine cannot build it (no C
compiler, no mypyc, no Python headers).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from pathlib import Path

COMPILED: tuple[str, ...] = (
    # The rules kernel: all of it but the conformance checker (a test tool mypyc cannot
    # build), the card-set, glossary and registry tables and the undo rule, which no game step
    # reads, and the generic rule processes and surprise zone, which only an option turns on.
    "engine/action",
    "engine/contract",
    "engine/digest",
    "engine/frames",
    "engine/log",
    "engine/players",
    "engine/poses",
    "engine/refusals",
    "engine/replay",
    "engine/rng",
    "engine/triggers",
    "engine/wording",
    "engine/zones",
    # Kōbō: the state, its actions and rules (frames, effects, endings), views, and what the
    # COM players and the search run on (heuristic, evaluation, worlds, search hooks, resampling).
    "games/kobo/cards",
    "games/kobo/effects",
    "games/kobo/endings",
    "games/kobo/evaluate",
    "games/kobo/flow",
    "games/kobo/flow_common",
    "games/kobo/flow_exchange",
    "games/kobo/flow_standby",
    "games/kobo/heuristic",
    "games/kobo/heuristic_exchange",
    "games/kobo/heuristic_surprise",
    "games/kobo/knowledge",
    "games/kobo/moves",
    "games/kobo/pass_memory",
    "games/kobo/preview",
    "games/kobo/reasons",
    "games/kobo/resample",
    "games/kobo/search_worlds",
    "games/kobo/standby",
    "games/kobo/state",
    "games/kobo/surprise",
    "games/kobo/value_model",
    "games/kobo/view",
    "games/kobo/worlds",
    "games/kobo/worlds_surprise",
    # TWGP: the same parts (its COM players read the views, fights and their words).
    "games/twgp/actions",
    "games/twgp/attacks",
    "games/twgp/building",
    "games/twgp/cards",
    "games/twgp/drives",
    "games/twgp/fight",
    "games/twgp/fightwords",
    "games/twgp/flow",
    "games/twgp/heuristic",
    "games/twgp/knowledge",
    "games/twgp/moves",
    "games/twgp/preview",
    "games/twgp/reading",
    "games/twgp/reasons",
    "games/twgp/resample",
    "games/twgp/state",
    "games/twgp/view",
    "games/twgp/vitals",
    "games/twgp/worlds",
    # Project Maken: the same parts.
    "games/maken/flow",
    "games/maken/heuristic",
    "games/maken/knowledge",
    "games/maken/preview",
    "games/maken/reasons",
    "games/maken/record",
    "games/maken/resample",
    "games/maken/rules",
    "games/maken/state",
    "games/maken/tally",
    "games/maken/view",
    "games/maken/words",
    "games/maken/worlds",
    # The search of the COM levels.
    "ai/ismcts",
)
"""The compiled modules, as paths in the package without ``.py``. Left out: the data loaders
built on pydantic (mypyc cannot compile them), the tables of cards, decks, texts and rules
documents that are read once, the command line, the server, the store and the simulator."""

BUILD_DIR = Path("build")
"""Where the builds live, under the checkout's root."""
COMPILED_DIR = BUILD_DIR / "compiled"
"""The importable tree: put it first on ``sys.path`` to run the compiled build."""
WORK_DIR = BUILD_DIR / "mypyc"
"""mypyc's C sources, the object files, mypy's cache and the last build's log."""
STAMP = "kessen-compiled.json"
"""The stamp file in :data:`COMPILED_DIR`."""


def module_name(path: str) -> str:
    """The dotted name of a compiled module given as in :data:`COMPILED`."""
    return "kessen." + path.replace("/", ".")


def compiled_modules() -> list[str]:
    """The dotted names of the compiled modules."""
    return [module_name(path) for path in COMPILED]


def _imports(source: Path, package: Path) -> set[Path]:
    """The kessen source files that ``source`` imports (anywhere in it, for types too)."""
    found: set[Path] = set()
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] != "kessen":
                continue
            for end in range(1, len(parts) + 1):
                base = package.parent.joinpath(*parts[:end])
                for candidate in (base / "__init__.py", base.with_suffix(".py")):
                    if candidate.is_file():
                        found.add(candidate)
    return found


def sources(src: Path) -> list[Path]:
    """Every source file the build depends on: the compiled modules and, transitively, the
    kessen modules they import (their types shape the compiled code)."""
    package = src / "kessen"
    todo = [package / f"{path}.py" for path in COMPILED]
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        todo.extend(_imports(path, package) - seen)
    return sorted(seen)


def fingerprint(root: Path) -> str:
    """The hash a build of ``root``'s sources is stamped with."""
    try:
        compiler = importlib.metadata.version("mypy")
    except importlib.metadata.PackageNotFoundError:
        compiler = "none"
    digest = hashlib.sha256()
    digest.update(f"{sys.version} {sysconfig.get_config_var('EXT_SUFFIX')}".encode())
    digest.update(f"mypy {compiler}\n".encode())
    digest.update(Path(__file__).read_bytes())
    src = root / "src"
    for path in sources(src):
        digest.update(f"\n{path.relative_to(src).as_posix()}\n".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def why_not_possible(root: Path) -> str | None:
    """Why this machine cannot build the compiled variant of ``root``, or ``None``."""
    if not (root / "src" / "kessen").is_dir():
        return "no sources to compile"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (it comes with mypy, a development dependency)"
    compiler = sysconfig.get_config_var("CC") or "cc"
    if shutil.which(compiler.split()[0]) is None:
        return f"no C compiler ({compiler.split()[0]} not found)"
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not include.is_file():
        return "Python's C headers are missing (on Debian/Ubuntu: apt install python3-dev)"
    return None


def stamp_path(root: Path) -> Path:
    """The stamp of ``root``'s compiled build."""
    return root / COMPILED_DIR / STAMP


def is_fresh(root: Path) -> bool:
    """Whether ``root``'s compiled build exists and was made from its current sources."""
    try:
        stamp = json.loads(stamp_path(root).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return bool(stamp.get("hash") == fingerprint(root))


def _extension_paths(root: Path) -> set[Path]:
    """Where the compiled modules' extensions go in the importable tree: each module's own
    and its native code's (``module__mypyc``)."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    base = root / COMPILED_DIR / "kessen"
    return {base / f"{path}{end}{suffix}" for path in COMPILED for end in ("", "__mypyc")}


def link_tree(root: Path) -> None:
    """Make ``build/compiled/kessen`` mirror ``src/kessen``: symbolic links to every source
    file and directory, and beside each compiled module's source its extension, which Python
    imports in its place (an extension comes before a source of the same name). The sources
    stay readable there (tests read them, tracebacks show them).

    Run before each use: files added to or removed from the sources since the build are
    linked or unlinked (a changed compiled module is caught by the stamp instead)."""
    src = root / "src" / "kessen"
    out = root / COMPILED_DIR / "kessen"
    keep = _extension_paths(root)
    holders = {src / path for path in COMPILED}
    holders = {parent for path in holders for parent in path.parents if src in parent.parents}
    holders.add(src)

    def link(target: Path, link_path: Path) -> None:
        relative = os.path.relpath(target, link_path.parent)
        if link_path.is_symlink() and os.readlink(link_path) == relative:
            return
        if link_path.is_symlink() or link_path.is_file():
            link_path.unlink()
        elif link_path.is_dir():
            shutil.rmtree(link_path)
        link_path.symlink_to(relative)

    def mirror(directory: Path, into: Path) -> None:
        if into.is_symlink():
            into.unlink()
        into.mkdir(parents=True, exist_ok=True)
        wanted: set[str] = {"__pycache__"}
        for entry in sorted(directory.iterdir()):
            if entry.name == "__pycache__":
                continue
            wanted.add(entry.name)
            if entry.is_dir() and entry in holders:
                mirror(entry, into / entry.name)
            else:
                link(entry, into / entry.name)
        for existing in into.iterdir():
            if existing.name in wanted or existing in keep:
                continue
            if existing.is_dir() and not existing.is_symlink():
                shutil.rmtree(existing)
            else:
                existing.unlink()

    mirror(src, out)


@contextlib.contextmanager
def _lock(root: Path) -> Iterator[None]:
    """Hold the build lock (one build of a checkout at a time)."""
    import fcntl

    path = root / BUILD_DIR / "compiled.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _compile(root: Path, jobs: int) -> None:
    """Run mypyc and the C compiler over :data:`COMPILED` (in ``root``, which is the current
    directory); raise ``SystemExit`` or an exception on failure."""
    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped]

    paths = [f"src/kessen/{path}.py" for path in COMPILED]
    # A fresh mypy cache each time: mypyc reads an unchanged module's classes back from the
    # cache with a direct constructor even for an enum or another non-native class, whose
    # calls from a changed module then do not compile. Without it every module is translated
    # again; only the C files that change are compiled again.
    cache = WORK_DIR / "mypy-cache"
    shutil.rmtree(cache, ignore_errors=True)
    options = ["--cache-dir", str(cache), "--config-file", "pyproject.toml"]
    extensions = mypycify(
        [*options, *paths], opt_level="3", separate=True, target_dir=str(WORK_DIR / "c")
    )
    arguments = ["build_ext", "--build-lib", str(COMPILED_DIR)]
    arguments += ["--build-temp", str(WORK_DIR / "temp"), "--parallel", str(jobs)]
    distribution = Distribution(
        {
            "name": "kessen-compiled",
            "ext_modules": extensions,
            "script_name": "build_compiled",
            "script_args": arguments,
        }
    )
    distribution.parse_command_line()
    distribution.run_commands()


def _compile_logged(root: Path, jobs: int) -> bool:
    """:func:`_compile` in a child process whose output goes to ``build/mypyc/build.log``
    (the compiler's messages included); whether it succeeded."""
    log = root / WORK_DIR / "build.log"
    command = [sys.executable, "-m", "kessen.build_compiled", "--root", str(root)]
    command += ["--compile-only", "--jobs", str(jobs)]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run(command, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT)
    return done.returncode == 0


def build(root: Path, force: bool = False, jobs: int | None = None) -> tuple[int, str]:
    """Bring ``root``'s compiled build up to date: ``(0, what was done)``, ``(1, why the build
    failed)`` or ``(2, why this machine cannot build it)``. The build's log is kept in
    ``build/mypyc/build.log``."""
    if not (root / "src" / "kessen").is_dir():
        return 2, "no sources to compile"
    with _lock(root):
        if not force and is_fresh(root):
            link_tree(root)
            return 0, "up to date"
        reason = why_not_possible(root)
        if reason is not None:
            return 2, reason
        stamp = stamp_path(root)
        stamp.unlink(missing_ok=True)
        work = root / WORK_DIR
        work.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        for _attempt in range(3):  # again while someone edits the sources during a build
            hash_before = fingerprint(root)
            if not _compile_logged(root, jobs or min(4, os.cpu_count() or 1)):
                return 1, f"the build failed (see {WORK_DIR / 'build.log'})"
            if fingerprint(root) == hash_before:
                break
        else:
            return 1, "the sources kept changing during the build"
        link_tree(root)
        seconds = time.monotonic() - started
        missing = sorted(str(p) for p in _extension_paths(root) if not p.is_file())
        if missing:
            return 1, f"the build made no extension for {missing[0]}"
        stamp.write_text(
            json.dumps({"hash": hash_before, "modules": compiled_modules(), "seconds": seconds})
            + "\n",
            encoding="utf-8",
        )
        return 0, f"built in {seconds:.0f} s"


def main(argv: list[str] | None = None) -> int:
    """Build (or check) the compiled variant; print one line; exit 0 when it can be used."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--root",
        type=Path,
        default=Path(__file__).resolve().parents[2],
        help="the checkout (holding src/kessen); this file's own by default",
    )
    parser.add_argument("--check", action="store_true", help="only say whether it is up to date")
    parser.add_argument("--force", action="store_true", help="build even if up to date")
    parser.add_argument("--jobs", type=int, help="C compilations at once (default: cores, ≤4)")
    parser.add_argument("--compile-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    root: Path = args.root.resolve()
    if args.compile_only:  # the child process of a build (see _compile_logged)
        _compile(root, args.jobs or 1)
        return 0
    if args.check:
        if (root / "src" / "kessen").is_dir() and is_fresh(root):
            link_tree(root)
            print("up to date")
            return 0
        reason = why_not_possible(root)
        print(reason or "the compiled build is missing or older than the sources")
        return 1 if reason is None else 2
    status, what = build(root, force=args.force, jobs=args.jobs)
    print(what)
    return status


if __name__ == "__main__":
    sys.exit(main())

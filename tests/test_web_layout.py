"""The browser client's layout: a shared shell and one module per game, kept apart.

No browser is needed. The import statements of every JavaScript file under ``web/static/`` are
read and checked: no game imports another game, only ``shell/registry.js`` imports games, every
imported file exists, no file is longer than 800 lines, ``index.html`` names existing files,
and each game module exports the object the registry's contract describes. When Node.js is
installed, every file also passes ``node --check``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[1] / "src" / "kessen" / "web" / "static"
SHELL = STATIC / "shell"
GAMES = STATIC / "games"
REGISTRY = SHELL / "registry.js"
MAX_LINES = 800

# `import … from '…'`, `import '…'`, `export … from '…'` and `import('…')`.
IMPORT = re.compile(
    r"""(?:^|[;\s])(?:import|export)\s+(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"]+)['"]"""
    r"""|\bimport\(\s*['"]([^'"]+)['"]\s*\)""",
    re.MULTILINE,
)
# The methods and fields every game module's `game` object must have (shell/registry.js).
CONTRACT = (
    "id",
    "t",
    "brand",
    "logoSub",
    "title",
    "optionsBox",
    "boardClass",
    "ensureCatalog",
    "renderStartOptions",
    "startConfig",
    "render",
    "renderInfo",
    "actionText",
    "promptName",
    "detectEnd",
    "reset",
    "replayTurnLabel",
    "continueConfig",
)


def js_files() -> list[Path]:
    return sorted(STATIC.rglob("*.js"))


def imports_of(path: Path) -> list[Path]:
    """The files `path` imports, resolved (relative specifiers and /static/ addresses)."""
    text = path.read_text(encoding="utf-8")
    found = []
    for m in IMPORT.finditer(text):
        spec = m.group(1) or m.group(2)
        if spec.startswith("/static/"):
            found.append((STATIC / spec.removeprefix("/static/")).resolve())
        else:
            assert spec.startswith("."), f"{path.name} imports {spec!r}: only files of static/"
            found.append((path.parent / spec).resolve())
    return found


def game_of(path: Path) -> str | None:
    """The game a file belongs to (`games/kobo-ops.js` → "kobo"), None for the shell."""
    if path.parent != GAMES:
        return None
    return path.stem.split("-")[0]


def test_the_layout_has_a_shell_and_one_module_per_game() -> None:
    assert (STATIC / "index.html").is_file()
    assert REGISTRY.is_file() and (SHELL / "main.js").is_file()
    assert {p.name for p in GAMES.glob("*.js") if "-" not in p.stem} >= {"kobo.js", "twgp.js"}
    assert not list(STATIC.glob("*.js")), "scripts live in shell/ or games/, not at the root"


def test_imports_parse_the_way_the_files_are_written() -> None:
    # The parser sees multi-line imports and `import '…'` alike: a check of the checker.
    edges = {p.name for p in imports_of(SHELL / "main.js")}
    assert {"registry.js", "state.js", "dom.js"} <= edges
    assert {p.name for p in imports_of(REGISTRY)} >= {"kobo.js", "twgp.js"}


@pytest.mark.parametrize("path", js_files(), ids=lambda p: str(p.relative_to(STATIC)))
def test_every_imported_file_exists(path: Path) -> None:
    for target in imports_of(path):
        assert target.is_file(), f"{path.relative_to(STATIC)} imports a missing {target}"
        assert STATIC in target.parents, f"{path.relative_to(STATIC)} imports outside static/"


def test_no_game_imports_another_game() -> None:
    for path in js_files():
        own = game_of(path)
        if own is None:
            continue
        for target in imports_of(path):
            other = game_of(target)
            assert other in (None, own), f"games/{path.name} imports games/{target.name}"
            if other is None:
                assert target.parent == SHELL, f"games/{path.name} imports {target}"
                assert target != REGISTRY, f"games/{path.name} imports the registry"


def test_only_the_registry_imports_games() -> None:
    for path in js_files():
        if game_of(path) is not None or path == REGISTRY:
            continue
        for target in imports_of(path):
            assert game_of(target) is None, (
                f"{path.relative_to(STATIC)} imports games/{target.name}: go through the registry"
            )
    # ...and the registry imports each game's entry module only, never a game's parts.
    for target in imports_of(REGISTRY):
        if game_of(target) is not None:
            assert "-" not in target.stem, f"the registry imports the part games/{target.name}"


@pytest.mark.parametrize("path", js_files(), ids=lambda p: str(p.relative_to(STATIC)))
def test_no_file_is_longer_than_800_lines(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{path.relative_to(STATIC)} has {lines} lines"


def test_each_game_module_exports_the_contract_object() -> None:
    registry = REGISTRY.read_text(encoding="utf-8")
    for path in sorted(GAMES.glob("*.js")):
        if "-" in path.stem:
            continue
        text = path.read_text(encoding="utf-8")
        m = re.search(r"^export const game = \{\n(.*?)^\};", text, re.MULTILINE | re.DOTALL)
        assert m, f"games/{path.name} exports no `game` object"
        body = m.group(1)
        # A property (`title: …`), a shorthand (`render,`), a method or a getter (`get title()`).
        keys = set(re.findall(r"^\s+(?:get\s+)?([A-Za-z]\w*)\s*[:,(]", body, re.MULTILINE))
        missing = [k for k in CONTRACT if k not in keys]
        assert not missing, f"games/{path.name}: `game` lacks {missing}"
        assert re.search(rf"^\s+id: '{path.stem}',", body, re.MULTILINE), path.name
        assert f"'../games/{path.name}'" in registry, f"the registry does not list {path.name}"
        for key in CONTRACT:
            assert key in registry, f"the registry's contract does not document `{key}`"


def test_index_html_references_existing_files() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    refs = re.findall(r"""(?:src|href)=["'](/static/[^"']+)["']""", html)
    assert any(r.endswith("/shell/main.js") for r in refs)
    styles = {r.rsplit("/", 1)[-1] for r in refs if r.endswith(".css")}
    assert styles >= {"shell.css", "kobo.css", "twgp.css"}
    for ref in refs:
        assert (STATIC / ref.removeprefix("/static/")).is_file(), f"index.html names {ref}: missing"


def test_every_game_module_has_its_options_box_in_index_html() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    for path in sorted(GAMES.glob("*.js")):
        if "-" in path.stem:
            continue
        m = re.search(r"optionsBox: '([\w-]+)'", path.read_text(encoding="utf-8"))
        assert m and f'id="{m.group(1)}"' in html, f"games/{path.name}: no options box"


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("path", js_files(), ids=lambda p: str(p.relative_to(STATIC)))
def test_node_accepts_every_file(path: Path, tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node is not None
    # As an .mjs copy: `node --check` on a .js file with imports may accept it unparsed.
    copy = tmp_path / f"{path.stem}.mjs"
    copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    done = subprocess.run([node, "--check", str(copy)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_node_check_catches_a_syntax_error(tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node is not None
    bad = tmp_path / "bad.mjs"
    bad.write_text("import { h } from './dom.js';\nconst = h;\n", encoding="utf-8")
    done = subprocess.run([node, "--check", str(bad)], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0

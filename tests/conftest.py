"""Fixtures shared by the whole suite: the match store on each of its two databases.

``store_target`` is an empty store's ``--db`` target, once an SQLite file and once a schema of
a real PostgreSQL server (``postgres``: one throwaway server per test session, started from
the machine's PostgreSQL programs by :mod:`kessen.store.pg_server`). Without those programs
the PostgreSQL half is skipped, unless ``KESSEN_REQUIRE_POSTGRES=1`` (CI), which makes it fail.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from kessen.store.pg_server import LocalServer, ServerError, find_binaries

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres() -> Iterator[LocalServer]:
    """A PostgreSQL server for this test session (skipped, or failed under
    ``KESSEN_REQUIRE_POSTGRES=1``, when the machine has no PostgreSQL programs)."""
    required = os.environ.get("KESSEN_REQUIRE_POSTGRES") == "1"
    bindir = find_binaries()
    if bindir is None:
        message = (
            "no PostgreSQL server programs (initdb, postgres) on PATH, in "
            "/usr/lib/postgresql/*/bin or from pg_config: install Debian's postgresql package"
        )
        if required:
            pytest.fail(message + " (KESSEN_REQUIRE_POSTGRES=1)")
        pytest.skip(message)
    try:
        server = LocalServer(bindir, durable=False).start()
    except ServerError as err:
        if required:
            pytest.fail(str(err))
        pytest.skip(str(err))
    yield server
    server.stop()


def new_store_target(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty store on ``backend``: an SQLite file in ``tmp_path`` or a new PostgreSQL
    schema of the session's server."""
    if backend == "sqlite":
        return str(tmp_path / f"store-{uuid.uuid4().hex[:8]}.sqlite3")
    server: LocalServer = request.getfixturevalue("postgres")
    return server.new_store()


@pytest.fixture(params=BACKENDS)
def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty match store's target (``MatchStore(target)``, ``--db target``), on SQLite and
    on PostgreSQL."""
    return new_store_target(request.param, request, tmp_path)


def _drives_a_browser(path: str, web_folder: str, seen: dict[str, bool]) -> bool:
    """Whether the test module at ``path`` drives Chromium: the browser folder's, or one that
    starts Playwright itself (read once per module)."""
    if path not in seen:
        if path.startswith(web_folder):
            seen[path] = True
        else:
            with open(path, encoding="utf-8") as module:
                seen[path] = "playwright" in module.read()
    return seen[path]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests first, the rest after in their usual order.

    The browser tests are the suite's longest (whole games played by clicking, some a minute
    long); collected last, as their folder sorts, one of them starting near the end kept one
    worker busy while the others had nothing left. First, the many short tests after them fill
    the workers evenly to the end.
    """
    web_folder = os.path.join(os.path.dirname(__file__), "web") + os.sep
    seen: dict[str, bool] = {}
    items.sort(key=lambda item: not _drives_a_browser(str(item.fspath), web_folder, seen))

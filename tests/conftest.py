"""Fixtures shared by the whole suite: the match store on each of its two databases.

``store_target`` is an empty store's ``--db`` target, once an SQLite file and once a schema of
a real PostgreSQL server (``postgres``: one throwaway server per test session, started from
the machine's PostgreSQL programs by :mod:`kessen.store.pg_server`). Without those programs
the PostgreSQL half is skipped, unless ``KESSEN_REQUIRE_POSTGRES=1`` (CI), which makes it fail.
"""

from __future__ import annotations

import functools
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


WEB_FOLDER = Path(__file__).parent / "web"


@functools.cache
def _drives_a_browser(module: Path) -> bool:
    """Whether the test module ``module`` drives Chromium: the browser folder's, or one that
    starts Playwright itself."""
    return WEB_FOLDER in module.parents or "playwright" in module.read_text(encoding="utf-8")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests first, the rest after in their usual order.

    The browser tests are the suite's longest (whole games played by clicking, some a minute
    long); collected last, as their folder sorts, one of them starting near the end kept one
    worker busy while the others had nothing left. First, the many short tests after them fill
    the workers evenly to the end.
    """
    items.sort(key=lambda item: not _drives_a_browser(item.path))

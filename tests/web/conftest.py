"""Fixtures for the browser tests: a real server (COM pace 0) and a headless Chromium.

The browser is Debian's ``chromium`` driven by Playwright through ``executable_path``; when it
is not installed, every browser test is skipped with that reason. The layout tests measure
Japanese text, so they need the Japanese fonts a player's device has (Debian's
``fonts-noto-cjk``): without them they are skipped, or fail under ``KESSEN_REQUIRE_FONTS=1``
(as ``.ci/run`` sets), because boxes instead of glyphs would measure nothing true.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from kessen.engine import registry
from kessen.server.app import RULESETS
from kessen.server.run import running
from kessen.store import MatchStore

# Register every ruleset the server offers now, before any test swaps the registry's table for
# a patched copy (tests/web/test_history.py does): a ruleset first imported inside such a patch
# would register into the copy only and be unknown once the patch is undone.
for _name in RULESETS:
    registry.get(_name)

CHROMIUM = shutil.which("chromium") or (
    "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None
)
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 720}


def japanese_font() -> str | None:
    """The family of an installed Japanese font (Noto Sans CJK), or None."""
    try:
        listed = subprocess.run(
            ["fc-list", ":lang=ja", "family"], capture_output=True, text=True, timeout=20
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return next((line for line in listed.splitlines() if "CJK" in line), None)


@pytest.fixture(scope="session")
def real_fonts() -> str:
    """The Japanese font the layout tests measure with (skip or fail without one)."""
    found = japanese_font()
    if found is None:
        reason = "no Japanese font (Debian package `fonts-noto-cjk`): layouts would measure boxes"
        if os.environ.get("KESSEN_REQUIRE_FONTS") == "1":
            pytest.fail(f"KESSEN_REQUIRE_FONTS=1 but {reason}")
        pytest.skip(reason)
    return found


# A browser test that times out waiting for the page is run once more, and the report says
# so ("1 rerun"): on a loaded two-core machine a wait can lose a race with a frame that a
# person would never notice. Only a Playwright timeout is retried; a wrong assertion, a
# console error or a layout fault fails at once, and a timeout that happens twice fails.
def mark_timing_retries(items: list[pytest.Item]) -> None:
    """Give every browser test of this folder one more run after a Playwright timeout."""
    from playwright.sync_api import TimeoutError as PageTimeout

    retry = pytest.mark.flaky(reruns=1, only_rerun=[PageTimeout])
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(retry)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the browser tests, with a clear reason, when there is no Chromium."""
    reason = None
    if CHROMIUM is None:
        reason = "Chromium is not installed (Debian package `chromium`); browser tests skipped"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            reason = "the Python package `playwright` is not installed; browser tests skipped"
    if reason is None:
        mark_timing_retries(items)
        return
    if os.environ.get("KESSEN_REQUIRE_BROWSER") == "1":
        raise pytest.UsageError(f"KESSEN_REQUIRE_BROWSER=1 but {reason}")
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """Base URL of a Kessen server whose COM players move at once (pace 0)."""
    with running(pace=0.0) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the whole session."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser profile (empty localStorage) at 1280×720."""
    ctx = browser.new_context(viewport=VIEWPORT, locale="ja-JP")
    yield ctx
    ctx.close()


@pytest.fixture()
def page(context: Any, server: str) -> Iterator[Any]:
    """A page of the app; the test fails if the page throws a JavaScript error."""
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda err: errors.append(str(err)))
    pg.on(
        "console",
        lambda msg: errors.append(msg.text) if msg.type == "error" else None,
    )
    pg.set_default_timeout(20_000)
    pg.goto(server)
    yield pg
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture(scope="module")
def store_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server (COM pace 0) that keeps matches and saved decks in a fresh store of its own
    (one per test module)."""
    path = tmp_path_factory.mktemp("store") / "store.sqlite3"
    with MatchStore(path) as store, running(pace=0.0, store=store) as url:
        yield url

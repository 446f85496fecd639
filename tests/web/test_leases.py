"""The page behind nginx, in front of two ``kessen play`` processes sharing one PostgreSQL
store: the process serving its match is killed with ``kill -9``; the page says it is resuming
the match on another server, reconnects through the proxy by itself, and goes on from the same
prompt (skipped, saying why, without nginx or PostgreSQL's programs)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from kessen.server.run import free_port
from kessen.store.pg_server import LocalServer
from kessen.store.records import MatchStore
from tests.leasing import NGINX, NO_NGINX, holder, kessen_play, kill_9, nginx
from tests.web.driver import Driver, collect_errors, shot, start_match, view

pytestmark = pytest.mark.skipif(NGINX is None, reason=NO_NGINX)
LEASE = 8.0


@pytest.fixture
def site(postgres: LocalServer, tmp_path: Path) -> Iterator[tuple[str, dict[str, Any], str]]:
    """Two processes (owners ``a`` and ``b``) behind nginx; yields the proxy's URL, the
    processes by owner, and the store's URL."""
    url = postgres.new_store()
    ports = [free_port(0), free_port(0)]
    with ExitStack() as stack:
        processes = {}
        for owner, port in zip(("a", "b"), ports, strict=True):
            # A lease longer than a refused request's wait: the page is told to wait at least once.
            started = kessen_play(url, owner, port, "--proxy", "127.0.0.1", lease=LEASE)
            process, _ = stack.enter_context(started)
            processes[owner] = process
        yield stack.enter_context(nginx(tmp_path, ports)), processes, url


@pytest.mark.parametrize(("lang", "size"), [("ja", (1280, 720)), ("en", (390, 844))])
def test_the_page_follows_its_match_to_another_process(
    browser: Any, site: tuple[str, dict[str, Any], str], lang: str, size: tuple[int, int]
) -> None:
    proxy, processes, url = site
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="ja-JP")
    page = context.new_page()
    errors = collect_errors(page)
    page.set_default_timeout(30_000)
    page.goto(proxy)
    if lang == "en":
        page.evaluate("localStorage.setItem('kobo.settings', JSON.stringify({lang: 'en'}))")
        page.reload()
    start_match(page, "vs_com", seed=17)
    driver = Driver(page)
    for _ in range(3):
        driver.wait_ready()
        _, options = driver.check_offer()
        driver.click(options[0])
    driver.wait_ready()
    before = view(page)
    game_id = before["session"]["id"]
    with MatchStore(url) as store:
        owner = holder(store, game_id)
    assert owner in processes
    kill_9(processes[owner])
    # While the dead process's lease runs, the other one answers "served elsewhere" (4409):
    # the page says it is resuming the match on another server, and tries again each second.
    moving = "別のサーバーで再開中" if lang == "ja" else "Resuming on another server"
    page.wait_for_function(
        f"() => document.querySelector('#reconnect').textContent.includes({moving!r})"
    )
    box = page.locator("#reconnect").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[0]  # on screen
    shot(page, f"leases_moving_{lang}")
    page.wait_for_selector("#reconnect", state="hidden", timeout=30_000)
    page.wait_for_function("() => window.kobo.connected")
    after = view(page)
    assert after["session"]["id"] == game_id
    assert after["pending"]["prompt_id"] == before["pending"]["prompt_id"]
    assert after["log"] == before["log"]
    with MatchStore(url) as store:
        assert holder(store, game_id) == ("b" if owner == "a" else "a")
    driver.wait_ready()
    _, options = driver.check_offer()
    driver.click(options[0])  # the match goes on, on the other process
    driver.wait_ready()
    assert view(page)["history"]["steps"] > before["history"]["steps"]
    shot(page, f"leases_resumed_{lang}")
    context.close()
    assert not errors, errors

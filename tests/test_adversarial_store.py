"""Adversarial tests of the match store: custom decks replay, faults are refused cleanly.

Every fault leaves the file as it was (sha256 before and after) and the store's matches
unchanged, ends with a message naming the file and what is wrong, and never with a
traceback. A real ``kessen play`` is killed with SIGKILL and comes back on its own port with
the game where it stood; a second server on the same store is refused.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx2
import pytest
from typer.testing import CliRunner
from websockets.sync.client import connect

from kessen.cli import app
from kessen.engine.replay import ReplayDivergence
from kessen.games.kobo.decks import deck_to_json, load_deck
from kessen.games.kobo.schema import load_pool
from kessen.server import run
from kessen.server.session import Session
from kessen.store import MatchStore, db, html_replay
from kessen.store.lock import StoreLock, StoreLockedError
from kessen.store.records import StoreFault

runner = CliRunner()
PLAY = [sys.executable, "-m", "kessen.cli", "play"]
SWARM = Path(__file__).parents[1] / "src/kessen/games/kobo/data/decks/swarm.toml"


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def swarm_deck(name: str = "Swarm copy") -> dict[str, Any]:
    deck = deck_to_json(load_deck(SWARM, load_pool()))
    deck["slug"] = "swarm-copy"
    deck["name_en"] = deck["name_ja"] = name
    return deck


def play_session(session: Session, steps: int) -> None:
    """COM answers its prompts, the human seat 0 its first legal action, ``steps`` times."""
    for _ in range(steps):
        live = session.live
        if live.pending is None:
            return
        if session.com_to_move() is not None:
            session.com_step()
        else:
            session.act(0, live.pending.prompt_id, str(live.legal_actions()[0]))


def small_store(path: Path) -> MatchStore:
    """A store with two finished custom-deck matches, closed and checkpointed."""
    store = MatchStore(path)
    for seed in (1, 2):
        session = Session.create(
            "kobo", {"decks": [swarm_deck(), "fortress"]}, seed, "vs_com", "heuristic", 0, store
        )
        play_session(session, 12)
    return store


@pytest.fixture
def store_file(tmp_path: Path) -> Path:
    path = tmp_path / "matches.sqlite3"
    small_store(path).close()
    return path


# --- item 7: records with a custom deck replay exactly ------------------------------------


def test_custom_deck_through_sim_then_store_check(tmp_path: Path) -> None:
    deck = tmp_path / "swarm.toml"
    shutil.copy(SWARM, deck)
    database = str(tmp_path / "sim.sqlite3")
    result = runner.invoke(
        app,
        [
            "sim",
            "--decks",
            f"{deck},fortress",
            "--games",
            "2",
            "--players",
            "heuristic",
            "--workers",
            "1",
            "--quiet",
            "--db",
            database,
            "--report",
            str(tmp_path / "report"),
        ],
    )
    assert result.exit_code == 0, result.output
    with MatchStore(database) as store:
        ids = [m.id for m in store.list_matches()]
        config = store.get(ids[0]).config
    assert len(ids) == 2
    custom = next(d for d in config["decks"] if isinstance(d, dict))
    assert list(custom["main"]) == list(deck_to_json(load_deck(deck, load_pool()))["main"])
    assert list(custom["main"]) != sorted(custom["main"])  # the order that used to be lost
    result = runner.invoke(app, ["store", "check", *map(str, ids), "--db", database])
    assert result.exit_code == 0, result.output
    assert result.output.count("replays exactly") == 2


def test_custom_deck_server_session_resumes_after_restart(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    store = MatchStore(path)
    session = Session.create(
        "kobo", {"decks": [swarm_deck(), "fortress"]}, 11, "vs_com", "heuristic", 0.0, store
    )
    play_session(session, 15)
    assert session.recorder is not None
    match_id = session.recorder.match_id
    live_hash = session.live.state_hash()
    store.close()  # the server stops
    with MatchStore(path) as again:  # and starts again
        restored = Session.restore(again, match_id)
        assert restored.live.state_hash() == live_hash
        assert again.check(match_id) is None  # every recorded hash verified
        play_session(restored, 5)  # and the game goes on, still recorded
        assert again.check(match_id) is None


def _as_an_older_store_wrote_it(path: Path) -> None:
    """Rewrite the file as version 2 code left it: configs with sorted keys, no identity."""
    conn = sqlite3.connect(path)
    for match_id, text in conn.execute("SELECT id, config FROM matches").fetchall():
        old = json.dumps(json.loads(text), separators=(",", ":"), sort_keys=True)
        conn.execute("UPDATE matches SET config = ?, meta = '{}' WHERE id = ?", (old, match_id))
    for table in sorted(db.expected_tables(db.SCHEMA_VERSION) - db.expected_tables(2)):
        conn.execute(f"DROP TABLE IF EXISTS {table}")  # the tables of schema 4 and later
    conn.execute("UPDATE schema_version SET version = 2")
    conn.execute("PRAGMA application_id = 0")
    conn.commit()
    conn.close()


def test_old_records_with_a_reordered_custom_deck_are_named(store_file: Path) -> None:
    _as_an_older_store_wrote_it(store_file)
    result = runner.invoke(app, ["store", "check", "1", "2", "--db", str(store_file)])
    assert result.exit_code == 1
    assert result.output.count(db.REORDERED_MESSAGE) == 2
    assert "suspects" not in result.output and "Traceback" not in result.output
    with MatchStore(store_file) as store:
        with pytest.raises(ReplayDivergence, match="reordered custom deck"):
            store.resume(1)
        document = store.export_match(1)
    # The same record exported by an older version (format 1) is named on import too.
    document["format_version"] = 1
    document["match"]["meta"] = {}
    old_export = store_file.parent / "old.json"
    old_export.write_text(json.dumps(document), encoding="utf-8")
    result = runner.invoke(app, ["store", "import", str(old_export), "--db", str(store_file)])
    assert result.exit_code == 1 and db.REORDERED_MESSAGE in result.output


# --- item 8: files that are not the store, damaged, read-only -----------------------------


def _foreign_sqlite(path: Path, wal: bool = False, app_id: int = 0) -> None:
    conn = sqlite3.connect(path)
    if wal:
        conn.execute("PRAGMA journal_mode = WAL")
    if app_id:
        conn.execute(f"PRAGMA application_id = {app_id}")
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.execute("INSERT INTO notes (text) VALUES ('keep me')")
    conn.commit()
    conn.close()


FOREIGN: dict[str, Callable[[Path], object]] = {
    "text file": lambda p: p.write_text("not a database\n", encoding="utf-8"),
    "binary junk": lambda p: p.write_bytes(bytes(range(256)) * 8),
    "other app (rollback journal)": lambda p: _foreign_sqlite(p),
    "other app (WAL)": lambda p: _foreign_sqlite(p, wal=True),
    "other app (application_id)": lambda p: _foreign_sqlite(p, app_id=0x12345678),
    "short SQLite header": lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x00" * 20),
}


@pytest.mark.parametrize("kind", list(FOREIGN))
def test_a_foreign_file_is_refused_and_left_unchanged(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "other.db"
    FOREIGN[kind](path)
    before, files = sha(path), sorted(os.listdir(tmp_path))
    with pytest.raises(db.SchemaError, match=r"other\.db"):
        MatchStore(path)
    for argv in (["store", "list"], ["play", "--no-browser"]):
        result = runner.invoke(app, [*argv, "--db", str(path)])
        assert result.exit_code == 2, result.output
        assert "other.db" in result.output and "Traceback" not in result.output
    assert sha(path) == before  # byte for byte
    assert sorted(os.listdir(tmp_path)) == files  # no -wal, -shm or lock file beside it


def _damage_pages(path: Path) -> None:
    """Overwrite the pages of the matches and their actions (the schema's own pages, which
    grow with every table a version adds, stay readable: the file still opens)."""
    conn = sqlite3.connect(path)
    size = int(conn.execute("PRAGMA page_size").fetchone()[0])
    roots = [
        int(r[0])
        for r in conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE tbl_name IN ('matches', 'actions')"
        )
    ]
    conn.close()
    with path.open("r+b") as handle:
        for page in roots:
            handle.seek((page - 1) * size)
            handle.write(b"\x5a" * size)


@pytest.mark.parametrize("damage", ["pages", "dropped table", "no schema_version"])
def test_a_damaged_store_is_refused_and_left_unchanged(store_file: Path, damage: str) -> None:
    if damage == "pages":
        _damage_pages(store_file)
    else:
        conn = sqlite3.connect(store_file)
        conn.execute("DROP TABLE " + ("actions" if damage == "dropped table" else "schema_version"))
        conn.commit()
        conn.close()
    before = sha(store_file)
    with pytest.raises(db.DamagedStoreError, match="damaged"):
        MatchStore(store_file, verify=True)
    result = runner.invoke(app, ["play", "--no-browser", "--db", str(store_file)])
    assert result.exit_code == 2 and "damaged" in result.output
    assert "Traceback" not in result.output
    for argv in (["store", "list"], ["store", "show", "1"], ["store", "check", "1"]):
        result = runner.invoke(app, [*argv, "--db", str(store_file)])
        assert result.exit_code == 2, (argv, result.output)
        assert "damaged" in result.output and "Traceback" not in result.output
    assert sha(store_file) == before


def test_damage_found_while_reading_is_a_store_fault(store_file: Path) -> None:
    _damage_pages(store_file)
    with MatchStore(store_file) as store, pytest.raises(StoreFault, match=r"matches\.sqlite3"):
        store.list_matches()


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """Make ``path`` unwritable even for root (the immutable attribute), else chmod."""
    if os.geteuid() == 0:
        if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
            pytest.skip("cannot make a file read-only here (chattr +i failed)")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    else:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)


@pytest.mark.parametrize("what", ["file", "directory"])
def test_a_read_only_store_is_refused_at_start(store_file: Path, what: str) -> None:
    before = sha(store_file)
    with MatchStore(store_file) as store:
        matches = [m.to_json() for m in store.list_matches()]
    with read_only(store_file if what == "file" else store_file.parent):
        with pytest.raises(db.ReadOnlyStoreError, match="read-only"):
            MatchStore(store_file)
        result = runner.invoke(app, ["play", "--no-browser", "--db", str(store_file)])
        assert result.exit_code == 2 and "read-only" in result.output
        assert "Traceback" not in result.output
        # A new store in a read-only directory is refused too, before creating anything.
        if what == "directory":
            with pytest.raises(db.ReadOnlyStoreError):
                MatchStore(store_file.parent / "new.sqlite3")
            assert not (store_file.parent / "new.sqlite3").exists()
    assert sha(store_file) == before
    with MatchStore(store_file) as store:
        assert [m.to_json() for m in store.list_matches()] == matches


# --- item 8: one server per store, its port kept after a crash ---------------------------


def test_the_lock_is_exclusive_and_never_stale(tmp_path: Path) -> None:
    path = tmp_path / "locked.sqlite3"
    first = MatchStore(path, exclusive=True)
    with pytest.raises(StoreLockedError, match=rf"pid {os.getpid()}"):
        MatchStore(path, exclusive=True)
    MatchStore(path).close()  # other commands share the store freely
    first.close()
    MatchStore(path, exclusive=True).close()  # released with the store
    # A holder killed with SIGKILL: the kernel drops its lock.
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from kessen.store.lock import StoreLock; "
            f"lock = StoreLock({str(path)!r}).acquire(); print('held', flush=True); "
            "time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
    with pytest.raises(StoreLockedError, match=rf"pid {holder.pid}"):
        StoreLock(str(path)).acquire()
    holder.kill()
    holder.wait(timeout=10)
    lock = StoreLock(str(path)).acquire()
    assert lock.held
    lock.release()


def start_server(db_path: Path, port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kessen.cli",
            "play",
            "--no-browser",
            "--pace",
            "0",
            "--port",
            str(port),
            "--db",
            str(db_path),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def wait_up(process: subprocess.Popen[bytes], url: str) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx2.get(f"{url}/api/meta", timeout=1).raise_for_status()
            return
        except httpx2.HTTPError as err:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                output = process.stdout.read() if process.stdout else b""
                raise RuntimeError(f"server did not start: {output!r}") from err
            time.sleep(0.1)


def human_view(ws_url: str) -> dict[str, Any]:
    """The first view in which the human seat 0 must decide (COM, at pace 0, then waits)."""
    with connect(ws_url) as ws:
        while True:
            message = json.loads(ws.recv(timeout=20))
            assert message["type"] != "error", message
            if message["type"] == "state":
                view: dict[str, Any] = message["view"]
                if view["pending"] is None or view["pending"]["seat"] == 0:
                    return view


def test_kill_9_then_restart_on_the_same_port_with_the_game(tmp_path: Path) -> None:
    database = tmp_path / "server.sqlite3"
    port = run.free_port(0)
    url = f"http://127.0.0.1:{port}"
    server = start_server(database, port)
    try:
        wait_up(server, url)
        game = httpx2.post(f"{url}/api/games", json={"mode": "vs_com", "seed": 3}).json()
        ws_url = url.replace("http", "ws") + f"/ws/{game['id']}?token={game['token']}"
        before = human_view(ws_url)
        # A second server on the same store is refused, and changes nothing.
        with MatchStore(database) as store:
            matches = [m.to_json() for m in store.list_matches()]
        second = subprocess.run(
            [sys.executable, "-m", "kessen.cli", "play", "--no-browser", "--db", str(database)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 2
        assert f"another Kessen server (pid {server.pid})" in second.stderr
        assert "Traceback" not in second.stderr + second.stdout
        # The port held by a live server: refused when asked for, with the reason.
        third = subprocess.run(
            [*PLAY, "--no-browser", "--no-store", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert third.returncode == 2
        assert f"port {port} is in use by another program" in third.stderr
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
    # The old connections linger: a plain bind (the old probe) fails, so the old code moved.
    probe = socket.socket()
    with pytest.raises(OSError):
        probe.bind(("127.0.0.1", port))
    probe.close()
    with MatchStore(database) as store:
        assert [m.to_json() for m in store.list_matches()] == matches
    restarted = start_server(database, port)
    try:
        wait_up(restarted, url)  # the same port, so the same origin as the browser's page
        after = human_view(ws_url)
        assert after["pending"]["prompt_id"] == before["pending"]["prompt_id"]
        assert [e["text"] for e in after["log"]] == [e["text"] for e in before["log"]]
    finally:
        restarted.terminate()
        restarted.wait(timeout=10)


def test_the_default_port_held_by_another_program_falls_back_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        held = other.getsockname()[1]
        monkeypatch.setattr(run, "DEFAULT_PORT", held)
        notice: list[str] = []
        with run.listening_socket(None, notice=notice) as sock:
            assert sock.getsockname()[1] != held
        assert notice and f"port {held} is in use by another program" in notice[0]
        with pytest.raises(run.PortInUseError):
            run.listening_socket(held)


def test_the_port_accepts_connections_from_the_moment_it_is_bound() -> None:
    """The URL is printed before the application has started: a browser or script that
    connects at once waits in the backlog instead of being refused."""
    with run.listening_socket(0) as sock:
        port = sock.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
            client.sendall(b"GET / HTTP/1.0\r\n\r\n")
        accepted, _ = sock.accept()  # the connection waited for the server
        with accepted:
            assert accepted.recv(64).startswith(b"GET / ")


# --- item 5 (end): the exported HTML replay is escaped ----------------------------------

HOSTILE = '<!-- </script><script>document.title="pwned"</script> & \u2028 \u2029 <b>x</b>'


class _Scripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.blocks: list[tuple[dict[str, str | None], str]] = []
        self._attrs: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self._attrs = dict(attrs)
            self.blocks.append((self._attrs, ""))

    def handle_data(self, data: str) -> None:
        if self._attrs is not None:
            attrs, text = self.blocks[-1]
            self.blocks[-1] = (attrs, text + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._attrs = None


def test_hostile_deck_names_neither_blank_nor_break_the_html_replay(tmp_path: Path) -> None:
    path = tmp_path / "html.sqlite3"
    with MatchStore(path) as store:
        session = Session.create(
            "kobo",
            {"decks": [swarm_deck(HOSTILE), "fortress"]},
            5,
            "vs_com",
            "heuristic",
            0.0,
            store,
        )
        play_session(session, 20)
        assert session.recorder is not None
        match_id = session.recorder.match_id
        # Unfinished: its owner names the views (no one else may see any).
        page = html_replay.render(store, match_id, "en", seats=["0", "1", "all"], title=HOSTILE)
        data = html_replay.build(store, match_id, "en", seats=["0", "1", "all"])
    parser = _Scripts()
    parser.feed(page)
    # The import map, the data and the entry module: nothing injected.
    assert [attrs.get("type") for attrs, _ in parser.blocks] == [
        "importmap",
        "application/json",
        "module",
    ]
    (_, imports), (attrs, text), _ = parser.blocks
    assert attrs.get("id") == html_replay.EXPORT_ID and json.loads(text) == data
    assert "<" not in text + imports and "\u2028" not in text + imports
    assert HOSTILE not in page.replace(html.escape(HOSTILE), "")  # only the <title>, escaped
    replay = html_replay.unpacked(data["answers"][f"/api/matches/{match_id}/replay?seat=0&lang=en"])
    assert replay["match"]["decks"][0] == HOSTILE  # kept, not blanked
    _in_the_browser_if_there_is_one(tmp_path / "replay.html", page)


def _in_the_browser_if_there_is_one(target: Path, page: str) -> None:
    chromium = shutil.which("chromium") or (
        "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None
    )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return
    if chromium is None:
        return
    target.write_text(page, encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=chromium, args=["--headless=new", "--no-sandbox", "--disable-gpu"]
        )
        try:
            tab = browser.new_page()
            errors: list[str] = []
            tab.on("pageerror", lambda err: errors.append(str(err)))
            tab.goto(target.as_uri())
            tab.wait_for_function("() => window.kobo && window.kobo.replay && window.kobo.view")
            tab.wait_for_function(
                "() => document.body.dataset.rendered === String(window.kobo.stateSeq)"
            )
            assert errors == []
            assert tab.title() != "pwned"
            assert "<b>x</b>" in tab.inner_text("#game")  # shown as text, not as markup
            assert tab.locator("#game b:text-is('x')").count() == 0
        finally:
            browser.close()

"""A process killed with SIGKILL while recording loses no committed action; the game resumes.

A child process plays a COM match and records it action by action (one transaction each).
It reports every committed step on stdout. The parent kills it with SIGKILL

- while a chain prompt is pending (the child waits there), and
- at an arbitrary moment while it writes as fast as it can (likely inside a transaction).

The store must pass its integrity check (SQLite's; PostgreSQL keeps its own pages), list the
match as unfinished, hold every step the child reported, verify on replay, and resume to the
very end the uninterrupted match reaches (the COM players are seeded by game seed and prompt
id, like server sessions). Both run on an SQLite file and on a PostgreSQL store.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kessen.store import MatchStore, Recorder
from tests.store.helpers import com_action, play_plain

SEED = 8
CHILD = """
import sys, time
from kessen.engine import registry
from kessen.store import MatchStore, Recorder
from tests.store.helpers import com_action, config

path, seed, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
store = MatchStore(path)
cfg = config(best_of=3)
state = registry.get("kobo").new_game(cfg, seed)
recorder = Recorder.start(store, state, cfg, seed, players={0: "heuristic", 1: "heuristic"},
                          source="server")
print("match", recorder.match_id, flush=True)
while state.pending is not None:
    action = com_action(state, seed)
    state.apply(action)
    recorder.record(action, state)
    pending = state.pending
    print("step", recorder.step, pending.prompt if pending else "over", flush=True)
    if mode == "chain" and pending is not None and pending.prompt == "chain" and recorder.step > 20:
        print("waiting", flush=True)
        time.sleep(60)
print("done", flush=True)
"""

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")


def _run_and_kill(path: str, mode: str, kill_after_steps: int) -> tuple[int, int, str]:
    """Start the child, kill it with SIGKILL; return (match id, last reported step, prompt)."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{root / 'src'}"}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, path, str(SEED), mode],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=root,
    )
    assert child.stdout is not None
    match_id = -1
    last = 0
    prompt = ""
    deadline = time.monotonic() + 120
    try:
        for line in child.stdout:
            words = line.split()
            if words[0] == "match":
                match_id = int(words[1])
            elif words[0] == "step":
                last, prompt = int(words[1]), words[2]
                if mode == "race" and last >= kill_after_steps:
                    break
            elif words[0] == "waiting":
                break
            elif words[0] == "done":
                pytest.fail("the child finished the match before it was killed")
            assert time.monotonic() < deadline
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    return match_id, last, prompt


def _resume_and_finish(path: str, match_id: int) -> tuple[list[str], str]:
    with MatchStore(path) as store:
        assert [m.id for m in store.unfinished(source="server")] == [match_id]
        recorder, state = Recorder.resume(store, match_id)  # verifies every stored hash
        while state.pending is not None:
            action = com_action(state, SEED)
            state.apply(action)
            recorder.record(action, state)
        assert store.unfinished() == []
        assert store.check(match_id) is None
        return store.load_replay(match_id).actions, state.state_hash()


def _integrity_ok(path: str) -> None:
    if path.startswith("postgresql://"):
        return
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_killed_while_a_chain_is_pending_resumes_with_nothing_lost(store_target: str) -> None:
    path = store_target
    match_id, last, prompt = _run_and_kill(path, "chain", 0)
    assert prompt == "chain"
    _integrity_ok(path)
    with MatchStore(path) as store:
        replay, state = store.resume(match_id)
        assert len(replay.actions) == last  # every reported action is there, nothing more
        assert state.pending is not None and state.pending.prompt == "chain"
    actions, final_hash = _resume_and_finish(path, match_id)
    expected, final = play_plain(SEED, best_of=3)
    assert actions == expected
    assert final_hash == final.state_hash()


def test_killed_at_any_moment_loses_at_most_the_action_in_flight(store_target: str) -> None:
    path = store_target
    match_id, last, _ = _run_and_kill(path, "race", 45)
    _integrity_ok(path)
    with MatchStore(path) as store:
        stored = len(store.load_replay(match_id).actions)
    # The child went on writing while the kill was on its way: more may be stored, never less
    # than it had reported committed.
    assert stored >= last
    actions, final_hash = _resume_and_finish(path, match_id)
    expected, final = play_plain(SEED, best_of=3)
    assert actions == expected
    assert final_hash == final.state_hash()

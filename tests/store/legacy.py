"""The records of ``tests/store/data/v4-store.sqlite3``, a store written by the code of schema
version 4 before the store ran on PostgreSQL (``tests/store/data/make_v4_store.py``).

:func:`write_fixed` writes records that depend on nothing but their inputs (explicit hashes,
times, card snapshot): the same calls made by today's code must write the same rows, byte for
byte. :func:`write_played` adds matches played and recorded under the rules of that day. Only
calls that code had are used here.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, Final

from kessen.engine import registry
from kessen.engine.contract import Outcome
from kessen.engine.replay import Replay
from kessen.store import MatchStore, NewMatch, Recorder

FIXTURE: Final = Path(__file__).parent / "data" / "v4-store.sqlite3"
FIXED_MATCHES: Final = 4
"""The match ids :func:`write_fixed` uses, 1 to 4 (on SQLite, the simulated game takes the id
of the match deleted before it, as SQLite reuses the largest id once it is gone)."""
TABLES: Final = (
    "schema_version",
    "matches",
    "actions",
    "blobs",
    "card_data",
    "sim_runs",
    "sim_games",
    "saved_decks",
)
CLOCK_COLUMNS: Final = {"sim_runs": ("created", "finished"), "saved_decks": ("created", "updated")}
"""Columns written from the clock (not from the calls' inputs)."""
CUSTOM: Final = {"slug": "mine", "name_ja": "自分の山", "main": {"b-card": 2, "a-card": 1}}


def _replay(ruleset: str, config: Any, seed: int, actions: list[str]) -> Replay:
    hashes = {0: "h0", len(actions): f"h{len(actions)}"}
    return Replay(ruleset, config, seed, actions, "9.9.9", "legacy-data", hashes)


def write_fixed(store: MatchStore) -> None:
    """Matches 1 to 4 (a fifth deleted), a simulation run and saved decks from fixed inputs."""
    config = {"decks": [CUSTOM, "swarm"], "best_of": 1, "turn_limit": 30}
    store.add_match(
        NewMatch(
            replay=_replay("kobo", config, 41, ["pick a-card", "pass", "take b-card"]),
            players={"0": "human", "1": "heuristic"},
            source="server",
            outcome=Outcome(1, "wiped"),
            results=[[1, "wiped", 5]],
            events0=11,
            events=[1, None, 4_294_967_295],
            decks=[{"slug": "mine", "cards": ["b-card", "a-card"]}, {"slug": "swarm"}],
            meta={"z": 1, "a": [1, "日本語"]},
            created=1_700_000_000.25,
            finished=1_700_000_060.5,
            cards={"a-card": {"lv": 1}, "b-card": {"lv": 2, "kind": "character"}},
        )
    )
    store.add_match(
        NewMatch(
            replay=_replay("twgp", {}, 2**63 - 25, ["play s10", "pass"]),
            players={"0": "heuristic", "1": "random"},
            source="branch",
            created=1_700_000_100.0,
            parent=(1, 2),
            cards={"s10": {"value": 10}},
        )
    )
    store.add_match(
        NewMatch(
            replay=_replay("maken", {"decks": ["SO", "GA"]}, 7, []),
            source="import",
            meta={"imported": {"source": "play", "id": 12, "parent": None}},
            created=1_700_000_200.0,
        )
    )
    doomed = store.add_match(
        NewMatch(replay=_replay("kobo", {"decks": ["tempo", "swarm"]}, 1, []), created=1.0)
    )
    store.delete_match(doomed)
    store.update_meta(1, {"seat": 0, "z": None})
    run = store.sim_run("legacy-run", {"b": 1, "a": [1, 2], "name": "試合"})
    store.record_sim_game(
        run,
        0,
        {"index": 0, "winner": 1},
        NewMatch(
            replay=_replay("kobo", {"decks": ["fortress", "tempo"]}, 99, ["pass"]),
            players={"0": "random", "1": "random"},
            outcome=Outcome(None, "turn_limit"),
            results=[[-1, "turn_limit", 30]],
            created=1_700_000_300.0,
            finished=1_700_000_301.0,
        ),
    )
    store.record_sim_game(run, 1, {"index": 1, "winner": 0}, None)
    store.record_sim_game(run, 1, {"index": 1, "winner": 1, "again": True}, None)
    store.finish_sim_run(run)
    decks = store.saved_decks()
    kept = decks.save("kobo", "  My   deck ", {"slug": "mine", "main": {"z": 2, "a": 1}})
    gone = decks.save("maken", "x", {"character": "SO"})
    decks.update(kept, name="Renamed", deck={"slug": "mine", "main": {"a": 2}})
    decks.delete(gone)
    decks.save("kobo", "Third", {"slug": "third"})


def write_played(store: MatchStore) -> None:
    """A Kōbō match played and recorded action by action, a branch of it, and an unfinished
    match undone and played on (under the rules of the day it was written)."""
    rules = registry.get("kobo")
    config = {"decks": ["swarm", "tempo"], "best_of": 1}
    players = {s: rules.players["heuristic"](5 + s) for s in (0, 1)}
    state = rules.new_game(config, 5)
    recorder = Recorder.start(store, state, config, 5, players={0: "heuristic", 1: "heuristic"})
    while (pending := state.pending) is not None:
        action = players[pending.seat].choose(state.view(pending.seat), state.legal_actions())
        state.apply(action)
        recorder.record(action, state)
    store.branch(recorder.match_id, 5)
    state = rules.new_game(config, 6)
    recorder = Recorder.start(store, state, config, 6, players={0: "human", 1: "heuristic"})
    states = [state.clone()]
    for _ in range(8):
        pending = state.pending
        assert pending is not None
        action = players[pending.seat].choose(state.view(pending.seat), state.legal_actions())
        state.apply(action)
        recorder.record(action, state)
        states.append(state.clone())
    recorder.undo_to(4, states[4])


def rows(path: str | Path, *, clock: bool = True) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of an SQLite store, in key order, read with ``sqlite3`` alone
    (``clock=False``: without the columns written from the clock)."""
    conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
    try:
        out: dict[str, list[tuple[Any, ...]]] = {}
        for table in TABLES:
            names = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
            if not clock:
                names = [n for n in names if n not in CLOCK_COLUMNS.get(table, ())]
            query = f"SELECT {', '.join(names)} FROM {table} ORDER BY {', '.join(names)}"
            out[table] = [tuple(r) for r in conn.execute(query)]
        return out
    finally:
        conn.close()

"""The match store: every game kept and replayable (SQLite or PostgreSQL), its exchange formats
and checks.

- :mod:`kessen.store.records`: :class:`MatchStore` and :class:`Recorder` (the API, in one import);
- :mod:`kessen.store.model`: the record types (listed, stored, to insert) and the store's errors;
- :mod:`kessen.store.match_store`: :class:`MatchStore`, the queries, the same on both databases;
- :mod:`kessen.store.recorder`: :class:`Recorder`, a match written while it is played;
- :mod:`kessen.store.encoding`: how values are written into the store's columns;
- :mod:`kessen.store.backend`: the two databases behind one interface (and their concurrency);
- :mod:`kessen.store.db`: the SQLite file, its settings, the versioned schema and its migrations;
- :mod:`kessen.store.postgres`: the same schema on PostgreSQL, its connection and messages;
- :mod:`kessen.store.lock`: a server's hold on its store (one server per store);
- :mod:`kessen.store.copy`: a whole store copied into an empty one, every record verified;
- :mod:`kessen.store.pg_server`: a throwaway local PostgreSQL server (tests, benchmarks);
- :mod:`kessen.store.exchange`: one match as one JSON file (export/import);
- :mod:`kessen.store.html_replay`: one match as one self-contained HTML replay;
- :mod:`kessen.store.integrity`: where and why a record no longer replays;
- :mod:`kessen.store.card_sets`: designers' card sets, their revisions and changelogs.
"""

from kessen.store.records import (
    ActionRow,
    MatchInfo,
    MatchRecord,
    MatchStore,
    NewMatch,
    Recorder,
    StoreError,
)

__all__ = [
    "ActionRow",
    "MatchInfo",
    "MatchRecord",
    "MatchStore",
    "NewMatch",
    "Recorder",
    "StoreError",
]

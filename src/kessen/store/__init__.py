"""The match store: every game kept and replayable (SQLite), its exchange formats and checks.

- :mod:`kessen.store.records`: :class:`MatchStore` and :class:`Recorder` (the API, in one import);
- :mod:`kessen.store.model`: the record types (listed, stored, to insert) and the store's errors;
- :mod:`kessen.store.match_store`: :class:`MatchStore`, the queries on the SQLite file;
- :mod:`kessen.store.recorder`: :class:`Recorder`, a match written while it is played;
- :mod:`kessen.store.encoding`: how values are written into the store's columns;
- :mod:`kessen.store.db`: the file, its settings, the versioned schema and its migrations;
- :mod:`kessen.store.exchange`: one match as one JSON file (export/import);
- :mod:`kessen.store.html_replay`: one match as one self-contained HTML replay;
- :mod:`kessen.store.integrity`: where and why a record no longer replays.
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

"""The match store: every game kept and replayable (SQLite), its exchange formats and checks.

- :mod:`kessen.store.records`: :class:`MatchStore` and :class:`Recorder` (the API);
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

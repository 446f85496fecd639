"""The match store API in one import: every match and game kept, action by action, in SQLite
or PostgreSQL.

>>> store = MatchStore(":memory:")
>>> from kessen.engine import registry
>>> rules = registry.get("kobo")
>>> config = {"decks": ["swarm", "tempo"], "best_of": 1}
>>> state = rules.new_game(config, 7)
>>> recorder = Recorder.start(store, state, config, 7, players={1: "random"})
>>> action = state.legal_actions()[0]
>>> state.apply(action)
>>> recorder.record(action, state)
>>> store.load_replay(recorder.match_id).actions == [str(action)]
True

The parts live in their own modules:

- :mod:`kessen.store.model`: the record types (:class:`MatchInfo`, :class:`MatchRecord`,
  :class:`NewMatch`, :class:`ActionRow`) and the store's errors;
- :mod:`kessen.store.match_store`: :class:`MatchStore`, the queries (either database);
- :mod:`kessen.store.recorder`: :class:`Recorder`, a match written while it is played;
- :mod:`kessen.store.encoding`: how values are written into the columns.
"""

from kessen.store.match_store import MatchStore
from kessen.store.model import (
    NO_RESULT,
    STATES,
    ActionRow,
    MatchInfo,
    MatchRecord,
    NewMatch,
    StoreError,
    StoreFault,
    deck_labels,
)
from kessen.store.recorder import Recorder

__all__ = [
    "NO_RESULT",
    "STATES",
    "ActionRow",
    "MatchInfo",
    "MatchRecord",
    "MatchStore",
    "NewMatch",
    "Recorder",
    "StoreError",
    "StoreFault",
    "deck_labels",
]

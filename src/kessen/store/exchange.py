"""One match as one JSON file: export from a store, import into another, nothing lost.

The file holds the replay record (config, seed, actions, state hashes, engine version, card
data hash), the per-step event digests, the result, the players and the definitions of the
cards the match uses as they were when it was recorded (the whole snapshot for a ruleset
without deck lists, such as TWGP), so a replay in another store can still say which card
changed (:mod:`kessen.store.integrity`)::

    {"format": "kessen-match", "format_version": 1,
     "match": {...}, "replay": {...}, "events": [events0, e1, ...], "cards": {...}}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from kessen.engine.contract import Json, Outcome
from kessen.engine.replay import Replay
from kessen.store.records import MatchRecord, MatchStore, NewMatch, StoreError

FORMAT: Final = "kessen-match"
FORMAT_VERSION: Final = 1


class ExchangeError(ValueError):
    """A file that is not a Kessen match export (the message says what is wrong)."""


def _names(value: Any) -> Iterable[str]:
    """Every string in ``value``, mapping keys included (deck lists key cards by slug)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from _names(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _names(item)


def _iso(stamp: float | None) -> str | None:
    return None if stamp is None else datetime.fromtimestamp(stamp).astimezone().isoformat()


def _stamp(text: Any) -> float | None:
    if text is None:
        return None
    if isinstance(text, int | float):
        return float(text)
    return datetime.fromisoformat(str(text)).timestamp()


def to_json(record: MatchRecord, cards: Mapping[str, Json] | None = None) -> Json:
    """The export document of a stored match (``cards``: the recorded card snapshot)."""
    info = record.info
    used: dict[str, Json] = {}
    if cards:
        for name in _names([record.decks, record.config]):
            if name in cards:
                used[name] = cards[name]
        if record.decks is None and not used:
            # A ruleset without deck lists (TWGP: each seat plays its half of the pack): the
            # match may use any card of the snapshot.
            used = dict(cards)
    events = [record.events0] + [row.events for row in record.actions]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "match": {
            "id": info.id,
            "source": info.source,
            "players": info.players,
            "decks": record.decks,
            "created": _iso(info.created),
            "finished": _iso(info.finished),
            "winner": info.winner,
            "reason": info.reason,
            "results": record.results,
            "parent": list(info.parent) if info.parent else None,
            "meta": record.meta,
        },
        "replay": record.replay().to_json(),
        "events": events if any(e is not None for e in events) else None,
        "cards": used or None,
    }


def export_match(store: MatchStore, match_id: int) -> Json:
    """The export document of match ``match_id``."""
    record = store.get(match_id)
    cards = store.recorded_cards(record.info.ruleset, record.info.data_hash)
    return to_json(record, cards)


def dumps(document: Json) -> str:
    """The document as JSON text (UTF-8, one field per line)."""
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def write(store: MatchStore, match_id: int, path: str | Path) -> Path:
    """Export match ``match_id`` to ``path``; return the path."""
    target = Path(path)
    target.write_text(dumps(export_match(store, match_id)), encoding="utf-8")
    return target


def _check(document: Any) -> Json:
    if not isinstance(document, dict):
        raise ExchangeError("not a match export: expected a JSON object")
    if document.get("format") != FORMAT:
        raise ExchangeError(f"not a match export: 'format' is not {FORMAT!r}")
    version = document.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise ExchangeError(
            f"match export format version {version!r} is not supported (up to {FORMAT_VERSION})"
        )
    if not isinstance(document.get("replay"), dict) or not isinstance(document.get("match"), dict):
        raise ExchangeError("a match export needs 'match' and 'replay' objects")
    return document


def from_json(document: Any) -> NewMatch:
    """The match of an export document, ready for :meth:`MatchStore.add_match`.

    The imported match keeps its times, players, result and hashes; its source becomes
    ``import`` (the original source and id are kept in ``meta["imported"]``).
    """
    doc = _check(document)
    try:
        replay = Replay.from_json(doc["replay"])
    except (KeyError, TypeError, ValueError) as err:
        raise ExchangeError(f"the replay record is malformed: {err}") from None
    match = doc["match"]
    events = doc.get("events") or []
    finished = _stamp(match.get("finished"))
    reason = match.get("reason")
    outcome = Outcome(match.get("winner"), reason) if finished is not None and reason else None
    meta = dict(match.get("meta") or {})
    meta["imported"] = {
        "source": match.get("source"),
        "id": match.get("id"),
        "parent": match.get("parent"),
    }
    return NewMatch(
        replay=replay,
        players=dict(match.get("players") or {}),
        source="import",
        outcome=outcome,
        results=match.get("results"),
        events0=events[0] if events else None,
        events=list(events[1:]),
        decks=match.get("decks"),
        meta=meta,
        created=_stamp(match.get("created")),
        finished=finished,
        cards=doc.get("cards") or None,
    )


def import_match(store: MatchStore, document: Any) -> int:
    """Add the match of an export document to ``store``; return its new id."""
    return store.add_match(from_json(document))


def read(store: MatchStore, path: str | Path) -> int:
    """Import the match exported to ``path``; return its new id."""
    source = Path(path)
    try:
        document = json.loads(source.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise ExchangeError(f"{source}:{err.lineno}:{err.colno}: not JSON: {err.msg}") from None
    try:
        return import_match(store, document)
    except StoreError as err:
        raise ExchangeError(f"{source}: {err}") from None

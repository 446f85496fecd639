"""One match as one JSON file: export from a store, import into another, nothing lost.

The file holds the replay record (config, seed, actions, state hashes, engine version, card
data hash), the per-step event digests, the result, the players and the definitions of the
cards the match uses as they were when it was recorded (the whole snapshot for a ruleset
without deck lists, such as TWGP), so a replay in another store can still say which card
changed (:mod:`kessen.store.integrity`)::

    {"format": "kessen-match", "format_version": 2,
     "match": {...}, "replay": {...}, "events": [events0, e1, ...], "cards": {...}}

A match played with a designer's card set (``card_set`` in its config) carries the set's data,
``"card_set": {"ruleset", "ref", "data"}`` (the canonical TOML whose hash the reference
names), so it replays in a store that never held the set; the import keeps the data with the
match. A store that lost the set's data refuses to export such a match, saying why.

An import checks every field's type and, unless told not to, replays the record and verifies
every state hash it carries: a tampered record is refused, naming the first step that differs.
Version 2 keeps the config's key order; a version 1 file holding an inline (custom) deck came
from a store that sorted the deck's cards, so it is flagged as such
(:data:`~kessen.store.db.REORDERED_KEY`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from kessen.engine import card_sets
from kessen.engine.action import Action, ActionParseError
from kessen.engine.contract import Json, Outcome, RulesError
from kessen.engine.replay import Replay, ReplayDivergence
from kessen.store import db
from kessen.store.records import MatchRecord, MatchStore, NewMatch, StoreError

FORMAT: Final = "kessen-match"
FORMAT_VERSION: Final = 2


class ExchangeError(ValueError):
    """A file that is not a Kessen match export (the message says what is wrong)."""


class ImportDivergence(ExchangeError):
    """An export whose record does not replay as recorded: tampered, or recorded under other
    rules or cards. ``step`` is the first step that differs."""

    def __init__(self, step: int, detail: str) -> None:
        super().__init__(
            f"{detail}; refused: the record does not replay as recorded (import it unverified "
            "with --no-verify if you trust it)"
        )
        self.step = step
        self.detail = detail


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


def _stamp(text: Any, name: str) -> float | None:
    """A time field of an export (ISO 8601 text, or seconds since the epoch)."""
    if text is None:
        return None
    try:
        if isinstance(text, int | float) and not isinstance(text, bool):
            value = float(text)
        elif isinstance(text, str):
            value = datetime.fromisoformat(text).timestamp()
        else:
            raise TypeError(type(text).__name__)
        datetime.fromtimestamp(value)  # in the range of dates this machine can show
    except (TypeError, ValueError, OverflowError, OSError) as err:
        raise ExchangeError(f"'match.{name}' is not a date and time: {text!r} ({err})") from None
    if not math.isfinite(value):
        raise ExchangeError(f"'match.{name}' is not a date and time: {text!r}")
    return value


def replay_record(item: Any) -> Replay:
    """A replay record from its JSON form, every field's type and every action's text checked
    (:class:`ExchangeError` names the first bad one)."""
    if not isinstance(item, dict):
        raise ExchangeError("the replay record is malformed: expected an object")
    if not isinstance(item.get("ruleset"), str) or not isinstance(item.get("config"), dict):
        raise ExchangeError(
            "the replay record is malformed: 'ruleset' must be a name and 'config' an object"
        )
    seed = item.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ExchangeError("the replay record is malformed: 'seed' must be an integer")
    actions = item.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise ExchangeError("the replay record is malformed: 'actions' must be action texts")
    hashes = item.get("hashes", {})
    if not isinstance(hashes, dict) or not all(isinstance(h, str) for h in hashes.values()):
        raise ExchangeError("the replay record is malformed: 'hashes' must map steps to texts")
    for key in ("version", "data_hash"):
        if not isinstance(item.get(key, ""), str):
            raise ExchangeError(f"the replay record is malformed: '{key}' must be a text")
    for step, text in enumerate(actions, start=1):
        try:
            Action.parse(text)
        except ActionParseError as err:
            raise ExchangeError(f"the replay record is malformed: step {step}: {err}") from None
    try:
        return Replay.from_json(item)
    except (KeyError, TypeError, ValueError) as err:
        raise ExchangeError(f"the replay record is malformed: {err}") from None


def _inline_deck(config: Json) -> bool:
    decks = config.get("decks")
    return isinstance(decks, list) and any(isinstance(d, dict) for d in decks)


def to_json(
    record: MatchRecord,
    cards: Mapping[str, Json] | None = None,
    card_set: tuple[str, str] | None = None,
) -> Json:
    """The export document of a stored match (``cards``: the recorded card snapshot;
    ``card_set``: the reference and canonical TOML of the set it was played with)."""
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
        **(
            {"card_set": {"ruleset": info.ruleset, "ref": card_set[0], "data": card_set[1]}}
            if card_set is not None
            else {}
        ),
    }


def export_match(store: MatchStore, match_id: int) -> Json:
    """The export document of match ``match_id``."""
    record = store.get(match_id)
    cards = store.recorded_cards(record.info.ruleset, record.info.data_hash)
    return to_json(record, cards, _played_set(store, record))


def _played_set(store: MatchStore, record: MatchRecord) -> tuple[str, str] | None:
    """The reference and data of the card set ``record`` was played with, if any; a
    :class:`StoreError` when the store no longer holds its data."""
    named = record.config.get(card_sets.SET_KEY)
    if named is None:
        return None
    try:
        ref = card_sets.parse_ref(named)
    except card_sets.CardSetError as err:
        raise StoreError(f"match {record.info.id}: {err}") from None
    text = store.card_sets().revision_text(record.info.ruleset, ref.hash)
    if text is None:
        raise StoreError(
            f"match {record.info.id} was played with card set {ref.short}…, whose data this "
            "store does not hold: it cannot be exported with it (import the set with `kessen "
            "sets import`, then export again)"
        )
    return str(ref), text


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
    replay = replay_record(doc["replay"])
    match = doc["match"]
    events = doc.get("events") or []
    if not isinstance(events, list) or not all(
        e is None or (isinstance(e, int) and not isinstance(e, bool)) for e in events
    ):
        raise ExchangeError("'events' must be a list of event digests (integers or null)")
    players = match.get("players") or {}
    if not isinstance(players, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in players.items()
    ):
        raise ExchangeError("'match.players' must map seats to player names (texts)")
    winner = match.get("winner")
    if winner is not None and (not isinstance(winner, int) or isinstance(winner, bool)):
        raise ExchangeError(f"'match.winner' must be a seat number or null, not {winner!r}")
    reason = match.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise ExchangeError(f"'match.reason' must be a text or null, not {reason!r}")
    results = match.get("results")
    if results is not None and (
        not isinstance(results, list) or not all(isinstance(r, list) for r in results)
    ):
        raise ExchangeError("'match.results' must be a list of per-game lists or null")
    meta = match.get("meta") or {}
    cards = doc.get("cards") or None
    if not isinstance(meta, dict) or not isinstance(cards, dict | None):
        raise ExchangeError("'match.meta' and 'cards' must be objects")
    played = _card_set(doc.get("card_set"), replay)
    finished = _stamp(match.get("finished"), "finished")
    created = _stamp(match.get("created"), "created")
    outcome = Outcome(winner, reason) if finished is not None and reason else None
    meta = dict(meta)
    meta["imported"] = {
        "source": match.get("source"),
        "id": match.get("id"),
        "parent": match.get("parent"),
    }
    if doc["format_version"] < 2 and _inline_deck(replay.config):
        meta[db.REORDERED_KEY] = True  # written by a store that sorted the deck's cards
    return NewMatch(
        replay=replay,
        players=dict(players),
        source="import",
        outcome=outcome,
        results=results,
        events0=events[0] if events else None,
        events=list(events[1:]),
        decks=match.get("decks"),
        meta=meta,
        created=created,
        finished=finished,
        cards=cards,
        card_set=played,
    )


def _card_set(item: Any, replay: Replay) -> tuple[str, str] | None:
    """The card set an export carries (checked against the reference of the record's config
    and made known to the kernel, so the record replays), or ``None``."""
    named = replay.config.get(card_sets.SET_KEY)
    if item is None:
        return None
    if (
        not isinstance(item, dict)
        or not isinstance(item.get("data"), str)
        or item.get("ruleset") != replay.ruleset
    ):
        raise ExchangeError(
            "'card_set' must be an object with the record's ruleset, the set's ref and its data"
        )
    try:
        ref = card_sets.parse_ref(named)
    except card_sets.CardSetError:
        raise ExchangeError(
            "'card_set' is given but the record's config names no card set"
        ) from None
    if item.get("ref") != str(ref) or card_sets.content_hash(item["data"]) != ref.hash:
        raise ExchangeError(
            f"'card_set' does not hold the data of {ref.short}… the record names (its hash "
            "differs): the file was changed"
        )
    card_sets.remember(replay.ruleset, item["data"])
    return replay.ruleset, item["data"]


def verify(new: NewMatch) -> int:
    """Replay an imported match under the current rules; return how many recorded state
    hashes it verified. A record that does not play back as recorded (tampered, or recorded
    under other rules or cards) raises :class:`ImportDivergence` naming the first bad step."""
    replay = new.replay
    try:
        for _ in replay.states(verify=True):
            pass
    except ReplayDivergence as err:
        if new.meta.get(db.REORDERED_KEY):
            raise ImportDivergence(err.step, f"the match was {db.REORDERED_MESSAGE}") from None
        raise ImportDivergence(err.step, str(err)) from None
    except (RulesError, KeyError, TypeError, ValueError, RecursionError) as err:
        raise ImportDivergence(0, f"the rules cannot start this record: {err}") from None
    return len(replay.hashes)


def import_match(store: MatchStore, document: Any, *, check: bool = True) -> int:
    """Add the match of an export document to ``store``; return its new id.

    With ``check`` (the default) the record is first replayed and its hashes verified
    (:func:`verify`): a tampered record is refused and nothing is added.
    """
    new = from_json(document)
    if check:
        verify(new)
    return store.add_match(new)


def load(path: str | Path) -> Any:
    """The JSON document of an export file (:class:`ExchangeError` if it is not JSON)."""
    source = Path(path)
    try:
        return json.loads(source.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise ExchangeError(f"{source}:{err.lineno}:{err.colno}: not JSON: {err.msg}") from None
    except RecursionError:
        raise ExchangeError(f"{source}: JSON nested too deeply to be a match export") from None
    except ValueError as err:  # e.g. an integer with more digits than Python reads
        raise ExchangeError(f"{source}: not a readable JSON file: {err}") from None


def read(store: MatchStore, path: str | Path, *, check: bool = True) -> int:
    """Import the match exported to ``path`` (hashes verified unless ``check`` is false);
    return its new id."""
    source = Path(path)
    document = load(source)
    try:
        return import_match(store, document, check=check)
    except ImportDivergence as err:
        raise ImportDivergence(err.step, f"{source}: {err.detail}") from None
    except ExchangeError as err:
        raise ExchangeError(f"{source}: {err}") from None
    except StoreError as err:
        raise ExchangeError(f"{source}: {err}") from None

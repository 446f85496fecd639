"""Round-robin tournaments of COM players over decks × levels, played in parallel, resumable.

An *entrant* is a deck played by a COM level (a player name of the ruleset's registry); for a
ruleset without decks (its default config names none, e.g. TWGP トランプ版) an entrant is a COM
level alone. ``options`` are config keys of the ruleset set for every game (TWGP's switches of
twgp-trump.md §2.10, e.g. ``{"strictMatrix05": true}``), checked by the ruleset before anything
runs. Every pair of entrants (and each entrant against itself with ``mirror``) plays ``games``
matches, entrant ``a`` taking seat 0 in even games and seat 1 in odd ones. Game ``i`` of the
tournament (numbered over all matchups) gets the seed ``derive_seed(tournament seed, i)``, and
each seat's COM player the seed ``derive_seed(game seed, "seat", seat)``: a game's result
depends on the spec and its index only, never on the backend, the worker or the order of
completion.

Finished games are journaled (to the match store with their full replay, or to a JSONL file):
running the same spec under the same run name again skips the games already done.

``card_set`` plays every game with a designer's card set (``NAME@HASH``, pinned to one
revision: :mod:`kessen.store.card_sets`) instead of the shipped cards; each game's spec carries
the set's data, so a worker process (or a Ray node) that never saw the store plays it. Two
specs that differ only in their card set play the same games from the same seeds: the A/B
comparison of :mod:`kessen.sim.compare`.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from kessen.engine import card_sets, registry
from kessen.engine.contract import Json, Outcome
from kessen.engine.players import Player, RandomPlayer
from kessen.engine.replay import HASH_EVERY, Replay
from kessen.sim.facts import profile
from kessen.sim.stats import aggregate, card_events
from kessen.store.integrity import events_digest
from kessen.store.records import MatchStore, NewMatch

MAX_STEPS: Final = 100_000


class SimError(ValueError):
    """A tournament that cannot run (bad spec, unknown player, journal of another spec)."""


def derive_seed(base: int, *parts: int | str) -> int:
    """A 63-bit seed derived from ``base`` and ``parts`` (stable across runs and machines).

    >>> derive_seed(1, 2) == derive_seed(1, 2) != derive_seed(1, 3)
    True
    """
    text = ":".join(str(p) for p in (base, *parts))
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def _deck_label(deck: str | Json) -> str:
    if isinstance(deck, str):
        return deck
    return str(deck.get("slug") or deck.get("name") or "deck")


def uses_decks(ruleset: str) -> bool:
    """Whether games of ``ruleset`` are configured with decks (its default config has some)."""
    return "decks" in registry.get(ruleset).default_config


DECK_KEYS: Final = frozenset({"decks", "best_of", "turn_limit"})
"""Config keys the simulator sets itself for a ruleset with decks (not allowed as options)."""


def parse_option(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` as a config entry: the value is read as JSON (``true``, ``3``, ``null``,
    ``[...]``), else kept as text.

    >>> parse_option("gridWidth=3"), parse_option("jokers=true"), parse_option("x=abc")
    (('gridWidth', 3), ('jokers', True), ('x', 'abc'))
    """
    key, sep, value = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise SimError(f"--option {text!r}: expected KEY=VALUE, e.g. strictMatrix05=true")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value.strip()


@dataclass(frozen=True)
class Entrant:
    """A deck played by a COM level (``deck`` is ``None`` for a ruleset without decks)."""

    deck: str | None
    player: str

    @property
    def label(self) -> str:
        """``deck/player``, or the player alone without a deck."""
        return self.player if self.deck is None else f"{self.deck}/{self.player}"


@dataclass(frozen=True)
class GameSpec:
    """One game (match) of a tournament, everything a worker needs to play it."""

    index: int
    seed: int
    a: int
    b: int
    seat_a: int
    ruleset: str
    config: Json
    players: tuple[str, str]
    card_set_data: str = ""
    """The canonical data of the card set ``config`` names (empty: none), for the worker."""


@dataclass(frozen=True)
class TournamentSpec:
    """A tournament: decks (starter names or deck objects) × players, ``games`` per matchup.

    ``decks`` is empty for a ruleset without decks: the entrants are then the players alone.
    ``options`` are further config keys of every game (see the module docstring).
    """

    decks: tuple[str | Json, ...]
    players: tuple[str, ...]
    games: int
    seed: int = 0
    best_of: int = 1
    ruleset: str = "kobo"
    mirror: bool = False
    turn_limit: int | None = None
    options: Json = field(default_factory=dict)
    card_set: str = ""
    """The designer's card set every game is played with (``NAME@HASH``), empty: none."""

    def __post_init__(self) -> None:
        if self.games < 1:
            raise SimError("games per matchup must be at least 1")
        if not self.players:
            raise SimError("a tournament needs at least one player")
        if len(self.entrants) < 2 and not self.mirror:
            more = "a deck or a player" if self.decks else "a player"
            raise SimError(f"one entrant only: add {more}, or allow mirror matches (--mirror)")

    @property
    def entrants(self) -> list[Entrant]:
        """Deck × player, deck-major (the players alone without decks)."""
        if not self.decks:
            return [Entrant(None, p) for p in self.players]
        return [Entrant(_deck_label(d), p) for d in self.decks for p in self.players]

    @property
    def matchups(self) -> list[tuple[int, int]]:
        """Pairs of entrant indexes (``a < b``; ``a == b`` too with ``mirror``)."""
        count = len(self.entrants)
        pairs = (
            itertools.combinations_with_replacement(range(count), 2)
            if self.mirror
            else itertools.combinations(range(count), 2)
        )
        return list(pairs)

    def config(self, deck0: str | Json | None = None, deck1: str | Json | None = None) -> Json:
        """The match config of one game (the options alone for a ruleset without decks)."""
        if not self.decks:
            return dict(self.options)
        config: Json = {"decks": [deck0, deck1], "best_of": self.best_of}
        if self.turn_limit is not None:
            config["turn_limit"] = self.turn_limit
        config.update(self.options)
        if self.card_set:
            config[card_sets.SET_KEY] = self.card_set
        return config

    def schedule(self) -> list[GameSpec]:
        """Every game, in index order."""
        decks: list[str | Json | None] = [d for d in self.decks for _ in self.players]
        if not self.decks:
            decks = [None] * len(self.players)
        entrants = self.entrants
        data = self._set_data()
        out: list[GameSpec] = []
        for a, b in self.matchups:
            for k in range(self.games):
                index = len(out)
                seat_a = k % 2
                seats = (a, b) if seat_a == 0 else (b, a)
                out.append(
                    GameSpec(
                        index=index,
                        seed=derive_seed(self.seed, index),
                        a=a,
                        b=b,
                        seat_a=seat_a,
                        ruleset=self.ruleset,
                        config=self.config(decks[seats[0]], decks[seats[1]]),
                        players=(entrants[seats[0]].player, entrants[seats[1]].player),
                        card_set_data=data,
                    )
                )
        return out

    def _set_data(self) -> str:
        """The data of :attr:`card_set` (empty without one)."""
        if not self.card_set:
            return ""
        ref = card_sets.parse_ref(self.card_set)
        return card_sets.require_text(self.ruleset, ref)

    def validate(self) -> None:
        """Refuse unknown players, decks where the ruleset has none (or none where it needs
        them), bad options and configs that cannot start, before anything runs."""
        rules = registry.get(self.ruleset)
        if self.card_set:
            try:
                card_sets.format_for(self.ruleset)
                self._set_data()
            except card_sets.CardSetError as err:
                raise SimError(f"--set: {err}") from None
            taken = sorted({"card_set", "card_data"} & set(self.options))
            if taken:
                raise SimError(f"option {', '.join(taken)}: the card data is chosen with --set")
        for name in self.players:
            if name not in rules.players:
                raise SimError(f"unknown player {name!r}; known: {', '.join(rules.players)}")
        if uses_decks(self.ruleset):
            if not self.decks:
                raise SimError(f"ruleset {self.ruleset} needs decks (--decks)")
            taken = sorted(DECK_KEYS & set(self.options))
            if taken:
                raise SimError(
                    f"option {', '.join(taken)}: set by the simulator "
                    "(use --decks, --best-of, --turn-limit)"
                )
            for deck in self.decks:
                try:
                    rules.new_game(self.config(deck, deck), 0)
                except ValueError as err:
                    raise SimError(f"deck {_deck_label(deck)}: {err}") from None
            return
        if self.decks:
            raise SimError(f"ruleset {self.ruleset} has no decks: give players only (no --decks)")
        if self.best_of != 1:
            raise SimError(f"ruleset {self.ruleset} plays single games: --best-of must be 1")
        if self.turn_limit is not None:
            raise SimError(
                f"--turn-limit is for rulesets with decks; set {self.ruleset}'s own config key "
                "with --option KEY=VALUE"
            )
        try:
            rules.new_game(self.config(), 0)
        except ValueError as err:
            raise SimError(f"{self.ruleset} options: {err}{_switches_hint(self.ruleset)}") from None

    def to_json(self) -> Json:
        """JSON form (the identity of a run: resuming needs the same); ``options`` only when
        there are some, so the runs of earlier versions keep their identity."""
        out: Json = {
            "ruleset": self.ruleset,
            "decks": list(self.decks),
            "players": list(self.players),
            "games": self.games,
            "seed": self.seed,
            "best_of": self.best_of,
            "mirror": self.mirror,
            "turn_limit": self.turn_limit,
        }
        if self.options:
            out["options"] = dict(self.options)
        if self.card_set:
            out["card_set"] = self.card_set
        return out

    @staticmethod
    def from_json(data: Json) -> TournamentSpec:
        """Inverse of :meth:`to_json`."""
        return TournamentSpec(
            decks=tuple(data["decks"]),
            players=tuple(data["players"]),
            games=int(data["games"]),
            seed=int(data.get("seed", 0)),
            best_of=int(data.get("best_of", 1)),
            ruleset=str(data.get("ruleset", "kobo")),
            mirror=bool(data.get("mirror", False)),
            turn_limit=data.get("turn_limit"),
            options=dict(data.get("options") or {}),
            card_set=str(data.get("card_set", "")),
        )


def _switches_hint(ruleset: str) -> str:
    """``; switches: a, b...`` from the ruleset's catalogue, when it lists switches."""
    try:
        switches = registry.get(ruleset).catalog("en").get("switches")
    except Exception:  # a catalogue is a nicety here
        return ""
    if not isinstance(switches, dict) or not switches:
        return ""
    return f" (switches: {', '.join(switches)})"


# --------------------------------------------------------------------------------------------
# Playing one game (runs in the workers)
# --------------------------------------------------------------------------------------------


@dataclass
class GameRecord:
    """A played game: its summary (what the statistics use) and its replay data."""

    spec: GameSpec
    summary: Json
    actions: list[str]
    hashes: dict[int, str]
    events0: int
    events: list[int]
    decks: Any
    version: str
    data_hash: str
    seconds: float
    cpu_seconds: float = 0.0

    def replay(self) -> Replay:
        """The engine's replay record."""
        spec = self.spec
        return Replay(
            spec.ruleset,
            spec.config,
            spec.seed,
            list(self.actions),
            self.version,
            self.data_hash,
            dict(self.hashes),
        )

    def new_match(self, meta: Json) -> NewMatch:
        """The store record of this game."""
        winner = self.summary["winner"]
        return NewMatch(
            replay=self.replay(),
            players={str(s): p for s, p in enumerate(self.spec.players)},
            source="sim",
            outcome=Outcome(winner, self.summary["reason"]),
            results=[[g["winner"], g["reason"], g["turns"]] for g in self.summary["games"]],
            events0=self.events0,
            events=self.events,
            decks=self.decks,
            meta=meta,
        )


def _player_seed(game_seed: int, seat: int) -> int:
    return derive_seed(game_seed, "seat", seat)


def play_game(spec: GameSpec) -> GameRecord:
    """Play one game to its end; the result depends on ``spec`` alone."""
    started = time.perf_counter()
    cpu = time.process_time()
    rules = registry.get(spec.ruleset)
    if spec.card_set_data:
        card_sets.remember(spec.ruleset, spec.card_set_data)
    state = rules.new_game(spec.config, spec.seed)
    players: dict[int, Player] = {
        seat: rules.players[name](_player_seed(spec.seed, seat))
        for seat, name in enumerate(spec.players)
    }
    # The random player ignores its view: skip building it (same choices, much faster).
    blind = {seat: type(p) is RandomPlayer for seat, p in players.items()}
    hashes = {0: state.state_hash()}
    log = state.log_events()
    events0 = events_digest(log)
    seen = len(log)
    actions: list[str] = []
    events: list[int] = []
    while (pending := state.pending) is not None:
        if len(actions) >= MAX_STEPS:
            raise RuntimeError(f"game {spec.index} (seed {spec.seed}) did not end")
        seat = pending.seat
        legal = state.legal_actions()
        view: Json = {} if blind[seat] else state.decision_view(seat)
        action = players[seat].choose(view, legal)
        state.apply(action)
        actions.append(str(action))
        log = state.log_events()
        events.append(events_digest(log[seen:]))
        seen = len(log)
        step = len(actions)
        if step % HASH_EVERY == 0 or state.pending is None:
            hashes[step] = state.state_hash()
    full = [e.visible(None, everything=True) for e in state.log_events()]
    firsts = [e.get("first") for e in full if e.get("kind") == "game_start"]
    sim_profile = profile(spec.ruleset)
    cards = card_events(full) if sim_profile.cards else []
    results = getattr(state, "results", None)
    if results is None:
        results = [
            (r.get("winner"), r.get("reason"), r.get("turns"))
            for r in state.view_all().get("match", {}).get("results", [])
        ]
    outcome = state.outcome
    if not results and outcome is not None:
        # A ruleset whose match is one game: its outcome, and the turn and first player of
        # its public view.
        public = state.view(None)
        results = [(outcome.winner, outcome.reason, public.get("turn"))]
        if not firsts:
            firsts = [public.get("first_player")]
    games: list[Json] = []
    for i, (w, r, t) in enumerate(results):
        game: Json = {"winner": w, "reason": r, "turns": t}
        game["first"] = firsts[i] if i < len(firsts) else None
        if sim_profile.cards:
            game["cards"] = cards[i] if i < len(cards) else []
        games.append(game)
    if sim_profile.facts is not None and len(games) == 1:
        games[0]["facts"] = sim_profile.facts(full)
    snapshot = state.to_json()
    summary: Json = {
        "index": spec.index,
        "seed": spec.seed,
        "a": spec.a,
        "b": spec.b,
        "seat_a": spec.seat_a,
        "players": list(spec.players),
        "winner": None if outcome is None else outcome.winner,
        "reason": None if outcome is None else outcome.reason,
        "steps": len(actions),
        "final_hash": hashes[len(actions)],
        "games": games,
    }
    return GameRecord(
        spec=spec,
        summary=summary,
        actions=actions,
        hashes=hashes,
        events0=events0,
        events=events,
        decks=snapshot.get("config", {}).get("decks"),
        version=rules.version,
        data_hash=rules.data_hash,
        seconds=time.perf_counter() - started,
        cpu_seconds=time.process_time() - cpu,
    )


def play_batch(specs: Sequence[GameSpec]) -> list[GameRecord]:
    """Play several games in a row (one task of a backend)."""
    return [play_game(spec) for spec in specs]


# --------------------------------------------------------------------------------------------
# Journals: what is done, for resuming
# --------------------------------------------------------------------------------------------


class Journal(ABC):
    """Where finished games go; resuming skips the indexes it already holds."""

    name: str

    @abstractmethod
    def done(self) -> dict[int, Json]:
        """Game index → summary (with ``match_id`` where a replay was stored)."""

    @abstractmethod
    def add(self, record: GameRecord) -> Json:
        """Keep a finished game; return its summary as journaled."""

    def finish(self) -> None:  # noqa: B027 - optional hook
        """Called once every game of the run is done."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release files."""


def _meta(name: str, record: GameRecord, labels: Sequence[str]) -> Json:
    spec = record.spec
    return {
        "sim": {"run": name, "index": spec.index, "entrants": [labels[spec.a], labels[spec.b]]},
        "seat_a": spec.seat_a,
        "player_seeds": [_player_seed(spec.seed, s) for s in (0, 1)],
    }


class StoreJournal(Journal):
    """Journal in the match store: each game's replay and summary in one transaction."""

    def __init__(self, store: MatchStore, name: str, spec: TournamentSpec) -> None:
        self.store = store
        self.name = name
        self.labels = [e.label for e in spec.entrants]
        self.run_id = store.sim_run(name, spec.to_json())

    def done(self) -> dict[int, Json]:
        """Summaries of the games already stored for this run."""
        return {i: {**s, "match_id": m} for i, (m, s) in self.store.sim_done(self.run_id).items()}

    def add(self, record: GameRecord) -> Json:
        """Store the replay and the summary together."""
        match = record.new_match(_meta(self.name, record, self.labels))
        match_id = self.store.record_sim_game(self.run_id, record.spec.index, record.summary, match)
        return {**record.summary, "match_id": match_id}

    def finish(self) -> None:
        """Mark the run complete."""
        self.store.finish_sim_run(self.run_id)


class JsonlJournal(Journal):
    """Journal in a JSONL file (first line: the spec; then one summary per game).

    With a ``store``, each game's replay is stored there too (before its journal line: a
    process killed in between stores that game twice on resume, never loses it).
    """

    def __init__(
        self, path: str | Path, spec: TournamentSpec, store: MatchStore | None = None
    ) -> None:
        self.path = Path(path)
        self.name = self.path.stem
        self.store = store
        self.labels = [e.label for e in spec.entrants]
        self._done: dict[int, Json] = {}
        head = {"spec": spec.to_json()}
        if self.path.exists() and self.path.stat().st_size > 0:
            lines = self.path.read_text(encoding="utf-8").splitlines()
            try:
                first = json.loads(lines[0])
            except json.JSONDecodeError:
                first = None
            if first != head:
                raise SimError(f"{self.path}: a journal of another tournament; pick another file")
            for line in lines[1:]:
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    break  # a line cut short by a kill: that game is played again
                self._done[int(entry["index"])] = entry
            # Rewrite without a cut-short tail so that appends start on a fresh line.
            self.path.write_text(
                "\n".join([lines[0], *(json.dumps(e) for e in self._done.values())]) + "\n",
                encoding="utf-8",
            )
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(head) + "\n", encoding="utf-8")
        self._file = self.path.open("a", encoding="utf-8")

    def done(self) -> dict[int, Json]:
        """Summaries already journaled."""
        return dict(self._done)

    def add(self, record: GameRecord) -> Json:
        """Append the summary (and store the replay if there is a store)."""
        match_id = None
        if self.store is not None:
            match_id = self.store.add_match(record.new_match(_meta(self.name, record, self.labels)))
        entry = {**record.summary, "match_id": match_id}
        self._file.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self._file.flush()
        self._done[record.spec.index] = entry
        return entry

    def close(self) -> None:
        """Close the file."""
        self._file.close()


class MemoryJournal(Journal):
    """No journal: results kept in memory only (tests, benchmarks)."""

    def __init__(self, name: str = "memory") -> None:
        self.name = name
        self._done: dict[int, Json] = {}

    def done(self) -> dict[int, Json]:
        """Summaries so far."""
        return dict(self._done)

    def add(self, record: GameRecord) -> Json:
        """Keep the summary."""
        entry = {**record.summary, "match_id": None}
        self._done[record.spec.index] = entry
        return entry


# --------------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------------


@dataclass
class TournamentResult:
    """A finished (or interrupted) tournament: its games' summaries and statistics."""

    spec: TournamentSpec
    name: str
    summaries: list[Json]
    stats: Json
    played: int
    resumed: int
    seconds: float
    backend: str
    complete: bool = True
    extra: Json = field(default_factory=dict)

    def to_json(self) -> Json:
        """JSON form (the report's data)."""
        return {
            "name": self.name,
            "spec": self.spec.to_json(),
            "entrants": [e.label for e in self.spec.entrants],
            "backend": self.backend,
            "played": self.played,
            "resumed": self.resumed,
            "seconds": round(self.seconds, 3),
            "complete": self.complete,
            "stats": self.stats,
            "games": self.summaries,
            **self.extra,
        }


def result_of(
    spec: TournamentSpec, name: str, summaries: dict[int, Json], **kwargs: Any
) -> TournamentResult:
    """The result object of ``summaries`` (recomputes every statistic)."""
    ordered = [summaries[i] for i in sorted(summaries)]
    stats = aggregate(ordered, spec.matchups, len(spec.entrants))
    total = len(spec.matchups) * spec.games
    return TournamentResult(
        spec=spec,
        name=name,
        summaries=ordered,
        stats=stats,
        complete=len(ordered) == total,
        **kwargs,
    )


def batch_size(todo: int, workers: int) -> int:
    """Games per task: a few tasks per worker, at most 8 games each."""
    return max(1, min(8, todo // max(1, workers * 4)))


ProgressHook = Callable[[int, int, Json], None]


def run(
    spec: TournamentSpec,
    journal: Journal,
    backend: Any = None,
    *,
    progress: ProgressHook | None = None,
    limit: int | None = None,
) -> TournamentResult:
    """Play every game of ``spec`` not yet in ``journal`` on ``backend`` (default: local
    processes on all cores); ``progress(done, total, summary)`` is called after each game.
    ``limit`` stops after that many new games (for tests of resuming)."""
    from kessen.sim.backends import Backend, LocalBackend

    spec.validate()
    started = time.perf_counter()
    done = journal.done()
    resumed = len(done)
    games = spec.schedule()
    todo = [g for g in games if g.index not in done]
    if limit is not None:
        todo = todo[:limit]
    owned = backend is None
    chosen: Backend = LocalBackend() if backend is None else backend
    size = batch_size(len(todo), chosen.workers)
    batches = [todo[i : i + size] for i in range(0, len(todo), size)]
    played = 0
    try:
        for records in chosen.map_unordered(play_batch, batches):
            for record in records:
                entry = journal.add(record)
                done[record.spec.index] = entry
                played += 1
                if progress is not None:
                    progress(len(done), len(games), entry)
    finally:
        if owned:
            chosen.close()
    if len(done) == len(games):
        journal.finish()
    return result_of(
        spec,
        journal.name,
        done,
        played=played,
        resumed=resumed,
        seconds=time.perf_counter() - started,
        backend=chosen.name,
    )

"""Balance runs of the design screen: simulator tournaments started from the browser and played
in the background of the server, journaled in the match store as ``kessen sim`` journals them.

A *run* plays one :class:`~kessen.sim.tournament.TournamentSpec` (a ruleset, card data, decks,
COM levels, games per matchup, a seed, rule switches as ``kessen sim --option`` takes them).
An *A/B run* plays the same schedule twice, with two card data (a designer's set or a shipped
version on each side): the same seeds, entrants and seats, so game *i* of one half pairs with
game *i* of the other (:mod:`kessen.sim.compare`). The halves are the store's simulation runs
``NAME-a`` and ``NAME-b``, exactly as ``kessen sim --compare`` names them, so runs started from
the command line show here too; a run is known by the store id of its (first) simulation run.

:class:`BalanceRuns` keeps a queue: one run plays at a time, in a thread of its own that hands
the games to worker processes at a lower CPU priority than the server (or to Ray when the
server thinks on a Ray cluster), so the event loop never waits for a game. Every finished game
is journaled with its full record in one transaction: a page reload finds the run where it is,
a server that stops (or dies) leaves it *stopped*, and resuming plays only the missing games.
Cancelling stops the worker processes at once; the games already journaled stay.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import multiprocessing
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, Literal

from kessen.engine.card_sets import CardSetError
from kessen.engine.contract import Json
from kessen.server.balance_results import RunRefused, Side, figures, resolve_side, side_of
from kessen.sim.backends import Backend, BackendError, LocalBackend, RayBackend
from kessen.sim.tournament import (
    SimError,
    StoreJournal,
    TournamentSpec,
    run,
)
from kessen.store.records import MatchStore, StoreError

MAX_GAMES: Final = 10_000
"""The most games per matchup a run may ask for."""
MAX_TOTAL: Final = 100_000
"""The most games one run may play in all (both halves of an A/B run)."""
MAX_NAME: Final = 60
"""The longest run name, in characters."""
WORKER_NICENESS: Final = 10
"""How much lower the worker processes' CPU priority is than the server's (``nice``)."""
_NAME_RE: Final = re.compile(r"[^\W_](?:[\w.\-]*[\w.])?")
_HALVES: Final = ("-a", "-b")

State = Literal["queued", "running", "done", "stopped", "failed"]
_log = logging.getLogger(__name__)


# --------------------------------------------------------------------------------------------
# A request
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunRequest:
    """What the run form sends: one card data (a run) or two (an A/B run), and the schedule."""

    ruleset: str
    sides: tuple[str, ...]
    decks: tuple[str, ...]
    players: tuple[str, ...]
    games: int
    seed: int = 0
    best_of: int = 1
    mirror: bool = False
    turn_limit: int | None = None
    options: Json = field(default_factory=dict)
    name: str = ""


def _check_name(name: str, ab: bool) -> str:
    name = name.strip()
    if len(name) > MAX_NAME or not _NAME_RE.fullmatch(name):
        raise RunRefused(
            "name",
            f"a run's name is letters, digits and . - _ (1 to {MAX_NAME} characters, no spaces)",
            f"ランの名前は文字・数字と . - _ で1〜{MAX_NAME}文字です（空白は使えません）",
        )
    if not ab and name.endswith(_HALVES):
        raise RunRefused(
            "name",
            "a run's name may not end in -a or -b (the names of an A/B run's two halves)",
            "ランの名前の末尾に -a や -b は使えません（A/Bランの2つの半分の名前です）",
        )
    return name


def _specs(store: MatchStore, req: RunRequest) -> tuple[list[Side], list[TournamentSpec]]:
    """The card data and the tournament spec of each half of a request (checked)."""
    if not 1 <= len(req.sides) <= 2:
        raise RunRefused(
            "sides",
            "choose one card data, or two for A/B",
            "カードデータを1つ（A/Bなら2つ）選んでください",
        )
    sides = [
        resolve_side(store, req.ruleset, value, f"sides[{i}]") for i, value in enumerate(req.sides)
    ]
    if len(sides) == 2 and sides[0] == sides[1]:
        raise RunRefused(
            "sides[1]",
            "A and B are the same card data: choose two different ones",
            "AとBが同じカードデータです。別々のものを選んでください",
        )
    if not req.players:
        raise RunRefused(
            "players", "choose at least one COM level", "COMの強さを1つ以上選んでください"
        )
    if not 1 <= req.games <= MAX_GAMES:
        raise RunRefused(
            "games",
            f"games per matchup: 1 to {MAX_GAMES}",
            f"組み合わせごとの対戦数は1〜{MAX_GAMES}です",
        )
    taken = sorted({"card_set", "card_data"} & set(req.options))
    if taken:
        raise RunRefused(
            "options",
            f"option {', '.join(taken)}: the card data is chosen as A (and B)",
            f"オプション {', '.join(taken)}：カードデータはA（とB）で選びます",
        )
    specs: list[TournamentSpec] = []
    for side in sides:
        try:
            spec = TournamentSpec(
                decks=tuple(req.decks),
                players=tuple(req.players),
                games=req.games,
                seed=req.seed,
                best_of=req.best_of,
                ruleset=req.ruleset,
                mirror=req.mirror,
                turn_limit=req.turn_limit,
                options={**req.options, **side.options},
                card_set=side.card_set,
            )
            spec.validate()
        except (SimError, KeyError, CardSetError) as err:
            message = str(err.args[0]) if err.args else str(err)
            raise RunRefused("", message, f"このランは始められません：{message}") from None
        specs.append(spec)
    total = len(specs) * len(specs[0].matchups) * req.games
    if total > MAX_TOTAL:
        raise RunRefused(
            "games",
            f"{total} games in all: at most {MAX_TOTAL} per run (fewer games, decks or levels)",
            f"合計{total}戦です。1回のランは{MAX_TOTAL}戦までです（対戦数・デッキ・強さを減らしてください）",
        )
    return sides, specs


# --------------------------------------------------------------------------------------------
# Worker processes
# --------------------------------------------------------------------------------------------


def _lower_priority() -> None:
    """Run in each worker process first: think at a lower CPU priority than the server."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)


class NiceBackend(LocalBackend):
    """Local worker processes at a lower CPU priority (:data:`WORKER_NICENESS`), which
    :meth:`abort` stops at once (a cancelled run leaves no game playing on)."""

    name = "local"

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            methods = multiprocessing.get_all_start_methods()
            ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=ctx, initializer=_lower_priority
            )
        return self._pool

    def abort(self) -> None:
        """Stop every worker process now (the games they play are lost, never journaled)."""
        pool = self._pool
        if pool is None:
            return
        processes = getattr(pool, "_processes", None) or {}
        for process in list(processes.values()):
            with contextlib.suppress(Exception):
                process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        self._pool = None


def default_workers() -> int:
    """Worker processes of a run: every core but one (the server's), at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


# --------------------------------------------------------------------------------------------
# Runs and the queue
# --------------------------------------------------------------------------------------------


class _Cancelled(Exception):
    """Raised from the progress hook to end a cancelled run."""


@dataclass
class Job:
    """A run this server plays (or will): its halves and how far it got."""

    id: int
    name: str
    specs: list[TournamentSpec]
    run_names: list[str]
    total: int
    done: int
    state: State = "queued"
    started: float | None = None
    done_at_start: int = 0
    error: str = ""
    cancelled: bool = False
    backend: str = ""
    cancel: threading.Event = field(default_factory=threading.Event)
    runner: Backend | None = None

    def progress(self) -> Json:
        """Games done and in all, the rate and the time left (once a game was played)."""
        out: Json = {"done": self.done, "total": self.total, "rate": None, "eta_seconds": None}
        if self.started is not None:
            elapsed = max(1e-6, time.monotonic() - self.started)
            out["elapsed_seconds"] = round(elapsed, 1)
            played = self.done - self.done_at_start
            if played > 0:
                rate = played / elapsed
                out["rate"] = round(rate, 3)
                out["eta_seconds"] = round((self.total - self.done) / rate, 1)
        return out


@dataclass(frozen=True)
class Group:
    """A run as the store keeps it: one simulation run, or the two halves of an A/B run."""

    name: str
    rows: tuple[Json, ...]

    @property
    def id(self) -> int:
        """The store id of its (first) simulation run."""
        return int(self.rows[0]["id"])

    @property
    def kind(self) -> str:
        """``single`` or ``ab``."""
        return "ab" if len(self.rows) == 2 else "single"

    @property
    def specs(self) -> list[TournamentSpec]:
        """Each half's spec."""
        return [TournamentSpec.from_json(r["spec"]) for r in self.rows]


def _same_schedule(a: Json, b: Json) -> bool:
    """Whether two stored specs play the same games but for their card data."""

    def plain(spec: Json) -> Json:
        out = {k: v for k, v in spec.items() if k != "card_set"}
        options = {k: v for k, v in (spec.get("options") or {}).items() if k != "card_data"}
        out.pop("options", None)
        if options:
            out["options"] = options
        return out

    return plain(a) == plain(b)


def group_runs(rows: Iterable[Json]) -> list[Group]:
    """The store's simulation runs as runs: ``NAME-a`` and ``NAME-b`` with the same schedule
    are the halves of A/B run ``NAME``; every other one is a run of its own. Newest first."""
    ordered = sorted(rows, key=lambda r: int(r["id"]))
    by_name = {str(r["name"]): r for r in ordered}
    used: set[str] = set()
    out: list[Group] = []
    for row in ordered:
        name = str(row["name"])
        if name in used:
            continue
        base, suffix = name[:-2], name[-2:]
        if suffix in _HALVES and base:
            first, second = by_name.get(base + "-a"), by_name.get(base + "-b")
            if (
                first is not None
                and second is not None
                and second["name"] not in used
                and _same_schedule(first["spec"], second["spec"])
            ):
                used |= {base + "-a", base + "-b"}
                out.append(Group(base, (first, second)))
                continue
        used.add(name)
        out.append(Group(name, (row,)))
    return out[::-1]


def _total(spec: TournamentSpec) -> int:
    return len(spec.matchups) * spec.games


class BalanceRuns:
    """The balance runs of one server over its match store (see the module docstring).

    ``workers``: worker processes per run (default: every core but one); ``on_cluster``: a
    function that says whether the server thinks on a Ray cluster (then the games go there);
    ``backend``: a factory of the backend every run plays on instead (:attr:`backend_factory`,
    for tests and embedders).
    """

    def __init__(
        self,
        store: MatchStore,
        *,
        workers: int | None = None,
        on_cluster: Callable[[], bool] | None = None,
        backend: Callable[[], Backend] | None = None,
    ) -> None:
        self.store = store
        self.workers = workers or default_workers()
        self._on_cluster = on_cluster or (lambda: False)
        self.backend_factory = backend
        self._jobs: dict[int, Job] = {}
        self._queue: collections.deque[Job] = collections.deque()
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closing = False
        self._cache: dict[tuple[int, str], tuple[tuple[int, ...], Json]] = {}

    def busy(self) -> bool:
        """Whether a run is queued or running (a server renewing its process waits for it)."""
        with self._cond:
            return any(job.state in ("queued", "running") for job in self._jobs.values())

    # --- where the games run ------------------------------------------------------------

    def backend_kind(self) -> Json:
        """Where the next run's games go: ``{"kind": "local"|"ray", "workers"}``."""
        if self._on_cluster():
            return {"kind": "ray", "workers": None}
        return {"kind": "local", "workers": self.workers}

    def _backend(self) -> Backend:
        if self.backend_factory is not None:
            return self.backend_factory()
        if self._on_cluster():
            try:
                return RayBackend("auto")
            except BackendError as err:
                _log.warning("balance run on local processes: %s", err)
        return NiceBackend(self.workers)

    # --- starting, cancelling, resuming --------------------------------------------------

    def start(self, req: RunRequest) -> Json:
        """Check ``req``, create its simulation run(s) in the store and queue it; returns its
        status. :class:`RunRefused` for a request that cannot start."""
        _, specs = _specs(self.store, req)
        ab = len(specs) == 2
        existing = {str(r["name"]) for r in self.store.sim_runs()}
        if req.name:
            name = _check_name(req.name, ab)
        else:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            name, n = f"run-{stamp}", 1
            while self._taken(name, ab, existing):
                n += 1
                name = f"run-{stamp}-{n}"
        if self._taken(name, ab, existing):
            raise RunRefused(
                "name",
                f"there is a run named {name!r} already: choose another name",
                f"「{name}」という名前のランがすでにあります。別の名前にしてください",
            )
        run_names = [f"{name}{suffix}" for suffix in _HALVES] if ab else [name]
        try:
            ids = [
                StoreJournal(self.store, run_name, spec).run_id
                for run_name, spec in zip(run_names, specs, strict=True)
            ]
        except StoreError as err:
            raise RunRefused("name", str(err), f"ランを作れません：{err}") from None
        job = Job(ids[0], name, specs, run_names, sum(_total(s) for s in specs), 0)
        self._enqueue(job)
        return self.status(job.id)

    @staticmethod
    def _taken(name: str, ab: bool, existing: set[str]) -> bool:
        wanted = {name, name + "-a", name + "-b"} if ab else {name}
        halves = {name + "-a", name + "-b"} <= existing
        return bool(wanted & existing) or halves

    def _enqueue(self, job: Job) -> None:
        with self._cond:
            if self._closing:
                raise RunRefused("", "the server is stopping", "サーバーが停止中です")
            job.state = "queued"
            job.cancel.clear()
            job.cancelled = False
            job.error = ""
            self._jobs[job.id] = job
            self._queue.append(job)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="balance-runs", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def cancel(self, run_id: int) -> Json:
        """Stop a queued or running run (the games journaled stay; it can be resumed)."""
        with self._cond:
            job = self._jobs.get(run_id)
            if job is None or job.state not in ("queued", "running"):
                self._group(run_id)  # 404 for an unknown run
                raise RunRefused("", "this run is not running", "このランは実行中ではありません")
            job.cancelled = True
            job.cancel.set()
            if job.state == "queued":
                self._queue.remove(job)
                job.state = "stopped"
            runner = job.runner
        if isinstance(runner, NiceBackend):
            runner.abort()
        return self.status(run_id)

    def resume(self, run_id: int) -> Json:
        """Queue a stopped run again: it plays the games it has not journaled yet."""
        group = self._group(run_id)
        with self._cond:
            job = self._jobs.get(run_id)
            if job is not None and job.state in ("queued", "running"):
                raise RunRefused("", "this run is running already", "このランはすでに実行中です")
        done = self._done_counts(group)
        specs = group.specs
        if sum(done) >= sum(_total(s) for s in specs) and all(r["finished"] for r in group.rows):
            raise RunRefused("", "this run is complete", "このランは完了しています")
        try:
            for spec in specs:
                spec.validate()
        except (SimError, KeyError, CardSetError) as err:
            message = str(err.args[0]) if err.args else str(err)
            raise RunRefused("", message, f"このランは再開できません：{message}") from None
        job = Job(
            group.id,
            group.name,
            specs,
            [str(r["name"]) for r in group.rows],
            sum(_total(s) for s in specs),
            sum(done),
        )
        self._enqueue(job)
        return self.status(run_id)

    # --- the thread that plays -------------------------------------------------------------

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closing:
                    self._cond.wait()
                if self._closing:
                    return
                job = self._queue.popleft()
                job.state = "running"
            self._play(job)

    def _play(self, job: Job) -> None:
        try:
            runner = self._backend()
        except Exception as err:
            job.state, job.error = "failed", str(err)
            return
        job.backend = runner.name
        with self._cond:
            job.runner = runner
        offset = 0
        try:
            journals = [
                StoreJournal(self.store, n, s)
                for n, s in zip(job.run_names, job.specs, strict=True)
            ]
            job.done = sum(len(j.done()) for j in journals)
            job.done_at_start = job.done
            job.started = time.monotonic()
            for spec, journal in zip(job.specs, journals, strict=True):
                if job.cancel.is_set():
                    raise _Cancelled
                base = offset

                def advance(done: int, _total: int, _entry: Json, base: int = base) -> None:
                    job.done = base + done
                    if job.cancel.is_set():
                        raise _Cancelled

                run(spec, journal, runner, progress=advance)
                offset += _total(spec)
                job.done = offset
            job.state = "done"
        except _Cancelled:
            job.state = "stopped"
        except Exception as err:
            if job.cancel.is_set():
                job.state = "stopped"  # the aborted workers' broken pool: a cancel
            else:
                _log.exception("balance run %s failed", job.name)
                job.state, job.error = "failed", str(err) or type(err).__name__
        finally:
            with self._cond:
                job.runner = None
            with contextlib.suppress(Exception):
                runner.close()

    def close(self) -> None:
        """Stop: the running run is cancelled (it can be resumed later), queued ones too."""
        with self._cond:
            self._closing = True
            for job in self._queue:
                job.state = "stopped"
            self._queue.clear()
            running = [j for j in self._jobs.values() if j.state == "running"]
            for job in running:
                job.cancel.set()
            self._cond.notify_all()
            thread = self._thread
        for job in running:
            if isinstance(job.runner, NiceBackend):
                job.runner.abort()
        if thread is not None:
            thread.join(timeout=30)

    # --- reading -------------------------------------------------------------------------

    def _groups(self) -> list[Group]:
        return group_runs(self.store.sim_runs())

    def _group(self, run_id: int) -> Group:
        for group in self._groups():
            if group.id == run_id:
                return group
        raise RunRefused(
            "", f"no balance run {run_id}", f"ラン {run_id} はありません", missing=True
        )

    def _done_counts(self, group: Group) -> list[int]:
        return [int(r["games"]) for r in group.rows]

    def _seen(self) -> dict[int, State]:
        """Every known job's state now. Read *before* the store: a job is marked done only
        after its last game and its end are stored, so a store read after this snapshot is at
        least as new as it (read the other way round, a run finishing in between would be
        reported from an older store read as stopped)."""
        with self._cond:
            return {run_id: job.state for run_id, job in self._jobs.items()}

    def _describe(self, group: Group, seen: dict[int, State]) -> Json:
        """The status of ``group``, with the job states ``seen`` before it was read."""
        specs = group.specs
        first = group.rows[0]["spec"]
        total = sum(_total(s) for s in specs)
        done = sum(self._done_counts(group))
        finished = all(r["finished"] is not None for r in group.rows)
        job = self._jobs.get(group.id)
        job_state = seen.get(group.id)
        state: State = "done" if finished and done >= total else "stopped"
        out: Json = {
            "id": group.id,
            "name": group.name,
            "kind": group.kind,
            "ruleset": specs[0].ruleset,
            "runs": [r["name"] for r in group.rows],
            "sides": [side_of(r["spec"]).to_json() for r in group.rows],
            "decks": [
                d if isinstance(d, str) else str(d.get("slug", "deck")) for d in specs[0].decks
            ],
            "players": list(specs[0].players),
            "games": specs[0].games,
            "seed": str(specs[0].seed),
            "best_of": specs[0].best_of,
            "mirror": specs[0].mirror,
            "options": {k: v for k, v in (first.get("options") or {}).items() if k != "card_data"},
            "created": group.rows[0]["created"],
            "finished": max(r["finished"] for r in group.rows) if finished else None,
            "done": done,
            "total": total,
            "state": state,
            "rate": None,
            "eta_seconds": None,
            "cancelled": False,
            "error": "",
        }
        if job is not None and job_state is not None:
            out["state"] = job_state if job_state != "done" else state
            out["cancelled"] = job.cancelled
            out["error"] = job.error
            out["backend"] = job.backend
            if job_state in ("queued", "running"):
                out.update(job.progress())
                out["done"] = max(done, job.done) if job_state == "running" else done
        return out

    def list(self) -> list[Json]:
        """Every run of the store, newest first, with its state and progress."""
        seen = self._seen()
        return [self._describe(g, seen) for g in self._groups()]

    def status(self, run_id: int) -> Json:
        """One run's state and progress (:class:`RunRefused` ``missing`` if unknown)."""
        seen = self._seen()
        return self._describe(self._group(run_id), seen)

    def results(self, run_id: int, lang: str) -> Json:
        """The figures of a run (an A/B run: both halves side by side and their comparison),
        from the games journaled so far (:func:`kessen.server.balance_results.figures`)."""
        seen = self._seen()
        group = self._group(run_id)
        summaries = [
            {i: {**s, "match_id": m} for i, (m, s) in self.store.sim_done(int(r["id"])).items()}
            for r in group.rows
        ]
        key = tuple(len(s) for s in summaries)
        kept = self._cache.get((run_id, lang))
        if kept is not None and kept[0] == key:
            return {**kept[1], "status": self._describe(group, seen)}
        sides = [side_of(r["spec"]) for r in group.rows]
        found = figures(group.specs, sides, summaries, lang)
        self._cache[(run_id, lang)] = (key, found)
        return {**found, "status": self._describe(group, seen)}

    def __repr__(self) -> str:
        return f"BalanceRuns({len(self._jobs)} runs known, {len(self._queue)} queued)"


def request_from(data: Mapping[str, Any]) -> RunRequest:
    """A :class:`RunRequest` from the API's body (already shaped by its model)."""
    return RunRequest(
        ruleset=str(data["ruleset"]),
        sides=tuple(str(s) for s in data.get("sides") or ("",)),
        decks=tuple(str(d) for d in data.get("decks") or ()),
        players=tuple(str(p) for p in data.get("players") or ()),
        games=int(data["games"]),
        seed=int(data.get("seed") or 0),
        best_of=int(data.get("best_of") or 1),
        mirror=bool(data.get("mirror")),
        turn_limit=data.get("turn_limit"),
        options=dict(data.get("options") or {}),
        name=str(data.get("name") or ""),
    )

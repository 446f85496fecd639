"""What ``load_bench.py`` measures and how it prints it: tallies per kind of match, one run's
figures, the readings of the server and the machine (memory, CPU, sessions held), the replay
check of its store, and the medians over repeated runs of each server.

A run's latencies are those of one server in one sitting; ``--repeat`` runs each server several
times, alternating, so that the machine's drift (other work on it, its load average) touches
them alike. The median table gives, per server, the median over its runs of each percentile,
and every run's own row keeps the load average of the machine when it started and ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx2
from kessen_server import children, kessen, rss

SESSIONS_EVERY = 2.0
"""Seconds between two readings of the sessions the server holds."""


@dataclass
class Tally:
    """What the matches of one kind gave."""

    latencies: list[float] = field(default_factory=list)
    matches: int = 0
    refused: int = 0
    finished: int = 0
    resigned: int = 0
    cut: int = 0
    errors: int = 0

    def add(self, other: Tally) -> None:
        """Add ``other``'s figures to these."""
        self.latencies += other.latencies
        self.matches += other.matches
        self.refused += other.refused
        self.finished += other.finished
        self.resigned += other.resigned
        self.cut += other.cut
        self.errors += other.errors


def quantile(ordered: list[float], p: float) -> float:
    """The nearest-rank ``p`` quantile of the sorted ``ordered`` (which is not empty)."""
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def percentile(ordered: list[float], p: float) -> str:
    """The nearest-rank ``p`` quantile of the sorted seconds ``ordered``, in milliseconds."""
    if not ordered:
        return "–"
    return f"{quantile(ordered, p) * 1000:.1f}"


def latency_cells(latencies: list[float]) -> dict[str, str]:
    """The count, percentiles, largest and mean of ``latencies`` (seconds) as cells in ms."""
    lat = sorted(latencies)
    return {
        "actions": str(len(lat)),
        "p50 ms": percentile(lat, 0.50),
        "p95 ms": percentile(lat, 0.95),
        "p99 ms": percentile(lat, 0.99),
        "max ms": f"{lat[-1] * 1000:.1f}" if lat else "–",
        "mean ms": f"{statistics.fmean(lat) * 1000:.1f}" if lat else "–",
    }


@dataclass
class StoreCheck:
    """What ``kessen store check`` said of the server's store."""

    records: int = 0
    replayed: int = 0
    seconds: float = 0.0
    note: str = ""


def check_store(src: Path, db: Path) -> StoreCheck:
    """``kessen store check`` (of the sources in ``src``) over every match of the store ``db``."""
    out = StoreCheck()
    start = time.perf_counter()
    cmd, env = kessen(src, db)
    listed = subprocess.run(
        [*cmd, "store", "list", "--db", str(db), "--json", "--limit", str(10**6)],
        env=env,
        capture_output=True,
        text=True,
    )
    if listed.returncode != 0:
        out.note = f"store list failed: {listed.stderr.strip()[-200:]}"
        return out
    ids = [str(json.loads(line)["id"]) for line in listed.stdout.splitlines() if line.strip()]
    out.records = len(ids)
    if ids:
        checked = subprocess.run(
            [*cmd, "store", "check", "--db", str(db), *ids],
            env=env,
            capture_output=True,
            text=True,
        )
        out.replayed = checked.stdout.count(": replays exactly")
        if checked.returncode not in (0, 1):
            out.note = f"store check failed: {checked.stderr.strip()[-200:]}"
        elif out.replayed < out.records:
            bad = [ln for ln in checked.stdout.splitlines() if ln and "replays exactly" not in ln]
            out.note = "; ".join(bad[:3])[:300]
    out.seconds = time.perf_counter() - start
    return out


def megabytes(size: int) -> str:
    """``size`` bytes in whole MiB."""
    return f"{size / 2**20:.0f}"


@dataclass
class Figures:
    """What one run measured."""

    label: str
    kinds: dict[str, Tally] = field(default_factory=dict)
    groups: dict[str, Tally] = field(default_factory=dict)
    causes: Counter[str] = field(default_factory=Counter)
    rss_before: int = 0
    rss_peak: int = 0
    rss_end: list[int] = field(default_factory=list)
    rss_after: list[int] = field(default_factory=list)
    """After each wave: once the server held no session, and the settle after."""
    emptied: list[float | None] = field(default_factory=list)
    """Seconds after each wave until the server held no session (None: it still held some)."""
    rss_workers: int = 0
    """The resident memory of the server's COM worker processes at their peak (summed)."""
    live: int = 0
    live_peak: int = 0
    sessions_peak: int = 0
    """The most sessions the server held in memory at once (live and finished)."""
    spam_sent: int = 0
    seconds: float = 0.0
    log_errors: int = 0
    load: tuple[float, float] = (0.0, 0.0)
    """The machine's one-minute load average when the run started and when its load ended."""
    cpu_server: float = 0.0
    """CPU seconds the server's own process used during the load (its event loop, mostly)."""
    cpu_workers: float = 0.0
    """CPU seconds its COM worker processes used."""
    cpu_client: float = 0.0
    """CPU seconds this benchmark's own process used meanwhile (it shares the machine)."""
    others: float = 0.0
    """The share of the machine's cores that other processes kept busy meanwhile (0 on a quiet
    machine): its whole busy time less the server's, its workers' and this process's."""
    check: StoreCheck = field(default_factory=StoreCheck)

    def tally(self, kind: str) -> Tally:
        """The tally of the matches of ``kind``."""
        return self.kinds.setdefault(kind, Tally())

    def error(self, tally: Tally, cause: str) -> None:
        """Count an error of ``cause`` against ``tally``."""
        tally.errors += 1
        self.causes[cause] += 1

    def total(self) -> Tally:
        """Every kind's figures added up."""
        out = Tally()
        for tally in self.kinds.values():
            out.add(tally)
        return out

    def row(self) -> dict[str, str]:
        """The figures as printable cells."""
        total = self.total()
        check = self.check
        return {
            "server": self.label,
            "load avg": f"{self.load[0]:.2f} → {self.load[1]:.2f}",
            "others' CPU": f"{self.others:.0%}",
            **latency_cells(total.latencies),
            "matches": str(total.matches),
            "refused": str(total.refused),
            "errors": str(total.errors),
            "finished": str(total.finished),
            "resigned": str(total.resigned),
            "cut": str(total.cut),
            "server CPU s": f"{self.cpu_server:.1f}",
            "CPU ms / action": (
                f"{self.cpu_server / len(total.latencies) * 1000:.2f}" if total.latencies else "–"
            ),
            "COM workers CPU s": f"{self.cpu_workers:.1f}",
            "bench CPU s": f"{self.cpu_client:.1f}",
            "live peak": str(self.live_peak),
            "sessions peak": str(self.sessions_peak),
            "RSS before MB": megabytes(self.rss_before),
            "RSS peak MB": megabytes(self.rss_peak),
            "RSS end → after MB": ", ".join(
                f"{megabytes(e)} → {megabytes(a)}"
                for e, a in zip(self.rss_end, self.rss_after, strict=False)
            ),
            "emptied after s": ", ".join("–" if s is None else f"{s:.0f}" for s in self.emptied),
            "COM workers MB": megabytes(self.rss_workers),
            "spam msgs": str(self.spam_sent),
            "log errors": str(self.log_errors),
            "replay": f"{check.replayed}/{check.records}"
            + (f" ({check.note})" if check.note else ""),
        }


def print_table(rows: list[dict[str, str]]) -> None:
    """``rows`` (all with the same keys) as a Markdown table."""
    keys = list(rows[0])
    print("| " + " | ".join(keys) + " |")
    print("|" + "|".join("---" for _ in keys) + "|")
    for row in rows:
        print("| " + " | ".join(row[k] for k in keys) + " |")


def kind_rows(runs: list[Figures]) -> list[dict[str, str]]:
    """Latency and outcome per group and per kind of match, for every run."""
    rows = []
    for figures in runs:
        named = [("all", figures.total())]
        named += sorted(figures.groups.items())
        named += sorted(figures.kinds.items())
        for name, tally in named:
            rows.append(
                {
                    "server": figures.label,
                    "matches of": name,
                    **latency_cells(tally.latencies),
                    "matches": str(tally.matches),
                    "refused": str(tally.refused),
                    "errors": str(tally.errors),
                    "finished": str(tally.finished),
                    "resigned": str(tally.resigned),
                    "cut": str(tally.cut),
                }
            )
    return rows


def cpu_per_action(figures: Figures) -> float:
    """The server's CPU seconds per action of a person in one run."""
    return figures.cpu_server / max(1, len(figures.total().latencies))


def _median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f}" if values else "–"


def median_rows(runs: list[Figures]) -> list[dict[str, str]]:
    """Per server (in the order first run), the median over its runs of each latency
    percentile (overall, then per group), the range of its p99, the refusals, errors and
    replays summed, and the median load average at the runs' starts."""
    servers = list(dict.fromkeys(f.label for f in runs))
    rows = []
    for server in servers:
        mine = [f for f in runs if f.label == server]
        groups = ["all", *sorted({g for f in mine for g in f.groups})]
        for group in groups:
            tallies = [f.total() if group == "all" else f.groups.get(group, Tally()) for f in mine]
            sorted_lat = [sorted(t.latencies) for t in tallies if t.latencies]
            p99s = [quantile(lat, 0.99) for lat in sorted_lat]
            rows.append(
                {
                    "server": server,
                    "matches of": group,
                    "runs": str(len(mine)),
                    "actions (median)": str(
                        int(statistics.median([len(t.latencies) for t in tallies]))
                    ),
                    "p50 ms": _median_ms([quantile(lat, 0.50) for lat in sorted_lat]),
                    "p95 ms": _median_ms([quantile(lat, 0.95) for lat in sorted_lat]),
                    "p99 ms": _median_ms(p99s),
                    "p99 range ms": (
                        f"{min(p99s) * 1000:.1f}–{max(p99s) * 1000:.1f}" if p99s else "–"
                    ),
                    "refused": str(sum(t.refused for t in tallies)),
                    "errors": str(sum(t.errors for t in tallies)),
                    "replay": (
                        f"{sum(f.check.replayed for f in mine)}/"
                        f"{sum(f.check.records for f in mine)}"
                        if group == "all"
                        else ""
                    ),
                    "server CPU ms / action (median)": (
                        f"{statistics.median(cpu_per_action(f) for f in mine) * 1000:.2f}"
                        if group == "all"
                        else ""
                    ),
                    "load avg (median)": (
                        f"{statistics.median([f.load[0] for f in mine]):.2f}"
                        if group == "all"
                        else ""
                    ),
                    "others' CPU (median)": (
                        f"{statistics.median([f.others for f in mine]):.0%}"
                        if group == "all"
                        else ""
                    ),
                }
            )
    return rows


# --- readings of the server and the machine ---------------------------------------------


async def sample_peak(pid: int, figures: Figures, stop: asyncio.Event) -> None:
    """Until ``stop``: the server's resident memory at its peak, and its COM workers'."""
    while not stop.is_set():
        figures.rss_peak = max(figures.rss_peak, rss(pid))
        figures.rss_workers = max(figures.rss_workers, sum(rss(c) for c in children(pid)))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(0.1):
                await stop.wait()


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used so far, user and system (0 once it is gone)."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


def machine_busy() -> float:
    """The CPU seconds the whole machine has spent busy (not idle nor waiting) since boot."""
    with contextlib.suppress(OSError, ValueError):
        ticks = [int(t) for t in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return (sum(ticks[:8]) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")
    return 0.0


async def sample_sessions(url: str, figures: Figures, stop: asyncio.Event) -> None:
    """Until ``stop``: the most sessions the server holds in memory at once (its listing of
    live sessions, read every :data:`SESSIONS_EVERY` seconds)."""
    async with httpx2.AsyncClient(timeout=30, trust_env=False) as client:
        while not stop.is_set():
            with contextlib.suppress(httpx2.HTTPError, ValueError):
                listed = (await client.get(f"{url}/api/games")).json()
                figures.sessions_peak = max(figures.sessions_peak, len(listed))
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(SESSIONS_EVERY):
                    await stop.wait()

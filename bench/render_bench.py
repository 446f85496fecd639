#!/usr/bin/env python3
"""The browser's cost of drawing a game: main-thread time per render on a slow phone, this tree's
web sources against another revision's, side by side in one run.

Each measurement watches one COM-against-COM match of a ruleset (a fixed seed, the heuristic COM
in both seats, so both revisions draw the same views) in headless Chromium at a phone's size
with its processor slowed down (``--throttle``, four times by default: a mid-range phone), and
reads Chromium's own counters (``Performance.getMetrics``) over the first ``--renders`` renders:
the main thread's busy time, its script, layout and style parts, and how many layouts it made.
A render that reads the page's geometry in the middle of drawing makes the browser lay the page
out there and again later; the layouts per render say how often that happens. The revisions
alternate within each round, each on its own ``kessen play`` server::

    .venv/bin/python bench/render_bench.py --against HEAD~1 --rounds 2
    .venv/bin/python bench/render_bench.py --games kobo --renders 200 --throttle 6

Needs Chromium (Debian: ``apt install chromium``) and Playwright (the test extras).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kessen_server import ROOT, remove_worktree, server, worktree

GAMES = ("kobo", "twgp", "maken")
COUNTERS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")
"""Chromium's main-thread time counters (seconds), read before and after the renders."""

START = """cfg => import('/static/shell/start.js').then(m => m.newGame(cfg))"""
RENDERS = "() => (window.kobo && window.kobo.perf.renders) || 0"


@dataclass
class Sample:
    """One watched match: its renders and the main thread's costs over them."""

    renders: int
    costs: dict[str, float]
    """Per render: milliseconds of each counter of :data:`COUNTERS`, and ``layouts``."""


def chromium() -> str:
    """The Chromium to run (Debian's)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        sys.exit("Chromium is not installed (Debian: apt install chromium)")
    return found


def metrics(cdp: Any) -> dict[str, float]:
    """Chromium's performance counters of the page, by name."""
    return {m["name"]: float(m["value"]) for m in cdp.send("Performance.getMetrics")["metrics"]}


def watch(browser: Any, url: str, game: str, args: argparse.Namespace) -> Sample:
    """Watch one match of ``game`` on the server at ``url`` for ``args.renders`` renders."""
    width, height = (int(x) for x in args.size.split("x"))
    ctx = browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="ja-JP",
    )
    try:
        page = ctx.new_page()
        page.set_default_timeout(120_000)
        page.goto(url)
        page.wait_for_selector("#start:not([hidden])")
        cdp = ctx.new_cdp_session(page)
        cdp.send("Performance.enable")
        cfg = {"ruleset": game, "mode": "com_vs_com", "seed": str(args.seed), "pace": args.pace}
        page.evaluate(START, cfg)
        page.wait_for_function(f"() => ({RENDERS})() >= 3")
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
        first, before = int(page.evaluate(RENDERS)), metrics(cdp)
        page.wait_for_function(
            f"() => ({RENDERS})() >= {first + args.renders}", polling=250, timeout=600_000
        )
        after, renders = metrics(cdp), int(page.evaluate(RENDERS)) - first
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    finally:
        ctx.close()
    costs = {name: (after[name] - before[name]) * 1000 / renders for name in COUNTERS}
    costs["layouts"] = (after["LayoutCount"] - before["LayoutCount"]) / renders
    return Sample(renders, costs)


@contextmanager
def sources(rev: str) -> Iterator[dict[str, Path]]:
    """This tree's sources and revision ``rev``'s (a temporary worktree), by label."""
    with tempfile.TemporaryDirectory(prefix="kessen-render-") as tmp:
        other = worktree(rev, Path(tmp))
        try:
            yield {"now": ROOT / "src", rev: other / "src"}
        finally:
            remove_worktree(rev, Path(tmp))


def main() -> None:
    """Run the rounds and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD", help="the revision to compare with")
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    parser.add_argument("--renders", type=int, default=120, help="renders measured per match")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--throttle", type=float, default=4.0, help="processor slow-down")
    parser.add_argument("--pace", type=float, default=0.3, help="seconds between COM moves")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--size", default="390x844", help="the viewport, WIDTHxHEIGHT")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    samples: dict[tuple[str, str], list[Sample]] = {}
    with sources(args.against) as trees, sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium(),
            args=["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        labels = list(trees)
        for round_no in range(args.rounds):
            # Alternate which revision goes first, so a slow spell of the machine is shared.
            for label in labels if round_no % 2 == 0 else labels[::-1]:
                with tempfile.TemporaryDirectory() as tmp:
                    db, log = Path(tmp) / "store.sqlite3", Path(tmp) / "server.log"
                    with server(trees[label], db, log, "--pace", "0") as (url, _):
                        for game in args.games:
                            sample = watch(browser, url, game, args)
                            samples.setdefault((game, label), []).append(sample)
                            print(
                                f"round {round_no + 1} {label:>8} {game:<6} "
                                f"{sample.costs['TaskDuration']:.1f} ms/render",
                                file=sys.stderr,
                            )
        browser.close()
    print(
        f"\nMain-thread time per render, {args.size} at {args.throttle:g}× slower, "
        f"{args.renders} renders of a watched match (seed {args.seed}), median of {args.rounds}:"
    )
    print("| game | sources | busy ms | script ms | layout ms | style ms | layouts |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for game in args.games:
        for label in labels:
            runs = samples[(game, label)]

            def median(key: str, runs: list[Sample] = runs) -> float:
                return statistics.median(s.costs[key] for s in runs)

            print(
                f"| {game} | {label} | {median('TaskDuration'):.1f} | "
                f"{median('ScriptDuration'):.1f} | {median('LayoutDuration'):.1f} | "
                f"{median('RecalcStyleDuration'):.1f} | {median('layouts'):.2f} |"
            )


if __name__ == "__main__":
    main()

"""Load benchmark of the game server: many concurrent matches, vs COM and between two people.

What a run does. A real server is started as its own process (``kessen play`` on 127.0.0.1 with
a fresh store, COM at ``--pace`` seconds per action), and this process plays ``--matches``
matches against it at once over WebSockets (HTTP for creating and joining), in ``--waves``
rounds. The mix, by default the issue's workload of 100 matches:

- ``--two-person`` matches between two people (``mode`` ``vs_human``): the creator gets a token
  and an invite code, the guest joins with the code (``POST /api/games/{id}/join``), and both
  seats connect and answer their own prompts;
- ``--search`` matches against a search COM, taking the levels of ``--search-levels`` in turn;
- the rest against ``--com`` (``heuristic``);

each kind dealt over the games of ``--rulesets`` in turn (Kōbō as a single game, the others
with their default configs), the matches started in a shuffled order over ``--ramp`` seconds.
No request names a seed: the server deals every match. Each person sends from their own loopback
address (``--addresses``; the server keeps its quotas per address). Every person answers each
prompt of their own seat with a random legal action after a delay drawn uniformly between
``--think`` and ``--think-max`` seconds (0.2 to 1.0 by default: several times faster than people
play; ``--think 0 --think-max 0`` answers at once, a test of throughput rather than of latency,
whose figures are mostly queueing), and the latency of an action is the time from sending it
until the view that results from it (the next one with another prompt, or none) reaches that
person. A match stops at its end, after ``--max-actions`` actions of its people, or when
``--duration`` seconds of the wave have passed (actions already sent are still waited for); a
match stopped early is then resigned by its first person (unless ``--no-resign``), so that it
ends like a real one and leaves the server's memory a minute later (an unfinished one would stay
there for the quarter of an hour the server waits for its players). Random play ends most games
within a minute: a match that ends (or reaches ``--max-actions``) before ``--duration`` is
followed by a new one of its kind (unless ``--once``), so that ``--matches`` stay live for the
whole wave; a place whose match is refused or fails plays no more in it.

Reported per server: the number of actions and their latency (p50/p95/p99/max/mean; overall, per
group and per kind of match), the matches refused (HTTP 503/429 when creating or joining, or a
WebSocket the server refused or closed before the first view), the errors (error messages during
play, dropped connections, stalls, failed requests) with their most common causes, the matches
finished (and resigned, or cut by the limits), the most matches live at once, the most sessions
the server held in memory at once (against its cap, ``limits.MAX_SESSIONS``), the machine's load
average when the run started and when its play ended, and the server's resident memory from
``/proc``: before the matches, at its peak, at the end of each wave, and after it: once the
server holds no session any more (a finished match leaves its memory a minute after its end;
waited for at most ``--evict-wait`` seconds, the time it took reported) and ``--settle`` seconds
more (the server gives what its sessions held back to the system at its next sweep), and that
of its COM worker processes at their peak. CPython keeps most of the memory a load took for
reuse (see ``docs/scaling.md``), so the figure to watch is that a second wave does not add to
the first. Lines of the server's log that report an error are counted too. After the server
has stopped, ``kessen store check`` replays every match of its store (with the same revision's
code) and the number that replay exactly is printed. With ``--spam``, one more client sends
undo/redo messages as fast as it can beside them.

``--against REV`` runs the same load against the server of another revision (checked out in a
temporary git worktree) in the same sitting, and prints both side by side. ``--repeat N`` runs
each server N times, alternating (REV, this tree, REV, …), and adds the medians over each
server's runs (``load_report.py``): on a machine others use too, one run says little.

    .venv/bin/python bench/load_bench.py                   # the issue's workload, ~2 min of play
    .venv/bin/python bench/load_bench.py --against 8c73ffa
    .venv/bin/python bench/load_bench.py --against HEAD --repeat 3   # before/after, medians
    .venv/bin/python bench/load_bench.py --matches 6 --two-person 2 --search 1 --duration 20 \\
        --settle 5 --evict-wait 90                         # a smoke run
    .venv/bin/python bench/load_bench.py --games 50 --waves 2 --settle 90 --spam
        # the former benchmark: 50 Kōbō games against the heuristic COM, played to their end

The benchmark shares the machine's cores with the server it measures (it parses every view it
receives), so on a small machine its figures include some of its own load. It is a script, not
a test: nothing asserts on the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from kessen_server import ROOT, log_errors, remove_worktree, server, worktree
from load_clients import RULESETS, THINK, Load, mix, run_load
from load_report import (
    Figures,
    check_store,
    kind_rows,
    median_rows,
    print_table,
)

QUIET = 0.1
"""A run is quiet when other processes kept at most this share of the machine's cores busy."""


# --- the sitting ---------------------------------------------------------------------------


class Help(argparse.ArgumentDefaultsHelpFormatter):
    """Defaults in the help, but not for switches nor options without one."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.nargs == 0 or action.default is None:
            return action.help
        return super()._get_help_string(action)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=Help)
    mix_ = parser.add_argument_group("the mix of matches")
    mix_.add_argument("--matches", type=int, default=100, help="concurrent matches per wave")
    mix_.add_argument("--two-person", type=int, default=20, help="of them between two people")
    mix_.add_argument("--search", type=int, default=10, help="of them against a search COM")
    mix_.add_argument(
        "--search-levels",
        default="ismcts-easy,ismcts-normal",
        help="the search COM levels, taken in turn",
    )
    mix_.add_argument("--com", default="heuristic", help="the COM level of the other matches")
    mix_.add_argument(
        "--rulesets", default=",".join(RULESETS), help="the games, each kind dealt over them"
    )
    mix_.add_argument(
        "--games",
        type=int,
        metavar="N",
        help="the former benchmark: N Kōbō games against --com played to their end (sets "
        "--matches N --two-person 0 --search 0 --rulesets kobo --duration 0)",
    )
    play = parser.add_argument_group("how long and how fast")
    play.add_argument(
        "--duration",
        type=float,
        default=120.0,
        help="seconds of play per wave; then no action is sent (0: until the matches end)",
    )
    play.add_argument(
        "--max-actions",
        "--actions",
        dest="max_actions",
        type=int,
        default=1000,
        help="actions of its people per match at most",
    )
    play.add_argument("--pace", type=float, default=0.05, help="COM's seconds per action")
    play.add_argument(
        "--think",
        type=float,
        default=THINK[0],
        help="the least seconds a person takes to answer",
    )
    play.add_argument(
        "--think-max",
        type=float,
        default=THINK[1],
        help="the most seconds a person takes to answer (each answer uniformly in between; "
        "0 0: at once, the former benchmark's stress)",
    )
    play.add_argument("--ramp", type=float, default=0.0, help="seconds over which matches start")
    play.add_argument(
        "--stall", type=float, default=60.0, help="seconds without a view that count as an error"
    )
    play.add_argument(
        "--no-resign",
        dest="resign",
        action="store_false",
        help="leave matches cut by the limits open instead of resigning them (an unfinished "
        "match stays in the server's memory until it is abandoned, 15 minutes later)",
    )
    play.add_argument(
        "--once",
        dest="again",
        action="store_false",
        help="each place plays one match; by default a match that ends before --duration is "
        "followed by another of its kind, so that --matches stay live the whole time",
    )
    play.add_argument("--waves", type=int, default=1, help="rounds of matches, each settled")
    play.add_argument(
        "--evict-wait",
        type=float,
        default=180.0,
        help="seconds after a wave to wait at most for the server to hold no session",
    )
    play.add_argument(
        "--settle",
        type=float,
        default=20.0,
        help="seconds after the server holds no session before its memory is read ('after')",
    )
    play.add_argument(
        "--addresses",
        type=int,
        default=0,
        help="loopback addresses the people send from (127.1.x.y; the server's quotas are per "
        "address): 0 one per person, 1 all from 127.0.0.1 as the former benchmark, N shared",
    )
    play.add_argument("--seed", type=int, default=0, help="the clients' random choices")
    extra = parser.add_argument_group("others")
    extra.add_argument("--spam", action="store_true", help="one client spams undo/redo")
    extra.add_argument("--spam-count", type=int, default=2000)
    extra.add_argument("--no-check", dest="check", action="store_false", help="skip store check")
    extra.add_argument("--against", help="also run the server of this git revision")
    extra.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run each server this many times, alternating, and print the medians",
    )
    args = parser.parse_args()
    if args.games is not None:
        args.matches, args.two_person, args.search = args.games, 0, 0
        args.rulesets, args.duration = "kobo", 0.0
        args.think = args.think_max = 0.0
    if min(args.matches, args.two_person, args.search) < 0 or (
        args.two_person + args.search > args.matches
    ):
        parser.error("--two-person and --search are shares of --matches")
    if not 0 <= args.think <= args.think_max:
        parser.error("--think is at least 0 and at most --think-max")
    if args.repeat < 1:
        parser.error("--repeat is at least 1")
    unknown = set(args.rulesets.split(",")) - set(RULESETS)
    if unknown:
        parser.error(f"unknown rulesets {sorted(unknown)}; known: {', '.join(RULESETS)}")
    return args


def describe(args: argparse.Namespace, load: Load) -> str:
    counts = Counter(p.kind for p in load.plans)
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    limit = f"{args.duration:g} s" if args.duration > 0 else "no time limit"
    return (
        f"{args.waves} wave(s) of {len(load.plans)} concurrent matches ({kinds}); COM pace "
        f"{args.pace} s, people think {args.think:g}–{args.think_max:g} s, {limit} and at most "
        f"{args.max_actions} "
        f"actions of people per match, started over {args.ramp:g} s, memory read "
        f"{args.settle:g} s after the server held no session"
        f"{'; one client spamming undo/redo' if load.spam else ''}"
    )


def one_run(label: str, src: Path, tmp: Path, args: argparse.Namespace, load: Load) -> Figures:
    """One run of ``load`` against a fresh server of the sources in ``src`` (its store and log
    in the new directory ``tmp``), its store checked after it stopped."""
    tmp.mkdir()
    db, log = tmp / "store.db", tmp / "server.log"
    with server(src, db, log, "--pace", str(args.pace)) as (url, pid):
        time.sleep(1.0)
        figures = asyncio.run(run_load(url, pid, load, label))
    figures.log_errors = log_errors(log)
    if args.check:
        figures.check = check_store(src, db)
    else:
        figures.check.note = "not checked"
    print(
        f"{label}: {figures.seconds:.1f} s of load (load average {figures.load[0]:.2f} → "
        f"{figures.load[1]:.2f}), store check {figures.check.seconds:.1f} s",
        file=sys.stderr,
        flush=True,
    )
    return figures


def main() -> None:
    args = parse_args()
    load = Load(
        plans=mix(
            args.matches,
            args.two_person,
            args.search,
            args.rulesets.split(","),
            args.search_levels.split(","),
            args.com,
            args.seed,
        ),
        com=args.com,
        max_actions=args.max_actions,
        duration=args.duration,
        think=args.think,
        think_max=args.think_max,
        stall=args.stall,
        ramp=args.ramp,
        spam=args.spam_count if args.spam else 0,
        settle=args.settle,
        evict_wait=args.evict_wait,
        waves=args.waves,
        resign=args.resign,
        again=args.again,
        seed=args.seed,
        addresses=args.addresses,
    )
    trees: list[tuple[str, Path]] = [("this tree", ROOT / "src")]
    tmp = Path(tempfile.mkdtemp(prefix="kessen-load-"))
    try:
        if args.against:
            old = worktree(args.against, tmp)
            trees.insert(0, (args.against, old / "src"))
        runs: list[Figures] = []
        for number, (label, src) in enumerate(trees * args.repeat):
            runs.append(one_run(label, src, tmp / str(number), args, load))
        print(describe(args, load))
        print()
        print_table([figures.row() for figures in runs])
        if args.repeat > 1:
            print("\nMedians over the runs of each server\n")
            print_table(median_rows(runs))
            quiet = [f for f in runs if f.others <= QUIET]
            if quiet and len(quiet) < len(runs):
                print(f"\nMedians over the runs while other processes kept ≤ {QUIET:.0%} busy\n")
                print_table(median_rows(quiet))
        else:
            print()
            print_table(kind_rows(runs))
        for figures in runs:
            if figures.causes:
                print(f"\n{figures.label}: refusals and errors by cause")
                for cause, n in figures.causes.most_common(8):
                    print(f"  {n:5d}  {cause}")
    finally:
        if args.against:
            remove_worktree(args.against, tmp)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

"""Surprise-zone statistics: heuristic mirror games with the option on, beside the option off.

``python -m kessen.games.kobo.surprise_stats --games 2000`` plays best-of-1 games of the
heuristic COM against itself over the ordered deck pairs (with the option on: the five starter
decks it offers, the ambush deck included; off: the four original decks) and prints, per 【！】
card, how often it was set, flipped, declined (a real choice: its condition had come), cancelled
or not carried out, cleared, and cleaned up by rules 9.5.3 and 9.7.1; then each mode's
first-player win rate and game length. The figures are in docs/surprise.md.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
from collections import Counter
from dataclasses import dataclass, field

from kessen.games.kobo.decks import starter_decks
from kessen.games.kobo.game import new_game
from kessen.games.kobo.heuristic import HeuristicPlayer
from kessen.games.kobo.schema import load_pool
from kessen.games.kobo.state import KoboState

COUNTS = ("set", "flipped", "declined", "cancelled", "no_effect", "cleared", "9.5.3", "9.7.1")


@dataclass
class Tally:
    """What a batch of games showed."""

    games: int = 0
    first_wins: int = 0
    decided: int = 0
    turns: list[int] = field(default_factory=list)
    cards: dict[str, Counter[str]] = field(default_factory=dict)

    def card(self, slug: str) -> Counter[str]:
        """The counters of one card."""
        return self.cards.setdefault(slug, Counter())


def play(config: dict[str, object], seed: int) -> KoboState:
    """One game of the heuristic COM against itself, to its end."""
    state = new_game(config, seed)
    players = [HeuristicPlayer(2 * seed), HeuristicPlayer(2 * seed + 1)]
    while state.pending is not None:
        seat = state.pending.seat
        state.apply(players[seat].choose(state.decision_view(seat), state.legal_actions()))
    return state


def count(state: KoboState, tally: Tally) -> None:
    """Add one finished game to ``tally``."""
    pool = load_pool()
    tally.games += 1
    first = state.first_player
    for winner, _, turns in state.results:
        tally.turns.append(turns)
        if winner >= 0:
            tally.decided += 1
            tally.first_wins += winner == first
    current: dict[int, str] = {}
    for event in state.log:
        info = event.public
        if event.kind == "game_start":
            first = int(info["first"])
        elif event.kind == "surprise_set" and event.private:
            slug = str(event.private["card"])
            current[int(info["seat"])] = slug
            tally.card(slug)["set"] += 1
        elif event.kind == "surprise_flip":
            tally.card(str(info["card"]))["flipped"] += 1
        elif event.kind == "surprise_decline":
            slug = current.get(int(info["seat"]), "")
            conditions = {a.on.value for a in pool.get(slug).surprise} if slug else set()
            if info["condition"] in conditions:
                tally.card(slug)["declined"] += 1
        elif event.kind == "surprise_end" and info["how"] != "resolved":
            how = "cancelled" if info["how"] == "cancelled" else "no_effect"
            tally.card(str(info["card"]))[how] += 1
        elif event.kind == "surprise_clear":
            for slug in info["cards"]:
                tally.card(str(slug))["cleared"] += 1
        elif event.kind == "surprise_rule":
            tally.card(str(info["card"]))[str(info["rule"])] += 1


def run(games: int, surprise: bool, seed: int = 0) -> Tally:
    """``games`` best-of-1 games over the ordered deck pairs of the mode."""
    options = {"surprise"} if surprise else set()
    names = sorted(starter_decks(options=options))
    pairs = list(itertools.product(names, names))
    tally = Tally()
    for index in range(games):
        decks = list(pairs[index % len(pairs)])
        config: dict[str, object] = {"decks": decks, "best_of": 1}
        if surprise:
            config["surprise"] = True
        count(play(config, seed + index), tally)
    return tally


def report(on: Tally, off: Tally) -> str:
    """The figures as Markdown tables."""
    lines = ["| card | " + " | ".join(COUNTS) + " |", "|---" * (len(COUNTS) + 1) + "|"]
    for slug in sorted(on.cards):
        row = on.cards[slug]
        lines.append(f"| {slug} | " + " | ".join(str(row[c]) for c in COUNTS) + " |")
    lines += [
        "",
        "| mode | games | first-player wins | mean turns | median turns |",
        "|---|---|---|---|---|",
    ]
    for name, t in (("surprise on", on), ("surprise off", off)):
        rate = t.first_wins / t.decided if t.decided else 0.0
        lines.append(
            f"| {name} | {t.games} | {rate:.1%} of {t.decided} decided | "
            f"{statistics.fmean(t.turns):.1f} | {statistics.median(t.turns):.0f} |"
        )
    return "\n".join(lines)


def main() -> None:
    """Command line: play both modes and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per mode")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed")
    args = parser.parse_args()
    on = run(args.games, True, args.seed)
    off = run(args.games, False, args.seed)
    print(report(on, off))


if __name__ == "__main__":
    main()

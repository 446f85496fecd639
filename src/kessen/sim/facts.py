"""Per-ruleset game statistics: what the simulator reads from a finished game's full log.

Every ruleset gets the generic statistics of :mod:`kessen.sim.stats` (win rates, the first and
the second player, draws, lengths). On top of them a ruleset has a :class:`Profile`:

- ``cards``: whether per-card statistics (:func:`kessen.sim.stats.card_events`: cards drawn,
  set, activated, placed, deployed) mean something. True for Kōbō, whose cards carry text and
  are chosen into decks; false for TWGP トランプ版, whose cards are the same 26 for every seat
  and carry no text;
- ``facts``: a function from the full (unredacted) log of one game to named counts, averaged
  over the tournament by :func:`kessen.sim.stats.fact_stats` (TWGP: attacks by kind, vitals
  lost, G-blasts, the first player's first turn, set-ups in the middle of a build window...);
- ``facts_help``: one line per fact for the report.

A ruleset without a profile gets the default: card statistics on, no facts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

Facts = Callable[[Iterable[Mapping[str, Any]]], dict[str, float]]


@dataclass(frozen=True)
class Profile:
    """What the simulator reports for a ruleset beyond the generic statistics."""

    cards: bool = True
    facts: Facts | None = None
    facts_help: Mapping[str, str] = field(default_factory=dict)


def twgp_facts(events: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Counts of one TWGP game, from its full log (``Event.visible(None, everything=True)``).

    >>> log = [{"kind": "deal", "first": 1}, {"kind": "turn", "turn": 1, "seat": 1},
    ...        {"kind": "setup", "seat": 1, "square": 1},
    ...        {"kind": "download", "seat": 1, "squares": [1, 2]},
    ...        {"kind": "charge_drive", "seat": 1, "square": 1, "face": "up"},
    ...        {"kind": "setup", "seat": 1, "square": 1},
    ...        {"kind": "battle_phase", "seat": 1},
    ...        {"kind": "direct", "seat": 1, "attacker": 1, "attack": 3}]
    >>> facts = twgp_facts(log)
    >>> facts["first_turn_dig"], facts["first_turn_setups"], facts["mid_window_setups"]
    (2, 2, 1)
    >>> facts["first_turn_attack"], facts["directs"]
    (3, 1)
    """
    out: dict[str, float] = dict.fromkeys(TWGP_FACTS_HELP, 0)
    first: int | None = None
    turn = 0
    turn_seat: int | None = None
    in_build = False
    acted = False  # the turn player acted (other than set-up / re-active) in this build window
    for e in events:
        kind = e.get("kind")
        seat = e.get("seat")
        if kind == "deal":
            first = e.get("first")
        elif kind == "turn":
            turn, turn_seat = int(e.get("turn", 0)), e.get("seat")
            in_build, acted = True, False
        elif kind == "battle_phase":
            in_build = False
        opening = turn == 1 and seat is not None and seat == first
        if kind == "setup" and seat == turn_seat and in_build:
            if acted:
                out["mid_window_setups"] += 1
            if opening:
                out["first_turn_setups"] += 1
        elif in_build and seat == turn_seat and kind not in ("turn", "setup", "reactive"):
            acted = True
        if kind == "download" and opening:
            out["first_turn_dig"] += len(e.get("squares") or ())
        elif kind == "reload_take" and opening:
            out["first_turn_dig"] += int(e.get("took") or 0)
        if kind in ("direct", "assault", "boost"):
            out[kind + "s"] += 1
            if opening:
                out["first_turn_attack"] = max(out["first_turn_attack"], int(e.get("attack") or 0))
            if kind == "assault" and e.get("surge"):
                out["surge_assaults"] += 1
        elif kind == "result" and e.get("type") == "boost" and e.get("outcome") == "attacker":
            out["boost_wins"] += 1
        elif kind == "interrupt":
            out["interrupts"] += 1
        elif kind == "vital_lost":
            out["vitals_lost"] += len(e.get("cards") or e.get("squares") or ())
        elif kind == "grid_blast":
            out["grid_blasts"] += 1
        elif kind == "power_drive":
            out["power_drives"] += 1
        elif kind == "counter_drive":
            out["counter_drives"] += 1
    return out


TWGP_FACTS_HELP: Final[Mapping[str, str]] = {
    "directs": "directs declared",
    "assaults": "assaults declared",
    "surge_assaults": "assaults whose attacker paid surge",
    "boosts": "charge boosts declared",
    "boost_wins": "charge boosts that discarded their target",
    "interrupts": "directs answered by an interrupter",
    "vitals_lost": "vitals lost (both players)",
    "grid_blasts": "G-blasts executed",
    "power_drives": "power drives",
    "counter_drives": "counter drives",
    "first_turn_dig": "cards out of the first player's pile on turn 1",
    "first_turn_setups": "the first player's set-ups on turn 1",
    "first_turn_attack": "the first player's strongest attack power on turn 1 (0: no attack)",
    "mid_window_setups": "set-ups by the turn player after another action of its build window "
    "(§2.9 #27)",
}
"""The TWGP facts and what each counts (per game)."""

PROFILES: Final[Mapping[str, Profile]] = {
    "kobo": Profile(cards=True),
    "twgp": Profile(cards=False, facts=twgp_facts, facts_help=TWGP_FACTS_HELP),
}
DEFAULT: Final = Profile()


def profile(ruleset: str) -> Profile:
    """The profile of ``ruleset`` (the default one if it has none)."""
    return PROFILES.get(ruleset, DEFAULT)

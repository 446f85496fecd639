"""The deck builder's warnings on builds that cannot act (dead_builds.py): exact on turn 1.

Property: a build the builder calls usable without a warning gives seat 0, on turn 1 of a real
game, some action beyond バトル・フェイズへ / ターン終了; a build it warns about gives nothing
else. Over fixed builds (TWGP has no starter builds: those of the spec and the tests), 500
seeded random legal builds from the starting pool (with and without jokers), and the builds
the game deals itself (quickStart).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from kessen.games.twgp.build_book import check, mirror
from kessen.games.twgp.build_rules import pool_slugs
from kessen.games.twgp.cards import CARDS
from kessen.games.twgp.dead_builds import build_warnings
from kessen.games.twgp.game import new_game
from kessen.games.twgp.state import HAND, TwgpState

ISSUE = {
    "vitals": ["s9", "c9", "s8"],
    "hand": ["sq", "cq", "sj", "cj", "s10", "c10"],
    "aside": ["c8", "s7", "c7"],
}
FIXED: list[dict[str, Any]] = [
    ISSUE,
    # §2.11's worked sequence: P1's vitals ♠10 ♣10 ♠K, hand ♠3 ♣2 ♠A ♠5 ♣8 ♠J
    {
        "vitals": ["s10", "c10", "sk"],
        "hand": ["s3", "c2", "sa", "s5", "c8", "sj"],
        "aside": ["s9", "c9", "s8"],
    },
    {"vitals": ["s10", "c10", "sk"], "hand": ["sa"], "aside": ["s9", "c9", "s8"]},
    {"vitals": ["s10", "c10", "sk"], "hand": [], "aside": ["s9", "c9", "s8"]},
    {"vitals": ["s10", "c10", "sk"], "hand": ["s4", "c4", "s5"], "aside": ["s9", "c9", "s8"]},
    {"vitals": ["sa", "ca", "s2"], "hand": ["c2", "sq"], "aside": ["s3", "c3", "s4"]},
    {"vitals": ["sa", "ca", "s2"], "hand": ["sq", "ck", "s9"], "aside": ["s3", "c3", "c2"]},
    {
        "jokers": True,
        "vitals": ["s10", "c10", "sk"],
        "hand": ["joker-b", "sq"],
        "aside": ["sa", "ca", "s2", "c2"],
    },
]
OPPONENT = {"vitals": ["h10", "d10", "hk"], "hand": ["ha"], "aside": ["h9", "d9", "h8"]}
PASSES = {"battle", "end"}


def random_build(rng: random.Random) -> dict[str, Any]:
    """A legal build: 3 vitals, 3 (4 with jokers) set aside, a 0-6 card hand from the deck."""
    jokers = rng.random() < 0.25
    pool = list(pool_slugs(0, jokers))
    rng.shuffle(pool)
    aside_n = 4 if jokers else 3
    vitals, aside, deck = pool[:3], pool[3 : 3 + aside_n], pool[3 + aside_n :]
    hand = rng.sample(deck, rng.randint(0, 6))
    return {"jokers": jokers, "vitals": vitals, "hand": hand, "aside": aside}


def start(build: dict[str, Any], seed: int) -> TwgpState:
    """A game with ``build`` for seat 0 (who goes first) and a fixed one for seat 1."""
    jokers = bool(build.get("jokers"))
    opponent = {part: [mirror(s, 1) for s in OPPONENT[part]] for part in OPPONENT}
    if jokers:
        opponent["aside"] = [*opponent["aside"], "joker-r"]
    mine = {part: build[part] for part in ("vitals", "hand", "aside")}
    return new_game({"builds": [mine, opponent], "firstPlayer": 0, "jokers": jokers}, seed)


def turn_one_acts(build: dict[str, Any], seed: int) -> bool:
    """Whether seat 0, first on turn 1 with ``build``, has any action beyond passing."""
    return acts_on_turn_one(start(build, seed))


def acts_on_turn_one(state: TwgpState) -> bool:
    """Whether seat 0, first on turn 1 of ``state``, has any action beyond passing."""
    for _ in range(2):  # the build window, then (after バトル・フェイズへ) the battle window
        pending = state.pending
        assert pending is not None and pending.seat == 0 and state.turn == 1
        actions = state.legal_actions()
        if any(a.verb not in PASSES for a in actions):
            return True
        step = [a for a in actions if a.verb == "battle"]
        if not step:
            return False
        state.apply(step[0])
    return False


def verdict(build: dict[str, Any]) -> list[str]:
    """The builder's warning codes for a build it calls legal (fails on a problem)."""
    checked = check(build, "en")
    assert checked.problems == [], checked.problems
    return [w["code"] for w in checked.warnings]


def test_the_issue_build_is_legal_but_warned() -> None:
    checked = check(ISSUE, "ja")
    assert checked.problems == []
    assert [w["code"] for w in checked.warnings] == ["no-starter"]
    assert "03以下" in checked.warnings[0]["text"]
    assert "base 03 or less" in check(ISSUE, "en").warnings[0]["text"]
    assert not turn_one_acts(ISSUE, 1)


def test_a_build_with_problems_carries_no_warning() -> None:
    assert check({"vitals": ["s10"], "hand": [], "aside": []}, "en").warnings == []
    assert build_warnings(["zz"]) == []


@pytest.mark.parametrize("build", FIXED)
def test_fixed_builds_warn_exactly_when_turn_one_is_dead(build: dict[str, Any]) -> None:
    assert bool(verdict(build)) == (not turn_one_acts(build, 3))


def test_random_legal_builds_warn_exactly_when_turn_one_is_dead() -> None:
    rng = random.Random(20240611)
    flagged = unflagged = 0
    for i in range(500):
        build = random_build(rng)
        warned = bool(verdict(build))
        acts = turn_one_acts(build, i)
        assert warned != acts, (build, warned, acts)
        flagged += warned
        unflagged += not warned
    assert flagged >= 50 and unflagged >= 250  # both directions were really exercised


def test_a_warned_build_stays_idle_while_it_takes_no_damage() -> None:
    """The warning says "until it loses a vital": with an opponent that only passes, the
    warned seat is offered nothing but passing on its turns for a long while."""
    rng = random.Random(7)
    builds = [ISSUE, FIXED[3], *(b for b in (random_build(rng) for _ in range(60)) if verdict(b))]
    for n, build in enumerate(builds[:20]):
        state = start(build, n)
        turns = set()
        while (pending := state.pending) is not None:  # until the quiet-turns draw (§2.7)
            turns.add(state.turn)
            actions = state.legal_actions()
            if pending.seat == 0:
                assert {a.verb for a in actions} <= PASSES, (build, [str(a) for a in actions])
            passes = [a for a in actions if a.verb in PASSES]
            state.apply(passes[0])
        assert state.outcome is not None and len(turns) >= 12


def test_quick_start_deals_warn_exactly_when_turn_one_is_dead() -> None:
    """The builds the game deals itself (switch quickStart, with and without jokers): a
    starting hand the builder would not warn about gives seat 0 something to do on turn 1."""
    acting = 0
    for seed in range(120):
        jokers = seed % 4 == 0
        state = new_game({"quickStart": True, "firstPlayer": 0, "jokers": jokers}, seed)
        hand = [CARDS[c].slug for c in state.zone(0, HAND)]
        warned = bool(build_warnings(hand))
        acts = acts_on_turn_one(state)
        assert warned != acts, (hand, warned, acts)
        acting += acts
    assert acting >= 60

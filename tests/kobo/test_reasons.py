"""Why a card cannot be used now (issue 24 item 4): one reason per unusable card, matching
``legal_actions`` exactly, in the seat's own view only; and the standby's trap warning."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.games.kobo import text
from kessen.games.kobo.flow import chain_actions
from kessen.games.kobo.reasons import WARN_FREE_SLOTS, standby_warning, unplayable_reasons
from kessen.games.kobo.state import EMPTY, HAND, SLOTS, THAND, KoboState
from tests.kobo.harness import Side, board, fixed_order_match, play

DECKS = ["fortress", "swarm", "tempo", "vanguard"]
PAD = ["hinder", "hinder", "hinder"]
WAITING = {"no_priority", "busy", "not_your_turn"}


def _random_states(count: int, seed: int) -> Iterator[KoboState]:
    """Every decision point of ``count`` random best-of-1 games over the starter deck pairs."""
    rules = registry.get("kobo")
    pairs = list(itertools.product(DECKS, DECKS))
    for game in range(count):
        decks = pairs[(seed + game) % len(pairs)]
        state = rules.new_game({"decks": list(decks), "best_of": 1}, seed + game)
        assert isinstance(state, KoboState)
        rnd = random.Random(seed + game)
        while state.pending is not None:
            yield state
            options = state.legal_actions()
            state.apply(options[rnd.randrange(len(options))])


def _usable(state: KoboState, seat: int) -> set[tuple[str, int]]:
    """(zone, index or slot) of every card or choice ``legal_actions`` offers ``seat`` now."""
    pending = state.pending
    legal = state.legal_actions() if pending is not None and pending.seat == seat else []
    out: set[tuple[str, int]] = set()
    for i, card in enumerate(state.zone(seat, THAND)):
        slug = state.defs[card].slug
        if Action.of("play", slug) in legal or Action.of("exclude", slug) in legal:
            out.add(("tactics_hand", i))
    for i, card in enumerate(state.zone(seat, HAND)):
        if Action.of("pick", state.defs[card].slug) in legal:
            out.add(("hand", i))
    for slot in range(1, SLOTS + 1):
        if Action.of("trap", slot) in legal or Action.of("exclude-trap", slot) in legal:
            out.add(("strategy", slot))
        if Action.of("attack", slot) in legal and state.stack[-1][0] == "declare":
            out.add(("battle", slot))
        if Action.of("target", slot) in legal:
            out.add(("target", slot))
    return out


def _candidates(state: KoboState, seat: int) -> set[tuple[str, int]]:
    """(zone, index or slot) of everything the reasons must cover for ``seat`` now."""
    out = {("tactics_hand", i) for i in range(len(state.zone(seat, THAND)))}
    out |= {("hand", i) for i in range(len(state.zone(seat, HAND)))}
    for slot in range(SLOTS):
        card = state.strategy[seat * SLOTS + slot]
        if card != EMPTY and not state.faceup[card]:
            out.add(("strategy", slot + 1))
    top = state.stack[-1] if state.stack else ("",)
    if top[0] == "declare" and state.turn_player == seat:
        for slot in range(SLOTS):
            mine = state.battle[seat * SLOTS + slot]
            if mine != EMPTY and mine not in top[1:]:
                out.add(("battle", slot + 1))
            if state.battle[(1 - seat) * SLOTS + slot] != EMPTY:
                out.add(("target", slot + 1))
    return out


def _where(entry: dict[str, Any]) -> tuple[str, int]:
    return entry["zone"], entry["index"] if "index" in entry else entry["slot"]


def test_each_unusable_card_has_one_reason_and_no_usable_card_has_one() -> None:
    """Over every decision of 24 random games, for both seats: the cards with a reason are
    exactly the cards ``legal_actions`` does not offer, each listed once with a known code."""
    codes: set[str] = set()
    checked = 0
    for state in _random_states(24, 7):
        for seat in (0, 1):
            entries = unplayable_reasons(state, seat)
            places = [_where(e) for e in entries]
            assert len(places) == len(set(places)), entries
            candidates = _candidates(state, seat)
            assert set(places) == candidates - _usable(state, seat), (state.pending, entries)
            for entry in entries:
                assert entry["code"] in text.REASON_CODES
                codes.add(entry["code"])
            checked += len(candidates)
    assert checked > 10_000
    # The random games reach the common reasons (not all: some need rare boards, below).
    assert {"no_chain", "no_priority", "not_your_turn", "timing", "strategy_full"} <= codes


def test_in_a_chain_the_card_reasons_explain_what_the_seat_could_play_with_priority() -> None:
    """For the seat without priority too: a chain card's own reason (not a waiting one) is
    given exactly when :func:`chain_actions` would not offer it."""
    for state in _random_states(12, 40):
        if state.pending is None or state.pending.prompt != "chain":
            continue
        for seat in (0, 1):
            offered = {str(a) for a in chain_actions(state, seat)}
            for entry in unplayable_reasons(state, seat):
                if entry["zone"] == "tactics_hand":
                    action = f"play {entry['slug']}"
                elif entry["zone"] == "strategy":
                    action = f"trap {entry['slot']}"
                else:
                    continue
                assert (entry["code"] in WAITING) == (action in offered), entry


def _exchange(attacker: Side, defender: Side, *declare: str) -> KoboState:
    if not defender.tactics_deck:
        defender.tactics_deck = PAD
    s = board(attacker, defender)
    play(s, *(declare or ("attack 1", "target 1")))
    return s


def _reasons(state: KoboState, seat: int) -> dict[str, tuple[str, dict[str, object]]]:
    return {e["slug"]: (e["code"], e["params"]) for e in unplayable_reasons(state, seat)}


def test_timing_no_link_and_no_target() -> None:
    s = _exchange(
        Side(battle=["white-fox-miko"], tactics_hand=["ceasefire", "counter-spell"]),
        Side(battle=["crimson-cavalier"], tactics_hand=["battle-cry"], traps=["decoy"]),
    )
    # Seat 1 defends and holds priority: a 【攻撃時】 tactic, and a decoy with nobody but the
    # target to redirect the attack to.
    assert _reasons(s, 1) == {
        "battle-cry": ("timing", {"needs": "attacking"}),
        "decoy": ("no_target", {"side": "own"}),
    }
    # Seat 0 waits; its 【防御時】 card could not be played anyway, nor a negation of nothing.
    assert _reasons(s, 0) == {
        "ceasefire": ("timing", {"needs": "defending"}),
        "counter-spell": ("no_link", {}),
    }


def test_a_full_strategy_area_and_a_waiting_seat() -> None:
    s = _exchange(
        Side(
            battle=["white-fox-miko"],
            traps=["battle-cry"] * 5,
            tactics_hand=["power-surge"],
        ),
        Side(battle=["crimson-cavalier"]),
    )
    assert _reasons(s, 0) == {
        "power-surge": ("strategy_full", {"slots": 5}),
        "battle-cry": ("no_priority", {}),
    }
    play(s, "pass")
    assert _reasons(s, 0) == {"power-surge": ("strategy_full", {"slots": 5})}
    assert "trap 1" in [str(a) for a in s.legal_actions()]


def test_the_lv_cap_of_a_multi_attack() -> None:
    s = board(  # Lvs pinned: the scenario does not move with the printed card data
        Side(
            battle=["white-fox-miko", "spear-ashigaru", "crimson-cavalier"],
            base={1: 3, 2: 2, 3: 4},
        ),
        Side(battle=["spear-ashigaru", "great-tengu"], tactics_deck=PAD, base={1: 2, 2: 5}),
    )
    play(s, "attack 1")  # Lv3; the strongest foe is Lv5, so at most 6 in all
    assert _reasons(s, 0) == {"crimson-cavalier": ("lv_cap", {"cap": 6, "total": 7})}
    play(s, "attack 2")  # 3 + 2 = 5: too much for the Lv2 ashigaru (cap 3)
    entries = unplayable_reasons(s, 0)
    assert {(e["zone"], e["slot"], e["code"]) for e in entries} == {
        ("battle", 3, "lv_cap"),
        ("target", 1, "lv_cap"),
    }
    target = next(e for e in entries if e["zone"] == "target")
    assert target["params"] == {"cap": 3, "total": 5}


def test_the_reasons_are_in_the_seats_own_view_only() -> None:
    s = _exchange(
        Side(battle=["white-fox-miko"], tactics_hand=["ceasefire"]),
        Side(battle=["crimson-cavalier"], tactics_hand=["battle-cry"]),
    )
    mine = s.view(0, "en")["why_not"]
    assert [(e["slug"], e["text"]) for e in mine] == [
        ("ceasefire", "[When defending] Only while one of your characters is the attack target.")
    ]
    assert all(e["slug"] != "ceasefire" for e in s.view(1)["why_not"])
    assert s.view(None)["why_not"] is None and s.view_all()["why_not"] is None


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_reason_code_has_words(lang: str) -> None:
    params: dict[str, dict[str, object]] = {
        "timing": {"needs": "defending"},
        "no_target": {"side": "opponent"},
        "strategy_full": {"slots": 5},
        "busy": {"prompt": "target"},
        "lv_cap": {"cap": 4, "total": 6},
    }
    for code in text.REASON_CODES:
        words = text.reason_text(code, params.get(code, {}), lang)
        assert words and "{" not in words
    for outcome in text.OUTCOMES:
        assert text.outcome_text(outcome, lang) != outcome


def _standby_setting_traps() -> KoboState:
    """Seat 0's standby with a hand of 1 character and 6 traps, and tactics to come."""
    traps = ["unhealing-wound", "decoy", "thorn-armor", "steadfast", "counter-seal", "holy-barrier"]
    main0 = ["white-fox-miko", *traps, "spear-ashigaru"]
    main1 = ["crimson-cavalier", "great-tengu", "shadow-shinobi"] * 3
    tactics = ["power-surge", "weaken", "hinder", "total-war", "swift-step"]
    return fixed_order_match((main0, main1), (tactics, tactics))


def test_the_standby_warns_before_traps_take_the_last_slots() -> None:
    s = _standby_setting_traps()
    play(s, "pick white-fox-miko", "slot 1")
    seen: list[Any] = []
    for n in range(5):
        play(s, f"pick {next(c for c in _hand_slugs(s) if c != 'spear-ashigaru')}")
        warning = s.view(0)["pending"]["context"].get("warning")
        seen.append(None if warning is None else warning["params"])
        assert s.view(1)["pending"]["context"] == {}  # nothing of it for the opponent
        play(s, f"slot {n + 1}")
    assert seen[:3] == [None, None, None]
    assert seen[3] == {"free_after": WARN_FREE_SLOTS, "traps_in_hand": 2, "tactics": 5}
    assert seen[4] == {"free_after": 0, "traps_in_hand": 1, "tactics": 5}
    play(s, "pick holy-barrier")  # the area is full: only a discard is left, no warning
    assert standby_warning(s, 0) is None
    assert [str(a) for a in s.legal_actions()] == ["discard"]


def test_the_warning_has_words() -> None:
    s = _standby_setting_traps()
    play(s, "pick white-fox-miko", "slot 1")
    for n in range(4):
        play(s, f"pick {next(c for c in _hand_slugs(s) if c != 'spear-ashigaru')}")
        if n < 3:
            play(s, f"slot {n + 1}")
    warning = s.view(0, "en")["pending"]["context"]["warning"]
    assert warning["code"] == "traps_fill_strategy"
    assert warning["text"].startswith("Setting this trap leaves 1 free strategy slot")
    assert "2 more trap(s)" in warning["text"]


def _hand_slugs(state: KoboState) -> list[str]:
    return [state.defs[c].slug for c in state.zone(0, HAND)]


def test_cards_picked_for_a_pass_penalty_have_no_reason() -> None:
    """The 3rd pass excludes 2 cards; with no tactics deck they come from the hand, then from
    the face-down traps: those picks are uses of the cards, not refusals."""
    s = board(
        Side(battle=["white-fox-miko"], tactics_hand=["power-surge"], traps=["decoy"], passes=2),
        Side(battle=["crimson-cavalier"], tactics_deck=PAD),
    )
    assert _reasons(s, 0) == {"power-surge": ("no_chain", {}), "decoy": ("no_chain", {})}
    play(s, "pass")
    assert s.pending is not None and s.pending.prompt == "penalty"
    assert _reasons(s, 0) == {"decoy": ("no_chain", {})}
    play(s, "exclude power-surge")
    assert [str(a) for a in s.legal_actions()] == ["exclude-trap 1"]
    assert _reasons(s, 0) == {}

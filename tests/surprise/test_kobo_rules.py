"""The surprise zone in Kōbō: the seed's rules (S-scenarios) on the real game, option on.

Each test names its scenario of the spec and says its given / when / then in Kōbō's words:
Set/Clear at the turn's opening decision, the tactics hand and deck as "hand" and "draw",
the retreat area as the waiting room, the 攻防連鎖 as the resolution zone.
"""

from __future__ import annotations

import pytest

from kessen.engine.action import Action
from kessen.engine.surprise import SURPRISE, parse_line
from kessen.games.kobo.config import ConfigError, parse_config
from kessen.games.kobo.game import new_game
from kessen.games.kobo.schema import load_pool
from kessen.games.kobo.state import RETREAT, TDECK, THAND, KoboState
from kessen.games.kobo.surprise import face_down_card, zone_cards
from kessen.games.kobo.text import card_text
from tests.surprise.kobo_helpers import (
    act,
    attack_first,
    config,
    pass_chain,
    slugs,
    to_first_turn,
    zone_slugs,
)

P0, P1 = 0, 1
HANDS = (["battle-signal", "weaken"], ["ambush-shield", "smoke-veil", "counter-ambush"])


def _legal(state: KoboState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def _to_p1_set(card: str = "ambush-shield", cancelled: str = "rule_process") -> KoboState:
    """Turn 1: P0 passes; turn 2: P1 sets ``card``; then P1 passes: turn 3, P0 to decide."""
    hands = HANDS if card in HANDS[1] else (HANDS[0], [card, *HANDS[1]])
    state = to_first_turn(hands, cancelled)
    act(state, "pass")
    act(state, f"surprise-set {card}")
    act(state, "pass")
    return state


def test_s01_pool_texts_parse_as_surprise_lines() -> None:
    """S01: every 【！】 card's generated line parses as one surprise ability (condition in
    brackets, effect after →); its tactic line is not one."""
    cards = [c for c in load_pool() if c.surprise]
    assert len(cards) >= 6
    for card in cards:
        lines = card_text(card, "ja").splitlines()
        parsed = [parse_line(line) for line in lines]
        surprise = [p for p in parsed if p is not None and p.surprise]
        assert len(surprise) == len(card.surprise), card.slug
        assert all(p is None for p in parsed[:-1])


def test_option_off_by_default_and_decks_that_need_it_are_refused() -> None:
    """The option is off by default; a deck that requires it is refused without it."""
    assert parse_config({"decks": ["tempo", "swarm"]}).surprise is False
    with pytest.raises(ConfigError, match="needs the match option surprise"):
        parse_config({"decks": ["ambush", "tempo"]})
    off = new_game({"decks": ["tempo", "swarm"], "best_of": 1}, 3)
    assert off.surprise is None and "surprise" not in off.to_json()
    assert "surprise" not in off.view(0) and "surprise" not in off.view(0)["players"][0]


def test_s16_s17_no_set_in_turn_1_set_in_turn_2() -> None:
    """S16/S17: no Set in the first player's first turn; Set offered in the second player's
    first turn (one action per distinct tactics-hand card)."""
    state = to_first_turn(HANDS)
    assert not any(a.startswith("surprise") for a in _legal(state))
    act(state, "pass")
    legal = _legal(state)
    hand = sorted(set(slugs(state, state.zone(P1, THAND))))
    assert sorted(a.split()[1] for a in legal if a.startswith("surprise-set")) == hand


def test_s13_set_face_down_with_a_stamp_then_draw_1() -> None:
    """S13: Set puts the card face down with a stamp; the tactics hand keeps its size and the
    tactics deck loses one."""
    state = to_first_turn(HANDS)
    act(state, "pass")
    hand, deck = len(state.zone(P1, THAND)), len(state.zone(P1, TDECK))
    act(state, "surprise-set ambush-shield")
    assert zone_slugs(state, P1) == ["ambush-shield"]
    card = zone_cards(state, P1)[0]
    assert not state.faceup[card] and state.surprise is not None
    assert state.surprise.zones[P1][0][1] >= 1
    assert len(state.zone(P1, THAND)) == hand and len(state.zone(P1, TDECK)) == deck - 1


def test_s20_s09_one_zone_action_per_turn_and_none_into_an_occupied_zone() -> None:
    """S20: after Set, neither Set nor Clear this turn. S09: next turn, no Set into the
    occupied zone (Clear is offered)."""
    state = to_first_turn(HANDS)
    act(state, "pass")
    act(state, "surprise-set ambush-shield")
    assert not any(a.startswith("surprise") for a in _legal(state))
    act(state, "pass")
    act(state, "pass")  # P0 passes turn 3: P1 (who holds a face-down card) is asked
    act(state, "decline")
    legal = _legal(state)  # P1's turn 4
    assert "surprise-clear" in legal and not any(a.startswith("surprise-set") for a in legal)


def test_s19_s21_s22_clear_to_the_retreat_area_face_up_then_set_refused() -> None:
    """S19: Clear puts the card face up in the retreat area, no draw. S21: Set refused after
    it. S22: the next turn offers Set again."""
    state = _to_p1_set()
    act(state, "pass")  # P0 passes: P1 is asked (opponent_pass), then turn 4, P1
    act(state, "decline")
    deck = len(state.zone(P1, TDECK))
    act(state, "surprise-clear")
    assert zone_cards(state, P1) == [] and slugs(state, state.zone(P1, RETREAT))[-1:] == [
        "ambush-shield"
    ]
    assert len(state.zone(P1, TDECK)) == deck
    view = state.view(P0)
    assert view["players"][P1]["retreat"][-1]["slug"] == "ambush-shield"
    assert not any(a.startswith("surprise-set") for a in _legal(state))
    act(state, "pass")
    act(state, "pass")
    assert any(a.startswith("surprise-set") for a in _legal(state))


def test_s14_s15_empty_hand_no_set_empty_deck_set_draws_nothing() -> None:
    """S14: with an empty tactics hand, no Set. S15: with an empty tactics deck, Set works and
    draws nothing (Kōbō's draw rule: nothing to draw, no loss)."""
    state = to_first_turn(HANDS)
    act(state, "pass")
    hand = state.zone(P1, THAND)
    state.zone(P1, RETREAT).extend(state.zone(P1, TDECK))
    state.zone(P1, TDECK).clear()
    state.legal = None
    act(state, f"surprise-set {slugs(state, hand)[0]}")
    assert len(zone_cards(state, P1)) == 1 and state.pending is not None
    for zone in (THAND, TDECK):  # P0: nothing in hand, nothing to draw at its turn
        state.zone(P0, RETREAT).extend(state.zone(P0, zone))
        state.zone(P0, zone).clear()
    act(state, "pass")
    assert not any(a.startswith("surprise-set") for a in _legal(state))


def test_s02_s07_s33_s34_attacked_owner_flips_a_chain_link_that_resolves() -> None:
    """S02/S07: P0 attacks; only P1 is asked, P0 sees neither the card nor P1's choices; P1
    flips: a chain link. S33: the card stays while the link waits. S34: after it resolves,
    the next check moves it face up to P1's retreat area."""
    state = _to_p1_set()
    card = zone_cards(state, P1)[0]
    attack_first(state)
    assert state.pending is not None and state.pending.prompt == "surprise"
    assert state.pending.seat == P1 and _legal(state) == ["flip", "decline"]
    seen = state.view(P0)
    assert seen["pending"]["legal"] is None and "card" not in seen["pending"]["context"]
    assert seen["players"][P1]["surprise"] == [{"face": "down", "stamp": 1}]
    target = state.target
    base = state.base[target]
    act(state, "flip")
    assert state.faceup[card] and [link[0] for link in state.chain] == [card]
    assert zone_cards(state, P1) == [card]  # S33
    assert state.view(P0)["chain"][0]["surprise"] is True
    pass_chain(state)
    assert state.base[target] == base + 1 or card in state.zone(P1, RETREAT)
    assert zone_cards(state, P1) == [] and card in state.zone(P1, RETREAT)
    kinds = [e.kind for e in state.log]
    assert {"surprise_flip", "surprise_end", "surprise_rule"} <= set(kinds)


def test_s03_decline_keeps_it_face_down_and_armed() -> None:
    """S03: P1 declines: the card stays face down, nothing enters the chain; the next attack
    asks again."""
    state = _to_p1_set()
    card = zone_cards(state, P1)[0]
    attack_first(state)
    act(state, "decline")
    assert not state.faceup[card] and state.chain == []
    pass_chain(state)
    while state.pending is not None and state.pending.prompt != "turn":
        state.apply(state.legal_actions()[0])
    if state.turn_player == P1:
        act(state, "pass")
    attack_first(state)
    assert state.pending is not None and state.pending.prompt == "surprise"
    assert face_down_card(state, P1) == card


def test_prompt_is_asked_whatever_the_card_but_only_a_match_may_flip() -> None:
    """The flip prompt tells the opponent nothing: with a card of another condition set, P1 is
    still asked when attacked (its deck holds 【！】 cards of that condition) and may only
    decline."""
    state = _to_p1_set("smoke-veil")
    attack_first(state)
    assert state.pending is not None and state.pending.prompt == "surprise"
    assert _legal(state) == ["decline"]


def _negated(cancelled: str) -> tuple[KoboState, int]:
    """P1's ambush-shield flips on P0's attack; P0 (tempo deck) negates it with counter-spell."""
    hands = (["counter-spell", "weaken"], HANDS[1])
    state = to_first_turn(hands, cancelled, first_deck="tempo")
    act(state, "pass")
    act(state, "surprise-set ambush-shield")
    act(state, "pass")
    card = zone_cards(state, P1)[0]
    attack_first(state)
    act(state, "flip")
    act(state, "play counter-spell")
    pass_chain(state)
    return state, card


def test_s36_cancelled_default_leaves_at_the_next_check() -> None:
    """S36: the surprise link negated: the card is not resolved and leaves at the next check
    (default ``rule_process``)."""
    state, card = _negated("rule_process")
    ends = [e.public.get("how") for e in state.log if e.kind == "surprise_end"]
    assert ends == ["cancelled"]
    assert card in state.zone(P1, RETREAT) and zone_cards(state, P1) == []


def test_s37_cancelled_stay_blocks_set_until_clear() -> None:
    """S37: under ``stay`` the cancelled card stays face up; Set is refused, Clear moves it."""
    state, card = _negated("stay")
    assert zone_cards(state, P1) == [card] and state.faceup[card]
    while state.pending is not None and not (
        state.pending.prompt == "turn" and state.turn_player == P1
    ):
        state.apply(
            state.legal_actions()[-1]
            if state.pending.prompt == "turn"
            else state.legal_actions()[0]
        )
    legal = _legal(state)
    assert "surprise-clear" in legal and not any(a.startswith("surprise-set") for a in legal)
    act(state, "surprise-clear")
    assert card in state.zone(P1, RETREAT)


def test_s29_s39_rule_processes_on_an_overfilled_zone() -> None:
    """S29: an effect-like placement of a second card: 9.5.3 keeps the newest. S39: with the
    newest face up and orphaned, both leave in one check."""
    state = _to_p1_set()
    assert state.surprise is not None
    older = zone_cards(state, P1)[0]
    newer = state.zone(P1, THAND).pop()
    state.surprise.stamp += 1
    state.surprise.zones[P1].append((newer, state.surprise.stamp))
    from kessen.games.kobo.surprise import check

    check(state)
    assert zone_cards(state, P1) == [newer] and older in state.zone(P1, RETREAT)
    extra = state.zone(P1, THAND).pop()
    state.surprise.stamp += 1
    state.surprise.zones[P1].append((extra, state.surprise.stamp))
    state.faceup[extra] = True
    check(state)
    assert zone_cards(state, P1) == [] and {newer, extra} <= set(state.zone(P1, RETREAT))
    rules = [e.public["rule"] for e in state.log if e.kind == "surprise_rule"]
    assert rules == ["9.5.3", "9.5.3", "9.7.1"]


def test_the_face_down_card_counts_as_a_remaining_card() -> None:
    """A face-down surprise card can still be used: it counts for the wipe tie-breaker."""
    state = to_first_turn(HANDS)
    act(state, "pass")
    before = state.remaining_cards(P1)
    act(state, "surprise-set ambush-shield")
    assert (
        state.remaining_cards(P1) == before
    )  # one from the hand into the zone, one drawn: -1 deck


def test_actions_are_texts_like_the_others() -> None:
    """Set/Clear/flip/decline parse back from their text."""
    for text in ("surprise-set ambush-shield", "surprise-clear", "flip", "decline"):
        assert str(Action.parse(text)) == text
    assert SURPRISE == "surprise"


def test_configs_round_trip_and_validate_cancelled() -> None:
    """The option and its switch are stored in the config (and only when on)."""
    parsed = parse_config(config("stay"))
    assert parsed.to_json()["surprise"] is True and parsed.to_json()["cancelled_surprise"] == "stay"
    with pytest.raises(ConfigError, match="cancelled_surprise"):
        parse_config(config("never"))
    with pytest.raises(ConfigError, match="surprise: expected"):
        parse_config({**config(), "surprise": "yes"})


def test_s11_s12_no_zone_action_outside_the_turn_players_opening_decision() -> None:
    """S11/S12: inside the chain (an ability waits there) and for the non-turn player, no Set
    and no Clear; only the turn prompt offers them."""
    state = _to_p1_set()
    attack_first(state)
    act(state, "decline")
    while state.pending is not None and state.pending.prompt != "turn":
        assert not any(a.startswith("surprise-") for a in _legal(state)), state.pending
        state.apply(state.legal_actions()[-1])


def test_s18_clear_in_turn_1_when_an_effect_filled_the_zone() -> None:
    """S18: in the first player's first turn, a card placed by an effect may be Cleared (only
    Set is banned)."""
    state = to_first_turn(HANDS)
    assert state.surprise is not None
    card = state.zone(P0, THAND).pop()
    state.surprise.stamp += 1
    state.surprise.zones[P0].append((card, state.surprise.stamp))
    state.legal = None
    legal = _legal(state)
    assert "surprise-clear" in legal and not any(a.startswith("surprise-set") for a in legal)


def test_s35_a_card_turned_face_up_otherwise_leaves_at_the_next_check() -> None:
    """S35: a surprise card face up with no instance of it waiting leaves at the next check."""
    from kessen.games.kobo.surprise import check

    state = _to_p1_set()
    card = zone_cards(state, P1)[0]
    state.faceup[card] = True
    check(state)
    assert zone_cards(state, P1) == [] and card in state.zone(P1, RETREAT)
    assert [e.public["rule"] for e in state.log if e.kind == "surprise_rule"] == ["9.7.1"]


def test_a_flip_outside_a_chain_resolves_at_once() -> None:
    """After the opponent's pass (no chain), a flipped 【！】 ability resolves at once: P1's
    seize-the-lull lowers every P0 character's base Lv, then leaves by 9.7.1."""
    state = _to_p1_set("seize-the-lull")
    before = {c: state.base[c] for c in state.characters(P0)}
    act(state, "pass")
    assert state.pending is not None and state.pending.prompt == "surprise"
    act(state, "flip")
    flip = next(e for e in state.log if e.kind == "surprise_flip")
    assert flip.public["link"] == 0 and state.chain == []
    for card, base in before.items():
        assert state.base[card] == max(0, base - 1)
    assert _left_for_retreat(state)


def _left_for_retreat(state: KoboState) -> bool:
    """P1's surprise zone is empty and its card went to the retreat area."""
    return zone_cards(state, P1) == [] and "seize-the-lull" in slugs(state, state.zone(P1, RETREAT))

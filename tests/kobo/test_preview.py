"""The exchange preview and the resolution record (issue 24 items 1 and 2).

The preview must equal what really happens when both players pass at once; it must not depend
on anything hidden from the reader; the resolution record must step through the links
last-first with each link's effects.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.games.kobo import text
from kessen.games.kobo.preview import chain_preview, resolution_record
from kessen.games.kobo.state import EMPTY, KoboState
from tests.kobo.harness import Side, board, play
from tests.surprise.kobo_helpers import act, attack_first, pass_chain, to_first_turn

DECKS = ["fortress", "swarm", "tempo", "vanguard"]
PAD = ["hinder", "hinder", "hinder"]


def _random_games(count: int, seed: int) -> Iterator[KoboState]:
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


@cache
def _chain_states() -> list[KoboState]:
    """Copies of every chain prompt of 16 random games."""
    return [
        s.clone()
        for s in _random_games(16, 100)
        if s.pending is not None and s.pending.prompt == "chain"
    ]


def _close(state: KoboState) -> KoboState:
    """A copy in which both players pass until the chain closes (the real resolution)."""
    real = state.clone()
    while real.pending is not None and real.pending.prompt == "chain":
        real.apply(Action.of("pass"))
    return real


def _comparable(record: dict[str, Any]) -> dict[str, Any]:
    """The parts of a real resolution record that the preview simulates."""
    out = {k: record[k] for k in ("links", "after", "game_end")}
    result = record["result"]
    out["outcome"] = "game_end" if result is None else result["outcome"]
    return out


def test_the_random_games_have_chains_to_preview() -> None:
    states = _chain_states()
    assert len(states) > 200
    assert sum(1 for s in states if len(s.chain) >= 2) > 50


def test_the_preview_equals_the_real_resolution() -> None:
    """Every chain is public, so at every chain prompt the preview must be exactly what both
    players passing now gives: the same links, effects, result and retreats."""
    outcomes: set[str] = set()
    for state in _chain_states():
        for seat in (0, 1):
            preview = chain_preview(state, seat)
            assert preview is not None and preview["exact"] is True
            real = _close(state)
            log = [e.visible(seat) for e in real.log]
            record = resolution_record(log)
            assert record is not None
            passes = 2 - state.chain_passes  # the chain_pass entries before chain_closed
            assert record["log_index"] == len(state.log) + passes
            want = _comparable(record)
            got = {k: preview[k] for k in ("after", "game_end", "outcome")}
            got["links"] = preview["steps"]
            assert got == want
            outcomes.add(preview["outcome"])
            result = record["result"]
            if result is not None and result["attack"] is not None:
                assert (preview["attack"], preview["defence"]) == (
                    result["attack"],
                    result["defence"],
                )
            if record["game_end"] is None:
                gone = {
                    (state.owner[c], state.slot_of(c) + 1, state.defs[c].slug)
                    for c in state.battle
                    if c != EMPTY and not real.on_field(c)
                }
                assert {(r["seat"], r["slot"], r["slug"]) for r in preview["retreats"]} == gone
    assert {"attacker_wins", "defender_wins"} <= outcomes


def test_two_true_states_with_the_same_view_give_the_same_preview() -> None:
    """Resampling everything hidden from a seat keeps its view, so it must keep its preview
    (and the whole exchange part of the view) too; observers likewise."""
    for n, state in enumerate(_chain_states()[::3]):
        for seat in (0, 1):
            other = state.resample_hidden(seat, 1000 + n)
            assert chain_preview(other, seat) == chain_preview(state, seat)
            assert other.view(seat) == state.view(seat)
            assert other.view(None)["exchange"] == state.view(None)["exchange"]


def test_every_viewer_gets_the_same_preview() -> None:
    for state in _chain_states()[::5]:
        views = [state.view(0), state.view(1), state.view(None), state.view_all()]
        previews = [v["exchange"]["preview"] for v in views]
        assert previews[1:] == previews[:-1]


def test_a_face_down_link_is_not_previewed() -> None:
    """A link whose card the reader might not know leaves the preview unknown, not guessed."""
    state = next(s for s in _chain_states() if s.chain).clone()
    state.faceup[state.chain[0][0]] = False
    preview = chain_preview(state, 0)
    assert preview is not None
    assert (preview["exact"], preview["outcome"]) == (False, "unknown")
    assert "steps" not in preview and "attack" not in preview


def _exchange() -> KoboState:
    """Seat 0's Lv3 miko attacks seat 1's Lv4 cavalier; seat 1 answers first.

    The Lvs are pinned (``base``), so the scenario does not move with the printed card data.
    """
    s = board(
        Side(
            battle=["white-fox-miko", "spear-ashigaru"],
            tactics_hand=["power-surge", "weaken"],
            base={1: 3, 2: 2},
        ),
        Side(
            battle=["crimson-cavalier", "shadow-shinobi"],
            traps=["unhealing-wound"],
            tactics_hand=["counter-spell"],
            tactics_deck=PAD,
            base={1: 4, 2: 2},
        ),
    )
    play(s, "attack 1", "target 1")
    return s


def _amount(state: KoboState, slug: str) -> int:
    """The Lv change printed on ``slug`` (read from the card data, which may be retuned)."""
    cdef = next(d for d in state.defs if d.slug == slug)
    return cdef.steps[0].amount


def _outcome(attack: int, defence: int) -> str:
    """The result of one attacker against the target (kobo-rules.md §5.5)."""
    if attack == defence:
        return "tie_single"
    return "attacker_wins" if attack > defence else "defender_wins"


def test_the_preview_follows_each_link() -> None:
    s = _exchange()
    preview = s.view(0)["exchange"]["preview"]
    assert (preview["links"], preview["attack"], preview["defence"]) == (0, 3, 4)
    assert preview["outcome"] == "defender_wins"
    assert preview["score_text"] == "攻撃側 3 対 防御側 4"
    assert [r["slug"] for r in preview["retreats"]] == ["white-fox-miko"]
    surge = _amount(s, "power-surge")
    play(s, "pass", "play power-surge", "slot 1")  # the miko's Lv rises by the surge
    preview = s.view(1, "en")["exchange"]["preview"]
    outcome = _outcome(3 + surge, 4)
    assert (preview["attack"], preview["defence"], preview["outcome"]) == (3 + surge, 4, outcome)
    assert preview["outcome_text"] == text.outcome_text(outcome, "en")
    assert preview["attackers"][0]["lv_now"] == 3 and preview["attackers"][0]["lv"] == 3 + surge
    play(s, "play counter-spell")  # negates the surge: 3 against 4 again
    preview = s.view(0)["exchange"]["preview"]
    assert (preview["attack"], preview["defence"], preview["outcome"]) == (3, 4, "defender_wins")
    assert [(x["link"], x["negated"]) for x in preview["steps"]] == [(2, False), (1, True)]
    assert preview["steps"][0]["effects"] == [
        {"kind": "link_negated", "link": 1, "slug": "power-surge"}
    ]


def test_the_resolution_record_steps_through_the_links_last_first() -> None:
    s = _exchange()
    assert s.view(0)["resolution"] is None
    wound, surge = _amount(s, "unhealing-wound"), _amount(s, "power-surge")
    assert 3 + wound > 0  # the wound alone does not retreat the miko
    play(s, "pass", "play power-surge", "slot 1", "trap 1", "slot 1", "pass", "pass")
    view = s.view(1)
    record = view["resolution"]
    assert record["done"] and record["attacker_seat"] == 0
    assert view["log"][record["log_index"]]["kind"] == "chain_closed"
    assert [(x["link"], x["seat"], x["slug"]) for x in record["links"]] == [
        (2, 1, "unhealing-wound"),
        (1, 0, "power-surge"),
    ]
    first, second = record["links"]
    assert first["effects"] == [
        {
            "kind": "lv",
            "seat": 0,
            "slot": 1,
            "slug": "white-fox-miko",
            "amount": wound,
            "permanent": True,
            "base": 3 + wound,
            "lv": 3 + wound,
        }
    ]
    attack = 3 + wound + surge
    assert second["effects"][0]["amount"] == surge and second["effects"][0]["lv"] == attack
    assert record["declared"] == {"attackers": [1], "target": 1, "attack": 3, "defence": 4}
    assert record["cleared"] == ["power-surge", "unhealing-wound"]
    assert record["result"]["outcome"] == _outcome(attack, 4)
    assert record["result"]["score_text"] == f"攻撃側 {attack} 対 防御側 4"
    # The next declaration opens a new exchange: the record gives way to its preview.
    play(s, "attack 2", "target 2")
    assert s.view(0)["resolution"] is None
    assert s.view(0)["exchange"]["preview"]["links"] == 0


def test_a_surprise_link_in_the_record_has_its_owners_seat() -> None:
    """A flipped 【！】 ability is a link without an ``activate`` entry: the record takes its
    seat from the ``surprise_flip`` entry, as the preview takes it from the chain."""
    hands = (["battle-signal", "weaken"], ["ambush-shield", "smoke-veil", "counter-ambush"])
    s = to_first_turn(hands)
    act(s, "pass")
    act(s, "surprise-set ambush-shield")  # seat 1's turn 2
    act(s, "pass")
    attack_first(s)  # seat 0 attacks; seat 1's ambush-shield may flip
    act(s, "flip")
    steps = s.view(0)["exchange"]["preview"]["steps"]
    assert [(x["link"], x["seat"], x["slug"]) for x in steps] == [(1, 1, "ambush-shield")]
    pass_chain(s)
    for viewer in (0, 1, None):
        record = s.view(viewer)["resolution"]
        assert record["links"] == steps


def test_no_preview_outside_an_exchange_or_after_the_chain() -> None:
    s = board(Side(battle=["white-fox-miko"]), Side(battle=["crimson-cavalier"], tactics_deck=PAD))
    assert s.view(0)["exchange"] is None
    assert chain_preview(s, 0) is None


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_exchange_carries_its_side_labels(lang: str) -> None:
    labels = _exchange().view(0, lang)["exchange"]["labels"]
    assert labels == (
        {"attacking": "攻撃側", "defending": "防御側"}
        if lang == "ja"
        else {"attacking": "Attacking side", "defending": "Defending side"}
    )

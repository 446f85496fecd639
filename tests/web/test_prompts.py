"""The rarer prompts on the page, from scripted positions served by a real server: the tie
choice, the pass penalty (tactics hand, then face-down traps), the reinforcement nomination and
the opponent's blind pick.

Each position is built with the engine's scenario helpers and registered as a session of a
server started here (the app's hub is reachable, unlike with ``running()``); the page then
rejoins it like a reloaded tab and is driven only by what it shows.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kessen.engine.action import Action
from kessen.games.kobo.game import Side
from kessen.games.kobo.state import KoboState
from tests.kobo.harness import board, fixed_order_match
from tests.serving import Load, position_server
from tests.web.driver import open_position, shot, view, wait_view

TACTICS = [
    "total-war",
    "mass-jamming",
    "power-surge",
    "weaken",
    "target-change",
    "swift-step",
    "counter-spell",
    "ceasefire",
    "last-stand",
    "hinder",
]
FILLER = ["unhealing-wound", "decoy", "thorn-armor", "steadfast", "counter-seal"]
PLAIN = [
    "spear-ashigaru",
    "great-tengu",
    "decoy",
    "ashigaru-recruit",
    "thorn-armor",
    "white-fox-miko",
    "steadfast",
    "oni-warlord",
    "warrior-monk",
]
CALLER = [
    "reinforcement-call",
    "spear-ashigaru",
    *FILLER,
    "great-tengu",
    "battle-cry",
    "oni-warlord",
    "great-tengu",
    "warrior-monk",
    "iron-castellan",
]
PAD = ["hinder", "hinder", "hinder"]


@pytest.fixture(scope="module")
def scripted() -> Iterator[tuple[str, Load]]:
    """A server whose hub accepts scripted sessions; yields its URL and a loader."""
    with position_server("scripted") as (url, _hub, load):
        yield url, load


def play(state: KoboState, *actions: str) -> KoboState:
    for text in actions:
        state.apply(Action.parse(text))
    return state


def glowing(page: Any) -> dict[str, str]:
    found: dict[str, str] = page.evaluate(
        """() => Object.fromEntries(Array.from(
            document.querySelectorAll('#game .selectable[data-act]'),
            e => [e.dataset.act, `${e.dataset.zone}:${e.dataset.seat}:${e.dataset.slot
                  || e.dataset.slug || e.dataset.index}`]))"""
    )
    return found


def test_tie_choice_picks_an_attacker_of_the_opponent(page: Any, scripted: Any) -> None:
    url, load = scripted
    state = board(
        Side(battle=["musket-captain"]),
        Side(battle=["ashigaru-recruit", "spear-ashigaru"], tactics_deck=PAD),
        turn_player=1,
    )
    play(state, "attack 1", "attack 2", "target 1")
    while state.pending is not None and state.pending.prompt == "chain":
        play(state, "pass")
    assert state.pending is not None and (state.pending.seat, state.pending.prompt) == (0, "tie")
    driver, _ = open_position(page, load, state, url=url)
    _, options = driver.check_offer()
    assert options == ["slot 1", "slot 2"]
    assert glowing(page) == {"slot 1": "battle:1:1", "slot 2": "battle:1:2"}
    assert "撤退" in page.inner_text("#ops-body")
    shot(page, "prompt_01_tie")
    driver.click("slot 2")
    ties = [e for e in view(page)["log"] if e["kind"] == "tie_choice"]
    assert ties and ties[-1]["seat"] == 0 and ties[-1]["slot"] == 2


def test_pass_penalty_excludes_from_the_hand_then_traps(page: Any, scripted: Any) -> None:
    url, load = scripted
    state = board(
        Side(
            battle=["oni-warlord"],
            tactics_hand=["hinder", "weaken"],
            traps=["decoy", None, "steadfast"],
            passes=3,
        ),
        Side(battle=["ashigaru-recruit"], tactics_deck=PAD),
    )
    driver, _ = open_position(page, load, state, url=url)
    _, options = driver.check_offer()
    assert options == ["attack 1", "pass"]
    driver.click("pass")
    confirm = page.inner_text("#ops .confirm")
    assert "4回目" in confirm and "3枚" in confirm, confirm
    shot(page, "prompt_02_pass_penalty_confirm")
    driver.confirm()

    now, options = driver.check_offer()
    assert now["prompt"] == "penalty"
    assert sorted(options) == ["exclude hinder", "exclude weaken"]
    assert glowing(page) == {"exclude hinder": "thand:0:hinder", "exclude weaken": "thand:0:weaken"}
    shot(page, "prompt_03_penalty_hand")
    driver.click("exclude weaken")
    driver.wait_ready()
    driver.click("exclude hinder")
    driver.wait_ready()
    now, options = driver.check_offer()
    assert options == ["exclude-trap 1", "exclude-trap 3"]
    assert glowing(page) == {
        "exclude-trap 1": "strategy:0:1",
        "exclude-trap 3": "strategy:0:3",
    }
    shot(page, "prompt_04_penalty_traps")
    driver.click("exclude-trap 3")
    wait_view(page, "v.players[0].excluded.length === 3")
    excluded = [c["slug"] for c in view(page)["players"][0]["excluded"]]
    assert excluded == ["weaken", "hinder", "steadfast"]
    assert "除外" in page.inner_text("#piles-bottom")


def test_reinforcement_call_nomination_by_clicking(page: Any, scripted: Any) -> None:
    url, load = scripted
    state = fixed_order_match((CALLER, PLAIN), (TACTICS, TACTICS), first_player=0)
    play(state, "pick spear-ashigaru", "slot 1", "pick reinforcement-call")
    driver, _ = open_position(page, load, state, url=url)
    now, options = driver.check_offer()
    assert now["prompt"] == "deploy" and options == ["use", "discard"]
    assert "援軍指名" in page.inner_text("#ops-text")
    driver.click("use")
    named: list[str] = []
    for _ in range(3):
        driver.wait_ready()
        now, options = driver.check_offer()
        assert now["prompt"] == "nominate"
        assert all(o.startswith("name ") for o in options)
        labels = page.inner_text("#ops .ops-actions")
        assert "を指名" in labels
        if named:
            assert "指名済み" in page.inner_text("#ops-body")
            shot(page, "prompt_05_nominate")
        named.append(options[0])
        driver.click(options[0])
    # COM picks one blind; the summoned character is placed by its owner, here.
    driver.wait_ready()
    now, options = driver.check_offer()
    assert now["prompt"] == "place"
    assert now["context"]["card"]["slug"] in [n.split()[1] for n in named]
    assert all(glowing(page)[o].startswith("battle:0:") for o in options)
    driver.click(options[0])


def test_blind_pick_of_the_opponents_nomination(page: Any, scripted: Any) -> None:
    url, load = scripted
    state = fixed_order_match((PLAIN, CALLER), (TACTICS, TACTICS), first_player=1)
    play(state, "pick spear-ashigaru", "slot 1", "pick reinforcement-call", "use")
    play(state, "name great-tengu", "name oni-warlord", "name warrior-monk")
    assert state.pending is not None and state.pending.prompt == "blind"
    driver, _ = open_position(page, load, state, url=url)
    _, options = driver.check_offer()
    assert options == ["pick 1", "pick 2", "pick 3"]
    assert glowing(page) == {f"pick {n}": f"reveal:1:{n}" for n in (1, 2, 3)}
    # Face down: the page was told nothing about which card is where.
    assert all(c == {"face": "down"} for c in view(page)["players"][1]["reveal"])
    shot(page, "prompt_06_blind_pick")
    driver.click("pick 2")
    picks = [e for e in view(page)["log"] if e["kind"] == "blind_pick"]
    assert picks and picks[-1]["position"] == 2 and picks[-1]["seat"] == 0

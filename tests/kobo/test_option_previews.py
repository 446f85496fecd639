"""Option previews (issue 39 item 1): each option of the deciding seat says what it gives.

Over random games of every starter deck pair (and the surprise-zone option), at every decision
of the chain, of a chain card's character and of the attack declaration: taking a previewed
option (and the answer it assumes next), then every later answer being a pass (surprises
declined), resolves with exactly the basis the preview assumed and the outcome it predicted.
The previews are the same in every world the seat cannot tell apart
(``resample_hidden``), and only the deciding seat's own view carries them.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.games.kobo.option_preview import option_previews
from kessen.games.kobo.preview import resolution_record
from kessen.games.kobo.state import KoboState

DECKS = ["fortress", "swarm", "tempo", "vanguard"]
PREVIEWED = ("chain", "target", "turn", "declare")


def _random_games(count: int, seed: int, surprise: bool = False) -> Iterator[KoboState]:
    """Every decision point of ``count`` random best-of-1 games."""
    rules = registry.get("kobo")
    pairs = list(itertools.product(DECKS, DECKS))
    for game in range(count):
        decks = ["ambush", "ambush"] if surprise else list(pairs[(seed + game) % len(pairs)])
        config: dict[str, Any] = {"decks": decks, "best_of": 1, "surprise": surprise}
        state = rules.new_game(config, seed + game)
        assert isinstance(state, KoboState)
        rnd = random.Random(seed + game)
        while state.pending is not None:
            yield state
            options = state.legal_actions()
            state.apply(options[rnd.randrange(len(options))])


@cache
def _decisions() -> list[KoboState]:
    """Copies of the previewable decisions of random games over three seeds (and the
    surprise-zone option), at most one in three."""
    out: list[KoboState] = []
    sources = [
        _random_games(6, 300),
        _random_games(6, 900),
        _random_games(6, 4100),
        _random_games(4, 77, surprise=True),
    ]
    for games in sources:
        for n, state in enumerate(games):
            if state.pending is not None and state.pending.prompt in PREVIEWED and n % 3 == 0:
                out.append(state.clone())
    return out


def _resolve_passing(state: KoboState, action: str, then: str | None) -> KoboState:
    """A copy where ``action`` (and ``then``) is taken, then everybody passes and declines."""
    world = state.clone()
    world.apply(Action.parse(action))
    if then is not None:
        world.apply(Action.parse(then))
    while world.prompt is not None and world.prompt[1] in ("chain", "surprise"):
        legal = world.legal_actions()
        answer = next(a for a in legal if a.verb in ("pass", "decline"))
        world.apply(answer)
    return world


def test_the_random_games_offer_previews_of_every_kind() -> None:
    kinds: set[tuple[str, str]] = set()
    count = 0
    for state in _decisions():
        seat = state.pending.seat if state.pending else 0
        previews = option_previews(state, seat) or {}
        count += len(previews)
        kinds |= {(state.pending.prompt, a.split(" ")[0]) for a in previews if state.pending}
    assert count > 400
    want = {("chain", "play"), ("chain", "pass"), ("chain", "trap"), ("target", "slot")}
    want |= {("turn", "attack"), ("declare", "target")}
    assert want <= kinds, kinds


def test_each_previewed_option_resolves_as_predicted() -> None:
    """Take the option, then everyone passes: the record's basis is the preview's and its
    outcome the prediction."""
    compared = 0
    outcomes: set[str] = set()
    for state in _decisions():
        assert state.pending is not None
        seat = state.pending.seat
        for action, preview in (option_previews(state, seat) or {}).items():
            world = _resolve_passing(state, action, preview["then"])
            log = [e.visible(seat) for e in world.log]
            record = resolution_record(log)
            assert record is not None, (action, preview)
            assert record["basis"] == preview["basis"], (action, record["basis"], preview)
            assert record["outcome"] == preview["predict"], (action, record, preview)
            if record["result"] is not None:
                assert record["outcome"]["outcome"] == record["result"]["outcome"]
            compared += 1
            outcomes.add(preview["predict"]["outcome"])
    assert compared > 400
    assert {"attacker_wins", "defender_wins", "tie_single"} <= outcomes, outcomes


def test_previews_are_the_same_in_every_world_the_seat_cannot_tell_apart() -> None:
    for n, state in enumerate(_decisions()[::2]):
        assert state.pending is not None
        seat = state.pending.seat
        want = state.view(seat)["previews"]
        for k in range(2):
            other = state.resample_hidden(seat, 500 + 7 * n + k)
            assert other.view(seat)["previews"] == want
        assert option_previews(state, seat, "en") == state.view(seat, "en")["previews"]


def test_only_the_deciding_seat_sees_previews() -> None:
    seen = 0
    for state in _decisions()[::3]:
        assert state.pending is not None
        seat = state.pending.seat
        seen += bool(state.view(seat)["previews"])
        assert state.view(1 - seat)["previews"] is None
        assert state.view(None)["previews"] is None
        assert state.view_all()["previews"] is None
        assert state.decision_view(seat)["previews"] is None
    assert seen > 50


def test_every_preview_has_the_contract_fields_in_both_languages() -> None:
    for state in _decisions()[::4]:
        assert state.pending is not None
        seat = state.pending.seat
        for lang, assumes in (("ja", "相手がこれ以上応答しなければ"), ("en", "if the opponent")):
            for action, pv in (option_previews(state, seat, lang) or {}).items():
                assert action in [str(a) for a in state.legal_actions()]
                assert pv["title"] and all(isinstance(x, str) and x for x in pv["lines"])
                assert pv["assumes"].startswith(assumes)
                assert pv["tone"] in ("good", "bad", "even", "info")
                assert set(pv["predict"]) == {"outcome", "attack", "defence"}
                assert set(pv["basis"]) == {"attackers", "target", "links"}


def test_a_tactic_that_chooses_previews_its_best_character_and_lists_the_others() -> None:
    """Seat 0 attacks with a Lv3 miko (a Lv2 ashigaru beside it) into a Lv4 cavalier;
    with Power Surge in hand, the preview assumes the surge on an attacker (a win) and lists
    the other choice's verdict."""
    from tests.kobo.harness import Side, board, play

    state = board(
        Side(
            battle=["white-fox-miko", "spear-ashigaru"],
            tactics_hand=["power-surge"],
            tactics_deck=["hinder", "hinder", "hinder"],
            base={1: 3, 2: 2},
        ),
        Side(
            battle=["crimson-cavalier", "ashigaru-recruit"],
            tactics_deck=["hinder", "hinder", "hinder"],
            base={1: 4},
        ),
    )
    play(state, "attack 1", "target 1", "pass")
    assert state.pending is not None and state.pending.seat == 0
    previews = option_previews(state, 0) or {}
    surge = previews["play power-surge"]
    assert surge["then"] == "slot 1"
    assert surge["predict"] == {"outcome": "attacker_wins", "attack": 5, "defence": 4}
    assert surge["title"] == "勝ち — 5 対 4" and surge["tone"] == "good"
    assert any("ほかの対象" in line and "負け" in line for line in surge["lines"])
    assert previews["pass"]["predict"]["outcome"] == "defender_wins"
    assert previews["pass"]["assumes"] == "相手がこれ以上応答しなければ"

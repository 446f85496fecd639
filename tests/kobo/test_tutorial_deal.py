"""The guided match's deal: following the coach meets every lesson, in order, and wins.

The seed and decks of :mod:`kessen.games.kobo.tutorial` were chosen by
``bench/tutorial_deal.py``; these tests replay that choice, so a change of the rules, the
cards, the COM or the coach that breaks the guided match is caught here (then choose the seed
again with the script).
"""

from __future__ import annotations

from typing import Any

from kessen.engine.action import Action
from kessen.games.kobo.config import parse_config
from kessen.games.kobo.game import new_game
from kessen.games.kobo.tutorial import (
    LESSONS,
    TUTORIAL_SEED,
    TutorialPlayer,
    lessons_reached,
    tutorial_config,
)
from kessen.games.kobo.tutorial_guide import deal_problems, guided_action, play_guided


def test_the_config_is_valid_one_game_of_starter_decks() -> None:
    config = parse_config(tutorial_config())
    assert config.best_of == 1
    assert config.shuffle and config.first_player is None  # the seed deals, as in any match
    assert [d.slug for d in config.decks] == tutorial_config()["decks"]


def test_following_the_coach_meets_every_lesson_in_order_and_wins() -> None:
    run = play_guided(TUTORIAL_SEED)
    assert deal_problems(run) == []
    assert run.order == list(LESSONS)
    assert run.winner == 0
    assert run.reached["attack"] == run.reached["chain"] == 1
    assert run.turns <= 9 and len(run.moves) <= 40


def test_the_first_answer_turns_a_lost_attack_into_a_won_one() -> None:
    """The chain lesson: COM's link 1 makes the attack lose; the player's link 2 (the coach's
    choice) makes it win; COM's link 3 does not undo that."""
    state = new_game(tutorial_config(), TUTORIAL_SEED)
    com = TutorialPlayer(TUTORIAL_SEED)
    outcomes: list[tuple[int, str]] = []
    while state.pending is not None and not lessons_reached(state.view(0))[2:]:
        if state.pending.seat == 1:
            state.apply(com.choose(state.view(1), state.legal_actions()))
            continue
        view = state.view(0)
        preview = (view.get("exchange") or {}).get("preview")
        if view["pending"]["prompt"] == "chain" and preview:
            outcomes.append((len(view["chain"]), str(preview["outcome"])))
        action = guided_action(view)
        assert action is not None
        state.apply(Action.parse(action))
    assert outcomes[0] == (1, "defender_wins")
    view = state.view(0)
    assert view["exchange"]["preview"]["outcome"] == "attacker_wins"
    assert len(view["chain"]) == 3


def _entry(kind: str, **fields: Any) -> dict[str, Any]:
    return {"kind": kind, **fields}


def test_lessons_count_only_in_order() -> None:
    base = {"viewer": 0, "match": {"over": False, "winner": None}}
    retreat_first = [
        _entry("standby_end", seat=0),
        _entry("retreat", seat=1, slot=1, card="x"),
        _entry("declare", seat=0),
        _entry("activate", seat=1, link=3),
    ]
    assert lessons_reached({**base, "log": retreat_first}) == ["standby", "attack", "chain"]
    theirs = [_entry("standby_end", seat=1), _entry("declare", seat=1)]
    assert lessons_reached({**base, "log": theirs}) == []
    done = [*retreat_first, _entry("retreat", seat=1, slot=2, card="y")]
    won = {"viewer": 0, "match": {"over": True, "winner": 0}, "log": done}
    assert lessons_reached(won) == list(LESSONS)
    lost = {**won, "match": {"over": True, "winner": 1}}
    assert lessons_reached(lost) == list(LESSONS[:4])

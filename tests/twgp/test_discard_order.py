"""The order of a discarded stack (§2.3: "the owner chooses their order"), asked only when it
can matter, and answered by every COM."""

from __future__ import annotations

import random

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.twgp.heuristic import HeuristicPlayer
from kessen.games.twgp.logtext import describe
from kessen.games.twgp.state import STORAGE, SURGE, TwgpState
from kessen.games.twgp.worlds import routine, world_from_view
from tests.twgp.harness import Side, U, asked, board, last, legal, play, zone

FOUR = ["d4", "d5", "d6", "d7"]


def _won_against(stack: U, surge: list[str], config: dict[str, object] | None = None) -> TwgpState:
    """Seat 0's ♠10 assaults seat 1's ``stack`` and wins; seat 1's surge holds ``surge``."""
    return board(
        Side(battle=["s10"]),
        Side(battle=[stack], surge=surge, hand=["d2"]),
        config=config,
    )


def test_the_owner_orders_a_stack_split_between_surge_and_storage() -> None:
    s = _won_against(U("h5", frames=["h4"], weapons=["hj"]), FOUR)
    play(s, "battle", "assault 1 1", "accept")
    # two places left in the surge, three cards: the owner picks which two sit there
    assert asked(s) == (1, "order")
    assert legal(s) == ["log-out h5", "log-out h4", "log-out hj"]
    context = s.view(1)["pending"]["context"]
    assert [c["slug"] for c in context["cards"]] == ["h5", "h4", "hj"]
    assert context["surge"] == 2
    play(s, "log-out hj")
    assert legal(s) == ["log-out h4", "log-out h5"]
    play(s, "log-out h5")
    # the last card's place is the storage: no more question
    assert asked(s) == (0, "battle_window")
    assert zone(s, 1, SURGE) == [*FOUR, "hj", "h5"]
    assert zone(s, 1, STORAGE) == ["h4"]
    assert last(s, "log_out") == {"seat": 1, "card": "h5", "zone": "surge"}
    assert describe(last_entry(s), "en", 0) == "The opponent put ♥5 next into the surge."
    assert describe(last_entry(s), "ja", 1) == "あなたは♥5を次にサージに置いた。"


def last_entry(s: TwgpState) -> Json:
    """The newest ``log_out`` event, as everyone sees it."""
    return [e.visible(None) for e in s.log if e.kind == "log_out"][-1]


def test_the_order_inside_the_surge_is_asked_too() -> None:
    # All three fit: which leave the surge first when it is spent still depends on the order.
    s = _won_against(U("h5", weapons=["hj", "hq"]), [])
    play(s, "battle", "assault 1 1", "accept")
    assert asked(s) == (1, "order")
    play(s, "log-out hq", "log-out hj")
    assert zone(s, 1, SURGE) == ["hq", "hj", "h5"]
    assert asked(s) == (0, "battle_window")


def test_no_question_when_the_order_cannot_matter() -> None:
    single = _won_against(U("h5"), [])
    play(single, "battle", "assault 1 1", "accept")
    assert asked(single) == (0, "battle_window") and zone(single, 1, SURGE) == ["h5"]
    full = _won_against(U("h5", weapons=["hj"]), [*FOUR, "d8", "d9"])
    play(full, "battle", "assault 1 1", "accept")
    # the surge is full: everything goes to the storage, whose order never matters
    assert asked(full) == (0, "battle_window")
    assert zone(full, 1, STORAGE) == ["h5", "hj"]
    assert "log_out" not in [e.kind for e in full.log]


def test_a_tie_asks_both_owners_in_discard_order() -> None:
    s = board(
        Side(battle=[U("s5", weapons=["sj"])]),
        Side(battle=[U("h4", weapons=["hj", "hq"])]),
    )
    play(s, "battle", "assault 1 1", "accept")
    assert asked(s) == (0, "order")
    play(s, "log-out sj")
    assert asked(s) == (1, "order")
    play(s, "log-out hq", "log-out h4")
    assert zone(s, 0, SURGE) == ["sj", "s5"] and zone(s, 1, SURGE) == ["hq", "h4", "hj"]


def test_dropped_cached_weapons_are_ordered_after_the_keep_or_drop_decision() -> None:
    s = _won_against(U("h5", weapons=["hj", "hq"]), FOUR, {"weaponCache": True})
    play(s, "battle", "assault 1 1", "accept")
    assert asked(s) == (1, "cache")  # a lone unit was logged out: nothing to order
    play(s, "drop-weapons")
    assert asked(s) == (1, "order") and legal(s) == ["log-out hj", "log-out hq"]
    play(s, "log-out hq")
    assert zone(s, 1, SURGE) == [*FOUR, "h5", "hq"] and zone(s, 1, STORAGE) == ["hj"]


def test_the_heuristic_keeps_the_listed_order_unless_cards_come_back() -> None:
    s = _won_against(U("h5", frames=["h4"], weapons=["hj"]), FOUR)
    play(s, "battle", "assault 1 1", "accept")
    view = s.view(1)
    options = s.legal_actions()
    assert HeuristicPlayer(0).choose(view, options) == Action.parse("log-out h5")
    # variantB: the storage comes back as the pile, so the surge takes the units least wanted
    t = _won_against(U("h5", frames=["h2"], weapons=["hj"]), FOUR, {"variantB": True})
    play(t, "battle", "assault 1 1", "accept")
    player = HeuristicPlayer(0)
    play(t, str(player.choose(t.view(1), t.legal_actions())))
    play(t, str(player.choose(t.view(1), t.legal_actions())))
    assert zone(t, 1, SURGE) == [*FOUR, "h5", "hj"] and zone(t, 1, STORAGE) == ["h2"]


def test_the_search_leaves_the_order_to_the_heuristic_and_its_world_is_rebuilt() -> None:
    s = board(
        Side(battle=[U("s5", weapons=["sj"])]),
        Side(battle=[U("h4", weapons=["hj", "hq"])], surge=["d4"]),
    )
    play(s, "battle", "assault 1 1", "accept", "log-out sj")
    assert asked(s) == (1, "order")
    view = s.view(1)
    assert routine(view, s.legal_actions()) == Action.parse("log-out h4")
    world = world_from_view(view, 3, keep_log=True)
    world.audit()
    assert world.legal_actions() == s.legal_actions()
    assert world.stack[-2:] == s.stack[-2:]


def test_every_com_answers_the_order_prompt() -> None:
    rules = registry.get("twgp")
    for name in ("random", "heuristic", "ismcts-easy"):
        s = _won_against(U("h5", frames=["h4"], weapons=["hj"]), FOUR)
        play(s, "battle", "assault 1 1", "accept")
        player = rules.players[name](7)
        while s.pending is not None and s.pending.prompt == "order":
            choice = player.choose(s.view(1), s.legal_actions())
            assert choice in s.legal_actions()
            s.apply(choice)
        assert asked(s) == (0, "battle_window"), name
        assert sorted(zone(s, 1, SURGE)[4:] + zone(s, 1, STORAGE)) == ["h4", "h5", "hj"]


def test_random_games_with_orders_rebuild_their_worlds() -> None:
    """Every order decision of a few random games is rebuilt from the deciding seat's view."""
    rules = registry.get("twgp")
    seen = 0
    for seed in range(6):
        state = rules.new_game({**rules.default_config, "weaponCache": seed % 2 == 1}, seed)
        assert isinstance(state, TwgpState)
        chooser = random.Random(seed)
        while state.pending is not None:
            options = state.legal_actions()
            if state.pending.prompt == "order":
                seen += 1
                world = world_from_view(state.view(state.pending.seat), seed, keep_log=True)
                world.audit()
                assert world.legal_actions() == options
                assert world.stack == state.stack
            state.apply(options[chooser.randrange(len(options))])
    assert seen > 0

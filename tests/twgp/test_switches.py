"""The switches of §2.10 not covered with their mechanic elsewhere (see the module list there).

gridWidth, vitalEffect (wipe and ban, once per player), vitalWipe, variantB, weaponCache,
strictMatrix05 here; jokers in ``test_assault``/``test_boost``/``test_direct``/``test_weapons``/
``test_grid_blast``, buildReload in ``test_reload``, variantA in ``test_vitals``, quickStart in
``test_build``.
"""

from __future__ import annotations

from kessen.games.twgp.game import new_game
from kessen.games.twgp.state import PILE, STORAGE
from tests.twgp.harness import Side, U, board, hand, legal, play, pose, top, verbs, zone


def test_grid_width_three() -> None:
    s = new_game({"gridWidth": 3, "quickStart": True, "firstPlayer": 0}, 3)
    view = s.view(0)
    assert view["width"] == 3 and len(view["players"][0]["battle"]) == 3
    assert len(view["players"][0]["charge"]) == 3


def test_the_vital_effect_wipes_its_rank_once_and_bans_it() -> None:
    s = board(
        Side(battle=["s5", "s3"], hand=["c3", "c2"], pile=["c4", "c5", "c6", "c7"]),
        Side(
            battle=[U("h3", pose="save"), U("h2", pose="stealth", secret=True)],
            vitals=["hk", "hq", "d3"],
        ),
        config={"vitalEffect": True},
    )
    play(s, "battle", "direct 1", "accept", "flip 3")
    assert top(s, 0, 2) is None and top(s, 1, 1) is None and top(s, 1, 2) == "h2"
    assert s.wipe_used == [False, True] and top(s, 0, 1) == "s5"
    play(s, "done")
    assert not any(" c3 " in a for a in legal(s))  # base 03 may not be summoned
    assert "charge-drive c2 2" in legal(s)


def test_a_wipe_that_removes_nothing_is_not_used_up_and_the_ban_only_switch() -> None:
    s = board(Side(battle=["s5"]), Side(vitals=["hk", "hq", "h4"]), config={"vitalEffect": True})
    play(s, "battle", "direct 1", "accept", "flip 3", "done")
    assert s.wipe_used == [False, False]
    ban = board(
        Side(battle=["s5", "s3"]),
        Side(vitals=["hk", "hq", "h3"]),
        config={"vitalEffect": True, "vitalWipe": False},
    )
    play(ban, "battle", "direct 1", "accept", "flip 3", "done")
    assert top(ban, 0, 2) == "s3"


def test_variant_b_refills_an_empty_pile_from_the_storage() -> None:
    s = board(
        Side(hand=["sa"], pile=["c2", "c3"], storage=["s8", "s9"], surge=["c8"]),
        Side(),
        config={"variantB": True},
    )
    play(s, "charge-drive sa 1")
    assert sorted(zone(s, 0, PILE)) == ["s8", "s9"] and zone(s, 0, STORAGE) == []
    assert zone(s, 0, 4) == ["c8"]  # the surge stays
    off = board(Side(hand=["sa"], pile=["c2", "c3"], storage=["s8"]), Side())
    play(off, "charge-drive sa 1")
    assert zone(off, 0, PILE) == []


def test_weapon_cache_keeps_weapons_for_the_next_unit_in_the_square() -> None:
    s = board(
        Side(battle=["s6"]),
        Side(battle=[U("h3", weapons=["hj"])], hand=["h2"], pile=["d4", "d5"]),
        config={"weaponCache": True},
    )
    play(s, "battle", "assault 1 1", "accept")
    assert s.pending is not None and (s.pending.seat, s.pending.prompt) == (1, "cache")
    play(s, "keep-weapons", "end")
    assert "stealth-drive h2 1" not in legal(s) and "charge-drive h2 1" in legal(s)
    play(s, "charge-drive h2 1")
    stack = s.square(1, 0)
    assert stack is not None and len(stack.attached) == 1 and pose(s, 1, 1) == "active"


def test_weapon_cache_drop_discards_the_weapons() -> None:
    s = board(
        Side(battle=["s6"]), Side(battle=[U("h3", weapons=["hj"])]), config={"weaponCache": True}
    )
    play(s, "battle", "assault 1 1", "accept", "drop-weapons")
    assert zone(s, 1, 4) == ["h3", "hj"] and s.cache[s.width] == ()


def test_strict_matrix_05_caps_deck_cards_at_three_per_turn() -> None:
    s = board(
        Side(hand=["sa", "s2", "s3"], pile=["c4", "c5", "c6", "c7", "c8"]),
        Side(),
        config={"strictMatrix05": True, "setupAnytime": True},
    )
    play(s, "charge-drive sa 1")
    assert "charge-drive" not in verbs(s)  # two more downloads would make 4
    play(s, "setup 1", "setup 2")  # set up mid-window (setupAnytime): still no third drive
    assert hand(s, 0) == sorted(["s2", "s3", "c4", "c5"])
    assert "charge-drive" not in verbs(s)

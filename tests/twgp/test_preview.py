"""TWGP option previews and fight records (games/twgp/preview.py, fight.py).

Over random games with several switch sets: whenever a seat takes an option that has a
preview and nothing more is added (every response window is closed with ``accept``; the
other decisions of the resolution, which vitals flip and in what order a stack is discarded,
are taken at random), the fight's record in the seat's view has the preview's basis and its
outcome is the preview's ``predict``. Previews are the same in every world
``resample_hidden`` deals from the seat's view, and they are only in the deciding seat's own
view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from kessen.engine import registry
from kessen.games.twgp.fight import fight_record
from kessen.games.twgp.heuristic import HeuristicPlayer
from kessen.games.twgp.preview import option_previews
from kessen.games.twgp.state import TwgpState
from tests.twgp.harness import Side, U, board, play

CONFIGS: list[dict[str, object]] = [
    {},
    {"quickStart": True},
    {"vitalEffect": True, "weaponCache": True},
    {"strictMatrix05": True, "buildReload": True, "jokers": True},
    {"gridWidth": 3, "variantB": True},
    {"variantA": True, "vitalEffect": True, "vitalWipe": True},
]


def _new(game: int) -> TwgpState:
    state = registry.get("twgp").new_game(CONFIGS[game % len(CONFIGS)], game)
    assert isinstance(state, TwgpState)
    return state


def test_taking_a_previewed_option_gives_the_predicted_outcome() -> None:
    compared: Counter[str] = Counter()
    for game in range(72):
        _play_and_compare(game, compared, heuristic=game % 2 == 1)
    assert sum(compared.values()) >= 300, compared
    assert {"assault", "direct", "accept", "counter-drive", "charge-drive"} <= set(compared), (
        compared
    )


def _play_and_compare(game: int, compared: Counter[str], heuristic: bool) -> None:
    """One game: random moves (or the heuristic COM's), a previewed option taken at random
    now and then; each such option's record is compared with its preview."""
    state = _new(game)
    rnd = random.Random(1000 + game)
    players = [HeuristicPlayer(game), HeuristicPlayer(game + 1)]
    watching: dict[str, Any] | None = None  # the preview taken, until its record arrives
    seen_keys: set[str] = set()
    while state.pending is not None:
        pending = state.pending
        seat = pending.seat
        options = state.legal_actions()
        if watching is not None:
            record = state.view(watching["seat"])["resolution"]
            if record and record["key"] not in seen_keys and record["complete"]:
                seen_keys.add(record["key"])
                assert record["basis"] == watching["basis"], (record, watching)
                assert record["outcome"] == watching["predict"], (record, watching)
                compared[watching["verb"]] += 1
                watching = None
        if watching is None:
            previews = state.view(seat)["previews"] or {}
            if previews and rnd.random() < 0.7:
                text = rnd.choice(sorted(previews))
                preview = previews[text]
                assert preview["assumes"] and preview["title"]
                assert preview["tone"] in ("good", "bad", "even", "info")
                old = state.view(seat)["resolution"]
                if old:
                    seen_keys.add(old["key"])
                watching = {"seat": seat, "verb": text.split()[0], **preview}
                state.apply(next(a for a in options if str(a) == text))
                continue
        if watching is not None and pending.prompt == "response":
            state.apply(next(a for a in options if a.verb == "accept"))
            continue
        if heuristic:
            state.apply(players[seat].choose(state.decision_view(seat), options))
        else:
            state.apply(options[rnd.randrange(len(options))])
    if watching is not None:  # the game ended with the fight: its record is final
        record = state.view(watching["seat"])["resolution"]
        assert record is not None and record["key"] not in seen_keys
        assert record["basis"] == watching["basis"]
        assert record["outcome"] == watching["predict"]
        compared[watching["verb"]] += 1


def _decisions(games: int, seed: int) -> Iterator[TwgpState]:
    for game in range(games):
        state = _new(game + seed)
        rnd = random.Random(seed * 100 + game)
        while state.pending is not None:
            yield state
            options = state.legal_actions()
            state.apply(options[rnd.randrange(len(options))])


def test_previews_are_the_same_in_every_world_the_seat_cannot_tell_apart() -> None:
    checked = 0
    for state in _decisions(24, 7):
        pending = state.pending
        assert pending is not None
        seat = pending.seat
        previews = option_previews(state, seat)
        if not previews:
            continue
        checked += 1
        record = state.view(seat)["resolution"]
        for k in range(3):
            world = state.resample_hidden(seat, 31 * checked + k)
            assert option_previews(world, seat) == previews
            assert world.view(seat)["resolution"] == record
    assert checked >= 150, checked


def test_previews_are_in_the_deciding_seats_own_view_only() -> None:
    found = 0
    for state in _decisions(8, 3):
        pending = state.pending
        assert pending is not None
        mine = state.view(pending.seat, "en")["previews"]
        assert state.view(1 - pending.seat)["previews"] is None
        assert state.view(None)["previews"] is None
        assert state.view_all()["previews"] is None
        assert state.decision_view(pending.seat)["previews"] is None
        assert state.decision_view(pending.seat)["resolution"] is None
        found += bool(mine)
    assert found >= 20


def test_a_direct_intercepted_and_counter_driven() -> None:
    """The issue's fight: a power-4 unit's direct, answered by an intercept and a counter
    drive; the attacker's preview (nothing added) and the record of what happened."""
    s = board(
        Side(battle=[U("s4")], pile=["s5", "s6", "s7"]),
        Side(hand=["d2", "h5", "h3"], pile=["h4", "h6", "h7"]),
    )
    play(s, "battle")
    before = s.view(0, "ja")["previews"]["direct 1"]
    assert before["predict"]["result"] == "hit" and before["predict"]["vitals"] == [0, 1]
    assert before["title"].startswith("ダイレクト成立") and before["tone"] == "good"
    play(s, "direct 1")
    answers = s.view(1, "ja")["previews"]
    counter = answers["charge-drive d2 1"]
    assert counter["predict"]["result"] == "attacker" and counter["predict"]["lost"] == [[1, 1]]
    play(s, "charge-drive d2 1", "counter-drive h5 h3")
    assert s.view(1)["previews"]["accept"]["predict"]["result"] == "target"
    play(s, "accept")
    record = s.view(0, "ja")["resolution"]
    steps = [x["step"] for x in record["steps"]]
    assert steps == ["declare", "intercept", "counter", "compare", "discard", "surge"], steps
    assert record["outcome"]["result"] == "target"
    assert (record["outcome"]["attack"], record["outcome"]["defence"]) == (4, 5)
    assert record["outcome"]["lost"] == [[0, 1]] and record["outcome"]["vitals"] == [0, 0]
    assert record["words"]["title"] == "負け — 4 対 5"
    assert record["basis"] != before["basis"]  # the intercept changed what the preview assumed
    log = s.view(0)["log"]
    cuts = [x["log_until"] for x in record["steps"]]
    assert cuts == sorted(cuts) and cuts[-1] <= len(log)
    assert log[record["log_index"]]["kind"] == "direct"
    compare = next(x for x in record["steps"] if x["step"] == "compare")
    assert log[compare["log_until"] - 1]["kind"] == "result"


def test_the_record_waits_for_the_vitals_picked() -> None:
    s = board(Side(battle=[U("s4")], pile=["s5"]), Side(pile=["h4"]))
    play(s, "battle", "direct 1", "accept")
    record = s.view(1)["resolution"]
    assert record["complete"] is False and record["pending_loss"] == {"seat": 1, "count": 1}
    assert record["words"]["lines"][-1].startswith("あなたはヴァイタルを1枚失う")
    play(s, "flip 2")
    record = s.view(1, "en")["resolution"]
    assert record["complete"] is True and record["outcome"]["vitals"] == [0, 1]
    assert record["words"]["lines"][-1] == "You lost 1 vital"
    assert [x["step"] for x in record["steps"]] == ["declare", "compare", "vital"]
    entries = s.view(None)["log"]
    again = fight_record(entries, loss_pending=False)
    assert again is not None and again["outcome"] == record["outcome"]


def _take(state: TwgpState, seat: int, action: str) -> dict[str, Any]:
    """The preview of ``action`` for ``seat``, then take it."""
    preview = state.view(seat, "ja")["previews"][action]
    play(state, action)
    return dict(preview)


def test_surge_payments_on_both_sides() -> None:
    s = board(
        Side(battle=[U("s9", frames=["s4", "s5"])], surge=["s2", "s3", "sa"], pile=["c4"]),
        Side(battle=[U("h5")], pile=["h4"]),
    )
    play(s, "battle")
    paid = _take(s, 0, "surge-assault 1 1 1")
    assert paid["predict"]["vitals"] == [0, 1] and "あなたはサージ3枚を支払う" in paid["lines"]
    play(s, "accept")
    assert s.view(0)["resolution"]["complete"] is False
    play(s, "flip 1")
    record = s.view(0)["resolution"]
    assert record["complete"] and record["basis"] == paid["basis"]
    assert record["outcome"] == paid["predict"]

    s = board(
        Side(battle=[U("s6", frames=["s2", "s4"])], pile=["c4"]),
        Side(battle=[U("h8", frames=["h3", "h5"])], surge=["h2", "ha", "d2"], pile=["h4"]),
    )
    play(s, "battle", "assault 1 1")
    answer = _take(s, 1, "surge 1")
    assert answer["predict"]["result"] == "target" and answer["predict"]["vitals"] == [1, 0]
    assert answer["tone"] == "good" and answer["title"] == "勝ち — 6 対 8"
    play(s, "accept", "log-out s2", "log-out s6")  # the attacker orders its stack first
    assert s.view(1)["resolution"]["complete"] is False
    play(s, "flip 1")
    record = s.view(1)["resolution"]
    assert record["outcome"] == answer["predict"] and record["basis"] == answer["basis"]


def test_an_evasion_and_a_grid_blast_end_the_attack() -> None:
    s = board(
        Side(battle=[U("s7", frames=["s3", "s4"])], pile=["c4"]),
        Side(battle=[U("h2"), U("h3")], hand=["h5"], pile=["h4"]),
    )
    play(s, "battle", "assault 1 1")
    evade = _take(s, 1, "power-drive 2 h5 1")
    assert evade["predict"]["result"] == "lost_lock_on" and evade["predict"]["attack"] is None
    assert evade["tone"] == "good"
    record = s.view(1)["resolution"]
    assert record["outcome"] == evade["predict"] and record["basis"] == evade["basis"]

    s = board(
        Side(battle=[U("s4"), U("s2", pose="stealth", secret=True)], pile=["c4"]),
        Side(
            battle=[U("h5", frames=["h2", "h3"], pose="gb", gb_turn=1), U("ha")],
            hand=["d2", "d3", "dq", "dk"],
            pile=["h4"],
        ),
        turn=2,
    )
    play(s, "battle", "assault 1 2")
    blast = _take(s, 1, "grid-blast 1")
    assert blast["predict"]["result"] == "cancelled" and blast["tone"] == "good"
    record = s.view(1)["resolution"]
    assert record["outcome"] == blast["predict"] and record["basis"] == blast["basis"]
    assert "revealed" not in str(record["basis"])  # the stealth unit it revealed is no basis

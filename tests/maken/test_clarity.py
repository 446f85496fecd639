"""Maken's aids for people (issue 39): option previews, the resolution record, the board replay
of the log, and the reasons of what cannot be chosen.

Over random games of every deck pairing and several seeds, at the seat's exchange decisions:
every previewed option, taken and followed by answers that add nothing (the opponent takes the
judge or keeps guarding and declines a bonus bet; the seat breaks the guard when it may, else
stops, pays from the gauge first and declines), ends in a judge whose record has the preview's
basis and whose outcome is its prediction. Previews and reasons are the same in every world
the seat cannot tell apart (``resample_hidden``), only the deciding seat's own view carries
previews, only a seat's own view carries reasons, and a COM's decision view carries neither.
Every own hand card no legal action names has exactly one reason (never the fallback). The
replay of a view's log (:mod:`kessen.games.maken.tally`) is that view's board at every step,
under the rule switches that change where cards go.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from typing import Any

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.games.maken.cards import CARD
from kessen.games.maken.preview import option_previews
from kessen.games.maken.reasons import REASON_CODES, reason_text, unplayable_reasons
from kessen.games.maken.record import resolution_record
from kessen.games.maken.state import MakenState
from kessen.games.maken.tally import board_of_view, tally_of

DECKS = ("SO", "RI", "MI", "GA")
SEEDS = (11, 230, 4700)


def _games(count: int, seed: int, extra: dict[str, Any] | None = None) -> Iterator[MakenState]:
    """Every decision point of ``count`` random games from ``seed`` on."""
    rules = registry.get("maken")
    for game in range(count):
        n = seed + game
        config: dict[str, Any] = {"decks": [DECKS[n % 4], DECKS[n // 4 % 4]], **(extra or {})}
        state = rules.new_game(config, n)
        assert isinstance(state, MakenState)
        rnd = random.Random(n)
        while state.pending is not None:
            yield state
            legal = state.legal_actions()
            state.apply(legal[rnd.randrange(len(legal))])


@cache
def _decisions() -> list[MakenState]:
    """Copies of the exchange decisions (FB, exchange, payment, bonus) of random games."""
    out: list[MakenState] = []
    for seed in SEEDS:
        for n, state in enumerate(_games(6, seed)):
            if state.phase in ("fb", "act", "pay", "bonus") and n % 2 == 0:
                out.append(state.clone())
    return out


def _adds_nothing(world: MakenState, seat: int) -> Action:
    """The test's own answer that adds nothing (written apart from the preview's)."""
    legal = {str(a): a for a in world.legal_actions()}
    who = world.pending.seat if world.pending else -1
    if world.phase == "pay":
        if "pay-rest-from-gauge" in legal:
            return legal["pay-rest-from-gauge"]
        return next(a for t, a in legal.items() if t.startswith("cancel "))
    if world.phase == "bonus":
        return legal["decline"]
    if who != seat:
        return legal["judge"] if "judge" in legal else legal["guard"]
    for plain in ("gb", "judge", "guard"):
        if plain in legal:
            return legal[plain]
    raise AssertionError(f"no answer that adds nothing among {sorted(legal)}")


def _resolve(state: MakenState, seat: int, action: str) -> dict[str, Any] | None:
    world = state.clone()
    world.apply(Action.parse(action))
    for _ in range(60):
        if world.result is not None or world.phase not in ("act", "pay", "bonus"):
            break
        world.apply(_adds_nothing(world, seat))
    log = [e.visible(seat) for e in world.log]
    return resolution_record(log, world.config, seat)


def test_each_previewed_option_resolves_as_predicted() -> None:
    compared = 0
    kinds: set[str] = set()
    hows: set[Any] = set()
    for state in _decisions():
        seat = state.pending.seat if state.pending else 0
        previews = option_previews(state, seat) or {}
        assert set(previews) == {str(a) for a in state.legal_actions() if a.verb != "open"}
        for action, preview in previews.items():
            record = _resolve(state, seat, action)
            assert record is not None, action
            assert record["basis"] == preview["basis"], (action, record["basis"], preview)
            assert record["outcome"] == preview["predict"], (action, record["outcome"], preview)
            for key in ("title", "assumes", "tone"):
                assert preview[key], (action, preview)
            compared += 1
            kinds.add(action.split(" ")[0])
            hows.add(preview["predict"]["how"])
    assert compared > 300, compared
    assert {"fb", "attack", "gc", "guard", "gb", "judge", "decline", "bonus"} <= kinds, kinds
    assert {"NORMAL", "GC", "GB", None} <= hows, hows


def test_previews_and_reasons_are_the_same_in_every_world_the_seat_cannot_tell_apart() -> None:
    for n, state in enumerate(_decisions()[::3]):
        seat = state.pending.seat if state.pending else 0
        mine = state.view(seat)
        assert mine["previews"] is not None
        for k in range(2):
            other = state.resample_hidden(seat, 900 + 7 * n + k)
            seen = other.view(seat)
            assert seen["previews"] == mine["previews"]
            assert seen["why_not"] == mine["why_not"]
            assert seen["resolution"] == mine["resolution"]


def test_aids_only_in_the_seats_own_view() -> None:
    for state in _decisions()[::5]:
        seat = state.pending.seat if state.pending else 0
        other = state.view(1 - seat)
        assert other["previews"] is None
        assert other["why_not"] is not None  # its own reasons (waiting)
        assert all(e["code"] == "not_your_turn" for e in other["why_not"] if e["zone"] == "hand")
        observer = state.view(None)
        assert observer["previews"] is None and observer["why_not"] is None
        assert state.view_all()["previews"] is None and state.view_all()["why_not"] is None
        com = state.decision_view(seat)
        assert com["previews"] is None and com["why_not"] is None and com["resolution"] is None


def test_every_card_that_cannot_be_chosen_has_exactly_one_reason() -> None:
    codes: set[str] = set()
    for state in _games(8, 77):
        for seat in (0, 1):
            reasons = unplayable_reasons(state, seat)
            mine = state.pending is not None and state.pending.seat == seat
            legal = state.legal_actions() if mine else []
            named = {str(a.args[0]).split("x")[0] for a in legal if a.args}
            hand = sorted(state.cards[i] for i in state.hand[seat])
            want = [i for i, c in enumerate(hand) if CARD[c].slug not in named]
            got = [e["index"] for e in reasons if e["zone"] == "hand"]
            assert got == want, (got, want, state.phase)
            for entry in reasons:
                assert entry["code"] != "no_use", (entry, state.phase, [str(a) for a in legal])
                assert entry["code"] in REASON_CODES
                for lang in ("ja", "en"):
                    assert reason_text(entry["code"], entry["params"], lang)
                if entry["zone"] == "action":
                    assert entry["action"] not in {str(a) for a in legal}
                codes.add(entry["code"])
    want_codes = {"not_your_turn", "pre_attack", "slow", "far", "no_fb", "front_zero", "cost"}
    want_codes |= {"rv_only", "gb_total", "guard_forcing", "judge_guarding", "same_name"}
    assert want_codes <= codes, want_codes - codes


def test_the_first_bet_says_why_a_card_cannot_open_the_exchange() -> None:
    """霜月斬 (先間合0) and 疾風脚 (another character's card: the helper cost) say why they
    cannot be the first bet; so does a FB不可 card."""
    from tests.maken.build import Side, act, position

    state = position(Side(hand=["SO01", "SO03", "SO09", "RI01"]), Side(hand=["GA06"]), turn=5)
    act(state, "draw 1", "end")
    assert state.phase == "fb"
    reasons = {e["card"]: e for e in state.view(0)["why_not"] if e["zone"] == "hand"}
    assert reasons["SO01"]["code"] == "front_zero"
    assert "先間合0" in reasons["SO01"]["text"] and "奇襲" in reasons["SO01"]["text"]
    assert reasons["RI01"]["code"] == "cost" and reasons["RI01"]["params"]["helper"] == 2
    assert "助っ人コスト2" in reasons["RI01"]["text"]
    assert "SO03" not in reasons and "SO09" not in reasons


@cache
def _switch_games() -> list[tuple[str, list[MakenState]]]:
    out = []
    for extra in (
        {},
        {"lpTo": "dust", "cleanup": "gauge"},
        {"lpTo": "gauge", "exhaustion": "none", "downAt": 8},
        {"bonusBet": "always", "bonusBetMax": 2, "gb": "total"},
    ):
        out.append((str(extra), [s.clone() for s in _games(4, 500, extra)]))
    return out


def test_the_replay_of_a_views_log_is_that_views_board() -> None:
    checked = 0
    for name, states in _switch_games():
        for state in states:
            for seat in (0, 1, None):
                view = state.view(seat)
                tally = tally_of(view["log"], state.config, seat).run(view["log"])
                assert tally.snapshot() == board_of_view(view), (name, seat, view["log"][-5:])
                checked += 1
    assert checked > 3000


def test_the_record_steps_through_the_judge() -> None:
    """Each judge's record: steps in log order up to the clean-up, boards that end as the
    view after it, an outcome its own events state."""
    records = 0
    for state in _games(6, 3100):
        view = state.view(state.pending.seat if state.pending else 0)
        record = view["resolution"]
        if record is None:
            continue
        log = view["log"]
        steps = record["steps"]
        assert [s["at"] for s in steps] == sorted(s["at"] for s in steps)
        assert all(s["logUntil"] == s["at"] + 1 or s["logUntil"] > s["at"] for s in steps)
        assert steps[0]["kind"] == "bet" and steps[0]["as"] == "fb"
        assert steps[-1]["logUntil"] == record["end_index"] + 1
        assert log[record["judge_index"]]["kind"] == "judge"
        kinds = [s["kind"] for s in steps]
        assert "judge" in kinds and kinds[-1] in ("cleanup", "down", "end")
        if record["outcome"]["hitter"] is not None and not record["outcome"]["winner"]:
            assert "damage" in kinds
        assert record["banner"]["title"]
        records += 1
    assert records > 50

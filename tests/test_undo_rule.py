"""Undo is never an oracle (kobo-rules.md §7): a seat takes back only its own decisions made
since it last learned something new, on every ruleset, enforced by the session.

The property is checked against the engine's truth, independently of how the rule decides:
whenever the session lets a seat undo back to some state, the decisions taken back are all the
seat's own, no random outcome happened, and replaying them from other worlds consistent with
what the seat knew then gives the seat exactly the same view. So the seat could not have learned
anything it could use by taking them back.
"""

from __future__ import annotations

import random
import secrets

import pytest

from kessen.engine.action import Action
from kessen.engine.contract import GameState
from kessen.games.kobo.game import fixed_order_match
from kessen.games.kobo.state import KoboState
from kessen.server.session import Session, SessionError
from tests.kobo.test_reinforcement_call import CALLER, FILLER, OPPONENT, TACTICS

HUMAN, COM = 0, 1
CONFIGS = {
    "kobo": {"decks": ["vanguard", "tempo"], "best_of": 1},
    "twgp": {},
}


def vs_com(ruleset: str, seed: int) -> Session:
    return Session.create(ruleset, CONFIGS[ruleset], seed, "vs_com", "heuristic", 0.0)


def around(state: GameState) -> Session:
    """A vs-COM session (heuristic COM in seat 1) that starts from ``state``."""
    session = Session(secrets.token_hex(8), state.ruleset, {}, 0, "vs_com", {COM: "heuristic"}, 0)
    session.states.append(state)
    return session


def settle(session: Session) -> None:
    while session.com_step() is not None:
        pass


def act(session: Session, text: str) -> None:
    pending = session.live.pending
    assert pending is not None and pending.seat == HUMAN
    session.act(HUMAN, pending.prompt_id, text)


def refused_unchanged(session: Session, code: str) -> None:
    """Undo is refused with ``code``; nothing changes, and the message says why."""
    before = (session.live.state_hash(), len(session.actions), session.version)
    history = session.history(HUMAN)
    assert not history["can_undo"] and history["undo_code"] == code, history
    with pytest.raises(SessionError) as refusal:
        session.undo(HUMAN)
    assert str(refusal.value) == history["undo_blocked"]
    assert (session.live.state_hash(), len(session.actions), session.version) == before


def check_undo_teaches_nothing(session: Session, seat: int) -> int:
    """The property of the module docstring for the undo the session offers now; returns how
    many decisions it could take back (0 when it offers none)."""
    point = session.undo_point(seat)
    if point.index is None:
        return 0
    start = point.earliest
    taken_back = session.actions[start:]
    assert taken_back and all(who == seat for who, _ in taken_back)
    origin, live = session.state_at(start), session.live
    assert origin.chance_marker() == live.chance_marker()
    truth = live.view(seat)
    for world_seed in (101, 202, 303, 404):  # other worlds than the rule's own
        world = origin.resample_hidden(seat, world_seed)
        for _, action in taken_back:
            world.apply(action)
        assert world.view(seat) == truth, "undo would let the seat compare outcomes"
    return len(taken_back)


@pytest.mark.parametrize("ruleset", ["kobo", "twgp"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_undo_offered_in_random_games_takes_back_nothing_learned(
    ruleset: str, seed: int
) -> None:
    session = vs_com(ruleset, seed)
    rng = random.Random(seed)
    offered = refused = undone = 0
    for _ in range(700):
        settle(session)
        pending = session.live.pending
        if pending is None:
            break
        if check_undo_teaches_nothing(session, HUMAN):
            offered += 1
            if rng.random() < 0.25:
                before = session.live.state_hash()
                session.undo(HUMAN)
                undone += 1
                if rng.random() < 0.5:
                    session.redo(HUMAN)
                    assert session.live.state_hash() == before  # nothing re-rolled
                continue
        elif session.actions:
            refused += 1
            refused_unchanged(session, str(session.history(HUMAN)["undo_code"]))
        legal = session.live.legal_actions()
        act(session, str(rng.choice(legal)))
    assert offered and refused and undone, (offered, refused, undone)


def test_undo_after_the_match_ended_is_refused_and_changes_nothing() -> None:
    session = vs_com("kobo", 5)
    rng = random.Random(5)
    while True:
        settle(session)
        if session.live.pending is None:
            break
        act(session, str(rng.choice(session.live.legal_actions())))
    assert session.live.outcome is not None
    refused_unchanged(session, "over")
    assert "match is over" in str(session.history(HUMAN)["undo_blocked"])
    with pytest.raises(SessionError):
        session.redo(HUMAN)


# --- the two oracles of the report ----------------------------------------------------------


def kobo_match(main0: list[str]) -> KoboState:
    return fixed_order_match((main0, list(OPPONENT)), (list(TACTICS), list(TACTICS)))


def test_supply_wagon_draw_cannot_be_taken_back_to_read_the_deck() -> None:
    """Use 兵糧車, see the two cards drawn, undo, use it again: refused at the draw."""
    main0 = ["supply-wagon", "spear-ashigaru", *FILLER, "oni-warlord", "war-drum", "great-tengu"]
    session = around(kobo_match(main0))
    act(session, "pick spear-ashigaru")
    assert session.history(HUMAN)["can_undo"]  # a choice from one's own hand teaches nothing
    act(session, "slot 1")
    act(session, "pick supply-wagon")
    assert session.history(HUMAN)["can_undo"]
    act(session, "use")  # draws oni-warlord and war-drum
    drawn = [e for e in session.live.log_events() if e.kind == "draw"][-1]
    assert drawn.private_to == HUMAN and drawn.private
    refused_unchanged(session, "learned")


def test_reinforcement_call_cannot_be_re_offered_to_steer_the_blind_pick() -> None:
    """After 援軍指名, undo across COM's blind pick (and across the shuffle before it) is
    refused, so the owner cannot re-offer the cards in another order."""
    session = around(kobo_match(list(CALLER)))
    for text in ("pick spear-ashigaru", "slot 1", "pick reinforcement-call", "use"):
        act(session, text)
    act(session, "name great-tengu")
    act(session, "name oni-warlord")
    assert session.history(HUMAN)["can_undo"]  # naming from one's own deck list: nothing new
    act(session, "name warrior-monk")  # the three are shuffled face down: a random outcome
    refused_unchanged(session, "learned")
    assert session.com_step() == Action.parse(str(session.actions[-1][1]))  # COM's blind pick
    assert session.actions[-1][0] == COM
    pending = session.live.pending
    assert pending is not None and pending.seat == HUMAN and pending.prompt == "place"
    refused_unchanged(session, "opponent")


def test_twgp_draw_from_the_pile_cannot_be_taken_back() -> None:
    """TWGP: taking cards from the top of the pile into the hand (a reload) ends what can be
    undone: the seat has seen cards of a pile whose order it did not know."""
    session = vs_com("twgp", 11)
    rng = random.Random(11)
    seen = 0
    for _ in range(600):
        settle(session)
        if session.live.pending is None or seen >= 3:
            break
        before = session.live
        act(session, str(rng.choice(session.live.legal_actions())))
        after = session.states[-1] if session.actions[-1][0] == HUMAN else None
        if after is None:
            continue
        private = [
            e
            for e in after.log_events()[len(before.log_events()) :]
            if e.private_to == HUMAN and e.private and e.kind == "reload_take"
        ]
        if private and session.live is after:
            seen += 1
            refused_unchanged(session, "learned")
    assert seen, "no reload of the human seat was met"

"""A match clock between two people that cannot be paused (docs/two-player.md).

Each seat has one grace per match: a bank of :data:`~kessen.server.limits.GRACE` seconds,
never refilled, spent by every second it is away. However often a seat disconnects and comes
back, it thinks at most that long with its clock stopped. A move is charged before it is looked
at: at zero, or a few milliseconds past it (before the watcher task has looked), it is refused
and the match is lost on time, without the increment. Time is a fake clock moved by hand; the
watcher task is played by :func:`watch`, which looks at the clock every :data:`STEP` seconds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from kessen.engine.contract import Outcome
from kessen.server.limits import GRACE
from kessen.server.session import Session, SessionError
from kessen.server.table import TIMEOUT, Clock, Table
from kessen.store.records import MatchStore
from tests.test_two_player import FakeClock, move, two_people

STEP = 0.25
"""Seconds between two looks of the stand-in watcher (exact in binary: no rounding drift)."""


def watch(session: Session, now: FakeClock, seconds: float) -> bool:
    """Let ``seconds`` pass, looking at the clock every :data:`STEP` as the watcher task would;
    True as soon as the match has ended on time."""
    end = now.t + seconds
    while now.t < end:
        now.t = min(end, now.t + STEP)
        if session.tick():
            return True
    return False


def parts(session: Session) -> tuple[Table, Clock]:
    """The session's table and its clock (both must be there)."""
    table = session.table
    assert table is not None and table.clock is not None
    return table, table.clock


def present(session: Session) -> None:
    """Both seats open their connection."""
    for seat in (0, 1):
        session.arrive(seat)


def grace_shown(session: Session, seat: int) -> Any:
    """The grace the other seat is shown for ``seat`` (its seconds left while away)."""
    return session.view_for(1 - seat, "ja", False)["session"]["table"]["grace"]


# --- one grace per seat and match ---------------------------------------------------------------


def test_six_disconnects_never_stop_the_clock_for_more_than_one_grace() -> None:
    now = FakeClock()
    session, _, _ = two_people(clock=(6.0, 0.0), now=now)
    table, clock = parts(session)
    assert table.grace == GRACE
    present(session)
    pending = session.live.pending
    assert pending is not None
    thinker, start = pending.seat, now()
    cycles = 0
    # The hostile pattern: drop the connection, think, come back for a moment, drop again. Each
    # absence (15 s) fits in a grace; all six together (90 s) are well beyond one.
    while cycles < 6 and not session.over:
        cycles += 1
        session.leave(thinker)
        if watch(session, now, 15.0):
            break
        session.arrive(thinker)
        watch(session, now, 0.5)
    assert session.over, "the seat thought 93 s on a 6 s bank by reconnecting"
    assert session.outcome == Outcome(1 - thinker, TIMEOUT)
    thought = now() - start
    # Lost when its thinking time passed its bank plus one grace, during the fifth absence.
    assert thought == pytest.approx(6.0 + GRACE, abs=STEP)
    assert cycles == 5
    assert clock.remaining(now())[thinker] == 0.0 and clock.running is None
    assert table.grace_left(thinker, now()) == 0.0


def test_a_single_disconnect_still_waits_grace_with_the_clock_stopped_once_per_match() -> None:
    now = FakeClock()
    session, _, _ = two_people(clock=(100.0, 0.0), now=now)
    _, clock = parts(session)
    present(session)
    pending = session.live.pending
    assert pending is not None
    away = pending.seat
    session.leave(away)
    assert grace_shown(session, away) == {str(away): GRACE}
    assert clock.running is None and session.next_wake() == pytest.approx(now() + GRACE)
    assert not watch(session, now, GRACE - STEP)
    assert clock.running is None and clock.remaining(now())[away] == pytest.approx(100.0)
    assert not watch(session, now, 2 * STEP)  # the grace is over: its clock runs from its end
    assert clock.running == away
    assert clock.remaining(now())[away] == pytest.approx(100.0 - STEP)
    session.arrive(away)
    assert clock.running == away and grace_shown(session, away) == {}
    session.leave(away)  # the one grace of this match is spent: the clock keeps running
    assert clock.running == away and grace_shown(session, away) == {str(away): 0.0}
    assert not watch(session, now, 10.0)
    assert clock.remaining(now())[away] == pytest.approx(100.0 - STEP - 10.0)
    session.arrive(away)
    move(session)
    assert session.steps == 1


def test_a_short_absence_spends_only_its_length_of_the_grace_and_only_its_own() -> None:
    now = FakeClock()
    session, _, _ = two_people(clock=(100.0, 0.0), now=now)
    _, clock = parts(session)
    present(session)
    pending = session.live.pending
    assert pending is not None
    away = pending.seat
    session.leave(away)
    assert not watch(session, now, 10.0)
    session.arrive(away)
    assert clock.running == away and grace_shown(session, away) == {}
    assert not watch(session, now, 1.0)
    session.leave(away)  # the rest of its grace, not a fresh one
    assert grace_shown(session, away) == {str(away): GRACE - 10.0}
    assert clock.running is None
    assert session.next_wake() == pytest.approx(now() + GRACE - 10.0)
    assert not watch(session, now, GRACE - 10.0)
    assert clock.running == away
    assert clock.remaining(now())[away] == pytest.approx(99.0)  # its one second present
    session.arrive(away)
    other = 1 - away
    session.leave(other)  # the other seat's grace is its own, untouched
    assert grace_shown(session, other) == {str(other): GRACE}


def test_a_restored_match_starts_afresh_and_keeps_one_grace_per_seat(tmp_path: Any) -> None:
    store = MatchStore(tmp_path / "m.sqlite3")
    now = FakeClock()
    session, _, _ = two_people(clock=(200.0, 1.0), store=store, now=now)
    present(session)
    move(session)
    _, clock = parts(session)
    seat = clock.running
    assert seat is not None
    session.leave(seat)
    assert not watch(session, now, GRACE + 5.0)  # its grace spent, its clock running
    assert clock.running == seat
    assert session.recorder is not None
    back = Session.restore(store, session.recorder.match_id)
    back.now = now
    table, clock = parts(back)
    table.away_since = dict.fromkeys(table.away_since, now())  # restore read the real clock
    assert clock.left == [200.0, 200.0] and clock.running is None  # full banks, as ever
    assert set(back.view_for(0, "ja", False)["session"]["table"]["grace"]) == {"0", "1"}
    present(back)
    assert clock.running == seat
    back.leave(seat)  # after the restart: a full grace again, once
    assert clock.running is None and grace_shown(back, seat) == {str(seat): GRACE}
    assert not watch(back, now, GRACE + STEP)
    assert clock.running == seat
    back.arrive(seat)
    back.leave(seat)
    assert clock.running == seat and grace_shown(back, seat) == {str(seat): 0.0}
    store.close()


# --- no move at or after zero -------------------------------------------------------------------


@pytest.mark.parametrize("late", [0.0, 0.002, 0.005])
def test_a_move_at_zero_or_just_after_is_refused_and_the_match_lost_on_time(
    tmp_path: Any, late: float
) -> None:
    store = MatchStore(tmp_path / "m.sqlite3")
    now = FakeClock()
    session, _, _ = two_people(clock=(6.0, 30.0), store=store, now=now)
    _, clock = parts(session)
    present(session)
    pending = session.live.pending
    assert pending is not None
    seat = pending.seat
    assert clock.running == seat
    now.t += 6.0 + late  # the watcher task has not looked yet
    action = str(session.live.legal_actions()[0])
    with pytest.raises(SessionError, match="your time ran out"):
        session.act(seat, pending.prompt_id, action)
    assert session.steps == 0  # the move was not made
    assert session.outcome == Outcome(1 - seat, TIMEOUT)
    assert clock.left[seat] <= 0.0 and clock.remaining(now())[seat] == 0.0  # no increment
    assert clock.running is None
    view = session.view_for(seat, "ja", False)["session"]["table"]
    assert view["ended"] == {"winner": 1 - seat, "reason": TIMEOUT}
    assert view["clock"]["left"][seat] == 0.0
    with pytest.raises(SessionError, match="over"):
        session.act(seat, pending.prompt_id, action)  # and stays refused
    assert not session.tick()  # the watcher, looking late, finds it ended already
    assert session.recorder is not None
    info = store.info(session.recorder.match_id)
    assert info.is_finished and info.winner == 1 - seat and info.reason == TIMEOUT
    store.close()


def _act_of_other(session: Session, out: int, asker: int) -> None:
    pending = session.live.pending
    assert pending is not None
    session.act(1 - out, pending.prompt_id, str(session.live.legal_actions()[0]))


MOVES: dict[str, Callable[[Session, int, int], None]] = {
    "a move of the other seat": _act_of_other,
    "a resignation of the seat out of time": lambda s, out, asker: s.resign(out),
    "a resignation of its opponent": lambda s, out, asker: s.resign(1 - out),
    "an undo request": lambda s, out, asker: s.undo(asker),
    "an undo answer": lambda s, out, asker: s.answer_undo(1 - asker, True),
    "a redo": lambda s, out, asker: s.redo(asker),
    "a leave": lambda s, out, asker: s.leave(out),
}
"""What a seat may send at the moment a clock reached zero: (session, seat out, asker)."""


@pytest.mark.parametrize("what", list(MOVES))
def test_nothing_else_is_accepted_at_zero_either(tmp_path: Any, what: str) -> None:
    store = MatchStore(tmp_path / "m.sqlite3")
    now = FakeClock()
    session, _, _ = two_people(clock=(10.0, 5.0), store=store, now=now)
    table, clock = parts(session)
    present(session)
    now.t += 1.0
    asker = move(session)
    if what == "a redo":  # an accepted undo: the asker decides again, and may redo
        session.undo(asker)
        session.answer_undo(1 - asker, True)
        assert session.history(asker)["can_redo"]
    out = clock.running
    assert out is not None
    if what == "an undo answer":
        session.undo(asker)
        assert table.undo_request == asker
    now.t += clock.remaining(now())[out]  # exactly zero; the watcher has not looked yet
    steps = session.steps
    if what == "a leave":
        session.leave(out)  # leaving at zero does not stop a clock that ran out
    else:
        with pytest.raises(SessionError, match="time ran out"):
            MOVES[what](session, out, asker)
    assert session.outcome == Outcome(1 - out, TIMEOUT)
    assert session.steps == steps and table.undo_request is None
    assert clock.running is None and clock.remaining(now())[out] == 0.0
    assert session.recorder is not None
    info = store.info(session.recorder.match_id)
    assert info.is_finished and info.winner == 1 - out and info.reason == TIMEOUT
    store.close()

"""Two people at one table: the match made once the guest has chosen, its rules, the rematch.

A :class:`~kessen.server.session.Session` in mode ``vs_human`` delegates its two-person parts
here (the table itself, without any game, is :mod:`kessen.server.table`):

- **Deferred start.** The creator (seat 0) fixes the settings and their own seat's deck, build
  or character; the server draws the seed. Until the guest has chosen theirs the session has no
  state: every view is the *waiting* view (:func:`waiting_view`), and no move is accepted. The
  creator's settings are checked at creation with the guest seat's default entry (the one the
  creator's config names, else the ruleset's). With a store, the match is recorded at once as
  a placeholder (0 steps, that default in the guest's seat, ``waiting_guest`` in its meta with
  the unused invite): a server restart brings it back waiting (:func:`restore_table`). The
  join (:func:`join`) builds the real state from the guest's choice, checked by the ruleset's
  own validation and the rule that the server deals (:func:`choice_problem`); a refused choice
  uses nothing, so the invite still opens the seat. The record of the real match replaces the
  placeholder (same meta, same tokens: a new match id).
- **Playing.** Presence and grace, the clock, undo requests and the end off the board (on time,
  resigned): the functions below that :class:`Session` calls for its table.
- **Rematch.** Once the match is over, each seat may ask (:func:`answer_rematch`); when both
  have, :func:`make_rematch` makes the next match with the same settings, the seats swapped
  (the guest becomes seat 0) and each person's own deck, a fresh seed from the server.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from kessen.engine import registry
from kessen.engine.contract import Json, Outcome, RulesError
from kessen.server import deal
from kessen.server.table import ABANDON, RESIGN, TIMEOUT, Clock, NextMatch, Table
from kessen.store.records import MatchStore, Recorder, StoreError

if TYPE_CHECKING:
    from kessen.server.session import Session

SPECTATOR: Final = -1
KEEP: Final = object()
"""The guest's choice when none is given: the default entry of the guest's seat."""
WAITING: Final = "your opponent has not joined yet: share the invite link"
OVER: Final = "the match is over; open its record to replay or branch it"
HUMANS: Final = {"0": "human", "1": "human"}


def _error(message: str, code: str = "refused") -> RulesError:
    from kessen.server.session import SessionError

    return SessionError(message, code)


# --- the seats' entries ------------------------------------------------------------------------


def seat_key(ruleset: str) -> str:
    """The config key of ``ruleset``'s per-seat list: its deck format's (``decks``, TWGP's
    ``builds``), else ``decks`` (Maken's characters)."""
    found = registry.get(ruleset).decks
    return "decks" if found is None else found.config_key


def secret_lists(ruleset: str) -> bool:
    """Whether ``ruleset``'s per-seat lists are hidden information (a TWGP build)."""
    found = registry.get(ruleset).decks
    return found is not None and found.secret


def entries(ruleset: str, config: Mapping[str, Any]) -> list[Any]:
    """The two seats' entries of ``config`` (``None`` where a seat names none)."""
    found = config.get(seat_key(ruleset))
    if not isinstance(found, list | tuple):
        return [None, None]
    return [found[0] if len(found) > 0 else None, found[1] if len(found) > 1 else None]


def with_entries(ruleset: str, config: Mapping[str, Any], first: Any, second: Any) -> Json:
    """``config`` with the seats' entries ``first`` and ``second`` (a list that would only say
    that neither seat names one is left out, as a creator who named none left it)."""
    key = seat_key(ruleset)
    out = dict(config)
    if first is None and second is None and key not in config:
        return out
    out[key] = [first, second]
    return out


def with_guest(ruleset: str, config: Mapping[str, Any], entry: Any) -> Json:
    """``config`` with ``entry`` as the guest's (seat 1's)."""
    return with_entries(ruleset, config, entries(ruleset, config)[0], entry)


def choice_problem(session: Session, entry: Any) -> str | None:
    """Why ``entry`` (resolved: a saved deck already its list) cannot be the guest's in this
    match, in the ruleset's own words; None when it can."""
    config = with_guest(session.ruleset, session.config, entry)
    rules = registry.get(session.ruleset)
    fixed = rules.fixed_deal(config)
    if fixed:
        return (
            "a match between two people is dealt by the server, so that neither player knows "
            f"the other's cards; refused: {'; '.join(fixed)}"
        )
    try:
        rules.new_game(config, session.seed)
    except RulesError as err:
        return str(err)
    return None


def reseat(ruleset: str, entry: Any, seat: int, config: Mapping[str, Any]) -> Any:
    """A seat's entry for ``seat`` instead: the same for public lists and names; a secret
    build is written in its seat's own cards, so its format writes it for the other seat
    (given as its saved form, with the game's ``jokers`` switch)."""
    found = registry.get(ruleset).decks
    if found is None or not found.secret or not isinstance(entry, Mapping):
        return entry
    saved = {**entry, "jokers": config.get("jokers") is True}
    try:
        return found.for_seat(saved, seat, "", config)
    except ValueError as err:
        raise _error(f"the rematch cannot seat this build: {err}") from err


def swapped(ruleset: str, config: Mapping[str, Any]) -> Json:
    """``config`` with the two seats' entries swapped (each written for its new seat)."""
    first, second = entries(ruleset, config)
    return with_entries(
        ruleset, config, reseat(ruleset, second, 0, config), reseat(ruleset, first, 1, config)
    )


# --- the table's start: created, restored, joined ---------------------------------------------


def open_table(
    session: Session, store: MatchStore | None, clock: tuple[float, float] | None
) -> None:
    """Set up a new match between two people waiting for its guest: the creator's settings
    checked (with the guest seat's default entry), the table, and the placeholder record."""
    state = registry.get(session.ruleset).new_game(session.config, session.seed)
    table = Table(session.new_token(1), session.new_token(SPECTATOR))
    table.away_since[0] = session.now()
    if clock is not None:
        table.clock = Clock.start(*clock)
    session.table = table
    if store is not None:
        session.recorder = Recorder.start(
            store,
            state,
            session.config,
            session.seed,
            players=HUMANS,
            source="server",
            meta=session.meta(),
        )


def table_meta(session: Session, table: Table) -> Json:
    """What the store keeps of a table: the tokens' roles, the clock's settings, the invite
    code while it is unused (so it survives a restart; a join removes it), and whether the
    guest has yet to choose (the record is then the placeholder)."""
    clock = table.clock
    unused = table.invite is not None and not table.claimed
    return {
        "guest": table.guest_token,
        "spectate": table.spectate_token,
        "clock": None if clock is None else [clock.bank, clock.increment],
        **({"invite": table.invite} if unused else {}),
        **({"waiting_guest": True} if not session.states else {}),
    }


def restore_table(session: Session, meta: Json, store: MatchStore, match_id: int) -> bool:
    """Bring back the table of a recorded match (``meta``: its stored meta); True when the
    match still waits for its guest (no state: the placeholder record stays its record).

    An unused invite is kept in the meta: it still opens seat 1. Without one the seat counts
    as taken (its token still opens it). The clock starts again from full banks.
    """
    invite = meta.get("invite")
    unused = isinstance(invite, str) and bool(invite)
    table = Table(
        str(meta["guest"]),
        str(meta["spectate"]),
        invite=str(invite) if unused else None,
        claimed=not unused,
    )
    if isinstance(meta.get("clock"), list):
        table.clock = Clock.start(float(meta["clock"][0]), float(meta["clock"][1]))
    seats = (0,) if unused else (0, 1)
    table.away_since = {seat: session.now() for seat in seats}
    session.table = table
    if unused and meta.get("waiting_guest") is True:
        session.recorder = Recorder(store, match_id, 0, 0)
        return True
    return False


def join(session: Session, code: str, choice: Any = KEEP) -> tuple[str, int]:
    """The token and seat an invite or spectator ``code`` opens: seat 1 once (the game starts
    with ``choice``, resolved, as the guest's entry), then the spectator's view.
    :class:`SessionError` for a code of no use here, or a choice the match cannot take
    (nothing is used then: the invite still opens the seat)."""
    table = session.table
    seat = None if table is None else table.peek(code)
    if table is None or seat is None:
        raise _error("no such invite for this game")
    if seat == SPECTATOR:
        found = table.claim(code)
        assert found is not None
        return found
    waiting = not session.states
    before = session.config
    if waiting:
        _start(session, choice)
    found = table.claim(code)
    assert found is not None and found[1] == 1
    if session.recorder is not None and waiting:
        try:
            _record(session)
        except (StoreError, OSError):  # nothing recorded: the guest's join is undone
            table.claimed = False
            session.states.clear()
            session.config = before
            raise
    elif session.recorder is not None:  # a match restored after it had started
        recorder = session.recorder
        recorder.store.update_meta(recorder.match_id, {"invite": None})
    table.away_since[1] = session.now()  # the guest connects next
    session.retime()
    session.version += 1
    return found


def _start(session: Session, choice: Any) -> None:
    """Build the state with the guest's ``choice`` (refused, nothing changed, if it cannot
    play this match)."""
    config = session.config
    if choice is not KEEP:
        config = with_guest(session.ruleset, config, choice)
    problem = choice_problem(session, entries(session.ruleset, config)[1])
    if problem is not None:
        raise _error(f"your choice cannot play this match: {problem}", "choice")
    session.config = config
    session.states.append(registry.get(session.ruleset).new_game(config, session.seed))


def _record(session: Session) -> None:
    """Record the real match (its config with both seats' entries) in place of the
    placeholder."""
    recorder = session.recorder
    assert recorder is not None
    store, placeholder = recorder.store, recorder.match_id
    session.recorder = Recorder.start(
        store,
        session.live,
        session.config,
        session.seed,
        players=HUMANS,
        source="server",
        meta=session.meta(),
    )
    with contextlib.suppress(StoreError):  # already gone: nothing to replace
        store.delete_match(placeholder)


# --- the waiting view --------------------------------------------------------------------------


def waiting_view(session: Session, seat: int) -> Json:
    """What every connection sees while the match waits for its guest: the game, the table
    (the creator's invite), and nothing of any game."""
    table = session.table
    assert table is not None
    outcome = session.outcome
    return {
        "ruleset": session.ruleset,
        "waiting": True,
        "viewer": None if seat == SPECTATOR else seat,
        "pending": None,
        "outcome": None,
        "log": [],
        "com_why": None,
        "history": {
            "can_undo": False,
            "can_redo": False,
            "live": True,
            "step": 0,
            "steps": 0,
            "undo_blocked": None,
            "boundary_log": None,
        },
        "session": {
            "id": session.id,
            "mode": session.mode,
            "you": None if seat == SPECTATOR else seat,
            "com": {},
            "pace": session.pace,
            "show_all": False,
            "open_deal": bool(session.open_deal),
            "table": table.view_for(seat, session.now(), session.over),
            "ended": None
            if outcome is None
            else {"winner": outcome.winner, "reason": outcome.reason, "off_board": True},
        },
    }


def invitation(session: Session) -> Json:
    """What the guest's join screen shows before joining: the game, the creator's settings
    (a secret build left out), the creator's entry when it is public, the guest seat's
    default, and the clock."""
    ruleset = session.ruleset
    key = seat_key(ruleset)
    secret = secret_lists(ruleset)
    first, second = entries(ruleset, session.config)
    table = session.table
    clock = None if table is None or table.clock is None else table.clock
    return {
        "id": session.id,
        "ruleset": ruleset,
        "seat": 1,
        "choose": not session.states,
        "key": key,
        "secret": secret,
        "settings": {k: v for k, v in session.config.items() if k != key},
        "host": None if secret else first,
        "default": second,
        "clock": None if clock is None else {"bank": clock.bank, "increment": clock.increment},
    }


# --- presence, grace and the clock ----------------------------------------------------------


def arrive(session: Session, seat: int) -> None:
    """A connection of ``seat`` opened: it is present again."""
    if session.table is not None:
        session.table.arrive(seat, session.now())
        retime(session)


def leave(session: Session, seat: int) -> None:
    """A connection of ``seat`` closed: an absence may start, spending what is left of its
    grace. A seat that leaves at or after zero has lost on time: leaving does not stop a clock
    that ran out. Once the match is over, a seat whose last connection closed has left the
    table: its open rematch request lapses (the other would start a match against nobody)."""
    table = session.table
    if table is not None:
        with contextlib.suppress(RulesError):  # the match ended on time: nothing to refuse
            charge(session)
        table.leave(seat, session.now())
        retime(session)
        gone = seat in (0, 1) and table.present[seat] == 0
        if gone and session.over and table.rematch.next is None and seat in table.rematch.asked:
            table.rematch.asked.discard(seat)
            session.version += 1


def table_open(session: Session, started: bool = True) -> None:
    """Refuse a move while the match waits for its guest (``started``: a move of the game,
    which needs the game's state) or has ended off the board."""
    if session.resigned is not None:
        raise _error(OVER, "over")
    table = session.table
    if table is None:
        return
    if table.ended is not None:
        raise _error(OVER, "over")
    if not table.claimed or (started and not session.states):
        raise _error(WAITING)


def charge(session: Session, seat: int | None = None) -> None:
    """Charge the running clock up to now, before a move (of ``seat``, if given) is looked at.
    A seat whose bank is then at or below zero (the running one, or ``seat``) has lost on
    time, however few milliseconds the watcher has not looked yet: the match ends so
    (recorded) and :class:`SessionError` refuses the move, before any increment."""
    table = session.table
    if table is None or table.clock is None or table.ended is not None:
        return
    clock = table.clock
    clock.settle(session.now())
    out = [s for s in (clock.running, seat) if s is not None and 0 <= s < len(clock.left)]
    loser = next((s for s in out if clock.left[s] <= 0.0), None)
    if loser is None:
        return
    end(session, Outcome(1 - loser, TIMEOUT))
    if seat is None:
        raise _error(f"P{loser + 1}'s time ran out: the match is lost on time")
    if loser == seat:
        raise _error("your time ran out: the match is lost on time")
    raise _error("the match is over: your opponent's time ran out", "over")


def retime(session: Session) -> None:
    """Let the clock run for the seat whose decision is pending; for nobody while the match
    waits for its guest, for a seat away with grace left (one grace per seat and match:
    :mod:`kessen.server.table`), or after the end."""
    table = session.table
    if table is None:
        return
    now = session.now()
    if table.claimed and table.started is None and session.states:
        table.started = now  # absences spend grace from now on
    if table.clock is None:
        return
    pending = session.live.pending if session.states else None
    seat = None
    if pending is not None and table.claimed and table.ended is None:
        seat = None if table.away(pending.seat, now) else pending.seat
    stopped, looked = table.clock.running is None, table.clock.since
    table.clock.run(seat, now)
    until = None if seat is None else table.grace_end(seat)
    if stopped and until is not None:  # charged from the end of its grace, not before the
        table.clock.since = max(looked, min(now, until))  # clock was last looked at stopped


def tick(session: Session) -> bool:
    """Look at the clock: a seat at zero loses the match; without a clock, a seat away once
    its grace is spent has abandoned it. True if it just ended so."""
    table = session.table
    if table is None or session.over:
        return False
    if table.clock is None:
        now = session.now()
        if not table.claimed or table.started is None:
            return False
        gone = [s for s in table.away_since if table.grace_left(s, now) <= 0.0]
        if not gone:
            return False
        loser = min(gone, key=lambda s: table.grace_end(s) or now)  # the first to run out
        end(session, Outcome(1 - loser, ABANDON))
        return True
    retime(session)  # a grace period that ended lets its seat's clock run again
    clock = table.clock
    if clock.running is not None and clock.remaining(session.now())[clock.running] <= 0:
        end(session, Outcome(1 - clock.running, TIMEOUT))
        return True
    return False


def next_wake(session: Session) -> float | None:
    """When something changes by itself (a clock runs out, a grace period ends), in the
    session's clock's seconds; None if nothing will."""
    table = session.table
    if table is None or session.over:
        return None
    now = session.now()
    times = [t for t in table.grace_ends() if t > now]
    expires = None if table.clock is None else table.clock.expires()
    if expires is not None:
        times.append(expires)
    return min(times, default=None)


def resign(session: Session, table: Table, seat: int) -> None:
    """``seat`` concedes: the opponent wins, recorded with the reason ``resign``."""
    table_open(session, started=False)
    charge(session, seat)  # a clock that ran out ended the match first: lost on time
    end(session, Outcome(1 - seat, RESIGN))


def end(session: Session, outcome: Outcome) -> None:
    """The match ends off the board with ``outcome``: the clock stops, an open undo request
    lapses, and the store finishes the record with that outcome."""
    table = session.table
    assert table is not None
    table.ended = outcome
    table.undo_request = None
    if table.clock is not None:
        table.clock.run(None, session.now())
    if session.recorder is not None:
        results = list(getattr(session.live, "results", ())) if session.states else []
        session.recorder.store.finish_match(session.recorder.match_id, table.ended, results)
    session.version += 1


# --- undo requests -----------------------------------------------------------------------------


def request_undo(session: Session, table: Table, seat: int) -> None:
    """``seat`` asks to take back its last decision (as the undo rule allows); refused, the
    match lost on time, once a clock ran out."""
    table_open(session)
    charge(session, seat)
    point = session.undo_point(seat)
    if point.index is None:
        raise _error(point.reason or "cannot undo")
    if table.undo_request is not None:
        raise _error("an undo request is already waiting for an answer")
    if table.refused_at.get(seat) == session.steps:
        raise _error("your opponent refused to undo this; ask again after a move")
    table.undo_request = seat
    session.version += 1


def answer_undo(session: Session, seat: int, accept: bool) -> None:
    """The opponent of the seat that asked accepts (the undo is made) or refuses; refused, the
    match lost on time, once a clock ran out."""
    table = session.table
    if table is None:
        raise _error("only a match between two people asks before an undo")
    if seat not in (0, 1):
        raise _error("this connection does not play a seat")
    asker = table.undo_request
    if asker is None:
        raise _error("no undo request is waiting for an answer")
    if asker == seat:
        raise _error("your opponent answers your undo request, not you")
    charge(session, seat)  # an answer at or after zero: the match is lost on time instead
    table.undo_request = None
    if not accept:
        table.refused_at[asker] = session.steps
    if accept:
        session._take_back(asker)
        retime(session)
    count = int((table.undo_notice or {}).get("n", 0)) + 1
    table.undo_notice = {"n": count, "by": asker, "accepted": accept}
    session.version += 1


# --- the rematch -------------------------------------------------------------------------------


def answer_rematch(session: Session, seat: int, accept: bool) -> str:
    """``seat`` asks for a rematch or accepts one (``accept``), or declines the other seat's
    (or withdraws its own). Returns ``asked``, ``both`` (both have asked: make it now),
    ``made`` (it was made already), ``withdrawn`` or ``declined``. Refused for a spectator,
    before the end, and for a decline with nothing to decline."""
    table = session.table
    if table is None:
        raise _error("a rematch is for matches between two people")
    if seat not in (0, 1):
        raise _error("a spectator does not play a seat: only the two players ask for a rematch")
    if not session.over:
        raise _error("the match is not over: a rematch is asked for once it has ended")
    rematch = table.rematch
    if rematch.next is not None:
        if accept:
            return "made"
        raise _error("the rematch has started already", "over")
    other = 1 - seat
    if accept:
        rematch.asked.add(seat)
        answer = "both" if other in rematch.asked else "asked"
    elif seat in rematch.asked:
        rematch.asked.discard(seat)
        answer = "withdrawn"
    elif other in rematch.asked:
        rematch.asked.clear()
        count = int((rematch.notice or {}).get("n", 0)) + 1
        rematch.notice = {"n": count, "by": seat, "accepted": False}
        answer = "declined"
    else:
        raise _error("no rematch request is waiting for an answer")
    session.version += 1
    return answer


def make_rematch(session: Session) -> Session:
    """The next match of a finished one whose both seats asked: the same settings and clock,
    the seats swapped (each person keeps their deck), a fresh seed drawn by the server, both
    seats taken (no invite), recorded in the same store. :attr:`Table.rematch` names it once
    it is made (the caller does so when the new session is live)."""
    from kessen.server.session import Session

    table = session.table
    assert table is not None and session.states
    config = swapped(session.ruleset, session.config)
    seed = deal.draw_seed()
    rules = registry.get(session.ruleset)
    try:
        state = rules.new_game(config, seed)
    except RulesError as err:
        raise _error(f"the rematch cannot start: {err}") from err
    new = Session(secrets.token_hex(8), session.ruleset, config, seed, "vs_human", {}, session.pace)
    new.now = session.now
    new.states.append(state)
    new.new_token(0)
    new_table = Table(new.new_token(1), new.new_token(SPECTATOR), invite=None, claimed=True)
    if table.clock is not None:
        new_table.clock = Clock.start(table.clock.bank, table.clock.increment)
    new_table.away_since = {0: new.now(), 1: new.now()}
    new.table = new_table
    if session.recorder is not None:
        new.recorder = Recorder.start(
            session.recorder.store,
            state,
            config,
            seed,
            players=HUMANS,
            source="server",
            meta={**new.meta(), "rematch_of": session.id},
        )
    new.retime()
    return new


def seats_of_next(session: Session, new: Session) -> NextMatch:
    """Who is who in the rematch ``new`` of ``session``: each old seat's token and seat (the
    old guest plays seat 0), and the spectator code."""
    table = new.table
    assert table is not None
    by_seat = {seat: token for token, seat in new.tokens.items()}
    return NextMatch(new.id, {1: (by_seat[0], 0), 0: (by_seat[1], 1)}, table.spectate_token)

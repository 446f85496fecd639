"""Two people, one server: invite and tokens, the observer's view, undo by request, the clock,
grace and rejoin, and a real server with two players and a spectator (docs/two-player.md).

The leak oracle of ``tests/test_leak_oracle.py`` reads every view both seats and a spectator
get while two people play whole games of every ruleset.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from websockets.sync.client import ClientConnection, connect

from kessen.engine.contract import Json, Outcome, RulesError
from kessen.server.limits import GRACE
from kessen.server.session import SPECTATOR, Session, SessionError
from kessen.server.table import ABANDON, RESIGN, TIMEOUT
from kessen.store.records import MatchStore, StoreError
from tests.test_adversarial_server import serving, ws_url
from tests.test_leak_oracle import CONFIGS, Tally, check_message

KOBO: Json = {"decks": ["vanguard", "tempo"], "best_of": 1}


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def two_people(
    ruleset: str = "kobo",
    seed: int = 3,
    clock: tuple[float, float] | None = None,
    store: MatchStore | None = None,
    now: FakeClock | None = None,
) -> tuple[Session, str, str]:
    """A joined two-person session: (session, seat 0's token, seat 1's token)."""
    config = KOBO if ruleset == "kobo" else CONFIGS[ruleset]
    session = Session.create(ruleset, config, seed, "vs_human", "", 0.0, store, clock=clock)
    if now is not None:
        session.now = now
        session.retime()
    assert session.table is not None and session.table.invite is not None
    guest, seat = session.join(session.table.invite)
    assert seat == 1
    return session, session.first_token, guest


def move(session: Session, rng: random.Random | None = None) -> int:
    """The pending seat answers (the first legal action, or a random one); returns the seat."""
    pending = session.live.pending
    assert pending is not None
    legal = session.live.legal_actions()
    action = rng.choice(legal) if rng is not None else legal[0]
    session.act(pending.seat, pending.prompt_id, str(action))
    return pending.seat


# --- invite and tokens ----------------------------------------------------------------------


def test_the_invite_opens_the_empty_seat_once_then_only_the_observers_view() -> None:
    session = Session.create("kobo", KOBO, 3, "vs_human", "", 0.0)
    table = session.table
    assert table is not None and table.invite is not None
    invite, creator = table.invite, session.first_token
    assert session.seat_of(creator) == 0 and session.com == {}
    # The creator sees the invite while it is unused; nobody else does, and no view names a
    # seat token.
    assert session.view_for(0, "ja", False)["session"]["table"]["invite"] == invite
    assert session.view_for(SPECTATOR, "ja", False)["session"]["table"]["invite"] is None
    guest, seat = session.join(invite)
    assert seat == 1 and session.seat_of(guest) == 1 and guest != creator
    assert session.join(invite) == (table.spectate_token, SPECTATOR)  # a used link: watch
    assert session.join(table.spectate_token) == (table.spectate_token, SPECTATOR)
    for wrong in ("", "nope", invite[:-1], creator, guest):
        with pytest.raises(SessionError):
            session.join(wrong)
    views = [session.view_for(s, "en", True) for s in (0, 1, SPECTATOR)]
    text = json.dumps(views)
    assert creator not in text and guest not in text and invite not in text
    assert [v["session"]["you"] for v in views] == [0, 1, None]
    assert not views[2]["session"]["show_all"]  # nobody sees everything before the end


def test_nothing_moves_before_the_guest_joins() -> None:
    """The game starts when the guest joins (with their deck): before, there is no state, every
    view is the waiting view, and no move of either seat is taken."""
    session = Session.create("kobo", KOBO, 3, "vs_human", "", 0.0)
    assert session.waiting and not session.states and not session.over
    for seat in (0, SPECTATOR):
        view = session.view_for(seat, "ja", False)
        assert view["waiting"] is True and view["pending"] is None and view["log"] == []
        assert view["session"]["table"]["joined"] is False
    attempts: list[Callable[[], None]] = [
        lambda: session.act(0, 1, "pass"),
        lambda: session.undo(0),
        lambda: session.resign(0),
        lambda: session.answer_undo(1, True),
    ]
    for attempt in attempts:
        with pytest.raises(SessionError):
            attempt()
    assert session.steps == 0 and not session.states and not session.tick()


def test_a_spectator_and_a_seat_never_act_for_the_other() -> None:
    session, _, _ = two_people()
    pending = session.live.pending
    assert pending is not None
    action = str(session.live.legal_actions()[0])
    for seat in (SPECTATOR, 1 - pending.seat):
        with pytest.raises(RulesError):
            session.act(seat, pending.prompt_id, action)
    assert session.steps == 0


# --- the leak oracle over two people ---------------------------------------------------------


@pytest.mark.parametrize("ruleset", list(CONFIGS))
def test_no_view_of_either_seat_or_a_spectator_names_a_card_hidden_from_it(ruleset: str) -> None:
    tally = Tally()
    # Kōbō: two whole games. TWGP's long logs make each check slow: 120 and 60 steps.
    limits = (10**4, 10**4) if ruleset == "kobo" else (120, 60)
    for seed, limit in zip((1, 2), limits, strict=True):
        session, _, _ = two_people(ruleset, seed)
        rng = random.Random(seed)
        while session.live.pending is not None and session.steps < limit:
            state = session.live
            where = f"{ruleset}/seed {seed}/step {session.steps}"
            lang = "ja" if session.steps % 2 else "en"
            for seat in (0, 1):
                check_message(session.view_for(seat, lang, True), state, seat, tally, where)
            watcher = session.view_for(SPECTATOR, lang, True)  # asks for everything: refused
            for seat in (0, 1):  # the observer is checked against both seats' hidden cards
                check_message(watcher, state, seat, tally, f"{where}/spectator")
            pending = state.pending
            assert pending is not None
            table = session.table
            assert table is not None
            if (
                rng.random() < 0.15
                and session.history(pending.seat)["can_undo"]
                and table.refused_at.get(pending.seat) != session.steps
            ):
                session.undo(pending.seat)  # a request: the opponent answers
                session.answer_undo(1 - pending.seat, rng.random() < 0.5)
                continue
            move(session, rng)
        assert session.over or session.steps >= limit
    tally.say(f"{ruleset} two people, both seats and a spectator")
    assert tally.hidden_checked > 0 and tally.messages > 30
    assert not tally.leaks, tally.leaks[:10]


def _offered() -> list[str]:
    from kessen.server.app import RULESETS

    return list(RULESETS)


@pytest.mark.parametrize("ruleset", _offered())
def test_every_offered_ruleset_plays_between_two_people_to_its_end(ruleset: str) -> None:
    """No code per ruleset: any ruleset the server offers is played to its end by two people,
    each seat and a spectator reading their own views (the spectator the observer's)."""
    from kessen.engine import registry

    config = dict(registry.get(ruleset).default_config)
    session = Session.create(ruleset, config, 1, "vs_human", "", 0.0)
    assert session.table is not None and session.table.invite is not None
    session.join(session.table.invite)
    rng = random.Random(1)
    while session.live.pending is not None and session.steps < 3000:
        views = [session.view_for(seat, "en", False) for seat in (0, 1, SPECTATOR)]
        assert [v["session"]["you"] for v in views] == [0, 1, None]
        assert views[2]["viewer"] is None  # the observer's view
        move(session, rng)
    assert session.over


# --- undo by request -------------------------------------------------------------------------


def _undoable(session: Session) -> int:
    """Play on until a seat may take its last decision back; return that seat."""
    for _ in range(400):
        for seat in (0, 1):
            if session.history(seat)["can_undo"]:
                return seat
        move(session)
    raise AssertionError("no undo was ever allowed")


def test_undo_is_asked_and_refused_or_accepted_by_the_opponent() -> None:
    session, _, _ = two_people(seed=5)
    seat = _undoable(session)
    other = 1 - seat
    steps, hashed = session.steps, session.live.state_hash()
    with pytest.raises(SessionError, match="no undo request"):
        session.answer_undo(other, True)
    session.undo(seat)  # asks; nothing changes yet
    assert session.steps == steps and session.live.state_hash() == hashed
    for s in (0, 1, SPECTATOR):
        assert session.view_for(s, "ja", False)["session"]["table"]["undo_request"] == seat
    with pytest.raises(SessionError, match="already waiting"):
        session.undo(seat)
    with pytest.raises(SessionError, match="your opponent answers"):
        session.answer_undo(seat, True)
    with pytest.raises(SessionError, match="does not play"):
        session.answer_undo(SPECTATOR, True)
    session.answer_undo(other, False)
    assert session.steps == steps and session.live.state_hash() == hashed
    notice = session.view_for(seat, "ja", False)["session"]["table"]["undo_notice"]
    assert notice == {"n": 1, "by": seat, "accepted": False}
    with pytest.raises(SessionError, match="refused"):
        session.undo(seat)  # not again at once: only after a move
    assert session.table is not None
    session.table.refused_at.clear()  # as if the game had moved on to the same place
    session.undo(seat)
    session.answer_undo(other, True)
    assert session.steps < steps
    table = session.view_for(seat, "ja", False)["session"]["table"]
    assert table["undo_notice"] == {"n": 2, "by": seat, "accepted": True}
    assert table["undo_request"] is None
    # Redo gives back what was taken, to the seat that took it only.
    assert not session.history(other)["can_redo"]
    with pytest.raises(SessionError):
        session.redo(other)
    session.redo(seat)
    assert session.steps == steps and session.live.state_hash() == hashed


def test_undo_never_crosses_the_opponents_decision_and_a_move_cancels_a_request() -> None:
    session, _, _ = two_people(seed=5)
    seat = _undoable(session)
    session.undo(seat)
    pending = session.live.pending
    assert pending is not None
    move(session)  # whoever decides now: the request is answered by the move
    assert session.table is not None and session.table.undo_request is None
    if pending.seat != seat:  # the opponent moved: that decision is never taken back
        with pytest.raises(SessionError, match="opponent"):
            session.undo(seat)


# --- the clock, grace and rejoin -------------------------------------------------------------


def test_the_clock_runs_for_the_seat_that_decides_and_forfeits_at_zero(tmp_path: Any) -> None:
    now = FakeClock()
    store = MatchStore(tmp_path / "m.sqlite3")
    session, _, _ = two_people(clock=(10.0, 2.0), store=store, now=now)
    table = session.table
    assert table is not None and table.clock is not None
    for seat in (0, 1):
        session.arrive(seat)
    first = session.live.pending
    assert first is not None
    now.t += 3.0
    mover = move(session)
    assert mover == first.seat
    left = table.clock.remaining(now())
    assert left[mover] == pytest.approx(10.0 - 3.0 + 2.0)  # spent 3, earned the increment
    assert session.view_for(SPECTATOR, "ja", False)["session"]["table"]["clock"]["bank"] == 10.0
    loser = table.clock.running
    assert loser is not None
    wake = session.next_wake()
    assert wake is not None and wake == pytest.approx(now() + left[loser])
    now.t = wake - 0.01
    assert not session.tick()
    now.t = wake + 0.01
    assert session.tick() and session.over
    assert session.outcome is not None and session.outcome.winner == 1 - loser
    view = session.view_for(1 - loser, "ja", False)
    assert view["session"]["table"]["ended"] == {"winner": 1 - loser, "reason": TIMEOUT}
    assert view["pending"] is None
    assert session.view_for(SPECTATOR, "ja", True)["session"]["show_all"]  # after the end
    with pytest.raises(SessionError, match="over"):
        session.undo(loser)
    assert session.recorder is not None
    info = store.info(session.recorder.match_id)
    assert info.is_finished and info.winner == 1 - loser and info.reason == TIMEOUT
    store.close()


def test_an_away_seat_has_its_grace_then_its_clock_runs_and_it_can_come_back() -> None:
    now = FakeClock()
    session, _, _ = two_people(clock=(100.0, 0.0), now=now)
    table = session.table
    assert table is not None and table.clock is not None
    table.grace = 30.0
    for seat in (0, 1):
        session.arrive(seat)
    pending = session.live.pending
    assert pending is not None
    away = pending.seat
    session.leave(away)
    other_view = session.view_for(1 - away, "ja", False)["session"]["table"]
    assert other_view["present"][away] is False and other_view["grace"] == {str(away): 30.0}
    assert table.clock.running is None  # the game waits
    assert session.next_wake() == pytest.approx(now() + 30.0)
    now.t += 29.0
    session.tick()
    assert table.clock.remaining(now())[away] == pytest.approx(100.0)
    now.t += 2.0  # the grace is over: its clock runs
    session.tick()
    assert table.clock.running == away
    now.t += 10.0
    assert table.clock.remaining(now())[away] == pytest.approx(89.0)  # from the grace's end
    session.arrive(away)  # back: it plays on with what is left
    assert table.clock.running == away
    assert session.view_for(away, "ja", False)["session"]["table"]["grace"] == {}
    move(session)
    assert session.steps == 1


def test_without_a_clock_a_seat_away_past_its_grace_has_abandoned(tmp_path: Any) -> None:
    """No clock: the game waits for an away seat while its one grace lasts (absences add up);
    once it is spent the seat has left the match: it loses, recorded with ``abandon``, and
    both seats see the end off the board."""
    store = MatchStore(tmp_path / "m.sqlite3")
    now = FakeClock()
    session, _, _ = two_people(now=now, store=store)
    table = session.table
    assert table is not None
    for seat in (0, 1):
        session.arrive(seat)
    session.leave(1)
    assert session.next_wake() == pytest.approx(now() + GRACE)
    now.t += GRACE - 1.0
    assert not session.tick() and not session.over  # waited for, with a second left
    session.arrive(1)
    now.t += 1_000.0  # present: nothing is spent
    assert not session.tick()
    session.leave(1)
    now.t += 0.5
    assert not session.tick()
    now.t += 0.6  # the last second is spent
    assert session.tick() and session.over
    assert session.outcome == Outcome(0, ABANDON)
    ended = session.view_for(0, "ja", False)["session"]["ended"]
    assert ended == {"winner": 0, "reason": "abandon", "off_board": True}
    assert session.view_for(0, "ja", False)["pending"] is None
    assert session.next_wake() is None
    assert session.recorder is not None
    info = store.info(session.recorder.match_id)
    assert info.is_finished and info.winner == 0 and info.reason == ABANDON
    store.close()


def test_a_seat_resigns_and_the_other_wins_recorded_like_a_timeout(tmp_path: Any) -> None:
    store = MatchStore(tmp_path / "m.sqlite3")
    session = Session.create("kobo", KOBO, 3, "vs_human", "", 0.0, store, clock=(60.0, 0.0))
    table = session.table
    assert table is not None and table.invite is not None
    with pytest.raises(SessionError, match="joined"):
        session.resign(0)  # nobody to concede to yet
    session.join(table.invite)
    mover = move(session)
    with pytest.raises(SessionError, match="seat"):
        session.resign(SPECTATOR)
    session.undo(mover)  # an open request lapses with the end
    assert table.undo_request == mover
    session.resign(1)
    assert session.over and session.outcome is not None and session.outcome.winner == 0
    assert table.undo_request is None and table.clock is not None and table.clock.running is None
    for seat in (0, 1, SPECTATOR):
        view = session.view_for(seat, "ja", False)
        assert view["session"]["table"]["ended"] == {"winner": 0, "reason": RESIGN}
        assert view["pending"] is None
    for again in (lambda: session.resign(0), lambda: move(session)):
        with pytest.raises(SessionError, match="over"):
            again()
    assert session.recorder is not None
    info = store.info(session.recorder.match_id)
    assert info.is_finished and info.winner == 0 and info.reason == RESIGN
    store.close()


def test_a_restored_match_keeps_its_seats_and_forgets_its_invite(tmp_path: Any) -> None:
    store = MatchStore(tmp_path / "m.sqlite3")
    session, creator, guest = two_people(store=store, clock=(60.0, 1.0))
    move(session)
    assert session.recorder is not None
    back = Session.restore(store, session.recorder.match_id)
    assert back.table is not None and back.table.clock is not None
    assert back.seat_of(creator) == 0 and back.seat_of(guest) == 1
    assert back.table.clock.bank == 60.0 and back.steps == 1
    assert session.table is not None and session.table.invite is not None
    with pytest.raises(SessionError):
        back.join(session.table.invite)  # used before the restart: it opens nothing now
    assert back.join(back.table.spectate_token)[1] == SPECTATOR
    store.close()


def test_an_unused_invite_survives_a_restart_and_is_forgotten_once_used(tmp_path: Any) -> None:
    store = MatchStore(tmp_path / "m.sqlite3")
    session = Session.create("twgp", CONFIGS["twgp"], 2, "vs_human", "", 0.0, store)
    assert session.table is not None and session.recorder is not None
    invite, match_id = session.table.invite, session.recorder.match_id
    meta = store.get(match_id).meta
    assert invite is not None and meta["invite"] == invite and meta["waiting_guest"] is True
    back = Session.restore(store, match_id)
    assert back.table is not None and not back.table.claimed and back.waiting
    assert back.seed == session.seed and back.config == session.config
    with pytest.raises(SessionError, match="joined"):
        back.resign(0)  # still waiting for the guest
    assert back.view_for(0, "ja", False)["session"]["table"]["invite"] == invite
    assert back.view_for(0, "ja", False)["waiting"] is True
    guest, seat = back.join(invite)
    assert seat == 1 and guest == session.table.guest_token and not back.waiting
    # The record of the real match replaced the placeholder: same tokens, no invite.
    assert back.recorder is not None and back.recorder.match_id != match_id
    with pytest.raises(StoreError):
        store.get(match_id)
    joined = back.recorder.match_id
    meta = store.get(joined).meta
    assert "invite" not in meta and "waiting_guest" not in meta and meta["tokens"][guest] == 1
    move(back)
    again = Session.restore(store, joined)
    assert again.table is not None and again.table.claimed and again.steps == 1
    with pytest.raises(SessionError):
        again.join(invite)  # used before this restart: it opens nothing now
    with pytest.raises(StoreError):
        store.update_meta(joined + 1, {"x": 1})
    store.close()


# --- a real server: two players and a spectator ------------------------------------------------


def _recv(ws: ClientConnection, kind: str = "state") -> Json:
    while True:
        message: Json = json.loads(ws.recv(timeout=10))
        if message["type"] == kind:
            return message


def _until(ws: ClientConnection, test: Any) -> Json:
    for _ in range(50):
        view: Json = _recv(ws)["view"]
        if test(view):
            return view
    raise AssertionError("no such view came")


def test_two_players_and_a_spectator_over_a_real_server(tmp_path: Any) -> None:
    store = MatchStore(tmp_path / "m.sqlite3")
    with serving(store) as (url, app):
        made = httpx2.post(
            f"{url}/api/games",
            json={"ruleset": "kobo", "mode": "vs_human", "config": KOBO},
            timeout=30,
        ).json()
        assert made["seat"] == 0 and set(made) >= {"id", "token", "invite", "spectate"}
        game = made["id"]
        join = f"{url}/api/games/{game}/join"
        assert httpx2.post(join, json={"code": "wrong"}).status_code == 404
        # Any character a client sends is a wrong code, not a server error.
        assert httpx2.post(join, json={"code": "招待é"}).status_code == 404
        assert httpx2.post(f"{url}/api/games/nope/join", json={"code": "x"}).status_code == 404
        assert httpx2.post(join, json={"code": "x", "more": 1}).status_code == 422
        # Waiting for the guest, the listing names no deck the guest has not chosen.
        (waiting,) = httpx2.get(f"{url}/api/matches").json()["matches"]
        assert waiting["waiting_guest"] is True and waiting["decks"][1] is None
        guest = httpx2.post(join, json={"code": made["invite"]}).json()
        assert guest["seat"] == 1 and guest["token"] != made["token"]
        late = httpx2.post(join, json={"code": made["invite"]}).json()
        assert late["seat"] == SPECTATOR and late["token"] == made["spectate"]
        # An open match's record: each seat its own view; the spectator code nothing.
        match_id = app.state.hub.sessions[game].recorder.match_id
        rec = f"{url}/api/matches/{match_id}/step/0"
        for token, seat, status in (
            (made["token"], "0", 200),
            (guest["token"], "1", 200),
            (guest["token"], "0", 403),
            (made["spectate"], "0", 403),
            (made["spectate"], "all", 403),
        ):
            answer = httpx2.get(f"{rec}?seat={seat}", headers={"X-Kessen-Token": token})
            assert answer.status_code == status, (token, seat, answer.text)

        with (
            connect(ws_url(url, game, made["token"])) as p0,
            connect(ws_url(url, game, guest["token"])) as p1,
            connect(ws_url(url, game, made["spectate"])) as watcher,
        ):
            views = [_recv(p0)["view"], _recv(p1)["view"], _recv(watcher)["view"]]
            assert [v["session"]["you"] for v in views] == [0, 1, None]
            assert all(v["session"]["mode"] == "vs_human" for v in views)
            # Bad messages: refused, nothing changes, the connection stays.
            for raw in ("{", '{"type": "undo_answer", "accept": true}', '{"type": "act"}'):
                p0.send(raw)
                assert _recv(p0, "error")["code"] in ("malformed", "refused", "invalid")
            pending = views[0]["pending"]
            mover = p0 if pending["seat"] == 0 else p1
            legal = views[pending["seat"]]["pending"]["legal"]
            assert views[1 - pending["seat"]]["pending"]["legal"] is None
            mover.send(json.dumps({"type": "act", "prompt_id": pending["prompt_id"] - 1,
                                   "action": legal[0]}))  # fmt: skip
            assert _recv(mover, "error")["code"] == "refused"  # a stale prompt
            mover.send(
                json.dumps({"type": "act", "prompt_id": pending["prompt_id"], "action": legal[0]})
            )
            moved = lambda v: v["history"]["steps"] == 1  # noqa: E731
            for ws in (p0, p1, watcher):
                assert _until(ws, moved)["history"]["steps"] == 1
            # The guest drops: the other seat and the spectator see it, with its grace.
            p1.close()
            gone = _until(p0, lambda v: not v["session"]["table"]["present"][1])
            assert "1" in gone["session"]["table"]["grace"]
            _until(watcher, lambda v: not v["session"]["table"]["present"][1])
            with connect(ws_url(url, game, guest["token"])) as again:
                _recv(again)
                _until(p0, lambda v: v["session"]["table"]["present"][1])
                # The guest resigns (投了): both seats and the spectator see the end.
                watcher.send(json.dumps({"type": "resign"}))
                assert _recv(watcher, "error")["code"] == "refused"
                again.send(json.dumps({"type": "resign"}))
                for ws in (p0, again, watcher):
                    end = _until(ws, lambda v: v["session"]["table"]["ended"] is not None)
                    assert end["session"]["table"]["ended"] == {"winner": 0, "reason": RESIGN}
        info = store.info(match_id)
        assert info.is_finished and info.winner == 0 and info.reason == RESIGN
        # The listing names the seat each browser played (by its tokens), nobody else's.
        for token, yours in (
            (made["token"], 0),
            (f"nope, {guest['token']}", 1),
            (made["spectate"], None),
            (None, None),
        ):
            headers = {} if token is None else {"X-Kessen-Token": token}
            listed = httpx2.get(f"{url}/api/matches", headers=headers).json()["matches"]
            row = next(m for m in listed if m["id"] == match_id)
            assert row.get("yours") == yours and row["reason"] == RESIGN
            assert "waiting_guest" not in row and all(row["decks"])
        store.close()


def test_a_clock_runs_out_on_a_real_server(tmp_path: Any) -> None:
    store = MatchStore(tmp_path / "m.sqlite3")
    with serving(store) as (url, app):
        body = {"ruleset": "twgp", "mode": "vs_human", "clock": {"bank": 1}}
        made = httpx2.post(f"{url}/api/games", json=body, timeout=30).json()
        for bad in ({"bank": 0}, {"bank": 10, "increment": -1}, {"bank": 1e9}):
            refused = httpx2.post(f"{url}/api/games", json={**body, "clock": bad}, timeout=30)
            assert refused.status_code == 422
        guest = httpx2.post(f"{url}/api/games/{made['id']}/join", json={"code": made["invite"]})
        with (
            connect(ws_url(url, made["id"], made["token"])) as p0,
            connect(ws_url(url, made["id"], guest.json()["token"])) as p1,
        ):
            _recv(p1)
            ended = _until(p0, lambda v: v["session"]["table"]["ended"] is not None)
            table = ended["session"]["table"]
            assert table["ended"]["reason"] == TIMEOUT and min(table["clock"]["left"]) == 0
        session = app.state.hub.sessions[made["id"]]
        info = store.info(session.recorder.match_id)
        assert info.is_finished and info.reason == TIMEOUT
        with connect(ws_url(url, made["id"], made["token"])) as p0:
            _recv(p0)
            p0.send(json.dumps({"type": "resign"}))  # over already: refused, nothing changes
            assert "over" in _recv(p0, "error")["message"]
        # Finished: everyone may open every view of its record, but no one continues it
        # against COM (COM would play the other person's hidden cards).
        answer = httpx2.get(f"{url}/api/matches/{info.id}/step/0?seat=all")
        assert answer.status_code == 200
        for seat in (0, 1):
            branch = httpx2.post(
                f"{url}/api/matches/{info.id}/continue", json={"step": 0, "seat": seat}
            )
            assert branch.status_code == 403 and "person" in branch.json()["detail"]
    store.close()


# --- serving other machines -------------------------------------------------------------------


def test_serving_other_machines_needs_the_origin_and_host_checks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from fastapi import FastAPI

    from kessen.server import run
    from kessen.server.app import create_app

    assert run.guarded(create_app(host="0.0.0.0", port=8765))
    monkeypatch.setattr(run, "create_app", lambda **_: FastAPI())  # no Guard in front
    with pytest.raises(run.Unguarded, match="Origin and Host"):
        run.serve(port=0, host="0.0.0.0", open_browser=False)


def test_the_share_address_names_the_network_not_this_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kessen.server import share

    monkeypatch.setattr(share, "lan_address", lambda: "192.168.1.5")
    assert share.share_origin("0.0.0.0", 8765) == "http://192.168.1.5:8765"
    assert share.share_origin("127.0.0.1", 8765) is None
    assert share.share_origin("localhost", 8765) is None
    assert share.share_origin("10.0.0.2", None) is None

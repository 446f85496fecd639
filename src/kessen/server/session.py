"""One match being played on the server: its seats, its history, undo/redo, COM moves.

A session is game-agnostic: it talks to the game only through the engine contract. Each seat
is a human or a COM level; in a match between two people (``vs_human``) the table of
:mod:`kessen.server.table` adds the invite, presence, clock and undo requests, and
:mod:`kessen.server.two_people` the rest of the two-person part (the match starts once the
guest has chosen their deck; the rematch). The history
keeps every state (cheap clones), so undo restores a snapshot and redo re-applies the recorded
actions; the game's RNG lives in the state, so redo never re-rolls anything.
"""

from __future__ import annotations

import contextlib
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from kessen.engine import card_sets, registry
from kessen.engine.action import Action, ActionParseError
from kessen.engine.contract import GameState, Json, Outcome, RulesError
from kessen.engine.log import Event
from kessen.engine.replay import Replay
from kessen.engine.undo import UndoPoint, UndoRule
from kessen.server import two_people
from kessen.server.table import RESIGN, Table
from kessen.store.html_replay import shown_action
from kessen.store.records import MatchStore, NewMatch, Recorder

Mode = Literal["vs_com", "com_vs_com", "vs_human"]
SPECTATOR = -1


SHOWN = 5
"""COM candidates the why panel shows."""
KEPT = 64
"""COM candidates kept per decision (hidden ones are merged before the panel's cut)."""


class SessionError(RulesError):
    """A request the session refuses; the message says why and nothing changed. ``code`` names
    the reason for clients that word it in their own language (``over``: the match has ended;
    ``refused`` for the rest)."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.code = code


OVER_MESSAGE: Final = two_people.OVER


def com_choice(
    ruleset: str, level: str, seed: int, view: Json, legal: list[Action], notes: Any = None
) -> tuple[Action, Any]:
    """COM ``level``'s action for ``view`` and its explanation (the "why").

    ``notes``: what this COM seat kept from its earlier views (:func:`com_notes`, taken on
    ``view`` already), for a level whose search keeps notes.

    A COM that fails (a defect in a player or in a ruleset's search hooks) must not stall the
    match: the failure is logged with its traceback, and the ruleset's heuristic COM answers
    instead (the first legal action if there is none, or if it fails too). The explanation
    says so by the error's type only: its message may name cards the COM holds hidden, and
    the explanation is shown to the other seat.
    """
    rules = registry.get(ruleset)
    try:
        player = rules.players[level](seed)
        if notes is not None and hasattr(player, "notes"):
            player.notes = notes
        return player.choose(view, legal), getattr(player, "last_explanation", None)
    except Exception as err:  # any COM defect: log it, answer, play on
        logging.getLogger(__name__).exception("COM %s failed on %s", level, ruleset)
        reason = f"fallback: {type(err).__name__}"
    action = legal[0]
    with contextlib.suppress(Exception):
        backup = rules.players["heuristic"](seed).choose(view, legal)
        action = backup if backup in legal else action
    return action, [{"action": str(action), "visits": 0, "value": None, "by": reason}]


def com_notes(ruleset: str, level: str, view: Json, notes: Any) -> Any:
    """What COM ``level`` keeps in mind once it has seen ``view`` (its own decision view),
    given what it kept before: the notes of its search's hooks (``None`` for a level that
    keeps none). Built from that seat's views alone; a failure forgets, never stalls."""
    try:
        player = registry.get(ruleset).players[level](0)
        remember = getattr(getattr(player, "hooks", None), "remember", None)
        return None if remember is None else remember(view, notes)
    except Exception:  # a defect in a ruleset's hook: COM then plays without its notes
        logging.getLogger(__name__).exception("COM %s notes failed on %s", level, ruleset)
        return None


@dataclass
class Session:
    """A match on the server."""

    id: str
    ruleset: str
    config: Json
    seed: int
    mode: Mode
    com: dict[int, str]
    pace: float
    states: list[GameState] = field(default_factory=list)
    """The states from step :attr:`first` on (``states[-1]`` is the live one)."""
    actions: list[tuple[int, Action]] = field(default_factory=list)
    """Every action of the match: ``(seat, action)``; step ``i + 1`` follows ``actions[i]``."""
    first: int = 0
    """The step of ``states[0]``. Against COM the history before the last opponent decision is
    dropped: no undo can reach it (:mod:`kessen.engine.undo`), and a long match would keep
    every state alive (memory, and the garbage collector's pauses scanning them)."""
    redo_groups: list[list[tuple[int, Action]]] = field(default_factory=list)
    cursor: int | None = None
    tokens: dict[str, int] = field(default_factory=dict)
    version: int = 0
    recorder: Recorder | None = None
    why: Json | None = None
    com_notes: dict[int, Any] = field(default_factory=dict)
    """What each COM seat keeps from its own earlier views (:func:`com_notes`). Not stored:
    a session restored from the store starts without them, its COM knowing less, never more."""
    floor: int = 0
    """Undo never goes back past this many actions (a branch starts where it continued)."""
    undo_rule: UndoRule = field(default_factory=UndoRule)
    table: Table | None = None
    """Two people's match: invite, presence, clock, undo requests (``vs_human`` only)."""
    resigned: Outcome | None = None
    """How a match against COM ended when its person resigned (None otherwise)."""
    open_deal: list[str] = field(default_factory=list)
    """Why the client, not the server, chose the deal (:mod:`kessen.server.deal`); empty for
    a fair deal."""
    now: Callable[[], float] = field(default=time.monotonic, repr=False)
    """The clock of the table's grace periods and match clock (a fake one in tests)."""
    _log_texts: dict[tuple[str, int | None, int | None, bool], list[tuple[Event, str]]] = field(
        default_factory=dict, repr=False
    )
    """Log texts already rendered, per reader: (event, text), kept while the events are."""

    @staticmethod
    def create(
        ruleset: str,
        config: Json,
        seed: int,
        mode: Mode,
        com_level: str,
        pace: float,
        store: MatchStore | None = None,
        clock: tuple[float, float] | None = None,
        open_deal: list[str] | None = None,
    ) -> Session:
        """A new session, recorded in ``store`` if given; raises :class:`RulesError` for a bad
        config or COM level. Its first token (the player's, or the spectator's in COM vs COM;
        the creator's, seat 0, between two people) is in ``tokens``. ``clock`` (bank, increment
        in seconds) sets a match clock between two people; ``open_deal`` says why the client
        chose the deal (:mod:`kessen.server.deal`), if it did. Between two people the game
        starts when the guest joins with their deck (:mod:`kessen.server.two_people`): until
        then the session has no state."""
        rules = registry.get(ruleset)
        if mode == "vs_human":
            com_level = next(iter(rules.players))  # no COM plays; any known level passes
        if clock is not None and mode != "vs_human":
            raise SessionError("a match clock is for matches between two people")
        if com_level not in rules.players:
            raise SessionError(
                f"unknown COM level {com_level!r}; known: {', '.join(rules.players)}"
            )
        com = {
            "vs_com": {1: com_level},
            "com_vs_com": {0: com_level, 1: com_level},
            "vs_human": {},
        }[mode]
        session = Session(secrets.token_hex(8), ruleset, dict(config), seed, mode, com, pace)
        session.open_deal = list(open_deal or [])
        session.new_token(0 if mode != "com_vs_com" else SPECTATOR)
        if mode == "vs_human":
            two_people.open_table(session, store, clock)
            return session
        state = rules.new_game(config, seed)
        session.states.append(state)
        if store is not None:
            players = {str(s): com.get(s, "human") for s in range(state.seats)}
            session.recorder = Recorder.start(
                store, state, config, seed, players=players, source="server", meta=session.meta()
            )
        return session

    def meta(self) -> Json:
        """What the store keeps to bring this session back after a restart."""
        return {
            "session": self.id,
            "mode": self.mode,
            "com": {str(k): v for k, v in self.com.items()},
            "pace": self.pace,
            "tokens": dict(self.tokens),
            **({"open_deal": list(self.open_deal)} if self.open_deal else {}),
            **({} if self.table is None else two_people.table_meta(self, self.table)),
        }

    @staticmethod
    def restore(store: MatchStore, match_id: int) -> Session:
        """Bring back an unfinished recorded session (its history replayed and verified)."""
        record = store.get(match_id)
        meta = record.meta
        replay = record.replay()
        session = Session(
            meta["session"],
            replay.ruleset,
            replay.config,
            replay.seed,
            meta["mode"],
            {int(k): v for k, v in meta["com"].items()},
            float(meta["pace"]),
        )
        session.tokens = {str(k): int(v) for k, v in meta["tokens"].items()}
        session.open_deal = [str(r) for r in meta.get("open_deal") or []]
        if session.mode == "vs_human" and two_people.restore_table(session, meta, store, match_id):
            return session  # still waiting for its guest: the game starts when they join
        session._load(replay)
        if isinstance(meta.get("branch"), list):
            session.floor = int(meta["branch"][1])
        session.recorder = Recorder(
            store, match_id, len(replay.actions), len(session.live.log_events())
        )
        return session

    @staticmethod
    def from_branch(
        store: MatchStore, match_id: int, step: int, seat: int, com_level: str, pace: float
    ) -> Session:
        """A vs-COM session that continues stored match ``match_id`` after its first ``step``
        actions: a person plays ``seat``, COM ``com_level`` the other seat.

        It is recorded as a branch (source ``branch``, parent ``(match_id, step)``) whose
        ``meta`` is this session's own (a new id and token), so it resumes after a restart like
        any server match. Raises :class:`SessionError` for a step without a decision left.
        """
        if seat not in (0, 1):
            raise SessionError(f"seat must be 0 or 1, not {seat}")
        record = store.get(match_id)
        if not 0 <= step <= len(record.actions):
            raise SessionError(f"match {match_id} has {len(record.actions)} steps, not {step}")
        rules = registry.get(record.info.ruleset)
        if com_level not in rules.players:
            raise SessionError(
                f"unknown COM level {com_level!r}; known: {', '.join(rules.players)}"
            )
        replay = record.replay()
        replay.actions = replay.actions[:step]
        replay.hashes = {k: v for k, v in replay.hashes.items() if k <= step}
        com = {1 - seat: com_level}
        session = Session(
            secrets.token_hex(8), replay.ruleset, replay.config, replay.seed, "vs_com", com, pace
        )
        session.open_deal = [
            *(str(r) for r in record.meta.get("open_deal") or []),
            f"branch: continued from match {match_id} at step {step}, whose cards its replay shows",
        ]
        session._load(replay)
        if session.live.pending is None:
            raise SessionError(f"the match is over after step {step}: nothing left to play")
        replay.hashes[step] = session.live.state_hash()
        session.floor = step
        session.new_token(seat)
        players = {str(s): com.get(s, "human") for s in range(session.live.seats)}
        new_id = store.add_match(
            NewMatch(
                replay=Replay.from_json(replay.to_json()),
                players=players,
                source="branch",
                events0=record.events0,
                events=[row.events for row in record.actions[:step]],
                decks=record.decks,
                meta={**session.meta(), "branch": [match_id, step]},
                parent=(match_id, step),
            )
        )
        session.recorder = Recorder(store, new_id, step, len(session.live.log_events()))
        return session

    def _load(self, replay: Replay) -> None:
        """Replay ``replay`` into the history (every recorded hash verified)."""
        for state in replay.states(verify=True):
            if self.states:
                pending = self.states[-1].pending
                assert pending is not None
                action = Action.parse(replay.actions[len(self.actions)])
                self.actions.append((pending.seat, action))
            self.states.append(state)
        self._forget_unreachable()

    @property
    def first_token(self) -> str:
        """The token handed out when the session was created."""
        return next(iter(self.tokens))

    # --- seats ------------------------------------------------------------------------

    def new_token(self, seat: int) -> str:
        """A token that identifies a connection as ``seat`` (or :data:`SPECTATOR`)."""
        token = secrets.token_urlsafe(16)
        self.tokens[token] = seat
        return token

    def seat_of(self, token: str) -> int:
        """The seat a token stands for; raises if unknown."""
        if token not in self.tokens:
            raise SessionError("unknown token for this game")
        return self.tokens[token]

    @property
    def human_seats(self) -> list[int]:
        """Seats played by people."""
        return [s for s in range(self.live.seats) if s not in self.com]

    # --- states -----------------------------------------------------------------------

    @property
    def steps(self) -> int:
        """The number of actions so far (the live state is step ``steps``)."""
        return len(self.actions)

    def state_at(self, step: int) -> GameState:
        """The state at ``step`` (at least :attr:`first`)."""
        if not self.first <= step <= self.steps:
            raise SessionError(f"step {step} is not kept (steps {self.first} to {self.steps})")
        return self.states[step - self.first]

    def _forget_unreachable(self) -> None:
        """Drop the states no undo can reach any more (against COM and between two people:
        COM vs COM keeps its whole history to browse): those before the last decision of
        another seat than each person's."""
        if self.mode == "com_vs_com":
            return
        horizon = self.steps
        for person in self.human_seats:
            last_other = next(
                (i for i in range(self.steps - 1, -1, -1) if self.actions[i][0] != person), None
            )
            horizon = min(horizon, 0 if last_other is None else last_other)
        horizon = max(horizon, min(self.floor, self.steps))  # a branch's start is a floor too
        if horizon > self.first:
            del self.states[: horizon - self.first]
            self.first = horizon
            self.undo_rule.forget_after(self.states)

    @property
    def live(self) -> GameState:
        """The newest state."""
        return self.states[-1]

    @property
    def shown(self) -> GameState:
        """The state on screen: the live one, or a step of the history in COM vs COM."""
        return self.state_at(self.cursor) if self.cursor is not None else self.live

    def com_to_move(self) -> int | None:
        """The COM seat that must decide now, if any (never while browsing the history)."""
        if not self.states:
            return None
        pending = self.live.pending
        if pending is None or self.cursor is not None or pending.seat not in self.com:
            return None
        if self.resigned is not None:
            return None  # the match ended off the board
        return pending.seat

    def _push(self, seat: int, action: Action, state: GameState) -> None:
        if self.recorder is not None:
            self.recorder.record(action, state)  # stored first: a crash loses nothing shown
        self.states.append(state)
        self.actions.append((seat, action))
        if seat not in self.com:
            self.why = None
        if seat in self.com or self.table is not None:
            self._forget_unreachable()
        if self.table is not None:
            self.table.undo_request = None  # a move answers every open request
        self.version += 1

    def act(self, seat: int, prompt_id: int, text: str) -> None:
        """A human's answer; refused (nothing changes) unless it answers the live prompt."""
        if seat == SPECTATOR or seat in self.com:
            raise SessionError("this connection does not play a seat")
        if self.cursor is not None:
            raise SessionError("you are viewing the history; return to live play first")
        self._table_open()
        self._charge(seat)  # first: a move at or after zero is refused, the match lost on time
        try:
            action = Action.parse(text)
        except ActionParseError as err:
            raise SessionError(str(err)) from err
        state = self.live.clone()
        state.answer(seat, prompt_id, action)
        self.redo_groups.clear()
        self._push(seat, action, state)
        if self.table is not None and self.table.clock is not None:
            self.table.clock.left[seat] += self.table.clock.increment  # a bank above zero
        self.retime()

    def com_seed(self) -> int:
        """The seed of the COM decision now pending: fixed by the game seed and prompt id, so
        the same position always gets the same COM answer (replays and redo stay exact)."""
        pending = self.live.pending
        return self.seed * 1_000_003 + (pending.prompt_id if pending else 0)

    def apply_com(self, seat: int, action: Action, explanation: Any = None) -> None:
        """Apply the action COM chose for ``seat`` from its own view; keep its explanation
        (candidate actions with visits and values) for the "why" panel."""
        if self.com_to_move() != seat:
            raise SessionError("it is not that COM's decision")
        live = self.live
        pending = live.pending
        assert pending is not None
        state = live.clone()
        state.apply(action)
        self._push(seat, action, state)
        self.why = {
            "seat": seat,
            "prompt": pending.prompt,
            "action": str(action),
            "level": self.com[seat],
            "candidates": candidates_json(explanation),
        }

    def com_step(self) -> Action | None:
        """Let the COM whose turn it is decide from its own view, and apply its action."""
        seat = self.com_to_move()
        if seat is None:
            return None
        view, legal = self.live.view(seat), self.live.legal_actions()
        notes = com_notes(self.ruleset, self.com[seat], view, self.com_notes.get(seat))
        action, why = com_choice(self.ruleset, self.com[seat], self.com_seed(), view, legal, notes)
        self.com_notes[seat] = notes
        self.apply_com(seat, action, why)
        return action

    # --- undo / redo ------------------------------------------------------------------

    def undo_point(self, seat: int) -> UndoPoint:
        """Where 一つ戻る would take ``seat`` now, by the rule of :mod:`kessen.engine.undo`."""
        point = self.undo_rule.point(
            self.states, self.actions[self.first :], seat, max(0, self.floor - self.first)
        )
        index = None if point.index is None else point.index + self.first
        return UndoPoint(index, point.code, point.reason, point.earliest + self.first)

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s last decision with the replies that followed (vs COM), step
        back through the history (COM vs COM), or ask the opponent to let ``seat`` take its
        last decision back (two people: :meth:`answer_undo` decides)."""
        if self.mode == "com_vs_com":
            current = self.cursor if self.cursor is not None else self.steps
            if current == 0:
                raise SessionError("already at the first step")
            self.cursor = current - 1
            self.version += 1
            return
        if seat == SPECTATOR or seat in self.com:
            raise SessionError("this connection does not play a seat")
        if self.over:
            raise SessionError(OVER_MESSAGE, "over")
        if self.table is not None:
            two_people.request_undo(self, self.table, seat)
            return
        self._take_back(seat)

    def _take_back(self, seat: int) -> None:
        """Undo ``seat``'s last decision (and what followed it), as the undo rule allows."""
        point = self.undo_point(seat)
        if point.index is None:
            raise SessionError(point.reason or "cannot undo")
        index = point.index
        if self.recorder is not None:
            self.recorder.undo_to(index, self.state_at(index))  # stored first, as for actions
        self.redo_groups.append(self.actions[index:])
        del self.states[index + 1 - self.first :]
        del self.actions[index:]
        self.undo_rule.forget_after(self.states)
        self.why = None
        self.version += 1

    def redo(self, seat: int) -> None:
        """Re-apply the last undone group (vs COM), or step forward in the history."""
        if self.mode == "com_vs_com":
            if self.cursor is None:
                raise SessionError("already live")
            self.cursor += 1
            if self.cursor >= self.steps:
                self.cursor = None
            self.version += 1
            return
        if seat == SPECTATOR or seat in self.com:
            raise SessionError("this connection does not play a seat")
        if self.over:
            raise SessionError(OVER_MESSAGE, "over")
        if not self.redo_groups:
            raise SessionError("nothing to redo")
        if self.live.pending is None or self.live.pending.seat != seat:
            raise SessionError("nothing to redo: the game has moved on")
        if self.table is not None:
            self._table_open()
            if self.redo_groups[-1][0][0] != seat:
                raise SessionError("nothing of yours to redo")
            self._charge()
        for who, action in self.redo_groups.pop():
            state = self.live.clone()
            state.apply(action)
            self._push(who, action, state)
        self.retime()

    # --- two people ---------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the match has ended: on the board, or on time."""
        return self.outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        """How the match ended (on time or resigned between two people, or on the board), or
        None while it goes on (or waits for its guest)."""
        if self.table is not None and self.table.ended is not None:
            return self.table.ended
        if self.resigned is not None:
            return self.resigned
        return self.live.outcome if self.states else None

    @property
    def ended_off_board(self) -> bool:
        """Whether the match ended off the board (resigned, or on time): nothing is asked."""
        return (self.table is not None and self.table.ended is not None) or (
            self.resigned is not None
        )

    @property
    def waiting(self) -> bool:
        """Whether this match between two people waits for its guest (it has no state yet)."""
        return self.table is not None and not self.states

    def join(self, code: str, choice: Any = two_people.KEEP) -> tuple[str, int]:
        """The token and seat an invite or spectator ``code`` opens (seat 1 once, the game
        starting with ``choice`` as the guest's deck, resolved; then the spectator's view);
        :class:`SessionError` for a code of no use here or a choice the match cannot take."""
        return two_people.join(self, code, choice)

    def arrive(self, seat: int) -> None:
        """A connection of ``seat`` opened (two people: it is present again)."""
        two_people.arrive(self, seat)

    def leave(self, seat: int) -> None:
        """A connection of ``seat`` closed (two people: an absence may start)."""
        two_people.leave(self, seat)

    def _table_open(self) -> None:
        """Refuse a move while the match waits for its guest or has ended off the board."""
        two_people.table_open(self)

    def _charge(self, seat: int | None = None) -> None:
        """Charge the running clock before a move (:func:`two_people.charge`)."""
        two_people.charge(self, seat)

    def retime(self) -> None:
        """Let the clock run for the seat whose decision is pending (two people)."""
        two_people.retime(self)

    def tick(self) -> bool:
        """Look at the clock: a seat at zero loses the match. True if it just ended so."""
        return two_people.tick(self)

    def next_wake(self) -> float | None:
        """When something changes by itself (a clock runs out, a grace period ends)."""
        return two_people.next_wake(self)

    def resign(self, seat: int) -> None:
        """``seat`` concedes (投了): the opponent wins, recorded with the reason ``resign``
        (between two people like a match lost on time; against COM the record is finished the
        same way). Refused for a spectator or a COM seat, before the guest has joined, and
        once the match is over."""
        if seat not in (0, 1) or seat in self.com:
            raise SessionError("this connection does not play a seat")
        if self.over:
            raise SessionError(OVER_MESSAGE, "over")
        table = self.table
        if table is None:
            self.resigned = Outcome(1 - seat, RESIGN)
            self.redo_groups.clear()
            if self.recorder is not None:
                results = list(getattr(self.live, "results", ()))
                self.recorder.store.finish_match(self.recorder.match_id, self.resigned, results)
            self.version += 1
            return
        two_people.resign(self, table, seat)

    def answer_undo(self, seat: int, accept: bool) -> None:
        """The opponent of the seat that asked accepts (the undo is made) or refuses."""
        two_people.answer_undo(self, seat, accept)

    def answer_rematch(self, seat: int, accept: bool) -> str:
        """A seat asks for (or accepts) a rematch, or declines it (:mod:`.two_people`)."""
        return two_people.answer_rematch(self, seat, accept)

    def go_live(self) -> None:
        """Leave the history and follow live play again."""
        self.cursor = None
        self.version += 1

    def history(self, seat: int) -> Json:
        """What the undo/redo buttons may do for ``seat``, and where the undo boundary is."""
        if self.mode == "com_vs_com":
            current = self.cursor if self.cursor is not None else self.steps
            return {
                "can_undo": current > 0,
                "can_redo": self.cursor is not None,
                "live": self.cursor is None,
                "step": current,
                "steps": self.steps,
                "undo_blocked": None,
                "boundary_log": None,
            }
        if seat == SPECTATOR:
            return {
                "can_undo": False,
                "can_redo": False,
                "live": True,
                "step": self.steps,
                "steps": self.steps,
                "undo_blocked": None,
                "boundary_log": None,
            }
        point = self.undo_point(seat)
        before = len(self.state_at(point.earliest).log_events())
        if self.over:
            return {
                "can_undo": False,
                "can_redo": False,
                "live": True,
                "step": self.steps,
                "steps": self.steps,
                "undo_blocked": OVER_MESSAGE,
                "undo_code": "over",
                "boundary_log": before - 1 if before > 0 else None,
            }
        can_redo = bool(self.redo_groups)
        if self.table is not None:
            can_redo = can_redo and self.redo_groups[-1][0][0] == seat
        return {
            "can_undo": point.index is not None,
            "can_redo": can_redo,
            "live": True,
            "step": self.steps,
            "steps": self.steps,
            "undo_blocked": point.reason if point.index is None and self.actions else None,
            "undo_code": point.code if self.actions else None,
            "boundary_log": before - 1 if before > 0 else None,
        }

    # --- views ------------------------------------------------------------------------

    def view_for(self, seat: int, lang: str, show_all: bool) -> Json:
        """The shown state as ``seat`` may see it (spectators see the bottom seat's view, the
        observer's between two people, or everything when they asked and the mode allows it),
        with log texts added; while a match between two people waits for its guest, the
        waiting view (no game yet: :func:`two_people.waiting_view`)."""
        if not self.states:
            return two_people.waiting_view(self, seat)
        state = self.shown
        over = self.over
        everything = show_all and (self.mode == "com_vs_com" or state.pending is None or over)
        viewer: int | None = seat
        if seat == SPECTATOR:
            viewer = None if self.table is not None else 0
        view = state.view_all(lang) if everything else state.view(viewer, lang)
        speaker = None if seat == SPECTATOR else viewer  # spectators read "P1/P2", not "you"
        self._describe_log(view["log"], state, (lang, viewer, speaker, everything))
        view["history"] = self.history(SPECTATOR if viewer is None else viewer)
        view["com_why"] = None if viewer is None else self._why_for(viewer, everything)
        view["session"] = {
            "id": self.id,
            "mode": self.mode,
            "you": None if seat == SPECTATOR else seat,
            "com": {str(k): v for k, v in self.com.items()},
            "pace": self.pace,
            "show_all": everything,
            "open_deal": bool(self.open_deal),
        }
        if self.table is not None:
            view["session"]["table"] = self.table.view_for(seat, self.now(), over)
        outcome = self.outcome
        view["session"]["ended"] = (
            None
            if outcome is None
            else {
                "winner": outcome.winner,
                "reason": outcome.reason,
                "off_board": self.ended_off_board,
            }
        )
        if self.ended_off_board:
            # Resigned, lost on time or abandoned: nothing is asked any more, so no option has
            # a preview and no card a reason it cannot be used now.
            view["pending"] = None
            for aid in ("why_not", "previews"):
                if aid in view:
                    view[aid] = None
        return view

    def _describe_log(
        self, log: list[Json], state: GameState, reader: tuple[str, int | None, int | None, bool]
    ) -> None:
        """Add each log entry's text for ``reader`` (language, viewer, speaker, everything).

        An event's text for one reader never changes, so each is rendered once and kept
        while the history holds that event (undo drops the texts of the events it removes).
        """
        lang, _, speaker, _ = reader
        describe = registry.get(self.ruleset).describe
        card_sets.activate(self.ruleset, self.config)  # a designer's set names its own cards
        events = state.log_events()
        if len(log) != len(events):  # a view that leaves events out: render every entry
            for entry in log:
                entry["text"] = describe(entry, lang, speaker)
            return
        texts = self._log_texts.setdefault(reader, [])
        for i, entry in enumerate(log):
            if i < len(texts) and texts[i][0] is events[i]:
                entry["text"] = texts[i][1]
                continue
            del texts[i:]
            entry["text"] = describe(entry, lang, speaker)
            texts.append((events[i], entry["text"]))

    def _why_for(self, viewer: int, everything: bool) -> Json | None:
        """COM's last explanation as ``viewer`` may know it.

        Its action passes through the ruleset's own redaction (:func:`shown_action`: a card
        taken into a hidden hand, a trap picked to set face down, read as the verb alone). The
        candidate list of a decision whose choices depend on COM's hidden cards (which tactic
        to play, which card to set) would show those cards: it is given only for prompts the
        ruleset marks public (each candidate redacted the same way), or to a viewer who sees
        everything.
        """
        why = self.why
        if why is None or self.cursor is not None:
            return None
        if everything or viewer == why["seat"]:
            kept = why["candidates"]
            return {**why, "candidates": kept[:SHOWN] if kept else None}
        seat, ruleset = int(why["seat"]), self.ruleset
        action = shown_action(why["action"], seat, viewer, ruleset)
        if why["prompt"] in registry.get(ruleset).public_prompts:
            candidates = _merge_hidden(why["candidates"] or [], seat, viewer, ruleset)
            # Merged before the list is cut: cut first, the public entries left would count
            # the hidden ones among the best.
            return {**why, "action": action, "candidates": candidates[:SHOWN] or None}
        return {
            **why,
            "action": action,
            "candidates": None,
            # Only that there were candidates: their number can tell a hidden card (how many
            # tactics COM could play, whether its face-down surprise card matched).
            "hidden": bool(why["candidates"]),
        }

    def summary(self) -> dict[str, Any]:
        """A short description for listings."""
        outcome = self.outcome
        return {
            "id": self.id,
            "ruleset": self.ruleset,
            "mode": self.mode,
            "steps": len(self.actions),
            "over": outcome is not None,
        }


def _merge_hidden(candidates: list[Json], seat: int, viewer: int, ruleset: str) -> list[Json]:
    """COM's candidates as ``viewer`` may know them: a public candidate as it is; the ones
    whose card is hidden from the viewer (a surprise Set of one card or another) merged into
    one entry per verb, with neither a count nor a value, where the first of them stood (one
    redacted line per distinct hidden card would tell how many different cards COM holds)."""
    out: list[Json] = []
    merged: set[str] = set()
    for candidate in candidates:
        shown = shown_action(candidate["action"], seat, viewer, ruleset)
        if shown == candidate["action"]:
            out.append(candidate)
        elif shown not in merged:
            merged.add(shown)
            out.append({"action": shown, "visits": None, "value": None, "hidden": True})
    return out


def candidates_json(explanation: Any) -> list[Json] | None:
    """A COM player's explanation as a JSON list (at most :data:`KEPT` candidates; a panel
    shows :data:`SHOWN`)."""
    if not explanation:
        return None
    out: list[Json] = []
    for item in list(explanation)[:KEPT]:
        entry = item if isinstance(item, dict) else getattr(item, "__dict__", {})
        out.append(
            {
                "action": str(entry.get("action", "")),
                "visits": _finite(entry.get("visits")),
                "value": _finite(entry.get("value")),
            }
        )
    return out


def _finite(number: Any) -> float | int | None:
    """A number for JSON: NaN and infinities (not JSON) become ``None``."""
    if isinstance(number, bool) or not isinstance(number, int | float):
        return None
    return number if math.isfinite(number) else None

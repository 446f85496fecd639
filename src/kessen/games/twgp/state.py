"""The TWGP トランプ版 game state: plain data (zones of card ids, squares of stacks, a frame stack).

Card ids are fixed (see :mod:`.cards`). Each seat has six list zones (build pool, pile with its
top card last, hand, cards set aside, surge, storage), three vital squares with a pose each, and
``W`` charge squares and battle squares (``W`` = the grid width). A battle square holds a kernel
:class:`~kessen.engine.poses.Stack` (top unit, frames under it, weapons attached, pose, the
G-blast declaration turn as its mark, and whether a stealth-summoned unit is still a secret) or
``None``; with the ``weaponCache`` switch an empty square may keep weapons. Pending work is a
stack of small tuples (frames) interpreted by :mod:`.flow`; the pending attack is an
:class:`Attack` record. Views and hidden-world resampling live in their own modules.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Mapping
from functools import cache
from types import ModuleType
from typing import Any, ClassVar, NamedTuple, Self

from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json, Outcome, Pending, Viewer
from kessen.engine.digest import LogDigest, combined_hash
from kessen.engine.log import Event
from kessen.engine.poses import Pose, Stack
from kessen.engine.rng import Rng
from kessen.games.twgp.cards import CARDS, CHARGE_DRIVE_MAX, pool
from kessen.games.twgp.config import HAND_LIMIT, VITALS, TwgpConfig, parse_config

EMPTY = -1
# The list zones of one seat; seat s's zone z is ``zones[s * ZONES + z]``.
POOL, PILE, HAND, ASIDE, SURGE, STORAGE = range(6)
ZONES = 6
ZONE_NAMES = ("pool", "pile", "hand", "aside", "surge", "storage")
SURGE_CAP = 6
WEAPON_CAP = 6

# Stack poses (twgp-trump.md §1.7, §2.3).
ACTIVE = Pose.UP
SAVE = Pose.UP_SIDEWAYS
STEALTH = Pose.DOWN
GB = Pose.DOWN_SIDEWAYS
POSE_NAMES = {ACTIVE: "active", SAVE: "save", STEALTH: "stealth", GB: "gb"}
# Vital poses: a valid vital is face down; a lost one face up sideways; the vital effect upright.
HIDDEN = Pose.DOWN
LOST = Pose.UP_SIDEWAYS
EFFECT = Pose.UP

# Phases.
SETUP, BUILD, BATTLE, OVER = range(4)
PHASE_NAMES = ("setup", "build", "battle", "over")

# Attack kinds.
ASSAULT, BOOST, DIRECT = range(3)
ATTACK_NAMES = ("assault", "boost", "direct")

Frame = tuple[Any, ...]
Stacks = list[tuple[int, Stack]]
"""``(square, stack)`` of a seat's occupied battle squares, left to right (``stacks()``)."""


class Attack(NamedTuple):
    """The pending attack (§2.3): who attacks what, surge paid, downloads, what changed since.

    Squares are 0-based indices within the owner's row. ``target`` is ``EMPTY`` for a direct
    (until an ``interrupter`` arrives); ``lost`` is set when the target became a frame (§2.6.4)
    and ``cancelled`` when a G-blast discarded the attacker (§2.6.0).
    """

    kind: int
    seat: int
    attacker: int
    target: int = EMPTY
    surge_a: int = 0
    surge_d: int = 0
    downloads: int = 0
    interrupter: int = EMPTY
    lost: bool = False
    cancelled: bool = False


def _flow() -> ModuleType:
    """The rules module (imported on first use: it imports this one)."""
    global _FLOW_MODULE
    if _FLOW_MODULE is None:
        _FLOW_MODULE = importlib.import_module("kessen.games.twgp.flow")
    return _FLOW_MODULE


_FLOW_MODULE: ModuleType | None = None


class TwgpState(GameState):
    """One game of TWGP トランプ版 (half battle, two players)."""

    ruleset: ClassVar[str] = "twgp"

    __slots__ = (
        "active_turn",
        "attack",
        "battle",
        "cache",
        "charge",
        "config",
        "first_player",
        "legal",
        "log",
        "log_digest",
        "phase",
        "prompt",
        "prompt_id",
        "quiet",
        "reloaded",
        "result",
        "rng",
        "stack",
        "taken",
        "toggles",
        "turn",
        "turn_player",
        "vitals",
        "vpose",
        "width",
        "wipe_used",
        "zero_turn",
        "zones",
    )

    config: TwgpConfig
    width: int
    rng: Rng
    zones: list[list[int]]
    vitals: list[int]
    vpose: list[Pose]
    charge: list[int]
    battle: list[Stack | None]
    cache: list[tuple[int, ...]]
    turn: int
    turn_player: int
    first_player: int
    phase: int
    wipe_used: list[bool]
    zero_turn: list[int]
    quiet: int
    active_turn: bool
    attack: Attack | None
    toggles: list[int]
    reloaded: bool
    taken: list[int]
    stack: list[Frame]
    prompt: tuple[int, str] | None
    prompt_id: int
    legal: list[Action] | None
    log: list[Event]
    log_digest: LogDigest
    result: tuple[int, str] | None

    # --- construction -------------------------------------------------------------------

    @classmethod
    def blank(cls, config: TwgpConfig, seed: int) -> TwgpState:
        """A state with every card of both pools in its owner's build pool, nothing dealt."""
        state = cls()
        w = config.grid_width
        state.config = config
        state.width = w
        state.rng = Rng(seed)
        state.zones = [[] for _ in range(2 * ZONES)]
        for seat in (0, 1):
            state.zones[seat * ZONES + POOL].extend(pool(seat, config.jokers))
        state.vitals = [EMPTY] * (2 * VITALS)
        state.vpose = [HIDDEN] * (2 * VITALS)
        state.charge = [EMPTY] * (2 * w)
        state.battle = [None] * (2 * w)
        state.cache = [()] * (2 * w)
        state.turn = 0
        state.turn_player = 0
        state.first_player = 0
        state.phase = SETUP
        state.wipe_used = [False, False]
        state.zero_turn = [EMPTY, EMPTY]
        state.quiet = 0
        state.active_turn = False
        state.attack = None
        state.toggles = [0, 0]
        state.reloaded = False
        state.taken = [0, 0]
        state.stack = []
        state.prompt = None
        state.prompt_id = 0
        state.legal = None
        state.log = []
        state.log_digest = LogDigest()
        state.result = None
        return state

    # --- queries ------------------------------------------------------------------------

    def zone(self, seat: int, zone: int) -> list[int]:
        """The live list of ``seat``'s zone ``zone`` (the pile's top card is its last)."""
        return self.zones[seat * ZONES + zone]

    def square(self, seat: int, index: int) -> Stack | None:
        """The stack in ``seat``'s battle square ``index`` (0-based), or ``None``."""
        return self.battle[seat * self.width + index]

    def stacks(self, seat: int) -> Stacks:
        """``(square, stack)`` for each of ``seat``'s occupied battle squares, left to right."""
        w = self.width
        row = self.battle
        return [(i, s) for i in range(w) if (s := row[seat * w + i]) is not None]

    def charge_row(self, seat: int) -> list[int]:
        """A copy of ``seat``'s charge squares (card ids or ``EMPTY``)."""
        w = self.width
        return self.charge[seat * w : seat * w + w]

    def empty_charge(self, seat: int) -> int:
        """The number of ``seat``'s empty charge squares."""
        w = self.width
        return self.charge[seat * w : seat * w + w].count(EMPTY)

    def hidden_vitals(self, seat: int) -> int:
        """How many of ``seat``'s vitals are still face down (valid)."""
        return self.vpose[seat * VITALS : seat * VITALS + VITALS].count(HIDDEN)

    def effect_card(self) -> int:
        """The card of the current vital effect (the one face-up upright vital), or ``EMPTY``."""
        for i, pose in enumerate(self.vpose):
            if pose == EFFECT:
                return self.vitals[i]
        return EMPTY

    # --- the contract -------------------------------------------------------------------

    @property
    def pending(self) -> Pending | None:
        """The decision the game waits for."""
        if self.prompt is None:
            return None
        return Pending(self.prompt[0], self.prompt[1], self.prompt_id)

    @property
    def outcome(self) -> Outcome | None:
        """The result once the game is over (``winner`` is ``None`` for a draw)."""
        if self.result is None:
            return None
        winner, reason = self.result
        return Outcome(winner if winner >= 0 else None, reason)

    def legal_actions(self) -> list[Action]:
        """The legal answers to the pending decision, in a fixed order.

        They are computed once per decision and cached (``apply`` checks against the cache);
        the caller gets its own copy, free to change."""
        legal = self.legal
        if legal is None:
            legal = self.legal = _flow().legal_actions(self)
        return legal[:]

    def apply(self, action: Action) -> None:
        """Apply a legal action and run on to the next decision."""
        _flow().apply_action(self, action)

    def view(self, viewer: Viewer, lang: str = "ja") -> Json:
        """Board and log as ``viewer`` may see them."""
        from kessen.games.twgp.view import render

        return render(self, viewer, everything=False, lang=lang)

    def decision_view(self, seat: int) -> Json:
        """The seat's view without the aids drawn for people (see ``GameState``)."""
        from kessen.games.twgp.view import render

        return render(self, seat, everything=False, aids=False)

    def view_all(self, lang: str = "ja") -> Json:
        """Everything, hidden cards included."""
        from kessen.games.twgp.view import render

        return render(self, None, everything=True, lang=lang)

    def log_events(self) -> list[Event]:
        """The raw event log."""
        return self.log

    def clone(self) -> Self:
        """An independent copy (lists copied; stacks, frames and the config are immutable)."""
        new = type(self)()
        new.config = self.config
        new.width = self.width
        new.rng = Rng(self.rng.state)
        new.zones = list(map(list.copy, self.zones))
        new.vitals = self.vitals[:]
        new.vpose = self.vpose[:]
        new.charge = self.charge[:]
        new.battle = self.battle[:]
        new.cache = self.cache[:]
        new.turn = self.turn
        new.turn_player = self.turn_player
        new.first_player = self.first_player
        new.phase = self.phase
        new.wipe_used = self.wipe_used[:]
        new.zero_turn = self.zero_turn[:]
        new.quiet = self.quiet
        new.active_turn = self.active_turn
        new.attack = self.attack
        new.toggles = self.toggles[:]
        new.reloaded = self.reloaded
        new.taken = self.taken[:]
        new.stack = self.stack[:]
        new.prompt = self.prompt
        new.prompt_id = self.prompt_id
        new.legal = self.legal
        new.log = self.log[:]
        new.log_digest = self.log_digest
        new.result = self.result
        return new

    def to_json(self) -> Json:
        """The whole state as JSON data."""
        return {**self._body(), "log": [e.to_json() for e in self.log]}

    def state_hash(self) -> str:
        """A short digest of the whole state; the append-only log is digested incrementally."""
        self.log_digest = self.log_digest.updated(self.log)
        return combined_hash(self._body(), self.log_digest)

    def _body(self) -> Json:
        """The JSON form without the log."""
        return {
            "config": self.config.to_json(),
            "rng": self.rng.state,
            "zones": [z[:] for z in self.zones],
            "vitals": self.vitals[:],
            "vpose": [int(p) for p in self.vpose],
            "charge": self.charge[:],
            "battle": [s.to_json() if s is not None else None for s in self.battle],
            "cache": [list(c) for c in self.cache],
            "turn": self.turn,
            "turn_player": self.turn_player,
            "first_player": self.first_player,
            "phase": self.phase,
            "wipe_used": self.wipe_used[:],
            "zero_turn": self.zero_turn[:],
            "quiet": self.quiet,
            "active_turn": self.active_turn,
            "attack": list(self.attack) if self.attack is not None else None,
            "toggles": self.toggles[:],
            "reloaded": self.reloaded,
            "taken": self.taken[:],
            "stack": [list(f) for f in self.stack],
            "prompt": list(self.prompt) if self.prompt else None,
            "prompt_id": self.prompt_id,
            "result": list(self.result) if self.result else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a state from :meth:`to_json` output."""
        config = parse_config(data["config"])
        new = cls()
        new.config = config
        new.width = config.grid_width
        new.rng = Rng(data["rng"])
        new.zones = [list(z) for z in data["zones"]]
        new.vitals = list(data["vitals"])
        new.vpose = [Pose(p) for p in data["vpose"]]
        new.charge = list(data["charge"])
        new.battle = [Stack.from_json(s) if s is not None else None for s in data["battle"]]
        new.cache = [tuple(c) for c in data["cache"]]
        new.turn = data["turn"]
        new.turn_player = data["turn_player"]
        new.first_player = data["first_player"]
        new.phase = data["phase"]
        new.wipe_used = list(data["wipe_used"])
        new.zero_turn = list(data["zero_turn"])
        new.quiet = data["quiet"]
        new.active_turn = data["active_turn"]
        attack = data["attack"]
        new.attack = Attack(*attack) if attack is not None else None
        new.toggles = list(data["toggles"])
        new.reloaded = data["reloaded"]
        new.taken = list(data["taken"])
        new.stack = [_frame(f) for f in data["stack"]]
        new.prompt = (data["prompt"][0], data["prompt"][1]) if data["prompt"] else None
        new.prompt_id = data["prompt_id"]
        new.legal = None
        new.log = [Event.from_json(e) for e in data["log"]]
        new.log_digest = LogDigest()
        result = data["result"]
        new.result = (result[0], result[1]) if result else None
        return new

    def audit(self) -> None:
        """Every card in exactly one place, owned by the seat whose place it is; shapes hold."""
        w = self.width
        everywhere: list[int] = []
        for seat in (0, 1):
            mine: list[int] = []
            for z in range(ZONES):
                mine += self.zones[seat * ZONES + z]
            mine += [c for c in self.vitals[seat * VITALS : seat * VITALS + VITALS] if c != EMPTY]
            mine += [c for c in self.charge[seat * w : seat * w + w] if c != EMPTY]
            for i in range(seat * w, seat * w + w):
                cached = self.cache[i]
                stack = self.battle[i]
                if cached:
                    _require(stack is None, "a cache under a stack")
                    _require(not any(CARDS[c].is_unit for c in cached), "a unit in a cache")
                    mine += cached
                if stack is not None:
                    mine += stack.cards()
                    _audit_stack(stack)
            if any(CARDS[c].seat != seat for c in mine):
                strays = sorted(CARDS[c].slug for c in mine if CARDS[c].seat != seat)
                raise AssertionError(f"seat {seat}'s places hold {strays}")
            everywhere += mine
            if self.phase != SETUP:
                _require(len(self.zone(seat, HAND)) <= HAND_LIMIT, "a hand over the limit")
                _require(not self.zone(seat, POOL), "cards left in a build pool")
                _require(
                    EMPTY not in self.vitals[seat * VITALS : seat * VITALS + VITALS],
                    "a vital square left empty",
                )
            _require(len(self.zone(seat, SURGE)) <= SURGE_CAP, "a surge over 6 cards")
            gbs = sum(
                1 for s in self.battle[seat * w : seat * w + w] if s is not None and s.pose == GB
            )
            _require(gbs <= 1, "two G-blast declarations of one player")
        everywhere.sort()
        if everywhere != _all_cards(self.config.jokers):
            counts = Counter(everywhere)
            twice = sorted(CARDS[c].slug for c, n in counts.items() if n > 1)
            missing = sorted(
                CARDS[c].slug for c in _all_cards(self.config.jokers) if c not in counts
            )
            raise AssertionError(f"cards in two places: {twice}; in no place: {missing}")
        _require(self.vpose.count(EFFECT) <= 1, "two vital effects")

    def resample_hidden(self, seat: int, seed: int) -> Self:
        """A copy with everything hidden from ``seat`` redealt (see :mod:`.resample`)."""
        from kessen.games.twgp.resample import resample

        return resample(self, seat, seed)

    def known_cards(self, seat: int) -> dict[int, str]:
        """The cards whose identity ``view(seat)`` shows, by place (see :mod:`.knowledge`)."""
        from kessen.games.twgp.knowledge import known_cards

        return known_cards(self, seat)


@cache
def _all_cards(jokers: bool) -> list[int]:
    return sorted(pool(0, jokers) + pool(1, jokers))


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def _audit_stack(stack: Stack) -> None:
    top = CARDS[stack.top]
    _require(top.is_unit, f"a weapon on top of a stack: {top.slug}")
    _require(all(CARDS[c].is_unit for c in stack.under), "a weapon used as a frame")
    _require(not any(CARDS[c].is_unit for c in stack.attached), "a unit used as a weapon")
    _require(len(stack.attached) <= WEAPON_CAP, "more than 6 weapons on a stack")
    _require(stack.pose in POSE_NAMES, f"a stack in pose {stack.pose!r}")
    if stack.pose == STEALTH:
        _require(
            (top.base or 0) <= CHARGE_DRIVE_MAX and not stack.attached,
            "a stealth unit over 03 or with weapons",
        )
    if top.base == 0:
        _require(not stack.attached, "weapons on a 00 unit")
    _require(not stack.secret or stack.pose == STEALTH, "a secret stack face up")
    _require((stack.pose == GB) == (stack.mark >= 1), "a G-blast mark out of place")


def _frame(data: list[Any]) -> Frame:
    """A frame from its JSON list (nested lists become tuples again)."""
    return tuple(tuple(x) if isinstance(x, list) else x for x in data)

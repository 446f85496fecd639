"""The Kōbō game state: plain data (zones of card ids, Lv arrays, a frame stack), cheap to clone.

Card instances are numbered 0..N-1 for one match; ``defs[i]`` is the printed card of instance
``i``. Zones are lists of instance ids; battle and strategy areas are fixed slots holding an id
or ``EMPTY``. Pending work is an explicit stack of small tuples (frames), interpreted by
:mod:`kessen.games.kobo.flow`. Views and hidden-world resampling live in their own modules.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, ClassVar, Final, Self

from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json, Outcome, Pending, Viewer
from kessen.engine.frames import FrameMachine
from kessen.engine.log import Event
from kessen.engine.rng import Rng
from kessen.games.kobo.card_versions import LEGACY_VERSION, data_pool
from kessen.games.kobo.cards import CardDef
from kessen.games.kobo.config import KoboConfig, parse_config

# Final: compiled code (mypyc) inlines them instead of reading the module's dict.
EMPTY: Final = -1
SLOTS: Final = 5
# Zones of one seat; the zone list of seat s starts at s * ZONES.
MAIN_DECK: Final = 0
HAND: Final = 1
TDECK: Final = 2
THAND: Final = 3
RETREAT: Final = 4
EXCLUDED: Final = 5
REVEAL: Final = 6
RESOLVING: Final = 7
ZONES: Final = 8
ZONE_NAMES = (
    "main_deck",
    "hand",
    "tactics_deck",
    "tactics_hand",
    "retreat",
    "excluded",
    "reveal",
    "resolving",
)

Frame = tuple[Any, ...]


class SurpriseData:
    """The surprise-zone module's part of a state (:mod:`kessen.games.kobo.surprise`).

    ``zones[seat]`` lists ``(card, stamp)`` entries (the face is ``KoboState.faceup``);
    ``stamp`` is the entry clock; ``used[seat]`` the turn of the seat's last Set or Clear;
    ``offers`` the ``(seat, condition)`` flip prompts still to ask; ``pending`` the surprise
    instances in the resolution zone, ``(card, ability index)``; ``kept`` the cards whose
    surprise ability was cancelled or not carried out (for ``cancelled_surprise = stay``).
    """

    __slots__ = ("kept", "offers", "pending", "stamp", "used", "zones")

    def __init__(
        self,
        zones: list[list[tuple[int, int]]] | None = None,
        stamp: int = 0,
        used: list[int] | None = None,
        offers: list[tuple[int, str]] | None = None,
        pending: list[tuple[int, int]] | None = None,
        kept: list[int] | None = None,
    ) -> None:
        self.zones: list[list[tuple[int, int]]] = [[], []] if zones is None else zones
        self.stamp = stamp
        self.used = [0, 0] if used is None else used
        self.offers: list[tuple[int, str]] = [] if offers is None else offers
        self.pending: list[tuple[int, int]] = [] if pending is None else pending
        self.kept: list[int] = [] if kept is None else kept

    def copy(self) -> SurpriseData:
        """An independent copy."""
        return SurpriseData(
            [z[:] for z in self.zones],
            self.stamp,
            self.used[:],
            self.offers[:],
            self.pending[:],
            self.kept[:],
        )

    def to_json(self) -> Json:
        """JSON form."""
        return {
            "zones": [[list(e) for e in z] for z in self.zones],
            "stamp": self.stamp,
            "used": self.used[:],
            "offers": [list(o) for o in self.offers],
            "pending": [list(p) for p in self.pending],
            "kept": self.kept[:],
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> SurpriseData:
        """Inverse of :meth:`to_json`."""
        new = SurpriseData()
        new.zones = [[(c, t) for c, t in z] for z in data["zones"]]
        new.stamp = data["stamp"]
        new.used = list(data["used"])
        new.offers = [(s, c) for s, c in data["offers"]]
        new.pending = [(c, i) for c, i in data["pending"]]
        new.kept = list(data["kept"])
        return new


Link = tuple[
    int, int, int, bool
]  # card, controller seat, chosen target (id, link no. or -1), negated


def _machine() -> FrameMachine[KoboState]:
    """The rules' frame machine (its module is imported on first use: it imports this one).
    Held here, compiled callers reach its methods directly rather than through the module."""
    global _MACHINE
    machine = _MACHINE
    if machine is None:
        machine = _MACHINE = importlib.import_module("kessen.games.kobo.flow").MACHINE
    return machine


_MACHINE: FrameMachine[KoboState] | None = None


class KoboState(GameState):
    """One Kōbō match (best of N games) in progress."""

    ruleset: ClassVar[str] = "kobo"

    __slots__ = (
        "attacker_seat",
        "attackers",
        "base",
        "battle",
        "chain",
        "chain_passes",
        "config",
        "defs",
        "faceup",
        "first_player",
        "game_no",
        "legal",
        "log",
        "match_result",
        "negated",
        "owner",
        "passes",
        "priority",
        "prompt",
        "prompt_id",
        "quiet",
        "resolved",
        "results",
        "rng",
        "stack",
        "strategy",
        "surprise",
        "target",
        "temp",
        "turn",
        "turn_player",
        "wins",
        "zones",
    )

    config: KoboConfig
    defs: tuple[CardDef, ...]
    owner: tuple[int, ...]
    rng: Rng
    zones: list[list[int]]
    battle: list[int]
    strategy: list[int]
    base: list[int]
    temp: list[int]
    faceup: list[bool]
    stack: list[Frame]
    prompt: tuple[int, str] | None
    prompt_id: int
    legal: list[Action] | None
    chain: list[Link]
    resolved: list[Link]
    attackers: tuple[int, ...]
    target: int
    negated: bool
    attacker_seat: int
    priority: int
    chain_passes: int
    turn: int
    turn_player: int
    first_player: int
    passes: list[int]
    wins: list[int]
    game_no: int
    results: list[tuple[int, str, int]]
    match_result: tuple[int, str] | None
    log: list[Event]
    quiet: bool
    """Write no events (search worlds: nobody reads their log, and it costs)."""
    surprise: SurpriseData | None
    """The surprise-zone module's data (``None`` when the match option is off)."""

    # --- construction -------------------------------------------------------------------

    @classmethod
    def blank(cls, config: KoboConfig, seed: int, cards: list[list[str]]) -> KoboState:
        """A state with the given cards per seat (in zone order) and nothing dealt yet."""
        pool = data_pool(config.card_data, config.card_set)
        state = cls()
        state.config = config
        by_slug = pool.cards
        try:
            defs = [by_slug[slug] for slugs in cards for slug in slugs]
        except KeyError:  # the pool's own lookup names the unknown card and close matches
            defs = [pool.get(slug) for slugs in cards for slug in slugs]
        state.defs = tuple(defs)
        state.owner = tuple(seat for seat, slugs in enumerate(cards) for _ in slugs)
        state.rng = Rng(seed)
        state.zones = [[] for _ in range(2 * ZONES)]
        state.battle = [EMPTY] * (2 * SLOTS)
        state.strategy = [EMPTY] * (2 * SLOTS)
        state.base = [d.lv for d in defs]
        state.temp = [0] * len(defs)
        state.faceup = [False] * len(defs)
        state.stack = []
        state.prompt = None
        state.prompt_id = 0
        state.legal = None
        state.chain = []
        state.resolved = []
        state.attackers = ()
        state.target = EMPTY
        state.negated = False
        state.attacker_seat = 0
        state.priority = 0
        state.chain_passes = 0
        state.turn = 0
        state.turn_player = 0
        state.first_player = 0
        state.passes = [0, 0]
        state.wins = [0, 0]
        state.game_no = 0
        state.results = []
        state.match_result = None
        state.log = []
        state.quiet = False
        state.surprise = SurpriseData() if config.surprise else None
        return state

    # --- queries ------------------------------------------------------------------------

    def zone(self, seat: int, zone: int) -> list[int]:
        """The list of card ids of ``seat``'s zone (a live list: mutate with care)."""
        return self.zones[seat * ZONES + zone]

    def lv(self, card: int) -> int:
        """Current Lv (attack power): base Lv plus this exchange's modifiers, never below 0."""
        value = self.base[card] + self.temp[card]
        return value if value > 0 else 0

    def slot_of(self, card: int) -> int:
        """The battle slot index (0-4) of a character on the field, or ``EMPTY``."""
        seat = self.owner[card]
        row = self.battle
        for i in range(seat * SLOTS, seat * SLOTS + SLOTS):
            if row[i] == card:
                return i - seat * SLOTS
        return EMPTY

    def characters(self, seat: int) -> list[int]:
        """Ids of ``seat``'s characters on the field, in slot order."""
        return [c for c in self.battle[seat * SLOTS : seat * SLOTS + SLOTS] if c != EMPTY]

    def face_down_traps(self, seat: int) -> list[int]:
        """Ids of ``seat``'s face-down traps, in slot order."""
        return [
            c
            for c in self.strategy[seat * SLOTS : seat * SLOTS + SLOTS]
            if c != EMPTY and not self.faceup[c]
        ]

    def remaining_cards(self, seat: int) -> int:
        """Face-down traps + tactics hand + tactics deck (the wipe tie-breaker), and a
        face-down surprise card (it can still be used) when the option is on."""
        count = (
            len(self.face_down_traps(seat))
            + len(self.zone(seat, THAND))
            + len(self.zone(seat, TDECK))
        )
        if self.surprise is not None:
            count += sum(1 for card, _ in self.surprise.zones[seat] if not self.faceup[card])
        return count

    def on_field(self, card: int) -> bool:
        """True if ``card`` is a character in a battle slot."""
        return card != EMPTY and card in self.battle

    # --- the contract -------------------------------------------------------------------

    @property
    def pending(self) -> Pending | None:
        """The decision the match waits for."""
        if self.prompt is None:
            return None
        return Pending(self.prompt[0], self.prompt[1], self.prompt_id)

    @property
    def outcome(self) -> Outcome | None:
        """The match result once decided."""
        if self.match_result is None:
            return None
        return Outcome(
            self.match_result[0] if self.match_result[0] >= 0 else None, self.match_result[1]
        )

    def legal_actions(self) -> list[Action]:
        """The legal answers to the pending decision, in a fixed order.

        They are computed once per decision and cached (``apply`` checks against the cache);
        the caller gets its own copy, free to change."""
        legal = self.legal
        if legal is None:
            legal = self.legal = _machine().legal_actions(self)
        return legal[:]

    def apply(self, action: Action) -> None:
        """Apply a legal action and run on to the next decision."""
        _machine().apply_action(self, action)

    def view(self, viewer: Viewer, lang: str = "ja") -> Json:
        """Board and log as ``viewer`` may see them."""
        from kessen.games.kobo.view import render

        return render(self, viewer, everything=False, lang=lang)

    def decision_view(self, seat: int) -> Json:
        """The seat's view without the aids drawn for people (see ``GameState``)."""
        from kessen.games.kobo.view import render

        return render(self, seat, everything=False, aids=False)

    def view_all(self, lang: str = "ja") -> Json:
        """Everything, hidden cards included."""
        from kessen.games.kobo.view import render

        return render(self, None, everything=True, lang=lang)

    def note(
        self,
        kind: str,
        public: dict[str, object],
        private_to: int = -1,
        private: dict[str, object] | None = None,
        reveals: int = -1,
    ) -> None:
        """Write one event to the log (the one way the rules log; a ``quiet`` world skips it)."""
        if not self.quiet:
            self.log.append(Event(kind, public, private_to, private, reveals))

    def log_events(self) -> list[Event]:
        """The raw event log."""
        return self.log

    def clone(self) -> Self:
        """An independent copy (lists copied, immutable parts shared)."""
        new = type(self)()
        new.config = self.config
        new.defs = self.defs
        new.owner = self.owner
        new.rng = Rng(self.rng.state)
        new.zones = [zone[:] for zone in self.zones]
        new.battle = self.battle[:]
        new.strategy = self.strategy[:]
        new.base = self.base[:]
        new.temp = self.temp[:]
        new.faceup = self.faceup[:]
        new.stack = self.stack[:]
        new.prompt = self.prompt
        new.prompt_id = self.prompt_id
        new.legal = self.legal
        new.chain = self.chain[:]
        new.resolved = self.resolved[:]
        new.attackers = self.attackers
        new.target = self.target
        new.negated = self.negated
        new.attacker_seat = self.attacker_seat
        new.priority = self.priority
        new.chain_passes = self.chain_passes
        new.turn = self.turn
        new.turn_player = self.turn_player
        new.first_player = self.first_player
        new.passes = self.passes[:]
        new.wins = self.wins[:]
        new.game_no = self.game_no
        new.results = self.results[:]
        new.match_result = self.match_result
        new.log = self.log[:]
        new.quiet = self.quiet
        new.surprise = None if self.surprise is None else self.surprise.copy()
        return new

    def to_json(self) -> Json:
        """The whole state as JSON data."""
        out: Json = {
            "config": self.config.to_json(),
            "cards": [d.slug for d in self.defs],
            "owner": list(self.owner),
            "rng": self.rng.state,
            "zones": [z[:] for z in self.zones],
            "battle": self.battle[:],
            "strategy": self.strategy[:],
            "base": self.base[:],
            "temp": self.temp[:],
            "faceup": self.faceup[:],
            "stack": [list(f) for f in self.stack],
            "prompt": list(self.prompt) if self.prompt else None,
            "prompt_id": self.prompt_id,
            "chain": [list(link) for link in self.chain],
            "resolved": [list(link) for link in self.resolved],
            "attackers": list(self.attackers),
            "target": self.target,
            "negated": self.negated,
            "attacker_seat": self.attacker_seat,
            "priority": self.priority,
            "chain_passes": self.chain_passes,
            "turn": self.turn,
            "turn_player": self.turn_player,
            "first_player": self.first_player,
            "passes": self.passes[:],
            "wins": self.wins[:],
            "game_no": self.game_no,
            "results": [list(r) for r in self.results],
            "match_result": list(self.match_result) if self.match_result else None,
            "log": [e.to_json() for e in self.log],
        }
        if self.surprise is not None:
            out["surprise"] = self.surprise.to_json()
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a state from :meth:`to_json` output."""
        raw = data["config"]
        legacy = {} if "card_set" in raw else {"card_data": LEGACY_VERSION}
        config = parse_config({**legacy, **raw, "validate": False})
        pool = data_pool(config.card_data, config.card_set)
        new = cls()
        new.config = config
        new.defs = tuple(pool.get(s) for s in data["cards"])
        new.owner = tuple(data["owner"])
        new.rng = Rng(data["rng"])
        new.zones = [list(z) for z in data["zones"]]
        new.battle = list(data["battle"])
        new.strategy = list(data["strategy"])
        new.base = list(data["base"])
        new.temp = list(data["temp"])
        new.faceup = list(data["faceup"])
        new.stack = [tuple(f) for f in data["stack"]]
        new.prompt = (data["prompt"][0], data["prompt"][1]) if data["prompt"] else None
        new.prompt_id = data["prompt_id"]
        new.legal = None
        new.chain = [(a, b, c, d) for a, b, c, d in data["chain"]]
        new.resolved = [(a, b, c, d) for a, b, c, d in data["resolved"]]
        new.attackers = tuple(data["attackers"])
        new.target = data["target"]
        new.negated = data["negated"]
        new.attacker_seat = data["attacker_seat"]
        new.priority = data["priority"]
        new.chain_passes = data["chain_passes"]
        new.turn = data["turn"]
        new.turn_player = data["turn_player"]
        new.first_player = data["first_player"]
        new.passes = list(data["passes"])
        new.wins = list(data["wins"])
        new.game_no = data["game_no"]
        new.results = [(a, b, c) for a, b, c in data["results"]]
        mr = data["match_result"]
        new.match_result = (mr[0], mr[1]) if mr else None
        new.log = [Event.from_json(e) for e in data["log"]]
        new.quiet = False
        raw = data.get("surprise")
        new.surprise = None if raw is None else SurpriseData.from_json(raw)
        return new

    def audit(self) -> None:
        """Every card in exactly one place; slots hold their kind; Lvs in range."""
        seen = [0] * len(self.defs)
        for zone in self.zones:
            for card in zone:
                seen[card] += 1
        for card in self.battle + self.strategy:
            if card != EMPTY:
                seen[card] += 1
        if self.surprise is not None:
            for seat, entries in enumerate(self.surprise.zones):
                for card, _ in entries:
                    seen[card] += 1
                    if self.owner[card] != seat:
                        raise AssertionError(f"surprise zone {seat} holds the opponent's card")
        bad = [i for i, n in enumerate(seen) if n != 1]
        if bad:
            raise AssertionError(f"cards not in exactly one place: {bad}")
        for i, card in enumerate(self.battle):
            if card != EMPTY and (
                not self.defs[card].is_character or self.owner[card] != i // SLOTS
            ):
                raise AssertionError(f"battle slot {i} holds a wrong card {card}")
        for i, card in enumerate(self.strategy):
            if card != EMPTY and self.owner[card] != i // SLOTS:
                raise AssertionError(f"strategy slot {i} holds the opponent's card")
        if any(b < 0 for b in self.base):
            raise AssertionError("negative base Lv")

    def resample_hidden(self, seat: int, seed: int) -> Self:
        """A copy with everything hidden from ``seat`` redealt (see :mod:`.resample`)."""
        from kessen.games.kobo.resample import resample

        return resample(self, seat, seed)

    def known_cards(self, seat: int) -> dict[int, str]:
        """The cards whose identity ``view(seat)`` shows, by place (see :mod:`.knowledge`)."""
        from kessen.games.kobo.knowledge import known_cards

        return known_cards(self, seat)

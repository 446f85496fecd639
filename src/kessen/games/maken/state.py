"""The Maken game state: plain data (per-seat zones of card instances, attack fields of locked
entries, support fields, the exchange, the bet in progress and the judge).

A card *instance* is an int; ``cards[i]`` is its card id. Seat ``s`` owns instances
``50 * s .. 50 * s + 49`` (its deck list, sorted). Piles keep their top card **last**
(stamina, LP, gauge). An attack-field entry is a list ``[inst, down, spd, front, back, atk,
cost, gain, hit, helper_paid]`` (bottom first), a support entry ``[inst, opened, helper_paid,
seq, turn]`` (``seq`` orders openings; ``turn`` is the turn it was opened). The rules live in
:mod:`.rules` (hand view and legality) and :mod:`.flow` (what an answer does).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self, cast

from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json, Outcome, Pending, Viewer, json_digest
from kessen.engine.log import Event
from kessen.engine.rng import Rng
from kessen.games.maken.cards import Ability, Card, MakenPool
from kessen.games.maken.config import Config, config_pool, parse_config

if TYPE_CHECKING:
    from kessen.games.maken.rules import BetPlan

# Attack-field entry slots (``Final``: compiled code uses the numbers, not module lookups).
INST: Final = 0
DOWN: Final = 1
SPD: Final = 2
FRONT: Final = 3
BACK: Final = 4
ATK: Final = 5
COST: Final = 6
GAIN: Final = 7
HIT: Final = 8
HP: Final = 9
# Support entry slots.
S_INST: Final = 0
S_OPEN: Final = 1
S_HP: Final = 2
S_SEQ: Final = 3
S_TURN: Final = 4
ZONES: Final = ("lp", "stamina", "hand", "gauge", "dust", "damage", "helper")
"""The list zones of a seat (attack and support fields are lists of entries); ``clone`` copies
each by name."""
PHASES: Final = ("mulligan", "draw", "pre", "fb", "act", "pay", "bonus", "over")


def _mod(name: str) -> ModuleType:
    """A rules module of this package, imported on first use (they import this one) and then
    looked up in a dictionary: the contract's methods call it at every step."""
    module = _MODULES.get(name)
    if module is None:
        module = _MODULES[name] = importlib.import_module(f"kessen.games.maken.{name}")
    return module


_MODULES: Final[dict[str, ModuleType]] = {}


class AbilityInfo:
    """An ability's fields as read by the rules at every step: a plain class of this compiled
    module rather than the validated data model (whose attributes cost several times as much
    to read from compiled code)."""

    __slots__ = ("cond", "effect", "n", "stat", "tag", "timing")

    def __init__(self, ab: Ability) -> None:
        self.timing: Final[str] = ab.timing
        self.cond: Final[str | None] = ab.cond
        self.tag: Final[str | None] = ab.tag
        self.effect: Final[str] = ab.effect
        self.stat: Final[str | None] = ab.stat
        self.n: Final[int] = ab.n


class CardInfo:
    """A card's fields as read by the rules at every step (see :class:`AbilityInfo`); the card
    itself is ``card``."""

    __slots__ = (
        "abilities",
        "ambush",
        "card",
        "character",
        "cost",
        "data",
        "duration",
        "id",
        "kind",
        "name_ja",
        "no_fb",
        "rv_ok",
        "rv_only",
        "slug",
        "tags",
    )

    def __init__(self, card: Card) -> None:
        self.card: Final[Card] = card
        self.id: Final[str] = card.id
        self.slug: Final[str] = card.slug
        self.kind: Final[str] = card.kind
        self.character: Final[str] = card.character
        self.name_ja: Final[str] = card.name_ja
        self.cost: Final[int] = card.cost
        self.data: Final[tuple[int, ...]] = card.data
        self.duration: Final[str | None] = card.duration
        self.tags: Final[tuple[str, ...]] = card.tags
        self.abilities: Final[tuple[AbilityInfo, ...]] = tuple(
            AbilityInfo(ab) for ab in card.abilities
        )
        labels = card.labels
        self.no_fb: Final[bool] = "no-fb" in labels
        self.rv_only: Final[bool] = "rv-only" in labels
        self.rv_ok: Final[bool] = "rv-ok" in labels
        self.ambush: Final[bool] = "ambush" in labels


_INFOS: Final[dict[MakenPool, dict[str, CardInfo]]] = {}


def pool_info(pool: MakenPool) -> dict[str, CardInfo]:
    """The :class:`CardInfo` of every card of ``pool`` by id (made once per pool)."""
    found = _INFOS.get(pool)
    if found is None:
        if len(_INFOS) > 64:
            _INFOS.clear()
        found = _INFOS[pool] = {cid: CardInfo(card) for cid, card in pool.card.items()}
    return found


class MakenState(GameState):
    """One game of Project Maken (two players)."""

    ruleset: ClassVar[str] = "maken"
    __slots__ = (
        "actor",
        "bet",
        "cards",
        "chars",
        "config",
        "damage",
        "defenceless_until",
        "downed_last",
        "dust",
        "field",
        "gauge",
        "guarding",
        "hand",
        "helper",
        "judge",
        "legal",
        "log",
        "lp",
        "mulled",
        "open_seq",
        "phase",
        "plans",
        "plans_for",
        "pool",
        "prompt_id",
        "result",
        "rng",
        "sit",
        "stamina",
        "support",
        "tp",
        "turn",
    )

    def __init__(self, config: Mapping[str, Any] | None = None, seed: int = 0) -> None:
        """A new game of ``config`` from ``seed``; without a config, a blank state whose every
        field the caller sets (:meth:`clone`, :meth:`from_json`, the search's worlds)."""
        # The plans of the bets among the cached legal answers, valid while ``plans_for`` is
        # ``legal`` (``rules.decide`` sets the three; anything else that sets ``legal`` leaves
        # them stale and ``apply`` plans the bet again).
        self.plans: dict[Action, BetPlan] | None = None
        self.plans_for: list[Action] | None = None
        if config is None:
            return
        self.config: Json = dict(config)
        cfg = _checked(self.config)
        _remember(self.config, cfg)
        self.pool: MakenPool = cfg.pool
        self.rng = Rng(seed)
        self.cards: list[str] = []
        self.chars: list[str] = ["", ""]
        self.turn = 0
        self.tp = 0
        self.phase = "mulligan"
        self.prompt_id = 0
        self.mulled: list[int] = [-1, -1]
        self.lp: list[list[int]] = [[], []]
        self.stamina: list[list[int]] = [[], []]
        self.hand: list[list[int]] = [[], []]
        self.gauge: list[list[int]] = [[], []]
        self.dust: list[list[int]] = [[], []]
        self.damage: list[list[int]] = [[], []]
        self.helper: list[list[int]] = [[], []]
        self.field: list[list[list[int]]] = [[], []]
        self.support: list[list[list[int]]] = [[], []]
        self.open_seq = 0
        self.defenceless_until = [-1, -1]
        self.downed_last = -1
        self.sit = "none"
        self.guarding = -1
        self.actor = -1
        self.bet: Json | None = None
        self.judge: Json | None = None
        self.result: tuple[int | None, str] | None = None
        self.log: list[Event] = []
        self.legal: list[Action] | None = None

    # -- small helpers used by every rules module -------------------------------------------

    @property
    def cfg(self) -> Config:
        """The parsed config (cached per config dict)."""
        return _parsed(self.config)

    def card(self, inst: int) -> Card:
        """The card of an instance (of the game's pool: its card set's, or the shipped one)."""
        return self.pool.card[self.cards[inst]]

    def info(self, inst: int) -> CardInfo:
        """The :class:`CardInfo` of an instance's card (what the rules read at every step)."""
        return pool_info(self.pool)[self.cards[inst]]

    def owner(self, inst: int) -> int:
        """The seat that owns an instance."""
        return inst // 50

    def defenceless(self, seat: int) -> bool:
        """無防備: only a 非TP, through the turn after its down, unless an RV ended it (§7.7)."""
        return seat != self.tp and self.defenceless_until[seat] >= self.turn

    def total(self, seat: int) -> int:
        """攻撃値合計: every card of the seat's attack field, face-down ones included."""
        return sum(e[ATK] for e in self.field[seat])

    def top(self, seat: int) -> list[int] | None:
        """The top entry of the seat's attack field (always face-up), or ``None``."""
        return self.field[seat][-1] if self.field[seat] else None

    def emit(
        self,
        kind: str,
        public: Json,
        private_to: int = -1,
        private: Json | None = None,
        reveals: int = -1,
    ) -> None:
        """Append a log event."""
        self.log.append(Event(kind, public, private_to, private, reveals))

    # -- the contract -----------------------------------------------------------------------

    @property
    def pending(self) -> Pending | None:
        """Who decides what now."""
        if self.result is not None:
            return None
        return Pending(decider(self), self.phase, self.prompt_id)

    @property
    def outcome(self) -> Outcome | None:
        """The result once the game is over."""
        return None if self.result is None else Outcome(*self.result)

    def legal_actions(self) -> list[Action]:
        """The legal answers to the pending prompt, in a fixed order.

        They are computed once per decision and cached (``apply`` checks against the cache);
        the caller gets its own copy, free to change."""
        if self.result is not None:
            return []
        legal = self.legal
        if legal is None:
            legal = _mod("rules").decide(self)
        return legal[:]

    def apply(self, action: Action) -> None:
        """Apply a legal action and run on to the next decision."""
        _mod("flow").apply(self, action)

    def view(self, viewer: Viewer, lang: str = "ja") -> Json:
        """The board and log as ``viewer`` may see them (§10)."""
        return _mod("view").view(self, viewer, lang, everything=False)  # type: ignore[no-any-return]

    def decision_view(self, seat: int) -> Json:
        """The seat's view without the aids drawn for people (see ``GameState``)."""
        return _mod("view").view(self, seat, "ja", everything=False, aids=False)  # type: ignore[no-any-return]

    def view_all(self, lang: str = "ja") -> Json:
        """Everything (finished games, all-seeing spectators)."""
        return _mod("view").view(self, None, lang, everything=True)  # type: ignore[no-any-return]

    def log_events(self) -> list[Event]:
        """The raw log."""
        return self.log

    def clone(self) -> Self:
        """An independent copy (lists copied; the card list, the config and the cached legal
        answers, never changed in place, shared)."""
        new = cast(Self, MakenState()) if type(self) is MakenState else type(self)()
        new.config = self.config
        new.pool = self.pool
        new.rng = self.rng.clone()
        new.cards = self.cards
        new.chars = self.chars[:]
        new.turn = self.turn
        new.tp = self.tp
        new.phase = self.phase
        new.prompt_id = self.prompt_id
        new.open_seq = self.open_seq
        new.downed_last = self.downed_last
        new.sit = self.sit
        new.guarding = self.guarding
        new.actor = self.actor
        new.result = self.result
        new.mulled = self.mulled[:]
        new.lp = [self.lp[0][:], self.lp[1][:]]
        new.stamina = [self.stamina[0][:], self.stamina[1][:]]
        new.hand = [self.hand[0][:], self.hand[1][:]]
        new.gauge = [self.gauge[0][:], self.gauge[1][:]]
        new.dust = [self.dust[0][:], self.dust[1][:]]
        new.damage = [self.damage[0][:], self.damage[1][:]]
        new.helper = [self.helper[0][:], self.helper[1][:]]
        field, support = self.field, self.support
        new.field = [[e[:] for e in field[0]], [e[:] for e in field[1]]]
        new.support = [[e[:] for e in support[0]], [e[:] for e in support[1]]]
        new.defenceless_until = self.defenceless_until[:]
        new.bet = None if self.bet is None else _copy(self.bet)
        new.judge = None if self.judge is None else _copy(self.judge)
        new.log = self.log[:]
        new.legal = self.legal
        new.plans = self.plans
        new.plans_for = self.plans_for
        return new

    def to_json(self) -> Json:
        """The whole state as JSON data (a copy: the caller may change it)."""
        copied: Json = _copy(self._data())
        return copied

    def state_hash(self) -> str:
        """The digest of :meth:`to_json` (the same text), without copying the state first."""
        return json_digest(self._data())

    def _data(self) -> Json:
        """The JSON form, sharing the state's lists and dicts (read it, do not keep it)."""
        out: Json = {
            "config": self.config,
            "rng": self.rng.state,
            "cards": self.cards,
            "chars": self.chars,
            "turn": self.turn,
            "tp": self.tp,
            "phase": self.phase,
            "prompt_id": self.prompt_id,
            "mulled": self.mulled,
            "field": self.field,
            "support": self.support,
            "open_seq": self.open_seq,
            "defenceless_until": self.defenceless_until,
            "downed_last": self.downed_last,
            "sit": self.sit,
            "guarding": self.guarding,
            "actor": self.actor,
            "bet": self.bet,
            "judge": self.judge,
            "result": None if self.result is None else list(self.result),
            "log": [e.to_json() for e in self.log],
        }
        for name in ZONES:
            out[name] = getattr(self, name)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a state from :meth:`to_json` output."""
        new = cls()
        new.config = dict(data["config"])
        new.pool = config_pool(new.config)
        new.rng = Rng(data["rng"])
        new.cards = list(data["cards"])
        new.chars = list(data["chars"])
        for name in (
            "turn",
            "tp",
            "phase",
            "prompt_id",
            "open_seq",
            "downed_last",
            "sit",
            "guarding",
            "actor",
        ):
            setattr(new, name, data[name])
        new.mulled = list(data["mulled"])
        for name in ZONES:
            setattr(new, name, [list(z) for z in data[name]])
        new.field = [[list(e) for e in side] for side in data["field"]]
        new.support = [[list(e) for e in side] for side in data["support"]]
        new.defenceless_until = list(data["defenceless_until"])
        new.bet = _copy(data["bet"])
        new.judge = _copy(data["judge"])
        result = data["result"]
        new.result = None if result is None else (result[0], result[1])
        new.log = [Event.from_json(e) for e in data["log"]]
        new.legal = None
        return new

    def audit(self) -> None:
        """Every instance is in exactly one place; zone sizes keep their limits."""
        seen: list[int] = []
        for s in (0, 1):
            for name in ZONES:
                zone = getattr(self, name)[s]
                seen += zone
                if any(self.owner(i) != s for i in zone):
                    raise AssertionError(f"seat {s}'s {name} holds another seat's card")
            seen += [e[INST] for e in self.field[s]] + [e[S_INST] for e in self.support[s]]
            if any(self.owner(e[INST]) != s for e in self.field[s]):
                raise AssertionError(f"seat {s}'s attack field holds another seat's card")
            if len(self.helper[s]) > 1:
                raise AssertionError(f"seat {s}'s helper field holds {len(self.helper[s])} cards")
            cap = self.cfg.support_cap
            if cap is not None and len(self.support[s]) > cap:
                raise AssertionError(f"seat {s}'s support field holds more than {cap} cards")
            if len(self.lp[s]) > 3:
                raise AssertionError(f"seat {s} has {len(self.lp[s])} LP cards")
            extras = set(self.bet["extras"]) if self.bet is not None else set()
            up = [
                self.cards[e[INST]] for e in self.field[s] if not e[DOWN] and e[INST] not in extras
            ]
            if len(set(up)) != len(up) or (self.field[s] and self.field[s][-1][DOWN]):
                raise AssertionError(f"seat {s}'s attack field breaks §8.6 (names or top)")
        if sorted(seen) != list(range(len(self.cards))):
            raise AssertionError("card conservation broken: an instance is lost or doubled")

    def resample_hidden(self, seat: int, seed: int) -> Self:
        """A copy with everything hidden from ``seat`` redealt (see :mod:`.resample`)."""
        return _mod("resample").resample(self, seat, seed)  # type: ignore[no-any-return]

    def known_cards(self, seat: int) -> dict[int, str]:
        """The cards whose identity ``view(seat)`` shows, by place (see :mod:`.knowledge`)."""
        return _mod("knowledge").known_cards(self, seat)  # type: ignore[no-any-return]


def decider(state: MakenState) -> int:
    """The seat the pending prompt asks."""
    phase = state.phase
    if phase == "mulligan":
        return state.tp if state.mulled[state.tp] < 0 else 1 - state.tp
    if phase in ("draw", "pre", "fb"):
        return state.tp
    if phase == "pay":
        assert state.bet is not None
        return int(state.bet["seat"])
    if phase == "bonus":
        assert state.judge is not None
        return int(state.judge["hitter"])
    return state.actor


def _copy(value: Any) -> Any:
    """A deep copy of plain JSON-like data (lists, dicts, scalars)."""
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


_CONFIGS: Final[dict[int, tuple[Json, Config]]] = {}


def _parsed(config: Json) -> Config:
    hit = _CONFIGS.get(id(config))
    if hit is not None and hit[0] is config:
        return hit[1]
    parsed = parse_config(config)
    _remember(config, parsed)
    return parsed


def _remember(config: Json, parsed: Config) -> None:
    """Keep ``parsed`` as :attr:`MakenState.cfg` of the states holding this ``config`` dict."""
    if len(_CONFIGS) > 256:
        _CONFIGS.clear()
    _CONFIGS[id(config)] = (config, parsed)


class _Unkeyed(Exception):
    """A config holding a value other than plain JSON data (see :func:`_key`)."""


def _key(value: object) -> object:
    """A hashable value equal for two JSON values exactly when they are the same data of the
    same types (``true`` is not ``1``, ``1.0`` not ``1``, key order kept)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or kind is float or value is None:
        return (kind, value)
    if kind is list or kind is tuple:
        assert isinstance(value, list | tuple)
        return (kind, tuple([_key(v) for v in value]))
    if kind is dict:
        assert isinstance(value, dict)
        return (kind, tuple([(_key(k), _key(v)) for k, v in value.items()]))
    raise _Unkeyed


_CHECKED: Final[dict[object, Config]] = {}


def _checked(config: Json) -> Config:
    """``parse_config(config)``, remembered by the config's data: a new game checks its config
    and its decks once per distinct config, not once per game. A config naming a card set is
    checked every time (whether the set may still be played can change)."""
    if "card_set" in config:
        return parse_config(config)
    try:
        key = _key(config)
    except _Unkeyed:
        return parse_config(config)
    found = _CHECKED.get(key)
    if found is None:
        found = parse_config(config)
        if len(_CHECKED) > 256:
            _CHECKED.clear()
        _CHECKED[key] = found
    return found

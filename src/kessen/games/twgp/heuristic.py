"""A rule-based TWGP COM player that decides from its own view and the legal actions only.

:class:`HeuristicPlayer` never sees the game state. Its plan is simple and greedy: build with
the tens and a king as vitals and a low-unit starting hand; keep the hand filled from the charge
grid; put units on the board (face up, so they block directs); grow big units by power drive;
arm the strongest unit; direct whenever the opponent has no ACTIVE unit; assault only when the
attacker is strictly stronger (a mutual kill is declined); charge-boost a stronger target when
the downloads can reach it. Answering an attack it interrupts every direct it can, counter-
drives or arms the target when that wins or ties, evades by power drive when the target would
fall, and pays surge when its target will win.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.twgp.cards import by_slug
from kessen.games.twgp.reading import Reading

DONE = Action.of("done")
BATTLE = Action.of("battle")
END = Action.of("end")
ACCEPT = Action.of("accept")
KEEP = Action.of("keep-weapons")


def _base(slug: object) -> int:
    return by_slug(str(slug)).base or 0


class HeuristicPlayer:
    """A greedy player; ``seed`` varies its build and breaks ties."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)
        self._plan: dict[str, list[str]] | None = None

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        """One of ``legal``, decided from ``view``."""
        r = Reading(view, legal)
        handler = _HANDLERS.get(r.prompt)
        choice = handler(self, r) if handler is not None else None
        if choice is None or choice not in legal:
            return _fallback(legal)
        return choice

    # --- building ------------------------------------------------------------------------

    def _build(self, r: Reading) -> Action | None:
        stage = r.context["stage"]
        fresh = all(v["face"] == "empty" for v in r.mine["vitals"])
        if self._plan is None or (stage == "vitals" and fresh):
            self._plan = self._make_plan([c["slug"] for c in r.mine["pool"]["cards"]])
        key = {"vitals": "vitals", "aside": "aside", "hand": "hand"}[stage]
        for name in self._plan[key]:
            action = Action.of({"vitals": "vital"}.get(key, key), name)
            if r.has(action):
                return action
        return DONE

    def _make_plan(self, pool: list[str]) -> dict[str, list[str]]:
        units = sorted((c for c in pool if by_slug(c).kind == "unit"), key=_base)
        weapons = [c for c in pool if by_slug(c).kind == "weapon"]
        self._random.shuffle(weapons)
        tens = [c for c in units if _base(c) == 10]
        vitals = (tens + weapons)[:3]
        rest = [c for c in units if c not in vitals]
        aside_count = 4 if any(_base(c) == 0 for c in pool) else 3
        aside = sorted(rest, key=lambda c: -_base(c))[:aside_count]
        lows = [c for c in rest if _base(c) <= 3 and c not in aside]
        self._random.shuffle(lows)
        mids = [c for c in rest if 4 <= _base(c) <= 6 and c not in aside]
        self._random.shuffle(mids)
        free_weapons = [w for w in weapons if w not in vitals]
        hand = lows[:3] + mids[:2] + free_weapons[:1]
        return {"vitals": vitals, "aside": aside, "hand": hand}

    # --- the turn player's windows -------------------------------------------------------

    def _build_window(self, r: Reading) -> Action | None:
        return (
            _grid_blast(r)
            or _declare_gb(r)
            or _reload(r)
            or _first(r.of("setup"))
            or _reactive(r)
            or _charge_drive(r)
            or _power_drive(r)
            or _attach(r)
            or BATTLE
        )

    def _battle_window(self, r: Reading) -> Action | None:
        return (
            _grid_blast(r)
            or _direct(r)
            or _assault(r)
            or _boost(r)
            or _charge_drive(r)
            or _power_drive(r)
            or _attach(r)
            or END
        )

    # --- answering -----------------------------------------------------------------------

    def _response(self, r: Reading) -> Action | None:
        attack = r.attack()
        assert attack is not None
        if attack["type"] == "direct" and attack["interrupter"] is None:
            return _interrupt(r) or ACCEPT
        target = attack["target"]
        a = r.power(r.theirs, attack["attacker"]) + (
            attack["downloads"] if attack["type"] == "boost" else 0
        )
        d = r.power(r.mine, target)
        blast = _grid_blast(r, attacker=attack["attacker"])
        if blast is not None:
            return blast
        if attack["type"] != "boost":
            counter = _best_counter(r, a, d)
            if counter is not None:
                return counter
        if d <= a:
            weapons = r.of("attach")
            needed = a - d + (1 if attack["type"] == "boost" else 0)
            mine = [w for w in weapons if int(w.args[1]) == target]
            if mine and len({w.args[0] for w in mine}) >= max(needed, 1):
                return mine[0]
            evade = _evade(r, target)
            if evade is not None:
                return evade
        elif r.of("surge"):
            return max(r.of("surge"), key=lambda x: int(x.args[0]))
        return ACCEPT

    def _damage(self, r: Reading) -> Action | None:
        finished = set(r.context.get("finished", []))
        steps: list[tuple[str, Callable[[Reading], Action | None]]] = [
            ("reactive", _reactive),
            ("setup", lambda rr: _first(rr.of("setup"))),
            ("rebuild", lambda rr: _charge_drive(rr, always=True) or _attach(rr)),
            ("full_charge", lambda rr: _last(rr.of("full-charge"))),
        ]
        for step, pick in steps:
            choice = None if step in finished else pick(r)
            if choice is not None:
                return choice
        return DONE

    def _vital(self, r: Reading) -> Action | None:
        return _best_rank(r, r.of("flip"))

    def _effect(self, r: Reading) -> Action | None:
        return _best_rank(r, r.of("effect"))


# --- helpers -------------------------------------------------------------------------------


def _first(actions: list[Action]) -> Action | None:
    return actions[0] if actions else None


def _last(actions: list[Action]) -> Action | None:
    return actions[-1] if actions else None


def _fallback(legal: Sequence[Action]) -> Action:
    for closing in (ACCEPT, DONE, END, BATTLE, KEEP):
        if closing in legal:
            return closing
    return legal[0]


def _reactive(r: Reading) -> Action | None:
    for action in r.of("reactive"):
        stack = r.mine["battle"][int(action.args[0]) - 1]
        if stack is not None and stack["pose"] == "save":
            return action
    return None


def _charge_drive(r: Reading, always: bool = False) -> Action | None:
    drives = r.of("charge-drive")
    if not drives:
        return None
    if not always and len(r.stacks(r.mine)) >= 4:
        return None
    return max(drives, key=lambda a: (_base(a.args[0]), -int(a.args[1])))


def _power_drive(r: Reading) -> Action | None:
    best: tuple[int, int] | None = None
    choice: Action | None = None
    top = max((r.power(r.mine, i) for i, _ in r.stacks(r.mine)), default=0)
    for action in r.of("power-drive"):
        core = int(action.args[0])
        materials = len(action.args) - 2
        stack = r.mine["battle"][core - 1]
        new_pow = _base(action.args[1]) + len(stack["weapons"]) if stack else 0
        score = (new_pow, -materials)
        if new_pow > top and (best is None or score > best):
            best, choice = score, action
    return choice


def _attach(r: Reading) -> Action | None:
    attaches = r.of("attach")
    if not attaches:
        return None
    return max(attaches, key=lambda a: (r.power(r.mine, int(a.args[1])), -int(a.args[1])))


def _grid_blast(r: Reading, attacker: int | None = None) -> Action | None:
    for action in r.of("grid-blast"):
        g = r.power(r.mine, int(action.args[0]))
        victims = [i for i, s in r.stacks(r.theirs) if s["pow"] is None or s["pow"] <= g]
        if attacker is not None and attacker in victims:
            return action
        if attacker is None and (victims or sum(1 for c in r.theirs["charge"] if c) >= 3):
            return action
    return None


def _declare_gb(r: Reading) -> Action | None:
    declares = r.of("declare-gb")
    if not declares or len(r.active(r.mine)) < 2:
        return None
    best = max(declares, key=lambda a: r.power(r.mine, int(a.args[0])))
    g = r.power(r.mine, int(best.args[0]))
    victims = [i for i, s in r.stacks(r.theirs) if s["pow"] is not None and s["pow"] <= g]
    return best if len(victims) >= 2 else None


def _reload(r: Reading) -> Action | None:
    starts = r.of("reload-bottom")
    if not starts or len(r.hand()) < 6:
        return None
    if any(_base(c["slug"]) <= 3 for c in r.hand_units()):
        return None
    units = [a for a in starts if by_slug(str(a.args[0])).kind == "unit"]
    return max(units, key=lambda a: _base(a.args[0])) if units else None


def _reload_frame(self: HeuristicPlayer, r: Reading) -> Action | None:
    if r.context.get("put", 0) < 2:
        bottoms = [a for a in r.of("reload-bottom") if by_slug(str(a.args[0])).kind == "unit"]
        if bottoms:
            return max(bottoms, key=lambda a: _base(a.args[0]))
    takes = r.of("reload-take")
    return takes[1] if len(takes) > 1 else _first(takes)


def _direct(r: Reading) -> Action | None:
    directs = r.of("direct")
    if not directs:
        return None
    return max(directs, key=lambda a: r.power(r.mine, int(a.args[0])))


def _assault(r: Reading) -> Action | None:
    best: tuple[int, int, int] | None = None
    choice: Action | None = None
    for action in r.of("assault", "surge-assault"):
        a = r.power(r.mine, int(action.args[0]))
        t = int(action.args[1])
        d = r.power(r.theirs, t)
        if a <= d:
            continue
        stack = r.theirs["battle"][t - 1]
        value = d + len(stack["frames"]) + (3 if stack["pose"] == "active" else 0)
        surge = int(action.args[2]) if action.verb == "surge-assault" else 0
        score = (surge, value, -a)
        if best is None or score > best:
            best, choice = score, action
    return choice


def _boost(r: Reading) -> Action | None:
    best: Action | None = None
    for action in r.of("boost"):
        a = r.power(r.mine, int(action.args[0]))
        t = r.power(r.theirs, int(action.args[1]))
        d = int(action.args[2])
        if t <= a + d and d <= t - a + 2 and (best is None or d > int(best.args[2])):
            best = action
    return best


def _interrupt(r: Reading) -> Action | None:
    options = r.of("unstealth") + r.of("charge-drive")
    if not options:
        return None

    def strength(a: Action) -> int:
        if a.verb == "unstealth":
            return r.power(r.mine, int(a.args[0]))
        return _base(a.args[0])

    return max(options, key=strength)


def _best_counter(r: Reading, a: int, d: int) -> Action | None:
    counters = r.of("counter-drive")
    if not counters:
        return None
    attack = r.attack()
    target = attack["target"] if attack is not None else 0
    weapons = len(r.mine["battle"][target - 1]["weapons"]) if target else 0

    def gain(x: Action) -> tuple[int, int]:
        return (_base(x.args[0]) + weapons, -(len(x.args) - 1))

    best = max(counters, key=gain)
    return best if gain(best)[0] > a else None


def _evade(r: Reading, target: int) -> Action | None:
    evasions = [a for a in r.of("power-drive") if target in [int(x) for x in a.args[2:]]]
    if not evasions:
        return None
    return max(evasions, key=lambda a: (_base(a.args[1]), -len(a.args)))


def _best_rank(r: Reading, actions: list[Action]) -> Action | None:
    if not actions:
        return None
    if not r.config("vitalEffect"):
        return actions[0]
    vitals = r.mine["vitals"]

    def score(action: Action) -> int:
        card = vitals[int(action.args[0]) - 1]
        rank = by_slug(card["slug"]).rank if "slug" in card else -1
        theirs = sum(1 for _, s in r.stacks(r.theirs) if s["base"] == rank)
        mine = sum(1 for _, s in r.stacks(r.mine) if s["base"] == rank)
        return theirs - mine

    return max(actions, key=score)


def _order(r: Reading) -> Action | None:
    """The order of a discarded stack (§2.3): without ``variantB`` the cards never come back,
    so the listed order (unit, frames, weapons) is kept. With it the storage comes back as the
    pile, so the surge gets first the cards least wanted back: big units before mid ones, then
    weapons, and the charge-drivable units (base ≤03) last."""
    options = r.of("log-out")
    if not options or not r.config("variantB"):
        return _first(options)

    def worth_back(action: Action) -> tuple[int, int]:
        cdef = by_slug(str(action.args[0]))
        if cdef.kind == "weapon":
            return (1, 0)
        base = cdef.base or 0
        return (2, base) if base <= 3 else (0, -base)

    return min(options, key=worth_back)


def _recharge(r: Reading) -> Action | None:
    """The recharge of the unit with the highest base (no lambda in a lambda: mypyc)."""
    return max(r.of("recharge"), key=lambda a: _base(a.args[0]), default=None)


Handler = Callable[[HeuristicPlayer, Reading], Action | None]

_HANDLERS: dict[str, Handler] = {
    "build": HeuristicPlayer._build,
    "setup": lambda self, r: _first(r.of("setup")) or DONE,
    "build_window": HeuristicPlayer._build_window,
    "battle_window": HeuristicPlayer._battle_window,
    "response": HeuristicPlayer._response,
    "damage": HeuristicPlayer._damage,
    "vital": HeuristicPlayer._vital,
    "effect": HeuristicPlayer._effect,
    "cache": lambda self, r: KEEP,
    "order": lambda self, r: _order(r),
    "recharge": lambda self, r: _recharge(r),
    "reload": _reload_frame,
    "damage_reload": lambda self, r: _first(r.of("reload-take")),
}

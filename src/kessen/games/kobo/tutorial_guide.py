"""The coach of Kōbō's guided match, in Python: which choice each coach mark points at.

The browser's coach marks (``web/static/games/kobo-tutorial.js``, function ``guide``) choose
the option they point at from the player's own view with these same rules; this module is
their mirror for the seed search (``bench/tutorial_deal.py``) and the tests, which play the
guided match exactly as a player who follows the marks does. Keep the two in step.

The rules, by prompt: build the board characters first (then deploy cards, then traps), each
character in the lowest free slot, every deploy card used on the strongest character, every
trap set in the lowest free slot; take the tactics of :data:`TACTICS_ORDER` first; attack with
the strongest character the strongest opposing character it beats (pass when none); in a
chain of one's own attack, answer an opposing link with a buff of :data:`BUFFS` while the
preview says the attack would not win, else pass; aim one's own cards at one's attacker, the
others at the attack's target; take the first choice of anything else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from kessen.engine.contract import Json
from kessen.games.kobo.schema import load_pool

TACTICS_ORDER: Final = (
    "total-war",
    "power-surge",
    "last-stand",
    "swift-step",
    "weaken",
    "hinder",
    "counter-spell",
    "target-change",
    "ceasefire",
    "mass-jamming",
)
"""The tactics the coach has the player take first, in this order."""
BUFFS: Final = ("total-war", "power-surge", "last-stand", "swift-step")
"""The tactics the coach plays to win its own attack's chain, in this order."""
STANDBY_ORDER: Final = ("character", "deploy", "trap")
"""The order in which the coach processes the main hand: characters, deploy cards, traps."""


def _kind(slug: str) -> str:
    return load_pool().get(slug).kind.value


def _chars(view: Json, seat: int) -> dict[int, int]:
    """Slot (1-5) → current Lv of ``seat``'s characters."""
    battle = view["players"][seat]["battle"]
    return {i + 1: int(c["lv"]) for i, c in enumerate(battle) if c is not None}


def _strongest(lvs: dict[int, int], slots: list[int]) -> int | None:
    """The slot of ``slots`` with the highest Lv (the lowest slot among equals)."""
    known = [s for s in slots if s in lvs]
    return min(known, key=lambda s: (-lvs[s], s)) if known else None


def _numbers(legal: list[str], verb: str) -> list[int]:
    return [int(a.split()[1]) for a in legal if a.startswith(verb + " ")]


def _standby(view: Json, me: int, legal: list[str]) -> str | None:
    picks = [a for a in legal if a.startswith("pick ")]
    for kind in STANDBY_ORDER:
        for action in picks:
            if _kind(action.split()[1]) == kind:
                return action
    return None


def _deploy_target(view: Json, me: int, legal: list[str]) -> str | None:
    side = (view["pending"].get("context") or {}).get("side", me)
    slot = _strongest(_chars(view, int(side)), _numbers(legal, "slot"))
    return None if slot is None else f"slot {slot}"


def _tactics(view: Json, me: int, legal: list[str]) -> str | None:
    return next((f"take {s}" for s in TACTICS_ORDER if f"take {s}" in legal), None)


def _turn(view: Json, me: int, legal: list[str]) -> str | None:
    mine, theirs = _chars(view, me), _chars(view, 1 - me)
    slot = _strongest(mine, _numbers(legal, "attack"))
    if slot is not None and any(lv < mine[slot] for lv in theirs.values()):
        return f"attack {slot}"
    return "pass" if "pass" in legal else None


def _declare(view: Json, me: int, legal: list[str]) -> str | None:
    total = int((view["pending"].get("context") or {}).get("total", 0))
    theirs = _chars(view, 1 - me)
    targets = _numbers(legal, "target")
    beaten = [s for s in targets if theirs.get(s, 99) < total]
    if beaten:
        return f"target {_strongest(theirs, beaten)}"
    weakest = min(targets, key=lambda s: (theirs.get(s, 99), s), default=None)
    return None if weakest is None else f"target {weakest}"


def _chain(view: Json, me: int, legal: list[str]) -> str | None:
    attack: dict[str, Any] = view.get("attack") or {}
    chain: list[Json] = view.get("chain") or []
    preview = (view.get("exchange") or {}).get("preview") or {}
    losing = preview.get("exact") and preview.get("outcome") != "attacker_wins"
    if attack.get("seat") == me and chain and chain[-1]["seat"] != me and losing:
        found = next((f"play {s}" for s in BUFFS if f"play {s}" in legal), None)
        if found is not None:
            return found
    return "pass" if "pass" in legal else None


def _target(view: Json, me: int, legal: list[str]) -> str | None:
    context = view["pending"].get("context") or {}
    side = int(context.get("side", me))
    attack: dict[str, Any] = view.get("attack") or {}
    slots = _numbers(legal, "slot")
    if attack:
        wanted = attack["attackers"] if side == attack.get("seat") else [attack.get("target")]
        for slot in wanted:
            if slot in slots:
                return f"slot {slot}"
    slot = _strongest(_chars(view, side), slots)
    return None if slot is None else f"slot {slot}"


_RULES: dict[str, Callable[[Json, int, list[str]], str | None]] = {
    "standby": _standby,
    "deploy": lambda view, me, legal: "use" if "use" in legal else None,
    "deploy_target": _deploy_target,
    "tactics": _tactics,
    "turn": _turn,
    "declare": _declare,
    "chain": _chain,
    "target": _target,
}


def guided_action(view: Json) -> str | None:
    """The action the coach marks point at in ``view`` (the viewer's own view, with its
    aids), or ``None`` when the viewer has nothing to decide."""
    pending = view.get("pending")
    me = view.get("viewer")
    if not pending or me is None or pending.get("seat") != me or not pending.get("legal"):
        return None
    legal: list[str] = list(pending["legal"])
    rule = _RULES.get(str(pending["prompt"]))
    choice = None if rule is None else rule(view, int(me), legal)
    return choice if choice in legal else legal[0]


@dataclass
class Playthrough:
    """A guided match played to its end by the coach (seat 0) and the tutorial COM (seat 1):
    the turn at which each lesson was reached, the player's prompts in order, the winner."""

    seed: int
    reached: dict[str, int] = field(default_factory=dict)
    """Lesson → the turn at which the view first showed it done."""
    order: list[str] = field(default_factory=list)
    """The lessons in the order they were reached."""
    moves: list[tuple[str, str]] = field(default_factory=list)
    """Every (prompt, action) of the player, in order."""
    first_player: int | None = None
    winner: int | None = None
    turns: int = 0
    retreated: list[int] = field(default_factory=list)
    """The seat of each character that retreated, in order."""

    @property
    def prompts(self) -> list[str]:
        """The player's prompts, in order."""
        return [prompt for prompt, _ in self.moves]


def play_guided(seed: int, max_steps: int = 2000) -> Playthrough:
    """Play the guided match of ``seed`` (the tutorial's config) as a player who presses what
    every coach mark points at, against the tutorial COM."""
    from kessen.engine import registry
    from kessen.engine.action import Action
    from kessen.games.kobo.tutorial import TutorialPlayer, lessons_reached, tutorial_config

    state = registry.get("kobo").new_game(tutorial_config(), seed)
    com = TutorialPlayer(seed)
    out = Playthrough(seed)
    for _ in range(max_steps):
        pending = state.pending
        if pending is None:
            break
        if pending.seat == 0:
            view = state.view(0)
            action = guided_action(view)
            assert action is not None
            out.moves.append((pending.prompt, action))
            state.apply(Action.parse(action))
        else:
            state.apply(com.choose(state.view(1), state.legal_actions()))
        view = state.view(0)
        if out.first_player is None and view.get("first_player") is not None:
            out.first_player = int(view["first_player"])
        for lesson in lessons_reached(view):
            if lesson not in out.reached:
                out.reached[lesson] = int(view["turn"])
                out.order.append(lesson)
    final = state.view(0)
    out.retreated = [int(e["seat"]) for e in final["log"] if e["kind"] == "retreat"]
    out.winner = final["match"]["winner"]
    out.turns = int(final["turn"])
    return out


UNTAUGHT: Final = frozenset({"nominate", "blind", "tie", "penalty", "surprise"})
"""Prompts the guided match does not teach: a deal that asks them of the player is refused."""


def deal_problems(run: Playthrough) -> list[str]:
    """Why the guided match ``run`` does not teach what it should (empty: it does): the player
    moves first and meets every lesson in order and wins; the attack, the chain and the
    retreat come in its first turn and the retreat is COM's character (the attack wins); the
    player never passes a turn nor meets a prompt the coach does not teach (:data:`UNTAUGHT`)."""
    from kessen.games.kobo.tutorial import LESSONS

    found: list[str] = []
    if run.first_player != 0:
        found.append("COM moves first")
    if run.order != list(LESSONS):
        found.append(f"lessons met: {run.order}")
    if run.winner != 0:
        found.append(f"winner: {run.winner}")
    if any(run.reached.get(lesson, 99) > 2 for lesson in ("attack", "chain", "retreat")):
        found.append(f"late lessons: {run.reached}")
    if run.retreated[:1] != [1]:
        found.append("the first retreat is not COM's")
    untaught = sorted(UNTAUGHT & set(run.prompts))
    if untaught:
        found.append(f"untaught prompts: {untaught}")
    if ("turn", "pass") in run.moves:
        found.append("the player passes a turn")
    return found

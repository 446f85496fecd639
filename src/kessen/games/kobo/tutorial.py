"""Kōbō's guided first match: its fixed deal, its lessons, and the gentle scripted COM.

The guided match (チュートリアル) is an ordinary match against COM that the server deals from
a fixed config and seed (:func:`tutorial_config`, :data:`TUTORIAL_SEED`, chosen by
``bench/tutorial_deal.py`` so that following the coach marks meets every lesson in order).
The browser's coach marks (``web/static/games/kobo-tutorial.js``) read each lesson off the
view; :func:`lessons_reached` is the same reading in Python, for the seed search and tests.

:class:`TutorialPlayer` is the COM of that match (level ``tutorial``). Like every COM it
decides from its own seat's view and the legal actions only. It follows a short script when
the script's move is legal: it takes 一斉妨害 and 足止め into its tactics hand, answers the
player's first attack with 一斉妨害 (link 1) and, once the player has answered (link 2), with
足止め (link 3), so that a chain of three forms. Otherwise it plays a weak honest game: it builds
its board as the rule-based COM does, never attacks and lets every other chain pass.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from kessen.engine.action import Action
from kessen.engine.contract import Json

TUTORIAL_LEVEL: Final = "tutorial"
"""The COM level of the guided match's scripted COM (the history names it チュートリアル)."""
TUTORIAL_DECKS: Final = ("vanguard", "swarm")
"""The starter decks of the guided match: the player's (先鋒突撃), then COM's (百鬼夜行)."""
TUTORIAL_CARD_DATA: Final = 3
"""The card data the deal was chosen with (pinned: new card data must not change the deal)."""
TUTORIAL_SEED: Final = 1294
"""The server's seed of the guided match, chosen by ``bench/tutorial_deal.py``."""
LESSONS: Final = ("standby", "attack", "chain", "retreat", "win")
"""The lessons of the guided match, in the order they are met."""
CHAIN_LINKS: Final = 3
"""The links of the chain the chain lesson shows."""
SCRIPT_TACTICS: Final = ("mass-jamming", "hinder")
"""The tactics COM takes first: its link 1 (一斉妨害) and its link 3 (足止め)."""


def tutorial_config() -> Json:
    """The config of the guided match: the two starter decks, one game, the pinned card data."""
    return {"decks": list(TUTORIAL_DECKS), "best_of": 1, "card_data": TUTORIAL_CARD_DATA}


def lessons_reached(view: Json) -> list[str]:
    """The lessons of :data:`LESSONS` the view of ``view["viewer"]`` shows done, in order.

    Each lesson counts once the one before it is done: ``standby`` when the viewer's standby
    has ended, ``attack`` when the viewer has declared an attack, ``chain`` when a chain has
    reached :data:`CHAIN_LINKS` links, ``retreat`` when a character has retreated after that,
    ``win`` when the match is over and the viewer won it. Everything read is public.
    """
    me = view.get("viewer")
    steps: list[Callable[[Json], bool]] = [
        lambda e: e["kind"] == "standby_end" and e.get("seat") == me,
        lambda e: e["kind"] == "declare" and e.get("seat") == me,
        lambda e: e["kind"] == "activate" and int(e.get("link", 0)) >= CHAIN_LINKS,
        lambda e: e["kind"] == "retreat",
    ]
    done: list[str] = []
    at = 0
    log: list[Json] = view.get("log") or []
    for lesson, test in zip(LESSONS, steps, strict=False):
        found = next((i for i in range(at, len(log)) if test(log[i])), None)
        if found is None:
            return done
        done.append(lesson)
        at = found + 1
    match = view.get("match") or {}
    if match.get("over") and match.get("winner") == me:
        done.append("win")
    return done


def script_done(view: Json) -> bool:
    """Whether a chain of :data:`CHAIN_LINKS` links has formed in this game (from its log)."""
    log: list[Json] = view.get("log") or []
    for entry in reversed(log):
        if entry["kind"] == "game_start":
            return False
        if entry["kind"] == "activate" and int(entry.get("link", 0)) >= CHAIN_LINKS:
            return True
    return False


class TutorialPlayer:
    """The gentle scripted COM of the guided match (see the module docstring).

    It decides from ``view`` and ``legal`` only, and holds nothing between decisions: the
    same view always gets the same answer.
    """

    name = TUTORIAL_LEVEL

    def __init__(self, seed: int = 0) -> None:
        from kessen.games.kobo.heuristic import HeuristicPlayer

        self.seed = seed
        self._honest = HeuristicPlayer(seed)

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        """The script's move when it applies and is legal, else the weak honest policy's."""
        if not legal:
            raise ValueError("no legal action to choose from")
        pending = view.get("pending") or {}
        prompt = str(pending.get("prompt", ""))
        choice: Action | None = None
        if prompt == "tactics":
            choice = self._tactics(view, legal)
        elif prompt == "turn":
            choice = Action.of("pass")  # gentle: it never attacks
        elif prompt == "chain":
            choice = self._chain(view, legal)
        elif prompt == "target":
            choice = self._target(view, legal)
        if choice is not None and choice in legal:
            return choice
        return self._honest.choose(view, legal)

    @staticmethod
    def _me(view: Json) -> int:
        return int(view["pending"]["seat"])

    def _tactics(self, view: Json, legal: Sequence[Action]) -> Action | None:
        """The script's tactics first (one copy each), then the rule-based COM's picks."""
        held = {
            str(c["slug"])
            for c in view["players"][self._me(view)]["tactics_hand"].get("cards") or []
        }
        for slug in SCRIPT_TACTICS:
            action = Action.of("take", slug)
            if slug not in held and action in legal:
                return action
        return None

    def _chain(self, view: Json, legal: Sequence[Action]) -> Action:
        """Link 1 and link 3 of the script while no chain of three has formed; else pass."""
        me = self._me(view)
        attack: dict[str, Any] = view.get("attack") or {}
        chain: list[Json] = view.get("chain") or []
        if script_done(view) or attack.get("seat") == me:
            return Action.of("pass")
        seats = [int(link["seat"]) for link in chain]
        if not seats:
            return Action.of("play", SCRIPT_TACTICS[0])
        if seats == [me, 1 - me]:
            return Action.of("play", SCRIPT_TACTICS[1])
        return Action.of("pass")

    def _target(self, view: Json, legal: Sequence[Action]) -> Action | None:
        """The script's 足止め goes to the attacker (the first attacking slot)."""
        context = view["pending"].get("context") or {}
        card = context.get("card") or {}
        attack: dict[str, Any] = view.get("attack") or {}
        attackers = attack.get("attackers") or []
        if card.get("slug") != SCRIPT_TACTICS[1] or not attackers:
            return None
        return Action.of("slot", int(attackers[0]))

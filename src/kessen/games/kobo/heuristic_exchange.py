"""The heuristic COM's simulation of an exchange: the chain and the attack result on a small field.

:class:`ExchangeSim` holds the characters' base Lv and temporary changes, the attack and the
chain's links (:class:`SimLink`); :meth:`ExchangeSim.finish` resolves them as the rules do (the
last link first, then the attack result and the sweep of characters at base Lv 0), and
:meth:`ExchangeSim.key` is the hashable key under which an outcome may be remembered.
:func:`_sim_from_view` reads the simulation from a view (:mod:`kessen.games.kobo.evaluate`
builds it from a state directly). :func:`card_def` finds a card of the match's pool by its
slug, for the simulation and for the player of :mod:`kessen.games.kobo.heuristic` alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

from kessen.engine.contract import Json
from kessen.games.kobo import heuristic_surprise as surprise_rules
from kessen.games.kobo.card_sets import active_set_pool
from kessen.games.kobo.cards import (
    CHANGE_TARGET,
    MODIFY_LV,
    NEGATE_ATTACK,
    NEGATE_LAST,
    RETREAT_IF_ZERO,
    SCOPE_ALL,
    SCOPE_CHOSEN,
    CardDef,
    named_seat,
)
from kessen.games.kobo.schema import CardPool, load_pool

BODY: Final = 2.0
"""What a character on the field is worth on top of its base Lv."""

Pos = tuple[int, ...]
"""A character's place: (seat, slot 1-5). Not ``tuple[int, int]``, which compiled code
(mypyc) keeps unboxed and boxes anew at every use as a dict key."""


def card_def(slug: str) -> CardDef:
    """The card called ``slug`` in the match's pool (its card set's, or the shipped one:
    :func:`~kessen.games.kobo.card_sets.active_pool`)."""
    pool = active_set_pool()
    return _shipped_def(slug) if pool is None else _card_def(pool, slug)


@cache
def _shipped_def(slug: str) -> CardDef:
    return load_pool().get(slug)


@cache
def _card_def(pool: CardPool, slug: str) -> CardDef:
    return pool.get(slug)


class SimKey:
    """An exchange simulation's key (:meth:`ExchangeSim.key`): the nested tuple, hashed once.
    The chain memory looks a key up many times, and a tuple hashes all it holds every time."""

    __slots__ = ("hashed", "value")

    def __init__(self, value: tuple[Any, ...]) -> None:
        self.value = value
        self.hashed = hash(value)

    def __hash__(self) -> int:
        return self.hashed

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimKey):
            return NotImplemented
        return self.hashed == other.hashed and self.value == other.value

    def __repr__(self) -> str:
        return f"SimKey({self.value!r})"


@dataclass(slots=True)
class SimLink:
    """One chain link as the simulation needs it."""

    card: CardDef
    seat: int
    chosen: Pos | None = None
    negates: int | None = None  # link number (1-based)
    negated: bool = False


@dataclass(slots=True)
class ExchangeSim:
    """The field and the attack, enough to resolve a chain and the attack result."""

    base: dict[Pos, int]
    temp: dict[Pos, int]
    attacker_seat: int
    attackers: list[Pos]
    target: Pos | None
    negated: bool = False
    links: list[SimLink] = field(default_factory=list)

    def copy(self) -> ExchangeSim:
        """An independent copy (the links are shared: resolving never changes them)."""
        return ExchangeSim(
            dict(self.base),
            dict(self.temp),
            self.attacker_seat,
            list(self.attackers),
            self.target,
            self.negated,
            list(self.links),
        )

    def side(self, link_seat: int, cdef: CardDef) -> int:
        """The seat whose battle area ``cdef`` names, seen from its controller."""
        assert cdef.target is not None
        return named_seat(cdef.target.side, link_seat, self.attacker_seat)

    def chars(self, seat: int) -> list[Pos]:
        """Positions of ``seat``'s characters, in slot order."""
        return sorted(p for p in self.base if p[0] == seat)

    def candidates(self, link_seat: int, cdef: CardDef) -> list[Pos]:
        """Whom ``cdef`` may choose."""
        chars = self.chars(self.side(link_seat, cdef))
        if cdef.has(CHANGE_TARGET):
            chars = [c for c in chars if c != self.target]
        return chars

    def finish(self) -> None:
        """Resolve every link (last first), the attack result and the base-Lv-0 sweep."""
        self.target, self.negated = _resolve(
            self.base,
            self.temp,
            self.attacker_seat,
            self.attackers,
            self.target,
            self.negated,
            self.links,
        )
        self.links = []

    def key(self) -> SimKey:
        """Everything the resolution reads, as a hashable value (equal keys, equal outcomes).

        Flat (the positions, then their Lv; five fields per link): few tuples to build."""
        base, temp = self.base, self.temp
        links: list[object] = []
        for k in self.links:
            links += (k.card.slug, k.seat, k.chosen, k.negates, k.negated)
        return SimKey(
            (
                tuple(base),
                tuple(base.values()),
                tuple(temp),
                tuple(temp.values()),
                self.attacker_seat,
                tuple(self.attackers),
                self.target,
                self.negated,
                tuple(links),
            )
        )

    def score(self, seat: int) -> float:
        """Material balance for ``seat``: its characters' worth minus the opponent's."""
        return _material(self.base, seat)


def _material(base: dict[Pos, int], seat: int) -> float:
    """Material balance for ``seat``: its characters' worth minus the opponent's."""
    total = 0.0
    for (owner, _), printed in base.items():
        worth = printed + BODY
        total += worth if owner == seat else -worth
    return total


def _resolve(
    base: dict[Pos, int],
    temp: dict[Pos, int],
    attacker_seat: int,
    attackers: list[Pos],
    target: Pos | None,
    attack_negated: bool,
    links: list[SimLink],
) -> tuple[Pos | None, bool]:
    """Resolve ``links`` (last first), the attack result and the base-Lv-0 sweep on ``base``
    and ``temp`` in place; return the attack's final target and whether it was negated.
    A result that leaves only one side with characters ends the game, so no sweep follows.

    One flat function (the simulation's inner loop): a link naming characters applies to its
    chosen one, all of a side, or the side's attackers or target, whoever is still there.
    """
    negated = [link.negated for link in links]
    for index in range(len(links) - 1, -1, -1):
        if negated[index]:
            continue
        link = links[index]
        cdef = link.card
        spec = cdef.target
        side = scope = None
        if spec is not None:
            side, scope = named_seat(spec.side, link.seat, attacker_seat), spec.scope
        for step in cdef.steps:
            verb = step.verb
            if verb is NEGATE_LAST:
                if link.negates is not None and 1 <= link.negates <= len(negated):
                    negated[link.negates - 1] = True
                continue
            if verb is NEGATE_ATTACK:
                attack_negated = True
                continue
            if spec is None:
                continue  # a step that names characters, on a card that names none
            affected: list[Pos]
            if scope is SCOPE_CHOSEN:
                chosen = link.chosen
                ok = chosen is not None and chosen in base and chosen[0] == side
                affected = [chosen] if ok and chosen is not None else []  # (narrows the type)
            elif scope is SCOPE_ALL:
                affected = sorted(p for p in base if p[0] == side)
            elif side == attacker_seat:
                affected = [a for a in attackers if a in base]
            else:
                affected = [target] if target is not None and target in base else []
            if verb is MODIFY_LV:
                amount = step.amount
                if cdef.permanent:
                    for pos in affected:
                        value = base[pos] + amount
                        base[pos] = value if value > 0 else 0
                else:
                    for pos in affected:
                        temp[pos] += amount
            elif verb is RETREAT_IF_ZERO:
                for pos in affected:
                    if base[pos] + temp[pos] <= 0:
                        del base[pos]
                        temp.pop(pos, None)
            elif verb is CHANGE_TARGET and affected:
                target = affected[0]
    standing = [a for a in attackers if a in base]
    if not attack_negated and standing and target is not None and target in base:
        attack = sum(max(0, base[a] + temp[a]) for a in standing)
        defence = max(0, base[target] + temp[target])
        if attack > defence:
            del base[target]
            temp.pop(target, None)
        elif defence > attack:
            for a in standing:
                base.pop(a, None)
                temp.pop(a, None)
        elif len(standing) == 1:
            base[standing[0]] = max(0, base[standing[0]] - 1)
            base[target] = max(0, base[target] - 1)
        else:
            base[target] = max(0, base[target] - 1)
            # The defender retreats the attacker it fears most.
            feared = max(standing, key=lambda a: (base[a], a))
            del base[feared]
            temp.pop(feared, None)
    sides = {owner for owner, _ in base}
    if len(sides) == 1:
        # The result emptied one side: the game ends before the sweep (kobo-rules.md §6).
        return target, attack_negated
    for pos in [p for p, b in base.items() if b <= 0]:
        del base[pos]
        temp.pop(pos, None)
    return target, attack_negated


def _sim_from_view(view: Json) -> ExchangeSim:
    """The simulation of the current exchange (or of the bare field when there is none)."""
    base: dict[Pos, int] = {}
    temp: dict[Pos, int] = {}
    for seat, player in enumerate(view["players"]):
        for i, char in enumerate(player["battle"]):
            if char is not None:
                pos = (seat, i + 1)
                base[pos] = int(char["base"])
                lv = int(char["lv"])
                temp[pos] = lv - base[pos] if lv > 0 else -base[pos]
    attack = view.get("attack")
    if not attack:
        return ExchangeSim(base, temp, 0, [], None)
    seat = int(attack["seat"])
    target = (1 - seat, int(attack["target"])) if attack.get("target") else None
    sim = ExchangeSim(
        base,
        temp,
        seat,
        [(seat, int(s)) for s in attack["attackers"]],
        target,
        bool(attack.get("negated")),
    )
    for link in view.get("chain", []):
        chosen: Pos | None = None
        tgt = link.get("target")
        if tgt and tgt.get("slot") is not None:
            chosen = (int(tgt["seat"]), int(tgt["slot"]))
        sim.links.append(
            SimLink(
                surprise_rules.link_def(view, link)
                if link.get("surprise")
                else card_def(link["slug"]),
                int(link["seat"]),
                chosen,
                link.get("negates"),
                bool(link.get("negated")),
            )
        )
    return sim

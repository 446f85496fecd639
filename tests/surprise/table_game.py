"""A two-player table built only from the kernel primitives, for the surprise-zone scenarios.

It has the concepts the scenarios need and Kōbō lacks (a stage, a bench and an energy zone with
placement states, an attack end step with partner attacks) and plays the surprise module's
rules through :mod:`kessen.engine.surprise`: Set/Clear windows, optional flips offered to the
owner, a resolution zone of instances, and the two rule processes at every check timing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from kessen.engine import surprise
from kessen.engine.rule_processes import RuleProcess, check_timing
from kessen.engine.triggers import (
    Ability,
    Ending,
    Face,
    Happening,
    Instance,
    Place,
    ResolutionZone,
    Trigger,
    triggered,
)
from kessen.engine.zones import Table, Visibility, ZoneSpec

KINDS = ("hand", "deck", "stage", "bench", "energy", "waiting", "surprise")
CARDS_PER_SEAT = 20


@dataclass
class Printed:
    """A card's abilities: triggers with an effect each (the effect may say it cannot act)."""

    abilities: list[tuple[Trigger, Callable[[TableGame, Instance], bool]]] = field(
        default_factory=list
    )


def zone(kind: str, seat: int) -> str:
    """The table's zone name of ``seat``'s zone of ``kind``."""
    return f"{kind}{seat}"


class TableGame:
    """The scenario table: seat 0 is P1 and goes first; cards 0-19 are P1's, 20-39 P2's."""

    def __init__(self, cancelled: surprise.Cancelled = surprise.Cancelled.RULE_PROCESS) -> None:
        owners = {c: c // CARDS_PER_SEAT for c in range(2 * CARDS_PER_SEAT)}
        self.table = Table(owners)
        for seat in (0, 1):
            for kind in KINDS:
                if kind == "surprise":
                    spec = surprise.zone_spec(seat, zone(kind, seat))
                else:
                    vis = {
                        "hand": Visibility.OWNER,
                        "deck": Visibility.NOBODY,
                    }.get(kind, Visibility.PUBLIC)
                    spec = ZoneSpec(zone(kind, seat), seat, vis, poses=kind in ("bench", "energy"))
                self.table.add_zone(spec)
        self.printed: dict[int, Printed] = {}
        self.rz = ResolutionZone()
        self.offers: list[Ability] = []
        self.detected: list[Ability] = []
        self.cancelled = cancelled
        self.kept: set[int] = set()
        self.turn = 1
        self.first = 0
        self.turn_player = 0
        self.phase = "character"
        self.used: set[tuple[int, int]] = set()
        self.drawn: list[int] = []
        self.lost: int | None = None
        self.checks: list[list[tuple[str, surprise.Fix[str]]]] = []

    # --- set-up ---------------------------------------------------------------------------

    def deal(self, seat: int, hand: int, deck: int) -> None:
        """Give ``seat`` ``hand`` cards in hand and ``deck`` cards in its deck."""
        cards = [seat * CARDS_PER_SEAT + i for i in range(hand + deck)]
        if hand:
            self.table.put(cards[:hand], zone("hand", seat), face_up=False)
        if deck:
            self.table.put(cards[hand:], zone("deck", seat), face_up=False)

    def owner(self, card: int) -> int:
        """The card's owner."""
        return card // CARDS_PER_SEAT

    def locate(self, card: int) -> Place | None:
        """Where ``card`` lies, as the trigger matcher sees it (zone kind, face)."""
        found = self.table.where(card)
        return None if found is None else (found[0].rstrip("01"), found[1].face_up)

    # --- events and triggers -------------------------------------------------------------

    def abilities(self) -> list[Ability]:
        """Every printed ability of every card."""
        return [
            Ability(card, i, trig)
            for card, p in sorted(self.printed.items())
            for i, (trig, _) in enumerate(p.abilities)
        ]

    def happen(self, happening: Happening) -> None:
        """An event happened: triggered abilities enter the resolution zone, surprise ones
        become offers to their owner (only while a flip is still possible, H9)."""
        found = triggered(self.abilities(), happening, self.locate)
        self.detected += found
        for ability in found:
            if ability.trigger.optional:
                if self.locate(ability.card) == (surprise.SURPRISE, False):
                    self.offers.append(ability)
            else:
                self.rz.put(ability.card, ability.index, self.owner(ability.card))

    def move(self, cards: list[int], dest: str, face_up: bool | None = None) -> None:
        """Move cards together (one event) and let abilities look at the move."""
        before = {c: self.locate(c) for c in cards}
        self.table.put(cards, dest, face_up)
        self.happen(
            Happening("move", {"to": dest}, {c: (before[c], self.locate(c)) for c in cards})
        )

    def attack(self, seat: int) -> None:
        """A character of ``seat`` attacks."""
        self.happen(Happening("attack", {"seat": seat}))

    def end_step(self, partner: bool) -> None:
        """The attack end step (7.1.6.1): its triggers, then a check timing."""
        self.happen(Happening("attack_end_step", {"partner": partner}))
        self.check()

    def flip(self, ability: Ability) -> bool:
        """The owner accepts an offer: the card turns face up and only this ability enters
        the resolution zone (H8). False if the card is no longer face down in the zone."""
        self.offers = [a for a in self.offers if a.card != ability.card]
        if self.locate(ability.card) != (surprise.SURPRISE, False):
            return False
        self.table.turn(ability.card, True)
        self.rz.put(ability.card, ability.index, self.owner(ability.card), "surprise")
        return True

    def decline(self, ability: Ability) -> None:
        """The owner declines an offer: nothing changes."""
        self.offers.remove(ability)

    def resolve(self) -> None:
        """The newest instance resolves (its effect may not be carried out)."""
        inst = self.rz.waiting[-1]
        done = self.printed[inst.source].abilities[inst.index][1](self, inst)
        self.rz.end(inst, Ending.RESOLVED if done else Ending.NOT_CARRIED_OUT)
        if not done and inst.kind == "surprise":
            self.kept.add(inst.source)

    def cancel(self) -> None:
        """An effect cancels the newest instance."""
        inst = self.rz.waiting[-1]
        self.rz.end(inst, Ending.CANCELLED)
        if inst.kind == "surprise":
            self.kept.add(inst.source)

    # --- rule processes ---------------------------------------------------------------------

    def _find(self, _state: TableGame) -> list[surprise.Fix[str]]:
        zones = {
            zone("surprise", seat): self.table.zones[zone("surprise", seat)] for seat in (0, 1)
        }
        return surprise.sweep(
            zones, self.table.owners, self.rz.sources(), self.kept, self.cancelled
        )

    def _apply(self, _state: TableGame, fixes: list[tuple[str, surprise.Fix[str]]]) -> None:
        """Each card to its owner's waiting room (one move per owner), from whatever zone."""
        for seat in (0, 1):
            cards = [fix.card for _, fix in fixes if fix.owner == seat]
            if cards:
                self.table.put(cards, zone("waiting", seat), face_up=True, kind="rule_process")

    def check(self) -> None:
        """A check timing: both rule processes, simultaneously, until nothing applies."""
        processes = [RuleProcess("surprise", self._find)]
        self.checks += check_timing(self, processes, self._apply)

    # --- Set and Clear ------------------------------------------------------------------------

    def window(self, seat: int) -> surprise.Window:
        """The Set/Clear window of ``seat`` now."""
        return surprise.Window(
            turn_player=seat == self.turn_player,
            in_window=self.phase == "character",
            has_play_timing=True,
            resolution_empty=self.rz.empty(),
            used_this_turn=(seat, self.turn) in self.used,
        )

    def can_set(self, seat: int) -> bool:
        """Set is offered to ``seat``."""
        return surprise.may_set(
            self.window(seat),
            self.table.zones[zone("surprise", seat)],
            len(self.table.cards(zone("hand", seat))),
            self.turn == 1 and seat == self.first,
        )

    def can_clear(self, seat: int) -> bool:
        """Clear is offered to ``seat``."""
        return surprise.may_clear(self.window(seat), self.table.zones[zone("surprise", seat)])

    def set_card(self, seat: int, card: int) -> None:
        """Set: the card face down into the empty zone, then draw 1."""
        assert self.can_set(seat), "Set is not allowed now"
        assert self.table.fits(zone("surprise", seat))
        self.used.add((seat, self.turn))
        self.move([card], zone("surprise", seat), face_up=False)
        self.draw(seat)

    def clear(self, seat: int) -> None:
        """Clear: the zone's card to the waiting room, face up."""
        assert self.can_clear(seat), "Clear is not allowed now"
        self.used.add((seat, self.turn))
        self.move(self.table.cards(zone("surprise", seat)), zone("waiting", seat), face_up=True)

    def draw(self, seat: int) -> None:
        """Draw 1; this table's empty-deck rule: the player loses (H10: the game's own rule)."""
        deck = self.table.cards(zone("deck", seat))
        if not deck:
            self.lost = seat
            return
        self.drawn.append(deck[-1])
        self.move([deck[-1]], zone("hand", seat))

    def next_turn(self) -> None:
        """The other player's turn begins (in its character phase)."""
        self.turn += 1
        self.turn_player = 1 - self.turn_player
        self.phase = "character"


def attack_draw(owner: int) -> Trigger:
    """★X's 【！】 condition: an opponent's character attacks."""
    return Trigger(
        frozenset({surprise.SURPRISE}),
        lambda h: h.kind == "attack" and h.data["seat"] != owner,
        Face.DOWN,
        optional=True,
    )


def draw_effect(game: TableGame, inst: Instance) -> bool:
    """→ draw 1."""
    game.draw(inst.controller)
    return True


def star_x(game: TableGame, card: int) -> int:
    """Print ★X on ``card``."""
    game.printed[card] = Printed([(attack_draw(game.owner(card)), draw_effect)])
    return card

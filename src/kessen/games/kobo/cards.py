"""Kōbō card definitions at run time: kinds, targets, effect verbs and the card record.

Cards are data. The loader (:mod:`kessen.games.kobo.schema`) validates the TOML files of
``data/`` and builds these frozen records; the rules (:mod:`kessen.games.kobo.flow`,
:mod:`kessen.games.kobo.effects`) interpret them; the text of each card
(:mod:`kessen.games.kobo.text`) is generated from the same record, so text and behaviour
cannot drift. Nothing here holds per-game state.

How long a Lv change lasts is not a field: it follows from the card kind, as the seed says.
Deploy cards and traps change the base Lv permanently; tactics change the current Lv for the
current exchange only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final


class CardKind(StrEnum):
    """The four kinds of Kōbō card."""

    CHARACTER = "character"
    DEPLOY = "deploy"
    TRAP = "trap"
    TACTIC = "tactic"


class Side(StrEnum):
    """Whose battle area an effect looks at, relative to the card's controller."""

    OWN = "own"
    OPPONENT = "opponent"
    DEFENDING = "defending"
    ATTACKING = "attacking"


def named_seat(named: Side, seat: int, attacker_seat: int) -> int:
    """The seat whose battle area ``named`` means for a card controlled by ``seat``."""
    if named is SIDE_OWN:
        return seat
    if named is SIDE_OPPONENT:
        return 1 - seat
    if named is SIDE_ATTACKING:
        return attacker_seat
    return 1 - attacker_seat


class Scope(StrEnum):
    """Which characters of the side an effect touches.

    ``chosen``: one character of the side's battle area, chosen at activation (participant or
    not). ``participants``: the side's participants in the current exchange (the attackers, or
    the attack target), taken at resolution. ``all``: every character of the side's battle area.
    """

    CHOSEN = "chosen"
    PARTICIPANTS = "participants"
    ALL = "all"


class Timing(StrEnum):
    """When a trap may be activated inside a chain."""

    ANY = "any"
    DEFENDING = "defending"
    ATTACKING = "attacking"


class Verb(StrEnum):
    """The closed set of effect verbs."""

    MODIFY_LV = "modify_lv"
    RETREAT_IF_ZERO = "retreat_if_zero"
    CHANGE_TARGET = "change_target"
    NEGATE_ATTACK = "negate_attack"
    NEGATE_LAST = "negate_last"
    DRAW = "draw"
    SUMMON_TOP = "summon_top"
    NOMINATE = "nominate"


# The members that inner loops compare against, as plain module constants: on Python 3.11 every
# ``Verb.X`` runs through EnumType.__getattr__, about nine times the cost of reading a global.
# Final, so that compiled code (mypyc) reads each from a C variable, not the module's dict.
SIDE_OWN: Final = Side.OWN
SIDE_OPPONENT: Final = Side.OPPONENT
SIDE_ATTACKING: Final = Side.ATTACKING
SCOPE_CHOSEN: Final = Scope.CHOSEN
SCOPE_ALL: Final = Scope.ALL
TIMING_DEFENDING: Final = Timing.DEFENDING
TIMING_ATTACKING: Final = Timing.ATTACKING
MODIFY_LV: Final = Verb.MODIFY_LV
RETREAT_IF_ZERO: Final = Verb.RETREAT_IF_ZERO
CHANGE_TARGET: Final = Verb.CHANGE_TARGET
NEGATE_ATTACK: Final = Verb.NEGATE_ATTACK
NEGATE_LAST: Final = Verb.NEGATE_LAST

# Verbs whose meaning needs a target specification on the card.
TARGETED_VERBS = frozenset({Verb.MODIFY_LV, Verb.RETREAT_IF_ZERO, Verb.CHANGE_TARGET})
# Verbs allowed on deploy cards (used in the standby) and on chain cards (traps, tactics).
DEPLOY_VERBS = frozenset({Verb.MODIFY_LV, Verb.DRAW, Verb.SUMMON_TOP, Verb.NOMINATE})
CHAIN_VERBS = frozenset(
    {Verb.MODIFY_LV, Verb.RETREAT_IF_ZERO, Verb.CHANGE_TARGET, Verb.NEGATE_ATTACK, Verb.NEGATE_LAST}
)


class Condition(StrEnum):
    """The event a surprise ability (【！】) waits for, seen from the card's owner ("you").

    Matched only while the card lies face down in its owner's surprise zone (the optional
    surprise-zone module, :mod:`kessen.games.kobo.surprise`).
    """

    ATTACKED = "attacked"
    """The opponent declares an attack on one of your characters."""
    TRAP_AGAINST = "trap_against"
    """The opponent activates a trap."""
    TACTIC_AGAINST = "tactic_against"
    """The opponent plays a tactic."""
    ALLY_RETREAT = "ally_retreat"
    """A character of yours retreats."""
    OPPONENT_PASS = "opponent_pass"
    """The opponent passes its turn instead of attacking."""
    OWN_ATTACK = "own_attack"
    """You declare an attack."""


# Verbs a surprise ability may use: it resolves in the chain or at once, never with a chosen
# target (nobody is asked in the middle of another event).
SURPRISE_VERBS = frozenset({Verb.MODIFY_LV, Verb.RETREAT_IF_ZERO, Verb.NEGATE_ATTACK, Verb.DRAW})


@dataclass(frozen=True, slots=True)
class Step:
    """One step of an effect: a verb and its amount (Lv change or card count; 0 if unused)."""

    verb: Verb
    amount: int = 0


@dataclass(frozen=True, slots=True)
class Target:
    """Which characters an effect applies to."""

    side: Side
    scope: Scope


@dataclass(frozen=True, slots=True)
class SurpriseAbility:
    """A 【！】 automatic ability: 「【自】[condition]→effect」. Its Lv changes are permanent,
    like a set trap's; ``draw`` draws from the tactics deck."""

    on: Condition
    target: Target | None = None
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class CardDef:
    """One card of the pool, as printed.

    >>> c = CardDef("ember-fox", "火狐", "Ember Fox", CardKind.CHARACTER, lv=2)
    >>> c.is_character, c.lv
    (True, 2)
    """

    slug: str
    name_ja: str
    name_en: str
    kind: CardKind
    lv: int = 0
    #: The card's pictogram, a name of the vendored icon set ("" for none).
    icon: str = ""
    limited: bool = False
    chain_again: bool = False
    when: Timing = Timing.ANY
    target: Target | None = None
    steps: tuple[Step, ...] = ()
    #: 【！】 abilities, armed while the card lies face down in a surprise zone (a tactic only).
    surprise: tuple[SurpriseAbility, ...] = ()
    #: The verbs of the card's steps (derived).
    verbs: frozenset[Verb] = field(init=False, repr=False, compare=False)
    #: True if activation asks its controller to choose one character (derived).
    needs_choice: bool = field(init=False, repr=False, compare=False)
    #: True if this card's Lv changes are permanent: deploy cards and traps (derived).
    permanent: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "verbs", frozenset(step.verb for step in self.steps))
        choice = self.target is not None and self.target.scope is Scope.CHOSEN
        object.__setattr__(self, "needs_choice", choice)
        object.__setattr__(self, "permanent", self.kind is not CardKind.TACTIC)

    @property
    def is_character(self) -> bool:
        """True for characters."""
        return self.kind is CardKind.CHARACTER

    def has(self, verb: Verb) -> bool:
        """True if one of the card's steps uses ``verb``."""
        return verb in self.verbs

    def name(self, lang: str) -> str:
        """The card's name in ``lang`` ("ja" or "en")."""
        return self.name_ja if lang == "ja" else self.name_en

    def surprise_effect(self, index: int) -> CardDef:
        """The 【！】 ability ``index`` as a card of its own: same name, the ability's target and
        steps, permanent Lv changes (like a set trap). For texts and for simulations of a
        chain that holds a flipped surprise."""
        ability = self.surprise[index]
        return CardDef(
            self.slug,
            self.name_ja,
            self.name_en,
            CardKind.TRAP,
            icon=self.icon,
            target=ability.target,
            steps=ability.steps,
        )

"""COM strength levels of the search player: names in Japanese and English, and their budgets.

A level is a search budget (iterations, deterministic, plus a time cap as a safety net) and a
model (the strongest level uses the ruleset's deeper one, where it has one); every level decides
from its own view only. What a level is *worth* is measured,
not assumed: ``kessen tournament --suite levels`` plays each level against the heuristic COM and
the random player and writes the win rates with their 95% Wilson intervals to
``docs/com-levels.md``.

Register the levels as COM players of a ruleset with :func:`factory`, weakest first::

    players = {"ismcts-easy": factory("kobo", "ismcts-easy"), ...}
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kessen.ai.ismcts import Budget, SearchConfig, SearchHooks, SearchPlayer, hooks_for
from kessen.engine.players import Player
from kessen.engine.registry import PlayerFactory

STRONGEST_SECONDS = 1.8
"""The time cap of every level's search (checked after every iteration); with the world
rebuilding and the view around it, no decision takes 2 s even on a slow or loaded core. On an
idle core the iteration budget ends the search before, or its settling (the answer can no longer
change) sooner still (see docs/com-levels.md)."""


EASY_SLIPS: tuple[tuple[str, float], ...] = (("twgp", 0.6), ("maken", 0.6))
"""やさしい's share of random answers in TWGP and Project Maken, where twelve iterations alone
beat the heuristic COM (85% of 40 games in TWGP, 87% of 38 in Maken); with half its answers
random it still won 44.4% of 54 TWGP games and 43.3% of 60 Maken games, too near one half to
be told apart from the heuristic (docs/com-levels.md, "Budgets of the compiled build")."""


STRONG_BUDGETS: tuple[tuple[str, int], ...] = (("twgp", 800),)
"""つよい's budget in TWGP, whose iterations cost twice Kōbō's and, with つよい's two-turn
rollouts, twice again: at 800 its mean decision takes 0.72 s on one core (p95 1.40 s, some
searches ended by the time cap); at 1,500 with one-turn rollouts it took 0.75 s and a
twentieth met the cap, and at 250 and 1,000 it won alike against the heuristic (94.2% and
93.3% of 60 games; docs/com-levels.md)."""


STRONG_TREE_PRIORS: tuple[tuple[str, float], ...] = (("kobo", 0.5),)
"""つよい's tree prior per ruleset: below the root, the heuristic COM's answer at each node (for
either seat, from its view in the sampled world) is tried first and favoured with this weight.
In Kōbō, with the value network judging the leaves, it won 87.9% of 223 games against the
heuristic at 1,500 iterations on 50 fresh pairs of deals, against 82.4% of 230 without it: a
paired gap of 5.5 points (1.1 to 10.0; docs/com-kobo-prior.md). It helps the controls that
read the true state more (there the heuristic's answer is the opponent's actual next move): on
seed 7474 the full cheater won 94.3% against つよい's 88.1%, and 90.1% once つよい's worlds
model the opponent's tactics hand (``search_worlds.HAND_MODEL_SHARE``); on seed 3131, with
the opponent's passes remembered too (``pass_memory``), つよい won 90.8% and the cheater 93.6%."""


CONTEMPT = 0.25
"""What a draw costs ふつう and つよい (in win chance) where the game says how drawn a position
is (TWGP's quiet-turn draw): two even searches otherwise let the quiet turns run out."""


@dataclass(frozen=True)
class Level:
    """One COM level: its key (the player name), its names and its search budget."""

    key: str
    name_ja: str
    name_en: str
    iterations: int
    seconds: float = STRONGEST_SECONDS
    exploration: float = 0.25
    prior_weight: float = 0.3
    tree_prior_weight: float = 0.0
    """The prior's bonus below the root (see :class:`~kessen.ai.ismcts.SearchConfig`)."""
    tree_priors: tuple[tuple[str, float], ...] = ()
    """Per ruleset, another bonus below the root than :attr:`tree_prior_weight`."""
    opponent_prior_weight: float | None = None
    """The prior's bonus at the opponent's nodes, if not ``tree_prior_weight``."""
    deep: bool = False
    """Search with the ruleset's deeper model (Kōbō: fitted evaluation, two-turn rollouts)."""
    mistakes: tuple[tuple[str, float], ...] = ()
    """Per ruleset, the share of searched decisions answered by a random legal action instead
    (:class:`~kessen.ai.ismcts.SearchPlayer`): the easiest level stays below the rule-based COM
    in games where a small search alone beats it."""

    contempt: float = 0.0
    """What a draw costs this level's searcher (:attr:`~kessen.ai.ismcts.SearchConfig.contempt`;
    it bites only in games whose hooks say how drawn a position is: TWGP)."""
    budgets: tuple[tuple[str, int], ...] = ()
    """Per ruleset, another iteration budget than :attr:`iterations` (where an iteration
    costs so much more that the whole budget would meet the time cap)."""

    def mistakes_in(self, ruleset: str) -> float:
        """This level's share of deliberate slips in ``ruleset`` (0 where it has none)."""
        return dict(self.mistakes).get(ruleset, 0.0)

    def iterations_in(self, ruleset: str | None) -> int:
        """This level's iteration budget in ``ruleset`` (:attr:`iterations` unless
        :attr:`budgets` names it; None: :attr:`iterations`)."""
        return dict(self.budgets).get(ruleset or "", self.iterations)

    def tree_prior_in(self, ruleset: str | None) -> float:
        """This level's prior bonus below the root in ``ruleset`` (:attr:`tree_prior_weight`
        unless :attr:`tree_priors` names it; None: :attr:`tree_prior_weight`)."""
        return dict(self.tree_priors).get(ruleset or "", self.tree_prior_weight)

    def config(self, timed: bool = True, ruleset: str | None = None) -> SearchConfig:
        """The search configuration of this level in ``ruleset`` (None: its base budget);
        untimed, its iteration budget alone (no time cap), so that a search is a pure function
        of its inputs (benchmarks, tests)."""
        return SearchConfig(
            Budget(self.iterations_in(ruleset), self.seconds if timed else None),
            self.exploration,
            self.prior_weight,
            self.tree_prior_in(ruleset),
            self.opponent_prior_weight,
            contempt=self.contempt,
        )

    def name(self, lang: str) -> str:
        """The level's display name in ``lang`` ("ja" or "en")."""
        return self.name_ja if lang == "ja" else self.name_en


LEVELS: tuple[Level, ...] = (
    Level(
        "ismcts-easy",
        "やさしい",
        "Easy",
        iterations=12,
        prior_weight=0.0,
        mistakes=EASY_SLIPS,
    ),
    Level("ismcts-normal", "ふつう", "Normal", iterations=200, contempt=CONTEMPT),
    Level(
        "ismcts-strong",
        "つよい",
        "Strong",
        iterations=1500,
        deep=True,
        budgets=STRONG_BUDGETS,
        tree_priors=STRONG_TREE_PRIORS,
        contempt=CONTEMPT,
    ),
)
"""The levels, weakest first."""


def level(key: str) -> Level:
    """The level called ``key``; raises ``KeyError`` naming the known ones."""
    for item in LEVELS:
        if item.key == key:
            return item
    raise KeyError(f"unknown level {key!r}; known: {', '.join(x.key for x in LEVELS)}")


def variant(spec: str) -> Level:
    """The level ``spec`` names: a level's key, optionally with another iteration budget
    (``KEY=ITERATIONS``: ``ismcts-strong=2000``) and another share of deliberate slips in
    every game (``KEY%PERCENT``: ``ismcts-easy%40``), for experiments and tournaments (the time
    cap stays the level's). Raises ``KeyError`` for an unknown key, ``ValueError`` for a budget
    or a percentage out of range."""
    head, pct, slips = spec.partition("%")
    key, sep, budget = head.partition("=")
    chosen = level(key)
    if sep:
        if not budget.isdigit() or int(budget) < 1:
            raise ValueError(f"{spec!r}: the iterations after '=' must be a positive integer")
        chosen = replace(chosen, iterations=int(budget), budgets=())
    if pct:
        if not slips.isdigit() or int(slips) > 100:
            raise ValueError(f"{spec!r}: the mistakes after '%' must be a percentage, 0 to 100")
        share = int(slips) / 100
        chosen = replace(chosen, mistakes=tuple((r, share) for r in ("kobo", "twgp", "maken")))
    return chosen if spec == key else replace(chosen, key=spec)


def make_player(ruleset: str, key: str, seed: int, hooks: SearchHooks | None = None) -> Player:
    """A search player of level ``key`` for ``ruleset`` (a key, or ``KEY=ITERATIONS``:
    :func:`variant`), deciding from its view only."""
    chosen = variant(key)
    chosen_hooks = hooks or hooks_for(ruleset, deep=chosen.deep)
    return SearchPlayer(
        chosen.key,
        chosen_hooks,
        chosen.config(ruleset=ruleset),
        seed,
        mistakes=chosen.mistakes_in(ruleset),
    )


class _Factory:
    """A picklable player factory for one ruleset and level (what the registry stores)."""

    def __init__(self, ruleset: str, key: str) -> None:
        self.ruleset = ruleset
        self.key = key

    def __call__(self, seed: int) -> Player:
        return make_player(self.ruleset, self.key, seed)


def factory(ruleset: str, key: str) -> PlayerFactory:
    """The registry entry for level ``key`` of ``ruleset``: ``seed -> player``."""
    level(key)
    return _Factory(ruleset, key)


def player_factories(ruleset: str) -> dict[str, PlayerFactory]:
    """Every level of ``ruleset`` as registry entries, weakest first."""
    return {item.key: factory(ruleset, item.key) for item in LEVELS}

"""The registry of rulesets: each ruleset module registers a :class:`Ruleset` under its name.

The kernel knows no ruleset by name: ``get("x")`` imports ``kessen.games.x`` on first use.
"""

from __future__ import annotations

import importlib
import importlib.resources
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.engine.glossary import Glossary, no_glossary
from kessen.engine.players import Player


class NewGame(Protocol):
    """Builds a fresh game from a config (validated by the ruleset) and a seed."""

    def __call__(self, config: Mapping[str, Any], seed: int) -> GameState: ...


class FromJson(Protocol):
    """Rebuilds a game state from its JSON form."""

    def __call__(self, data: Mapping[str, Any]) -> GameState: ...


class PlayerFactory(Protocol):
    """Builds a COM player from a seed."""

    def __call__(self, seed: int) -> Player: ...


class Describe(Protocol):
    """Turns one view log entry into a line of text for ``viewer`` in ``lang``."""

    def __call__(self, entry: Json, lang: str, viewer: int | None) -> str: ...


class Catalog(Protocol):
    """The public card and deck information a client needs, in ``lang``: for games of
    ``config`` when given (a record's config names the card data it was played with), else
    for new games."""

    def __call__(self, lang: str, config: Mapping[str, Any] | None = None) -> Json: ...


class SecretAction(Protocol):
    """Whether an action's text names something only its actor may see (a card taken from a
    hidden hand, a card set face down): other seats read it as its verb alone."""

    def __call__(self, action: Action) -> bool: ...


class RulesDocument(Protocol):
    """The players' rules of a ruleset in ``lang`` as Markdown ("" when it has none)."""

    def __call__(self, lang: str) -> str: ...


class Credits(Protocol):
    """Attribution the ruleset's assets need (licence, authors), shown on a credits screen."""

    def __call__(self) -> list[Json]: ...


def packaged_rules(package: str) -> RulesDocument:
    """A :class:`RulesDocument` reading ``docs/rules.<lang>.md`` shipped inside ``package``
    (Japanese when the language has no document of its own)."""

    def read(lang: str) -> str:
        docs = importlib.resources.files(package).joinpath("docs")
        for name in (f"rules.{lang}.md", "rules.ja.md"):
            document = docs.joinpath(name)
            if document.is_file():
                return document.read_text(encoding="utf-8")
        return ""

    return read


@dataclass(frozen=True)
class DeckCheck:
    """A deck list checked by its ruleset: the list normalised (``None`` when its shape is
    wrong) and every problem as ``{code, section, slug, params, text}``; ``warnings`` (same
    shape) are about a deck the rules allow but that cannot play well or at all (TWGP's
    builds that cannot act): the deck stays usable."""

    deck: Json | None
    problems: list[Json]
    warnings: list[Json] = field(default_factory=list)


class ForSeat(Protocol):
    """What a saved deck called ``name`` becomes in seat ``seat``'s entry of a new game's
    config (the rest of that config given); ``ValueError`` saying why when it cannot go
    there."""

    def __call__(
        self, deck: Mapping[str, Any], seat: int, name: str, config: Mapping[str, Any]
    ) -> Json: ...


def named_deck(deck: Mapping[str, Any], seat: int, name: str, config: Mapping[str, Any]) -> Json:
    """The default :class:`ForSeat`: the deck list as saved, under its saved name."""
    return {**deck, "name_ja": name, "name_en": name}


@dataclass(frozen=True)
class DeckFormat:
    """What a deck builder needs of a ruleset with deck lists: the check the engine uses
    (``check(deck, lang)``), and the deck file format (``from_toml`` raises ``ValueError``
    with the place of the mistake; ``to_toml`` writes a file ``from_toml`` reads back).

    A saved deck chosen for a seat of a new game fills that seat's entry of the config's list
    ``config_key`` (``decks``; TWGP's builds go to ``builds``), as ``for_seat`` makes it.
    An exported file is named by the deck's ``slug``, else ``file_stem``. A ``secret`` list is
    hidden information of its seat (TWGP's builds; Kōbō's deck lists are public): in a match
    between two people the creator may fix only their own seat's."""

    check: Callable[[Mapping[str, Any], str], DeckCheck]
    from_toml: Callable[[str], Json]
    to_toml: Callable[[Mapping[str, Any]], str]
    extension: str = "toml"
    file_stem: str = "deck"
    secret: bool = False
    config_key: str = "decks"
    for_seat: ForSeat = named_deck


class RecordConfig(Protocol):
    """The config that replays a record made with ``config`` under card data ``data_hash``
    (a ruleset that versions its card data pins the version the record was made with)."""

    def __call__(self, config: Mapping[str, Any], data_hash: str) -> Json: ...


def keep_config(config: Mapping[str, Any], data_hash: str) -> Json:
    """The default :class:`RecordConfig`: the recorded config as it is."""
    return dict(config)


def no_rules(lang: str) -> str:
    """The default :class:`RulesDocument`: none."""
    return ""


def no_credits() -> list[Json]:
    """The default :class:`Credits`: nothing to attribute."""
    return []


def nothing_secret(action: Action) -> bool:
    """The default :class:`SecretAction`: every action's text is public."""
    return False


class FixedDeal(Protocol):
    """Why ``config`` fixes what chance should deal (a deck left unshuffled, a pile in a
    chosen order), one reason per switch; empty when chance deals everything. A match another
    person plays may not be started so: whoever chose it would know the hidden cards."""

    def __call__(self, config: Mapping[str, Any]) -> list[str]: ...


def nothing_fixed(config: Mapping[str, Any]) -> list[str]:
    """The default :class:`FixedDeal`: no switch of the config fixes the deal."""
    return []


def chosen_first(config: Mapping[str, Any], key: str) -> list[str]:
    """The :class:`FixedDeal` reason of a config whose ``key`` names the first player (chance
    decides it when the key is absent or null), for the rulesets that have such a switch.

    >>> chosen_first({"firstPlayer": 0}, "firstPlayer"), chosen_first({}, "firstPlayer")
    (['firstPlayer: the config sets who starts, which chance decides'], [])
    """
    if config.get(key) is None:
        return []
    return [f"{key}: the config sets who starts, which chance decides"]


class Departures(Protocol):
    """How ``config`` departs from the ruleset's standard rules, as short labels a match
    listing shows: each a ``code`` with its params, ``{"code": "card_set", "name", "ref"}``
    (a designer's card set, :func:`card_set_departure`) or ``{"code": "opening" | "switch",
    "key", "value", "name_ja", "name_en", "value_ja", "value_en"}`` (a rule switch away from
    its standard value, :func:`switch_departure`). Empty for a match by the standard rules,
    and for a config that does not parse: never an error. A label names rules only, never a
    seat's list (a secret build stays its player's)."""

    def __call__(self, config: Mapping[str, Any]) -> list[Json]: ...


def standard_rules(config: Mapping[str, Any]) -> list[Json]:
    """The default :class:`Departures`: every config plays the standard rules."""
    return []


def card_set_departure(ref: str) -> list[Json]:
    """The :class:`Departures` label of a match played with the designer's card set ``ref``
    (``NAME@HASH``, as a parsed config holds it); none when ``ref`` is empty.

    >>> card_set_departure("balance@" + "0" * 64)[0]["name"], card_set_departure("")
    ('balance', [])
    """
    if not ref:
        return []
    name = ref.rpartition("@")[0]
    return [{"code": "card_set", "name": name, "ref": ref}]


def switch_departure(
    code: str, key: str, value: Any, names: tuple[str, str], values: tuple[str, str]
) -> Json:
    """A :class:`Departures` label of a rule switch ``key`` set to ``value``: its ``names``
    and the value's name (``values``), each in Japanese and English.

    >>> label = switch_departure("switch", "jokers", True, ("ジョーカー", "Jokers"), ("あり", "on"))
    >>> label["key"], label["name_en"], label["value_ja"]
    ('jokers', 'Jokers', 'あり')
    """
    return {
        "code": code,
        "key": key,
        "value": value,
        "name_ja": names[0],
        "name_en": names[1],
        "value_ja": values[0],
        "value_en": values[1],
    }


@dataclass(frozen=True)
class Ruleset:
    """What a ruleset offers the rest of the system.

    ``players`` maps COM level names to factories, weakest first; ``describe`` renders log
    entries as text; ``catalog`` lists cards and decks for clients; ``public_prompts`` names
    the prompts whose legal choices follow from public information only (so a COM's
    candidate list for them reveals nothing hidden); ``secret_action`` says which actions'
    texts other seats may not read (replays and the "why" panel show them as their verb);
    ``rules_document`` gives the players' rules for the ルール / Rules screen and ``credits``
    the attribution its assets need; ``record_config`` lets an old record replay under the card
    data it was made with; ``decks`` serves the deck builder (``None``: no deck lists);
    ``fixed_deal`` names the config switches that take the deal out of chance's hands;
    ``departures`` labels how a config departs from the standard rules (the match history
    shows them);
    ``glossary`` gives its jargon with short explanations (:mod:`kessen.engine.glossary`).
    """

    name: str
    version: str
    new_game: NewGame
    from_json: FromJson
    default_config: Json
    data_hash: str
    players: Mapping[str, PlayerFactory]
    describe: Describe
    catalog: Catalog
    public_prompts: frozenset[str] = frozenset()
    secret_action: SecretAction = nothing_secret
    rules_document: RulesDocument = no_rules
    credits: Credits = no_credits
    record_config: RecordConfig = keep_config
    decks: DeckFormat | None = None
    fixed_deal: FixedDeal = nothing_fixed
    departures: Departures = standard_rules
    glossary: Glossary = no_glossary


_RULESETS: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> None:
    """Make ``ruleset`` available under its name."""
    _RULESETS[ruleset.name] = ruleset


def get(name: str) -> Ruleset:
    """The ruleset called ``name``; raises ``KeyError`` with the known names if unknown."""
    if name not in _RULESETS and name.isidentifier():
        module = f"kessen.games.{name}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as err:
            if err.name != module:  # the ruleset exists but one of its imports is missing
                raise
    if name not in _RULESETS:
        raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(sorted(_RULESETS))}")
    return _RULESETS[name]

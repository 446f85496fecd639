"""The card editor's form: each game's card and deck fields, as the design screen draws them.

The fields are the ruleset's own schema: the pydantic models its checks validate a card and a
starter deck with, written as JSON Schema with every reference resolved (``type``, ``enum``,
``minimum``/``maximum``, ``pattern``, ``items``, ``properties``, ``additionalProperties``;
``nullable`` for a field that may be left out as ``null``). So the form offers exactly the
kinds, verbs, conditions and ranges the checks accept, and a change of the schema changes the
form. A few hints say what JSON Schema cannot, read from the same constants the checks use:

- ``kinds``: the fields a card of each kind has (the others are no part of it);
- ``choices``: the values a field may take on a card of a kind (Kōbō's verbs by kind, the
  【！】 abilities' verbs);
- ``shown``: a nested field that applies only for some values of its sibling (a step's
  ``amount`` for ``modify_lv`` and ``draw``; a Maken ability's ``stat`` for ``mod``), with the
  value it starts from when it appears;
- ``sections``: a starter deck's card lists, which cards each holds and its size;
- ``words``: the game's own words for the values its card text names (kinds, timings,
  conditions, characters, stats), ``{field path: {value: {"ja", "en"}}}``.

Kōbō's form also carries every vendored pictogram (a card's ``icon``), as the catalogue sends
them. Nothing here judges a card: the ruleset's checks do (``/api/design/games/*/check``).
"""

from __future__ import annotations

import functools
from typing import Any, Final

from pydantic import BaseModel

from kessen.engine.contract import Json

_KEEP: Final = (
    "type",
    "enum",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "default",
    "maxProperties",
)


def _resolve(node: Any, defs: dict[str, Any]) -> Any:
    """``node`` with its ``$ref``s inlined, ``anyOf [X, null]`` as X with ``nullable``, and
    only the keywords a form reads."""
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return _resolve(defs[str(node["$ref"]).rsplit("/", 1)[-1]], defs)
    options = node.get("anyOf")
    if isinstance(options, list):
        real = [o for o in options if not (isinstance(o, dict) and o.get("type") == "null")]
        one: Json = dict(_resolve(real[0], defs)) if len(real) == 1 else {"anyOf": real}
        one["nullable"] = len(real) < len(options)
        if "default" in node:
            one["default"] = node["default"]
        return one
    out: Json = {k: node[k] for k in _KEEP if k in node}
    if "const" in node:
        out["enum"] = [node["const"]]
    if "properties" in node:
        out["type"] = "object"
        out["properties"] = {k: _resolve(v, defs) for k, v in node["properties"].items()}
        out["order"] = list(node["properties"])
        out["required"] = list(node.get("required", []))
    if isinstance(node.get("additionalProperties"), dict):
        out["additionalProperties"] = _resolve(node["additionalProperties"], defs)
    if "items" in node:
        out["items"] = _resolve(node["items"], defs)
    return out


def model_form(model: type[BaseModel]) -> Json:
    """A pydantic model's JSON Schema (by its aliases, as the data is written) made plain."""
    schema = model.model_json_schema(by_alias=True)
    return dict(_resolve(schema, schema.get("$defs", {})))


def _words(values: Any, say: Any) -> Json:
    """``{value: {"ja", "en"}}`` of ``say(value, lang)`` for every value."""
    return {str(v): {lang: say(v, lang) for lang in ("ja", "en")} for v in values}


def _kobo() -> Json:
    from kessen.games.kobo.card_sets import CARD_FIELDS, DECK_FIELDS
    from kessen.games.kobo.cards import (
        CHAIN_VERBS,
        DEPLOY_VERBS,
        SURPRISE_VERBS,
        CardKind,
        Condition,
        Timing,
        Verb,
    )
    from kessen.games.kobo.deck_rules import MAIN_DECK_SIZE, TACTICS_DECK_SIZE
    from kessen.games.kobo.decks import DeckModel
    from kessen.games.kobo.icons import icon_names, load_icons
    from kessen.games.kobo.schema import CardModel
    from kessen.games.kobo.text import condition_text, kind_label, timing_label

    base = ["slug", "kind", "name_ja", "name_en", "icon", "limited"]
    effect = ["target", "steps"]
    chain = ["when", "chain_again", *effect]
    kinds = {
        CardKind.CHARACTER.value: [*base, "lv"],
        CardKind.DEPLOY.value: [*base, *effect],
        CardKind.TRAP.value: [*base, *chain],
        CardKind.TACTIC.value: [*base, *chain, "surprise"],
    }
    by_kind = {
        CardKind.DEPLOY.value: DEPLOY_VERBS,
        CardKind.TRAP.value: CHAIN_VERBS,
        CardKind.TACTIC.value: CHAIN_VERBS,
    }
    order = [v.value for v in Verb]
    counted = {Verb.MODIFY_LV.value: 1, Verb.DRAW.value: 1}  # the verbs with an amount
    icons = load_icons()
    return {
        "ruleset": "kobo",
        "key": "slug",
        "card": {**model_form(CardModel), "order": list(CARD_FIELDS)},
        "deck": {**model_form(DeckModel), "order": [*DECK_FIELDS, "main", "tactics"]},
        "decks_keyed": False,
        "kinds": {k: [f for f in CARD_FIELDS if f in v] for k, v in kinds.items()},
        "choices": {
            "steps.verb": {k: [v for v in order if v in verbs] for k, verbs in by_kind.items()},
            "surprise.steps.verb": {
                CardKind.TACTIC.value: [v for v in order if v in SURPRISE_VERBS]
            },
        },
        "shown": {
            "steps.amount": {"when": "verb", "in": counted},
            "surprise.steps.amount": {"when": "verb", "in": counted},
        },
        "sections": {
            "main": {
                "kinds": [CardKind.CHARACTER.value, CardKind.DEPLOY.value, CardKind.TRAP.value],
                "size": MAIN_DECK_SIZE,
            },
            "tactics": {"kinds": [CardKind.TACTIC.value], "size": TACTICS_DECK_SIZE},
        },
        "words": {
            "kind": _words(CardKind, kind_label),
            "when": _words(Timing, timing_label),
            "surprise.on": _words(Condition, condition_text),
        },
        "icons": {name: icons.svg(name) for name in sorted(icon_names())},
    }


def _maken() -> Json:
    from kessen.games.maken import cards as maken
    from kessen.games.maken.card_sets import CARD_FIELDS

    def table(ja: dict[str, str], en: dict[str, str]) -> Json:
        return {k: {"ja": ja[k], "en": en[k]} for k in ja}

    base = ["id", "name_ja", "name_en", "character", "kind", "cost", "tags", "abilities"]
    attack = ["spd", "front", "back", "atk", "gain", "labels"]
    kinds = {"attack": [*base, *attack], "support": [*base, "duration"]}
    return {
        "ruleset": "maken",
        "key": "id",
        "card": {**model_form(maken.Card), "order": list(CARD_FIELDS)},
        "deck": {**model_form(maken.Deck), "order": ["character", "cards"]},
        "decks_keyed": True,
        "kinds": {k: [f for f in CARD_FIELDS if f in v] for k, v in kinds.items()},
        "choices": {},
        "shown": {
            "abilities.stat": {"when": "effect", "in": {"mod": "atk"}},
            "abilities.tag": {"when": "if", "in": {"top": "斬", "chain": "斬"}},
        },
        "sections": {"cards": {"kinds": ["attack", "support"], "size": maken.DECK_SIZE}},
        "words": {
            "character": _words(maken.CHARACTER_NAMES, maken.character_name),
            "labels": table(maken._LABEL_JA, maken._LABEL_EN),
            "abilities.timing": table(maken._TIMING_JA, maken._TIMING_EN),
            "abilities.stat": table(maken._STAT_JA, maken._STAT_EN),
        },
        "icons": {},
    }


@functools.cache
def card_form(ruleset: str) -> Json:
    """The editor's form of ``ruleset`` (``kobo`` or ``maken``); ``KeyError`` for another."""
    if ruleset == "kobo":
        return _kobo()
    if ruleset == "maken":
        return _maken()
    raise KeyError(f"no card editor form for {ruleset!r}")


__all__ = ["card_form", "model_form"]

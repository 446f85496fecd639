"""What a balance run of the design screen plays with (its card data) and what it found (the
figures of its result pages, from the games journaled).

A side of a run is a card data: a designer's set of the store (pinned to its current
revision), or a shipped version (Kōbō's ``v3``, ``v2``...; Maken's ``shipped``).


A run's half (one card data) gets the simulator's statistics (:func:`kessen.sim.stats.aggregate`:
the matchup matrix with Wilson 95% intervals, each entrant's score, the first player's rate,
sides and draws, game lengths) and per-card figures: the seat-games in which a card was
*played* (set, activated, placed or deployed: :data:`PLAYED`) or drawn, and the seat's win rate
then, with its interval. An A/B run adds :func:`kessen.sim.compare.compare` of its halves
(paired by seed) and the same comparison of the cards played (not paired: a two-proportion z
test). Every game is listed with its record's id in the store, so the page links its replay.
"""

from __future__ import annotations

import re
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from kessen.engine.card_sets import SHIPPED, CardSetError
from kessen.engine.contract import Json
from kessen.sim.compare import ALPHA, compare, paired_games, two_proportions
from kessen.sim.facts import profile
from kessen.sim.stats import TIE, Rate, aggregate, score, wilson
from kessen.sim.tournament import TournamentSpec
from kessen.store.card_sets import CardSetStoreError
from kessen.store.records import MatchStore

PLAYED: Final = ("set", "activate", "place", "deploy")
"""The card events that count as playing a card (drawing does not)."""


class RunRefused(ValueError):
    """A run request that cannot start: what is wrong (English, :attr:`ja` in Japanese) and
    the field of the request it is about (:attr:`path`); :attr:`missing` for a run that does
    not exist."""

    def __init__(self, path: str, en: str, ja: str, *, missing: bool = False) -> None:
        super().__init__(en)
        self.path = path
        self.ja = ja
        self.missing = missing

    def to_json(self) -> Json:
        """``{"path", "en", "ja"}`` for a client."""
        return {"path": self.path, "en": str(self), "ja": self.ja}


# --------------------------------------------------------------------------------------------
# Card data: a set, or a shipped version
# --------------------------------------------------------------------------------------------


def shipped_labels(ruleset: str) -> list[str]:
    """The shipped card data versions of ``ruleset``, newest first (Kōbō ``v3``, ``v2``...,
    Maken ``shipped``); empty for a ruleset without card data to choose (TWGP)."""
    from kessen.engine.card_sets import format_for

    try:
        return list(format_for(ruleset).parents())
    except CardSetError:
        return []


def _version(label: str) -> int | None:
    """The version number of a Kōbō shipped label (``v2`` → 2)."""
    return int(label[1:]) if re.fullmatch(r"v[0-9]+", label) else None


def _current_label(ruleset: str) -> str:
    labels = shipped_labels(ruleset)
    return labels[0] if labels else SHIPPED


@dataclass(frozen=True)
class Side:
    """One card data of a run: its label for people (a set's name, ``v3``, ``shipped``), the
    ``card_set`` a config names (``NAME@HASH``, empty for shipped data) and the options that
    choose an older shipped version (Kōbō's ``card_data``)."""

    label: str
    card_set: str = ""
    options: Json = field(default_factory=dict)

    def to_json(self) -> Json:
        """``{"label", "kind", "ref"}`` for a client."""
        return {
            "label": self.label,
            "kind": "set" if self.card_set else "shipped",
            "ref": self.card_set,
        }


def resolve_side(store: MatchStore, ruleset: str, value: str, path: str) -> Side:
    """The card data a request names: ``shipped`` or ``""`` (the newest shipped data), a
    shipped version's label, or a card set of the store (pinned to its current revision)."""
    value = " ".join(str(value).split())
    labels = shipped_labels(ruleset)
    if not labels:
        if value in ("", SHIPPED):
            return Side(SHIPPED)
        raise RunRefused(
            path,
            f"{ruleset} has no card data to choose (its cards are a deck of playing cards)",
            f"{ruleset} には選べるカードデータがありません",
        )
    if value in ("", SHIPPED, labels[0]):
        return Side(labels[0])
    if value in labels:
        version = _version(value)
        return Side(value, options={} if version is None else {"card_data": version})
    try:
        info = store.card_sets().info(value)
    except CardSetStoreError as err:
        raise RunRefused(path, str(err), err.ja, missing=False) from None
    if info.ruleset != ruleset:
        raise RunRefused(
            path,
            f"card set {value!r} is a {info.ruleset} set, not {ruleset}",
            f"カードセット「{value}」は {info.ruleset} のセットです（{ruleset} ではありません）",
        )
    return Side(info.name, card_set=str(info.ref))


def side_of(spec: Json) -> Side:
    """The card data a stored run's spec played with."""
    ruleset = str(spec.get("ruleset", "kobo"))
    card_set = str(spec.get("card_set") or "")
    if card_set:
        return Side(card_set.rpartition("@")[0] or card_set, card_set=card_set)
    version = (spec.get("options") or {}).get("card_data")
    if isinstance(version, int) and f"v{version}" != _current_label(ruleset):
        return Side(f"v{version}", options={"card_data": version})
    return Side(_current_label(ruleset) if shipped_labels(ruleset) else SHIPPED)


def _catalog_config(side: Side) -> Json | None:
    if side.card_set:
        return {"card_set": side.card_set}
    return dict(side.options) or None


def deck_choices(ruleset: str, sides: Sequence[Side], lang: str) -> list[Json]:
    """The starter decks every one of ``sides`` has, in the first one's order, each
    ``{"slug", "name"}`` in ``lang``; empty for a ruleset without decks."""
    from kessen.engine import registry

    rules = registry.get(ruleset)
    if "decks" not in rules.default_config:
        return []
    lists = [rules.catalog(lang, _catalog_config(side)) for side in sides]
    first = lists[0]
    info = first.get("character_info") or {}
    out = []
    for slug, deck in (first.get("decks") or {}).items():
        if all(slug in (other.get("decks") or {}) for other in lists[1:]):
            name = deck.get("name") if isinstance(deck, dict) else None
            if not name and isinstance(info.get(slug), dict):
                name = info[slug].get("name")
            out.append({"slug": slug, "name": str(name or slug)})
    return out


def card_names(ruleset: str, sides: Sequence[Side], lang: str) -> dict[str, str]:
    """Every card's name in ``lang``, by the slugs the simulator's card statistics use."""
    from kessen.engine import registry

    out: dict[str, str] = {}
    for side in sides:
        cards = registry.get(ruleset).catalog(lang, _catalog_config(side)).get("cards") or {}
        for key, card in cards.items():
            if isinstance(card, dict):
                name = str(card.get("name") or key)
                out.setdefault(str(key), name)
                out.setdefault(str(card.get("slug") or key), name)
    return out


# --------------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------------


def _winner(game: Mapping[str, Any]) -> int | None:
    w = game.get("winner", TIE)
    return None if w is None else int(w)


def _seat_cards(game: Mapping[str, Any]) -> list[tuple[set[str], set[str]]]:
    """Per seat of one game: the cards it played and the cards it drew."""
    out = []
    for sets in game.get("cards") or ():
        played = {str(c) for kind in PLAYED for c in sets.get(kind) or ()}
        drawn = {str(c) for c in sets.get("draw") or ()}
        out.append((played, drawn))
    return out


def _games(summary: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    games = summary.get("games")
    return list(games) if isinstance(games, list) else []


def played_stats(summaries: Iterable[Mapping[str, Any]]) -> Json:
    """Per card: ``played`` and ``draw``, each the seat-games in which it happened and the
    seat's win rate then (ties half) with its Wilson 95% interval."""
    counts: dict[str, dict[str, list[int]]] = defaultdict(
        lambda: {"played": [0, 0, 0], "draw": [0, 0, 0]}
    )
    for summary in summaries:
        for game in _games(summary):
            winner = _winner(game)
            for seat, (played, drawn) in enumerate(_seat_cards(game)):
                for kind, slugs in (("played", played), ("draw", drawn)):
                    for slug in slugs:
                        tally = counts[slug][kind]
                        tally[0] += 1
                        if winner is None or winner == TIE:
                            tally[2] += 1
                        elif winner == seat:
                            tally[1] += 1
    return {
        slug: {kind: Rate(*counts[slug][kind]).to_json() for kind in ("played", "draw")}
        for slug in sorted(counts)
    }


def _mean_rate(values: Sequence[float]) -> Json:
    n = len(values)
    total = sum(values)
    lo, hi = wilson(total, n)
    return {
        "n": n,
        "rate": round(total / n, 4) if n else 0.0,
        "ci95": [round(lo, 4), round(hi, 4)],
    }


def compare_played(
    pairs: Iterable[tuple[Mapping[str, Any], int, Mapping[str, Any], Mapping[str, Any]]],
) -> Json:
    """Per card: the win rate of the seat-games in which it was played in each half, the
    difference B − A and a two-proportion z test (not paired)."""
    scores: dict[str, list[list[float]]] = defaultdict(lambda: [[], []])
    for _summary, _number, ga, gb in pairs:
        for side, game in enumerate((ga, gb)):
            winner = _winner(game)
            for seat, (played, _drawn) in enumerate(_seat_cards(game)):
                for slug in played:
                    scores[slug][side].append(score(winner, seat))
    out: Json = {}
    for slug in sorted(scores):
        sa, sb = scores[slug]
        ra, rb = _mean_rate(sa), _mean_rate(sb)
        p = two_proportions(sum(sa), len(sa), sum(sb), len(sb))
        out[slug] = {
            "rate_a": ra,
            "rate_b": rb,
            "diff": round(rb["rate"] - ra["rate"], 4),
            "test": {
                "kind": "two-proportion z test",
                "paired": False,
                "p": round(p, 6),
                "significant": p < ALPHA,
            },
        }
    return out


def _trim_distribution(dist: Mapping[str, Any]) -> Json:
    """A length distribution without its histogram (the page bins the games itself)."""
    return {k: v for k, v in dist.items() if k != "histogram"}


def _half(spec: TournamentSpec, side: Side, by_index: Mapping[int, Json]) -> Json:
    ordered = [by_index[i] for i in sorted(by_index)]
    stats = aggregate(ordered, spec.matchups, len(spec.entrants))
    matchups = [
        {
            "a": m["a"],
            "b": m["b"],
            "games": m["games"],
            "matches": m["matches"],
            "first_player": m["first_player"],
            "turns": _trim_distribution(m["turns"]),
            "reasons": m["reasons"],
        }
        for m in stats["matchups"]
    ]
    sides = dict(stats["sides"])
    sides["turns"] = _trim_distribution(sides.get("turns") or {})
    return {
        "side": side.to_json(),
        "games": len(ordered),
        "total": len(spec.matchups) * spec.games,
        "matchups": matchups,
        "entrants": stats["entrants"],
        "first_player": stats["first_player"],
        "sides": sides,
        "turns": _trim_distribution(stats["turns"]),
        "cards": played_stats(ordered),
    }


def _compact(summary: Mapping[str, Any] | None) -> Json | None:
    """One game of one half for the page: outcome, length and its record's id."""
    if summary is None:
        return None
    return {
        "winner": summary.get("winner"),
        "reason": summary.get("reason"),
        "steps": summary.get("steps"),
        "match_id": summary.get("match_id"),
        "games": [
            {
                "winner": g.get("winner"),
                "reason": g.get("reason"),
                "turns": g.get("turns"),
                "first": g.get("first"),
            }
            for g in _games(summary)
        ],
    }


def game_rows(halves: Sequence[Mapping[int, Json]]) -> list[Json]:
    """Every game index played in either half: its seed, entrants, seats and each half's
    outcome (``None`` where that half has not played it)."""
    indexes = sorted(set().union(*(set(h) for h in halves)))
    out = []
    for index in indexes:
        first = next(h[index] for h in halves if index in h)
        out.append(
            {
                "index": index,
                "seed": str(first.get("seed")),
                "a": first.get("a"),
                "b": first.get("b"),
                "seat_a": first.get("seat_a"),
                "results": [_compact(h.get(index)) for h in halves],
            }
        )
    return out


def _turn_means(halves: Sequence[Mapping[int, Json]]) -> list[float | None]:
    out: list[float | None] = []
    for half in halves:
        turns = [
            float(g["turns"])
            for s in half.values()
            for g in _games(s)
            if g.get("turns") is not None
        ]
        out.append(round(statistics.fmean(turns), 3) if turns else None)
    return out


def figures(
    specs: Sequence[TournamentSpec],
    sides: Sequence[Side],
    summaries: Sequence[Mapping[int, Json]],
    lang: str,
) -> Json:
    """Everything the result page shows of a run whose halves played ``specs`` with the card
    data ``sides`` and journaled ``summaries`` (game index → summary with ``match_id``)."""
    spec = specs[0]
    entrants = [{"deck": e.deck, "player": e.player, "label": e.label} for e in spec.entrants]
    labels = [e.label for e in spec.entrants]
    halves = [_half(s, side, h) for s, side, h in zip(specs, sides, summaries, strict=True)]
    decks = {d["slug"]: d["name"] for d in deck_choices(spec.ruleset, sides, lang)}
    out: Json = {
        "kind": "ab" if len(specs) == 2 else "single",
        "ruleset": spec.ruleset,
        "alpha": ALPHA,
        "entrants": entrants,
        "matchups": [list(m) for m in spec.matchups],
        "halves": halves,
        "games": game_rows(summaries),
        "turn_means": _turn_means(summaries),
        "deck_names": decks,
        "card_names": card_names(spec.ruleset, sides, lang) if profile(spec.ruleset).cards else {},
    }
    if len(specs) == 2:
        a, b = summaries
        names = (sides[0].label, sides[1].label)
        found = compare(a, b, spec.matchups, labels, names=names, seed=spec.seed)
        found.pop("cards", None)  # per kind; the page compares the cards played
        found["played"] = compare_played(paired_games(a, b))
        out["compare"] = found
    return out

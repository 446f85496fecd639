"""Versions of Kōbō's card data: the current pool and every earlier one a record may name.

Balance work changes cards' numbers; a match recorded before the change must still replay
exactly as it was played. The shipped ``data/cards.toml`` carries a top-level ``version``;
every earlier version is kept byte for byte as ``data/cards-v<N>.toml``, so its SHA-256 is
the ``data_hash`` the records made under it carry, with its starter decks in
``data/decks-v<N>/`` (a record may name a starter deck rather than list it; the decks that
need a match option in its ``options/`` folder). A config names its card data with the key
``card_data``; a record whose config predates that key is pinned by its data hash
(:func:`record_config`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from kessen.engine.contract import Json
from kessen.games.kobo.card_sets import set_data
from kessen.games.kobo.decks import Deck, starter_decks, starter_folder
from kessen.games.kobo.schema import DATA_DIR, CardPool, load_pool

LEGACY_VERSION = 1
"""The version of card data without a ``version`` field (everything recorded before it)."""


def current_version() -> int:
    """The version of the shipped card pool."""
    return load_pool().version


def archived_versions() -> dict[int, CardPool]:
    """Every earlier card pool kept in the package, by version."""
    return dict(_archive())


@functools.cache
def _archive() -> dict[int, CardPool]:
    found: dict[int, CardPool] = {}
    for path in sorted(DATA_DIR.glob("cards-v*.toml")):
        number = path.stem.removeprefix("cards-v")
        if not number.isdigit():
            continue
        pool = load_pool(path)
        if pool.version != int(number):
            raise ValueError(f"{path}: its version is {pool.version}, its name says {number}")
        found[pool.version] = pool
    return found


def pool_for(version: int) -> CardPool:
    """The card pool of ``version``; ``KeyError`` naming the known versions if there is none."""
    if version == current_version():
        return load_pool()
    archive = _archive()
    if version not in archive:
        known = sorted({*archive, current_version()})
        raise KeyError(f"no card data version {version}; known: {known}")
    return archive[version]


def starters_for(version: int, options: frozenset[str] = frozenset()) -> dict[str, Deck]:
    """The starter decks a config of card data ``version`` names: the shipped ones for the
    current version, else the lists kept with that version (``data/decks-v<N>/``), so a record
    that names a starter deck replays with the list it was played with."""
    if version == current_version():
        return starter_decks(options=options)
    kept = _archived_starters(version)
    return {slug: deck for slug, deck in kept.items() if set(deck.requires) <= set(options)}


@functools.cache
def _archived_starters(version: int) -> dict[str, Deck]:
    """The decks of ``data/decks-v<N>/`` and of its ``options/`` folder (the decks that need
    a match option, kept like the shipped ``data/decks/options/``)."""
    folder = DATA_DIR / f"decks-v{version}"
    if not folder.is_dir():
        raise KeyError(f"no starter decks kept for card data version {version}")
    pool = pool_for(version)
    decks = starter_folder(folder, pool)
    optional = folder / "options"
    if optional.is_dir():
        extra = starter_folder(optional, pool)
        plain = sorted(slug for slug, deck in extra.items() if not deck.requires)
        if plain:
            raise ValueError(f"{optional}: these decks need no match option: {plain}")
        decks.update(extra)
    return decks


def known_versions() -> list[int]:
    """Every version a config may name, oldest first."""
    return list(_known_versions())


@functools.cache
def _known_versions() -> tuple[int, ...]:
    return tuple(sorted({*_archive(), current_version()}))


def version_of_hash(data_hash: str) -> int | None:
    """The version whose file has this SHA-256, if the package keeps it."""
    if data_hash == load_pool().data_hash:
        return current_version()
    for version, pool in _archive().items():
        if pool.data_hash == data_hash:
            return version
    return None


def data_pool(card_data: int, card_set: str = "") -> CardPool:
    """The pool a config plays with: its card set's (``card_set``, a designer's set:
    :mod:`kessen.games.kobo.card_sets`) or the shipped version ``card_data``."""
    if card_set:
        return set_data(card_set).pool
    return pool_for(card_data)


def record_config(config: Mapping[str, Any], data_hash: str) -> Json:
    """The config that replays a record made under ``data_hash``: a config that names no
    card data (no version, no card set) gets the version whose file has that hash (unchanged
    if none has)."""
    if "card_data" in config or "card_set" in config:
        return dict(config)
    version = version_of_hash(data_hash)
    if version is None:
        return dict(config)
    return {**config, "card_data": version}

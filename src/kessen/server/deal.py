"""Who deals a match: the server's randomness, unless a practice match asks for an open deal.

A seed rebuilds every hidden card of a match (both hands, both decks' order), and some config
switches take the deal out of chance's hands (Kōbō's ``shuffle: false``, a TWGP build's
``pile``: the ruleset's :attr:`~kessen.engine.registry.Ruleset.fixed_deal`). Whoever chose
them knows what the other seat holds. So:

- A match between two people (``vs_human``) is always dealt by the server: a ``seed`` or a
  switch that fixes the deal is refused (422) with the reason.
- Against COM and COM against COM, a client may still ask for them (practice, demonstrations,
  reproducing a reported game): the match is then an **open deal**, so marked in its record's
  meta (``open_deal``: the reasons), in the history listing and in the live view. A match the
  server dealt never is. Choosing the secret build of COM's seat makes an open deal too: the
  player knows COM's hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from fastapi import HTTPException

from kessen.engine import registry

SEED_REASON = "seed: the client chose the seed, which rebuilds every hidden card"


def draw_seed() -> int:
    """The server's own deal: a seed from the operating system's randomness."""
    return random.SystemRandom().randrange(2**62)


def open_deal(ruleset: str, mode: str, seed_chosen: bool, config: Mapping[str, Any]) -> list[str]:
    """Why a match of ``ruleset`` started so would be an open deal (empty: a fair deal)."""
    rules = registry.get(ruleset)
    reasons = [SEED_REASON] if seed_chosen else []
    reasons += rules.fixed_deal(config)
    found = rules.decks
    if mode == "vs_com" and found is not None and found.secret:
        entries = config.get(found.config_key)
        if isinstance(entries, list) and len(entries) > 1 and entries[1] is not None:
            reasons.append(
                f"{found.config_key}[1]: COM's secret {found.file_stem} was chosen by its opponent"
            )
    return reasons


def refuse_chosen_deal(mode: str, reasons: list[str]) -> None:
    """422 when a match between two people would be an open deal: the server deals it."""
    if mode == "vs_human" and reasons:
        raise HTTPException(
            422,
            "a match between two people is dealt by the server, so that neither player knows "
            f"the other's cards; refused: {'; '.join(reasons)}",
        )

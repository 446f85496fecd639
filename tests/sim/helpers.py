"""Shared helpers of the simulator tests."""

from __future__ import annotations

from typing import Any

from kessen.sim.tournament import TournamentResult


def identity(result: TournamentResult) -> list[dict[str, Any]]:
    """Per-game results without what may differ between runs (store ids)."""
    return [{k: v for k, v in s.items() if k != "match_id"} for s in result.summaries]

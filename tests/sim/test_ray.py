"""The same 50-game tournament on local processes and on a local Ray gives identical results."""

from __future__ import annotations

import importlib.util

import pytest

from kessen.sim.backends import LocalBackend, RayBackend
from kessen.sim.tournament import MemoryJournal, TournamentSpec, run
from tests.sim.helpers import identity

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="Ray is not installed (pip install 'kessen[ray]' or pip install ray)",
)

# Four entrants and their mirror matches: 10 matchups × 5 = 50 games.
SPEC = TournamentSpec(
    decks=("swarm", "tempo"), players=("random", "heuristic"), games=5, seed=2024, mirror=True
)


def test_local_and_ray_give_identical_per_game_results() -> None:
    import ray

    assert len(SPEC.schedule()) == 50
    with LocalBackend(2) as backend:
        local = run(SPEC, MemoryJournal(), backend)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        backend = RayBackend()  # uses the running Ray, leaves it to us
        assert backend.workers == 2
        on_ray = run(SPEC, MemoryJournal(), backend)
        backend.close()
        assert ray.is_initialized()
    finally:
        ray.shutdown()
    assert on_ray.backend == "ray"
    assert identity(on_ray) == identity(local)
    assert on_ray.stats == local.stats


def test_an_address_nobody_answers_is_refused_at_once() -> None:
    """``kessen sim --ray HOST:PORT`` with nothing there: one line within seconds (Ray alone
    would retry for minutes)."""
    import time

    from kessen.sim.backends import BackendError
    from kessen.sim.backends import RayBackend as Backend

    began = time.monotonic()
    with pytest.raises(BackendError, match=r"nothing answers at 127\.0\.0\.1:1"):
        Backend("127.0.0.1:1")
    assert time.monotonic() - began < 10

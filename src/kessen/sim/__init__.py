"""Simulation at scale: round-robin tournaments of COM players, statistics and reports.

- :mod:`kessen.sim.tournament`: specs, seeding, playing games, journals, :func:`run`;
- :mod:`kessen.sim.backends`: this process, local processes (default) or Ray;
- :mod:`kessen.sim.stats`: Wilson intervals, matchup, first-player, length and card statistics;
- :mod:`kessen.sim.report`: the HTML (matplotlib plots) and JSON report;
- :mod:`kessen.sim.commands`: the ``kessen sim`` and ``kessen store`` commands (typer).
"""

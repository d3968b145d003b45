"""Seeded simulation: many games played by bots, summarised with streaming statistics."""

from gachapress.sim.runner import SimSpec, game_seed, run_sim, run_sims
from gachapress.sim.stats import Summary

__all__ = ["SimSpec", "Summary", "game_seed", "run_sim", "run_sims"]

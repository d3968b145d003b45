"""Balance sweeps: variants of a game's rules data x player counts, played on Dask."""

from gachapress.sweep.file import Cell, Sweep, Variant, load_sweep
from gachapress.sweep.run import Store, run_sweep

__all__ = ["Cell", "Store", "Sweep", "Variant", "load_sweep", "run_sweep"]

"""Run many seeded games, in one process or several, with the same result either way."""

from __future__ import annotations

import hashlib
import itertools
import multiprocessing
import multiprocessing.pool
import os
import queue
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from gachapress.engine.core import Game, load_game
from gachapress.engine.play import make_bots, play_game
from gachapress.sim.stats import Summary

#: Games per unit of work handed to a process.
CHUNK = 200
#: Most games one run may ask for (a billion: days of work, still counted exactly).
MAX_GAMES = 10**9


def usable_jobs(jobs: int) -> int:
    """``jobs`` capped at the machine's CPU count (more processes only add overhead)."""
    return max(1, min(jobs, os.cpu_count() or 1))


@dataclass(frozen=True)
class SimSpec:
    """What to simulate."""

    game: str
    players: int
    games: int
    seed: int
    mode: str | None = None
    bots: tuple[str, ...] = ("random",)
    rules_dir: Path | None = None
    options: tuple[str, ...] = ()


def game_seed(seed: int, index: int) -> int:
    """The seed of the ``index``-th game of a run: independent of how the run is split."""
    digest = hashlib.sha256(f"gachapress/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _chunks(spec: SimSpec) -> Iterator[tuple[SimSpec, int, int]]:
    for start in range(0, spec.games, CHUNK):
        yield spec, start, min(spec.games, start + CHUNK)


def _play_chunk(job: tuple[SimSpec, int, int]) -> Summary:
    spec, start, stop = job
    game = _game(spec)
    summary = Summary(spec.players)
    for index in range(start, stop):
        seed = game_seed(spec.seed, index)
        _, result = play_game(game, spec.players, seed, spec.mode, spec.bots, spec.options)
        summary.add(result)
    return summary


_GAMES: dict[tuple[str, Path | None], Game] = {}


def _game(spec: SimSpec) -> Game:
    """The game of ``spec``, loaded once per process."""
    key = (spec.game, spec.rules_dir)
    if key not in _GAMES:
        _GAMES[key] = load_game(spec.game, spec.rules_dir)
    return _GAMES[key]


def run_sim(spec: SimSpec, jobs: int = 1, progress: Callable[[int], None] | None = None) -> Summary:
    """Play the games of ``spec`` on ``jobs`` processes; ``progress`` hears of finished games."""
    game = _game(spec)
    # fail early on a bad player count or option
    game.new_game(players=spec.players, seed=0, mode=spec.mode, options=spec.options)
    make_bots(game, spec.bots, spec.players, 0)  # and on an unknown bot
    total = Summary(spec.players)
    work = _chunks(spec)  # a generator: a run of any length holds only the chunks in flight
    if jobs <= 1 or spec.games <= CHUNK:
        results: Iterator[Summary] = map(_play_chunk, work)
        for part in results:
            total.merge(part)
            if progress:
                progress(part.games)
        return total
    with multiprocessing.get_context().Pool(processes=jobs) as pool:
        for part in _bounded(pool, work, 4 * jobs):
            total.merge(part)
            if progress:
                progress(part.games)
    return total


def _bounded(
    pool: multiprocessing.pool.Pool, work: Iterator[tuple[SimSpec, int, int]], window: int
) -> Iterator[Summary]:
    """The pool's results for ``work``, with at most ``window`` chunks handed out at once (a
    pool reads its whole input ahead otherwise), in order of completion."""
    done: queue.SimpleQueue[Summary | BaseException] = queue.SimpleQueue()
    pending = 0
    for job in itertools.islice(work, window):
        pool.apply_async(_play_chunk, (job,), callback=done.put, error_callback=done.put)
        pending += 1
    while pending:
        part = done.get()
        pending -= 1
        if isinstance(part, BaseException):
            raise part
        for job in itertools.islice(work, 1):
            pool.apply_async(_play_chunk, (job,), callback=done.put, error_callback=done.put)
            pending += 1
        yield part

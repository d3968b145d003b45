"""Run many seeded games, in one process or several, with the same result either way."""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import multiprocessing
import multiprocessing.pool
import os
import queue
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

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
    return play_games(_game(spec), spec, start, stop)


class SeededRun(Protocol):
    """What playing a chunk of games reads: a `SimSpec`, or a sweep's cell plan."""

    @property
    def players(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def mode(self) -> str | None: ...
    @property
    def bots(self) -> tuple[str, ...]: ...
    @property
    def options(self) -> tuple[str, ...]: ...


def play_games(game: Game, spec: SeededRun, start: int, stop: int) -> Summary:
    """Play games ``start`` to ``stop`` of a seeded run and summarise them: a chunk of a `sim`
    or of a sweep's cell."""
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
    hear = (lambda _, games: progress(games)) if progress else None
    return run_sims([spec], jobs, hear)[0]


def run_sims(
    specs: Sequence[SimSpec],
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> list[Summary]:
    """Play the games of every spec, all of them spread over one pool of ``jobs`` processes;
    ``progress(i, games)`` hears that ``games`` more games of ``specs[i]`` finished. Each
    summary is the same whatever ``jobs`` is."""
    for spec in specs:  # fail early on a bad player count, option or bot
        game = _game(spec)
        game.new_game(players=spec.players, seed=0, mode=spec.mode, options=spec.options)
        make_bots(game, spec.bots, spec.players, 0)
    totals = [Summary(spec.players) for spec in specs]
    # a generator: a run of any length holds only the chunks in flight
    work = ((i, chunk) for i, spec in enumerate(specs) for chunk in _chunks(spec))
    chunks = sum(-(-spec.games // CHUNK) for spec in specs)
    with contextlib.ExitStack() as stack:
        if jobs <= 1 or chunks <= 1:
            results: Iterator[tuple[int, Summary]] = map(_play_numbered, work)
        else:
            pool = stack.enter_context(multiprocessing.get_context().Pool(processes=jobs))
            results = _bounded(pool, work, 4 * jobs)
        for i, part in results:
            totals[i].merge(part)
            if progress:
                progress(i, part.games)
    return totals


def _play_numbered(job: tuple[int, tuple[SimSpec, int, int]]) -> tuple[int, Summary]:
    return job[0], _play_chunk(job[1])


def _bounded(
    pool: multiprocessing.pool.Pool,
    work: Iterator[tuple[int, tuple[SimSpec, int, int]]],
    window: int,
) -> Iterator[tuple[int, Summary]]:
    """The pool's results for ``work``, with at most ``window`` chunks handed out at once (a
    pool reads its whole input ahead otherwise), in order of completion."""
    done: queue.SimpleQueue[tuple[int, Summary] | BaseException] = queue.SimpleQueue()
    pending = 0
    for job in itertools.islice(work, window):
        pool.apply_async(_play_numbered, (job,), callback=done.put, error_callback=done.put)
        pending += 1
    while pending:
        part = done.get()
        pending -= 1
        if isinstance(part, BaseException):
            raise part
        for job in itertools.islice(work, 1):
            pool.apply_async(_play_numbered, (job,), callback=done.put, error_callback=done.put)
            pending += 1
        yield part

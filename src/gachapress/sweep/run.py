"""Play a sweep's cells in seeded chunks, in this process or on Dask workers, keeping each
finished cell in a results store so that an interrupted sweep resumes where it stopped.

A game's seed comes from its cell and its index alone, and each cell's chunks are merged in
index order, so the results are the same bytes whatever the workers, chunk size or finishing
order. Only the chunks in flight are held: a sweep of any size runs in flat memory.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import os
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gachapress.data.load import rules_from_data
from gachapress.data.yamlsource import Locations
from gachapress.engine.core import Game
from gachapress.errors import GachapressError
from gachapress.sim import Summary
from gachapress.sim.runner import play_games
from gachapress.sweep.file import Cell, Sweep

#: Chunks handed out per worker thread at once (enough to keep every worker busy).
WINDOW_PER_THREAD = 4
#: Varied games a worker process keeps built.
GAMES_KEPT = 8
#: How long to try reaching a scheduler before giving up.
CONNECT_SECONDS = 10


@dataclass(frozen=True)
class Plan:
    """All a worker needs to play a cell's games: plain data, sent once per cell."""

    game: str
    folder: str
    data: dict[str, Any]
    rules_hash: str
    mode: str
    options: tuple[str, ...]
    bots: tuple[str, ...]
    players: int
    seed: int


@dataclass(frozen=True)
class Chunk:
    """Games ``start`` to ``stop`` (exclusive) of the cell numbered ``cell``."""

    cell: int
    index: int
    plan: Plan
    start: int
    stop: int


Played = tuple[int, int, Summary]
"""(cell number, chunk index, the chunk's statistics)."""
Runner = Callable[[Iterator[Chunk]], Iterator[Played]]


_GAMES: OrderedDict[tuple[str, str], Game] = OrderedDict()


def _game(plan: Plan) -> Game:
    """The varied game of a plan, built once per worker process (the data was checked)."""
    key = (plan.game, plan.rules_hash)
    if key not in _GAMES:
        data = rules_from_data(plan.game, Path(plan.folder), plan.data, Locations())
        _GAMES[key] = Game(data)
        while len(_GAMES) > GAMES_KEPT:
            _GAMES.popitem(last=False)
    return _GAMES[key]


def play_chunk(plan: Plan, start: int, stop: int) -> Summary:
    """Play games ``start`` to ``stop`` of a cell and summarise them."""
    return play_games(_game(plan), plan, start, stop)


def in_process(work: Iterator[Chunk]) -> Iterator[Played]:
    """Play every chunk here, one after the other."""
    for chunk in work:
        yield chunk.cell, chunk.index, play_chunk(chunk.plan, chunk.start, chunk.stop)


@contextlib.contextmanager
def dask_runner(workers: int | None, scheduler: str | None) -> Iterator[Runner]:
    """A runner on a Dask cluster: a running scheduler's, or a LocalCluster of ``workers``
    single-threaded processes (every core when None), quiet and without a dashboard."""
    from distributed import Client, LocalCluster

    with contextlib.ExitStack() as stack:
        if scheduler is not None:
            try:
                client = stack.enter_context(Client(scheduler, timeout=CONNECT_SECONDS))
            except (OSError, ValueError) as exc:
                message = f"cannot reach the Dask scheduler at {scheduler}: {exc}"
                raise GachapressError(message) from None
        else:
            cluster = stack.enter_context(
                LocalCluster(
                    n_workers=workers or os.cpu_count() or 1,
                    processes=True,
                    threads_per_worker=1,
                    dashboard_address=None,
                    # the scheduler's health routes on a free local port, not 8787 (warns if taken)
                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                    silence_logs=logging.ERROR,
                )
            )
            client = stack.enter_context(Client(cluster))
        yield lambda work: _on_dask(client, work)


def _on_dask(client: Any, work: Iterator[Chunk]) -> Iterator[Played]:
    """The chunks' results in order of completion, a bounded number in flight."""
    from distributed import as_completed

    window = WINDOW_PER_THREAD * max(1, sum(client.nthreads().values()))
    plans: dict[int, Any] = {}
    tags: dict[str, tuple[int, int]] = {}
    running = as_completed()

    def submit(chunk: Chunk) -> None:
        if chunk.cell not in plans:
            plans.clear()  # cells are handed out in order: the previous plans are done with
            plans[chunk.cell] = client.scatter(chunk.plan, hash=False)
        future = client.submit(play_chunk, plans[chunk.cell], chunk.start, chunk.stop, pure=False)
        tags[future.key] = (chunk.cell, chunk.index)
        running.add(future)

    for chunk in itertools.islice(work, window):
        submit(chunk)
    for future in running:
        cell, index = tags.pop(future.key)
        summary = future.result()
        future.release()
        for chunk in itertools.islice(work, 1):
            submit(chunk)
        yield cell, index, summary


class Store:
    """Finished cells, one JSON file each under ``folder/cells/``, named by the cell's key."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder / "cells"

    def path(self, cell: Cell) -> Path:
        return self.folder / f"{cell.key}.json"

    def load(self, cell: Cell) -> Summary | None:
        """The cell's statistics if a previous run finished it (a damaged file is no result)."""
        try:
            data = json.loads(self.path(cell).read_text(encoding="utf-8"))
            if data.get("key") == cell.key:
                return Summary.from_counts(data["summary"])
        except (OSError, ValueError, KeyError, TypeError):
            pass
        return None

    def save(self, cell: Cell, summary: Summary) -> None:
        """Write the cell's file whole or not at all."""
        self.folder.mkdir(parents=True, exist_ok=True)
        record = {
            "key": cell.key,
            "variant": cell.variant.name,
            "players": cell.players,
            "summary": summary.counts(),
        }
        target = self.path(cell)
        partial = target.with_name(f".{target.name}.{os.getpid()}")
        partial.write_text(json.dumps(record, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(partial, target)


def run_sweep(
    sweep: Sweep,
    store: Store,
    runner: Runner,
    *,
    progress: Callable[[int], None] = lambda games: None,
    finished: Callable[[Cell, bool], None] = lambda cell, skipped: None,
) -> list[Summary]:
    """Each cell's statistics, in the sweep's order: from the store when a previous run
    finished it (``finished(cell, True)``), else played (``progress`` hears of each chunk's
    games, ``finished(cell, False)`` of each cell, once it is stored)."""
    results: dict[int, Summary] = {}
    for number, cell in enumerate(sweep.cells):
        kept = store.load(cell)
        if kept is not None:
            results[number] = kept
            finished(cell, True)
    todo = [n for n in range(len(sweep.cells)) if n not in results]
    chunks = {n: -(-sweep.spec.games // sweep.spec.chunk) for n in todo}
    merged = {n: Summary(sweep.cells[n].players) for n in todo}
    waiting: dict[int, dict[int, Summary]] = {n: {} for n in todo}
    following = dict.fromkeys(todo, 0)
    for number, index, part in runner(_work(sweep, todo)):
        progress(part.games)
        waiting[number][index] = part
        while following[number] in waiting[number]:  # merge in chunk order
            merged[number].merge(waiting[number].pop(following[number]))
            following[number] += 1
        if following[number] == chunks[number]:
            store.save(sweep.cells[number], merged[number])
            results[number] = merged[number]
            finished(sweep.cells[number], False)
    return [results[n] for n in range(len(sweep.cells))]


def _work(sweep: Sweep, todo: list[int]) -> Iterator[Chunk]:
    spec = sweep.spec
    for number in todo:
        cell = sweep.cells[number]
        plan = Plan(
            spec.game,
            str(sweep.folder),
            cell.variant.data,
            cell.variant.rules_hash,
            sweep.mode,
            tuple(sorted(spec.options)),
            tuple(spec.bots),
            cell.players,
            cell.seed,
        )
        for index, start in enumerate(range(0, spec.games, spec.chunk)):
            yield Chunk(number, index, plan, start, min(spec.games, start + spec.chunk))

"""Play a sweep's cells in seeded chunks, in this process or on Dask workers, keeping each
finished cell in a results store so that an interrupted sweep resumes where it stopped.

A game's seed comes from its cell and its index alone, and each cell's chunks are merged in
index order, so the results are the same bytes whatever the workers, chunk size or finishing
order. Only the chunks in flight are held: a sweep of any size runs in flat memory.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import logging
import os
import stat
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
from gachapress.sim.runner import play_games, usable_jobs
from gachapress.sim.stats import CREDIT
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
    single-threaded processes (every core when None; never more than the cores), quiet and
    without a dashboard. A lost worker or scheduler is a GachapressError, and closing the
    cluster logs nothing (the results are kept by then)."""
    from distributed import Client, LocalCluster

    stack = contextlib.ExitStack()
    try:
        if scheduler is not None:
            try:
                client = stack.enter_context(Client(scheduler, timeout=CONNECT_SECONDS))
            except (OSError, ValueError) as exc:
                message = f"cannot reach the Dask scheduler at {scheduler}: {exc}"
                raise GachapressError(message) from None
        else:
            cluster = stack.enter_context(
                LocalCluster(
                    n_workers=usable_jobs(workers or os.cpu_count() or 1),
                    processes=True,
                    threads_per_worker=1,
                    dashboard_address=None,
                    # the scheduler's health routes on a free local port, not 8787 (warns if taken)
                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                    silence_logs=logging.ERROR,
                )
            )
            client = stack.enter_context(Client(cluster))
        try:
            yield lambda work: _on_dask(client, work)
        except (OSError, TimeoutError) as exc:  # CommClosedError is an OSError
            raise GachapressError(f"the Dask cluster stopped answering: {exc}") from None
        except Exception as exc:
            if type(exc).__name__ != "KilledWorker":
                raise
            raise GachapressError(f"a Dask worker died playing the sweep: {exc}") from None
    finally:
        _close_quietly(stack)


#: The loggers that report a cluster's connections closing while it shuts down.
_SHUTDOWN_LOGGERS = ("distributed", "tornado", "asyncio")


def _close_quietly(stack: contextlib.ExitStack) -> None:
    """Close the client and the cluster without logging or raising what their connections
    closing says (a CommClosedError from a worker gone first is no fault of the sweep)."""
    loggers = [logging.getLogger(name) for name in _SHUTDOWN_LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        stack.close()
    except (OSError, TimeoutError, RuntimeError):
        pass
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


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


#: The largest cell file a sweep reads back (a real one is a few kilobytes: histograms of a
#: cell's scores and lengths); a bigger file is no cell of this tool's and is played again.
MAX_CELL_BYTES = 4 * 1024 * 1024


class CellRejected(Exception):
    """A kept cell file that is not what the sweep wrote; the message says why."""


class Store:
    """Finished cells, one JSON file each under ``folder/cells/``, named by the cell's key.

    A file is read back only if it is a regular file (not a link, device or FIFO) of at most
    ``MAX_CELL_BYTES``, its ``digest`` is the hash of the rest as written, and its counts are
    those of the cell's games; anything else is not a result (``CellRejected`` says why) and
    the cell is played again."""

    def __init__(
        self, folder: Path, lock: Callable[[], contextlib.AbstractContextManager[Any]] | None = None
    ) -> None:
        self.folder = folder / "cells"
        self.lock = lock or contextlib.nullcontext
        """Held while a cell is written (out/'s lock: a build's swap never drops a cell)."""

    def path(self, cell: Cell) -> Path:
        return self.folder / f"{cell.key}.json"

    def load(self, cell: Cell) -> Summary | None:
        """The cell's statistics if a previous run finished it, None if no file is kept for
        it. Raises CellRejected for a file that is not the cell's results as written."""
        path = self.path(cell)
        try:
            text = _read_bounded(path)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise CellRejected(f"cannot be read ({exc.strerror or exc})") from None
        try:
            record = json.loads(text)
            if not isinstance(record, dict):
                raise ValueError("not a JSON object")
            digest = record.pop("digest", None)
            if digest != _digest(record):
                raise CellRejected("does not match the digest the sweep wrote with it")
            if record.get("key") != cell.key or record.get("players") != cell.players:
                raise CellRejected("holds another cell's results")
            return _summary(record["summary"], cell)
        except CellRejected:
            raise
        except (ValueError, KeyError, TypeError, IndexError, RecursionError) as exc:
            raise CellRejected(f"is damaged ({exc})") from None

    def kept(self, cell: Cell) -> bool:
        """Whether a previous run's results of the cell are kept, and sound."""
        try:
            return self.load(cell) is not None
        except CellRejected:
            return False

    def save(self, cell: Cell, summary: Summary) -> None:
        """Write the cell's file whole or not at all, with the digest of its content, holding
        the store's lock."""
        record = {
            "key": cell.key,
            "variant": cell.variant.name,
            "players": cell.players,
            "summary": summary.counts(),
        }
        record["digest"] = _digest(record)
        target = self.path(cell)
        partial = target.with_name(f".{target.name}.{os.getpid()}")
        try:
            with self.lock():
                self.folder.mkdir(parents=True, exist_ok=True)
                partial.write_text(json.dumps(record, sort_keys=True) + "\n", encoding="utf-8")
                os.replace(partial, target)  # a link or FIFO there is replaced, not followed
        except OSError as exc:
            with contextlib.suppress(OSError):
                partial.unlink()
            raise GachapressError(
                f"cannot keep the cell's results in {target}: {exc.strerror or exc}"
            ) from None


def _read_bounded(path: Path) -> str:
    """A regular file's text, at most MAX_CELL_BYTES: a link is not followed and a FIFO or
    device is not opened for reading (CellRejected), so nothing hangs or fills memory."""
    info = os.lstat(path)
    if not stat.S_ISREG(info.st_mode):
        raise CellRejected(f"is not a regular file ({_kind(info.st_mode)})")
    if info.st_size > MAX_CELL_BYTES:
        raise CellRejected(f"is too large ({info.st_size:,} bytes) for a cell")
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)  # what was opened, should the name have changed since
        if not stat.S_ISREG(info.st_mode):
            raise CellRejected(f"is not a regular file ({_kind(info.st_mode)})")
        data = os.read(fd, MAX_CELL_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_CELL_BYTES:
        raise CellRejected(f"is too large (over {MAX_CELL_BYTES:,} bytes) for a cell")
    return data.decode("utf-8")


def _kind(mode: int) -> str:
    kinds = {
        stat.S_ISLNK: "a symbolic link",
        stat.S_ISDIR: "a folder",
        stat.S_ISFIFO: "a FIFO",
        stat.S_ISCHR: "a device",
        stat.S_ISBLK: "a device",
        stat.S_ISSOCK: "a socket",
    }
    return next((name for test, name in kinds.items() if test(mode)), "not a file")


def _digest(record: dict[str, Any]) -> str:
    text = json.dumps(record, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _summary(counts: Any, cell: Cell) -> Summary:
    """The statistics of ``counts`` when they can be those of the cell's games: every count a
    whole number from 0 to the games played, one per seat where the seats count, and every
    histogram adding up to the games. CellRejected otherwise."""
    games, players = cell.games, cell.players

    def count(value: Any, most: int = games) -> int:
        if type(value) is not int or not 0 <= value <= most:
            raise CellRejected(f"has an impossible count {value!r} for {games} games")
        return value

    def seats(values: Any, most: int = games) -> list[int]:
        if not isinstance(values, list) or len(values) != players:
            raise CellRejected(f"does not have one count per seat of {players}")
        return [count(v, most) for v in values]

    def histogram(pairs: Any) -> None:
        if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 and type(p[0]) is int for p in pairs
        ):
            raise CellRejected("has a histogram that is not [value, games] pairs")
        if sum(count(n) for _, n in pairs) != games:
            raise CellRejected(f"has a histogram that does not add up to {games} games")

    def named(table: Any) -> dict[str, int]:
        if not isinstance(table, dict) or not all(isinstance(k, str) for k in table):
            raise CellRejected("has counts that are not named")
        return {k: count(v) for k, v in table.items()}

    if not isinstance(counts, dict):
        raise CellRejected("has no counts")
    if counts.get("players") != players or count(counts.get("games")) != games:
        raise CellRejected(f"does not count {games} games of {players} players")
    credit = seats(counts.get("win_credit"), CREDIT * games)
    outright = seats(counts.get("outright_wins"))
    seats(counts.get("shared_wins"))
    scores = counts.get("scores")
    if not isinstance(scores, list) or len(scores) != players:
        raise CellRejected(f"does not have scores for each seat of {players}")
    for pairs in [*scores, counts.get("actions"), counts.get("rounds")]:
        histogram(pairs)
    if sum(named(counts.get("end_conditions")).values()) != games:
        raise CellRejected(f"has end conditions that do not add up to {games} games")
    named(counts.get("rare_events"))
    if sum(credit) > CREDIT * games or sum(outright) > games:
        raise CellRejected(f"credits more wins than {games} games")
    summary = Summary.from_counts(counts)
    if summary.counts() != counts:
        raise CellRejected("holds counts out of their order or repeated")
    return summary


def run_sweep(
    sweep: Sweep,
    store: Store,
    runner: Runner,
    *,
    progress: Callable[[int], None] = lambda games: None,
    finished: Callable[[Cell, bool], None] = lambda cell, skipped: None,
    rejected: Callable[[Cell, str], None] = lambda cell, why: None,
) -> list[Summary]:
    """Each cell's statistics, in the sweep's order: from the store when a previous run
    finished it (``finished(cell, True)``), else played (``progress`` hears of each chunk's
    games, ``finished(cell, False)`` of each cell, once it is stored). A kept file that is not
    the cell's results as written is played again, ``rejected(cell, why)`` first."""
    results: dict[int, Summary] = {}
    for number, cell in enumerate(sweep.cells):
        try:
            kept = store.load(cell)
        except CellRejected as exc:
            rejected(cell, str(exc))
            kept = None
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

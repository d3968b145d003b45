"""`gachapress sweep`: play every variant of a sweep file at every player count, on Dask."""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from gachapress.assembly import outdir
from gachapress.cli.common import (
    RootOption,
    cap_processes,
    echo,
    print_problems,
    progress_bar,
    rules_dir,
)
from gachapress.errors import GachapressError, RulesError
from gachapress.project import Templates
from gachapress.sweep.file import Cell, Sweep, load_sweep
from gachapress.sweep.run import Runner, Store, dask_runner, in_process, run_sweep


def sweep(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", dir_okay=False, help="A sweep file (YAML).")
    ],
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            min=1,
            help="Local worker processes, at most the CPU count (default: every core; 1 plays "
            "in this process).",
        ),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler", metavar="ADDRESS", help="A running Dask scheduler, tcp://host:8786."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    out: Annotated[
        Path | None,
        typer.Option("--out", file_okay=False, help="Output folder (default: the project's out/)."),
    ] = None,
    root: RootOption = Path("."),
) -> None:
    """Play a balance sweep: every variant of the rules x player count, seeded games each.

    Each finished cell is kept under OUT/<game>/sweeps/<name>/cells/, so an interrupted sweep
    run again plays only what is missing; the report goes to OUT/<game>/sweeps/<name>.html.
    The same file gives the same bytes whatever the workers.
    """
    if workers is not None and scheduler is not None:
        raise typer.BadParameter(
            "give --workers or --scheduler, not both", param_hint="'--workers'"
        )
    if workers is not None:
        workers = cap_processes("--workers", workers)
    try:
        plan = load_sweep(file, rules_dir(root))
    except RulesError as exc:
        print_problems(exc.problems)
        raise typer.Exit(1) from None
    out = out if out is not None else root / "out"
    lock = _out_lock(out)
    try:
        with lock():
            _prepare(out, root)
    except OSError as exc:
        echo(f"error: cannot write {exc.filename or out}: {exc.strerror or exc}", err=True)
        raise typer.Exit(1) from None
    except GachapressError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--out'") from None
    folder = out / plan.spec.game / "sweeps"
    store = Store(folder / plan.name, lock)
    kept = sum(store.kept(cell) for cell in plan.cells)
    started = time.perf_counter()
    try:
        with _runner(workers, scheduler) as runner, _progress(plan, not as_json) as tell:
            summaries = run_sweep(
                plan, store, runner, progress=tell[0], finished=tell[1], rejected=_replaying(store)
            )
    except GachapressError as exc:
        echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        kept = sum(store.kept(cell) for cell in plan.cells)
        echo(
            f"interrupted: {kept} of {len(plan.cells)} cells are kept in {store.folder}; "
            "run the same command again to play the rest",
            err=True,
        )
        raise typer.Exit(130) from None
    elapsed = time.perf_counter() - started
    from gachapress.sweep.report import sweep_report, write_page  # charts and jinja2: only here

    report = sweep_report(plan, summaries)
    page = folder / f"{plan.name}.html"
    title = f"{plan.game_name}: sweep {plan.name}"
    try:
        with lock():
            write_page(report, title, Templates(root), page)
    except OSError as exc:
        echo(f"error: cannot write {exc.filename or page}: {exc.strerror or exc}", err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps(report, sort_keys=True))
        return
    _print(report, page, elapsed, kept)


def _out_lock(out: Path) -> Any:
    """out/'s lock as a sweep takes it for each write: a build holding it is waited for (said
    once), so that no cell is written into the tree a build is about to swap away."""
    said: list[str] = []

    def waiting(holder: str) -> None:
        if not said:
            said.append(holder)
            echo(f"waiting for the build writing {out} (process {holder}) to finish", err=True)

    return lambda: outdir.locked(out, waiting)


def _prepare(out: Path, root: Path) -> None:
    """Refuse an output folder the tool may not write, and mark a new one as the tool's own
    (so that a later build accepts it). Called with out/'s lock held, so a killed build's
    leftovers are cleared first, as a build clears them."""
    build = "`gachapress build`"
    outdir.guard(out, root, command=build)
    outdir.recover(out)
    previous = outdir.guard(out, root, command=build)
    if outdir.read_marker(out) is None:
        out.mkdir(parents=True, exist_ok=True)
        outdir.write_marker(out, previous)


def _replaying(store: Store) -> Any:
    """Say, in a line, that a kept cell file is not trusted and the cell is played again."""

    def say(cell: Cell, why: str) -> None:
        echo(
            f"warning: {store.path(cell)} {why}; playing the cell "
            f"({cell.variant.name}, {cell.players} players) again",
            err=True,
        )

    return say


@contextlib.contextmanager
def _runner(workers: int | None, scheduler: str | None) -> Iterator[Runner]:
    if scheduler is None and workers == 1:
        yield in_process
        return
    with dask_runner(workers, scheduler) as runner:
        yield runner


@contextlib.contextmanager
def _progress(plan: Sweep, show: bool) -> Iterator[tuple[Any, Any]]:
    """(games played, cell finished) callbacks: a bar on a terminal, a line per cell off it."""
    total = len(plan.cells)
    count = iter(range(1, total + 1))

    def line(cell: Cell, skipped: bool) -> None:
        done = "kept from an earlier run" if skipped else "done"
        echo(
            f"{plan.spec.game} {plan.name}: {cell.variant.name}, {cell.players} players: "
            f"{done} ({next(count)}/{total} cells)",
            err=True,
        )

    if not (show and sys.stderr.isatty()):
        yield (lambda games: None), line
        return
    with progress_bar(eta=True) as bar:
        task = bar.add_task(f"{plan.spec.game} {plan.name}", total=plan.total_games)

        def skip(cell: Cell, skipped: bool) -> None:
            if skipped:
                bar.update(task, total=bar.tasks[0].total - plan.spec.games)

        yield (lambda games: bar.advance(task, games)), skip


def _print(report: dict[str, Any], page: Path, elapsed: float, kept: int) -> None:
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)  # a log or a pipe: whole names rather than 80 columns
    width = max(cell["players"] for cell in report["cells"])
    table = Table(
        "version",
        "players",
        *(f"P{n}" for n in range(1, width + 1)),
        "P1 edge",
        "actions p50/p90",
        "ends",
    )
    for cell in report["cells"]:
        rates = [
            f"[red]{s['rate']:.1%}*[/]" if s["seat"] in cell["unfair_seats"] else f"{s['rate']:.1%}"
            for s in cell["win_rate"]
        ]
        actions = cell["length"]["actions"]
        ends = ", ".join(f"{k} {v:.0%}" for k, v in cell["end_conditions"].items())
        table.add_row(
            cell["variant"],
            str(cell["players"]),
            *rates,
            *([""] * (width - cell["players"])),
            f"{cell['first_seat_advantage'] * 100:+.1f} pts",
            f"{actions['p50']}/{actions['p90']}",
            ends,
        )
    console.print(table)
    earlier = f", {kept} kept from an earlier run" if kept else ""
    console.print(
        f"{len(report['cells'])} cells of {report['games_per_cell']:,} games{earlier}, "
        f"{elapsed:.1f} s (*: outside 1/n ± {report['fair_band_points']} points); "
        f"report: {page}",
        soft_wrap=True,
        highlight=False,
    )

"""`gachapress build`: check, then publish card SVGs, print-and-play PDFs and rulebooks."""

from __future__ import annotations

import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from gachapress.assembly.builder import PAPERS, BuildOptions, GameOutcome, build
from gachapress.assembly.outdir import OutputError
from gachapress.cli.common import (
    LangOption,
    RepairOutOption,
    RootOption,
    build_progress,
    cap_processes,
    check_card_language,
    echo,
    note_local_engines,
    print_problems,
    select_games,
)
from gachapress.data.folders import unknown_folders


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"
    both = "both"


class Ink(StrEnum):
    normal = "normal"
    low = "low"


def _offset(text: str) -> tuple[float, float]:
    if text == "0,0":
        return 0.0, 0.0  # the default: a no-op build need not load the PDF code
    from gachapress.publish.pnp import parse_back_offset

    try:
        return parse_back_offset(text)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def _game_line(outcome: GameOutcome) -> None:
    """Off a terminal, one line per game as it finishes (a log shows the build advancing)."""
    echo(outcome.line(), err=True)


def build_command(
    games: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[GAME]...", show_default=False, help="Games to build (default: all)."
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Output folder (default: out/).", file_okay=False)
    ] = None,
    paper: Annotated[Paper, typer.Option("--paper", help="Paper size of the PDFs.")] = Paper.both,
    jobs: Annotated[
        int, typer.Option("--jobs", min=1, help="Processes to use (at most the CPU count).")
    ] = 1,
    back_offset: Annotated[
        str,
        typer.Option(
            "--back-offset",
            metavar="X,Y",
            help=(
                "Shift every back by X,Y mm as seen on the backs page: a positive X moves it "
                "right, a positive Y down. Read X,Y off the alignment sheet (pages 3-4) and "
                "add them to the offset it was built with."
            ),
        ),
    ] = "0,0",
    ink: Annotated[
        Ink,
        typer.Option(
            "--ink",
            help="low: print the backs and large colour fields of the PDFs as light tints.",
        ),
    ] = Ink.normal,
    lang: LangOption = None,
    repair_out: RepairOutOption = False,
    root: RootOption = Path("."),
) -> None:
    """Check the games, then write their card SVGs, print-and-play PDFs and rulebooks.

    Unchanged outputs are not rebuilt; a failure leaves the previous out/ untouched.
    """
    selected = select_games(games, root)
    jobs = cap_processes("--jobs", jobs)
    check_card_language(selected, root, lang)
    print_problems(unknown_folders(root / "rules"))
    options = BuildOptions(
        root=root,
        out=out or root / "out",
        papers=PAPERS if paper is Paper.both else (paper.value,),
        back_offset=_offset(back_offset),
        ink=ink.value,
        lang=lang,
        repair_out=repair_out,
    )
    started = time.perf_counter()
    try:
        with build_progress("building", len(selected), _game_line) as (step, books):
            report = build(selected, options, jobs, progress=step, books=books)
    except OutputError as exc:
        echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    finally:
        note_local_engines()
    if report.problems:
        print_problems(report.problems)
        failed = sorted({o.game for o in report.games if o.problems})
        echo(f"build refused: {', '.join(failed)} failed the checks; out/ is unchanged")
        raise typer.Exit(1)
    echo(report.summary(options.out, time.perf_counter() - started))

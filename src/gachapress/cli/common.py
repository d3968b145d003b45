"""What every command shares: the project root, game selection, printing problems."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from gachapress.data.folders import find_games
from gachapress.data.load import GameData, load_rules
from gachapress.data.project_file import load_project
from gachapress.errors import Problem, RulesError, printable
from gachapress.local_engine import loaded_notes

RootOption = Annotated[
    Path,
    typer.Option(
        "--root",
        help="Project folder holding rules/, templates/, build/ and out/.",
        file_okay=False,
    ),
]


RepairOutOption = Annotated[
    bool,
    typer.Option(
        "--repair-out",
        help="Use an output folder whose .gachapress-out.json is damaged: every output is "
        "written anew and every other file kept.",
    ),
]


def rules_dir(root: Path) -> Path:
    return root / "rules"


def select_games(names: list[str] | None, root: Path) -> list[str]:
    """The games named on the command line (all the project's when none), refusing names that
    are no game of the project (a usage error)."""
    found = find_games(rules_dir(root))
    for name in names or []:
        if name not in found:
            choices = f"choose from {', '.join(found)}" if found else "the project has none"
            raise typer.BadParameter(f"unknown game {name!r}; {choices}", param_hint="GAME")
    return list(dict.fromkeys(names)) if names else load_project(root).ordered(found)


LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        metavar="LANG",
        help="Language of the card texts (faces, print-and-play PDFs, exports), one the game "
        "lists under languages: (default: each game's first).",
        show_default=False,
    ),
]


def check_card_language(game_ids: list[str], root: Path, lang: str | None) -> None:
    """Refuse (a usage error) a ``--lang`` that one of the games does not publish. A game that
    does not load is left to the command, which reports its problems."""
    from gachapress.assembly.builder import load_game_data
    from gachapress.data.model import UnknownLanguage

    if lang is None:
        return
    for game_id in game_ids:
        try:
            load_game_data(game_id, rules_dir(root)).model.card_language(lang)
        except RulesError:
            continue
        except UnknownLanguage as exc:
            raise typer.BadParameter(str(exc), param_hint="--lang") from None


def cap_processes(option: str, asked: int) -> int:
    """``asked`` processes (``--jobs``, ``--workers``) capped at this machine's CPUs, as every
    command caps them (more only add memory and overhead), with a note when it is capped."""
    from gachapress.sim.runner import usable_jobs

    usable = usable_jobs(asked)
    if usable < asked:
        echo(f"note: {option} {asked} capped at this machine's {usable} CPUs", err=True)
    return usable


def echo(message: object, *, err: bool = False, nl: bool = True) -> None:
    """Print a line for a person: any control character of a name, a path or a message (a
    terminal escape, a bidirectional override) shown as an escape, never acted on. Every
    command prints its human-readable lines through here (JSON and CSV go out as data)."""
    typer.echo(printable(str(message)), err=err, nl=nl)


def print_problems(problems: list[Problem]) -> None:
    for problem in problems:
        echo(problem.format(), err=True)


def note_local_engines() -> None:
    """Say which engine modules of the games' own folders were loaded since last said, a line
    each (``harbor: local engine rules/harbor/engine.py``), on standard error as every note."""
    for line in loaded_notes():
        echo(line, err=True)


def load_or_report(game_id: str, root: Path) -> GameData | None:
    """Load a game; on failure print its problems and return None."""
    try:
        return load_rules(game_id, rules_dir(root))
    except RulesError as exc:
        print_problems(exc.problems)
        return None


def progress_bar(*, eta: bool = False) -> Progress:
    """The commands' progress bar on standard error, gone when done; ``eta`` adds the time left."""
    columns: list[Any] = ["[progress.description]{task.description}", BarColumn()]
    columns += [MofNCompleteColumn(), *([TimeRemainingColumn()] if eta else [])]
    return Progress(*columns, console=Console(stderr=True), transient=True)


@contextlib.contextmanager
def game_progress(
    label: str, total: int, off_terminal: Callable[[Any], None]
) -> Iterator[Callable[[Any], None]]:
    """A callback to call once per finished game: on a terminal it advances a progress bar,
    off one it is ``off_terminal`` (a line per game, so a log shows the work advancing)."""
    with build_progress(label, total, off_terminal) as (step, _):
        yield step


#: What a build's book simulations tell (see ``publish.stats.BookProgress``).
BookCallback = Callable[[str, int, int, int, int], None]


@contextlib.contextmanager
def build_progress(
    label: str, total: int, off_terminal: Callable[[Any], None]
) -> Iterator[tuple[Callable[[Any], None], BookCallback]]:
    """``game_progress``'s callback, and one for the book simulations played first: on a
    terminal a bar of book games above the bar of games, off one a line for each game's book
    games at every quarter of them."""
    if not sys.stderr.isatty():
        said: dict[str, int] = {}

        def line(game: str, game_done: int, game_total: int, done: int, total: int) -> None:
            quarter = 4 * game_done // game_total
            if quarter > said.get(game, 0):
                said[game] = quarter
                echo(f"{game}: {game_done}/{game_total} book games played", err=True)

        yield off_terminal, line
        return
    with progress_bar() as bar:
        books = bar.add_task("book games", total=None, visible=False)
        task = bar.add_task(label, total=total)

        def book(game: str, game_done: int, game_total: int, done: int, total: int) -> None:
            bar.update(books, completed=done, total=total, visible=True)

        yield (lambda _: bar.advance(task)), book

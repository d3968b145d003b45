"""`gachapress export`: files for print shops and Tabletop Simulator."""

from __future__ import annotations

import time
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gachapress.assembly.outdir import OutputError
from gachapress.cli.common import (
    LangOption,
    RepairOutOption,
    RootOption,
    check_card_language,
    echo,
    game_progress,
    print_problems,
    select_games,
)
from gachapress.errors import RulesError
from gachapress.export import TARGETS

if TYPE_CHECKING:
    from gachapress.export.publish import TargetOutcome

Target = StrEnum("Target", {name: name for name in TARGETS})


def _line(outcome: TargetOutcome) -> None:
    echo(
        f"{outcome.game}: {len(outcome.written)} written, {len(outcome.kept)} unchanged "
        f"in {outcome.folder}",
        err=True,
    )


def export_command(
    to: Annotated[
        Target,
        typer.Option(
            "--to",
            help="png: each face at 300 dpi with a manifest; tgc: The Game Crafter; "
            "dtc: DriveThruCards PDFs; tts: Tabletop Simulator.",
            show_default=False,
        ),
    ],
    games: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[GAME]...", show_default=False, help="Games to export (default: all)."
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Output folder (default: out/).", file_okay=False)
    ] = None,
    text_as_paths: Annotated[
        bool,
        typer.Option(
            "--text-as-paths",
            help="Draw text as glyph outlines, so no font is ever substituted: png adds each "
            "face as an SVG (svg/) for editors; dtc always does it.",
        ),
    ] = False,
    base_url: Annotated[
        str | None,
        typer.Option(
            "--base-url",
            metavar="URL",
            help="tts: where the images will be served from (default: the local files).",
        ),
    ] = None,
    lang: LangOption = None,
    repair_out: RepairOutOption = False,
    root: RootOption = Path("."),
) -> None:
    """Write files for a print shop or Tabletop Simulator into out/GAME/export/TARGET/.

    Staged and swapped in like build: a failure leaves the previous folder whole; unchanged
    faces are not rendered again.
    """
    from gachapress.export.common import ExportOptions  # the rendering code: only when used
    from gachapress.export.run import export

    selected = select_games(games, root)
    check_card_language(selected, root, lang)
    try:
        options = ExportOptions(
            root=root,
            out=out or root / "out",
            text_as_paths=text_as_paths,
            base_url=base_url,
            lang=lang,
            repair_out=repair_out,
        )
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--base-url'") from None
    started = time.perf_counter()
    try:
        with game_progress(f"exporting {to.value}", len(selected), _line) as step:
            outcomes = export(selected, to.value, options, progress=step)
    except RulesError as exc:
        print_problems(exc.problems)
        echo("export refused: the game failed its checks; nothing was replaced", err=True)
        raise typer.Exit(1) from None
    except OutputError as exc:
        echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    written = sum(len(o.written) for o in outcomes)
    echo(
        f"exported {len(outcomes)} game{'s' if len(outcomes) != 1 else ''} to {to.value}: "
        f"{written} file{'s' if written != 1 else ''} written, in "
        f"{time.perf_counter() - started:.1f} s"
    )

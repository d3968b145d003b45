"""`gachapress schema`: regenerate the JSON Schemas of the rules files (or check them)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gachapress.cli.common import RootOption, echo, print_problems, rules_dir
from gachapress.data.schema import stale_schemas, write_schemas
from gachapress.errors import RulesError


def schema(
    check_only: Annotated[
        bool, typer.Option("--check", help="Only report stale schema files; exit 1 if any.")
    ] = False,
    root: RootOption = Path("."),
) -> None:
    """Write rules/<game>/schema.json for every game from the data model."""
    folder = rules_dir(root)
    try:
        if check_only:
            stale = stale_schemas(folder)
            for path in stale:
                echo(f"{path}: stale; run `gachapress schema` to regenerate it", err=True)
            raise typer.Exit(1 if stale else 0)
        written = write_schemas(folder)
    except RulesError as exc:  # a game's declared card fields, of which its schema is made
        print_problems(exc.problems)
        raise typer.Exit(1) from None
    echo(f"{len(written)} schema file(s) written" if written else "schemas up to date")

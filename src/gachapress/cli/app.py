"""The `gachapress` application (typer): each command lives in its own module."""

from __future__ import annotations

from typing import Any

import typer

from gachapress.cli.build_cmd import build_command
from gachapress.cli.cards_cmd import cards
from gachapress.cli.check_cmd import check
from gachapress.cli.common import echo, print_problems
from gachapress.cli.export_cmd import export_command
from gachapress.cli.list_cmd import list_games
from gachapress.cli.new_cmd import new
from gachapress.cli.schema_cmd import schema
from gachapress.cli.serve_cmd import serve
from gachapress.cli.sim_cmd import sim
from gachapress.cli.sweep_cmd import sweep
from gachapress.errors import GachapressError, RulesError


class _App(typer.Typer):
    """The application, printing a located error that escapes a command instead of a traceback."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except RulesError as exc:
            print_problems(exc.problems)
            raise SystemExit(1) from None
        except GachapressError as exc:  # one plain sentence, never a traceback
            echo(f"error: {exc}", err=True)
            raise SystemExit(1) from None


app = _App(
    name="gachapress",
    help="Card games specified once as YAML: engine, print-and-play cards, rulebooks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("new")(new)
app.command("list")(list_games)
app.command("cards")(cards)
app.command("check")(check)
app.command("schema")(schema)
app.command("sim")(sim)
app.command("sweep")(sweep)
app.command("build")(build_command)
app.command("export")(export_command)
app.command("serve")(serve)

"""`gachapress list`: the games, their modes and player counts, their decks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from gachapress.cli.common import (
    RootOption,
    echo,
    load_or_report,
    print_problems,
    rules_dir,
    select_games,
)
from gachapress.data.folders import unknown_folders
from gachapress.data.load import GameData
from gachapress.engine.core import Game


def summary(game: GameData) -> dict[str, Any]:
    """The `list --json` record of one game (see DESIGN.md, "Command line")."""
    model = game.model
    options = Game(game).options if game.spec.engine else {}
    return {
        "name": model.name.get("en", next(iter(model.name.values()))),
        "names": dict(model.name),
        "modes": {mode_id: list(mode.players) for mode_id, mode in model.modes.items()},
        "decks": {
            deck_id: {"cards": deck.size(), "faces": len(deck.faces())}
            for deck_id, deck in model.deck_items()
        },
        "options": {
            name: {"help": option.help, "modes": list(option.modes)}
            for name, option in options.items()
        },
    }


def list_games(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    root: RootOption = Path("."),
) -> None:
    """List the games with their modes, player counts and decks."""
    print_problems(unknown_folders(rules_dir(root)))
    loaded = [load_or_report(game_id, root) for game_id in select_games(None, root)]
    games = {game.id: summary(game) for game in loaded if game is not None}
    if as_json:
        typer.echo(json.dumps(games, ensure_ascii=False, indent=2))
    else:
        for game_id, info in games.items():
            modes = "; ".join(f"{m} {'/'.join(map(str, p))}p" for m, p in info["modes"].items())
            decks = ", ".join(
                f"{d} {n['cards']} ({n['faces']} faces)" for d, n in info["decks"].items()
            )
            extra = "".join(f" — option {name}" for name in info["options"])
            parts = [info["name"], *([modes] if modes else []), decks]
            echo(f"{game_id:15} {' — '.join(parts)}{extra}")
    if None in loaded:
        raise typer.Exit(1)

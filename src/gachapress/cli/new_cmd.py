"""`gachapress new GAME`: add a sample game that checks and builds at once to a project."""

from __future__ import annotations

import shlex
from importlib.resources import files
from pathlib import Path
from string import Template
from typing import Annotated

import typer

from gachapress.cli.common import RootOption, echo, rules_dir
from gachapress.data.folders import find_games, is_game_id
from gachapress.data.schema import SCHEMA_FILE, schema_text

#: What a new game is made of: the scaffold's file, and where it goes (``$id``: the game id).
GAME_FILES = {
    "game.yaml": "rules/$id/game.yaml",
    "decks.yaml": "rules/$id/decks.yaml",
    "cards.csv": "rules/$id/cards.csv",
    "book.yaml": "rules/$id/book.yaml",
    "layout.yaml": "templates/cards/$id.yaml",
}
#: What ``--engine`` adds: an engine module and worked examples of its rule function.
ENGINE_FILES = {
    "engine.py.txt": "rules/$id/engine.py",
    "examples.yaml": "rules/$id/examples.yaml",
}
#: What ``--engine`` adds to game.yaml: the modes the engine plays and the module's name.
ENGINE_GAME = "game-engine.yaml"
PROJECT_FILE = "project.yaml"


def new(
    game_id: Annotated[
        str, typer.Argument(metavar="GAME", help="The new game's id: lowercase, digits, hyphens.")
    ],
    root: RootOption = Path("."),
    engine: Annotated[
        bool,
        typer.Option(
            "--engine",
            help="Add an engine too: rules/GAME/engine.py, a trick-taking game on the sample "
            "deck to change into your own (see docs/engine.md).",
        ),
    ] = False,
) -> None:
    """Add a sample game to the project in --root (made if the folder is empty): its rules with a
    deck read from a spreadsheet, a card layout and a short rulebook, ready to check and build."""
    if not is_game_id(game_id):
        raise typer.BadParameter(
            f"{game_id!r} is no game id: use lowercase letters, digits and single hyphens "
            "(e.g. harbor-cards)",
            param_hint="GAME",
        )
    if game_id in find_games(rules_dir(root)) or (rules_dir(root) / game_id).exists():
        raise typer.BadParameter(f"the project already has a game {game_id!r}", param_hint="GAME")
    made = {**GAME_FILES, **(ENGINE_FILES if engine else {})}
    if engine:  # the sample book then describes the engine's game
        made = {
            ("book-engine.yaml" if name == "book.yaml" else name): to for name, to in made.items()
        }
    targets = {name: root / Template(to).substitute(id=game_id) for name, to in made.items()}
    taken = [path for path in targets.values() if path.exists()]
    if taken:
        raise typer.BadParameter(f"{taken[0]} exists already; choose another id", param_hint="GAME")
    values = {
        "id": game_id,
        "name": game_id.replace("-", " ").title(),
        "project": root.resolve().name,
    }
    if not (root / PROJECT_FILE).exists():
        targets[PROJECT_FILE] = root / PROJECT_FILE
    scaffold = files("gachapress.scaffold")
    texts = {
        path: Template(scaffold.joinpath(name).read_text(encoding="utf-8")).substitute(values)
        for name, path in targets.items()
    }
    if engine:
        addition = scaffold.joinpath(ENGINE_GAME).read_text(encoding="utf-8")
        texts[targets["game.yaml"]] += addition  # after the scaffold's comments and id
    for path, text in texts.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        echo(f"wrote {path}")
    schema = rules_dir(root) / game_id / SCHEMA_FILE
    schema.write_text(schema_text(game_id, rules_dir(root)), encoding="utf-8")
    echo(f"wrote {schema} (for editors that complete and check YAML)")
    where = "" if root == Path(".") else f" --root {shlex.quote(str(root))}"
    steps = [
        (
            f"check {game_id}",
            "the rules, the deck and every card face"
            + (", and the engine against its contract" if engine else ""),
        ),
        (f"build {game_id}", f"cards, print-and-play PDFs and the rulebook into out/{game_id}/"),
        (f"serve {game_id}", "a preview that rebuilds on every save"),
    ]
    if engine:
        steps.append((f"sim {game_id} --players 3", "a thousand games: who wins how often"))
    commands = "".join(f"  gachapress {command}{where}    # {why}\n" for command, why in steps)
    echo(
        f"\nNext:\n{commands}"
        f"Edit rules/{game_id}/cards.csv in a spreadsheet, the card layout in "
        f"templates/cards/{game_id}.yaml"
        + (f", the rules of play in rules/{game_id}/engine.py." if engine else ".")
    )

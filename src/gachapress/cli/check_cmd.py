"""`gachapress check`: validate the rules, run the deck checks and every worked example."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gachapress.checks import run_checks
from gachapress.checks.examples import run_examples
from gachapress.cli.common import (
    RootOption,
    echo,
    load_or_report,
    note_local_engines,
    print_problems,
    rules_dir,
    select_games,
)
from gachapress.data.examples_file import load_examples_file
from gachapress.data.folders import find_games, unknown_folders
from gachapress.data.load import GameData
from gachapress.data.project_file import load_project
from gachapress.errors import Problem, RulesError
from gachapress.local_engine import unnamed_engine
from gachapress.project import Templates
from gachapress.registry import registered


def check(
    games: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[GAME]...", show_default=False, help="Games to check (default: all)."
        ),
    ] = None,
    examples: Annotated[
        Path | None,
        typer.Option(
            "--examples",
            metavar="FILE",
            dir_okay=False,
            help="Also run the worked examples of this file ('game:' and 'examples:').",
        ),
    ] = None,
    root: RootOption = Path("."),
) -> None:
    """Validate the rules files, run every deck-consistency check and every worked example.

    Exit status: 0 when everything holds, 1 when anything fails, 2 for a usage error.
    """
    selected = select_games(games, root) if games or examples is None else []
    print_problems(unknown_folders(rules_dir(root)))
    failed = 0
    loaded = []
    for game_id in selected:
        game = load_or_report(game_id, root)
        note_local_engines()
        if game is None:
            echo(f"{game_id}: FAILED (the rules files do not load)")
            failed += 1
            continue
        if _check_game(game, root):
            loaded.append(game)
        else:
            failed += 1
    checks_templates = bool(selected)
    if checks_templates and not _check_templates(Templates(root), loaded):
        failed += 1
    if examples is not None:
        failed += not _check_examples_file(examples, root)
    total = len(selected) + (examples is not None) + checks_templates
    echo(f"checked {total} item{'s' if total != 1 else ''}: {total - failed} ok, {failed} failed")
    if failed:
        raise typer.Exit(1)


def _check_game(game: GameData, root: Path) -> bool:
    reports = run_checks(game)
    faces = _face_problems(game, root)
    named = game.model.engine is not None or game.id in registered()
    # a bad art file is found by the art check and again when its face is laid out: say it once
    problems = {
        *(p for report in reports for p in report.problems),
        *faces,
        *unnamed_engine(game.folder, named),
    }
    # the root cause first: a text that cannot be filled or a worked example that fails because
    # of a break elsewhere is still its own located problem, but comes after what broke
    derived = {p for r in reports if r.check in ("placeholders", "examples") for p in r.problems}
    print_problems(sorted(problems, key=lambda p: (p in derived, p)))
    cards = sum(deck.size() for _, deck in game.model.deck_items())
    decks = len(list(game.model.deck_items()))
    passed = [r.check for r in reports if r.ok]
    examples = len(game.model.examples)
    failed_faces = any(p.severity == "error" for p in faces)
    status = "ok" if len(passed) == len(reports) and not failed_faces else "FAILED"
    echo(
        f"{game.id}: {status}: {cards} cards in {decks} deck{'s' if decks != 1 else ''}, "
        f"{len(passed)}/{len(reports)} checks passed ({', '.join(r.check for r in reports)}), "
        f"{examples} worked examples, {len(game.model.clarifications)} clarifications"
    )
    return status == "ok"


def _face_problems(game: GameData, root: Path) -> list[Problem]:
    """Lay out every card face in every language the game publishes, as `build --lang` would:
    a text that does not fit fails here."""
    from gachapress.render.faces import game_faces, layout_path
    from gachapress.render.metrics import Measure
    from gachapress.render.presets import PRESETS, load_presets

    templates = Templates(root)
    if not layout_path(templates, game.id).is_file():  # the package has no game's layout
        return [_no_layout(templates.folder / "cards" / f"{game.id}.yaml")]
    try:
        presets = load_presets(templates.path(PRESETS))
        measure = Measure(root / "build" / "fonts")
        for lang in game.model.languages:
            game_faces(game, templates, presets, measure, lang)
    except RulesError as exc:
        return exc.problems
    return []


def _no_layout(layout: Path) -> Problem:
    """What a game without its card layout is told: rename a layout named otherwise (an error),
    or that `build` will need one (a warning: a project may check its rules alone)."""
    others = sorted(layout.parent.glob("*")) if layout.parent.is_dir() else []
    for other in others:
        if other.stem.lower() == layout.stem and other.suffix.lower() in (".yaml", ".yml"):
            message = f"a card layout must be named {layout.name}: rename {other.name} to it"
            return Problem(other, 1, 1, message)
    message = "no card layout: build needs one to draw the cards (gachapress new writes one)"
    return Problem(layout, 1, 1, message, "warning")


def _check_templates(templates: Templates, games: list[GameData]) -> bool:
    """``project.yaml`` is valid, every template (the project's and the package's) compiles,
    and the rulebooks and the site index render (without the simulated statistics) for the
    games that passed."""
    from gachapress.publish.book_html import render_rulebooks
    from gachapress.publish.site import render_index
    from gachapress.publish.templating import check_templates

    problems = check_templates(templates)
    try:
        load_project(templates.root)
    except RulesError as exc:
        problems += exc.problems
    if not problems and games:
        try:
            for game in games:
                render_rulebooks(game, templates=templates)
            render_index(games, templates)
        except RulesError as exc:
            problems = exc.problems
    print_problems(problems)
    echo("templates/: FAILED" if problems else "templates/: ok: the pages render")
    return not problems


def _check_examples_file(file: Path, root: Path) -> bool:
    try:
        extra, locations = load_examples_file(file)
    except RulesError as exc:
        print_problems(exc.problems)
        echo(f"{file}: FAILED (the examples file does not load)")
        return False
    if extra.game not in find_games(rules_dir(root)):
        print_problems([locations.at(("game",)).problem(f"unknown game {extra.game!r}")])
        return False
    game = load_or_report(extra.game, root)
    if game is None:
        return False
    verdicts = run_examples(game, extra.examples, ("examples",), locations)
    print_problems([v.problem for v in verdicts if v.problem])
    passed = sum(v.passed for v in verdicts)
    echo(f"{file}: {passed} passed, {len(verdicts) - passed} failed")
    return passed == len(verdicts)

"""Exporting games to a target: under out/'s lock (so never racing a build), each game's target
folder staged and swapped in on its own."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from importlib import import_module
from pathlib import Path

from gachapress.assembly import outdir
from gachapress.assembly.outdir import OutputError
from gachapress.data.yamlsource import load_yaml
from gachapress.errors import Problem, RulesError
from gachapress.export import TARGETS
from gachapress.export.common import ExportOptions, Plan, Source
from gachapress.export.publish import TargetOutcome, publish
from gachapress.render.faces import DeckFaces
from gachapress.render.layout import refit_problem
from gachapress.render.presets import PrintPresets

#: Each target and how it plans a game's files.
PLANS: dict[str, Callable[[Source], Plan]] = {
    name: import_module(f"{__package__}.{name}").plan for name in TARGETS
}


def export(
    game_ids: list[str],
    target: str,
    options: ExportOptions,
    progress: Callable[[TargetOutcome], None] | None = None,
) -> list[TargetOutcome]:
    """Export each game to ``target``. Raises RulesError (with located problems) when any game
    fails its checks, before anything is written, and OutputError when out/ cannot be
    used; every target folder is then as it was."""
    out = options.out
    outdir.guard(out, options.root, options.repair_out)
    outcomes = []
    try:
        with outdir.locked(out):
            outdir.recover(out)
            outdir.guard(out, options.root, options.repair_out)
            _mark_new(out, options.repair_out)
            sources = [load_source(game_id, options) for game_id in game_ids]  # all checked
            for source in sources:
                outcome = TargetOutcome(source.game.id, target, source.folder(target))
                publish(outcome.folder, PLANS[target](source), outcome, options.repair_out)
                outcomes.append(outcome)
                if progress:
                    progress(outcome)
    except OSError as exc:
        where = exc.filename or out
        raise OutputError(f"cannot write {where}: {exc.strerror or exc}") from None
    return outcomes


def _mark_new(out: Path, repair: bool) -> None:
    """A new out/ gets the tool's marker (listing no build outputs yet), so that a later build
    knows the folder for its own; so does one whose marker is damaged, with ``repair``."""
    out.mkdir(parents=True, exist_ok=True)
    if not any(out.iterdir()):
        outdir.write_marker(out, {})
    elif repair:
        try:
            outdir.read_marker(out)
        except OutputError:
            outdir.write_marker(out, {})


def load_source(game_id: str, options: ExportOptions) -> Source:
    """A game checked as `build` checks it, and its faces resolved."""
    from gachapress.checks import run_checks
    from gachapress.data.load import load_rules
    from gachapress.render.faces import game_faces
    from gachapress.render.metrics import Measure
    from gachapress.render.presets import PRESETS, load_presets

    game = load_rules(game_id, options.root / "rules")
    problems: list[Problem] = [
        p for report in run_checks(game) for p in report.problems if p.severity == "error"
    ]
    if problems:
        raise RulesError(problems)
    file = options.templates.path(PRESETS)
    presets = load_presets(file)
    measure = Measure(options.root / "build" / "fonts")
    decks = game_faces(game, options.templates, presets, measure, options.lang)
    problems = list(_size_problems(file, presets, decks))
    if problems:
        raise RulesError(problems)
    return Source(game, decks, measure, presets, options)


def _size_problems(file: Path, presets: PrintPresets, decks: list[DeckFaces]) -> Iterator[Problem]:
    """A shop size that a deck's layout cannot be drawn at, located in print.yaml."""
    _, where = load_yaml(file)
    for size, shapes in presets.sizes.items():
        for deck in decks:
            target = shapes.get(deck.shape_id)
            problem = target and refit_problem(deck.shape, target)
            if problem:
                mark = where.at(("sizes", size, deck.shape_id, "safe"))
                yield mark.problem(f"deck {deck.deck!r} at size {size!r}: {problem}")

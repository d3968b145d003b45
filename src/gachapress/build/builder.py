"""`gachapress build`: check, then write each game's card SVGs, print-and-play PDFs and
rulebooks into out/, incrementally and atomically.

The whole new out/ tree is staged beside out/ (see ``outdir``): each game is built in its own
process (``--jobs``), writing only the outputs whose input hash changed; everything unchanged is
hard-linked from out/. Only when every game has been checked and built does one atomic switch
put the new tree in place, so a failure or a kill leaves the previous out/ whole, and a build
with nothing to do touches nothing.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from gachapress.build import names, outdir
from gachapress.build.manifest import (
    code_version,
    hash_file,
    hash_text,
    hash_tree,
)
from gachapress.build.outdir import MARKER, OutputError
from gachapress.errors import Problem, RulesError

if TYPE_CHECKING:
    from gachapress.book.model import FileRef
    from gachapress.data.load import GameData
    from gachapress.render.layout import Face

PAPERS = ("a4", "letter")
INDEX = "index.html"


@dataclass(frozen=True)
class BuildOptions:
    root: Path
    out: Path
    papers: tuple[str, ...] = PAPERS
    back_offset: tuple[float, float] = (0.0, 0.0)
    ink: Literal["normal", "low"] = "normal"

    @property
    def build_dir(self) -> Path:
        return self.root / "build"

    @property
    def templates(self) -> Path:
        return self.root / "templates"


@dataclass
class GameOutcome:
    """What building one game did."""

    game: str
    problems: list[Problem] = field(default_factory=list)
    entries: dict[str, str] = field(default_factory=dict)  # output (relative to out/) -> hash
    written: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)


@dataclass
class BuildReport:
    games: list[GameOutcome]

    @property
    def problems(self) -> list[Problem]:
        return [p for outcome in self.games for p in outcome.problems]


def build(
    game_ids: list[str],
    options: BuildOptions,
    jobs: int = 1,
    progress: Callable[[GameOutcome], None] | None = None,
) -> BuildReport:
    """Build the games; publish into ``options.out`` only if every game checked and built.

    Raises OutputError when out/ may not or cannot be written; out/ is then as it was."""
    out = options.out
    outdir.guard(out, options.root)
    try:
        with outdir.locked(out):
            outdir.recover(out)
            previous = outdir.guard(out, options.root)  # again: now nobody else is writing
            return _build_locked(game_ids, options, previous, jobs, progress)
    except OSError as exc:
        where = exc.filename or out
        raise OutputError(f"cannot write {where}: {exc.strerror or exc}") from None


def _build_locked(
    game_ids: list[str],
    options: BuildOptions,
    previous: dict[str, str],
    jobs: int,
    progress: Callable[[GameOutcome], None] | None,
) -> BuildReport:
    out = options.out
    stage = outdir.staging_name(out, "stage")
    # Games build in a pool of ``jobs`` processes; one game alone runs its book simulations there
    # instead (a pool's workers cannot start processes of their own).
    sim_jobs = jobs if len(game_ids) == 1 else 1
    work = [(game_id, options, previous, stage, sim_jobs) for game_id in game_ids]
    outcomes: list[GameOutcome] = []
    try:
        if jobs > 1 and len(work) > 1:
            context = multiprocessing.get_context()
            with context.Pool(
                processes=min(jobs, len(work)),
                initializer=outdir.die_with_parent,
                initargs=(os.getpid(),),
            ) as pool:
                for outcome in pool.imap_unordered(_build_game, work):
                    outcomes.append(outcome)
                    if progress:
                        progress(outcome)
        else:
            for item in work:
                outcomes.append(_build_game(item))
                if progress:
                    progress(outcomes[-1])
        outcomes.sort(key=lambda o: game_ids.index(o.game))
        report = BuildReport(outcomes)
        if report.problems:
            return report
        entries = {k: v for k, v in previous.items() if k.split("/", 1)[0] not in game_ids}
        for outcome in outcomes:
            entries.update(outcome.entries)
        index_changed = _stage_index(options, entries, previous, stage)
        if not index_changed and entries == previous and not any(o.written for o in outcomes):
            return report  # nothing changed: out/ is not touched at all
        _fill_stage(out, stage, entries, previous)
        outdir.write_marker(stage, entries)
        outdir.fault("staged")
        outdir.switch(stage, out)
        return report
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _fill_stage(out: Path, stage: Path, entries: dict[str, str], previous: dict[str, str]) -> None:
    """Complete the staged tree: every output not written anew is linked from out/, and files
    someone else put in out/ (not in the tool's marker) are carried over, never dropped."""
    if not out.is_dir():
        return
    for path in sorted(out.rglob("*")):
        rel = path.relative_to(out).as_posix()
        target = stage / rel
        if path.is_symlink() or not path.is_file() or rel == MARKER or target.exists():
            continue
        if rel in previous and rel not in entries:
            continue  # an output of the tool that this build no longer makes
        if rel in entries and entries[rel] != previous.get(rel):
            continue  # changed, and so written anew (or it would be in the stage)
        target.parent.mkdir(parents=True, exist_ok=True)
        link(path, target)


def _build_game(item: tuple[str, BuildOptions, dict[str, str], Path, int]) -> GameOutcome:
    """Check one game and write the outputs whose hash changed into the stage."""
    game_id, options, previous, stage, sim_jobs = item
    outcome = GameOutcome(game_id)
    inputs = _inputs_hash(game_id, options)
    mine = {rel: digest for rel, digest in previous.items() if rel.split("/", 1)[0] == game_id}
    if mine.get(f"{game_id}/") == inputs and _present(options.out, set(mine) - {f"{game_id}/"}):
        outcome.entries, outcome.kept = mine, sorted(set(mine) - {f"{game_id}/"})
        return outcome  # nothing that shapes this game changed since it was built
    from gachapress.checks import run_checks  # the slow path's imports: a no-op build skips them
    from gachapress.data.load import load_rules

    try:
        game = load_rules(game_id, options.root / "rules")
    except RulesError as exc:
        outcome.problems = exc.problems
        return outcome
    outcome.problems = [
        p for report in run_checks(game) for p in report.problems if p.severity == "error"
    ]
    if outcome.problems:
        return outcome
    try:
        plan = _plan(game, options, inputs, sim_jobs)
    except RulesError as exc:
        outcome.problems = exc.problems
        return outcome
    outcome.entries = {rel: digest for rel, (digest, _) in plan.items()}
    outcome.entries[f"{game_id}/"] = inputs
    for rel, (digest, write) in sorted(plan.items()):
        if previous.get(rel) == digest and (options.out / rel).is_file():
            outcome.kept.append(rel)  # linked into the stage with the rest of out/
            continue
        target = stage / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        write(target)
        outcome.written.append(rel)
    return outcome


Writer = Callable[[Path], None]


def _inputs_hash(game_id: str, options: BuildOptions) -> str:
    """Everything a game's outputs are made from: every file of its rules folder (art included),
    every template, layout and preset, the code and the libraries, and the build options."""
    return hash_text(
        hash_tree(options.root / "rules" / game_id, options.root),
        hash_tree(options.templates, options.root),
        code_version(game_id),
        repr(options.papers),
        repr(options.back_offset),
        options.ink,
        repr(_exports(game_id, options.out)),  # the rulebooks link them
    )


def _present(out: Path, rels: set[str]) -> bool:
    return all((out / rel).is_file() for rel in rels)


def _plan(
    game: GameData, options: BuildOptions, inputs: str, sim_jobs: int = 1
) -> dict[str, tuple[str, Writer]]:
    """Every output of a game with the hash of what it is made from and how to write it."""
    from gachapress.publish.pnp import write_pnp
    from gachapress.render.faces import game_faces
    from gachapress.render.fonts import cache_dir
    from gachapress.render.metrics import Measure
    from gachapress.render.presets import load_presets
    from gachapress.render.svg import face_svg, font_css

    presets = load_presets(options.templates / "print.yaml")
    measure = Measure(cache_dir(options.build_dir))
    decks = game_faces(game, options.templates, presets, measure)
    faces = [face for deck in decks for face, _ in deck.fronts] + [deck.back for deck in decks]
    css = font_css(faces, measure.fonts)
    code = code_version(game.id)
    plan: dict[str, tuple[str, Writer]] = {}
    css_hash = hash_text(css)
    for face in faces:
        plan[f"{game.id}/{names.CARDS_DIR}/{face.key}.svg"] = (
            hash_text(code, repr(face), css_hash, *art_digests(face)),
            lambda path, face=face: path.write_text(face_svg(face, css), encoding="utf-8"),
        )
    from gachapress.book.build import build_books
    from gachapress.book.words import StringTable
    from gachapress.publish.book_html import render_books
    from gachapress.publish.book_pdf import render_book_pdf
    from gachapress.publish.stats import book_statistics

    stats = book_statistics(
        game.id, options.root / "rules", options.build_dir / "stats", jobs=sim_jobs, game=game
    )
    strings = StringTable.load(options.templates)
    books = build_books(game, strings, stats, _book_files(game.id, options))
    by_key = {face.key: face for face in faces}
    for lang, html in render_books(books, options.templates).items():
        plan[f"{game.id}/{names.rulebook_html(lang)}"] = (
            hash_text(html),
            lambda path, html=html: path.write_text(html, encoding="utf-8"),
        )
        plan[f"{game.id}/{names.rulebook_pdf(lang)}"] = (
            hash_text(
                code, repr(books[lang]), repr(faces), *(d for f in faces for d in art_digests(f))
            ),
            lambda path, book=books[lang]: path.write_bytes(
                render_book_pdf(book, measure.fonts, by_key)
            ),
        )
    for paper in options.papers:
        sheet = presets.sheets[paper]
        plan[f"{game.id}/{names.pnp_pdf(game.id, paper)}"] = (
            hash_text(inputs, paper, repr(options.back_offset), options.ink),
            lambda path, sheet=sheet: write_pnp(
                path, game, decks, sheet, measure, options.back_offset, options.ink
            ),
        )
    return plan


def _book_files(game_id: str, options: BuildOptions) -> list[FileRef]:
    """What a game's rulebooks link: their PDF, the print-and-play PDFs this build makes, and
    the exports already in out/ (``gachapress export``)."""
    from gachapress.book.model import FileRef

    files = [FileRef(names.rulebook_pdf("{lang}"), "rulebook_pdf")]
    files += [FileRef(names.pnp_pdf(game_id, paper), f"pdf_{paper}") for paper in options.papers]
    files += [
        FileRef(names.export_dir(target), "export_link", (("target", target),))
        for target in _exports(game_id, options.out)
    ]
    return files


def _exports(game_id: str, out: Path) -> list[str]:
    """The export targets out/<game>/export/ holds."""
    folder = out / game_id / names.EXPORT_DIR
    return sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []


def art_digests(face: Face) -> list[str]:
    """The content of the art files a face draws: editing one rebuilds the face."""
    from gachapress.render.layout import Art

    return [
        hash_file(Path(item.source.removeprefix("file:")))
        for item in face.items
        if isinstance(item, Art) and item.source.startswith("file:")
    ]


def _stage_index(
    options: BuildOptions, entries: dict[str, str], previous: dict[str, str], stage: Path
) -> bool:
    """Write the site index into the stage when any game built into out/ (or the templates)
    changed; record its hash in ``entries``. Returns whether it was written."""
    from gachapress.games import GAME_IDS

    built = [game_id for game_id in GAME_IDS if f"{game_id}/" in entries]
    digest = hash_text(*(entries[f"{game_id}/"] for game_id in built), repr(options.papers))
    entries[INDEX] = digest
    if previous.get(INDEX) == digest and (options.out / INDEX).is_file():
        return False
    from gachapress.data.load import load_rules  # only when the index is written anew
    from gachapress.publish.site import write_index

    games = [load_rules(game_id, options.root / "rules") for game_id in built]
    write_index(games, stage, templates_dir=options.templates, papers=options.papers)
    return True


def link(source: Path, target: Path) -> None:
    """Reuse an unchanged output without rewriting it (a hard link; a copy where links fail)."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)

"""`gachapress build`: check, then write each game's card SVGs, print-and-play PDFs and
rulebooks into out/, incrementally and atomically.

Each game is built in its own process (``--jobs``) into a staging folder: outputs whose input
hash is unchanged are hard-linked from out/ (untouched), the others are written anew. Only when
every game has been checked and built are the staging folders swapped into out/, so a failure
leaves the previous out/ whole; a build with nothing to do touches nothing.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from gachapress.build.manifest import (
    code_version,
    hash_files,
    hash_text,
    read_manifest,
    write_manifest,
)
from gachapress.errors import Problem, RulesError

if TYPE_CHECKING:
    from gachapress.data.load import GameData

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
    staged: Path | None = None  # the staging folder to swap in, if anything changed


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
    progress: Callable[[str], None] | None = None,
) -> BuildReport:
    """Build the games; publish into ``options.out`` only if every game checked and built."""
    manifest_name = (
        "manifest-" + hashlib.sha256(str(options.out.resolve()).encode()).hexdigest()[:10]
    )
    manifest_dir = options.build_dir / manifest_name
    previous = read_manifest(manifest_dir)
    stage_root = options.build_dir / f"stage-{os.getpid()}"
    shutil.rmtree(stage_root, ignore_errors=True)
    work = [(game_id, options, previous, stage_root) for game_id in game_ids]
    outcomes: list[GameOutcome] = []
    try:
        if jobs > 1 and len(work) > 1:
            with multiprocessing.get_context().Pool(processes=min(jobs, len(work))) as pool:
                for outcome in pool.imap_unordered(_build_game, work):
                    outcomes.append(outcome)
                    if progress:
                        progress(outcome.game)
        else:
            for item in work:
                outcomes.append(_build_game(item))
                if progress:
                    progress(item[0])
        outcomes.sort(key=lambda o: game_ids.index(o.game))
        report = BuildReport(outcomes)
        if report.problems:
            return report
        for outcome in outcomes:
            if outcome.staged is not None:
                _swap(outcome.staged, options.out / outcome.game, stage_root)
        entries = {k: v for k, v in previous.items() if k.split("/", 1)[0] not in game_ids}
        for outcome in outcomes:
            entries.update(outcome.entries)
        _write_index(options, entries, previous)
        if entries != previous:
            write_manifest(manifest_dir, entries)
        return report
    finally:
        shutil.rmtree(stage_root, ignore_errors=True)


def _build_game(item: tuple[str, BuildOptions, dict[str, str], Path]) -> GameOutcome:
    game_id, options, previous, stage_root = item
    outcome = GameOutcome(game_id)
    inputs = _inputs_hash(game_id, options)
    mine = {rel: digest for rel, digest in previous.items() if rel.split("/", 1)[0] == game_id}
    if mine.get(f"{game_id}/") == inputs and _published(options.out, game_id) == set(mine) - {
        f"{game_id}/"
    }:
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
        plan = _plan(game, options)
    except RulesError as exc:
        outcome.problems = exc.problems
        return outcome
    outcome.entries = {rel: digest for rel, (digest, _) in plan.items()}
    outcome.entries[f"{game_id}/"] = _inputs_hash(game_id, options)
    unchanged = {
        rel
        for rel, (digest, _) in plan.items()
        if previous.get(rel) == digest and (options.out / rel).is_file()
    }
    if unchanged == set(plan) and _published(options.out, game_id) == set(plan):
        outcome.kept = sorted(plan)
        return outcome
    stage = stage_root / game_id
    for rel, (_, write) in sorted(plan.items()):
        target = stage_root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if rel in unchanged:
            _link(options.out / rel, target)
            outcome.kept.append(rel)
        else:
            write(target)
            outcome.written.append(rel)
    outcome.staged = stage
    return outcome


Writer = Callable[[Path], None]


def _inputs_hash(game_id: str, options: BuildOptions) -> str:
    """Everything a game's outputs are made from: its rules, layouts, templates and code."""
    files = [
        *(options.root / "rules" / game_id).glob("*.yaml"),
        *(p for p in options.templates.rglob("*") if p.is_file()),
    ]
    return hash_files(
        files, code_version(game_id), repr(options.papers), repr(options.back_offset), options.ink
    )


def _published(out: Path, game_id: str) -> set[str]:
    folder = out / game_id
    if not folder.is_dir():
        return set()
    return {
        f"{game_id}/{p.relative_to(folder).as_posix()}" for p in folder.rglob("*") if p.is_file()
    }


def _plan(game: GameData, options: BuildOptions) -> dict[str, tuple[str, Writer]]:
    """Every output of a game with the hash of what it is made from and how to write it."""
    from gachapress.publish.pnp import write_pnp
    from gachapress.render.faces import game_faces
    from gachapress.render.metrics import Measure
    from gachapress.render.presets import load_presets
    from gachapress.render.svg import face_svg, font_css

    presets = load_presets(options.templates / "print.yaml")
    measure = Measure(options.build_dir / "fonts")
    decks = game_faces(game, options.templates, presets, measure)
    faces = [face for deck in decks for face, _ in deck.fronts] + [deck.back for deck in decks]
    css = font_css(faces, measure.fonts)
    code = code_version(game.id)
    inputs = _inputs_hash(game.id, options)
    plan: dict[str, tuple[str, Writer]] = {}
    css_hash = hash_text(css)
    for face in faces:
        plan[f"{game.id}/cards/{face.key}.svg"] = (
            hash_text(code, repr(face), css_hash),
            lambda path, face=face: path.write_text(face_svg(face, css), encoding="utf-8"),
        )
    from gachapress.publish.rulebook import render_rulebooks
    from gachapress.publish.stats import book_statistics

    stats = book_statistics(game.id, options.root / "rules", options.build_dir / "stats")
    for lang, html in render_rulebooks(game, stats, templates_dir=options.templates).items():
        plan[f"{game.id}/rulebook.{lang}.html"] = (
            hash_text(html),
            lambda path, html=html: path.write_text(html, encoding="utf-8"),
        )
    for paper in options.papers:
        sheet = presets.sheets[paper]
        plan[f"{game.id}/{game.id}-pnp-{paper}.pdf"] = (
            hash_text(inputs, paper, repr(options.back_offset), options.ink),
            lambda path, sheet=sheet: write_pnp(
                path, game, decks, sheet, measure, options.back_offset, options.ink
            ),
        )
    return plan


def _write_index(options: BuildOptions, entries: dict[str, str], previous: dict[str, str]) -> None:
    """The site index links every game built into this out/; rewritten when any of them (or
    the templates) changed, atomically."""
    from gachapress.data.load import load_rules
    from gachapress.games import GAME_IDS
    from gachapress.publish.site import write_index

    built = [game_id for game_id in GAME_IDS if f"{game_id}/" in entries]
    digest = hash_text(*(entries[f"{game_id}/"] for game_id in built), repr(options.papers))
    entries[INDEX] = digest
    if previous.get(INDEX) == digest and (options.out / INDEX).is_file():
        return
    games = [load_rules(game_id, options.root / "rules") for game_id in built]
    staging = options.build_dir / f"index-{os.getpid()}"
    written = write_index(games, staging, templates_dir=options.templates, papers=options.papers)
    options.out.mkdir(parents=True, exist_ok=True)
    written.replace(options.out / INDEX)
    shutil.rmtree(staging, ignore_errors=True)


def _link(source: Path, target: Path) -> None:
    """Reuse an unchanged output without rewriting it (a hard link; a copy where links fail)."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _swap(staged: Path, final: Path, stage_root: Path) -> None:
    """Put a staged game folder in place of the published one."""
    final.parent.mkdir(parents=True, exist_ok=True)
    old = stage_root / f"old-{final.name}"
    if final.exists():
        final.rename(old)
    staged.rename(final)
    shutil.rmtree(old, ignore_errors=True)

"""`gachapress build`: check, then write each game's card SVGs, print-and-play PDFs and
rulebooks into out/, incrementally and atomically.

The whole new out/ tree is staged beside out/ (see ``outdir``): each game is built in its own
process (``--jobs``), writing only the outputs whose input hash changed; everything unchanged is
hard-linked from out/. Only when every game has been checked and built does one atomic switch
put the new tree in place, so a failure or a kill leaves the previous out/ whole, and a build
with nothing to do touches nothing.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from gachapress.assembly import names, outdir
from gachapress.assembly.manifest import (
    code_version,
    hash_file,
    hash_text,
    hash_tree,
)
from gachapress.assembly.outdir import OutputError
from gachapress.errors import Problem, RulesError
from gachapress.project import Templates, project_digest

if TYPE_CHECKING:
    from gachapress.book.model import Book, FileRef
    from gachapress.data.load import GameData
    from gachapress.publish.stats import BookProgress
    from gachapress.render.layout import Face
    from gachapress.render.metrics import Measure

PAPERS = ("a4", "letter")
INDEX = "index.html"


@dataclass(frozen=True)
class BuildOptions:
    root: Path
    out: Path
    papers: tuple[str, ...] = PAPERS
    back_offset: tuple[float, float] = (0.0, 0.0)
    ink: Literal["normal", "low"] = "normal"
    lang: str | None = None
    """The card language (``--lang``); None: each game's first language."""
    repair_out: bool = False
    """``--repair-out``: take an out/ whose marker is damaged as the tool's, listing nothing."""
    defer_pdfs: bool = False
    """The preview's quick pass (``serve``): a PDF whose inputs changed keeps its last bytes in
    out/ and its game stays due, so that the next build, which defers nothing, writes it."""

    @property
    def build_dir(self) -> Path:
        return self.root / "build"

    @property
    def templates(self) -> Templates:
        return Templates(self.root)


@dataclass
class GameOutcome:
    """What building one game did."""

    game: str
    problems: list[Problem] = field(default_factory=list)
    entries: dict[str, str] = field(default_factory=dict)  # output (relative to out/) -> hash
    written: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    deferred: list[str] = field(default_factory=list)  # stale PDFs left for the next build

    def line(self) -> str:
        """What building the game did, in a line (as a log shows it)."""
        if self.problems:
            return f"{self.game}: failed the checks"
        line = f"{self.game}: {_files(len(self.written))} written, {len(self.kept)} unchanged"
        return line + (f", {len(self.deferred)} PDFs to follow" if self.deferred else "")


@dataclass
class BuildReport:
    games: list[GameOutcome]

    @property
    def problems(self) -> list[Problem]:
        return [p for outcome in self.games for p in outcome.problems]

    def summary(self, out: Path, seconds: float) -> str:
        """The closing line of a build that published."""
        written = sum(len(o.written) for o in self.games)
        kept = sum(len(o.kept) for o in self.games)
        games = len(self.games)
        return (
            f"built {games} game{'s' if games != 1 else ''} into {out}: {_files(written)} "
            f"written, {kept} unchanged, in {seconds:.1f} s"
        )


def _files(count: int) -> str:
    return f"{count} file{'s' if count != 1 else ''}"


def build(
    game_ids: list[str],
    options: BuildOptions,
    jobs: int = 1,
    progress: Callable[[GameOutcome], None] | None = None,
    books: BookProgress | None = None,
) -> BuildReport:
    """Build the games; publish into ``options.out`` only if every game checked and built.
    ``progress`` hears of each game built, ``books`` of the book simulations as they play.

    Raises OutputError when out/ may not or cannot be written; out/ is then as it was."""
    with _holding_out(options) as previous:
        return _build_locked(game_ids, options, previous, jobs, progress, books)


def unchanged(game_ids: list[str], options: BuildOptions) -> BuildReport | None:
    """The report of a build with nothing to do, when nothing that shapes these games (nor the
    index) changed since out/ was built; None when a build has work to do. It holds out/'s lock
    as a build does, and loads none of the code that checks, renders or publishes.

    Raises OutputError as ``build`` does."""
    with _holding_out(options) as previous:
        outcomes = []
        for game_id in game_ids:
            outcome = _kept(game_id, options, previous, _inputs_hash(game_id, options))
            if outcome is None:
                return None
            outcomes.append(outcome)
        entries = {k: v for k, v in previous.items() if k.split("/", 1)[0] not in game_ids}
        for outcome in outcomes:
            entries.update(outcome.entries)
        entries[INDEX] = _index_digest(options, entries)
        if entries != previous or not (options.out / INDEX).is_file():
            return None
        return BuildReport(outcomes)


@contextlib.contextmanager
def _holding_out(options: BuildOptions) -> Iterator[dict[str, str]]:
    """Hold out/'s lock (after recovering from a killed build); yield what out/ holds by the
    tool's marker. An OSError becomes OutputError."""
    out = options.out
    outdir.guard(out, options.root, options.repair_out)
    try:
        with outdir.locked(out):
            outdir.recover(out)
            yield outdir.guard(out, options.root, options.repair_out)  # now nobody else writes
    except OSError as exc:
        where = exc.filename or out
        raise OutputError(f"cannot write {where}: {exc.strerror or exc}") from None


def _build_locked(
    game_ids: list[str],
    options: BuildOptions,
    previous: dict[str, str],
    jobs: int,
    progress: Callable[[GameOutcome], None] | None,
    books: BookProgress | None = None,
) -> BuildReport:
    out = options.out
    stage = outdir.staging_name(out, "stage")
    outcomes: list[GameOutcome] = []
    checked = _check_and_simulate(game_ids, options, previous, jobs, books)
    work = []
    for game_id in game_ids:
        if isinstance(checked[game_id], GameOutcome):
            outcomes.append(checked[game_id])  # kept as it is, or failed its checks
            if progress:
                progress(outcomes[-1])
        else:  # passed: its outputs are made in a pool of ``jobs`` processes
            game = checked[game_id] if jobs == 1 else None  # a worker loads its own
            work.append((game_id, options, previous, stage, game))
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
    """Complete the staged tree: every output not written anew is linked from out/, and what
    someone else put in out/ (not in the tool's marker: files, links, folders) is carried
    over, never dropped."""

    def keep(rel: str) -> bool:
        if rel in previous and rel not in entries:
            return False  # an output of the tool that this build no longer makes
        return not (rel in entries and entries[rel] != previous.get(rel))  # else written anew

    outdir.carry_over(out, stage, keep)


def _check_and_simulate(
    game_ids: list[str],
    options: BuildOptions,
    previous: dict[str, str],
    jobs: int,
    books: BookProgress | None,
) -> dict[str, GameOutcome | GameData]:
    """Each game's outcome when it is kept as built or fails to load or check, else its loaded
    data; the book simulations of the games that passed are played first, all of them spread
    over ``jobs`` processes, so that each game's build finds its statistics cached."""
    result: dict[str, GameOutcome | GameData] = {}
    for game_id in game_ids:
        kept = _kept(game_id, options, previous, _inputs_hash(game_id, options))
        result[game_id] = kept if kept is not None else _checked(game_id, options)
    passed = [game for game in result.values() if not isinstance(game, GameOutcome)]
    if passed:
        from gachapress.publish.stats import simulate_books

        rules, cache = options.root / "rules", options.build_dir / "stats"
        simulate_books(passed, rules, cache, jobs=jobs, progress=books)
    return result


def _checked(game_id: str, options: BuildOptions) -> GameOutcome | GameData:
    """The game loaded, when it loads and passes its checks; else an outcome with problems."""
    from gachapress.checks import run_checks  # the slow path's imports: a no-op build skips them

    try:
        game = load_game_data(game_id, options.root / "rules")
    except RulesError as exc:
        return GameOutcome(game_id, problems=exc.problems)
    problems = [p for report in run_checks(game) for p in report.problems if p.severity == "error"]
    return GameOutcome(game_id, problems=problems) if problems else game


def _build_game(
    item: tuple[str, BuildOptions, dict[str, str], Path, GameData | None],
) -> GameOutcome:
    """Write the outputs of a game that passed its checks whose hash changed into the stage
    (``game`` is its data, or None to load it here)."""
    game_id, options, previous, stage, game = item
    inputs = _inputs_hash(game_id, options)
    outcome = GameOutcome(game_id)
    if game is None:
        try:
            game = load_game_data(game_id, options.root / "rules")
        except RulesError as exc:  # saved again since it was checked
            outcome.problems = exc.problems
            return outcome
    try:
        plan = _plan(game, options, inputs)
    except RulesError as exc:
        outcome.problems = exc.problems
        return outcome
    outcome.entries = {rel: digest for rel, (digest, _) in plan.items()}
    for rel, (digest, write) in sorted(plan.items()):
        present = (options.out / rel).is_file()
        if previous.get(rel) == digest and present:
            outcome.kept.append(rel)  # linked into the stage with the rest of out/
        elif options.defer_pdfs and rel.endswith(".pdf") and rel in previous and present:
            outcome.entries[rel] = previous[rel]  # linked as it was: stale until the next build
            outcome.deferred.append(rel)
        else:
            target = stage / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            write(target)
            outcome.written.append(rel)
    outcome.entries[f"{game_id}/"] = DUE + inputs if outcome.deferred else inputs
    return outcome


Writer = Callable[[Path], None]
#: What marks the inputs hash recorded for a game whose outputs are not all up to date: it is
#: then never the game's inputs hash, so the next build does not take the game as built.
DUE = "due:"
#: What only `sweep` reads (a game's sweep files, the report's template): no build input.
SWEEP_RULES = ("sweeps",)
SWEEP_TEMPLATES = ("sweep.html.j2",)


def _inputs_hash(game_id: str, options: BuildOptions) -> str:
    """Everything a game's outputs are made from: every file of its rules folder (art included),
    every template, layout and preset (the project's and the package's), project.yaml, the code
    and the libraries, and the build options."""
    return hash_text(
        hash_tree(options.root / "rules" / game_id, options.root, skip=SWEEP_RULES),
        options.templates.digest(skip=SWEEP_TEMPLATES),
        project_digest(options.root),
        code_version(game_id),
        repr(options.papers),
        repr(options.back_offset),
        options.ink,
        repr(_exports(game_id, options.out)),  # the rulebooks link them
        *([options.lang] if options.lang else []),  # without --lang, as built before it existed
    )


def _kept(
    game_id: str, options: BuildOptions, previous: dict[str, str], inputs: str
) -> GameOutcome | None:
    """The outcome of a game whose inputs hash ``inputs`` is the one its outputs in out/ were
    built from (they are all there); None when it is to be built."""
    mine = {rel: digest for rel, digest in previous.items() if rel.split("/", 1)[0] == game_id}
    outputs = set(mine) - {f"{game_id}/"}
    if mine.get(f"{game_id}/") != inputs or not _present(options.out, outputs):
        return None
    return GameOutcome(game_id, entries=mine, kept=sorted(outputs))


def _present(out: Path, rels: set[str]) -> bool:
    return all((out / rel).is_file() for rel in rels)


def _plan(game: GameData, options: BuildOptions, inputs: str) -> dict[str, tuple[str, Writer]]:
    """Every output of a game with the hash of what it is made from and how to write it."""
    from gachapress.publish.pnp import write_pnp
    from gachapress.render.faces import deck_faces, draws_openmoji, game_faces
    from gachapress.render.fonts import cache_dir
    from gachapress.render.metrics import Measure
    from gachapress.render.partstore import PartStore
    from gachapress.render.presets import PRESETS, Sheet, load_presets
    from gachapress.render.svg import face_svg, font_css

    presets = load_presets(options.templates.path(PRESETS))
    measure = Measure(cache_dir(options.build_dir))
    card_lang = game.model.card_language(options.lang)
    decks = game_faces(game, options.templates, presets, measure, card_lang)
    # the faces in every language the game publishes: each rulebook pictures its own
    faces = {
        lang: deck_faces(
            decks
            if lang == card_lang
            else game_faces(game, options.templates, presets, measure, lang)
        )
        for lang in game.model.languages
    }
    openmoji = any(map(draws_openmoji, faces.values()))  # its licence asks for the credit
    code = code_version(game.id)
    plan: dict[str, tuple[str, Writer]] = {}
    for lang, drawn in faces.items():
        css = font_css(drawn, measure.fonts)
        css_hash = hash_text(css)
        folder = names.cards_dir(lang, card_lang)
        for face in drawn:
            plan[f"{game.id}/{folder}/{face.key}.svg"] = (
                hash_text(code, repr(face), css_hash, *art_digests(face)),
                lambda path, face=face, css=css: path.write_text(
                    face_svg(face, css), encoding="utf-8"
                ),
            )
    from gachapress.book.build import build_books
    from gachapress.book.words import StringTable
    from gachapress.publish.book_html import render_books
    from gachapress.publish.stats import book_statistics

    stats = book_statistics(game.id, options.root / "rules", options.build_dir / "stats", game=game)
    strings = StringTable.load(options.templates)
    books = build_books(
        game, strings, stats, _book_files(game.id, options), card_lang, openmoji=openmoji
    )
    for lang, html in render_books(books, options.templates).items():
        plan[f"{game.id}/{names.rulebook_html(lang)}"] = (
            hash_text(html),
            lambda path, html=html: path.write_text(html, encoding="utf-8"),
        )
    plan.update(_book_pdfs(game.id, books, faces, measure, options))

    def pnp(path: Path, sheet: Sheet) -> None:
        store = PartStore(options.build_dir / "parts.sqlite", code)
        try:
            write_pnp(
                path, game, decks, sheet, measure, strings, options.back_offset, options.ink, store,
                openmoji=openmoji,
            )  # fmt: skip
        finally:
            store.close()

    for paper in options.papers:
        plan[f"{game.id}/{names.pnp_pdf(game.id, paper)}"] = (
            hash_text(inputs, paper, repr(options.back_offset), options.ink),
            lambda path, sheet=presets.sheets[paper]: pnp(path, sheet),
        )
    return plan


def _book_pdfs(
    game_id: str,
    books: Mapping[str, Book],
    faces: Mapping[str, list[Face]],
    measure: Measure,
    options: BuildOptions,
) -> dict[str, tuple[str, Writer]]:
    """The rulebook PDFs: each language's book laid out once on each page size, and its A5
    booklet imposed on each paper for a home printer, from that one A5 layout; ``faces``: the
    faces drawn in each language, which that language's book pictures."""
    from gachapress.book.model import pictured
    from gachapress.publish.book_pdf import render_book_pdf
    from gachapress.publish.booklet import impose_booklet

    # a book's PDFs are made from the faces it pictures: an edit of any other card keeps them
    pictures = {lang: pictured(book) for lang, book in books.items()}
    shown = {lang: [face for face in faces[lang] if face.key in pictures[lang]] for lang in books}

    @cache
    def layout(lang: str, size: str) -> bytes:
        by_key = {face.key: face for face in shown[lang]}
        return render_book_pdf(books[lang], measure.fonts, by_key, size)

    plan: dict[str, tuple[str, Writer]] = {}
    for lang, book in books.items():
        art = [digest for face in shown[lang] for digest in art_digests(face)]
        digest = hash_text(code_version(game_id), repr(book), repr(shown[lang]), *art)
        for size in names.rulebook_sizes(options.papers):
            plan[f"{game_id}/{names.rulebook_pdf(lang, size)}"] = (
                hash_text(digest, size),
                lambda path, lang=lang, size=size: path.write_bytes(layout(lang, size)),
            )
        for paper in options.papers:
            plan[f"{game_id}/{names.rulebook_booklet_pdf(lang, paper)}"] = (
                hash_text(digest, "booklet", paper),
                lambda path, lang=lang, paper=paper: path.write_bytes(
                    impose_booklet(layout(lang, names.BOOKLET), paper)
                ),
            )
    return plan


def _book_files(game_id: str, options: BuildOptions) -> list[FileRef]:
    """What a game's rulebooks link: their PDFs, the print-and-play PDFs this build makes, and
    the exports already in out/ (``gachapress export``)."""
    from gachapress.book.model import FileRef

    files = [
        FileRef(name, label) for name, label in names.rulebook_downloads("{lang}", options.papers)
    ]
    files += [FileRef(names.pnp_pdf(game_id, paper), f"pdf_{paper}") for paper in options.papers]
    files += [
        FileRef(names.export_dir(target), "export_link", (("target", target),))
        for target in _exports(game_id, options.out)
    ]
    return files


def _exports(game_id: str, out: Path) -> list[str]:
    """The export targets out/<game>/export/ holds (not an export's staged tree or version)."""
    folder = out / game_id / names.EXPORT_DIR
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))


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
    built = _built_games(options, entries)
    digest = _index_digest(options, entries)
    entries[INDEX] = digest
    if previous.get(INDEX) == digest and (options.out / INDEX).is_file():
        return False
    from gachapress.publish.site import write_index  # only when the index is written anew
    from gachapress.render.faces import game_draws_openmoji
    from gachapress.render.fonts import cache_dir
    from gachapress.render.metrics import Measure
    from gachapress.render.presets import PRESETS, load_presets

    games = [load_game_data(game_id, options.root / "rules") for game_id in built]
    presets = load_presets(options.templates.path(PRESETS))
    measure = Measure(cache_dir(options.build_dir))
    openmoji = any(game_draws_openmoji(g, options.templates, presets, measure) for g in games)
    write_index(
        games,
        stage,
        options.templates,
        papers=options.papers,
        card_lang=options.lang,
        openmoji=openmoji,
    )
    staged, current = stage / INDEX, options.out / INDEX
    if current.is_file() and not current.is_symlink() and _same_bytes(staged, current):
        staged.unlink()  # the same page: out/'s file stays as it is, its time included
        outdir.link(current, staged)
    return True


def _same_bytes(a: Path, b: Path) -> bool:
    return a.stat().st_size == b.stat().st_size and a.read_bytes() == b.read_bytes()


def _built_games(options: BuildOptions, entries: dict[str, str]) -> list[str]:
    """The project's games that out/ holds, in the project's order."""
    from gachapress.data.folders import find_games

    return [game_id for game_id in find_games(options.root / "rules") if f"{game_id}/" in entries]


def _index_digest(options: BuildOptions, entries: dict[str, str]) -> str:
    """What the site index is made from: the games built into out/ and the papers."""
    built = _built_games(options, entries)
    return hash_text(*(entries[f"{game_id}/"] for game_id in built), repr(options.papers))


#: The games loaded in this process, by game and rules folder: the hash of the folder's files
#: they were loaded from, and the data.
_LOADED: dict[tuple[str, Path], tuple[str, GameData]] = {}


def load_game_data(game_id: str, rules_dir: Path) -> GameData:
    """``load_rules``, once per content of the game's folder in a process: a rebuild's check,
    its index and the preview's gallery share one load. The data is shared: never modify it."""
    from gachapress.data.load import load_rules

    key = (game_id, rules_dir.resolve())
    digest = hash_tree(rules_dir / game_id, rules_dir.parent)
    if key in _LOADED and _LOADED[key][0] == digest:
        return _LOADED[key][1]
    game = load_rules(game_id, rules_dir)
    if hash_tree(rules_dir / game_id, rules_dir.parent) == digest:  # not saved while loading
        _LOADED[key] = (digest, game)
    return game

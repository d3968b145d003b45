"""From saved files to rebuilt games: which games an edit touches, and building just those."""

from __future__ import annotations

import contextlib
import importlib
import os
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from gachapress.assembly.builder import BuildOptions, build
from gachapress.assembly.outdir import OutputError
from gachapress.errors import RulesError
from gachapress.project import PROJECT_FILE, Templates

#: The code a rebuild runs that a build with nothing to do never loads.
REBUILD_MODULES = (
    "gachapress.checks",
    "gachapress.publish.book_pdf",
    "gachapress.publish.booklet",
    "gachapress.publish.pnp",
    "gachapress.publish.site",
    "gachapress.publish.stats",
    "gachapress.render.faces",
    "gachapress.render.svg",
)


def touched_games(changed: Iterable[Path | str], root: Path, games: Sequence[str]) -> list[str]:
    """The games (of ``games``) whose outputs a change of these files may alter: a file of
    ``rules/<game>/`` or the layout ``templates/cards/<game>.yaml`` touches that game; any
    other template, and ``project.yaml`` (what every output says of the project), touches every
    game."""
    rules, templates = (root / "rules").resolve(), Templates(root).folder.resolve()
    project = (root / PROJECT_FILE).resolve()
    touched: set[str] = set()
    for name in changed:
        path = Path(name).resolve()
        if path == project:
            touched.update(games)
        elif path.is_relative_to(rules):
            parts = path.relative_to(rules).parts
            touched.update(parts[:1])
        elif path.is_relative_to(templates):
            parts = path.relative_to(templates).parts
            if len(parts) == 2 and parts[0] == "cards" and Path(parts[1]).stem in games:
                touched.add(Path(parts[1]).stem)
            else:
                touched.update(games)
    return [game for game in games if game in touched]


@dataclass(frozen=True)
class Rebuilt:
    """What one rebuild did: whether out/ was published, each game's problems (formatted
    ``PATH:LINE:COL: error: MESSAGE``), what it wrote, and whether PDFs were left to follow."""

    published: bool
    problems: dict[str, list[str]]
    written: tuple[str, ...] = ()
    deferred: bool = False


def rebuild(
    options: BuildOptions,
    games: Sequence[str],
    *,
    quick: bool = False,
    report: Callable[[str], None] = lambda line: None,
) -> Rebuilt:
    """Build ``games`` into out/ (the builder's incremental build: only what changed is
    written); ``quick`` leaves the PDFs whose inputs changed for the next, complete rebuild, so
    that the faces and pages of an edit are published first. When a game fails its checks,
    out/ keeps the last good build.

    It never raises (but for Ctrl-C): a broken rules file met on the way (another game's, read
    for the site index; one saved again during the build) is a located problem of the game it
    belongs to, and any other failure is a problem of the games built, its traceback sent to
    ``report``. out/ is then the last good build, as the builder leaves it."""
    root = options.root.resolve()
    try:
        built = build(list(games), replace(options, defer_pdfs=quick))
    except OutputError as exc:
        return Rebuilt(False, {game: [f"{options.out}: error: {exc}"] for game in games})
    except RulesError as exc:
        problems: dict[str, list[str]] = {game: [] for game in games}
        for problem in exc.problems:
            owner = _owner(problem.file, options.root, games)
            problems.setdefault(owner, []).append(problem.format(relative_to=root))
        return Rebuilt(False, problems)
    except Exception as exc:
        for line in traceback.format_exception(exc):
            report(line.rstrip("\n"))
        where = f"the rebuild of {', '.join(games)} stopped"
        return Rebuilt(False, {game: unexpected(exc, root, where) for game in games})
    problems = {o.game: [p.format(relative_to=root) for p in o.problems] for o in built.games}
    written = tuple(rel for o in built.games for rel in o.written)
    deferred = any(o.deferred for o in built.games)
    return Rebuilt(not built.problems, problems, written, deferred)


def _owner(file: Path, root: Path, games: Sequence[str]) -> str:
    """The game whose rules folder holds ``file`` (any game, previewed or not), else ""."""
    rules = (root / "rules").resolve()
    path = Path(file).resolve()
    if path.is_relative_to(rules) and len(path.relative_to(rules).parts) > 1:
        return path.relative_to(rules).parts[0]
    touched = touched_games([path], root, games)
    return touched[0] if len(touched) == 1 else ""


def unexpected(exc: BaseException, root: Path, what: str) -> list[str]:
    """The overlay's line for a failure nobody planned for: where (the file it names, when it
    names one), what, and that the last good build is still shown."""
    filename = getattr(exc, "filename", None)
    where = "gachapress"
    if isinstance(filename, str | Path):
        where = os.path.relpath(filename, root) if Path(filename).is_absolute() else str(filename)
    said = str(exc.strerror if isinstance(exc, OSError) and exc.strerror else exc)
    return [
        f"{where}: error: {what}: {said or type(exc).__name__} (the page shows the last good "
        "build; the terminal has the details; the next save rebuilds)"
    ]


def prepare(options: BuildOptions, games: Sequence[str]) -> None:
    """Do once what every rebuild needs, so that the first save is rebuilt as quickly as the
    later ones: load the rebuild's code, register the fonts, compile the page templates, read
    the string table and every game (the index of out/ names them all), and play the check's
    random games of each game previewed (after a build with nothing to do, none of it was
    done)."""
    from jinja2 import TemplateError

    from gachapress.assembly.builder import load_game_data
    from gachapress.book.words import StringTable
    from gachapress.checks.playtest import playtest
    from gachapress.data.folders import find_games
    from gachapress.errors import RulesError
    from gachapress.publish import book_html, site
    from gachapress.publish.templating import environment
    from gachapress.render.fonts import cache_dir
    from gachapress.render.metrics import Measure

    for module in REBUILD_MODULES:
        importlib.import_module(module)
    Measure(cache_dir(options.build_dir))
    env = environment(options.templates)
    for name in (book_html.TEMPLATE, site.TEMPLATE):
        with contextlib.suppress(TemplateError, OSError):  # a broken template is built to say so
            env.get_template(name)
    with contextlib.suppress(RulesError):  # a broken file: the build said so
        StringTable.load(options.templates)
    rules = options.root / "rules"
    for game in find_games(rules):
        with contextlib.suppress(RulesError):  # a broken game: the build said so
            loaded = load_game_data(game, rules)
            if game in games:
                for _ in playtest(loaded):
                    pass  # what it finds, the build that checks the game says

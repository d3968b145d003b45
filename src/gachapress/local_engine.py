"""A game's own engine module: ``engine: {module: engine.py}`` in its ``game.yaml``.

The module is a Python file inside the game's folder, loaded only when ``game.yaml`` names it
(an ``engine.py`` left unnamed is never run: ``check`` warns). It must define:

- ``ENGINE``: an ``EngineSpec`` (required): the State class, the bots, the options;
- ``RULES``: a ``RuleSet`` (optional): the rule functions its worked examples call;
- ``CHECKS``: a dict of check id to check function (optional): its deck checks.

The game's card model stays the one its decks declare in ``decks.yaml``. The module is run as
``gachapress_local.<id>_<hash of the folder's path>``, registered in ``sys.modules``, so that its
states and bots pickle; any process that loads the game (a ``sim --jobs`` or a build worker, a
sweep's Dask worker) loads the module the same way, from the game's folder, before it plays.
It runs again when its bytes change (the preview reloads it on save).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import traceback
import types
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from gachapress.data.yamlsource import Mark
from gachapress.errors import Problem, RulesError
from gachapress.spec import EngineSpec, GameSpec, RuleSet

#: The package every local engine module is loaded under.
PACKAGE = "gachapress_local"
#: The file name an engine module usually has (``check`` warns when it is there, unnamed).
USUAL_NAME = "engine.py"

#: The modules run in this process, by file: the digest of the bytes they were run from.
_RUN: dict[Path, tuple[str, types.ModuleType]] = {}
#: The (game id, file) of each module run since ``loaded_notes`` was last asked.
_NEWLY_RUN: list[tuple[str, Path]] = []


def named_module(data: dict[str, Any]) -> str | None:
    """The module ``game.yaml`` names as the game's engine (None when it names none, or not as
    ``engine: {module: FILE}``: validating the model then says what is wrong)."""
    engine = data.get("engine")
    module = engine.get("module") if isinstance(engine, dict) else None
    return module if isinstance(module, str) else None


def local_spec(game_id: str, folder: Path, module: str, mark: Mark, model: Any) -> GameSpec:
    """The spec of a game played by the module ``module`` of its folder (``mark``: where
    game.yaml names it), with the card model ``model``; RulesError, located, when the module
    may not or cannot be loaded or does not define what it must."""
    path = module_path(folder, module, mark)
    loaded = _run(game_id, path)
    engine = getattr(loaded, "ENGINE", None)
    rules = getattr(loaded, "RULES", RuleSet())
    checks = getattr(loaded, "CHECKS", {})
    wrong = (
        ("ENGINE", engine, EngineSpec, "an EngineSpec"),
        ("RULES", rules, RuleSet, "a RuleSet"),
        ("CHECKS", checks, dict, "a dict of check functions by id"),
    )
    for name, value, kind, what in wrong:
        if not isinstance(value, kind):
            found = "nothing" if value is None else type(value).__name__
            message = f"{module} must define {name} as {what} (it defines {found})"
            raise RulesError([mark.problem(message)])
    return GameSpec(model=model, rules=rules, checks=checks, engine=engine)


def module_path(folder: Path, module: str, mark: Mark) -> Path:
    """The file ``module`` names inside ``folder``; RulesError at ``mark`` when it is absolute,
    climbs out with ``..``, is no ``.py`` file, is missing or leads out of the folder."""
    pure = PurePosixPath(module)
    if pure.is_absolute() or PureWindowsPath(module).is_absolute() or PureWindowsPath(module).drive:
        why = "is an absolute path: name a file of the game's folder, e.g. engine.py"
    elif ".." in pure.parts or ".." in PureWindowsPath(module).parts:
        why = "climbs out of the game's folder ('..'): name a file of the folder itself"
    elif pure.suffix != ".py":
        why = "is no Python file: the engine module's name ends in .py"
    else:
        path = folder / pure
        inside = folder.resolve()
        if not path.resolve().is_relative_to(inside):
            why = f"leads out of the game's folder (to {path.resolve()})"
        elif not path.is_file():
            why = f"is missing: no file {pure} in {folder}"
        else:
            return path.resolve()
    raise RulesError([mark.problem(f"engine module {module!r} {why}")])


def module_name(game_id: str, path: Path) -> str:
    """The name the module of ``path`` is run under: the same in every process for a file."""
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:10]
    return f"{PACKAGE}.{game_id.replace('-', '_')}_{digest}"


def _run(game_id: str, path: Path) -> types.ModuleType:
    """The module of ``path``, run once per content of the file in a process."""
    source = path.read_bytes()
    digest = hashlib.sha256(source).hexdigest()
    kept = _RUN.get(path)
    if kept is not None and kept[0] == digest:
        return kept[1]
    name = module_name(game_id, path)
    _package()
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None  # a .py file always has a loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:
        sys.modules.pop(name, None)
        raise RulesError([_import_problem(path, exc)]) from None
    _RUN[path] = (digest, module)
    _NEWLY_RUN.append((game_id, path))
    return module


def _package() -> None:
    """``gachapress_local``, the empty package the modules are named under (pickle imports a
    module's package before looking the module up)."""
    if PACKAGE not in sys.modules:
        package = types.ModuleType(PACKAGE, "The games' own engine modules, loaded by name.")
        package.__path__ = []
        sys.modules[PACKAGE] = package


def _import_problem(path: Path, exc: BaseException) -> Problem:
    """The problem an engine module that fails to run is reported as: at its line."""
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if isinstance(exc, SyntaxError) and exc.filename == str(path):
        message = f"the engine module does not compile: {exc.msg}"
        return Problem(path, exc.lineno or 1, exc.offset or 1, message)
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == str(path)]
    line = frames[-1].lineno if frames and frames[-1].lineno else 1
    return Problem(path, line, 1, f"the engine module fails when loaded: {what}")


def loaded_notes() -> list[str]:
    """A line for each local engine module run since the last call, ``harbor: local engine
    rules/harbor/engine.py`` (the path relative to the current directory)."""
    lines = [f"{game}: local engine {os.path.relpath(path)}" for game, path in _NEWLY_RUN]
    _NEWLY_RUN.clear()
    return lines


def unnamed_engine(folder: Path, named: bool) -> list[Problem]:
    """A warning when the game's folder holds an ``engine.py`` while the game names no engine
    (``named``: game.yaml names a module, or a package registers the game): it is never
    loaded; the warning says how to name it."""
    path = folder / USUAL_NAME
    if named or not path.is_file():
        return []
    message = (
        f"{USUAL_NAME} is not loaded: a game's engine module runs only when game.yaml names "
        f"it, as 'engine: {{module: {USUAL_NAME}}}'"
    )
    return [Problem(path, 1, 1, message, "warning")]

"""An engine's own source files: where an exception it raised is reported, and what its
contract verdict is cached under."""

from __future__ import annotations

import inspect
import sys
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any

import gachapress.engine.core as core
from gachapress.engine.core import Game

#: The shared core: never the place an engine's fault is reported at.
CORE = Path(core.__file__).resolve().parent


def engine_files(game: Game) -> list[Path]:
    """The source files of ``game``'s engine, sorted: the module of its state (class or
    factory) and of every class the state class is built on, outside the shared core, each with
    every Python file of its package's folder."""
    state = game.engine.state
    owners: list[Any] = list(state.__mro__) if isinstance(state, type) else [state]
    files: set[Path] = set()
    for owner in owners:
        module = sys.modules.get(getattr(owner, "__module__", "") or "")
        file = _file(module)
        if file is None or file == CORE / "core.py" or CORE / "contract" in file.parents:
            continue
        files.add(file)
        if module is not None and module.__package__:
            files.update(path.resolve() for path in file.parent.rglob("*.py"))
    return sorted(files)


def _file(module: ModuleType | None) -> Path | None:
    try:
        source = inspect.getsourcefile(module) if module is not None else None
    except TypeError:  # a built-in module
        return None
    return Path(source).resolve() if source else None


def raised_at(error: BaseException, files: list[Path]) -> str:
    """``file:line`` where ``error`` was raised: the innermost place in ``files``, else the
    innermost of all; the path relative to the current folder when it lies inside it."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return "an unknown place"
    inside = set(files)
    frame = next((f for f in reversed(frames) if Path(f.filename).resolve() in inside), frames[-1])
    path = Path(frame.filename).resolve()
    if path.is_relative_to(Path.cwd()):
        path = path.relative_to(Path.cwd())
    return f"{path}:{frame.lineno}"

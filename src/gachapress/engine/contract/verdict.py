"""The contract's verdict on a game, kept while neither the engine's code nor the data it plays
changes: in this process, and on disk for the commands that start afresh (``sim``)."""

from __future__ import annotations

import hashlib
import os
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from gachapress.data.load import GameData
from gachapress.data.played import play_data
from gachapress.engine.contract.run import Failure, run_contract, said
from gachapress.engine.contract.source import CORE, engine_files, raised_at
from gachapress.engine.core import Game

#: Bumped when what the contract checks changes, so that verdicts kept on disk are not read.
FORMAT = "1"
#: The verdict keys of the games that passed in this process.
_PASSED: set[str] = set()


def contract_failure(data: GameData, cache_dir: Path | None = None) -> Failure | None:
    """``run_contract`` of the game of ``data``, unless it passed before with the same engine
    code and play data (in this process, or with a mark in ``cache_dir``, by default the
    project's ``build/contract/``); a pass is kept."""
    try:
        game = Game(data)
    except Exception as exc:  # the engine's options, read from the model, failed
        return Failure(data.id, f"the engine raised {said(exc)} ({raised_at(exc, [])})")
    key = verdict_key(data, game)
    folder = data.root / "build" / "contract" if cache_dir is None else cache_dir
    mark = folder / f"{data.id}-{key}.passed"
    if key in _PASSED or mark.is_file():
        _PASSED.add(key)
        return None
    failure = run_contract(game)
    if failure is None:
        _PASSED.add(key)
        _write_mark(mark)
    return failure


def verdict_key(data: GameData, game: Game) -> str:
    """A hash of what the verdict depends on: the data the engine plays, the engine's state
    (by name) and own source files, the engine core's (the contract's included), and
    gachapress's version."""
    state = game.engine.state
    named = f"{state.__module__}.{state.__qualname__}"
    digest = hashlib.sha256(f"{FORMAT}/{data.id}/{_version()}/{named}\0".encode())
    digest.update(play_data(data).encode())
    for file in sorted({*CORE.rglob("*.py"), *engine_files(game)}):
        digest.update(f"\0{file}\0".encode() + file.read_bytes())
    return digest.hexdigest()[:20]


def _version() -> str:
    try:
        return version("gachapress")
    except PackageNotFoundError:  # running from a bare source tree
        return "0"


def _write_mark(mark: Path) -> None:
    """Leave the mark of a pass; a folder that cannot be written keeps none (it is only a
    cache)."""
    try:
        mark.parent.mkdir(parents=True, exist_ok=True)
        temporary = mark.with_name(f".{mark.name}.{os.getpid()}.tmp")
        temporary.write_text("passed\n", encoding="utf-8")
        temporary.replace(mark)
    except OSError:
        return

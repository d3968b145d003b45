"""The rulebooks' "by the numbers": seeded simulations run at build time, and cached.

For every mode and player count of a game, ``book_statistics`` plays ``games`` seeded games
with random bots and again with each bot the game defines (``greedy``, say), and keeps the
reports of ``gachapress.sim``. The result is cached in ``cache_dir`` under a hash of the game's
play data (its validated model without names, card texts, art, colours and the book's prose) and
of the code that plays them, so a text or colour edit keeps the statistics while any change to
a number, a rule or the engine is simulated afresh.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections import Counter
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import gachapress
from gachapress.data.load import GameData, load_rules
from gachapress.data.played import play_data
from gachapress.registry import package_files
from gachapress.sim import SimSpec, run_sims

#: Games played for each mode, player count and bot. GACHAPRESS_BOOK_GAMES overrides it (a
#: quicker build for tests); the book prints the number it used.
BOOK_GAMES = 200
#: The seed of every book simulation.
BOOK_SEED = 1
#: Bumped when the shape of the cached statistics (or of the key) changes.
FORMAT = 3


def book_statistics(
    game_id: str,
    rules_dir: Path,
    cache_dir: Path,
    *,
    games: int | None = None,
    seed: int = BOOK_SEED,
    jobs: int = 1,
    game: GameData | None = None,
) -> dict[str, Any]:
    """Win rates, lengths and scores of seeded games of ``game_id``, from the cache if it can.

    ``game`` is the loaded game when the caller has it (else it is read from ``rules_dir``).
    An empty dict for a game without an engine. The shape::

        {"games": 400, "seed": 1, "bots": ["random", ...],
         "modes": {mode: {"3": {bot: <gachapress.sim report>}}}}
    """
    if game is None:
        game = load_rules(game_id, Path(rules_dir))
    return simulate_books([game], rules_dir, cache_dir, games=games, seed=seed, jobs=jobs)[0]


#: ``progress(game_id, game_done, game_total, done, total)``: ``game_done`` of the
#: ``game_total`` book games of ``game_id`` are played, and ``done`` of the ``total`` of the run.
BookProgress = Callable[[str, int, int, int, int], None]


def simulate_books(
    loaded: Sequence[GameData],
    rules_dir: Path,
    cache_dir: Path,
    *,
    games: int | None = None,
    seed: int = BOOK_SEED,
    jobs: int = 1,
    progress: BookProgress | None = None,
) -> list[dict[str, Any]]:
    """The statistics of each game (see ``book_statistics``), those not cached simulated
    together: every mode, player count and bot of every game spread over ``jobs`` processes."""
    rules_dir = Path(rules_dir)
    if games is None:
        games = int(os.environ.get("GACHAPRESS_BOOK_GAMES", BOOK_GAMES))
    results: list[dict[str, Any] | None] = [None] * len(loaded)
    todo: list[tuple[int, Path, list[str], list[tuple[str, str, str]]]] = []
    specs: list[SimSpec] = []
    owner: list[str] = []
    for index, game in enumerate(loaded):
        engine = game.spec.engine
        if engine is None:
            results[index] = {}
            continue
        cache_file = Path(cache_dir) / f"stats-{game.id}-{cache_key(game, games, seed)}.json"
        with contextlib.suppress(OSError, ValueError):  # a damaged entry is simply recomputed
            results[index] = json.loads(cache_file.read_text(encoding="utf-8"))
            continue
        slots, bots = [], ["random", *engine.bots]
        for mode_id, mode in game.model.modes.items():
            for players in mode.players:
                for bot in bots:
                    slots.append((mode_id, str(players), bot))
                    owner.append(game.id)
                    specs.append(
                        SimSpec(
                            game=game.id,
                            players=players,
                            games=games,
                            seed=seed,
                            mode=mode_id,
                            bots=(bot,),
                            rules_dir=rules_dir,
                        )
                    )
        todo.append((index, cache_file, bots, slots))
    per_game = Counter(owner)
    played: Counter[str] = Counter()

    def heard(spec_index: int, more: int) -> None:
        game_id = owner[spec_index]
        played[game_id] += more
        if progress:
            total = len(specs) * games
            progress(game_id, played[game_id], per_game[game_id] * games, played.total(), total)

    summaries = iter(run_sims(specs, jobs, heard))
    for index, cache_file, bots, slots in todo:
        modes: dict[str, dict[str, dict[str, Any]]] = {}
        for mode_id, players, bot in slots:
            modes.setdefault(mode_id, {}).setdefault(players, {})[bot] = next(summaries).report()
        result = {"games": games, "seed": seed, "bots": bots, "modes": modes}
        _write_atomically(cache_file, json.dumps(result, sort_keys=True, indent=1))
        results[index] = result
    return [result or {} for result in results]


def cache_key(game: GameData, games: int, seed: int) -> str:
    """A hash of everything the statistics depend on: the game's play data, the code that plays
    it, the gachapress version, and the run's size and seed."""
    digest = hashlib.sha256(f"{FORMAT}/{game.id}/{games}/{seed}/{_version()}".encode())
    digest.update(play_data(game).encode())
    package = Path(gachapress.__file__).parent
    for file in _played_code(package, game.id):
        digest.update(str(file.relative_to(package)).encode() + b"\0" + file.read_bytes())
    for file in _engine_code(game):
        digest.update(file.name.encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()[:16]


def _engine_code(game: GameData) -> list[Path]:
    """The engine's own files outside gachapress: the module of the game's folder that its
    game.yaml names, or the installed package that registers it."""
    if game.model.engine is not None:
        return [(game.folder / game.model.engine.module).resolve()]
    return package_files(game.id)


def _played_code(package: Path, game_id: str) -> list[Path]:
    """The source files a simulation of ``game_id`` runs: the shared engine, the simulator,
    the data model and the game's own package (not the other games, the CLI or publishing)."""
    files = [package / "games" / "__init__.py", package / "games" / "spec.py"]
    for folder in ("engine", "sim", "data", f"games/{game_id.replace('-', '_')}"):
        files.extend(sorted((package / folder).rglob("*.py")))
    return [file for file in files if file.is_file()]


def _version() -> str:
    try:
        return version("gachapress")
    except PackageNotFoundError:  # pragma: no cover - running from a bare source tree
        return "0"


def _write_atomically(file: Path, text: str) -> None:
    file.parent.mkdir(parents=True, exist_ok=True)
    temporary = file.with_name(f".{file.name}.{os.getpid()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(file)

"""The rulebooks' "by the numbers": seeded simulations run at build time, and cached.

For every mode and player count of a game, ``book_statistics`` plays ``games`` seeded games
with random bots and again with each bot the game defines (``greedy``, say), and keeps the
reports of ``gachapress.sim``. The result is cached in ``cache_dir`` under a hash of the game's
play data (its validated model without names, card texts, art, colours and the book's prose) and
of the code that plays them, so a text or colour edit keeps the statistics while any change to
a number, a rule or the engine is simulated afresh.
"""

from __future__ import annotations

import hashlib
import json
import os
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import gachapress
from gachapress.data.load import GameData, load_rules
from gachapress.sim import SimSpec, run_sim

#: Games played for each mode, player count and bot. GACHAPRESS_BOOK_GAMES overrides it (a
#: quicker build for tests); the book prints the number it used.
BOOK_GAMES = 200
#: The seed of every book simulation.
BOOK_SEED = 1
#: Top-level parts of a game's model that no simulation reads: its title, what to put on the
#: table, the book, its examples and clarifications.
NOT_PLAYED = frozenset(
    {"name", "languages", "play_time", "components", "examples", "playthroughs"}
    | {"clarifications", "book"}
)
#: Keys anywhere in the model that only shape how a thing looks or is explained.
LOOKS = frozenset({"art", "hex", "provenance", "clarification"})
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
    rules_dir = Path(rules_dir)
    if games is None:
        games = int(os.environ.get("GACHAPRESS_BOOK_GAMES", BOOK_GAMES))
    if game is None:
        game = load_rules(game_id, rules_dir)
    engine = game.spec.engine
    if engine is None:
        return {}
    key = cache_key(game, games, seed)
    cache_file = Path(cache_dir) / f"stats-{game_id}-{key}.json"
    if cache_file.is_file():
        try:
            return json.loads(cache_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pass  # a damaged cache entry is simply recomputed
    bots = ["random", *engine.bots]
    modes: dict[str, dict[str, dict[str, Any]]] = {}
    for mode_id, mode in game.model.modes.items():
        by_count: dict[str, dict[str, Any]] = {}
        for players in mode.players:
            by_count[str(players)] = {
                bot: run_sim(
                    SimSpec(
                        game=game_id,
                        players=players,
                        games=games,
                        seed=seed,
                        mode=mode_id,
                        bots=(bot,),
                        rules_dir=rules_dir,
                    ),
                    jobs=jobs,
                ).report()
                for bot in bots
            }
        modes[mode_id] = by_count
    result = {"games": games, "seed": seed, "bots": bots, "modes": modes}
    _write_atomically(cache_file, json.dumps(result, sort_keys=True, indent=1))
    return result


def cache_key(game: GameData, games: int, seed: int) -> str:
    """A hash of everything the statistics depend on: the game's play data, the code that plays
    it, the gachapress version, and the run's size and seed."""
    digest = hashlib.sha256(f"{FORMAT}/{game.id}/{games}/{seed}/{_version()}".encode())
    digest.update(play_data(game).encode())
    package = Path(gachapress.__file__).parent
    for file in _played_code(package, game.id):
        digest.update(str(file.relative_to(package)).encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()[:16]


def play_data(game: GameData) -> str:
    """A canonical dump of what the engine reads from a game's model: every number, id, list
    and rule, without text in any language, art, colours or the book."""
    languages = set(game.model.languages)

    def played(value: Any) -> Any:
        if isinstance(value, dict):
            texts = all(isinstance(v, str) for v in value.values())
            if value and set(value) <= languages and texts:
                return None  # text shown to players
            return {k: played(v) for k, v in value.items() if k not in LOOKS}
        if isinstance(value, list):
            return [played(v) for v in value]
        return value

    data = game.model.model_dump(mode="json", exclude=set(NOT_PLAYED))
    return json.dumps(played(data), sort_keys=True, separators=(",", ":"))


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

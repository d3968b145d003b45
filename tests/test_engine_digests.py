"""Engine speed-ups must not change a single game: fixed seeds, compared with logs of record.

``tests/data/engine_digests.json`` holds, for every game, mode, player count, option and bot
kind, a SHA-256 of the complete logs (every action and event, in order) and results of seeded
games. It was recorded from commit 86630c1, before the engine was optimised (issue #16), by
``python -m tests.test_engine_digests``; it changes only when a game's rules change on purpose.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from gachapress.engine import load_game
from gachapress.engine.play import play_game
from tests.conftest import GAME_IDS

GOLDEN = Path(__file__).parent / "data" / "engine_digests.json"
#: Seeded games per configuration and bot kind.
GAMES = {"random": 40, "greedy": 10}


def configurations() -> Iterator[tuple[str, str, int, tuple[str, ...]]]:
    """Every (game, mode, players, options) a game may be started with: no option, or one."""
    for game_id in GAME_IDS:
        game = load_game(game_id)
        for mode, counts in game.modes.items():
            variants = [(), *((name,) for name, opt in game.options.items() if mode in opt.modes)]
            for players in counts:
                for options in variants:
                    yield game_id, mode, players, options


def key(game_id: str, mode: str, players: int, options: tuple[str, ...], bots: str) -> str:
    return " ".join([game_id, mode, f"{players}p", bots, *options])


def digest(game_id: str, mode: str, players: int, options: tuple[str, ...], bots: str) -> str:
    """SHA-256 of the logs and results of the configuration's seeded games."""
    game = load_game(game_id)
    sha = hashlib.sha256()
    for seed in range(GAMES[bots]):
        state, result = play_game(game, players, seed, mode, [bots], options)
        sha.update(json.dumps(state.log, sort_keys=True).encode())
        sha.update(repr(result).encode())
    return sha.hexdigest()


CASES = [(*config, bots) for config in configurations() for bots in GAMES]


@pytest.mark.parametrize("case", CASES, ids=[key(*case) for case in CASES])
def test_games_play_as_recorded(case: tuple[str, str, int, tuple[str, ...], str]) -> None:
    recorded = json.loads(GOLDEN.read_text())["digests"]
    assert digest(*case) == recorded[key(*case)]


def test_every_configuration_is_recorded() -> None:
    assert set(json.loads(GOLDEN.read_text())["digests"]) == {key(*case) for case in CASES}


if __name__ == "__main__":
    digests = {key(*case): digest(*case) for case in CASES}
    note = "recorded from commit 86630c1, before the engine optimisation of issue #16"
    print(json.dumps({"note": note, "digests": digests}, indent=1))

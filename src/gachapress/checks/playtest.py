"""`check` plays a few seeded random games of every mode and player count the game allows."""

from __future__ import annotations

from collections.abc import Iterator

from gachapress.data.load import GameData
from gachapress.data.played import play_data
from gachapress.engine.core import Game
from gachapress.engine.play import play_game
from gachapress.errors import Problem

#: Seeded games per mode and player count.
GAMES = 3
#: The games whose play data passed in this process (its code cannot change under it): a
#: preview's rebuild after an edit of text, art or colours does not play them again.
_PASSED: set[tuple[str, str]] = set()


def playtest(game: GameData) -> Iterator[Problem]:
    """Each game must run to its end with random players, with and without each option, its
    invariants holding at the end."""
    if game.spec.engine is None:
        return
    played = (game.id, play_data(game))
    if played in _PASSED:
        return
    problems = list(_played(game))
    if not problems:
        _PASSED.add(played)
    yield from problems


def _played(game: GameData) -> Iterator[Problem]:
    engine = Game(game)
    for mode_id, mode in game.model.modes.items():
        variants = [(), *((o.name,) for o in engine.options.values() if mode_id in o.modes)]
        for players in mode.players:
            for options in variants:
                for seed in range(GAMES):
                    try:
                        state, _ = play_game(engine, players, seed, mode_id, options=options)
                        state.check_invariants()
                    except Exception as exc:  # any failure of the engine is the check's finding
                        named = "".join(f" {name}" for name in options)
                        yield game.where(("modes", mode_id, "players")).problem(
                            f"a random {players}-player {mode_id}{named} game (seed {seed}) "
                            f"failed: {type(exc).__name__}: {exc}"
                        )
                        break

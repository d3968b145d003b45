"""Rebuild a game from its log, checking at every step that it unfolds the same way."""

from __future__ import annotations

from typing import Any

from gachapress.engine.core import Action, Game, IllegalAction, State
from gachapress.errors import GachapressError


class ReplayError(GachapressError):
    """A log that does not replay: it names the first entry that differs (``entry``, its index
    in the log; None when the log does not start a game)."""

    def __init__(self, message: str, entry: int | None = None) -> None:
        super().__init__(message)
        self.entry = entry


def replay(game: Game, log: list[dict[str, Any]]) -> State:
    """The state reached by replaying ``log``; ReplayError at the first divergence."""
    if not log or log[0].get("event") != "start" or log[0].get("game") != game.id:
        raise ReplayError(f"the log does not start a game of {game.id}")
    start = log[0]
    state = game.new_game(
        players=start["players"],
        seed=start["seed"],
        mode=start["mode"],
        options=start.get("options", ()),
    )
    for index, entry in enumerate(log):
        if index < len(state.log):
            if state.log[index] != entry:
                raise ReplayError(
                    f"entry {index}: expected {entry}, the engine did {state.log[index]}", index
                )
            continue
        if "action" not in entry:
            raise ReplayError(
                f"entry {index}: the log has {entry}, the engine waits for an action", index
            )
        if entry.get("player") != state.current_player:
            raise ReplayError(
                f"entry {index}: seat {entry.get('player')} acts, but seat "
                f"{state.current_player} is to play",
                index,
            )
        try:
            state.apply(Action.parse(entry["action"]))
        except IllegalAction as exc:
            raise ReplayError(f"entry {index}: {exc}", index) from None
    if len(state.log) != len(log):
        raise ReplayError(
            f"entry {len(log)}: the engine went on with {state.log[len(log)]}", len(log)
        )
    return state

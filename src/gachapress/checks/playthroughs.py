"""Whole-game worked examples: play a seeded game's listed actions through the engine API and
check what the YAML says must follow."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gachapress.data.load import GameData
from gachapress.data.model import Playthrough
from gachapress.engine.core import Game, IllegalAction, State
from gachapress.errors import Problem


@dataclass(frozen=True)
class Played:
    """A playthrough as the engine played it."""

    playthrough: Playthrough
    state: State | None
    problem: Problem | None


def play_through(game: GameData, index: int) -> Played:
    """Play the ``index``-th playthrough; the problem names the action or expectation that fails."""
    item = game.model.playthroughs[index]
    path = ("playthroughs", index)
    try:
        state = Game(game).new_game(players=item.players, seed=item.seed, mode=item.mode)
    except (ValueError, TypeError) as exc:
        return Played(
            item, None, game.where((*path, "players")).problem(f"playthrough {item.id!r}: {exc}")
        )
    for step, action in enumerate(item.actions):
        try:
            state.apply(action)
        except IllegalAction as exc:
            return Played(
                item,
                state,
                game.where((*path, "actions", step)).problem(
                    f"playthrough {item.id!r}, action {step + 1}: {exc}"
                ),
            )
    failure = _unmet(item, state)
    if failure:
        return Played(
            item,
            state,
            game.where((*path, "expect")).problem(f"playthrough {item.id!r}: {failure}"),
        )
    return Played(item, state, None)


def _unmet(item: Playthrough, state: State) -> str | None:
    expect = item.expect
    entries = iter(state.log)
    for wanted in expect.events:
        if not any(_holds(entry, wanted) for entry in entries):
            return f"the log has no event {wanted} (in this order)"
    seen = state.observation(expect.seat)
    for key, value in expect.observation.items():
        if seen.get(key) != value:
            return f"seat {expect.seat} sees {key} = {seen.get(key)!r}, expected {value!r}"
    if expect.scores is not None and state.scores() != expect.scores:
        return f"scores are {state.scores()}, expected {expect.scores}"
    if expect.winners is not None and state.winners() != expect.winners:
        return f"winners are {state.winners()}, expected {expect.winners}"
    return None


def _holds(entry: dict[str, Any], wanted: dict[str, Any]) -> bool:
    return all(entry.get(key) == value for key, value in wanted.items())

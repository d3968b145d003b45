"""Play complete games with bots and summarise each one."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from gachapress.engine.bots import Bot, RandomBot
from gachapress.engine.core import Game, State


@dataclass(frozen=True)
class GameResult:
    """The outcome of one finished game."""

    seed: int
    scores: list[int]
    winners: list[int]
    actions: int
    rounds: int
    end_condition: str
    rare_events: dict[str, bool] = field(default_factory=dict)


def make_bots(game: Game, names: Sequence[str], players: int, seed: int) -> list[Bot]:
    """One bot per seat from names (`random`, or a bot the game defines); the last name repeats."""
    bots: list[Bot] = []
    shared: random.Random | None = None  # one generator for the game's random bots
    for seat in range(players):
        name = names[min(seat, len(names) - 1)] if names else "random"
        bot_seed = f"{seed}/{seat}"
        if name == "random":
            if shared is None:
                shared = random.Random(2 * abs(seed) + 1)  # not the game's own Random(seed)
            bots.append(RandomBot(shared))
        elif name in game.engine.bots:
            bots.append(game.engine.bots[name](game, seat, bot_seed))
        else:
            known = ", ".join(["random", *game.engine.bots])
            raise ValueError(f"unknown bot {name!r} for {game.id} (bots: {known})")
    return bots


def play_game(
    game: Game,
    players: int,
    seed: int,
    mode: str | None = None,
    bots: Sequence[str] = (),
    options: Sequence[str] = (),
) -> tuple[State, GameResult]:
    """Play one game, started with ``options``, to its end with the named bots."""
    state = game.new_game(players=players, seed=seed, mode=mode, options=options)
    seats = make_bots(game, bots, players, seed)
    limit = state.max_actions_per_player * players
    actions = 0
    legal_actions, apply, observe = state.legal_actions, state.apply, state.observation
    choosers = [bot.choose for bot in seats]
    observing = [bot.needs_observation for bot in seats]
    while (player := state.current_player) is not None:
        seen = observe(player) if observing[player] else None
        apply(choosers[player](seen, legal_actions()))
        actions += 1
        if actions > limit:
            raise RuntimeError(f"{game.id}: game with seed {seed} exceeded {limit} actions")
    result = GameResult(
        seed,
        state.scores(),
        state.winners(),
        actions,
        state.rounds_played(),
        state.end_condition(),
        state.rare_events(),
    )
    return state, result

"""A random-simulation harness any game's engine plugs into (in the spirit of OpenSpiel's).

``simulate`` plays seeded games with uniformly random choices and checks, as it goes, that:
- the game ends within its declared bound of actions;
- every legal action applies (each one, on a copy, at sampled steps);
- illegal actions (garbage, or an action that was legal earlier but is not now) are refused
  with IllegalAction and change nothing;
- observations hold no card the seat may not see;
- the game's own invariants hold (``state.check_invariants``): after every action in one game
  of ``THOROUGH_EVERY``, and in the others at the sampled steps and at the end (a card lost or
  money leaked stays wrong, so it is still caught, only less precisely located);
- the log replays to the same state, also with Python's global generator seeded otherwise,
  and scores/winners are consistent at the end.
The checks of one state are the engine contract's (``gachapress.engine.contract.checks``),
played here at far greater strength than ``check`` plays them.
A game adds checks of its own with ``on_action`` and ``at_end``.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from gachapress.engine import Action, Game, State
from gachapress.engine.contract.checks import (
    GARBAGE,
    check_finished,
    check_observations,
    check_offer,
    check_refusal,
    check_replay,
)

#: Seeded random games the suite plays for every game, mode and player count (README says so).
HARNESS_GAMES = 1000  # CI is 2 cores and 30 minutes: 2000 took a quarter of it
#: One game in this many checks the game's invariants after every single action.
THOROUGH_EVERY = 10


def games_per_count(default: int = HARNESS_GAMES) -> int:
    """Games per run: ``default``, or GACHAPRESS_HARNESS_GAMES for long (or quick) runs."""
    return int(os.environ.get("GACHAPRESS_HARNESS_GAMES", default))


@dataclass
class Tally:
    """What a harness run saw, for assertions about coverage."""

    games: int = 0
    actions: int = 0
    verbs: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    seen: Counter[str] = field(default_factory=Counter)
    """What the game's own checks chose to count (rare paths reached, say)."""


def check_every_legal_action(state: State) -> None:
    for action in state.legal_actions():
        copy = state.clone()
        copy.apply(action)
        copy.check_invariants()


def simulate(
    game: Game,
    players: int,
    games: int,
    *,
    mode: str | None = None,
    options: tuple[str, ...] = (),
    seed: int = 0,
    full_check_every: int = 25,
    on_action: Callable[[State, Action], None] | None = None,
    at_end: Callable[[State, Tally], None] | None = None,
) -> Tally:
    """Play ``games`` seeded random games, checking the engine at every step (see module doc)."""
    tally = Tally()
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        chooser = random.Random(game_seed)
        seeds = (f"harness/{game_seed}/played", f"harness/{game_seed}/replayed")
        random.seed(seeds[0])  # the replay draws others: the game must not depend on them
        state = game.new_game(players=players, seed=game_seed, mode=mode, options=options)
        limit = state.max_actions_per_player * players
        thorough = index % THOROUGH_EVERY == 0
        seen_actions: list[Action] = []
        steps = logged = 0
        state.check_invariants()
        while not state.is_terminal():
            check_offer(state)
            legal = state.legal_actions()
            full = steps % full_check_every == 0
            if full:
                check_observations(state, logged)
                logged = len(state.log)
                check_every_legal_action(state)
                check_refusal(state, GARBAGE)
                stale = [a for a in seen_actions[-20:] if a not in legal]
                if stale:
                    check_refusal(state, stale[chooser.randrange(len(stale))])
            action = legal[chooser.randrange(len(legal))]
            seen_actions.append(action)
            state.apply(action)
            if thorough or full:
                state.check_invariants()
            if on_action is not None:
                on_action(state, action)
            tally.verbs[action.verb] += 1
            steps += 1
            assert steps <= limit, f"seed {game_seed}: more than {limit} actions"
        check_finished(state)
        state.check_invariants()
        check_refusal(state, GARBAGE)
        check_replay(game, state, seeds)
        tally.events.update(entry["event"] for entry in state.log if "event" in entry)
        if at_end is not None:
            at_end(state, tally)
        tally.games += 1
        tally.actions += steps
    return tally

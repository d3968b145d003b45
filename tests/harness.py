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
- the log replays to the same state, and scores/winners are consistent at the end.
A game adds checks of its own with ``on_action`` and ``at_end``.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from gachapress.engine import Action, Game, IllegalAction, State, replay

GARBAGE = Action("no-such-verb", "nothing")
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


def observation_strings(value: Any) -> Iterator[str]:
    """Every string anywhere in an observation (keys included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from observation_strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from observation_strings(item)


def check_observations(state: State) -> None:
    for player in range(state.players):
        seen = state.observation(player)
        json.dumps(seen)  # must be JSON-serialisable
        leaked = set(observation_strings(seen)) & state.hidden_from(player)
        assert not leaked, f"seat {player} sees hidden cards {sorted(leaked)}"


def check_refusal(state: State, action: Action) -> None:
    before, log_length = state.snapshot(), len(state.log)
    with pytest.raises(IllegalAction):
        state.apply(action)
    assert state.snapshot() == before, f"refusing {action} changed the state"
    assert len(state.log) == log_length


def check_every_legal_action(state: State) -> None:
    for action in state.legal_actions():
        copy = state.clone()
        copy.apply(action)
        copy.check_invariants()
    assert state.legal_actions(), "a game that is not over must offer an action"


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
        state = game.new_game(players=players, seed=game_seed, mode=mode, options=options)
        limit = state.max_actions_per_player * players
        thorough = index % THOROUGH_EVERY == 0
        seen_actions: list[Action] = []
        steps = 0
        state.check_invariants()
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal, "a game that is not over must offer an action"
            assert state.current_player is not None
            full = steps % full_check_every == 0
            if full:
                check_observations(state)
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
        assert state.current_player is None and state.legal_actions() == []
        state.check_invariants()
        check_refusal(state, GARBAGE)
        winners = state.winners()
        assert winners and all(0 <= w < players for w in winners)
        assert len(state.scores()) == players
        rebuilt = replay(game, json.loads(json.dumps(state.log)))
        assert rebuilt.snapshot() == state.snapshot(), f"seed {game_seed}: replay differs"
        tally.events.update(entry["event"] for entry in state.log if "event" in entry)
        if at_end is not None:
            at_end(state, tally)
        tally.games += 1
        tally.actions += steps
    return tally

"""The re-deal test of hidden information: what a seat sees never depends on the cards it
never sees.

Play a seeded game (game A). For a seat p and a window of steps, take the faces p never sees in
A up to the window's end; at the window's start deal those cards again among the places hidden
from p (``State.redeal``: game B). Play B through the window: p's own moves as in A, and for
every other seat a move whose effect on p's view (observation and ``log_view``) is the one A's
move had (a move naming a card held in several copies may move any of them:
``State.other_copies``). At every step p's observation, log view and legal actions must be the
same in both games: when the other seat can make a move that looks like A's (the same entry in
p's view of the log) but every such move shows p something else, p is learning about cards it
never sees. When the other seat has no such move at all, the re-deal contradicts what p may
rightly infer from the moves (a card not played when it had to be) and the window ends there.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gachapress.engine.contract.breach import Breach
from gachapress.engine.contract.checks import observation_strings
from gachapress.engine.core import Action, Game, State

#: A window of steps a re-dealt game is played against the original: its first step (None: a
#: random one) and its length.
Windows = Sequence[tuple[int | None, int]]
#: The windows ``run_contract`` plays by default: one, from the deal (the tests play more).
WINDOWS: Windows = ((0, 8),)
#: Re-deals tried per window by default: the moves a seat sees rule many out (a player who
#: drew had nothing to play), and the test wants one that lasts.
ATTEMPTS = 1
#: States a window's search may make before it gives up looking for a re-dealt game that
#: looks the same (a wrong hidden choice early shows only later, so it backtracks). Giving up
#: proves nothing either way: the window counts as compared up to the deepest step reached.
BUDGET = 400


def choose(rng: random.Random, legal: list[Action]) -> Action:
    """A random action, its verb chosen first: short goes of placing and giving come up as
    often as long ones."""
    verbs = list(dict.fromkeys(action.verb for action in legal))
    verb = verbs[rng.randrange(len(verbs))]
    actions = [action for action in legal if action.verb == verb]
    return actions[rng.randrange(len(actions))]


def view(state: State, player: int, start: int) -> tuple[Any, ...]:
    """What ``player`` sees after a step: its observation, the log entries from ``start`` on
    as it may see them, whose turn it is and, on its turn, its legal actions."""
    mine = state.current_player == player
    return (
        json.dumps(state.observation(player), sort_keys=True),
        json.dumps(state.log_view(player, start), sort_keys=True),
        state.current_player,
        [str(action) for action in state.legal_actions()] if mine else None,
    )


def seen_strings(state: State, player: int, start: int) -> set[str]:
    """Every string (and word of one: actions read ``give rock-3 to 2``) in what ``player``
    sees now."""
    seen = set(observation_strings(state.observation(player)))
    seen.update(observation_strings(state.log_view(player, start)))
    if state.current_player == player:
        seen.update(str(action) for action in state.legal_actions())
    return {word for text in seen for word in text.split()} | seen


@dataclass(frozen=True)
class Setup:
    """The game a re-deal test plays: its players, mode, seed and options."""

    players: int
    mode: str
    seed: int
    options: tuple[str, ...] = ()

    def start(self, game: Game) -> State:
        return game.new_game(self.players, self.seed, self.mode, self.options)


@dataclass
class Played:
    """Game A: its actions, and the faces each seat has seen by each step."""

    actions: list[Action]
    seen: list[list[set[str]]]  # seen[player][step]: seen before the step's action


def play(
    game: Game, setup: Setup, script: list[str] | None = None, until: int | None = None
) -> Played:
    """Game A: random moves (``choose``), or the moves of ``script`` and no more; to its end,
    or its first ``until`` steps."""
    rng = random.Random(setup.seed)
    state = setup.start(game)
    players = setup.players
    cards = set(game.model.cards())
    seen: list[set[str]] = [set() for _ in range(players)]
    history: list[list[set[str]]] = [[] for _ in range(players)]
    actions: list[Action] = []
    logged = 0
    while True:
        for player in range(players):
            seen[player] |= seen_strings(state, player, logged) & cards
            history[player].append(set(seen[player]))
        if (
            state.is_terminal()
            or (script is not None and len(actions) == len(script))
            or len(actions) == until
        ):
            return Played(actions, history)
        logged = len(state.log)
        legal = state.legal_actions()
        action = choose(rng, legal) if script is None else Action.parse(script[len(actions)])
        actions.append(action)
        state.apply(action)


def replayed(game: Game, setup: Setup, actions: list[Action]) -> State:
    state = setup.start(game)
    for action in actions:
        state.apply(action)
    return state


def leaves(value: Any, into: list[Any] | None = None) -> list[Any]:
    """The numbers and strings of a snapshot, in order."""
    found: list[Any] = [] if into is None else into
    if not isinstance(value, _NESTED):
        found.append(value)
        return found
    append = found.append
    for item in value:
        if isinstance(item, _NESTED):
            leaves(item, found)
        else:
            append(item)
    return found


_NESTED = (tuple, list)


def likeness(state: State, target: list[Any]) -> int:
    """How many places of a state's snapshot hold what they hold in ``target`` (the
    ``leaves`` of another's): among moves that look alike to the seat watching, the re-dealt
    game takes the one that keeps it closest to the original (the card at the same place in a
    hand, not just any card)."""
    return sum(x == y for x, y in zip(leaves(state.snapshot()), target, strict=False))


def ranked(
    trials: list[tuple[Action, State]], original: Action, unseen: set[str], target: State
) -> list[State]:
    """The re-dealt game's moves that look like ``original`` (each with the state it gives),
    best first: for a card the watching seat has seen, the same move (the card may show
    later); for an unseen card, the card in its place (``likeness`` to ``target``)."""
    if len(trials) == 1:
        return [trials[0][1]]
    seen_card = not unseen.intersection((original.target or "").split())  # "rock-3 to 2"
    places = leaves(target.snapshot())

    def rank(trial: tuple[Action, State]) -> tuple[bool, int, bool]:
        move, state = trial
        return (seen_card and move is original, likeness(state, places), move is original)

    return [state for _, state in sorted(trials, key=rank, reverse=True)]


def shown(state: State, mover: int, action: Action, player: int) -> dict[str, Any]:
    """The entry ``action`` makes in ``player``'s view of the log."""
    return state.redact({"player": mover, "action": str(action)}, player)


@dataclass
class Window:
    """Game A through a window, as the watching seat ``player`` sees it step by step."""

    player: int
    unseen: set[str]
    states: list[State]  # A before each step, and after the last
    actions: list[Action]
    views: list[tuple[Any, ...]]  # the player's view after each step

    def follow(self, b: State, index: int) -> list[State] | None:
        """The re-dealt game after step ``index``, played from ``b`` so that the player sees
        what it saw in A: the ways to do so, best first; None when no move of the mover even
        looks like A's (the moves the player saw rule the re-deal out)."""
        a, action, player = self.states[index], self.actions[index], self.player
        mover = a.current_player
        assert mover is not None
        start = len(b.log)
        if mover == player:
            trial = b.clone()
            trial.apply(action)
            return [trial] if view(trial, player, start) == self.views[index] else []
        entry = shown(a, mover, action, player)
        alike = [m for m in b.legal_actions() if shown(b, mover, m, player) == entry]
        if not alike:
            return None
        trials = []
        for move in alike:
            trial = b.clone()
            trial.apply(move)
            for state in (trial, *b.other_copies(move)):  # any copy of a card may be the one
                if view(state, player, start) == self.views[index]:
                    trials.append((move, state))
        return ranked(trials, action, self.unseen, self.states[index + 1])


def check_window(
    game: Game, setup: Setup, played: Played, player: int, t0: int, t1: int, attempt: int = 0
) -> int:
    """Play steps ``t0`` to ``t1`` of game A against a re-deal for ``player`` (the
    ``attempt``-th): the steps compared after a re-deal that changed anything (0 when it
    changed nothing). Breach when no way of playing the re-dealt game looks the same to
    ``player`` although the others' moves do."""
    unseen = set(game.model.cards()) - played.seen[player][t1]
    a = replayed(game, setup, played.actions[:t0])
    b = a.clone()
    b.redeal(player, unseen, random.Random(f"{setup.seed}/{player}/{t0}/{attempt}"))
    if b.snapshot() == a.snapshot():
        return 0
    if view(b, player, 0) != view(a, player, 0):
        raise Breach(
            f"what player {player} sees changes when the cards they have not seen are dealt "
            "again (State.redeal): it tells them something of those cards, or redeal moves "
            "cards they can see",
            t0,
        )
    window = Window(player, unseen, [a], played.actions[t0:t1], [])
    for action in window.actions:
        a = a.clone()
        start = len(a.log)
        a.apply(action)
        window.states.append(a)
        window.views.append(view(a, player, start))
    # Depth-first: ways[i] holds the untried ways of playing step i; the deepest step no way
    # could reach says what happened (a step that looked alike but showed more, or a re-deal
    # the moves rule out).
    ways: list[list[State]] = []
    deepest, leak, budget = 0, False, BUDGET
    while len(ways) < len(window.actions):
        index = len(ways)
        options = window.follow(b, index)
        budget -= 1 if options is None else len(options) + 1
        if options:
            b = options.pop(0)
            ways.append(options)
            continue
        if index > deepest or (index == deepest and options is not None):
            deepest, leak = index, options is not None
        while ways and not ways[-1]:
            ways.pop()
        if not ways or budget <= 0:
            break
        b = ways[-1].pop(0)
    else:
        return t1 - t0
    if not leak or budget <= 0:
        return deepest  # the moves p saw rule this re-deal out, or the search gave up
    raise Breach(
        f"player {player} can tell where cards they have not seen lie: with those cards dealt "
        f"again at step {t0}, no way of playing the re-dealt game that looks the same to "
        f"player {player} up to here looks the same after player "
        f'{window.states[deepest].current_player}\'s move "{window.actions[deepest]}"',
        t0 + deepest,
    )


@dataclass
class Coverage:
    """How much of a game the re-deal test compared: steps in its windows (one count per
    watching seat), steps compared after a re-deal that changed anything, and windows compared
    whole."""

    steps: int = 0
    compared: int = 0
    whole: int = 0

    def __iadd__(self, other: Coverage) -> Coverage:
        self.steps += other.steps
        self.compared += other.compared
        self.whole += other.whole
        return self


def redeal_test(
    game: Game, setup: Setup, windows: Windows = WINDOWS, attempts: int = ATTEMPTS
) -> Coverage:
    """Play one game and, for every seat and window, a re-deal of what the seat has not seen
    against it (up to ``attempts`` re-deals until one lasts the window); Breach on a leak.
    Windows that all start at a given step need only the game's first steps played."""
    starts = [start for start, _ in windows]
    until = None if None in starts else max(start + length for start, length in windows)
    played = play(game, setup, until=until)
    rng = random.Random(setup.seed)
    coverage = Coverage()
    length_played = len(played.actions)
    for start, length in windows if length_played else ():
        t0 = rng.randrange(length_played) if start is None else start
        t1 = min(t0 + length, length_played)
        for player in range(setup.players):
            coverage.steps += t1 - t0
            best = 0
            for attempt in range(attempts):  # until one re-deal lasts the whole window
                best = max(best, check_window(game, setup, played, player, t0, t1, attempt))
                if best == t1 - t0:
                    break
            coverage.compared += best
            coverage.whole += best == t1 - t0
    return coverage

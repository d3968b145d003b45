"""``run_contract``: play every mode, player count and option of a game with random moves and
check that its engine keeps the engine API's promises (see the package's doc)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from gachapress.engine.contract.breach import Breach
from gachapress.engine.contract.checks import (
    GARBAGE,
    check_finished,
    check_observations,
    check_offer,
    check_refusal,
    check_replay,
)
from gachapress.engine.contract.redeal import ATTEMPTS, WINDOWS, Setup, Windows, redeal_test
from gachapress.engine.contract.source import engine_files, raised_at
from gachapress.engine.core import Action, Game, State

#: Seeded random games ``run_contract`` plays of every mode, player count and option.
GAMES = 2
#: Every this many steps (and at the end) a game's observations, invariants and refusals of
#: illegal actions are checked; its offer of an action, at every step.
CHECK_EVERY = 16
#: What a State must have beyond what it inherits: the methods an engine writes itself.
REQUIRED = (
    "current_player",
    "legal_actions",
    "apply",
    "observation",
    "log_view",
    "redact",
    "is_terminal",
    "scores",
    "winners",
    "snapshot",
    "check_invariants",
    "hidden_from",
    "redeal",
    "clone",
)


@dataclass(frozen=True)
class Failure:
    """The first breach of the contract found in a game: ``str()`` is one plain sentence
    naming the game, mode, players, options, seed and step where they are known."""

    game: str
    message: str
    mode: str | None = None
    players: int | None = None
    options: tuple[str, ...] = ()
    seed: int | None = None
    step: int | None = None

    def __str__(self) -> str:
        where = [self.game]
        if self.mode is not None:
            switched = f" with {', '.join(self.options)}" if self.options else ""
            where.append(f"{self.mode} {self.players} players{switched}")
        if self.seed is not None:
            where.append(f"seed {self.seed}")
        if self.step is not None:
            where.append(f"step {self.step}")
        end = "" if self.message.endswith(".") else "."
        return f"{', '.join(where)}: {self.message}{end}"


def configurations(game: Game) -> Iterator[tuple[str, int, tuple[str, ...]]]:
    """Every mode, player count and option (none, or one) a game may be started with."""
    for mode, counts in game.modes.items():
        variants = [(), *((name,) for name, opt in game.options.items() if mode in opt.modes)]
        for players in counts:
            for options in variants:
                yield mode, players, options


def missing_methods(game: Game) -> Failure | None:
    """The methods of the engine API its State class lacks, by name (None when it has all);
    a state made by a factory function is looked at once made."""
    state = game.engine.state
    if not isinstance(state, type):
        return None
    return _missing(game.id, state)


def _missing(game_id: str, kind: type) -> Failure | None:
    abstract = getattr(kind, "__abstractmethods__", frozenset())
    missing = sorted({name for name in REQUIRED if not hasattr(kind, name)} | set(abstract))
    if not missing:
        return None
    names = missing[0] if len(missing) == 1 else f"{', '.join(missing[:-1])} and {missing[-1]}"
    method = "method" if len(missing) == 1 else "methods"
    return Failure(
        game_id,
        f"the engine's {kind.__name__} lacks the {method} {names}, which every engine's State "
        "must define (see the engine API)",
    )


def run_contract(
    game: Game,
    *,
    games: int = GAMES,
    check_every: int = CHECK_EVERY,
    windows: Windows = WINDOWS,
    attempts: int = ATTEMPTS,
) -> Failure | None:
    """Play ``games`` seeded random games of every mode, player count and option of ``game``
    to their end, and a re-deal test of hidden information (``windows``, ``attempts``: see
    ``redeal_test``) on the first of every mode and player count without options; the first
    breach of the engine contract found, or None.
    Python's global generator is left as it was."""
    failure = missing_methods(game)
    if failure is not None:
        return failure
    files = engine_files(game)
    saved = random.getstate()
    try:
        for mode, players, options in configurations(game):
            failure = _run_configuration(
                game, files, (mode, players, options), games, check_every, windows, attempts
            )
            if failure is not None:
                return failure
    finally:
        random.setstate(saved)
    return None


def _run_configuration(
    game: Game,
    files: list[Path],
    configuration: tuple[str, int, tuple[str, ...]],
    games: int,
    check_every: int,
    windows: Windows,
    attempts: int,
) -> Failure | None:
    mode, players, options = configuration
    progress = _Progress()
    try:
        for seed in range(games):
            progress.seed, progress.step = seed, None
            _play_checked(game, Setup(players, mode, seed, options), check_every, progress, files)
        if windows and games and not options:  # an option varies rules more than secrets
            progress.seed, progress.step = 0, None
            redeal_test(game, Setup(players, mode, 0, options), windows, attempts)
    except Breach as breach:
        step = breach.step if breach.step is not None else progress.step
        return Failure(game.id, breach.message, mode, players, options, progress.seed, step)
    except Exception as exc:  # whatever the engine raised is the contract's finding
        return Failure(
            game.id,
            f"the engine raised {said(exc)} ({raised_at(exc, files)})",
            mode,
            players,
            options,
            progress.seed,
            progress.step,
        )
    return None


@dataclass
class _Progress:
    """Where a configuration's play is, for the sentence of what goes wrong there."""

    seed: int | None = None
    step: int | None = None


def said(error: BaseException) -> str:
    """An exception as a sentence reads it: its type and message."""
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _play_checked(
    game: Game, setup: Setup, check_every: int, progress: _Progress, files: list[Path]
) -> None:
    """Play a game to its end with random moves, checking it as it goes (``progress.step``
    counts the actions), then check the finished game and replay its log (with Python's global
    generator seeded otherwise than for the game)."""
    seeds = (f"contract/{setup.seed}/played", f"contract/{setup.seed}/replayed")
    random.seed(seeds[0])
    state = setup.start(game)
    missing = _missing(game.id, type(state))
    if missing is not None:  # a state made by a factory function
        raise Breach(missing.message)
    progress.step = 0
    chooser = random.Random(setup.seed)
    limit = state.max_actions_per_player * state.players
    earlier: list[Action] = []
    step = logged = 0
    _check_invariants(state, files)
    while not state.is_terminal():
        check_offer(state)
        legal = state.legal_actions()
        if step % check_every == 0:
            _check_now(state, earlier, legal, chooser, files, logged)
            logged = len(state.log)
        action = legal[chooser.randrange(len(legal))]
        earlier.append(action)
        state.apply(action)
        step = progress.step = step + 1
        if step > limit:
            raise Breach(
                f"the game did not end within {limit} actions (max_actions_per_player is "
                f"{state.max_actions_per_player})"
            )
    _check_now(state, earlier, [], chooser, files, logged)
    check_finished(state)
    check_replay(game, state, seeds)


def _check_now(
    state: State,
    earlier: list[Action],
    legal: list[Action],
    chooser: random.Random,
    files: list[Path],
    logged: int,
) -> None:
    """The checks of ``CHECK_EVERY``: observations (and the log from entry ``logged`` on),
    invariants, an illegal action and one legal earlier but not now refused."""
    check_observations(state, logged)
    _check_invariants(state, files)
    check_refusal(state, GARBAGE)
    stale = [action for action in earlier[-20:] if action not in legal]
    if stale:
        check_refusal(state, stale[chooser.randrange(len(stale))])


def _check_invariants(state: State, files: list[Path]) -> None:
    """The game's own invariants hold (``state.check_invariants``)."""
    try:
        state.check_invariants()
    except AssertionError as exc:
        where = raised_at(exc, files)
        raise Breach(f"the game's invariants do not hold: {said(exc)} ({where})") from None

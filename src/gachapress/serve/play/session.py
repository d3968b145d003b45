"""A game at the Play page: its seats (human or a bot), the moves made, and the state they give.

Everything is kept as the setup and the list of moves, so undo, restart and an uploaded log
all replay through the engine: the engine alone says what is legal. Bots move on the server,
each decision from a generator seeded by the game's seed and the move's number, so the same
human moves always meet the same bot moves (after an undo too).
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gachapress.engine.core import Action, Game, IllegalAction, State
from gachapress.engine.play import make_bots

HUMAN = "human"
#: The format mark of a downloaded log.
FORMAT = "gachapress-play/1"
#: The most sessions one server keeps (the one left longest goes first).
MAX_SESSIONS = 200
#: Seconds since its last move or look within which a game is in use, never closed.
IN_USE = 3600
#: How many closed games are remembered as closed.
MAX_CLOSED = 10_000


class PlayError(ValueError):
    """A setup or an uploaded log the engine cannot play; the message says where."""


@dataclass
class Session:
    """One game being played: who sits where, and every move so far."""

    game: Game
    mode: str
    seed: int
    seats: list[str]  # per seat: "human" or a bot's name
    state: State = field(init=False)
    moves: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.seats = check_seats(self.game, self.seats)
        if not isinstance(self.seed, int) or isinstance(self.seed, bool) or self.seed < 0:
            raise PlayError(f"the deal number must be a whole number, not {self.seed!r}")
        try:
            self.state = self.game.new_game(len(self.seats), seed=self.seed, mode=self.mode)
        except (ValueError, TypeError) as exc:
            raise PlayError(str(exc)) from None
        self._replay(self.moves)

    @property
    def humans(self) -> list[int]:
        return [seat for seat, name in enumerate(self.seats) if name == HUMAN]

    def act(self, action: str) -> None:
        """Play ``action`` for the human seat to move, then the bots until a human's turn;
        IllegalAction (nothing changed) when it is not legal now or not a human's turn."""
        seat = self.state.current_player
        if seat is None or self.seats[seat] != HUMAN:
            raise IllegalAction("it is no human player's turn")
        self.state.apply(Action.parse(action))
        self.moves.append(str(Action.parse(action)))
        self._bots_move()

    def undo(self, seat: int | None = None) -> None:
        """Take back the last move of the person at ``seat`` (the only person, when None) and
        the bot moves after it: only when no other person has moved since. PlayError saying
        why not."""
        if seat is None:
            if len(self.humans) != 1:
                raise PlayError("say which player asks to take a move back")
            seat = self.humans[0]
        if seat not in self.humans:
            raise PlayError(f"Player {_player(seat)} is not a person at this screen")
        people = [
            (i, mover) for i, mover in enumerate(self._movers()) if self.seats[mover] == HUMAN
        ]
        if not any(mover == seat for _, mover in people):
            raise PlayError(f"Player {_player(seat)} has no move to take back")
        last, mover = people[-1]
        if mover != seat:
            raise PlayError(
                f"Player {_player(mover)} has moved since Player {_player(seat)}'s last move: "
                f"only Player {_player(mover)} may take a move back now"
            )
        self.restart(self.moves[:last])

    def restart(self, moves: list[str] | None = None) -> None:
        """The same deal again, with ``moves`` (none by default) replayed."""
        self.state = self.game.new_game(len(self.seats), seed=self.seed, mode=self.mode)
        self.moves = []
        self._replay(moves or [])

    @property
    def over(self) -> bool:
        return self.state.current_player is None

    def may_see(self, seat: int) -> bool:
        """Whether ``seat``'s view may be shown now: a person's seat, at its turn (or any
        person's seat once the game is over)."""
        return seat in self.humans and (self.over or seat == self.state.current_player)

    def log(self, seat: int | None = None) -> dict[str, Any]:
        """The game as a file to download: the seats and, once the game is over, the engine's
        whole log; before that, ``seat``'s view of it (the cards it may not see, and the deal,
        left out), which cannot be replayed."""
        document: dict[str, Any] = {"format": FORMAT, "seats": list(self.seats)}
        if self.over:
            return {**document, "log": list(self.state.log)}
        if seat is None or not self.may_see(seat):
            raise PlayError("only the player to move may download the log before the game ends")
        return {**document, "seat": seat, "log": self.state.log_view(seat)}

    def _replay(self, moves: list[str]) -> None:
        for move in moves:
            self.state.apply(move)
            self.moves.append(move)
        self._bots_move()

    def _bots_move(self) -> None:
        state = self.state
        while (seat := state.current_player) is not None and self.seats[seat] != HUMAN:
            bot = make_bots(self.game, [self.seats[seat]], seat + 1, self.seed + len(self.moves))
            seen = state.observation(seat) if bot[seat].needs_observation else None
            move = bot[seat].choose(seen, state.legal_actions())
            state.apply(move)
            self.moves.append(str(move))

    def _movers(self) -> list[int]:
        """The seat that made each move."""
        return [entry["player"] for entry in self.state.log if "action" in entry]


def from_log(game: Game, document: Any) -> Session:
    """The session an uploaded log describes, replayed and checked move by move; PlayError
    ``move N: ...`` at the first move that is not the engine's own game."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise PlayError(f'not a log of the Play page (it starts with "format": "{FORMAT}")')
    seats, log = document.get("seats"), document.get("log")
    if "seat" in document:
        raise PlayError(
            f"this is Player {_player(document['seat'])}'s view of a game that was not over "
            "when it was downloaded: it leaves out the deal and the other players' cards, so "
            "it cannot be replayed (a log downloaded once the game is over loads in full)"
        )
    if not isinstance(log, list) or not log or not isinstance(log[0], dict):
        raise PlayError("the log is empty or its first entry is not the start of a game")
    start = log[0]
    if start.get("event") != "start" or start.get("game") != game.id:
        raise PlayError(f"entry 1: the log does not start a game of {game.id}")
    if not isinstance(seats, list) or len(seats) != start.get("players"):
        raise PlayError(f"the log names {start.get('players')} players but seats {seats!r}")
    seed = start.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise PlayError("entry 1: the start of the log has no whole-number seed")
    seats = check_seats(game, seats)  # the rules of a new game: a person plays, so bots stop
    session = Session(game, str(start.get("mode")), seed, [HUMAN] * len(seats))
    state, move = session.state, 0
    for number, entry in enumerate(log[1:], start=2):
        if not isinstance(entry, dict):
            raise PlayError(f"entry {number}: {entry!r} is not a log entry")
        if "action" not in entry:
            continue  # what the rules did: checked as the moves replay
        move += 1
        if entry.get("player") != state.current_player:
            raise PlayError(
                f"move {move}: Player {_player(entry.get('player'))} moves, but it is "
                f"Player {_player(state.current_player)}'s turn"
            )
        try:
            state.apply(str(entry["action"]))
        except IllegalAction as exc:
            raise PlayError(f"move {move}: {exc}") from None
        session.moves.append(str(entry["action"]))
    if state.log != log:
        at = next(
            (i for i, (a, b) in enumerate(zip(state.log, log, strict=False)) if a != b),
            min(len(state.log), len(log)),
        )
        raise PlayError(
            f"entry {at + 1}: the log says {log[at : at + 1]}, the engine did "
            f"{state.log[at : at + 1]}"
        )
    session.seats = seats
    session._bots_move()  # up to a person's turn, as in a new game
    return session


def check_seats(game: Game, seats: Any) -> list[str]:
    """``seats`` when each is "human", "random" or a bot of ``game`` and one at least is a
    person (so that the bots play only up to a person's turn); else PlayError. A new game and
    an uploaded log both go through it."""
    known = {HUMAN, "random", *game.engine.bots}
    if not isinstance(seats, list) or not all(isinstance(name, str) for name in seats):
        raise PlayError(f"seats must be a list of names, not {str(seats)[:100]}")
    for name in seats:
        if name not in known:
            raise PlayError(f"no player {name[:100]!r} (choose from {', '.join(sorted(known))})")
    if HUMAN not in seats:
        raise PlayError('at least one player must be a person ("human")')
    return list(seats)


def _player(seat: Any) -> str:
    return str(seat + 1) if isinstance(seat, int) and not isinstance(seat, bool) else repr(seat)


@dataclass
class Sessions:
    """The games being played on this server, by a random id: at most ``MAX_SESSIONS``. A new
    game makes room by closing the one left longest, but never one played in the last
    ``IN_USE`` seconds; a game closed so is remembered as closed (not as unknown)."""

    games: OrderedDict[str, Session] = field(default_factory=OrderedDict)
    used: dict[str, float] = field(default_factory=dict)  # key -> when last asked for
    closed: OrderedDict[str, None] = field(default_factory=OrderedDict)
    clock: Callable[[], float] = time.monotonic

    def add(self, session: Session) -> str:
        now = self.clock()
        while len(self.games) >= MAX_SESSIONS:
            oldest = next(iter(self.games))
            if now - self.used[oldest] < IN_USE:
                raise PlayError(
                    f"the preview already holds {MAX_SESSIONS} games played in the last "
                    f"{IN_USE // 60} minutes; finish one, or wait, before starting another"
                )
            del self.games[oldest], self.used[oldest]
            self.closed[oldest] = None
            while len(self.closed) > MAX_CLOSED:
                self.closed.popitem(last=False)
        key = secrets.token_urlsafe(12)
        self.games[key], self.used[key] = session, now
        return key

    def get(self, key: str) -> Session:
        """The game ``key`` names, now the most recently used; PlayError saying why not."""
        session = self.games.get(key)
        if session is None:
            if key in self.closed:
                raise PlayError(
                    f"this game was closed to make room: the preview keeps the "
                    f"{MAX_SESSIONS} games played last (start it again, or load its log)"
                )
            raise PlayError(
                "this preview has no such game (it was started by an earlier run of "
                "the preview, or the address is wrong)"
            )
        self.games.move_to_end(key)
        self.used[key] = self.clock()
        return session

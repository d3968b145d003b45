"""The contract's checks of one state of a game, each raising Breach with a plain sentence:
what a seat may see, illegal actions refused, a finished game, its log replayed."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator
from typing import Any

from gachapress.engine.contract.breach import Breach
from gachapress.engine.core import Action, Game, IllegalAction, State
from gachapress.engine.replay import ReplayError, replay

#: An action no game has: every engine must refuse it.
GARBAGE = Action("no-such-verb", "nothing")


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


def check_observations(state: State, logged: int = 0) -> None:
    """Every seat's observation and view of the log (from entry ``logged`` on) are JSON data,
    and the observation shows no card hidden from that seat."""
    for player in range(state.players):
        seen = state.observation(player)
        dumped = _json(seen, f"player {player}'s observation")
        _json(state.log_view(player, logged), f"player {player}'s view of the log")
        # a card's id shows as a JSON string: look for those of the hidden cards in the text,
        # then among the observation's strings (a quote inside a string may look like one)
        suspects = {card for card in state.hidden_from(player) if _quoted(card) in dumped}
        leaked = sorted(suspects.intersection(observation_strings(seen))) if suspects else []
        if leaked:
            cards = ", ".join(leaked)
            some = "a card" if len(leaked) == 1 else "cards"
            raise Breach(f"player {player}'s observation shows {cards}, {some} hidden from them")


def _json(value: Any, what: str) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError) as exc:
        raise Breach(f"{what} is not JSON data ({exc})") from None


#: A card id as the JSON of an observation writes it.
_quoted = functools.cache(json.dumps)


def check_refusal(state: State, action: Action) -> None:
    """``action``, not legal now, is refused with IllegalAction and changes nothing."""
    before, log = state.snapshot(), list(state.log)
    try:
        state.apply(action)
    except IllegalAction:
        pass
    else:
        raise Breach(f"the engine accepted {action}, which is not a legal action now")
    if state.snapshot() != before or state.log != log:
        raise Breach(f"refusing {action}, which is not legal now, changed the game")


def check_offer(state: State) -> None:
    """A game not over has a seat to act, and offers it an action."""
    player = state.current_player
    if player is None or not 0 <= player < state.players:
        raise Breach(f"the game is not over, but its player to act is {player!r}")
    if not state.legal_actions():
        raise Breach(f"the game is not over, but it offers player {player} no action")


def check_finished(state: State) -> None:
    """A finished game: nobody to act, no action offered, a score per seat, winners among the
    seats."""
    if state.current_player is not None or state.legal_actions():
        raise Breach("the game is over, but it still has a player to act or an action offered")
    scores, winners = state.scores(), state.winners()
    if len(scores) != state.players:
        raise Breach(f"the game is over with {len(scores)} scores for {state.players} players")
    if not winners or any(not 0 <= w < state.players for w in winners):
        raise Breach(f"the game is over with winners {winners}, not one or more of its players")


def check_replay(game: Game, state: State, seeds: tuple[object, object]) -> None:
    """The log of ``state``, through JSON, replays to the same state with Python's global
    generator seeded with ``seeds[1]``, the game having been played after seeding it with
    ``seeds[0]``: an engine that draws from it (``random.shuffle`` instead of
    ``self.shuffle``) plays another game from the same seed."""
    log = json.loads(json.dumps(state.log))
    random.seed(seeds[1])
    try:
        rebuilt = replay(game, log)
    except Exception as exc:
        random.seed(seeds[0])
        try:
            replay(game, log)
        except Exception:
            if isinstance(exc, ReplayError):
                raise Breach(f"the log does not replay: {exc}", _step(log, exc)) from None
            raise exc from None
        raise Breach(
            "the same seed played again gave another game, so the engine draws from Python's "
            "global random (random.shuffle, say) and not from the game's self.rng or "
            f"self.shuffle ({exc})",
            _step(log, exc) if isinstance(exc, ReplayError) else None,
        ) from None
    if rebuilt.snapshot() != state.snapshot():
        raise Breach("the log replays to a game that differs from the one played")


def _step(log: list[dict[str, Any]], error: ReplayError) -> int | None:
    """The step (actions played) at the log entry a replay error names."""
    if error.entry is None:
        return None
    return sum("action" in entry for entry in log[: error.entry])

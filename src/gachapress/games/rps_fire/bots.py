"""A greedy Rock, Paper, Scissors, Fire player: plays its fire alarms at once, then sheds its
most valuable cards, and gives its highest cards (never an alarm, when it can help it) to the
opponent closest to going out."""

from __future__ import annotations

from typing import Any, ClassVar

from gachapress.engine.core import Action, Game
from gachapress.games.rps_fire.model import RpsCard, RpsFire


class GreedyBot:
    """Decides from its observation only.

    Playing: go out when it can; otherwise a fire alarm (held at the round's end it doubles the
    score, and going off it sheds a card and lets its player choose two cards to give away);
    otherwise as many copies as possible, the highest value first (it scores most if kept, and
    a high card is hardest to beat with its own type). Giving after an alarm: the highest
    ordinary card (an alarm given away would be a free play for the receiver) to the opponent
    with the fewest cards (closest to going out), then the fewest points so far."""

    needs_observation: ClassVar[bool] = True

    def __init__(self, game: Game, seat: int, seed: int | str) -> None:
        model = game.model
        assert isinstance(model, RpsFire)
        self.cards: dict[str, RpsCard] = {card.id: card for card in model.decks.main.cards}
        self.seat = seat
        self._parsed: dict[Action, tuple[RpsCard, int]] = {}

    def _parse(self, action: Action) -> tuple[RpsCard, int]:
        """(card, copies) of ``play rock-3 x2`` or (card, seat) of ``give rock-3 to 2``."""
        parsed = self._parsed.get(action)
        if parsed is None:
            face, _, rest = (action.target or "").partition(" ")
            number = rest.rsplit(" ", 1)[-1].lstrip("x") if rest else "1"
            parsed = self._parsed[action] = (self.cards[face], int(number))
        return parsed

    def choose(self, observation: dict[str, Any] | None, legal: list[Action]) -> Action:
        assert observation is not None
        if len(legal) == 1:
            return legal[0]
        if observation["phase"] == "give":
            return self._give(observation, legal)
        return self._play(observation, legal)

    def _play(self, observation: dict[str, Any], legal: list[Action]) -> Action:
        held = len(observation["hand"])

        def worth(action: Action) -> tuple[bool, bool, int, int]:
            card, copies = self._parse(action)
            return (copies == held, card.is_fire_alarm, copies, card.value)

        return max(legal, key=worth)

    def _give(self, observation: dict[str, Any], legal: list[Action]) -> Action:
        sizes = observation["hand_sizes"]
        totals = observation["totals"]

        def worth(action: Action) -> tuple[bool, int, int, int]:
            card, seat = self._parse(action)
            return (not card.is_fire_alarm, card.value, -sizes[seat], -totals[seat])

        return max(legal, key=worth)

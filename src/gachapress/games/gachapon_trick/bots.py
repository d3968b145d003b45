"""A greedy Gachapon Trick player: buys toys whose set points beat the money they cost."""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from gachapress.engine.core import Action, Game
from gachapress.games.gachapon_trick import rules
from gachapress.games.gachapon_trick.model import GachaponTrick, ToyCard

DONE = Action("done")


class GreedyBot:
    """Values a toy by the set points it adds minus the money points its cost gives up, plays to
    win tricks holding a toy worth buying, and otherwise sheds its cheapest card. It decides from
    its observation only, and never gambles on the top of the deck."""

    needs_observation: ClassVar[bool] = True

    def __init__(self, game: Game, seat: int, seed: int | str) -> None:
        model = game.model
        assert isinstance(model, GachaponTrick)
        self.model = model
        self.toys: dict[str, ToyCard] = {card.id: card for card in model.decks.toys.faces()}
        self.seat = seat

    def choose(self, observation: dict[str, Any] | None, legal: list[Action]) -> Action:
        assert observation is not None
        mine = Counter(self.toys[c].toy for c in observation["collections"][self.seat])
        if observation["phase"] == "play":
            return self._play(observation, legal, mine)
        scored = [(self._value(a, mine), a) for a in legal if a.target in self.toys]
        if DONE not in legal:  # a purchase is obligatory: the least bad one
            return max(scored, key=lambda pair: pair[0])[1]
        best = max(scored, key=lambda pair: pair[0], default=None)
        return best[1] if best is not None and best[0] > 0 else DONE

    def _value(self, action: Action, mine: Counter[str]) -> float:
        card = self.toys[action.target]  # type: ignore[index]
        money = card.cost / self.model.scoring.yen_per_point
        if action.verb == "refund":
            have = mine[card.toy]
            return money - (
                rules.set_points(self.model, have) - rules.set_points(self.model, have - 1)
            )
        return self._gain(card, mine) - money

    def _gain(self, card: ToyCard, mine: Counter[str]) -> int:
        have = mine[card.toy]
        return rules.set_points(self.model, have + 1) - rules.set_points(self.model, have)

    def _play(self, observation: dict[str, Any], legal: list[Action], mine: Counter[str]) -> Action:
        trick = [self.toys[card_id] for _, card_id in observation["trick"]]
        per_point = self.model.scoring.yen_per_point
        winning = []
        for action in legal:
            card = self.toys[action.target]  # type: ignore[index]
            plays = [*trick, card]
            if rules.trick_winner(self.model, plays) == len(trick):
                worth = max(self._gain(c, mine) - c.cost / per_point for c in plays)
                winning.append((worth, -card.cost, action))
        if winning:
            worth, _, action = max(winning, key=lambda w: (w[0], w[1]))
            if worth > 0:
                return action
        return min(legal, key=lambda a: self.toys[a.target].cost)  # type: ignore[index]

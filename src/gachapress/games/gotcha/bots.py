"""A greedy GOTCHA! player: spends where a roll is worth more than the money it gives up."""

from __future__ import annotations

from typing import Any, ClassVar

from gachapress.data.model import Card
from gachapress.engine.core import Action, Game
from gachapress.games.gotcha import rules
from gachapress.games.gotcha.model import GachaCard, Gotcha, NoticeCard

DONE, PASS, KEEP, REDRAW = Action("done"), Action("pass"), Action("keep"), Action("redraw")


class GreedyBot:
    """Decides from its observation only.

    Spending: it estimates, for a few candidate sets of cards to reveal, the chance of getting
    to roll (everyone expected to roll before it must miss: each opponent with face-down cards
    is guessed to spend ``GUESS_PER_CARD`` yen a card) times the chance of a hit times the
    gacha's points, minus what the cards would have scored in hand (half their yen). It places
    the best set face down and reveals the best set it can still make from them.

    Announcements: a notice that moves it to the front of the rolling order, or a rate rise
    just before its own roll; on the last gacha, when notices are worth nothing, a rate cut
    before a rival's roll too. It always redraws an all-notice hand.
    """

    needs_observation: ClassVar[bool] = True
    #: What an opponent is guessed to spend per face-down card, in yen.
    GUESS_PER_CARD = 3000
    #: What keeping a notice for later is guessed to be worth, in points.
    NOTICE_OPTION = 400

    def __init__(self, game: Game, seat: int, seed: int | str) -> None:
        model = game.model
        assert isinstance(model, Gotcha)
        self.model = model
        self.seat = seat
        self.cards: dict[str, Card] = model.cards()
        self.divisor = model.scoring.ituned_divisor
        self._memo: dict[tuple[Any, ...], list[str]] = {}
        self._memo_gacha: str | None = None
        self._chances: dict[int, float] = {}

    def choose(self, observation: dict[str, Any] | None, legal: list[Action]) -> Action:
        assert observation is not None
        if len(legal) == 1:
            return legal[0]
        phase = observation["phase"]
        if phase == "setup":
            return REDRAW if REDRAW in legal else KEEP
        if phase == "announce":
            return self._announce(observation, legal)
        if phase == "place":
            mine = [self.cards[i] for i in observation["hand"] + observation["placed"]]
            target = self._best_spend(observation, mine)
            placed = list(observation["placed"])
            for card_id in target:
                if card_id in placed:
                    placed.remove(card_id)
            for action in legal:  # take back what is not wanted, then place what is
                if action.verb == "take" and action.target in placed:
                    return action
            wanted = list(target)
            for card_id in observation["placed"]:
                if card_id in wanted:
                    wanted.remove(card_id)
            for action in legal:
                if action.verb == "place" and action.target in wanted:
                    return action
            return DONE
        # reveal: the best set that can still be made from the face-down cards
        mine = [self.cards[i] for i in observation["placed"]]
        target = self._best_spend(observation, mine + self._picked(observation))
        for card_id in self._picked_ids(observation):
            if card_id in target:
                target.remove(card_id)
        for action in legal:
            if action.verb == "reveal" and action.target in target:
                return action
        return DONE

    # -- spending ------------------------------------------------------------------------------
    def _picked_ids(self, observation: dict[str, Any]) -> list[str]:
        return list(observation["revealed"][self.seat] or [])

    def _picked(self, observation: dict[str, Any]) -> list[Card]:
        return [self.cards[i] for i in self._picked_ids(observation)]

    def _rate_bonus(self, observation: dict[str, Any]) -> int:
        notices = [self.cards[i] for i in observation["in_force"]]
        return sum(
            n.effect.delta for n in notices if isinstance(n, NoticeCard) and n.effect.kind == "rate"
        )

    def _hit_chance(self, rate: int) -> float:
        chance = self._chances.get(rate)
        if chance is None:
            chance = len(rules.hit_faces(self.model, rate)) / self.model.die.faces
            self._chances[rate] = chance
        return chance

    def _value(self, observation: dict[str, Any], spend: list[Card]) -> float:
        """Expected points of revealing ``spend``, less what the cards are worth kept."""
        if not spend:
            return 0.0
        gacha = self.cards[observation["gacha"]]
        assert isinstance(gacha, GachaCard)
        last_gacha = observation["gacha_left"] == 0
        yen, count = rules.spend_of(self.model, spend)
        cost = yen / self.divisor
        if not last_gacha:
            cost += self.NOTICE_OPTION * sum(isinstance(c, NoticeCard) for c in spend)
        in_force = self._rate_bonus(observation)
        mine = rules.total_rate(self.model, gacha, spend, []) + in_force
        others_hit = self._hit_chance(gacha.rate + in_force)
        reach = 1.0
        counts = observation["placed_counts"]
        turn_player, players = observation["turn_player"], len(counts)
        spends = []
        for seat in range(players):
            if seat == self.seat:
                spends.append([yen, count])
            elif counts[seat]:
                spends.append([self.GUESS_PER_CARD * counts[seat], counts[seat]])
            else:
                spends.append([0, 0])
        for seat in rules.spend_order(self.model, spends, turn_player):
            if seat == self.seat:
                break
            reach *= 1 - others_hit
        return reach * self._hit_chance(mine) * gacha.points - cost

    def _best_spend(self, observation: dict[str, Any], mine: list[Card]) -> list[str]:
        """Card ids to reveal: from each single card, add cards while the value rises."""
        key = (
            observation["gacha"],
            observation["gacha_left"],
            observation["turn_player"],
            tuple(observation["placed_counts"]),
            tuple(observation["in_force"]),
            tuple(sorted(c.id for c in mine)),
            tuple(self._picked_ids(observation)),
        )
        if key[0] != self._memo_gacha:
            self._memo.clear()
            self._memo_gacha = key[0]
        if key not in self._memo:
            self._memo[key] = self._search(observation, mine)
        return list(self._memo[key])

    def _search(self, observation: dict[str, Any], mine: list[Card]) -> list[str]:
        picked = self._picked(observation)
        best_set: list[Card] = list(picked)
        best = self._value(observation, best_set)
        pool = list(mine)
        for card in picked:
            pool.remove(card)
        starts = {c.id: c for c in pool}
        for start in starts.values():
            chosen = [*picked, start]
            rest = list(pool)
            rest.remove(start)
            value = self._value(observation, chosen)
            while rest:
                options = {c.id: c for c in rest}
                gain, pick = max(
                    ((self._value(observation, [*chosen, c]), c) for c in options.values()),
                    key=lambda pair: pair[0],
                )
                if gain <= value:
                    break
                value = gain
                chosen.append(pick)
                rest.remove(pick)
            if value > best:
                best, best_set = value, chosen
        return [c.id for c in best_set]

    # -- announcements -------------------------------------------------------------------------
    def _announce(self, observation: dict[str, Any], legal: list[Action]) -> Action:
        queue: list[int] = observation["queue"]
        last_gacha = observation["gacha_left"] == 0
        notices = {a: self.cards[a.target] for a in legal if a.verb == "use"}  # type: ignore[index]
        me = self.seat
        for action, notice in notices.items():
            assert isinstance(notice, NoticeCard)
            effect = notice.effect
            if effect.kind == "order" and me in queue and queue[0] != me:
                after = rules.reorder_rollers(self.model, queue, notice, me)
                if after[0] == me:
                    return action
        if queue and queue[0] == me:
            gacha = self.cards[observation["gacha"]]
            assert isinstance(gacha, GachaCard)
            ups = [
                (n.effect.delta, a)
                for a, n in notices.items()
                if isinstance(n, NoticeCard) and n.effect.kind == "rate" and n.effect.delta > 0
            ]
            if ups and (gacha.points >= 6000 or last_gacha):
                return max(ups, key=lambda pair: pair[0])[1]
        elif queue and last_gacha:
            downs = [
                a
                for a, n in notices.items()
                if isinstance(n, NoticeCard) and n.effect.kind == "rate" and n.effect.delta < 0
            ]
            if downs:
                return downs[0]
        return PASS

"""A greedy GOTCHA! player: spends where a roll is worth more than the money it gives up."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from gachapress.data.model import Card
from gachapress.engine.core import Action, Game
from gachapress.games.gotcha import rules
from gachapress.games.gotcha.model import GachaCard, Gotcha, NoticeCard

DONE, PASS, KEEP, REDRAW = Action("done"), Action("pass"), Action("keep"), Action("redraw")
ADJUST = Action("adjust")
#: The last placing round in which the greedy bot still changes its face-down cards: reacting
#: to every change could go on for ever between two bots that each outbid the other.
SETTLE = 2


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
        self._valuers: dict[tuple[Any, ...], Callable[[list[Card]], float]] = {}
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
            wanted = list(target)
            for card_id in observation["placed"]:
                if card_id in wanted:
                    wanted.remove(card_id)
            if ADJUST in legal:  # a go opens: adjust only to change something, and settle
                changing = placed or wanted
                return ADJUST if changing and observation["placing_round"] <= SETTLE else DONE
            for action in legal:  # take back what is not wanted, then place what is
                if action.verb == "take" and action.target in placed:
                    return action
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

    def _valuer(self, observation: dict[str, Any]) -> Callable[[list[Card]], float]:
        """The expected points of revealing a set of cards, less what the cards are worth kept,
        in the situation ``observation`` shows; worked out once per distinct set and situation
        (the searches of one gacha meet the same ones again and again)."""
        situation = (
            observation["gacha"],
            observation["gacha_left"],
            observation["turn_player"],
            tuple(observation["placed_counts"]),
            tuple(observation["in_force"]),
        )
        if situation[0] != self._memo_gacha:
            self._memo.clear()
            self._valuers.clear()
            self._memo_gacha = situation[0]
        if situation not in self._valuers:
            self._valuers[situation] = self._new_valuer(observation)
        return self._valuers[situation]

    def _new_valuer(self, observation: dict[str, Any]) -> Callable[[list[Card]], float]:
        gacha = self.cards[observation["gacha"]]
        assert isinstance(gacha, GachaCard)
        last_gacha = observation["gacha_left"] == 0
        in_force = self._rate_bonus(observation)
        others_hit = self._hit_chance(gacha.rate + in_force)
        counts = observation["placed_counts"]
        turn_player = observation["turn_player"]
        guesses = [[self.GUESS_PER_CARD * n, n] if n else [0, 0] for n in counts]
        reaches: dict[tuple[int, int], float] = {}
        values: dict[tuple[int, int, int, int], float] = {}
        parts: dict[str, tuple[int, int, int, int]] = {}

        def part(card: Card) -> tuple[int, int, int, int]:
            """What one revealed card adds: yen, a card, a notice given up, rate (the rules add
            these up card by card: seed "3.課金" and "5.ガチャ")."""
            if card.id not in parts:
                yen, count = rules.spend_of(self.model, [card])
                rate = rules.total_rate(self.model, gacha, [card], []) - gacha.rate
                parts[card.id] = (yen, count, int(isinstance(card, NoticeCard)), rate)
            return parts[card.id]

        def reach(yen: int, count: int) -> float:
            """The chance that everyone rolling before this seat misses."""
            key = (yen, count)
            if key not in reaches:
                spends = list(guesses)
                spends[self.seat] = [yen, count]
                chance = 1.0
                for seat in rules.spend_order(self.model, spends, turn_player):
                    if seat == self.seat:
                        break
                    chance *= 1 - others_hit
                reaches[key] = chance
            return reaches[key]

        def value(spend: list[Card]) -> float:
            if not spend:
                return 0.0
            yen = count = notices = rate = 0
            for card in spend:
                y, c, n, r = part(card)
                yen, count, notices, rate = yen + y, count + c, notices + n, rate + r
            key = (yen, count, notices, rate)
            if key not in values:
                cost = yen / self.divisor
                if not last_gacha:
                    cost += self.NOTICE_OPTION * notices
                mine = gacha.rate + rate + in_force
                values[key] = reach(yen, count) * self._hit_chance(mine) * gacha.points - cost
            return values[key]

        return value

    def _best_spend(self, observation: dict[str, Any], mine: list[Card]) -> list[str]:
        """Card ids to reveal: from each single card, add cards while the value rises."""
        worth = self._valuer(observation)
        key = (worth, tuple(sorted(c.id for c in mine)), tuple(self._picked_ids(observation)))
        if key not in self._memo:
            self._memo[key] = self._search(observation, mine, worth)
        return list(self._memo[key])

    def _search(
        self, observation: dict[str, Any], mine: list[Card], worth: Callable[[list[Card]], float]
    ) -> list[str]:
        picked = self._picked(observation)
        best_set: list[Card] = list(picked)
        best = worth(best_set)
        pool = list(mine)
        for card in picked:
            pool.remove(card)
        starts = {c.id: c for c in pool}
        for start in starts.values():
            chosen = [*picked, start]
            rest = list(pool)
            rest.remove(start)
            value = worth(chosen)
            while rest:
                options = {c.id: c for c in rest}
                gain, pick = max(
                    ((worth([*chosen, c]), c) for c in options.values()),
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

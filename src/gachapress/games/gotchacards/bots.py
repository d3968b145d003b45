"""A greedy GotchaCards player for both modes, deciding from its observation only.

Competitive: it drafts the strongest cards, never empties its hand before the last turn (an
empty hand at the start of a turn loses the round), answers the leader's lanes with one more
card than they placed (an unopposed card always scores), and points Hammers and Wildcards at the
fights they turn round. Party: it counts the cards it has not seen, plays the card with the best
expected share of the showdown, and picks swap, Hammer, Wildcard and Magnet targets by the
share they bring.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar

from gachapress.engine.core import Action, Game
from gachapress.games.gotchacards import rules
from gachapress.games.gotchacards.model import GotchaCard, GotchaCards

DONE = Action("done")
ITEM = "item"
#: What an item or a lucky card is worth to its player beyond its fight, in cards.
EXTRA = {"draw": 1.0, "steal": 1.0, "bonus": 1.0, "wild": 1.5, "smash": 0.8, "swap": 0.4}
#: What a card drawn into the hand is worth in Party mode (it is played or banked later).
DRAWN = 0.8
#: Guesses at the others' cards per Party decision, with two or more opponents.
SAMPLES = 24
#: The most showdown values the greedy bots of one loaded game remember.
REMEMBERED = 100_000


def _number(action: Action) -> int:
    """The number at the end of ``hit lane-2``, ``steal seat-1``..."""
    return int(str(action.target).rpartition("-")[2])


class GreedyBot:
    """Plays to the immediate value of each decision; see the module docstring."""

    needs_observation: ClassVar[bool] = True

    def __init__(self, game: Game, seat: int, seed: int | str) -> None:
        model = game.model
        assert isinstance(model, GotchaCards)
        self.model = model
        self.seat = seat
        self.rng = random.Random(seed)
        self.cards: dict[str, GotchaCard] = {c.id: c for c in model.decks.main.cards}
        self.counts = Counter({c.id: c.count for c in model.decks.main.cards})
        self.types = rules.fight_types(model)
        self.beater = {b: a for a, b in model.beats.items()}  # type -> the type that beats it
        self.worths: dict[tuple[Any, ...], float] = game.tables("gotchacards-greedy", dict)
        """Showdown values already worked out, shared by the greedy bots of a loaded game."""

    # -- shared --------------------------------------------------------------------------------
    def _extra(self, card_id: str) -> float:
        effect = self.cards[card_id].effect
        return 0.0 if effect is None else EXTRA.get(effect.kind, 0.0)

    def _value(self, card_id: str) -> float:
        """A card's worth in a hand: a fighter scores about one card, items their effect."""
        card = self.cards[card_id]
        return (0.0 if card.type == ITEM else 1.0) + self._extra(card_id)

    def _fight(self, card_id: str | None) -> str | None:
        if card_id is None:
            return None
        kind = self.cards[card_id].type
        return None if kind == ITEM else kind

    def choose(self, observation: dict[str, Any] | None, legal: list[Action]) -> Action:
        assert observation is not None
        if len(legal) == 1:
            return legal[0]
        choice = observation["choice"]
        if choice is not None:
            if observation["mode"] == "party" or choice["kind"] == "steal":
                return self._party_choice(observation, choice, legal)
            return self._lane_choice(choice, legal)
        verb = legal[0].verb
        if verb in ("keep", "pick"):
            return max(legal, key=lambda a: self._value(a.target))  # type: ignore[arg-type]
        if verb == "become":
            return legal[1]  # Player2 answers the first turn's lanes and picks first
        if observation["mode"] == "party":
            return self._party_play(observation, legal)
        return self._place(observation, legal)

    # -- Competitive ---------------------------------------------------------------------------
    def _place(self, obs: dict[str, Any], legal: list[Action]) -> Action:
        seat, hand = obs["seat"], obs["hand"]
        cards = [a for a in legal if a is not DONE]
        if DONE not in legal:
            return self._best_card(cards, obs)
        turns = len(self.model.competitive.turns)
        keep = 0 if obs["overtime"] else max(0, turns - obs["turn"])  # a card for each later turn
        theirs = len(obs["lanes"][1 - seat])
        target = 1 if obs["first"] == seat else theirs + 1
        if obs["placed"] >= target or len(hand) <= keep:
            return DONE
        return self._best_card(cards, obs)

    def _best_card(self, cards: list[Action], obs: dict[str, Any]) -> Action:
        """Capsules early (more cards), then the fighter worth most; Hammers when facing cards."""

        def worth(action: Action) -> float:
            card = self.cards[action.target]  # type: ignore[index]
            effect = card.effect
            if effect is not None and effect.kind == "draw":
                return 3.0
            return self._value(card.id)

        return max(cards, key=worth)

    def _lane_choice(self, choice: dict[str, Any], legal: list[Action]) -> Action:
        seat = choice["seat"]
        mine, theirs = choice["view"][seat], choice["view"][1 - seat]
        beats = self.model.beats
        if choice["kind"] == "type":  # name the type that beats the card across
            lane = mine.index(choice["card"])
            across = self._fight(theirs[lane]) if lane < len(theirs) else None
            best = self.beater[across] if across is not None else self.types[0]
            return next(a for a in legal if a.target == best)

        def swing(action: Action) -> int:  # Hammer: how much trashing that lane's card gains
            lane = _number(action) - 1
            mine_type = self._fight(mine[lane]) if lane < len(mine) else None
            their_type = self._fight(theirs[lane])
            if their_type is None:
                return 0
            if mine_type is None:
                return 1
            if beats.get(their_type) == mine_type:
                return 3
            return 1 if their_type == mine_type else -1

        return max(legal, key=swing)

    # -- Party ---------------------------------------------------------------------------------
    def _unseen(self, obs: dict[str, Any]) -> list[str]:
        """The cards (ids, one per copy) this seat has not seen anywhere: what others may hold."""
        seen = Counter(obs["hand"]) + Counter(obs["trash"])
        for pile in obs["piles"]:
            seen.update(pile)
        seen.update(c for c in obs["plays"] if c is not None)
        return [i for i, count in self.counts.items() for _ in range(max(0, count - seen[i]))]

    def _samples(self, obs: dict[str, Any], others: int) -> list[tuple[float, tuple[str, ...]]]:
        """Weighted guesses at the others' cards: every unseen face against one opponent, else
        random draws from the unseen cards."""
        pool = self._unseen(obs)
        if not pool:
            return []
        if others == 1:
            faces = Counter(pool)
            return [(n / len(pool), (face,)) for face, n in faces.items()]
        if len(pool) < others:
            return []
        return [(1 / SAMPLES, tuple(self.rng.sample(pool, others))) for _ in range(SAMPLES)]

    def _party_play(self, obs: dict[str, Any], legal: list[Action]) -> Action:
        seat, players = obs["seat"], len(obs["hand_sizes"])
        if obs["overtime"]:
            others = [s for s in obs["tied"] if s != seat]
        else:
            sizes, played = obs["hand_sizes"], obs["played"]
            others = [s for s in range(players) if s != seat and (sizes[s] or played[s])]
        samples = self._samples(obs, len(others))

        def expected(action: Action) -> float:
            value = 0.0
            for weight, guess in samples:
                plays: list[str | None] = [None] * players
                plays[seat] = action.target
                for other, card in zip(others, guess, strict=True):
                    plays[other] = card
                value += weight * self._outcome_value(plays, obs["first"], seat, [])
            return value

        return max(legal, key=expected)

    def _outcome_value(
        self, plays: list[str | None], priority: int, seat: int, answers: list[Any]
    ) -> float:
        """What the showdown of ``plays`` is worth to ``seat`` against the average other
        player: cards won, cards drawn and stolen. ``seat`` answers its own choices at best,
        the others take their first option."""
        key = (tuple(plays), priority, seat, tuple(answers))
        worth = self.worths.get(key)
        if worth is None:
            worth = self._work_out(plays, priority, seat, answers)
            if len(self.worths) < REMEMBERED:
                self.worths[key] = worth
        return worth

    def _work_out(
        self, plays: list[str | None], priority: int, seat: int, answers: list[Any]
    ) -> float:
        cards = [None if c is None else self.cards[c] for c in plays]
        resolver = rules.resolve_showdown(self.model, priority, cards)
        try:
            choice = next(resolver)
            for answer in answers:
                choice = resolver.send(answer)
            while choice.player != seat:
                answers = [*answers, choice.options[0]]
                choice = resolver.send(choice.options[0])
        except StopIteration as done:
            out = done.value
            worth = [
                len(t) + b + DRAWN * d + s
                for t, b, d, s in zip(out.taken, out.bonus, out.draws, out.steals, strict=True)
            ]
            rivals = [w for other, w in enumerate(worth) if other != seat and plays[other]]
            return worth[seat] - (sum(rivals) / len(rivals) if rivals else 0.0)
        return max(
            self._outcome_value(plays, priority, seat, [*answers, option])
            for option in choice.options
        )

    def _party_choice(
        self, obs: dict[str, Any], choice: dict[str, Any], legal: list[Action]
    ) -> Action:
        if choice["kind"] == "steal":  # take from the biggest pile: the closest rival
            piles = obs["piles"]
            return max(legal, key=lambda a: len(piles[_number(a)]))
        plays, seat = obs["plays"], choice["seat"]

        def value(action: Action) -> float:
            target: str = action.target  # type: ignore[assignment]
            answer: Any = target if choice["kind"] == "type" else _number(action)
            return self._outcome_value(plays, obs["first"], seat, [*obs["answers"], answer])

        return max(legal, key=value)

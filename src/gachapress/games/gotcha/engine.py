"""GOTCHA!'s procedure: the six phases of a turn, twelve turns, and the final scoring.

A turn (seed, "ゲームの流れ"): 1 the turn player opens the top gacha card; 2 everyone places
cards face down (rounds of hidden placing, counts public); 3 everyone picks in secret which of
them to turn up, the picks are revealed together and the spends give the rolling order; 4
announcements (operator notices from hand, round after round until everyone passes in a row);
5 the next roller rolls the d10 (a miss: announcements again, then the next roller; everyone
missed: back to 2); 6 the refill, and the next turn player.

The state machine only sequences the game; every rule it applies is a rule function of
``rules.py`` (the seed section is named there), and every number comes from the model. The
roll, the gacha opening and the refill draws involve no choice and happen by themselves
(clarification automatic-steps).

The iTuned and notice cards are held as their ids (copies share one id), so the draw deck,
hands, face-down piles and the discard are lists of strings: a hand is listed, searched and
emptied several times per action, which costs little on strings and about four times more on
the rules' card models (their attribute reads and equality run Python code). The rule
functions get the models (``cards``) when they need a card's amount, rate or kind. Gacha cards,
touched once a turn, stay models.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import chain
from operator import attrgetter
from typing import Any, ClassVar

from gachapress.data.model import Card
from gachapress.engine.core import OVER, Action, Game, card_ids
from gachapress.engine.hands import HiddenHandsState, face_down_view
from gachapress.games.gotcha import rules
from gachapress.games.gotcha.model import GachaCard, Gotcha, ITunedCard, NoticeCard

SETUP, PLACE, REVEAL, ANNOUNCE = "setup", "place", "reveal", "announce"
KEEP, REDRAW = Action("keep"), Action("redraw")
DONE, PASS = Action("done"), Action("pass")


class _Tables:
    """What every game derives from the model once: the cards, the decks and their actions."""

    def __init__(self, model: Gotcha) -> None:
        self.gacha: list[GachaCard] = model.decks.gacha.faces()
        self.hand_faces: list[Card] = [
            card for deck_id in model.draw_deck for card in model.deck(deck_id).faces()
        ]
        # The draw deck before its shuffle: every copy of every face (its id), in a stable order.
        self.draw_deck: list[str] = [c.id for c in self.hand_faces for _ in range(c.count)]
        self.by_id: dict[str, Card] = {c.id: c for c in [*self.gacha, *self.hand_faces]}
        self.gacha_ids: frozenset[str] = frozenset(c.id for c in self.gacha)
        self.hand_counts: dict[str, int] = {c.id: c.count for c in self.hand_faces}
        self.ituned: frozenset[str] = frozenset(
            c.id for c in self.hand_faces if isinstance(c, ITunedCard)
        )
        self.notices: frozenset[str] = frozenset(
            c.id for c in self.hand_faces if isinstance(c, NoticeCard)
        )
        self.place = {c.id: Action("place", c.id) for c in self.hand_faces}
        self.take = {c.id: Action("take", c.id) for c in self.hand_faces}
        self.reveal = {c.id: Action("reveal", c.id) for c in self.hand_faces}
        self.use = {c.id: Action("use", c.id) for c in self.hand_faces if c.id in self.notices}


_ID = attrgetter("id")


def _ids(cards: list[Any]) -> list[str]:
    return list(map(_ID, cards))


class GotchaState(HiddenHandsState):
    """A game of GOTCHA! in progress (seed: every section; clarifications in YAML).

    Where the cards are: ``draw`` (the iTuned and notice deck, top last), ``gacha_deck`` (top
    last) and ``gacha`` (the card open now), each seat's ``hands``, ``placed`` (face down) and
    ``revealed`` (picked to turn up: hidden until every seat has picked, then face up), the
    ``discard``, ``used`` notices (out of the game), each seat's ``claimed`` gacha cards and the
    ``removed`` gacha cards nobody spent on (clarification unclaimed-gacha).
    """

    # Slots, not an instance dict: CPython 3.11 keeps an object's attributes inline (fast to
    # read, and ``self.f()`` finds its method fast) only up to 30 names, and this state has 36
    # besides the base class's 7, which stay in the (then small) instance dict.
    __slots__ = (
        "announced",
        "by_id",
        "claimed",
        "discard",
        "draw",
        "gacha",
        "gacha_deck",
        "hands",
        "held_back",
        "in_force",
        "model",
        "order",
        "phase",
        "place_action",
        "placed",
        "placed_now",
        "placing_round",
        "queue",
        "rebuilds",
        "redraws",
        "removed",
        "reveal_action",
        "revealed",
        "round_changed",
        "shown",
        "spends",
        "step",
        "tables",
        "take_action",
        "taken_now",
        "turn",
        "turn_player",
        "turns",
        "use_action",
        "used",
    )
    max_actions_per_player: ClassVar[int] = 4000
    #: Moves whose card only its owner sees: face-down placing, taking back and secret picks;
    #: the picks are seen in the ``revealed`` event once everyone has chosen.
    unseen_moves = frozenset({"place", "take", "reveal"})
    shared_attributes = (
        "model",
        "tables",
        "by_id",
        "place_action",
        "take_action",
        "reveal_action",
        "use_action",
    )

    def __init__(self, game: Game, players: int, seed: int, mode: str) -> None:
        super().__init__(game, players, seed, mode)
        model = game.model
        assert isinstance(model, Gotcha)
        self.model = model
        self.tables = tables = game.tables("gotcha", lambda: _Tables(model))
        self.by_id = tables.by_id
        self.place_action, self.take_action = tables.place, tables.take
        self.reveal_action, self.use_action = tables.reveal, tables.use
        n = players
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.placed: list[list[str]] = [[] for _ in range(n)]
        self.revealed: list[list[str]] = [[] for _ in range(n)]
        self.claimed: list[list[GachaCard]] = [[] for _ in range(n)]
        self.discard: list[str] = []
        self.used: list[str] = []  # notices
        self.removed: list[GachaCard] = []
        self.in_force: list[str] = []  # rate notices announced for the open gacha
        self.gacha: GachaCard | None = None
        self.turn_player = 0  # clarification first-turn-player
        self.turn = 0  # the seat to act
        self.turns = 0  # turns played out
        self.redraws = [0] * n
        self.shown: list[list[str]] = [[] for _ in range(n)]  # shown for redraws: public
        self.rebuilds = 0
        self.spends: list[list[int]] = []
        self.queue: list[int] = []  # rollers still to roll, first to roll first
        self.announced: list[rules.Announcement] = []
        # Notices a roller had face down and took back to hand: unusable for the rest of this
        # spend (clarification placed-notice-after-roll).
        self.held_back: list[frozenset[str]] = [frozenset()] * n
        self.order: list[int] = []  # who acts in turn in the placing and revealing steps
        self.step = 0  # index into ``order``
        self.placing_round = 0
        self.round_changed = False
        self.placed_now: dict[str, int] = {}  # this go's placings and takings, by card id
        self.taken_now: dict[str, int] = {}
        self._setup()

    #: Cards and ids are immutable and shared; the state's lists (of lists) and dicts of them
    #: are copied.
    clone = HiddenHandsState.flat_clone

    # -- setup (seed: "ゲームを遊ぶ前の準備") ----------------------------------------------------
    def _setup(self) -> None:
        self.draw: list[str] = list(self.tables.draw_deck)
        self.shuffle(self.draw)
        self.gacha_deck: list[GachaCard] = list(self.tables.gacha)
        self.shuffle(self.gacha_deck)
        hand = self.model.setup[self.players].hand
        for seat in range(self.players):
            for _ in range(hand):
                self.hands[seat].append(self.draw.pop())
        # Everyone is asked, keep or redraw, from seat 0 (clarification redraw-details).
        self.phase = SETUP
        self.turn = 0

    def cards(self, ids: list[str]) -> list[Card]:
        """The card models of some ids, for the rule functions."""
        return list(map(self.by_id.__getitem__, ids))

    def _may_redraw(self, seat: int) -> bool:
        return self.redraws[seat] < self.model.redraw.times and rules.may_redraw(
            self.model, self.cards(self.hands[seat])
        )

    def _redraw(self) -> None:
        """Show the hand to everyone (clarification redraw-shown), draw as many first, then
        shuffle the shown cards into the deck."""
        seat = self.turn
        shown = self.hands[seat]
        self.redraws[seat] += 1
        self.shown[seat] += shown
        self.hands[seat] = [self.draw.pop() for _ in range(min(len(shown), len(self.draw)))]
        self.draw.extend(shown)
        self.shuffle(self.draw)
        self.event("redraw", seat=seat, shown=list(shown))

    # -- the API -------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        model, cards = self.model, self.cards
        return [
            rules.final_score(model, claimed, cards(hand + placed))
            for claimed, hand, placed in zip(self.claimed, self.hands, self.placed, strict=True)
        ]

    def gacha_points(self) -> list[int]:
        return [sum(g.points for g in claimed) for claimed in self.claimed]

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        return rules.game_winners(self.model, self.scores(), self.gacha_points())

    def rounds_played(self) -> int:
        return self.turns

    def end_condition(self) -> str:
        return self.model.end.when if self.phase == OVER else "unfinished"

    def _legal_actions(self) -> list[Action]:
        phase, seat = self.phase, self.turn
        if phase == PLACE:
            # A card moved on this go is not moved back on the same go (hidden-placement).
            ids = self.hands[seat]
            keys = dict.fromkeys(ids)
            if self.taken_now:
                for card_id, moved in self.taken_now.items():
                    if ids.count(card_id) <= moved:
                        keys.pop(card_id, None)
            actions = list(map(self.place_action.__getitem__, keys))
            ids = self.placed[seat]
            if ids:
                keys = dict.fromkeys(ids)
                if self.placed_now:
                    for card_id, moved in self.placed_now.items():
                        if ids.count(card_id) <= moved:
                            keys.pop(card_id, None)
                actions += map(self.take_action.__getitem__, keys)
            actions.append(DONE)
            return actions
        if phase == ANNOUNCE:
            use = self.use_action
            held = self.held_back[seat]
            actions = [use[c] for c in self.hands[seat] if c in use and c not in held]
            actions.append(PASS)
            return actions
        if phase == REVEAL:
            actions = list(map(self.reveal_action.__getitem__, dict.fromkeys(self.placed[seat])))
            actions.append(DONE)
            return actions
        return [KEEP, REDRAW] if self._may_redraw(seat) else [KEEP]

    def _apply(self, action: Action) -> None:
        phase = self.phase  # the commonest first
        if phase == PLACE:
            if action is DONE:
                self._placing_done()
            else:
                self._move(action)
        elif phase == ANNOUNCE:
            self._announce(action)
        elif phase == REVEAL:
            if action is DONE:
                self.step += 1
                self._next_revealer()
            else:
                self._pick(action)
        else:
            if action is REDRAW:
                self._redraw()
            if action is KEEP or not self._may_redraw(self.turn):
                self.turn += 1
            if self.turn == self.players:
                self._open_gacha()

    # -- 1. gacha open (seed: "1.ガチャオープン") -------------------------------------------------
    def _open_gacha(self) -> None:
        self.gacha = self.gacha_deck.pop()
        self.in_force = []
        self.event("open", turn_player=self.turn_player, gacha=self.gacha.id)
        self._start_placing()

    # -- 2. spending preparation (seed: "2.課金準備"; clarification hidden-placement) -------------
    def _start_placing(self) -> None:
        self.phase = PLACE
        self.spends, self.announced = [], []  # a new spend is coming
        self.order = rules.clockwise_order(self.model, self.players, self.turn_player)
        self.placing_round = 1
        self.round_changed = False
        self.step = 0
        self._next_placer()

    def _next_placer(self) -> None:
        """The next seat in this round that has something to place or take back; a seat with
        neither (public knowledge) is not asked (clarification automatic-steps)."""
        while True:
            while self.step < self.players:
                seat = self.order[self.step]
                if self.hands[seat] or self.placed[seat]:
                    self.turn = seat
                    self.placed_now, self.taken_now = {}, {}
                    return
                self.step += 1
            if rules.placing_over(self.model, self.placing_round, self.round_changed):
                self._start_reveal()
                return
            self.placing_round += 1
            self.round_changed = False
            self.step = 0

    def _move(self, action: Action) -> None:
        seat, card = self.turn, action.target
        if action.verb == "place":
            self.hands[seat].remove(card)
            self.placed[seat].append(card)
            self.placed_now[card] = self.placed_now.get(card, 0) + 1
        else:
            self.placed[seat].remove(card)
            self.hands[seat].append(card)
            self.taken_now[card] = self.taken_now.get(card, 0) + 1

    def _placing_done(self) -> None:
        # Any move changes the round, whatever the cards: the others see a card go down or
        # come back, never which (clarification placing-moves-count).
        if self.placed_now or self.taken_now:
            self.round_changed = True
        self.step += 1
        self._next_placer()

    # -- 3. spending (seed: "3.課金") ------------------------------------------------------------
    def _start_reveal(self) -> None:
        self.phase = REVEAL
        self.step = 0
        self._next_revealer()

    def _next_revealer(self) -> None:
        """The next seat with face-down cards; the picks are revealed once everyone has chosen."""
        while self.step < self.players:
            seat = self.order[self.step]
            if self.placed[seat]:
                self.turn = seat
                return
            self.step += 1
        self._resolve_spend()

    def _pick(self, action: Action) -> None:
        seat, card = self.turn, action.target
        self.placed[seat].remove(card)
        self.revealed[seat].append(card)

    def _resolve_spend(self) -> None:
        model = self.model
        self.held_back = [frozenset()] * self.players  # a new spend: every notice may be used
        self.spends = [rules.spend_of(model, self.cards(r)) for r in self.revealed]
        self.queue = rules.spend_order(model, self.spends, self.turn_player)
        self.event(
            "revealed",
            cards=[list(r) for r in self.revealed],
            spends=[list(s) for s in self.spends],
            order=list(self.queue),
        )
        if self.queue:
            self._start_announcements()
            return
        outcome = rules.spend_outcome(model, self.spends, None)
        assert outcome == "closed", "nobody rolls, yet somebody revealed a card"
        assert self.gacha is not None
        self.removed.append(self.gacha)  # clarification unclaimed-gacha
        self.event("closed", gacha=self.gacha.id)
        self._refill(winner=None)

    # -- 4. announcements (seed: "4.告知", FAQ) ----------------------------------------------------
    def _start_announcements(self) -> None:
        self.phase = ANNOUNCE
        self.announced = []
        self._next_announcer()

    def _next_announcer(self) -> None:
        seat = rules.next_announcer(self.model, self.players, self.turn_player, self.announced)
        if seat is None:
            self._roll()
        else:
            self.turn = seat

    def _announce(self, action: Action) -> None:
        if action is PASS:
            self.announced.append("pass")
        else:
            seat, card = self.turn, action.target
            notice = self.by_id[card]
            assert isinstance(notice, NoticeCard)
            self.hands[seat].remove(card)
            self.used.append(card)  # used notices leave the game
            if notice.effect.kind == "rate":
                self.in_force.append(card)  # clarification notice-rate-duration
            else:
                self.queue = rules.reorder_rollers(self.model, self.queue, notice, seat)
            self.announced.append("use")
            self.event("notice", seat=seat, card=card, queue=list(self.queue))
        self._next_announcer()

    # -- 5. the roll (seed: "5.ガチャ") -----------------------------------------------------------
    def _roll(self) -> None:
        model, gacha = self.model, self.gacha
        assert gacha is not None
        roller = self.queue.pop(0)
        cards = self.cards
        rate = rules.total_rate(model, gacha, cards(self.revealed[roller]), cards(self.in_force))
        face = self.rng.randrange(model.die.faces)
        hit = rules.gacha_hit(model, rate, face)
        self.event("roll", seat=roller, face=face, rate=rate, hit=hit)
        # The roller's unrevealed cards go back to hand, the revealed ones to the discard.
        self.held_back[roller] = self.tables.notices.intersection(self.placed[roller])
        self.hands[roller].extend(self.placed[roller])
        self.placed[roller] = []
        self.discard.extend(self.revealed[roller])
        self.revealed[roller] = []
        if not hit and self.queue:
            self._start_announcements()  # FAQ: notices again before the next roll
            return
        outcome = rules.spend_outcome(model, self.spends, roller if hit else None)
        if outcome == "won":
            self.claimed[roller].append(gacha)
            self._refill(winner=roller)
        else:  # everyone who rolled missed
            self._restart()

    def _restart(self) -> None:
        """Everyone missed: face-down cards back to hand, and place again for the same gacha
        (clarification restart-cleanup)."""
        for seat in range(self.players):
            self.hands[seat].extend(self.placed[seat])
            self.placed[seat] = []
            assert not self.revealed[seat]  # every seat that revealed a card has rolled
        self.event("restart")
        self._start_placing()

    # -- 6. refill (seed: "6.iTuned補充", "ゲームの終了") ------------------------------------------
    def _refill(self, winner: int | None) -> None:
        model, players = self.model, self.players
        for seat in range(players):
            self.hands[seat].extend(self.placed[seat])
            self.placed[seat] = []
            self.discard.extend(self.revealed[seat])  # clarification revealed-cards-fate
            self.revealed[seat] = []
        self.gacha = None
        self.in_force = []
        self.queue = []
        self.turns += 1
        over = rules.game_over(model, len(self.gacha_deck))
        if not over or model.end.final_refill:
            for seat in rules.draw_order(model, players, self.turn_player):
                for _ in range(model.refill.draw):
                    card = self._draw_one()
                    if card is not None:  # clarification empty-draw-deck
                        self.hands[seat].append(card)
        if over:
            self.phase = OVER
            self.event(
                "end",
                claimed=[_ids(c) for c in self.claimed],
                hands=[list(h) for h in self.hands],
                scores=self.scores(),
            )
            return
        self.turn_player = rules.next_turn_player(model, players, self.turn_player, winner)
        self._open_gacha()

    def _draw_one(self) -> str | None:
        if not self.draw:
            pool = rules.reshuffle_pool(self.model, self.cards(self.discard))
            if not pool:
                return None
            wanted: dict[str, int] = {}
            for card_id in pool:
                wanted[card_id] = wanted.get(card_id, 0) + 1
            keep: list[str] = []
            for card in self.discard:
                if wanted.get(card, 0):
                    wanted[card] -= 1
                    self.draw.append(card)
                else:
                    keep.append(card)
            self.discard = keep
            self.shuffle(self.draw)
            self.rebuilds += 1
            self.event("rebuild", cards=len(self.draw))
        return self.draw.pop()

    # -- what a seat may see (clarification public-information) --------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        picking = self.phase == REVEAL
        return {
            "phase": self.phase,
            "seat": player,
            "to_play": self.current_player,
            "turn_player": self.turn_player,
            "turns": self.turns,
            "gacha": None if self.gacha is None else self.gacha.id,
            "gacha_left": len(self.gacha_deck),
            "draw_size": len(self.draw),
            "hand": list(self.hands[player]),
            "placed": list(self.placed[player]),
            "hand_sizes": [len(h) for h in self.hands],
            "shown": [list(cards) for cards in self.shown],  # hands shown for a redraw
            # Face-down piles: a secret pick still counts as face down until the reveal.
            "placed_counts": [
                len(p) + len(r) if picking else len(p)
                for p, r in zip(self.placed, self.revealed, strict=True)
            ],
            "placing_round": self.placing_round,
            "round_changed": self.round_changed,
            # Picks stay secret until everyone has chosen; then they are face up.
            "revealed": face_down_view(map(list, self.revealed), player, not picking),
            "spends": [list(s) for s in self.spends] if not picking else None,
            "queue": list(self.queue),
            "held_back": sorted(self.held_back[player]),
            "in_force": list(self.in_force),
            "announced": list(self.announced),
            "used": list(self.used),
            "discard": list(self.discard),
            "claimed": [_ids(c) for c in self.claimed],
            "removed": _ids(self.removed),
            "may_redraw": self.phase == SETUP and self.turn == player and self._may_redraw(player),
        }

    def unseen_places(self, player: int) -> list[list[list[Any]]]:
        """The decks, others' hands and face-down cards, others' secret picks."""
        others = [seat for seat in range(self.players) if seat != player]
        face_down = [self.placed[s] for s in others]
        if self.phase == REVEAL:  # secret picks still count as face down
            face_down += [self.revealed[s] for s in others]
        return [[self.draw, *(self.hands[s] for s in others), *face_down], [self.gacha_deck]]

    def seen_places(self, player: int) -> list[Iterable[Any]]:
        """Everything face up, the player's own cards, the hands shown for a redraw."""
        picking = self.phase == REVEAL
        return [
            self.hands[player],
            self.placed[player],
            self.discard,
            self.used,
            self.removed,
            *self.shown,
            *self.claimed,
            *(r for seat, r in enumerate(self.revealed) if not picking or seat == player),
            [self.gacha],
        ]

    def snapshot(self) -> Any:
        ids = card_ids
        return (
            self.phase,
            self.turn,
            self.turn_player,
            self.turns,
            None if self.gacha is None else self.gacha.id,
            tuple(self.draw),
            ids(self.gacha_deck),
            tuple(map(tuple, self.hands)),
            tuple(map(tuple, self.placed)),
            tuple(map(tuple, self.revealed)),
            tuple(ids(c) for c in self.claimed),
            tuple(self.discard),
            tuple(self.used),
            ids(self.removed),
            tuple(self.in_force),
            tuple(self.redraws),
            tuple(tuple(cards) for cards in self.shown),
            self.rebuilds,
            tuple(tuple(s) for s in self.spends),
            tuple(self.queue),
            tuple(self.announced),
            tuple(tuple(sorted(h)) for h in self.held_back),
            tuple(self.order),
            self.step,
            self.placing_round,
            self.round_changed,
            tuple(sorted(self.placed_now.items())),
            tuple(sorted(self.taken_now.items())),
            self.rng.getstate(),
        )

    def check_invariants(self) -> None:
        """Every card is in exactly one place; the gacha cards are in their deck, open, claimed
        or removed (each exactly once); used notices are notices, used once; the rebuilt deck
        holds iTuned cards only; the phases hold what they should."""
        tables = self.tables
        open_gacha = [] if self.gacha is None else [self.gacha]
        gacha_places = [*chain(self.gacha_deck, open_gacha, self.removed, *self.claimed)]
        counts = Counter(
            chain(self.draw, *self.hands, *self.placed, *self.revealed, self.discard, self.used)
        )
        gacha_ids = set(map(_ID, gacha_places))
        assert len(gacha_ids) == len(gacha_places) == len(tables.gacha_ids), "gacha cards lost"
        assert gacha_ids == tables.gacha_ids, "a gacha card strayed"
        assert dict.__eq__(counts, tables.hand_counts), "a card was created or lost"
        used = set(self.used)
        assert len(used) == len(self.used) and used <= tables.notices, "notices used twice"
        assert set(self.in_force) <= used, "a rate notice in force was never used"
        if self.rebuilds:
            assert set(self.draw) <= tables.ituned, "a discarded notice came back"
        phase = self.phase
        in_turn = phase in (PLACE, REVEAL, ANNOUNCE)
        assert (self.gacha is not None) == in_turn, "a gacha is open exactly during a turn"
        assert self.turns == len(self.removed) + sum(map(len, self.claimed)), "a turn lost"
        if phase == OVER:
            assert not self.gacha_deck, "the game ended with gacha cards to open"
            assert not any(self.placed), "face-down cards left at the end"
        if phase == ANNOUNCE:
            assert self.queue, "announcements with nobody to roll"
            assert all(self.revealed[s] for s in self.queue), "a roller with nothing revealed"
        elif phase != REVEAL:
            assert not any(self.revealed), "revealed cards outside the spending"

"""GOTCHA!'s engine: scripted situations worked out by hand, and the random harness.

Scripted tests arrange the cards (``deal``) and script the d10 (``Dice``: the engine takes every
face from ``state.rng``, so a scripted generator decides every roll; its shuffles change
nothing). Seats: the seed's announcement example has A, B, C, D as seats 0-3; its seating example
(A B sitting opposite C D) goes clockwise A, B, D, C, so A=0, B=1, D=2, C=3.
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import chain
from typing import Any

import pytest

from gachapress.engine import Action, IllegalAction, load_game
from gachapress.engine.contract.checks import check_observations, observation_strings
from gachapress.engine.play import play_game
from gachapress.games.gotcha import rules
from gachapress.games.gotcha.bots import GreedyBot
from gachapress.games.gotcha.engine import GotchaState
from gachapress.games.gotcha.model import NoticeCard
from gachapress.sim import SimSpec, run_sim
from tests.harness import Tally, games_per_count, simulate

GAME = load_game("gotcha")
CARDS = GAME.model.cards()
GACHA_IDS = [c.id for c in GAME.model.decks.gacha.cards]


class Dice:
    """A scripted random generator: ``randrange`` gives the scripted d10 faces in turn, and
    ``shuffle`` leaves a deck as it is (``use`` puts both in a state)."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randrange(self, n: int) -> int:
        assert n == 10, "only the d10 is rolled during play"
        return self.faces.pop(0)

    def shuffle(self, cards: list[Any]) -> None:
        pass

    def getstate(self) -> tuple[int, ...]:
        return tuple(self.faces)

    def use(self, state: GotchaState) -> None:
        """Roll and shuffle for ``state`` from now on."""
        state.rng = self  # type: ignore[assignment]
        state.shuffle = self.shuffle  # type: ignore[method-assign]


def started(players: int, seed: int = 1) -> GotchaState:
    """A new game past the keep-or-redraw step (every seat keeps)."""
    state = GAME.new_game(players=players, seed=seed)
    assert isinstance(state, GotchaState)
    for _ in range(players):
        state.apply("keep")
    assert state.phase == "place"
    return state


def deal(
    state: GotchaState,
    hands: list[str],
    *,
    gacha: str,
    turn_player: int = 0,
    gacha_deck: str = "",
    claimed: list[str] | None = None,
    removed: str = "",
    draw_top: str = "",
    draw_rest: bool = True,
    discard: str = "",
    dice: Dice | None = None,
) -> GotchaState:
    """Lay the cards out as a test wants them and start placing for ``gacha``.

    Hands, the discard and ``draw_top`` list ids separated by spaces (``draw_top`` and
    ``gacha_deck`` top card first). Every other iTuned or notice card goes below ``draw_top``
    (or, with ``draw_rest=False``, to the discard), every other gacha card to the bottom of the
    gacha deck.
    """
    pool = list(state.tables.draw_deck)

    def take(text: str) -> list[str]:
        cards = text.split()
        for card in cards:
            pool.remove(card)
        return cards

    state.hands = [take(hand) for hand in hands]
    state.placed = [[] for _ in hands]
    state.revealed = [[] for _ in hands]
    state.discard = take(discard)
    top = take(draw_top)
    if draw_rest:
        state.draw = [*pool, *reversed(top)]
    else:
        state.draw, state.discard = list(reversed(top)), [*state.discard, *pool]
    claimed = claimed or [""] * len(hands)
    state.claimed = [[CARDS[i] for i in text.split()] for text in claimed]
    state.removed = [CARDS[i] for i in removed.split()]
    listed = {gacha, *gacha_deck.split(), *removed.split(), *" ".join(claimed).split()}
    rest = [CARDS[i] for i in GACHA_IDS if i not in listed]
    state.gacha_deck = [*rest, *reversed([CARDS[i] for i in gacha_deck.split()])]
    state.gacha = CARDS[gacha]  # type: ignore[assignment]
    state.in_force, state.used = [], []
    state.turns = len(state.removed) + sum(map(len, state.claimed))
    state.turn_player = turn_player
    if dice is not None:
        dice.use(state)
    state._start_placing()
    state._legal = None
    state.check_invariants()
    return state


def legal(state: GotchaState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def play(state: GotchaState, *actions: str) -> None:
    for action in actions:
        state.apply(action)
        state.check_invariants()


def ids(cards: list[Any]) -> list[str]:
    return [c.id for c in cards]


def events(state: GotchaState, kind: str) -> list[dict[str, Any]]:
    return [e for e in state.log if e.get("event") == kind]


# -- setup --------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup_deals_seven_and_asks_everyone_keep_or_redraw(players: int) -> None:
    state = GAME.new_game(players=players, seed=2)
    assert isinstance(state, GotchaState)
    assert [len(h) for h in state.hands] == [7] * players
    assert len(state.draw) == 60 - 7 * players and len(state.gacha_deck) == 12
    for seat in range(players):
        assert state.current_player == seat and state.phase == "setup"
        state.apply("keep")
    # Seat 0 is the first turn player; it opens the top gacha card (clarification
    # first-turn-player), then placing starts with it.
    assert state.phase == "place" and state.turn_player == 0 and state.current_player == 0
    assert state.gacha is not None and len(state.gacha_deck) == 11
    assert events(state, "open") == [{"event": "open", "turn_player": 0, "gacha": state.gacha.id}]


def test_players_outside_the_game_are_refused() -> None:
    for players in (2, 6):
        with pytest.raises(ValueError, match="3, 4, 5 players"):
            GAME.new_game(players=players, seed=1)


def test_an_all_notice_hand_may_be_redrawn_once() -> None:
    state = GAME.new_game(players=3, seed=3)
    assert isinstance(state, GotchaState)
    notices = "notice-pickup notice-rate-up notice-anniversary notice-rate-correction "
    notices += "notice-bug-fix notice-rate-review notice-priority-access"
    top = "ituned-1500 ituned-3000 ituned-5000 ituned-10000 notice-vip ituned-1500-lucky "
    top += "ituned-3000-lucky"
    pool = list(state.tables.draw_deck)
    hands = [["ituned-1500"] * 7, notices.split(), ["ituned-3000"] * 7]
    for hand in hands:
        for card_id in hand:
            pool.remove(card_id)
    for card_id in top.split():
        pool.remove(card_id)
    state.hands = [list(hand) for hand in hands]
    state.draw = [*pool, *reversed(top.split())]
    Dice().use(state)
    state._legal = None
    state.check_invariants()
    assert legal(state) == ["keep"]  # seat 0 holds iTuned cards
    play(state, "keep")
    assert legal(state) == ["keep", "redraw"]
    play(state, "redraw")
    # The same number drawn first (the seven top cards), then the shown cards shuffled in.
    assert state.hands[1] == top.split()
    assert len(state.draw) == 60 - 21 and set(notices.split()) <= set(state.draw)
    assert events(state, "redraw") == [{"event": "redraw", "seat": 1, "shown": notices.split()}]
    # The shown hand is a public reveal (clarification redraw-shown): every seat sees it, in
    # its observation and in its view of the log, also once the cards are back in the deck.
    for seat in range(3):
        assert state.observation(seat)["shown"] == [[], notices.split(), []]
        seen = [e for e in state.log_view(seat) if e.get("event") == "redraw"]
        assert seen == [{"event": "redraw", "seat": 1, "shown": notices.split()}]
    check_observations(state)
    assert state.current_player == 2 and legal(state) == ["keep"]  # once per player
    play(state, "keep")
    assert state.phase == "place"
    assert state.observation(0)["shown"] == [[], notices.split(), []]


# -- spending preparation: rounds of hidden placing ---------------------------------------------
def test_placing_rounds_moves_counts_and_no_round_limit_in_play() -> None:
    state = deal(
        started(3),
        ["ituned-1500 ituned-1500 ituned-5000", "ituned-3000", "ituned-10000"],
        gacha="gacha-06",
    )
    assert state.current_player == 0 and state.placing_round == 1
    assert legal(state) == ["done", "adjust"]  # a go opens: no change, or adjust
    play(state, "adjust")
    assert legal(state) == ["place ituned-1500", "place ituned-5000", "done"]
    play(state, "place ituned-1500")
    # The placed 1500 may not come back on this go; the other copy may still go down.
    assert legal(state) == ["place ituned-1500", "place ituned-5000", "done"]
    play(state, "place ituned-1500", "place ituned-5000")
    assert legal(state) == ["done"]
    seen = state.observation(1)
    assert seen["placed_counts"] == [3, 0, 0] and seen["hand_sizes"] == [0, 1, 1]
    assert "ituned-5000" not in set(observation_strings(seen))  # only the count is public
    assert state.observation(0)["placed"] == ["ituned-1500", "ituned-1500", "ituned-5000"]
    play(state, "done", "adjust", "place ituned-3000", "done", "done")
    # Round 1 changed something: round 2, again from the turn player.
    assert state.placing_round == 2 and state.current_player == 0
    play(state, "adjust")
    assert legal(state) == ["take ituned-1500", "take ituned-5000", "done"]
    play(state, "take ituned-5000")
    assert legal(state) == ["take ituned-1500", "done"]  # 5000 cannot go back down now
    play(state, "done", "done", "adjust", "place ituned-10000", "done")
    # Seed, 2.課金準備: placing goes on while anyone changes, past any fixed number of rounds.
    for round_ in range(3, 13):  # Player 3 takes the 10000 back, then puts it down again...
        assert state.placing_round == round_ and state.phase == "place"
        assert state.current_player == 0 and legal(state) == ["done", "adjust"]  # a new go
        move = "take" if round_ % 2 else "place"
        play(state, "done", "done", "adjust", f"{move} ituned-10000", "done")
    assert state.placing_round == 13 and state.phase == "place"
    play(state, "done", "done", "done")  # everyone says no change: spending begins
    assert state.phase == "reveal" and state.current_player == 0
    assert [len(p) for p in state.placed] == [2, 1, 1]
    assert state.rare_events() == {"placing-limit": False}


def test_safety_valve_after_the_limit_of_placing_rounds() -> None:
    # Clarification placing-limit: only after spending.placing_round_limit rounds with changes.
    state = deal(started(3), ["ituned-1500 ituned-3000", "", ""], gacha="gacha-06")
    state.placing_round = GAME.model.spending.placing_round_limit - 1  # so many rounds so far
    play(state, "adjust", "place ituned-1500", "done")
    assert state.placing_round == GAME.model.spending.placing_round_limit
    assert state.phase == "place" and state.rare_events() == {"placing-limit": False}
    play(state, "adjust", "place ituned-3000", "done")  # a change, but the limit is reached
    assert state.phase == "reveal" and state.rare_events() == {"placing-limit": True}


@pytest.mark.parametrize(("players", "bots"), [(3, "random"), (5, "random"), (4, "greedy")])
def test_simulated_play_never_reaches_the_placing_limit(players: int, bots: str) -> None:
    spec = SimSpec(game="gotcha", players=players, games=300, seed=21, bots=(bots,))
    assert run_sim(spec).report()["rare_events"] == {"placing-limit": 0}  # placing-limit


def test_placing_ends_after_a_round_without_changes() -> None:
    state = deal(started(3), ["ituned-1500", "ituned-3000", "ituned-10000"], gacha="gacha-06")
    play(state, "adjust", "place ituned-1500", "done", "done", "done")
    assert state.placing_round == 2
    play(state, "done", "done", "done")
    assert state.phase == "reveal" and state.placing_round == 2


@pytest.mark.parametrize("hand", ["ituned-1500 ituned-1500", "ituned-1500 ituned-3000"])
def test_a_swap_of_face_down_cards_changes_the_round_whatever_the_cards(hand: str) -> None:
    # Clarification placing-moves-count: the others see a card go down and one come back,
    # not which, so swapping for an identical card and for another one count the same.
    state = deal(started(3), [hand, "", ""], gacha="gacha-06")
    play(state, "adjust", "place ituned-1500", "done")
    assert state.placing_round == 2
    second = hand.split()[1]
    play(state, "adjust", f"place {second}", "take ituned-1500", "done")
    assert state.placing_round == 3 and state.phase == "place"
    assert state.observation(1)["round_changed"] is False  # a new round has begun


def test_taking_back_what_was_placed_on_the_same_go_is_refused() -> None:
    state = deal(started(3), ["ituned-1500 ituned-3000", "", ""], gacha="gacha-06")
    play(state, "adjust", "place ituned-1500")
    before = state.snapshot()
    with pytest.raises(IllegalAction):
        state.apply("take ituned-1500")
    assert state.snapshot() == before


# -- spending: secret picks revealed together ----------------------------------------------------
def test_picks_are_secret_until_everyone_has_chosen() -> None:
    state = deal(
        started(3), ["ituned-1500 ituned-5000", "ituned-3000", "ituned-10000"], gacha="gacha-06"
    )
    play(
        state,
        "adjust",
        "place ituned-1500",
        "place ituned-5000",
        "done",
        "adjust",
        "place ituned-3000",
        "done",
    )
    play(state, "done", "done", "done", "done")  # seat 2 placed nothing; round 2 unchanged
    assert state.phase == "reveal" and state.current_player == 0
    assert legal(state) == ["reveal ituned-1500", "reveal ituned-5000", "done"]
    play(state, "reveal ituned-5000", "done")
    seen = state.observation(1)
    assert seen["revealed"] == [None, [], None]
    assert seen["placed_counts"] == [2, 1, 0]  # a pick still counts as face down
    assert "ituned-5000" not in set(observation_strings(seen))
    assert "ituned-5000" in state.hidden_from(1)
    play(state, "reveal ituned-3000", "done")  # seat 2 has nothing face down: not asked
    assert events(state, "revealed") == [
        {
            "event": "revealed",
            "cards": [["ituned-5000"], ["ituned-3000"], []],
            "spends": [[5000, 1], [3000, 1], [0, 0]],
            "order": [0, 1],
        }
    ]
    assert state.phase == "announce" and state.observation(2)["revealed"][0] == ["ituned-5000"]


def test_spend_order_ties_fewer_cards_then_clockwise_from_the_turn_player() -> None:
    state = deal(
        started(4),
        ["ituned-3000", "ituned-1500 ituned-1500-lucky", "ituned-1500", "ituned-1500"],
        gacha="gacha-06",
        turn_player=3,
    )
    # Placing goes 3, 0, 1, 2; each places everything, then a round without changes.
    play(state, "adjust", "place ituned-1500", "done", "adjust", "place ituned-3000", "done")
    play(state, "adjust", "place ituned-1500", "place ituned-1500-lucky", "done")
    play(state, "adjust", "place ituned-1500", "done", "done", "done", "done", "done")
    play(state, "reveal ituned-1500", "done", "reveal ituned-3000", "done")
    play(state, "reveal ituned-1500", "reveal ituned-1500-lucky", "done")
    play(state, "reveal ituned-1500", "done")
    # Seat 0: 3000 with one card, before seat 1: 3000 with two. Seats 2 and 3 tie at 1500 with
    # one card: clockwise from the turn player, seat 3 comes before seat 2.
    assert state.queue == [0, 1, 3, 2]


# -- announcements and the roll -------------------------------------------------------------------
def test_the_seeds_announcement_example_and_a_30_percent_roll() -> None:
    dice = Dice(3)
    state = deal(
        started(4),
        [
            "ituned-1500 notice-rate-correction",  # A
            "ituned-3000 notice-pickup notice-vip",  # B
            "ituned-5000",  # C
            "notice-apology notice-rate-review",  # D
        ],
        gacha="gacha-11",  # rate 20%, 15000 points
        draw_top="ituned-10000 ituned-1500 ituned-3000 ituned-5000",
        dice=dice,
    )
    play(state, "adjust", "place ituned-1500", "done", "adjust", "place ituned-3000", "done")
    play(state, "adjust", "place ituned-5000", "done", "adjust", "place notice-rate-review", "done")
    play(state, "done", "done", "done", "done")
    play(state, "reveal ituned-1500", "done", "reveal ituned-3000", "done")
    play(state, "reveal ituned-5000", "done", "done")  # D reveals nothing: D does not roll
    assert state.queue == [2, 1, 0]  # C 5000, B 3000, A 1500
    order = []

    def choose(action: str) -> None:
        order.append(state.current_player)
        play(state, action)

    # A: pass. B: uses VIP Privilege (B rolls next). C: pass. D: pass.
    assert legal(state) == ["use notice-rate-correction", "pass"]
    choose("pass")
    choose("use notice-vip")
    assert state.queue == [1, 2, 0]
    choose("pass")
    # D's face-down notice cannot be used; only the one in hand.
    assert legal(state) == ["use notice-apology", "pass"]
    choose("pass")
    # Back to A, who may use a notice although A passed before.
    assert state.current_player == 0 and "use notice-rate-correction" in legal(state)
    choose("pass")
    # B may use another notice (a used one is gone for good).
    assert legal(state) == ["use notice-pickup", "pass"]
    choose("use notice-pickup")
    choose("pass")  # C
    choose("pass")  # D
    choose("pass")  # A
    assert state.phase == "announce"  # only three passes since B's notice
    choose("pass")  # B: four passes in a row, the announcements are over
    assert order == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]
    assert state.used == ["notice-vip", "notice-pickup"]
    # B rolls: 20% + 0 (plain iTuned) + 10% (Pick-up) = 30%; a 3 is 30, not above: B wins.
    assert events(state, "roll") == [
        {"event": "roll", "seat": 1, "face": 3, "rate": 30, "hit": True}
    ]
    assert ids(state.claimed[1]) == ["gacha-11"] and dice.faces == []
    # Refill: A's and C's revealed cards (they never rolled) and B's go to the discard; D's
    # face-down notice goes back to hand; then A, B, C, D each draw one from the top.
    assert sorted(state.discard) == ["ituned-1500", "ituned-3000", "ituned-5000"]
    assert state.hands[0] == ["notice-rate-correction", "ituned-10000"]
    assert state.hands[1] == ["ituned-1500"]
    assert state.hands[2] == ["ituned-3000"]
    assert state.hands[3] == ["notice-apology", "notice-rate-review", "ituned-5000"]
    # The player on the winner's left is the next turn player: C (seat 2).
    assert state.turn_player == 2 and state.phase == "place" and state.in_force == []


def test_misses_announce_again_then_everyone_missed_starts_over() -> None:
    dice = Dice(2, 5, 4, 1)
    state = deal(
        started(3),
        [
            "ituned-10000 ituned-1500",
            "ituned-1500-lucky notice-anniversary",
            "notice-bug-fix ituned-3000",
        ],
        gacha="gacha-12",  # rate 10%, 20000 points
        turn_player=1,
        dice=dice,
    )
    # Placing goes 1, 2, 0.
    play(
        state, "adjust", "place ituned-1500-lucky", "done", "adjust", "place notice-bug-fix", "done"
    )
    play(state, "adjust", "place ituned-10000", "place ituned-1500", "done")
    play(state, "done", "done", "adjust", "take ituned-1500", "done")
    play(state, "done", "done", "done")
    play(state, "reveal ituned-1500-lucky", "done", "reveal notice-bug-fix", "done")
    play(state, "reveal ituned-10000", "done")
    # Seat 0 10000, seat 1 1500, seat 2 a notice only: 0 yen, but a card revealed.
    assert state.queue == [0, 1, 2] and state.current_player == 1
    play(state, "pass", "pass", "pass")
    # Seat 0 rolls 10%: a 2 (20) misses. Its revealed card is discarded at once.
    assert state.phase == "announce" and state.discard == ["ituned-10000"]
    # FAQ: notices may be used again before the next roll.
    assert state.current_player == 1
    play(state, "use notice-anniversary", "pass", "pass", "pass")
    # Seat 1: 10% + 10% (its Lucky Design) + 20% (Anniversary) = 40%; a 5 (50) misses.
    play(state, "pass", "pass", "pass")
    # Seat 2: 10% + 20% = 30%: its revealed Bug Fix notice does nothing. A 4 (40) misses.
    rolls = [(e["seat"], e["face"], e["rate"], e["hit"]) for e in events(state, "roll")]
    assert rolls == [(0, 2, 10, False), (1, 5, 40, False), (2, 4, 30, False)]
    # Everyone missed: back to placing for the same gacha and turn player; cards left face
    # down go back to hand, and the Anniversary notice stays in force.
    assert len(events(state, "restart")) == 1
    assert state.phase == "place" and state.gacha is not None and state.gacha.id == "gacha-12"
    assert (
        state.turn_player == 1
        and state.placing_round == 1
        and state.in_force == ["notice-anniversary"]
    )
    assert state.hands == [["ituned-1500"], [], ["ituned-3000"]]
    # Seat 1 has no card at all: it is not asked; seat 2 goes first.
    assert state.current_player == 2
    play(state, "adjust", "place ituned-3000", "done", "done", "done", "done")
    play(state, "reveal ituned-3000", "done")  # seat 0 has nothing face down
    play(state, "pass", "pass", "pass")
    # Seat 2: 10% + 20% = 30%; a 1 (10) wins the Star Goddess.
    last = events(state, "roll")[-1]
    assert (last["seat"], last["face"], last["rate"], last["hit"]) == (2, 1, 30, True)
    assert ids(state.claimed[2]) == ["gacha-12"] and dice.faces == []
    assert state.turn_player == 0  # left of the winner, seat 2


def test_order_notices_move_the_waiting_rollers() -> None:
    dice = Dice(9, 0, 8)
    state = deal(
        started(4),
        [
            "ituned-5000",
            "notice-queue-glitch",
            "ituned-10000 notice-emergency-maintenance",
            "ituned-3000 notice-apology",
        ],
        gacha="gacha-01",  # rate 80%
        dice=dice,
    )
    play(
        state, "adjust", "place ituned-5000", "done", "done", "adjust", "place ituned-10000", "done"
    )
    play(state, "adjust", "place ituned-3000", "done", "done", "done", "done", "done")
    play(state, "reveal ituned-5000", "done", "reveal ituned-10000", "done")
    play(state, "reveal ituned-3000", "done")
    assert state.queue == [2, 0, 3]
    play(state, "pass", "use notice-queue-glitch")  # seat 1 does not roll, but may announce
    assert state.queue == [3, 0, 2]
    play(state, "use notice-emergency-maintenance")  # seat 3, due next, to the back
    assert state.queue == [0, 2, 3]
    play(state, "use notice-apology")  # seat 3, the last, rolls next
    assert state.queue == [3, 0, 2]
    play(state, "pass", "pass", "pass", "pass")
    # Seat 3 rolls 80%: a 9 (90) misses. All pass; seat 0: a 0 counts as 10 (100), a miss.
    play(state, "pass", "pass", "pass", "pass")
    assert state.phase == "announce" and state.queue == [2]
    play(state, "pass", "pass", "pass", "pass")
    # All pass again; seat 2: an 8 (80) is not above 80: a hit.
    rolls = [(e["seat"], e["face"], e["hit"]) for e in events(state, "roll")]
    assert rolls == [(3, 9, False), (0, 0, False), (2, 8, True)]
    assert state.turn_player == 3 and dice.faces == []


def test_a_rate_of_100_or_more_hits_even_on_a_0() -> None:
    dice = Dice(0)
    state = deal(
        started(3),
        ["ituned-1500-lucky notice-pickup", "", ""],
        gacha="gacha-01",  # rate 80%
        dice=dice,
    )
    play(
        state,
        "adjust",
        "place ituned-1500-lucky",
        "done",
        "done",
        "reveal ituned-1500-lucky",
        "done",
    )
    play(state, "use notice-pickup", "pass", "pass", "pass")
    # 80% + 10% + 10% = 100%: the 0 face, read as 10 (100), still wins.
    assert events(state, "roll") == [
        {"event": "roll", "seat": 0, "face": 0, "rate": 100, "hit": True}
    ]


# -- the seed's seating example and the refill ----------------------------------------------------
def test_seating_when_d_wins_c_is_the_next_turn_player() -> None:
    # A B over C D: A=0, B=1, D=2, C=3. A is turn player; D is the only one to spend and wins.
    state = deal(started(4), ["", "", "ituned-1500", ""], gacha="gacha-05", dice=Dice(1))
    play(state, "adjust", "place ituned-1500", "done", "done", "reveal ituned-1500", "done")
    play(state, "pass", "pass", "pass", "pass")
    assert ids(state.claimed[2]) == ["gacha-05"]
    assert state.turn_player == 3  # C, on D's left


def test_seating_when_b_is_turn_player_and_nobody_wins_d_is_next() -> None:
    # B (seat 1) is turn player; nobody reveals a card, so the gacha closes unclaimed.
    state = deal(
        started(4),
        ["ituned-1500", "ituned-3000", "ituned-5000", "ituned-10000"],
        gacha="gacha-05",
        gacha_deck="gacha-07",
        turn_player=1,
        draw_top="ituned-10000 ituned-5000 ituned-3000 ituned-1500",
        dice=Dice(),
    )
    play(state, "done", "done", "done", "done")  # placing goes B, D, C, A
    assert [e["event"] for e in state.log[-3:]] == ["revealed", "closed", "open"]
    assert ids(state.removed) == ["gacha-05"] and not any(state.claimed)
    assert events(state, "notice") == [] and events(state, "roll") == []  # no announcements
    # Refill from the turn player B clockwise: B, D, C, A each draw the next top card.
    assert [h[-1] for h in state.hands] == [
        "ituned-1500",
        "ituned-10000",
        "ituned-5000",
        "ituned-3000",
    ]
    assert state.turn_player == 2  # D, next clockwise from B
    assert state.gacha is not None and state.gacha.id == "gacha-07"
    assert events(state, "open")[-1] == {"event": "open", "turn_player": 2, "gacha": "gacha-07"}


def test_an_empty_draw_deck_is_rebuilt_from_discarded_ituned_only() -> None:
    state = deal(
        started(3),
        ["", "", ""],
        gacha="gacha-05",
        draw_top="ituned-5000",
        draw_rest=False,  # everything else is in the discard
        dice=Dice(),
    )
    # The deck held one card, the 5000; the 47 other iTuned cards and the 12 notices were in
    # the discard. Nobody has a card: the gacha closes at once, and the refill draws: seat 0
    # takes the 5000, then the deck is rebuilt from the discarded iTuned cards for seats 1, 2.
    assert ids(state.removed) == ["gacha-05"]
    assert state.hands[0] == ["ituned-5000"]
    assert len(events(state, "rebuild")) == 1 and events(state, "rebuild")[0]["cards"] == 47
    assert len(state.draw) == 45 and all(c.startswith("ituned-") for c in state.draw)
    assert len(state.discard) == 12 and all(c.startswith("notice-") for c in state.discard)


def test_with_no_deck_and_no_discarded_ituned_nobody_draws() -> None:
    state = started(3)
    everything = list(state.tables.draw_deck)
    notices = [c for c in everything if c.startswith("notice-")]
    ituned = [c for c in everything if not c.startswith("notice-")]
    state.hands = [ituned[:16], ituned[16:32], ituned[32:]]
    state.placed, state.revealed = [[], [], []], [[], [], []]
    state.draw, state.discard = [], notices
    Dice().use(state)
    state._start_placing()
    state._legal = None
    state.check_invariants()
    before = [len(h) for h in state.hands]
    play(state, "done", "done", "done")  # nobody places: the gacha closes
    assert [len(h) for h in state.hands] == before and state.draw == []
    assert events(state, "rebuild") == []


# -- the end ---------------------------------------------------------------------------------------
def test_the_last_gacha_is_played_out_without_a_refill_and_scored() -> None:
    state = deal(
        started(3),
        [
            "ituned-3000 notice-vip",
            "ituned-5000 ituned-1500-lucky ituned-10000",
            "ituned-10000 ituned-10000 ituned-3000",
        ],
        gacha="gacha-12",
        claimed=["gacha-10", "gacha-06 gacha-01", "gacha-02"],
        removed="gacha-03 gacha-04 gacha-05 gacha-07 gacha-08 gacha-09 gacha-11",
        turn_player=2,
        dice=Dice(2),
    )
    draw_before = len(state.draw)
    assert state.gacha_deck == [] and state.turns == 11
    play(state, "done", "done", "adjust", "place ituned-1500-lucky", "done")  # placing goes 2, 0, 1
    play(state, "done", "done", "done")
    play(state, "reveal ituned-1500-lucky", "done")
    play(state, "pass", "pass", "pass")
    # Seat 1: 10% + 10% = 20%; a 2 (20) wins.
    assert state.is_terminal() and state.current_player is None and legal(state) == []
    assert len(state.draw) == draw_before  # no refill at the end
    # Seat 0: 13000 + 3000/2 = 14500 (the notice scores nothing).
    # Seat 1: 6000 + 2500 + 20000 + (5000 + 10000)/2 = 36000.
    # Seat 2: 2500 + (10000 + 10000 + 3000)/2 = 14000.
    assert state.scores() == [14500, 36000, 14000] and state.winners() == [1]
    assert state.end_condition() == "gacha-deck-empty" and state.rounds_played() == 12
    assert events(state, "end")[0]["scores"] == [14500, 36000, 14000]


def test_a_tie_goes_to_more_gacha_points() -> None:
    state = deal(
        started(3),
        ["ituned-1500", "ituned-3000", "ituned-10000 ituned-5000"],
        gacha="gacha-12",
        claimed=["gacha-04", "gacha-06 gacha-01", "gacha-02"],
        removed="gacha-03 gacha-05 gacha-07 gacha-08 gacha-09 gacha-10 gacha-11",
        dice=Dice(),
    )
    play(state, "done", "done", "done")  # nobody spends on the last gacha: it is removed
    assert state.is_terminal() and ids(state.removed)[-1] == "gacha-12"
    # Seat 0: 3500 + 750 = 4250. Seat 1: 8500 + 1500 = 10000. Seat 2: 2500 + 7500 = 10000.
    assert state.scores() == [4250, 10000, 10000]
    assert state.winners() == [1]  # 8500 gacha points beat 2500


# -- the contract ----------------------------------------------------------------------------------
def test_illegal_actions_leave_the_state_alone() -> None:
    state = deal(started(3), ["ituned-1500", "ituned-3000", ""], gacha="gacha-06")
    before = state.snapshot()
    for bad in ("take ituned-1500", "reveal ituned-1500", "pass", "use notice-vip", "keep"):
        with pytest.raises(IllegalAction):
            state.apply(bad)
        assert state.snapshot() == before
    with pytest.raises(IllegalAction):
        state.apply(Action("place", "ituned-3000"))  # seat 1's card, not seat 0's


def test_same_seed_same_game_and_the_log_is_json() -> None:
    one, _ = play_game(GAME, 4, 17, bots=["greedy", "random"])
    two, _ = play_game(GAME, 4, 17, bots=["greedy", "random"])
    assert one.log == two.log and one.snapshot() == two.snapshot()
    assert json.loads(json.dumps(one.log)) == one.log


def test_greedy_beats_random() -> None:
    wins = Counter()
    for seed in range(60):
        _, result = play_game(GAME, 4, seed, bots=["greedy", "random"])
        wins.update(result.winners)
    assert wins[0] >= 30  # a random seat wins about 15 of 60


def test_greedy_values_a_spend_as_the_rules_add_it_up() -> None:
    """The bot adds up each card's yen and rate bonus once; check that against the rule
    functions applied to whole sets, in every situation of a few games."""
    checked = 0
    for seed in range(3):
        state = GAME.new_game(players=4, seed=seed)
        bot = GreedyBot(GAME, 0, "test")
        while not state.is_terminal():
            seen = state.observation(state.current_player)
            if state.current_player == 0 and seen["phase"] == "place":
                worth = bot._valuer(seen)
                hand = [bot.cards[i] for i in seen["hand"] + seen["placed"]]
                for size in range(1, len(hand) + 1):
                    spend = hand[:size]
                    assert worth(spend) == pytest.approx(_direct_value(bot, seen, spend))
                    checked += 1
            state.apply(state.legal_actions()[0])
    assert checked > 20


def _direct_value(bot: GreedyBot, seen: dict[str, Any], spend: list[Any]) -> float:
    model = GAME.model
    gacha = bot.cards[seen["gacha"]]
    yen, count = rules.spend_of(model, spend)
    cost = yen / model.scoring.ituned_divisor
    if seen["gacha_left"]:
        cost += bot.NOTICE_OPTION * sum(isinstance(c, NoticeCard) for c in spend)
    in_force = bot._rate_bonus(seen)
    spends = [
        [yen, count] if seat == 0 else [bot.GUESS_PER_CARD * n, n] if n else [0, 0]
        for seat, n in enumerate(seen["placed_counts"])
    ]
    order = rules.spend_order(model, spends, seen["turn_player"])
    before = order.index(0)
    reach = (1 - bot._hit_chance(gacha.rate + in_force)) ** before
    mine = rules.total_rate(model, gacha, spend, []) + in_force
    return reach * bot._hit_chance(mine) * gacha.points - cost


# -- the random harness ----------------------------------------------------------------------------
def _independent_check(state: Any, tally: Tally) -> None:
    """Recompute, without the rule functions, the rolling order, every roll, every gacha card's
    fate and the final scores, from the log and the final state."""
    players = state.players
    opened: list[str] = []
    fates: dict[str, str] = {}
    gacha: Any = None
    deltas = 0
    revealed: list[list[str]] = []
    queue: list[int] = []
    turn_player = 0
    for entry in state.log:
        kind = entry.get("event")
        if kind == "open":
            gacha, deltas, turn_player = CARDS[entry["gacha"]], 0, entry["turn_player"]
            opened.append(gacha.id)
        elif kind == "revealed":
            revealed = entry["cards"]
            spends = []
            for cards in revealed:
                yen = sum(CARDS[c].amount for c in cards if c.startswith("ituned-"))  # type: ignore[attr-defined]
                spends.append((yen, len(cards)))
            assert [list(s) for s in spends] == entry["spends"]
            queue = sorted(
                (s for s in range(players) if spends[s][1] > 0),
                key=lambda s: (-spends[s][0], spends[s][1], (s - turn_player) % players),
            )
            assert queue == entry["order"]
            tally.seen["notice-only spend"] += any(
                cards and all(c.startswith("notice-") for c in cards) for cards in revealed
            )
        elif kind == "notice":
            effect = CARDS[entry["card"]].effect  # type: ignore[attr-defined]
            if effect.kind == "rate":
                deltas += effect.delta
            else:
                user, move = entry["seat"], effect.move
                if move == "user-first" and user in queue:
                    queue = [user] + [s for s in queue if s != user]
                elif move == "next-to-last" and queue:
                    queue = queue[1:] + queue[:1]
                elif move == "reverse":
                    queue = queue[::-1]
                elif move == "last-to-first" and queue:
                    queue = queue[-1:] + queue[:-1]
                tally.seen["order notice"] += 1
            assert queue == entry["queue"]
        elif kind == "roll":
            seat = entry["seat"]
            assert queue and queue.pop(0) == seat, "rolled out of order"
            bonus = sum(CARDS[c].rate_bonus for c in revealed[seat] if c.startswith("ituned-"))  # type: ignore[attr-defined]
            rate = gacha.rate + bonus + deltas
            assert entry["rate"] == rate and 0 <= entry["face"] <= 9
            assert entry["hit"] == ((entry["face"] or 10) * 10 <= rate)
            if entry["hit"]:
                assert gacha.id not in fates
                fates[gacha.id] = f"claimed by {seat}"
                tally.seen["hit"] += 1
            if entry["face"] == 0:
                tally.seen["face 0"] += 1
        elif kind == "closed":
            assert entry["gacha"] == gacha.id and gacha.id not in fates
            fates[gacha.id] = "removed"
        elif kind == "restart":
            assert not queue
            tally.seen["restart"] += 1
    assert sorted(opened) == sorted(GACHA_IDS) and sorted(fates) == sorted(GACHA_IDS)
    for seat in range(players):
        mine = sorted(g for g, fate in fates.items() if fate == f"claimed by {seat}")
        assert sorted(c.id for c in state.claimed[seat]) == mine
    assert sorted(c.id for c in state.removed) == sorted(
        g for g, fate in fates.items() if fate == "removed"
    )
    points = [sum(CARDS[g].points for g in (c.id for c in claimed)) for claimed in state.claimed]  # type: ignore[attr-defined]
    yen = [
        sum(CARDS[c].amount for c in hand if c.startswith("ituned-"))  # type: ignore[attr-defined]
        for hand in state.hands
    ]
    totals = [p + y // 2 for p, y in zip(points, yen, strict=True)]
    assert state.scores() == totals
    best = max(zip(totals, points, strict=True))
    assert state.winners() == [s for s in range(players) if (totals[s], points[s]) == best]


#: Random games per player count: GOTCHA!'s random games are long (600-1000 actions), so the
#: harness plays about 20-40 games/s; these counts keep the file near a minute.
@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_hold_every_invariant(players: int) -> None:
    games = games_per_count()
    tally = simulate(
        GAME, players, games, seed=players, full_check_every=60, at_end=_independent_check
    )
    assert tally.games == games
    for verb in ("keep", "place", "take", "done", "reveal", "use", "pass"):
        assert tally.verbs[verb] > 0, verb
    for event in ("open", "revealed", "notice", "roll", "restart", "closed", "end"):
        assert tally.events[event] > 0, event
    for path in ("order notice", "hit", "face 0", "restart", "notice-only spend"):
        assert tally.seen[path] > 0, path
    if players >= 4:  # with three players the draw deck rarely runs out: see its scripted test
        assert tally.events["rebuild"] > 0


def test_a_clone_is_independent_of_its_original() -> None:
    state, _ = play_game(GAME, 3, 5)  # a finished game: replay it step by step from its log
    actions = [entry["action"] for entry in state.log if "action" in entry]
    game = GAME.new_game(players=3, seed=5)
    for step, action in enumerate(actions):
        if step % 7 == 0:
            before = game.snapshot()
            for option in game.legal_actions():
                copy = game.clone()
                assert copy.snapshot() == before, "a clone differs from its original"
                copy.apply(option)
                copy.check_invariants()
                assert game.snapshot() == before, f"applying {option} to a clone changed it"
        game.apply(action)
    assert game.snapshot() == state.snapshot()


def test_a_played_state_keeps_its_attributes_inline_and_its_cards_as_ids() -> None:
    """CPython 3.11 keeps at most 30 attribute names of an object inline; past that every
    attribute read and method lookup of the state goes through a dict. The state's own
    attributes are slots, so its instance dict holds only the base class's few. Hand cards
    are held as ids: strings compare and hash without running Python code."""
    state, _ = play_game(GAME, 4, 3)
    assert len(vars(state)) < 30
    assert set(vars(state)).isdisjoint(GotchaState.__slots__)
    assert state.draw and all(type(card) is str for card in chain(state.draw, *state.hands))


def spend(state: GotchaState, placed: list[str], revealed: list[str]) -> None:
    """Skip placing: move these cards from each hand face down (``placed``) or face up
    (``revealed``), then resolve the spend as the end of the picks would."""
    for seat, (down, up) in enumerate(zip(placed, revealed, strict=True)):
        for target, text in ((state.placed[seat], down), (state.revealed[seat], up)):
            for card_id in text.split():
                state.hands[seat].remove(card_id)
                target.append(card_id)
    state._resolve_spend()
    state._legal = None
    state.check_invariants()


def test_a_revealed_notice_counts_as_a_card_in_the_fewer_cards_tie_break() -> None:
    state = deal(
        started(3), ["ituned-3000 notice-vip", "ituned-3000", "ituned-1500"], gacha="gacha-12"
    )
    spend(state, ["", "", ""], ["ituned-3000 notice-vip", "ituned-3000", "ituned-1500"])
    # Seats 0 and 1 both spend 3000, but seat 0 revealed two cards (revealed-notices-in-tie-break).
    assert state.queue == [1, 0, 2]


def test_a_notice_taken_back_after_its_owners_roll_waits_for_the_next_spend() -> None:
    dice = Dice(9, 9)
    state = deal(
        started(3),
        ["ituned-5000 notice-vip", "ituned-1500 notice-pickup", "ituned-3000"],
        gacha="gacha-12",
        dice=dice,
    )
    spend(state, ["notice-vip", "", ""], ["ituned-5000", "ituned-1500", ""])
    assert state.queue == [0, 1] and legal(state) == ["pass"]  # seat 0's notice is face down
    play(state, "pass", "use notice-pickup", "pass", "pass", "pass")
    assert events(state, "roll")[-1]["seat"] == 0  # a 9 misses: seat 0 takes the notice back
    assert state.hands[0] == ["notice-vip"] and state.current_player == 0
    assert legal(state) == ["pass"]  # clarification placed-notice-after-roll
    with pytest.raises(IllegalAction):
        state.apply("use notice-vip")
    play(state, "pass", "pass", "pass")  # seat 1 misses too: everyone missed, place again
    assert state.phase == "place" and len(events(state, "restart")) == 1
    spend(state, ["", "", ""], ["", "", "ituned-3000"])
    assert state.current_player == 0 and "use notice-vip" in legal(state)  # usable again


def test_there_is_no_hand_limit() -> None:
    hands = [
        "ituned-10000 ituned-5000 ituned-5000 ituned-3000 ituned-3000 ituned-1500 ituned-1500",
        "notice-vip notice-pickup notice-apology notice-bug-fix ituned-5000 ituned-3000",
        "ituned-5000 ituned-3000 ituned-1500 ituned-1500 ituned-1500 ituned-1500 ituned-3000",
    ]
    state = deal(started(3), hands, gacha="gacha-12", gacha_deck="gacha-01")
    spend(state, ["", "", ""], ["", "", ""])  # nobody spends: the gacha closes, everyone draws
    assert [len(h) for h in state.hands] == [8, 7, 8]  # clarification no-hand-limit

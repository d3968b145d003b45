"""GotchaCards' engine: scripted situations worked out by hand, and the random harness.

Every expected value below was worked out by hand from the seed and the clarifications (the
comments show the working). Hands, piles and the top of the deck are arranged with the helpers;
every other card stays in the deck, so the card count holds throughout.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from gachapress.engine import IllegalAction, ReplayError, load_game, replay
from gachapress.engine.play import play_game
from gachapress.games.gotchacards import engine as engine_module
from gachapress.games.gotchacards.engine import (
    CompetitiveState,
    GotchaState,
    PartyState,
    Plan,
)
from gachapress.games.gotchacards.rules import Choice
from gachapress.sim import SimSpec, run_sim
from tests.harness import Tally, games_per_count, simulate

GAME = load_game("gotchacards")
BEGINNER = ("beginner",)
ADVANCED = {c.id for c in GAME.model.decks.main.cards if c.advanced}
#: The seed's "Rock beats Scissors | Scissors beats Paper | Paper beats Rock", typed again here
#: so that the recounts below do not use the rule functions.
BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}


# ------------------------------------------------------------------------------ arranging


def gather(state: GotchaState) -> None:
    """Every card back into the deck."""
    places: list[list[Any]] = [state.trash, *state.hands, *state.piles]
    if isinstance(state, CompetitiveState):
        places += [state.offer, *state.field]
    for place in places:
        state.deck += [c for c in place if c is not None]
        place.clear()


def take(state: GotchaState, text: str) -> list[str]:
    """The named cards, taken out of the deck."""
    cards = text.split()
    for card in cards:
        state.deck.remove(card)
    return cards


def on_top(state: GotchaState, text: str) -> None:
    """The next draws come in this order."""
    state.deck += reversed(take(state, text))


def play(state: GotchaState, *actions: str) -> None:
    for action in actions:
        state.apply(action)
        state.check_invariants()


def legal(state: GotchaState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def events(state: GotchaState, kind: str) -> list[dict[str, Any]]:
    return [e for e in state.log if e.get("event") == kind]


def competitive(
    hands: tuple[str, str], top: str = "", *, turn: int = 1, player1: int = 0, seed: int = 1
) -> CompetitiveState:
    """A Competitive round at the start of ``turn`` with these hands (seat 0, seat 1)."""
    state = GAME.new_game(players=2, seed=seed, mode="competitive")
    assert isinstance(state, CompetitiveState)
    gather(state)
    state.hands = [take(state, hand) for hand in hands]
    on_top(state, top)
    state.player1, state.turn_no = player1, turn
    state._start_turn()
    state._legal = None
    state.check_invariants()
    return state


def party(
    hands: list[str], top: str = "", *, piles: list[str] | None = None, priority: int = 0
) -> PartyState:
    """A Party turn about to be played with these hands (and victory piles)."""
    state = GAME.new_game(players=len(hands), seed=1, mode="party")
    assert isinstance(state, PartyState)
    gather(state)
    state.hands = [take(state, hand) for hand in hands]
    state.piles = [take(state, pile) for pile in piles or [""] * len(hands)]
    on_top(state, top)
    state.priority = priority
    state._start_turn()
    state._legal = None
    state.check_invariants()
    return state


def pile(state: GotchaState, seat: int) -> Counter[str]:
    return Counter(state.piles[seat])


# ------------------------------------------------------------------------------ Competitive


def test_draft_keep_one_then_alternate_picks_player2_first() -> None:
    state = GAME.new_game(players=2, seed=3, mode="competitive")
    assert isinstance(state, CompetitiveState)
    gather(state)
    nine = "rock-1 rock-2 paper-1 paper-2 scissors-1 scissors-2 capsule magnet lucky-rock"
    on_top(state, nine + " hammer")
    state.round = 0
    state._start_round()
    # Player1 (seat 0) sees the nine cards; Player2 only how many there are.
    assert (state.phase, state.turn) == ("keep", 0)
    assert legal(state) == [f"keep {c}" for c in nine.split()]
    assert state.observation(1)["offer"] == [] and state.observation(1)["offer_size"] == 9
    assert "lucky-rock" in state.hidden_from(1)
    play(state, "keep lucky-rock")
    # The other eight are face-up; Player2 picks first, then they alternate.
    assert (state.phase, state.turn) == ("pick", 1)
    assert len(state.observation(1)["offer"]) == 8
    assert "lucky-rock" not in json.dumps(state.observation(1))
    picks = ["capsule", "rock-1", "paper-1", "scissors-1", "magnet", "rock-2", "paper-2"]
    for i, card in enumerate(picks):
        assert state.turn == (1 if i % 2 == 0 else 0)
        play(state, f"pick {card}")
    assert legal(state) == ["pick scissors-2"]  # Player1 takes the last face-up card
    play(state, "pick scissors-2")
    # Player1: kept 1 + picked 4 = 5; Player2: picked 4 + drew the Hammer = 5.
    assert Counter(state.hands[0]) == Counter(
        ["lucky-rock", "rock-1", "scissors-1", "rock-2", "scissors-2"]
    )
    assert Counter(state.hands[1]) == Counter(["capsule", "paper-1", "magnet", "paper-2", "hammer"])
    assert (state.phase, state.turn, state.turn_no) == ("place", 0, 1)


def test_a_whole_round_on_points_then_the_loser_chooses() -> None:
    state = competitive(
        (
            "rock-1 paper-1 scissors-1 rock-2 paper-2",
            "scissors-2 paper-3 rock-3 scissors-3 scissors-1",
        )
    )
    # Turn one: Player1 (seat 0) places at least one card face down, then Player2 answers.
    assert state.turn == 0 and "done" not in legal(state)
    play(state, "place rock-1")
    assert "done" in legal(state)
    play(state, "done")
    seen = state.observation(1)
    assert seen["lanes"][0] == [None]  # one face-down card: only the count shows
    assert "rock-1" in state.hidden_from(1) and "rock-1" not in json.dumps(seen)
    play(state, "place scissors-2", "place paper-3", "done")
    # Lane1: rock beats scissors, seat 0 takes both (2). Lane2: paper unopposed, seat 1 (1).
    assert state.points() == [2, 1]
    assert pile(state, 0) == Counter(["rock-1", "scissors-2"]) and state.piles[1] == ["paper-3"]
    # Turn two: Player2 (seat 1) leads and has priority.
    assert (state.turn_no, state.turn, state.priority) == (2, 1, 1)
    play(state, "place rock-3", "done", "place paper-1", "place scissors-1", "done")
    # Lane1: paper-1 beats rock-3 (+2 seat 0); Lane2: scissors-1 unopposed (+1 seat 0).
    assert state.points() == [5, 1]
    # Turn three: every card, face down, Player1 first; no "done" on the way.
    assert (state.turn_no, state.turn) == (3, 0)
    play(state, "place rock-2")
    assert legal(state) == ["place paper-2"]
    play(state, "place paper-2", "place scissors-3", "place scissors-1")
    # Lane1: rock-2 beats scissors-3 (+2 seat 0); Lane2: scissors-1 beats paper-2 (+2 seat 1).
    # 7 to 3: seat 0 wins the round; everything played goes to the trash.
    end = events(state, "round-end")[-1]
    assert (end["winner"], end["how"], end["points"]) == (0, "points", [7, 3])
    assert state.round_wins == [1, 0] and len(state.trash) == 10
    assert (state.phase, state.turn) == ("role", 1)  # the loser chooses
    assert legal(state) == ["become player1", "become player2"]
    next_nine = state.deck[:-10:-1]  # no reshuffle: the next draft continues the deck
    play(state, "become player1")
    assert (state.round, state.player1, state.phase, state.turn) == (2, 1, "keep", 1)
    assert state.offer == next_nine and state.points() == [0, 0]


def test_a_player_without_cards_at_a_turn_start_loses_the_round() -> None:
    state = competitive(
        ("rock-1 rock-2 rock-3 paper-1 paper-2", "scissors-1 paper-3 rock-3 scissors-3 scissors-2")
    )
    # Seat 0 places its whole hand in turn one; seat 1 answers with one card.
    play(state, "place rock-1", "place rock-2", "place rock-3", "place paper-1", "place paper-2")
    assert state.turn == 1  # an empty hand ends the placing without "done"
    play(state, "place scissors-1", "done")
    # Lane1 rock-1 beats scissors-1 (2) and lanes 2-5 are unopposed (4): 6 to 0 for seat 0.
    # But at the start of turn two seat 0 holds nothing and seat 1 holds four: seat 1 wins.
    end = events(state, "round-end")[-1]
    assert (end["winner"], end["how"], end["points"], end["hands"]) == (
        1,
        "forfeit",
        [6, 0],
        [0, 4],
    )
    assert state.round_wins == [0, 1] and (state.phase, state.turn) == ("role", 0)


def test_both_out_of_cards_ends_the_round_on_points() -> None:
    state = competitive(
        ("rock-1 rock-2 rock-3 paper-1 paper-2", "scissors-1 scissors-2 scissors-3 paper-3 rock-1")
    )
    play(state, "place rock-1", "done")
    play(state, "place scissors-1", "place scissors-2", "place scissors-3", "place paper-3", "done")
    # Lane1: rock-1 beats scissors-1 (+2 seat 0); lanes 2-4: seat 1 unopposed (+3). 2 to 3.
    assert state.points() == [2, 3]
    # Turn two, seat 1 leads with its last card; seat 0 answers with all four.
    play(state, "place rock-1")
    play(state, "place rock-2", "place rock-3", "place paper-1", "place paper-2")
    # Lane1: rock against rock, both trashed; lanes 2-4: seat 0 unopposed (+3). 5 to 3.
    # Turn three never starts: both hands are empty, so the points decide.
    end = events(state, "round-end")[-1]
    assert (end["winner"], end["how"], end["points"]) == (0, "points", [5, 3])
    assert state.turn_no == 3 and len(events(state, "reveal")) == 2


def test_tied_round_goes_to_overtime_with_two_then_three_cards() -> None:
    tie = ("rock-1 paper-1 scissors-1 rock-2 paper-2", "rock-3 paper-3 scissors-3 rock-1 paper-1")
    # Overtime draws: the first player of each overtime turn draws first.
    state = competitive(
        tie,
        "rock-2 paper-2 rock-3 paper-3 scissors-1 scissors-2 scissors-3 paper-1 paper-3 paper-2",
    )
    play(state, "place rock-1", "done", "place rock-3", "done")  # rock v rock: trashed
    play(state, "place paper-3", "done", "place paper-1", "done")  # paper v paper: trashed
    play(state, "place scissors-1", "place rock-2", "place paper-2")  # turn three: all ties
    play(state, "place scissors-3", "place rock-1", "place paper-1")
    assert state.points() == [0, 0] and state.overtime == 1
    first = events(state, "overtime")[-1]["first"]  # a seeded coin
    second = 1 - first
    assert (state.turn, state.priority) == (first, first)
    # Overtime turn 1: two cards each; first gets rock-2 and paper-2, second rock-3 and paper-3.
    assert state.hands[first] == ["rock-2", "paper-2"]
    assert state.hands[second] == ["rock-3", "paper-3"]
    assert "done" not in legal(state)  # every card is played
    play(state, "place rock-2", "place paper-2", "place rock-3", "place paper-3")
    # Lane1 rock v rock, Lane2 paper v paper: still 0 to 0, another overtime turn, 3 cards each.
    assert state.points() == [0, 0] and state.overtime == 2
    first = events(state, "overtime")[-1]["first"]
    second = 1 - first
    assert Counter(state.hands[first]) == Counter(["scissors-1", "scissors-2", "scissors-3"])
    assert Counter(state.hands[second]) == Counter(["paper-1", "paper-3", "paper-2"])
    for card in state.hands[first][:]:
        play(state, f"place {card}")
    for card in state.hands[second][:]:
        play(state, f"place {card}")
    # Three lanes of scissors beating paper: 6 to 0, the round goes to the first player.
    end = events(state, "round-end")[-1]
    assert (end["winner"], end["how"]) == (first, "overtime")
    assert end["points"][first] == 6 and end["points"][second] == 0


def test_overtime_without_cards_to_draw_is_settled_by_a_coin() -> None:
    state = competitive(("rock-1", "rock-2"), turn=3)
    # Every other card is in the victory piles, 26 each: deck and trash are empty.
    state.piles = [state.deck[:26], state.deck[26:]]
    state.deck = []
    play(state, "place rock-1", "place rock-2")  # a tie: both to the trash, 26 to 26
    # Overtime turn 1 wants two cards each. The deck is empty, so the trash (the two rocks)
    # becomes the deck; the first player draws both and the second gets none: a coin decides.
    first = events(state, "overtime")[-1]["first"]
    assert len(events(state, "reshuffle")) == 1 and state.overtime == 1
    end = events(state, "round-end")[-1]
    assert events(state, "coin") and end["how"] == "coin" and end["points"] == [26, 26]
    assert end["hands"][first] == 2 and end["hands"][1 - first] == 0
    assert state.rare_events() == {"overtime-limit": False}  # a coin, but not the limit
    assert sum(state.round_wins) == 1


def test_safety_valve_after_the_limit_of_tied_overtime_turns() -> None:
    state = competitive(("rock-1", "rock-2"), turn=3)
    state.overtime = GAME.model.competitive.overtime.max_turns  # that many tied turns so far
    play(state, "place rock-1", "place rock-2")
    assert events(state, "coin") and events(state, "round-end")[-1]["how"] == "coin"
    assert not events(state, "overtime")
    assert state.rare_events() == {"overtime-limit": True}


@pytest.mark.parametrize(("mode", "players"), [("competitive", 2), ("party", 4)])
def test_simulated_play_never_reaches_the_overtime_limit(mode: str, players: int) -> None:
    spec = SimSpec(game="gotchacards", players=players, games=1000, seed=14, mode=mode)
    assert run_sim(spec).report()["rare_events"] == {"overtime-limit": 0}  # safety-valves


def test_best_of_three_and_the_loser_chooses_each_time() -> None:
    state = competitive(("rock-1", "rock-2"), turn=3)
    state._round_won(0, "points")
    assert (state.phase, state.turn) == ("role", 1)
    play(state, "become player2")  # seat 1 stays Player2: seat 0 is Player1 again
    assert (state.player1, state.turn, state.phase) == (0, 0, "keep")
    state._round_won(1, "points")
    assert (state.phase, state.turn) == ("role", 0)
    play(state, "become player2")  # seat 0 becomes Player2, so seat 1 is Player1
    assert state.player1 == 1 and state.turn == 1
    state._round_won(0, "points")
    assert state.is_terminal() and state.winners() == [0] and state.scores() == [2, 1]
    assert state.end_condition() == "points" and state.rounds_played() == 3
    state.check_invariants()
    with pytest.raises(IllegalAction):
        state.apply("become player1")


def test_empty_deck_takes_the_shuffled_trash() -> None:
    state = GAME.new_game(players=2, seed=4, mode="competitive")
    assert isinstance(state, CompetitiveState)
    gather(state)
    state.trash = state.deck[3:]
    state.deck = state.deck[:3]
    top = state.deck[::-1]
    state.round = 0
    state._start_round()
    # Three cards from the deck, then the trash (51 cards) becomes the deck: 6 more.
    assert state.offer[:3] == top and len(state.offer) == 9
    assert events(state, "reshuffle")[-1]["cards"] == 51
    assert len(state.deck) == 45 and state.trash == []
    state.check_invariants()


@pytest.mark.parametrize("seed", range(4))
def test_the_deck_shuffled_as_far_as_it_is_drawn_deals_as_one_shuffle(seed: int) -> None:
    """The deck is shuffled only as far as the game draws; the cards come as from a deck
    shuffled whole by ``random.shuffle`` of the game's seed, and a coin after them falls the
    same (the rest of the shuffle is drawn first), through a reshuffled trash too."""
    state = GAME.new_game(players=2, seed=seed, mode="party")
    assert isinstance(state, PartyState)
    reference = random.Random(seed)
    cards = list(state.tables.deck[False])
    reference.shuffle(cards)
    assert state.hands == [cards[:-6:-1], cards[-6:-11:-1]]
    assert state._draw(3) == cards[-11:-14:-1]
    assert state._coin(1000) == reference.randrange(1000)
    assert state.deck == cards[:-13]
    state.trash, state.deck = state.deck[:30], state.deck[30:]
    trash = state.trash[:]
    reference.shuffle(trash)
    state._draw(len(state.deck) + 2)  # the deck runs out: the trash is the deck now
    assert state._draw(4) == trash[-3:-7:-1]
    assert state._coin(1000) == reference.randrange(1000)
    assert state.deck == trash[:-6]


def test_capsule_draws_two_and_an_item_leaves_its_lane_unopposed() -> None:
    state = competitive(("capsule rock-1 rock-2", "rock-3 paper-1 paper-2"), "paper-3 scissors-3")
    play(state, "place capsule", "done", "place rock-3", "done")
    # The Capsule does not fight: rock-3 is unopposed (1 for seat 1); the Capsule is trashed
    # and seat 0 draws paper-3 and scissors-3.
    assert state.points() == [0, 1] and state.trash == ["capsule"]
    assert state.hands[0] == ["rock-1", "rock-2", "paper-3", "scissors-3"]


def test_magnet_takes_the_top_card_after_scoring() -> None:
    state = competitive(("magnet rock-1 paper-1", "scissors-1 scissors-2 paper-2"))
    play(state, "place magnet", "place rock-1", "done")
    play(state, "place scissors-1", "place scissors-2", "done")
    # Lane1: magnet v scissors-1: scissors unopposed (1 for seat 1). Lane2: rock-1 beats
    # scissors-2 (2 for seat 0). Then the Magnet takes seat 1's only card: 3 to 0.
    assert state.points() == [3, 0] and state.piles[1] == []
    assert Counter(state.piles[0]) == Counter(["rock-1", "scissors-2", "scissors-1"])
    assert events(state, "scored")[-1]["stolen"] == [1, -1]


def test_hammer_asks_its_holder_for_a_lane() -> None:
    state = competitive(("hammer rock-1 rock-2", "paper-1 paper-2 paper-3"))
    play(state, "place hammer", "place rock-1", "done")
    play(state, "place paper-1", "place paper-2", "done")
    # Two cards face the Hammer: its holder (seat 0) chooses, with every card face up.
    assert (state.phase, state.turn) == ("effect", 0)
    assert legal(state) == ["hit lane-1", "hit lane-2"]
    choice = state.observation(1)["choice"]
    assert choice["card"] == "hammer" and choice["view"] == [
        ["hammer", "rock-1"],
        ["paper-1", "paper-2"],
    ]
    play(state, "hit lane-2")
    # paper-2 is trashed. Lane1: Hammer (item) v paper-1: paper unopposed (1 for seat 1).
    # Lane2: rock-1 against an empty place: unopposed (1 for seat 0).
    assert state.points() == [1, 1] and Counter(state.trash) == Counter(["paper-2", "hammer"])


def test_priority_player_hammers_the_swap_before_it_moves() -> None:
    # Turn two: Player2 (seat 1) leads and its effects resolve first.
    state = competitive(("swap-across rock-2 rock-1", "paper-2 hammer paper-1"), turn=2)
    assert state.turn == 1
    play(state, "place paper-2", "place hammer", "done")
    play(state, "place swap-across", "place rock-2", "done")
    assert (state.phase, state.turn) == ("effect", 1) and legal(state) == [
        "hit lane-1",
        "hit lane-2",
    ]
    play(state, "hit lane-1")
    # The Swap Across is trashed before it resolves. Lane1: paper-2 unopposed (1 seat 1);
    # Lane2: rock-2 v Hammer: rock unopposed (1 seat 0).
    assert state.points() == [1, 1]
    assert Counter(state.trash) == Counter(["swap-across", "hammer"])


def test_wildcard_names_the_type_that_wins() -> None:
    state = competitive(("wildcard rock-1", "rock-3 paper-1"))
    play(state, "place wildcard", "done", "place rock-3", "done")
    assert (state.phase, state.turn) == ("effect", 0)
    assert legal(state) == ["name rock", "name scissors", "name paper"]
    play(state, "name paper")
    # The Wildcard fights as paper and beats rock-3: both cards to seat 0 (2).
    assert state.points() == [2, 0] and Counter(state.piles[0]) == Counter(["wildcard", "rock-3"])


def test_swapped_in_capsule_resolves_for_its_new_holder() -> None:
    state = competitive(("swap-across rock-1", "capsule rock-2"), "paper-1 paper-2")
    play(state, "place swap-across", "done", "place capsule", "done")
    # Seat 0's Swap Across (priority) trades with seat 1's Capsule in Lane1; the Capsule has
    # not resolved, so it does now, for seat 0: seat 0 draws paper-1 and paper-2. Lane1 then
    # holds two items: both trashed, nobody scores.
    assert state.points() == [0, 0] and Counter(state.trash) == Counter(["swap-across", "capsule"])
    assert state.hands == [["rock-1", "paper-1", "paper-2"], ["rock-2"]]


def test_swap_left_trades_with_the_lane_nearer_the_deck() -> None:
    state = competitive(("rock-1 swap-left paper-3", "paper-1 scissors-1 rock-3"))
    play(state, "place rock-1", "place swap-left", "done")
    play(state, "place paper-1", "place scissors-1", "done")
    # Swap Left in Lane2 takes paper-1 from seat 1's Lane1. Seat 0: rock-1, paper-1;
    # seat 1: Swap Left, scissors-1. Lane1: rock-1 v the swap card: rock unopposed (1 seat 0).
    # Lane2: scissors-1 beats paper-1 (2 seat 1).
    assert state.points() == [1, 2] and state.trash == ["swap-left"]


def test_lucky_card_brings_the_top_card_of_the_deck() -> None:
    state = competitive(("lucky-rock rock-1", "scissors-1 paper-1"), "paper-3")
    play(state, "place lucky-rock", "done", "place scissors-1", "done")
    # The Lucky Gem beats scissors-1: both cards plus the top of the deck, paper-3 (3).
    assert state.points() == [3, 0]
    assert Counter(state.piles[0]) == Counter(["lucky-rock", "scissors-1", "paper-3"])


def test_illegal_actions_change_nothing() -> None:
    state = competitive(("rock-1 paper-1", "rock-2 paper-2"))
    before = state.snapshot()
    for bad in ("done", "place rock-2", "pick rock-1", "become player1", "hit lane-1", "dance"):
        with pytest.raises(IllegalAction):
            state.apply(bad)
        assert state.snapshot() == before


# ------------------------------------------------------------------------------ Party


def test_one_clear_winner_takes_all() -> None:
    # Seed: "Rock VS Rock VS Paper, paper takes all the points".
    state = party(["rock-1 scissors-1", "rock-2 scissors-2", "paper-1 scissors-3"])
    assert state.turn == 0 and legal(state) == ["play rock-1", "play scissors-1"]
    play(state, "play rock-1", "play rock-2")
    assert state.observation(2)["plays"] == [None, None, None]  # face down
    assert state.observation(0)["plays"] == ["rock-1", None, None]
    play(state, "play paper-1")
    assert state.points() == [0, 0, 3]
    assert Counter(state.piles[2]) == Counter(["rock-1", "rock-2", "paper-1"])


def test_no_clear_winner_trashes_all() -> None:
    # Seed: "Rock VS Paper VS Scissors, all cards are trashed".
    state = party(["rock-1 rock-2", "paper-1 paper-2", "scissors-1 scissors-2"])
    play(state, "play rock-1", "play paper-1", "play scissors-1")
    assert state.points() == [0, 0, 0]
    assert Counter(state.trash) == Counter(["rock-1", "paper-1", "scissors-1"])


def test_everyone_the_same_type_is_no_clear_winner() -> None:
    state = party(["paper-1 rock-1", "paper-2 rock-2", "paper-3 rock-3"])
    play(state, "play paper-1", "play paper-2", "play paper-3")
    assert state.points() == [0, 0, 0] and len(state.trash) == 3


def test_two_winners_share_and_trash_the_rest() -> None:
    # Seed: "Rock VS Paper VS Paper ... each paper takes a card into their victory pile and
    # trashes the remaining 1": each paper keeps its own card (clarification party-shares).
    state = party(["rock-1 rock-2", "paper-1 paper-2", "paper-3 scissors-1"])
    play(state, "play rock-1", "play paper-1", "play paper-3")
    assert state.points() == [0, 1, 1]
    assert state.piles[1:] == [["paper-1"], ["paper-3"]] and state.trash == ["rock-1"]


def test_two_winners_two_losers_share_in_priority_order() -> None:
    # Four players, priority at seat 1: paper, rock, paper, rock. Papers win (seats 2 and 0 in
    # priority order 1, 2, 3, 0). Four fighting cards, two winners: two each. Seat 2 takes its
    # paper and the first losing card in priority order (seat 1's rock-1), seat 0 its paper and
    # seat 3's rock-2.
    state = party(
        ["paper-1 rock-3", "rock-1 rock-3", "paper-2 rock-3", "rock-2 rock-3"], priority=1
    )
    assert state.turn == 1
    play(state, "play rock-1", "play paper-2", "play rock-2", "play paper-1")
    assert state.points() == [2, 0, 2, 0] and state.trash == []
    assert Counter(state.piles[2]) == Counter(["paper-2", "rock-1"])
    assert Counter(state.piles[0]) == Counter(["paper-1", "rock-2"])


def test_three_winners_one_loser() -> None:
    # Rock against three papers: four cards, three winners, one card each; the rock is trashed.
    state = party(["rock-1 rock-2", "paper-1 rock-2", "paper-2 rock-2", "paper-3 rock-2"])
    play(state, "play rock-1", "play paper-1", "play paper-2", "play paper-3")
    assert state.points() == [0, 1, 1, 1] and state.trash == ["rock-1"]


def test_inactive_players_are_skipped_and_the_last_one_banks() -> None:
    state = party(["rock-1", "paper-1 scissors-1", "scissors-2 rock-2 paper-2"])
    # Turn 1 (priority seat 0): rock, paper, scissors: all trashed. Seat 0 is now inactive.
    play(state, "play rock-1", "play paper-1", "play scissors-2")
    assert state.points() == [0, 0, 0]
    # Priority passes to the next active player clockwise, seat 1; seat 0 is never asked.
    assert (state.priority, state.turn) == (1, 1)
    play(state, "play scissors-1")
    assert state.turn == 2
    play(state, "play rock-2")
    # rock-2 beats scissors-1: seat 2 takes both (2). Only seat 2 still holds a card
    # (paper-2): it goes into seat 2's victory pile. 0, 0, 3: seat 2 wins.
    assert events(state, "bank") == [{"event": "bank", "seat": 2, "cards": 1}]
    assert state.is_terminal() and state.scores() == [0, 0, 3] and state.winners() == [2]
    assert state.end_condition() == "points"


def test_overtime_only_the_tied_players_draw_and_play() -> None:
    state = party(["rock-1", "scissors-1", "rock-2"], "paper-1 paper-2 scissors-2 paper-3")
    play(state, "play rock-1", "play scissors-1", "play rock-2")
    # Two rocks beat scissors: three cards, two winners, one each; scissors-1 trashed.
    # Nobody holds cards: 1, 0, 1: seats 0 and 2 tie and go to overtime, seat 1 sits out.
    assert state.overtime == 1 and state.tied == [0, 2]
    # First overtime turn: priority to the first tied seat from seat 0; seat 0 draws first.
    assert (state.priority, state.turn) == (0, 0)
    assert state.hands == [["paper-1"], [], ["paper-2"]]
    play(state, "play paper-1", "play paper-2")  # paper v paper: trashed, still 1 to 1
    # Second overtime turn: priority passes to the next tied player clockwise, seat 2, who
    # draws (scissors-2) and plays first; seat 0 draws paper-3.
    assert (state.overtime, state.priority, state.turn) == (2, 2, 2)
    assert state.hands == [["paper-3"], [], ["scissors-2"]]
    play(state, "play scissors-2", "play paper-3")
    # Scissors beat paper: seat 2 takes both: 1, 0, 3.
    assert state.is_terminal() and state.scores() == [1, 0, 3] and state.winners() == [2]
    assert state.end_condition() == "overtime"


def test_losing_lucky_card_bonus_is_shared_by_the_winners() -> None:
    state = party(
        ["lucky-rock rock-1", "paper-1 rock-2", "paper-2 rock-3"], "scissors-1 scissors-2"
    )
    play(state, "play lucky-rock", "play paper-1", "play paper-2")
    # Two papers beat the Lucky Gem: one card each (their own), the gem is trashed, and each
    # winner takes the gem's bonus card from the deck in priority order: 0, 2, 2.
    assert state.points() == [0, 2, 2] and state.trash == ["lucky-rock"]
    assert state.piles[1] == ["paper-1", "scissors-1"]
    assert state.piles[2] == ["paper-2", "scissors-2"]


def test_party_swap_left_moves_an_unresolved_capsule() -> None:
    state = party(["swap-left rock-3", "capsule rock-3", "rock-1 rock-3"], "paper-1 paper-2")
    play(state, "play swap-left", "play capsule", "play rock-1")
    # Seat 0's Swap Left trades with seat 1 (on its left). The Capsule, not yet resolved,
    # resolves for seat 0: it draws paper-1 and paper-2. rock-1 is the only fighting card:
    # seat 2 keeps it (1); both items are trashed.
    assert state.points() == [0, 0, 1]
    assert state.hands[0] == ["rock-3", "paper-1", "paper-2"]
    assert Counter(state.trash) == Counter(["swap-left", "capsule"])


def test_party_swap_across_asks_which_player() -> None:
    state = party(["swap-across rock-3", "scissors-1 rock-3", "rock-2 rock-3"])
    play(state, "play swap-across", "play scissors-1", "play rock-2")
    assert (state.phase, state.turn) == ("effect", 0)
    assert legal(state) == ["swap seat-1", "swap seat-2"]
    assert state.observation(1)["plays"] == ["swap-across", "scissors-1", "rock-2"]
    play(state, "swap seat-2")
    # Seat 0 now has rock-2, which beats scissors-1: seat 0 takes both (2).
    assert state.points() == [2, 0, 0] and state.trash == ["swap-across"]


def test_party_hammer_and_wildcard() -> None:
    state = party(["hammer rock-3", "paper-1 rock-3", "rock-1 rock-3"])
    play(state, "play hammer", "play paper-1", "play rock-1")
    assert legal(state) == ["hit seat-1", "hit seat-2"]
    play(state, "hit seat-1")
    # paper-1 is trashed: rock-1 is the only fighter and seat 2 keeps it.
    assert state.points() == [0, 0, 1] and Counter(state.trash) == Counter(["paper-1", "hammer"])
    state = party(["wildcard rock-3", "scissors-1 rock-3"])
    play(state, "play wildcard", "play scissors-1", "name rock")
    assert state.points() == [2, 0]  # the Wildcard as rock beats scissors


def test_party_magnet_asks_whose_pile() -> None:
    state = party(
        ["magnet rock-3", "rock-1 rock-3", "rock-2 rock-3"],
        piles=["", "paper-2 paper-3", "scissors-3"],
    )
    play(state, "play magnet", "play rock-1", "play rock-2")
    # Rock against rock: trashed, with the Magnet. After scoring the Magnet takes a card; two
    # piles hold cards, so its holder chooses.
    assert (state.phase, state.turn) == ("steal", 0)
    assert legal(state) == ["steal seat-1", "steal seat-2"]
    play(state, "steal seat-1")
    # The top card of seat 1's pile: paper-3. 1, 1, 1.
    assert state.piles == [["paper-3"], ["paper-2"], ["scissors-3"]]


def test_party_overtime_coin_when_nobody_can_draw() -> None:
    state = party(["rock-1", "scissors-1"])
    # The rest of the deck goes to the piles, 25 and 27: after rock-1 takes scissors-1 it is
    # 27 to 27 with deck and trash empty, so overtime gives nobody a card: a coin decides.
    state.piles = [state.deck[:25], state.deck[25:]]
    state.deck = []
    play(state, "play rock-1", "play scissors-1")
    assert events(state, "coin") and state.is_terminal() and state.scores() == [27, 27]
    assert state.winners() == [events(state, "coin")[0]["winner"]]


def test_party_overtime_safety_valve() -> None:
    state = party(["rock-1", "rock-2"])
    state.piles = [state.deck[:26], state.deck[26:]]
    state.deck = []
    play(state, "play rock-1", "play rock-2")
    # Rock against rock, 26 to 26. Each overtime turn the two rocks come back from the trash
    # and tie again; after the limit of such turns a coin decides.
    while not state.is_terminal():
        play(state, legal(state)[0])
    assert len(events(state, "overtime")) == GAME.model.party.overtime.max_turns
    assert events(state, "coin") and state.end_condition() == "coin"
    assert state.rare_events() == {"overtime-limit": True}


def test_a_whole_two_player_party_game() -> None:
    state = party(
        [
            "rock-1 paper-1 capsule scissors-1 rock-2",
            "scissors-2 rock-3 paper-2 paper-3 scissors-3",
        ],
        "paper-1 rock-1",
    )
    play(state, "play rock-1", "play scissors-2")  # T1 (seat 0 first): rock wins, 2 to 0
    assert state.turn == 1  # priority passes to seat 1, who places first
    play(state, "play rock-3", "play paper-1")  # T2: paper wins for seat 0, 4 to 0
    play(state, "play capsule", "play paper-2")  # T3: paper unopposed (1 seat 1); seat 0 draws 2
    assert state.points() == [4, 1] and state.hands[0] == [
        "scissors-1",
        "rock-2",
        "paper-1",
        "rock-1",
    ]
    play(state, "play paper-3", "play scissors-1")  # T4: scissors wins for seat 0, 6 to 1
    play(state, "play rock-2", "play scissors-3")  # T5: rock wins for seat 0, 8 to 1
    # Seat 1 is out of cards; seat 0 banks paper-1 and rock-1: 10 to 1.
    assert state.is_terminal() and state.scores() == [10, 1] and state.winners() == [0]


# ------------------------------------------------------------------------------ options and API


def test_beginner_deck_leaves_out_the_black_symbol_cards() -> None:
    for mode, players in (("competitive", 2), ("party", 4)):
        state = GAME.new_game(players=players, seed=2, mode=mode, options=BEGINNER)
        assert isinstance(state, GotchaState) and state.beginner
        every = Counter(c for place in state._places() for c in place if c is not None)
        assert sum(every.values()) == 42 and not set(every) & ADVANCED
        assert events(state, "deck") == [{"event": "deck", "beginner": True, "cards": 42}]
    state = GAME.new_game(players=2, seed=2, mode="competitive")
    assert events(state, "deck") == [{"event": "deck", "beginner": False, "cards": 54}]


def test_beginner_logs_record_the_option_and_replay_with_it() -> None:
    state, _ = play_game(GAME, 3, 5, "party", options=BEGINNER)
    assert state.log[0]["options"] == ["beginner"]
    assert replay(GAME, state.log).snapshot() == state.snapshot()
    without = [{k: v for k, v in state.log[0].items() if k != "options"}, *state.log[1:]]
    with pytest.raises(ReplayError, match="entry 1"):
        replay(GAME, without)
    assert "options" not in GAME.new_game(players=3, seed=5, mode="party").log[0]


def test_unknown_or_misplaced_options_are_refused() -> None:
    with pytest.raises(ValueError, match=r"no option 'expert'.*options: beginner"):
        GAME.new_game(players=2, seed=1, mode="competitive", options=["expert"])
    with pytest.raises(TypeError, match="not one string"):
        GAME.new_game(players=2, seed=1, mode="competitive", options="beginner")
    party_only = copy.copy(GAME)
    party_only.options = {"beginner": replace(GAME.options["beginner"], modes=("party",))}
    with pytest.raises(ValueError, match="beginner option is not used in competitive mode"):
        party_only.new_game(players=2, seed=1, mode="competitive", options=BEGINNER)
    assert party_only.new_game(players=2, seed=1, mode="party", options=BEGINNER).beginner


def test_same_seed_same_game() -> None:
    for mode, players in (("competitive", 2), ("party", 3)):
        one, _ = play_game(GAME, players, 42, mode)
        two, _ = play_game(GAME, players, 42, mode)
        assert one.log == two.log and one.snapshot() == two.snapshot()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_remembered_showdowns_play_exactly_like_resolved_ones(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    warm = load_game("gotchacards")
    for seed in range(150):  # fills the memo
        play_game(warm, players, seed, "party")
    steps = warm.tables("gotchacards", lambda: None).showdowns.values()
    assert any(isinstance(step, Plan) for step in steps)  # outcomes
    assert any(isinstance(step, Choice) for step in steps)  # choices asked on the way
    monkeypatch.setattr(engine_module, "SHOWDOWN_MEMO", 0)
    cold = load_game("gotchacards")
    for seed in range(150):
        remembered, _ = play_game(warm, players, seed, "party")
        resolved, _ = play_game(cold, players, seed, "party")
        assert remembered.log == resolved.log
    assert not cold.tables("gotchacards", lambda: None).showdowns


@pytest.mark.parametrize(("mode", "players"), [("competitive", 2), ("party", 4)])
def test_a_played_state_keeps_its_attributes_in_slots_and_its_cards_plain(
    mode: str, players: int
) -> None:
    """CPython 3.11 keeps at most 30 attribute names of an object inline; past that every
    attribute read of the state goes through a dict, so the state's own attributes are slots.
    The resolvers' cards are plain slotted objects, read without pydantic's ``__getattr__``."""
    state = GAME.new_game(players, 3, mode)
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1])
    assert len(vars(state)) < 30
    assert "hands" not in vars(state) and "phase" not in vars(state)
    card = next(iter(state.tables.by_id.values()))
    assert type(card).__getattribute__ is object.__getattribute__
    assert not hasattr(type(card), "__getattr__") and not hasattr(card, "__dict__")


@pytest.mark.parametrize(("mode", "players"), [("competitive", 2), ("party", 3)])
def test_a_clone_of_a_slotted_state_is_independent_and_plays_alike(mode: str, players: int) -> None:
    state = GAME.new_game(players, 8, mode)
    for _ in range(5):
        state.apply(state.legal_actions()[0])
    twin = state.clone()
    assert twin.snapshot() == state.snapshot() and twin.log == state.log
    assert twin.hands is not state.hands and twin.hands[0] is not state.hands[0]
    assert twin.tables is state.tables and twin.model is state.model  # shared, per load
    while not state.is_terminal():
        action = state.legal_actions()[-1]
        state.apply(action)
        twin.apply(action)
    assert twin.log == state.log and twin.snapshot() == state.snapshot()


def test_the_model_s_rules_are_worked_out_once_per_load() -> None:
    """The overtime rules come from a per-load memo, and give what the rule functions give
    (Competitive's turn checks, placing limits and turn leaders are tabulated: see
    test_gotchacards_competitive_paths)."""
    game = load_game("gotchacards")
    first = game.new_game(2, 1, "competitive")
    assert game.new_game(2, 2, "party").tables is first.tables
    for seed in range(20):
        play_game(game, 2, seed, "competitive")
    memo = first.tables._rules
    assert any(key[0] is engine_module.rules.overtime_draw for key in memo)
    for (rule, *args), value in memo.items():
        assert value == rule(game.model, *args)


def test_greedy_bots_play_alike_with_or_without_remembered_values() -> None:
    warm = load_game("gotchacards")
    for seed in range(40):
        play_game(warm, 3, seed, "party", bots=["greedy"])
    assert warm.tables("gotchacards-greedy", dict)
    for seed in range(40, 60):
        remembered, _ = play_game(warm, 3, seed, "party", bots=["greedy"])
        fresh, _ = play_game(load_game("gotchacards"), 3, seed, "party", bots=["greedy"])
        assert remembered.log == fresh.log


def test_modes_and_player_counts() -> None:
    with pytest.raises(ValueError, match="2 players"):
        GAME.new_game(players=3, seed=1, mode="competitive")
    with pytest.raises(ValueError, match="2, 3, 4 players"):
        GAME.new_game(players=5, seed=1, mode="party")


def test_greedy_beats_random_in_competitive() -> None:
    wins = 0
    for seed in range(100):
        _, result = play_game(GAME, 2, seed, "competitive", ["greedy", "random"])
        wins += result.winners == [0]
    assert wins >= 70


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_plays_whole_party_games(players: int) -> None:
    for seed in range(10):
        state, _ = play_game(GAME, players, seed, "party", ["greedy"])
        state.check_invariants()


# ------------------------------------------------------------------------------ the harness


def _lane_takes(fights: list[list[str | None]]) -> list[int]:
    """Cards each side takes from the lanes, from the seed's "Earning Points" (win 2,
    unopposed 1, tie 0) and clarification item-in-lane, without the rule functions."""
    takes = [0, 0]
    for lane in range(max(len(fights[0]), len(fights[1]))):
        a = fights[0][lane] if lane < len(fights[0]) else None
        b = fights[1][lane] if lane < len(fights[1]) else None
        if a in BEATS and b in BEATS:
            if a != b:
                takes[0 if BEATS[a] == b else 1] += 2  # type: ignore[index]
        elif a in BEATS:
            takes[0] += 1
        elif b in BEATS:
            takes[1] += 1
    return takes


def _competitive_recount(state: Any, tally: Tally) -> None:
    wins, points = [0, 0], [0, 0]
    for entry in state.log:
        kind = entry.get("event")
        if kind == "scored":
            taken = _lane_takes(entry["fights"])
            assert taken == entry["taken"]
            for seat in (0, 1):
                points[seat] += taken[seat] + entry["lucky"][seat] + entry["stolen"][seat]
            assert points == entry["points"]
            tally.seen["lucky"] += sum(entry["lucky"]) > 0
            tally.seen["stolen"] += any(entry["stolen"])
            tally.seen["drawn"] += sum(entry["drawn"]) > 0
        elif kind == "round-end":
            winner, loser, how = entry["winner"], 1 - entry["winner"], entry["how"]
            assert entry["points"] == points
            if how in ("points", "overtime"):
                assert points[winner] > points[loser]
            elif how == "forfeit":
                assert entry["hands"][loser] == 0 < entry["hands"][winner]
            else:
                assert how == "coin" and points[0] == points[1]
            tally.seen[how] += 1
            wins[winner] += 1
            points = [0, 0]
    assert state.scores() == wins and max(wins) == 2
    assert state.winners() == [wins.index(2)]


def _showdown_takes(fights: list[str | None]) -> list[int]:
    """Cards each seat takes from a Party showdown, from the seed's three outcomes and the
    clarifications party-items and party-shares, without the rule functions."""
    takes = [0] * len(fights)
    fighters = [seat for seat, kind in enumerate(fights) if kind in BEATS]
    kinds = {fights[seat] for seat in fighters}
    if len(fighters) == 1:
        takes[fighters[0]] = 1
    elif len(kinds) == 2:
        a, b = sorted(kinds)  # type: ignore[type-var]
        best = a if BEATS[a] == b else b  # type: ignore[index]
        winners = [seat for seat in fighters if fights[seat] == best]
        for seat in winners:
            takes[seat] = len(fighters) // len(winners)
    return takes


def _party_recount(state: Any, tally: Tally) -> None:
    piles = [0] * state.players
    coin = None
    for entry in state.log:
        kind = entry.get("event")
        if kind == "scored":
            taken = _showdown_takes(entry["fights"])
            assert taken == entry["taken"]
            for seat in range(state.players):
                piles[seat] += taken[seat] + entry["lucky"][seat] + entry["stolen"][seat]
            assert piles == entry["points"]
            winners = sum(1 for t in taken if t)
            tally.seen[f"winners-{winners}"] += 1
            tally.seen["lucky"] += sum(entry["lucky"]) > 0
            tally.seen["stolen"] += any(entry["stolen"])
        elif kind == "bank":
            piles[entry["seat"]] += entry["cards"]
        elif kind == "coin":
            coin = entry
    assert state.scores() == piles
    leaders = [seat for seat, size in enumerate(piles) if size == max(piles)]
    if coin is not None:
        assert leaders == coin["tied"] and state.winners() == [coin["winner"]]
        tally.seen["coin"] += 1
    else:
        assert state.winners() == leaders and len(leaders) == 1


def test_random_competitive_games_hold_every_invariant() -> None:
    games = games_per_count()
    tally = simulate(
        GAME, 2, games, mode="competitive", seed=2, full_check_every=40, at_end=_competitive_recount
    )
    assert tally.games == games
    assert tally.verbs["hit"] and tally.verbs["name"] and tally.events["overtime"]
    assert tally.seen["forfeit"] and tally.seen["overtime"] and tally.seen["points"]
    assert tally.seen["lucky"] and tally.seen["stolen"] and tally.seen["drawn"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_party_games_hold_every_invariant(players: int) -> None:
    games = games_per_count()
    tally = simulate(
        GAME, players, games, mode="party", seed=players, full_check_every=40, at_end=_party_recount
    )
    assert tally.games == games
    assert tally.events["bank"] and tally.events["overtime"] and tally.seen["lucky"]
    assert tally.verbs["name"] and tally.seen["winners-1"]
    if players > 2:  # two winners, a choice of player: only with three or more
        assert tally.seen["winners-2"] and tally.verbs["swap"] and tally.verbs["steal"]
        assert tally.verbs["hit"]


@pytest.mark.parametrize(("mode", "players"), [("competitive", 2), ("party", 2), ("party", 4)])
def test_random_beginner_games_hold_every_invariant(mode: str, players: int) -> None:
    def no_advanced_card(state: Any, action: Any) -> None:
        assert not {c for place in state._places() for c in place if c} & ADVANCED

    recount = _competitive_recount if mode == "competitive" else _party_recount
    games = games_per_count()
    tally = simulate(
        GAME,
        players,
        games,
        mode=mode,
        options=BEGINNER,
        seed=7,
        full_check_every=40,
        on_action=no_advanced_card,
        at_end=recount,
    )
    assert tally.games == games and not tally.verbs["hit"] and not tally.verbs["name"]


def test_hand_sizes_and_whole_victory_piles_are_public() -> None:
    state = party(
        ["rock-1 paper-1", "scissors-1", "paper-2"], piles=["rock-2 rock-3", "", "capsule"]
    )
    for seat in range(3):  # clarification what-is-public
        seen = state.observation(seat)
        assert seen["hand_sizes"] == [2, 1, 1]
        assert seen["piles"] == [["rock-2", "rock-3"], [], ["capsule"]]
    duel = competitive(("rock-1 paper-1", "scissors-1"))
    duel.piles = [take(duel, "rock-2"), []]
    assert duel.observation(1)["piles"] == [["rock-2"], []]
    assert duel.observation(1)["hand_sizes"] == [2, 1]


# ------------------------------------------------------------------------------ classes of cards


def _every_resolution(cards: list[Any], priority: int, card_of: Any) -> list[tuple[Any, ...]]:
    """Every way ``resolve_showdown`` of ``cards`` can go (each answer to each choice), with
    every card read through ``card_of`` (its id, or the card played at the stand-in's seat):
    the choices asked on the way and the outcome."""

    def named(card: Any) -> Any:
        return None if card is None else card_of(card.id)

    ways = []
    pending: list[list[Any]] = [[]]
    while pending:
        answers = pending.pop()
        resolver = engine_module.rules.resolve_showdown(GAME.model, priority, cards)
        asked = []
        try:
            choice = next(resolver)
            for answer in answers:
                asked.append(choice)
                choice = resolver.send(answer)
        except StopIteration as done:
            out = done.value
            views = [
                (
                    c.player,
                    c.kind,
                    c.options,
                    card_of(c.card),
                    [[None if i is None else card_of(i) for i in row] for row in c.view],
                )
                for c in asked
            ]
            ways.append(
                (
                    answers,
                    views,
                    out.fights,
                    out.winners,
                    [list(map(named, t)) for t in out.taken],
                    list(map(named, out.trashed)),
                    out.bonus,
                    out.draws,
                    out.steals,
                )
            )
            continue
        pending += [[*answers, option] for option in choice.options]
    return ways


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cards_of_a_class_resolve_alike_as_their_stand_ins(players: int) -> None:
    """The Party memo keys a showdown by the classes of the cards played and runs the rule
    function on stand-ins whose id is their seat: for every class, every member of it, every
    seat and priority, that resolution, read back through the cards played, is the one the
    cards themselves give, choices and their views included (every answer tried)."""
    tables = GAME.new_game(players, 0, "party").tables
    rng = random.Random(players)
    ids = list(tables.by_id)
    boards = [[rng.choice([*ids, None]) for _ in range(players)] for _ in range(150)]
    boards += [[i, *rng.choices(ids, k=players - 1)] for i in ids for _ in range(4)]
    for board in boards:
        for priority in [s for s in range(players) if board[s] is not None]:
            cards = [None if i is None else tables.by_id[i] for i in board]
            stand_ins = [tables.stand_ins[s, tables.kind[i]] for s, i in enumerate(board)]
            expected = _every_resolution(cards, priority, lambda i: i)
            assert _every_resolution(stand_ins, priority, board.__getitem__) == expected
    members = Counter(tables.kind[i] for i in ids)
    assert members["rock-1"] == members["paper-1"] == members["scissors-1"] == 3  # 9 plain ids
    assert len(members) == 3 + 3 + 7  # three plain classes, three lucky cards, seven items


def test_a_showdown_is_remembered_by_classes_and_replays_with_the_cards_played() -> None:
    """Two turns whose plain fighters differ only in their ids meet one remembered plan, and
    each puts away its own cards."""
    game = load_game("gotchacards")
    logs = []
    for plays in (["rock-1", "scissors-2"], ["rock-3", "scissors-1"]):
        state = game.new_game(2, 1, "party")
        gather(state)
        state.hands = [take(state, plays[0]), take(state, plays[1])]
        state.hands[1] += take(state, "paper-1")
        state._legal = None
        for _ in plays:
            state.apply(state.legal_actions()[0])
        assert state.piles[0] == plays  # rock beats scissors: seat 0 takes both
        logs.append(state.log[-1])
    showdowns = game.tables("gotchacards", lambda: None).showdowns
    assert list(showdowns) == [(2, 0, "rock-1", "scissors-1")]
    assert logs[0] == logs[1]

"""Rock, Paper, Scissors, Fire's engine: scripted situations worked out by hand, and the random
harness on the real deck and on a small deck made to run dry."""

from __future__ import annotations

import functools
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from gachapress.engine import Action, Game, IllegalAction, load_game
from gachapress.engine.play import play_game
from gachapress.errors import GachapressError
from gachapress.games.rps_fire.engine import RpsFireState, _places
from gachapress.games.rps_fire.rules import legal_play
from tests.conftest import RULES
from tests.harness import Tally, games_per_count, simulate

GAME = load_game("rps-fire")
FULL = Counter({card.id: card.count for card in GAME.model.decks.main.cards})
PLAYERS = [2, 3, 4, 5, 6]


# -- arranging situations ------------------------------------------------------------------------


def new(players: int, seed: int = 1, game: Game = GAME) -> RpsFireState:
    state = game.new_game(players=players, seed=seed)
    assert isinstance(state, RpsFireState)
    return state


def deal(
    state: RpsFireState,
    hands: list[str],
    pile: str,
    draws: str = "",
    turn: int = 0,
) -> RpsFireState:
    """Set the hands (space-separated ids per seat), the pile (bottom first) and the next cards
    to be drawn (first drawn first); every other card goes under them in the deck."""
    full = Counter({c.id: c.count for c in state.model.decks.main.cards})
    state.hands = [hand.split() for hand in hands]
    state.pile = pile.split()
    placed = Counter(state.pile) + Counter(draws.split())
    for hand in state.hands:
        placed.update(hand)
    left = full - placed
    state.deck = sorted(left.elements()) + draws.split()[::-1]
    state.turn = turn
    state.phase = "play"
    state.passes = 0
    state.open_pile = False
    state.gives_left = state.effects_left = 0
    state._legal = None
    state.check_invariants()
    return state


def legal(state: RpsFireState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def play(state: RpsFireState, *actions: str) -> None:
    for action in actions:
        state.apply(action)


def events(state: RpsFireState, kind: str) -> list[dict[str, Any]]:
    return [entry for entry in state.log if entry.get("event") == kind]


def stress_game(root: Path, keep: list[str], hands: dict[int, int]) -> Game:
    """A copy of the rules with a deck of the ``keep`` faces, one copy each, and other hands."""
    folder = root / "rps-fire"
    folder.mkdir(parents=True)
    clarifications = RULES / "rps-fire" / "clarifications.yaml"
    (folder / "clarifications.yaml").write_text(clarifications.read_text())
    (folder / "examples.yaml").write_text("examples: []\n")
    decks = yaml.safe_load((RULES / "rps-fire" / "decks.yaml").read_text())
    cards = decks["decks"]["main"]["cards"]
    decks["decks"]["main"]["cards"] = [{**c, "count": 1} for c in cards if c["id"] in keep]
    (folder / "decks.yaml").write_text(yaml.safe_dump(decks, allow_unicode=True))
    setup = yaml.safe_load((RULES / "rps-fire" / "game.yaml").read_text())
    setup["setup"] = {n: {"hand": hand} for n, hand in hands.items()}
    (folder / "game.yaml").write_text(yaml.safe_dump(setup, allow_unicode=True))
    return load_game("rps-fire", root)


def rotate(x: list[Any]) -> None:
    """A shuffle that only moves the last card to the front: a deal one can follow by hand."""
    x.insert(0, x.pop())


# -- setup -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "hand"), [(2, 7), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_new_game_deals_the_hands_and_turns_an_ordinary_card(players: int, hand: int) -> None:
    for seed in range(20):
        state = new(players, seed)
        assert [len(h) for h in state.hands] == [hand] * players
        assert len(state.pile) == 1 and not state.pile[0].startswith("fire-alarm")
        assert len(state.deck) == 57 - players * hand - 1
        assert (state.round, state.turn, state.phase) == (1, 0, "play")
        state.check_invariants()


def test_an_alarm_turned_to_start_the_pile_goes_back_into_the_deck() -> None:
    state = new(2)
    state.shuffle = rotate  # type: ignore[method-assign]
    state.round = 0
    state._start_round()
    # In card-list order the deck is rock-0 rock-0 rock-1 ... scissors-7 scissors-7, then 3
    # left, 3 right and 3 both alarms; the "shuffle" moves the last alarm to the front. Seat 0
    # gets the first 7 cards, seat 1 the next 7; the top card (the deck's end) is turned.
    assert state.hands == [
        ["fire-alarm-both", "rock-0", "rock-0", "rock-1", "rock-1", "rock-2", "rock-2"],
        ["rock-3", "rock-3", "rock-4", "rock-4", "rock-5", "rock-5", "rock-6"],
    ]
    # Turned: an alarm; it goes back on top and the shuffle moves it to the bottom; so on for
    # the 8 alarms left; then scissors-7 is turned and starts the pile (clarification pile-start).
    assert state.pile == ["scissors-7"]
    assert all(card.startswith("fire-alarm") for card in state.deck[:8])
    assert state.deck[8:11] == ["rock-6", "rock-7", "rock-7"] and state.deck[-1] == "scissors-7"
    assert len(state.deck) == 57 - 14 - 1
    state.check_invariants()


def test_a_deck_with_no_card_to_start_the_pile_is_an_error_not_a_hang(tmp_path: Path) -> None:
    game = stress_game(tmp_path, ["rock-1", "rock-2", "fire-alarm-left"], {2: 1})
    for seed in range(40):  # some deal leaves only the alarm in the deck
        try:
            game.new_game(players=2, seed=seed)
        except GachapressError as exc:
            assert "no card left in the deck can start the pile" in str(exc)
            return
    raise AssertionError("no deal left only the alarm")


# -- what may be played --------------------------------------------------------------------------


def test_a_card_beats_by_type_or_a_higher_value_and_copies_go_together() -> None:
    state = deal(new(3), ["rock-1 paper-2 paper-2 scissors-5", "", ""], "rock-3")
    # Only paper beats rock 3 (the seed's "standard rules"), one copy or both.
    assert legal(state) == ["play paper-2", "play paper-2 x2"]
    play(state, "play paper-2 x2")
    assert state.pile == ["rock-3", "paper-2", "paper-2"] and state.hands[0] == [
        "rock-1",
        "scissors-5",
    ]
    assert state.turn == 1


def test_higher_of_the_same_type_beats_a_tie_does_not() -> None:
    state = deal(new(2), ["rock-3 rock-5 rock-2 paper-0", "rock-6"], "rock-3")
    assert legal(state) == ["play rock-5", "play paper-0"]  # rock-3 ties, rock-2 is lower


def test_fire_alarms_beat_everything_and_anything_goes_on_them() -> None:
    state = deal(new(2), ["rock-2 fire-alarm-left fire-alarm-left", "rock-0 paper-3"], "paper-7")
    assert legal(state) == ["play fire-alarm-left", "play fire-alarm-left x2"]
    state = deal(new(2), ["rock-2 paper-3", "rock-0"], "paper-1 fire-alarm-both")
    assert legal(state) == ["play rock-2", "play paper-3"]  # clarification play-on-fire-alarm


def test_who_can_play_must_play() -> None:
    state = deal(new(2), ["scissors-1 paper-4", "rock-0"], "paper-5")
    assert legal(state) == ["play scissors-1"]  # clarification must-play: no draw
    with pytest.raises(IllegalAction):
        state.apply("draw")


def test_draw_one_at_a_time_until_a_card_beats_the_pile() -> None:
    state = deal(
        new(3),
        ["scissors-1 rock-2", "rock-0", "rock-0"],
        "rock-5",
        draws="scissors-6 rock-4 paper-0",
    )
    # Rock beats scissors 1, rock 2 is below rock 5: nothing to play.
    assert legal(state) == ["draw"]
    play(state, "draw")  # scissors-6: rock beats scissors
    assert legal(state) == ["draw"]
    play(state, "draw")  # rock-4: below rock 5
    assert legal(state) == ["draw"]
    play(state, "draw")  # paper-0 beats rock: stop and play it (clarification draw-until-can)
    assert state.hands[0] == ["scissors-1", "rock-2", "scissors-6", "rock-4", "paper-0"]
    assert legal(state) == ["play paper-0"]
    play(state, "play paper-0")
    assert state.turn == 1 and state.pile == ["rock-5", "paper-0"]


def test_an_empty_deck_is_refilled_from_the_pile_under_its_top_card() -> None:
    # Every card is in a hand except the pile and nothing is left in the deck.
    rest = sorted(
        (FULL - Counter(["scissors-0", "rock-1", "paper-3", "scissors-2", "rock-6"])).elements()
    )
    state = deal(new(2), ["scissors-0", " ".join(rest)], "rock-1 paper-3 scissors-2 rock-6")
    state.check_invariants()
    assert state.deck == [] and legal(state) == ["draw"]
    drawn = 0
    while legal(state) == ["draw"]:
        play(state, "draw")
        drawn += 1
    # Under rock-6 were rock-1, paper-3 and scissors-2: only paper-3 beats rock 6, so the player
    # draws until it comes up, 1 to 3 cards in the shuffled order.
    assert events(state, "refill") == [{"event": "refill", "cards": 3}]
    assert state.pile == ["rock-6"] and 1 <= drawn <= 3
    assert legal(state) == ["play paper-3"] and state.hands[0][-1] == "paper-3"
    assert len(state.deck) == 3 - drawn


def test_nothing_left_to_draw_the_player_passes() -> None:
    # Seat 0 cannot beat rock-7 and every other card is in seat 1's hand: seat 0 passes.
    rest = sorted((FULL - Counter(["scissors-0", "rock-7"])).elements())
    state = deal(new(2), ["scissors-0", " ".join(rest)], "rock-7")
    assert legal(state) == ["pass"]
    play(state, "pass")
    assert state.turn == 1 and state.passes == 1 and not state.open_pile
    assert "play paper-0" in legal(state)  # seat 1 holds the papers: the pile never opens
    play(state, "play paper-0")
    assert state.passes == 0


def test_when_everyone_passes_the_pile_opens(tmp_path: Path) -> None:
    # With the real deck someone always holds a paper, a rock, a scissors or an alarm to beat
    # the top, so everyone passing needs a deck of rocks only (clarification deck-runs-out).
    rocks = [f"rock-{v}" for v in range(8)]
    game = stress_game(tmp_path, rocks, {2: 3})
    state = deal(
        new(2, game=game), ["rock-1 rock-2", "rock-0 rock-3 rock-4 rock-5 rock-6"], "rock-7"
    )
    assert state.deck == [] and legal(state) == ["pass"]
    play(state, "pass")
    assert legal(state) == ["pass"]  # seat 1 cannot beat rock-7 either
    play(state, "pass")
    assert events(state, "open") == [{"event": "open"}] and state.open_pile
    assert state.turn == 0 and legal(state) == ["play rock-1", "play rock-2"]
    play(state, "play rock-1")
    assert not state.open_pile and state.passes == 0
    assert legal(state) == ["play rock-3", "play rock-4", "play rock-5", "play rock-6"]


# -- fire alarms ---------------------------------------------------------------------------------


def test_left_alarm_everyone_takes_from_the_next_seat() -> None:
    state = deal(
        new(4),
        ["fire-alarm-left rock-1", "paper-2", "scissors-3", "rock-4 rock-4"],
        "paper-5",
        draws="paper-6 scissors-0",
    )
    play(state, "play fire-alarm-left")
    # After the play: seat 0 [rock-1], 1 [paper-2], 2 [scissors-3], 3 [rock-4 rock-4]. Each
    # takes from their left (the next seat): 0 <- 1, 1 <- 2, 2 <- 3, 3 <- 0. Then seat 0 draws
    # paper-6 and scissors-0.
    assert state.hands == [
        ["paper-2", "paper-6", "scissors-0"],
        ["scissors-3"],
        ["rock-4"],
        ["rock-4", "rock-1"],
    ]
    assert (state.phase, state.turn, state.gives_left) == ("give", 0, 2)
    assert legal(state) == [
        f"give {card} to {seat}"
        for card in ("paper-2", "paper-6", "scissors-0")
        for seat in (1, 2, 3)
    ]
    play(state, "give paper-6 to 3", "give paper-2 to 1")  # one each to two opponents
    assert state.hands == [
        ["scissors-0"],
        ["scissors-3", "paper-2"],
        ["rock-4"],
        ["rock-4", "rock-1", "paper-6"],
    ]
    # Play goes on to the left; anything may follow the alarm.
    assert (state.phase, state.turn) == ("play", 1)
    assert legal(state) == ["play scissors-3", "play paper-2"]
    [alarm] = events(state, "alarm")
    assert alarm["direction"] == "left" and alarm["drew"] == 2
    assert alarm["took"] == [
        [3, 0, "rock-1"],
        [0, 1, "paper-2"],
        [1, 2, "scissors-3"],
        [2, 3, "rock-4"],
    ]
    state.check_invariants()


def test_right_alarm_everyone_takes_from_the_previous_seat() -> None:
    state = deal(
        new(4),
        ["paper-5", "rock-6 rock-6", "fire-alarm-right scissors-1", "paper-0"],
        "rock-2",
        draws="rock-7 paper-7",
        turn=2,
    )
    play(state, "play fire-alarm-right")
    # After the play: 0 [paper-5], 1 [rock-6 rock-6], 2 [scissors-1], 3 [paper-0]. Each takes
    # from their right (the previous seat): 0 <- 3, 1 <- 0, 2 <- 1, 3 <- 2. Seat 2 draws 2.
    assert state.hands == [
        ["paper-0"],
        ["rock-6", "paper-5"],
        ["rock-6", "rock-7", "paper-7"],
        ["scissors-1"],
    ]
    play(state, "give rock-7 to 3", "give rock-6 to 3")  # both to the same opponent
    assert state.hands == [
        ["paper-0"],
        ["rock-6", "paper-5"],
        ["paper-7"],
        ["scissors-1", "rock-7", "rock-6"],
    ]
    assert (state.phase, state.turn) == ("play", 3)
    state.check_invariants()


def test_both_alarm_everyone_takes_from_both_neighbours() -> None:
    state = deal(
        new(3),
        ["rock-2 rock-2", "fire-alarm-both paper-4 paper-4", "scissors-6 scissors-6"],
        "scissors-3",
        draws="rock-5 scissors-0",
        turn=1,
    )
    play(state, "play fire-alarm-both")
    # Each seat takes one card from each neighbour and loses one to each: seat 0 takes a paper
    # from 1 and a scissors from 2, seat 1 a rock and a scissors, seat 2 a rock and a paper.
    # Seat 1 then draws rock-5 and scissors-0.
    assert sorted(state.hands[0]) == ["paper-4", "scissors-6"]
    assert sorted(state.hands[1]) == ["rock-2", "rock-5", "scissors-0", "scissors-6"]
    assert sorted(state.hands[2]) == ["paper-4", "rock-2"]
    play(state, "give rock-5 to 2", "give scissors-0 to 0")
    assert sorted(state.hands[0]) == ["paper-4", "scissors-0", "scissors-6"]
    assert sorted(state.hands[1]) == ["rock-2", "scissors-6"]
    assert sorted(state.hands[2]) == ["paper-4", "rock-2", "rock-5"]
    assert (state.phase, state.turn) == ("play", 2)
    state.check_invariants()


def test_two_players_both_alarm_takes_two_cards_each_way() -> None:
    state = deal(
        new(2),
        ["fire-alarm-both rock-5 rock-5", "scissors-2 scissors-2"],
        "paper-1",
        draws="paper-3 paper-4",
    )
    play(state, "play fire-alarm-both")
    # The opponent sits on both sides: each takes two cards from the other (alarm-two-players).
    assert state.hands == [["scissors-2", "scissors-2", "paper-3", "paper-4"], ["rock-5", "rock-5"]]
    assert legal(state) == [f"give {c} to 1" for c in ("scissors-2", "paper-3", "paper-4")]
    play(state, "give paper-4 to 1", "give paper-3 to 1")
    assert state.hands == [["scissors-2", "scissors-2"], ["rock-5", "rock-5", "paper-4", "paper-3"]]
    assert state.turn == 1


def test_a_short_hand_is_handed_out_at_random_among_its_takers() -> None:
    state = deal(
        new(3),
        ["fire-alarm-both rock-3 rock-3", "paper-1 paper-1", "scissors-7"],
        "rock-0",
        draws="rock-6 rock-6",
    )
    play(state, "play fire-alarm-both")
    # Seat 2's only card goes to one of its two takers (clarification alarm-takes-short); seat
    # 2 still takes a rock from seat 0 and a paper from seat 1.
    with_scissors = [seat for seat in (0, 1) if "scissors-7" in state.hands[seat]]
    assert len(with_scissors) == 1
    assert sorted(state.hands[2]) == ["paper-1", "rock-3"]
    # Seat 0: paper-1 and the two drawn rock-6 (3 cards); seat 1: rock-3; plus the scissors.
    assert len(state.hands[0]) + len(state.hands[1]) == 3 + 1 + 1
    assert (state.phase, state.turn, state.gives_left) == ("give", 0, 2)
    state.check_invariants()


def test_an_alarm_player_short_of_cards_gives_what_they_have() -> None:
    # Four players; the deck has run dry; seat 1 lost all its cards earlier; the pile holds
    # only paper-6. Seats 2 and 3 hold every other card.
    rest = sorted((FULL - Counter(["fire-alarm-left", "rock-3", "paper-6"])).elements())
    state = deal(
        new(4), ["fire-alarm-left rock-3", "", " ".join(rest[:26]), " ".join(rest[26:])], "paper-6"
    )
    assert state.deck == []
    play(state, "play fire-alarm-left")
    # Left takes: seat 0 from seat 1 (nothing there), seat 1 from 2, seat 2 from 3, seat 3 takes
    # rock-3 from seat 0. Seat 0 then draws: the pile under the alarm (paper-6) becomes the
    # deck, one card, and nothing is left for the second draw (clarification alarm-draw-short).
    assert events(state, "refill") == [{"event": "refill", "cards": 1}]
    assert events(state, "alarm")[0]["drew"] == 1 and state.deck == []
    assert state.hands[0] == ["paper-6"] and state.hands[3][-1] == "rock-3"
    assert len(state.hands[1]) == 1 and state.pile == ["fire-alarm-left"]
    # With one card, seat 0 gives just that one (clarification alarm-give-away).
    assert state.gives_left == 1
    assert legal(state) == ["give paper-6 to 1", "give paper-6 to 2", "give paper-6 to 3"]
    play(state, "give paper-6 to 1")
    # Seat 0's hand is empty, but only playing a last card ends a round (emptied-by-alarm).
    assert state.hands[0] == [] and state.round == 1
    assert (state.phase, state.turn) == ("play", 1)
    state.check_invariants()


def test_a_pair_of_alarms_goes_off_once() -> None:
    state = deal(
        new(2),
        ["fire-alarm-left fire-alarm-left paper-0", "rock-1"],
        "scissors-4",
        draws="rock-2 rock-3",
    )
    play(state, "play fire-alarm-left x2")
    # One effect (clarification multi-alarm-effect): swap paper-0 and rock-1, draw 2, give 2.
    assert state.hands == [["rock-1", "rock-2", "rock-3"], ["paper-0"]]
    play(state, "give rock-3 to 1", "give rock-2 to 1")
    assert (state.phase, state.turn) == ("play", 1) and len(events(state, "alarm")) == 1


def test_an_alarm_played_as_the_last_card_ends_the_round_silently() -> None:
    state = deal(new(3), ["fire-alarm-both", "rock-4 paper-4", "scissors-2"], "rock-7")
    play(state, "play fire-alarm-both")
    assert events(state, "alarm") == []  # clarification last-card-alarm
    [scored] = events(state, "scored")
    assert scored["went_out"] == 0 and scored["points"] == [0, 8, 2]
    assert state.round == 2


# -- rounds and the game ------------------------------------------------------------------------


def test_a_scripted_game_of_three_rounds_scores_as_worked_out_by_hand() -> None:
    state = new(3, seed=4)
    # Round 1: seat 0 starts and goes out with its only card.
    deal(state, ["rock-4", "paper-5 rock-3", "fire-alarm-both scissors-2"], "scissors-1")
    play(state, "play rock-4")
    # Seat 1: 5 + 3 = 8. Seat 2: holds an alarm, (5 + 2) x 2 = 14.
    assert state.totals == [0, 8, 14] and state.rounds_out == [1, 0, 0]
    # Round 2: the most points start (seat 2).
    assert (state.round, state.starter, state.turn) == (2, 2, 2)
    deal(state, ["fire-alarm-right", "scissors-7 rock-0", "paper-0 paper-0"], "rock-7", turn=2)
    play(state, "play paper-0 x2")
    # Seat 0: only alarms, 10. Seat 1: 7 + 0 = 7. Totals 10, 15, 14.
    assert state.totals == [10, 15, 14]
    assert (state.round, state.starter) == (3, 1)
    # Round 3: seat 1 starts and goes out.
    deal(state, ["rock-1", "scissors-3", "fire-alarm-left fire-alarm-left"], "paper-6", turn=1)
    play(state, "play scissors-3")
    # Seat 0: 1. Seat 2: two alarms only, 20. Totals 11, 15, 34.
    assert state.is_terminal() and state.current_player is None and state.legal_actions() == []
    assert state.scores() == [11, 15, 34] and state.winners() == [0]
    assert state.history == [[0, 8, 14], [10, 7, 0], [1, 0, 20]]
    assert state.rounds_played() == 3
    state.check_invariants()


def test_tied_totals_go_to_the_player_who_went_out_more_often() -> None:
    state = new(2, seed=9)
    deal(state, ["rock-4", "paper-3"], "scissors-1")
    play(state, "play rock-4")  # rock beats scissors: seat 0 goes out, seat 1 scores 3
    # Round 2: seat 1 has the most points and starts.
    assert state.turn == 1
    deal(state, ["paper-2 rock-1", "rock-3"], "scissors-6", turn=1)
    play(state, "play rock-3")  # seat 1 goes out, seat 0 scores 2 + 1 = 3
    # Round 3: tied on 3; counting from the left of the last starter (seat 1): seat 0.
    assert state.turn == 0
    deal(state, ["scissors-3", "rock-0"], "paper-1", turn=0)
    play(state, "play scissors-3")  # seat 0 goes out, seat 1 scores 0
    # 3 all; seat 0 went out twice, seat 1 once (clarification winner-ties).
    assert state.scores() == [3, 3] and state.rounds_out == [2, 1] and state.winners() == [0]


def test_observation_shows_own_hand_counts_and_the_pile_only() -> None:
    state = deal(
        new(3), ["rock-1 paper-2", "scissors-3 scissors-3", "fire-alarm-left"], "rock-0 paper-7"
    )
    seen = state.observation(0)
    assert seen["hand"] == ["rock-1", "paper-2"] and seen["hand_sizes"] == [2, 2, 1]
    assert seen["pile"] == ["rock-0", "paper-7"] and seen["deck_size"] == 57 - 7
    text = repr(seen)
    assert "scissors-3" not in text and "fire-alarm-left" not in text
    assert "scissors-3" in state.hidden_from(0) and "paper-7" not in state.hidden_from(1)
    assert "rock-0" not in state.hidden_from(2)  # a copy is in the pile: visible


def test_illegal_actions_leave_the_state_alone() -> None:
    state = deal(new(2), ["rock-1 paper-2", "scissors-3"], "rock-0")
    before = state.snapshot()
    for bad in ("play rock-0", "play paper-2 x2", "draw", "pass", "give rock-1 to 1", Action("x")):
        with pytest.raises(IllegalAction):
            state.apply(bad)
        assert state.snapshot() == before


def test_same_seed_same_game_and_greedy_plays_to_the_end() -> None:
    for players in PLAYERS:
        first, a = play_game(GAME, players, 77, bots=["greedy", "random"])
        second, b = play_game(GAME, players, 77, bots=["greedy", "random"])
        assert first.log == second.log and a == b
        assert a.rounds == 3 and a.winners


# -- the random harness --------------------------------------------------------------------------

TYPE_BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}


@functools.cache
def _face(card: str) -> tuple[str, int]:
    """("rock", 3) from rock-3; ("fire-alarm", 5) for any alarm (clarification
    fire-alarm-value), read from the id, not from the model."""
    if card.startswith("fire-alarm-"):
        return "fire-alarm", 5
    kind, value = card.rsplit("-", 1)
    return kind, int(value)


@functools.cache
def _beats(played: str, top: str) -> bool:
    (kind, value), (top_kind, top_value) = _face(played), _face(top)
    if "fire-alarm" in (kind, top_kind):
        return True
    return TYPE_BEATS[kind] == top_kind or (kind == top_kind and value > top_value)


def _score(hand: list[str]) -> int:
    faces = [_face(card) for card in hand]
    alarms = sum(1 for kind, _ in faces if kind == "fire-alarm")
    if hand and alarms == len(hand):
        return 10 * alarms
    total = sum(value for _, value in faces)
    return 2 * total if alarms else total


def _check_plays(state: Any, action: Action) -> None:
    """After every action: the plays offered are exactly the faces in hand that beat the top,
    with every number of copies held; drawing or passing only when there is none."""
    if state.phase != "play":
        return
    hand = state.hands[state.turn]
    top = state.pile[-1]
    expected = []
    for face, held in Counter(hand).items():
        if state.open_pile or _beats(face, top):
            expected += [face if k == 1 else f"{face} x{k}" for k in range(1, held + 1)]
    offered = [a.target for a in state.legal_actions() if a.verb == "play"]
    assert sorted(offered) == sorted(expected)
    if not expected:
        others = [str(a) for a in state.legal_actions()]
        can_draw = bool(state.deck) or len(state.pile) > 1
        assert others == (["draw"] if can_draw else ["pass"])


def _scores_recomputed(state: Any, tally: Tally) -> None:
    n = state.players
    totals, outs = [0] * n, [0] * n
    scored = [entry for entry in state.log if entry.get("event") == "scored"]
    assert len(scored) == 3
    for entry in scored:
        out = entry["went_out"]
        assert entry["hands"][out] == []
        points = [0 if seat == out else _score(hand) for seat, hand in enumerate(entry["hands"])]
        assert entry["points"] == points
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        outs[out] += 1
        tally.seen["emptied-not-out"] += sum(
            1 for s, h in enumerate(entry["hands"]) if not h and s != out
        )
        held = sum(len(hand) for hand in entry["hands"])
        assert held <= sum(FULL.values())
    assert state.hands == scored[-1]["hands"]
    assert state.scores() == totals
    best = min(totals)
    tied = [s for s in range(n) if totals[s] == best]
    most = max(outs[s] for s in tied)
    assert state.winners() == [s for s in tied if outs[s] == most]
    for entry in state.log:
        kind = entry.get("event")
        if kind == "alarm":
            tally.seen[f"alarm-{entry['direction']}"] += 1
            if len(entry["took"]) < n * (2 if entry["direction"] == "both" else 1):
                tally.seen["short-take"] += 1
            if entry["drew"] < 2:
                tally.seen["short-draw"] += 1
        elif entry.get("action", "").endswith(("x2", "x3")):
            tally.seen["copies"] += 1
        elif entry.get("action") == "pass":
            tally.seen["pass"] += 1


#: Games per player count: 2000 where the harness runs at about 300 games/s or more (2 and 3
#: players), fewer with more players so that the whole file stays near a minute.
@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_hold_every_invariant(players: int) -> None:
    games = games_per_count()
    tally = simulate(
        GAME,
        players,
        games,
        seed=players,
        full_check_every=40,
        on_action=_check_plays,
        at_end=_scores_recomputed,
    )
    assert tally.games == games
    # Every path of the real game is reached at every count: the deck runs out and is refilled
    # from the pile, every alarm direction, copies played together, alarms drawing short.
    assert tally.events["refill"] > 0 and tally.verbs["draw"] > 0 and tally.verbs["give"] > 0
    for key in ("alarm-left", "alarm-right", "alarm-both", "copies", "short-take"):
        assert tally.seen[key] > 0, key


#: A small deck made to run dry: rock and scissors 0-3 and one fire alarm, one copy each, with
#: hands that leave 2 to 4 cards to draw. Rounds see the deck and the pile drawn out and
#: players passing, at every count.
DRY_DECK = [f"{kind}-{v}" for kind in ("rock", "scissors") for v in range(4)] + ["fire-alarm-left"]
DRY_HANDS = {2: 3, 3: 2, 4: 1, 5: 1, 6: 1}


@pytest.fixture(scope="module")
def dry_game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    return stress_game(tmp_path_factory.mktemp("dry"), DRY_DECK, DRY_HANDS)


@pytest.mark.parametrize("players", PLAYERS)
def test_rounds_end_when_the_deck_runs_dry(players: int, dry_game: Game) -> None:
    games = games_per_count()
    tally = simulate(dry_game, players, games, seed=100 + players, full_check_every=20)
    assert tally.games == games and tally.events["scored"] == 3 * games
    assert tally.verbs["pass"] > 0 and tally.events["refill"] > 0


def test_other_copies_are_the_hands_left_by_moving_another_copy_once_each() -> None:
    """For the re-deal test: the engine plays the first copy of a face; playing another leaves
    the hand in another order, and copies side by side leave the same hand either way."""
    state = deal(new(3), ["paper-2 rock-1 paper-2 scissors-5", "", ""], "rock-3")
    engine = state.clone()
    play(engine, "play paper-2")
    assert engine.hands[0] == ["rock-1", "paper-2", "scissors-5"]
    [other] = state.other_copies(Action.parse("play paper-2"))
    assert other.hands[0] == ["paper-2", "rock-1", "scissors-5"]
    assert other.pile == engine.pile and other.log == engine.log
    assert state.other_copies(Action.parse("play paper-2 x2")) == []
    state = deal(new(3), ["rock-1 paper-2 paper-2", "", ""], "rock-3")
    assert state.other_copies(Action.parse("play paper-2")) == []
    assert state.other_copies(Action("draw")) == []


@pytest.mark.parametrize("held", [0, 1, 2, 3, 7, 8, 16, 21, 22, 40])
def test_alarm_takes_draw_what_random_sample_draws(held: int) -> None:
    """The alarm's places in hand come from random.sample's own draws (made cheaper here), so a
    game plays as it did with random.sample itself."""
    for k in range(min(held, 6) + 1):
        for seed in range(30):
            mine, reference = random.Random(seed), random.Random(seed)
            assert _places(mine, held, k) == reference.sample(range(held), k)
            assert mine.random() == reference.random()  # the same draws were used


def test_tables_are_built_once_per_load_and_state_attributes_stay_inline() -> None:
    """The engine's speed rests on two things: the play tables (checked with legal_play) are
    made once per loaded game, not per game played, and the state has few enough attributes
    (CPython 3.11 keeps at most 30 inline) that reading one needs no dictionary lookup."""
    first, second = new(4, seed=1), new(6, seed=2)
    assert first.tables is second.tables
    assert set(first.tables.plays_on) == set(first.tables.open_plays_on) == set(FULL)
    assert len(vars(first)) <= 30


def test_plays_tables_offer_what_the_rule_functions_allow() -> None:
    """Each top card's tables, closed and open, list exactly the faces legal_play allows."""
    cards = GAME.model.face_by_id
    tables = new(2).tables
    for top in cards.values():
        for open_pile, on in ((False, tables.plays_on), (True, tables.open_plays_on)):
            first, held, playable = on[top.id]
            assert playable == first.get
            allowed = {
                c for c, card in cards.items() if legal_play(GAME.model, [card], top, open_pile)
            }
            assert set(first) == allowed
            for (face, n), plays in held.items():
                assert [str(p) for p in plays] == [
                    f"play {face}" if k == 1 else f"play {face} x{k}" for k in range(1, n + 1)
                ]


@pytest.mark.parametrize("players", PLAYERS)
def test_both_ways_takes_draw_what_random_sample_draws(players: int) -> None:
    """An alarm pointing both ways takes its cards on a fast path (every hand holding 2 to 21
    cards, two places drawn inline); it must move the cards random.sample's places pick, giver
    by giver, and leave the generator where sampling leaves it."""
    faces = sorted(FULL)
    for seed in range(40):
        state = new(players, seed=seed)
        shape = random.Random(seed)
        state.hands = [
            [shape.choice(faces[:6]) for _ in range(shape.randint(2, 21))] for _ in range(players)
        ]
        hands = [list(hand) for hand in state.hands]
        reference = random.Random()
        reference.setstate(state.rng.getstate())
        moves = []
        for giver, takers in enumerate(state.seating.takers["both"]):
            hand = hands[giver]
            places = reference.sample(range(len(hand)), 2)
            moves += [[taker, giver, hand[i]] for taker, i in zip(takers, places, strict=True)]
            for i in sorted(places, reverse=True):
                del hand[i]
        for taker, _, card in moves:
            hands[taker].append(card)
        assert state._takes("both") == moves
        assert state.hands == hands
        assert state.rng.getstate() == reference.getstate()

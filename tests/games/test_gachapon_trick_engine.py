"""Gachapon Trick's engine: scripted situations worked out by hand, and the random harness."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from gachapress.engine import Action, IllegalAction, load_game
from gachapress.games.gachapon_trick.engine import GachaponState
from tests.harness import Tally, games_per_count, simulate

GAME = load_game("gachapon-trick")
CARDS = GAME.new_game(players=3).by_id  # the engine's own card objects, as its hands hold


def cards(text: str) -> list[Any]:
    return [CARDS[i] for i in text.split()]


def arrange(state: GachaponState, **changes: Any) -> GachaponState:
    """Put the state in a situation of the test's choosing (hands, money, stack...)."""
    for name, value in changes.items():
        setattr(state, name, value)
    state._legal = None
    return state


def legal(state: GachaponState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def play(state: GachaponState, *actions: str) -> None:
    for action in actions:
        state.apply(action)


def three_player_trick(money: list[int]) -> GachaponState:
    """Three players, seat 0 to lead; the trick will be red-800, red-700, blue-300."""
    state = GAME.new_game(players=3, seed=1)
    assert isinstance(state, GachaponState)
    return arrange(
        state,
        hands=[cards("red-800 green-200"), cards("red-700 green-300"), cards("blue-300 pink-200")],
        money=list(money),
        bank=15000 - sum(money),
        lead=0,
        turn=0,
    )


def test_new_game_deals_the_setup_of_each_player_count() -> None:
    for players, hand, pile, money in ((2, 10, 10, 8000), (3, 12, 0, 5000), (4, 10, 0, 5000)):
        state = GAME.new_game(players=players, seed=3)
        assert [len(h) for h in state.hands] == [hand] * players
        assert [len(p) for p in state.piles] == [pile] * players
        assert len(state.stack) == 49 - players * (hand + pile) + 1
        assert state.money == [money] * players


def test_players_outside_the_mode_are_refused() -> None:
    with pytest.raises(ValueError, match="2, 3, 4 players"):
        GAME.new_game(players=5, seed=1)
    with pytest.raises(ValueError, match="no mode"):
        GAME.new_game(players=3, seed=1, mode="party")


def test_winner_buys_then_may_take_the_top_card_and_stop() -> None:
    state = three_player_trick([5000, 5000, 5000])
    play(state, "play red-800", "play red-700")
    assert legal(state) == ["play blue-300", "play pink-200"]  # no red in hand: anything goes
    play(state, "play blue-300")
    assert (state.phase, state.turn) == ("buy", 0)  # red is the majority, ¥800 the highest
    assert legal(state) == ["buy red-800", "buy red-700", "buy blue-300"]  # one is obligatory
    play(state, "buy blue-300")
    assert "buy top of deck" in legal(state) and "done" in legal(state)
    play(state, "buy top of deck")
    assert "buy top of deck" not in legal(state)  # once per trick
    play(state, "done")
    assert state.money[0] == 5000 - 300 - 500
    assert state.spent == [True, False, False]
    assert state.lead == 0 and state.phase == "play"
    assert {c.id for c in state.discard} == {"red-800", "red-700"}


def test_after_the_top_card_the_winner_may_buy_no_more_trick_cards() -> None:
    state = three_player_trick([5000, 5000, 5000])
    play(state, "play red-800", "play red-700", "play blue-300", "buy blue-300")
    play(state, "buy top of deck")  # clarification purchase-order: trick cards come first
    assert legal(state) == ["done"]
    with pytest.raises(IllegalAction):
        state.apply("buy red-800")


def test_win_transfers_to_the_next_in_the_majority_suit() -> None:
    state = three_player_trick([200, 5000, 5000])  # seat 0 cannot pay for any card
    play(state, "play red-800", "play red-700", "play blue-300")
    assert (state.phase, state.turn) == ("buy", 1)
    play(state, "buy red-700", "done")
    assert state.lead == 1  # the buyer leads next (clarification who-leads-after-transfer)


def test_win_transfers_past_everyone_who_cannot_pay() -> None:
    state = three_player_trick([200, 200, 300])
    play(state, "play red-800", "play red-700", "play blue-300")
    assert (state.turn, legal(state)) == (2, ["buy blue-300"])


def test_nobody_can_pay_the_trick_is_discarded_and_the_winner_leads() -> None:
    state = three_player_trick([200, 200, 200])
    play(state, "play red-800", "play red-700", "play blue-300")
    assert state.phase == "play" and state.lead == 0
    assert {c.id for c in state.discard} >= {"red-800", "red-700", "blue-300"}
    assert state.money == [200, 200, 200]


def test_player_with_100_left_is_out_and_the_lead_passes_them() -> None:
    state = three_player_trick([900, 5000, 5000])
    play(state, "play red-800", "play red-700", "play blue-300", "buy red-800", "done")
    assert state.money[0] == 100 and state.out == [True, False, False]
    assert state.hands[0] == []  # their cards are discarded
    assert state.lead == 1 and state.turn == 1  # seat 0 would lead, but is out
    assert {"event": "out", "seat": 0} in state.log


def test_last_player_left_may_buy_from_their_hand() -> None:
    state = three_player_trick([900, 5000, 700])
    play(state, "play red-800", "play red-700", "play blue-300")  # seat 0 wins, buys red-800
    play(state, "buy red-800", "done")
    state = arrange(state, out=[True, False, True], hands=[[], cards("green-300"), []])
    state._after_purchases(leader=1)
    assert (state.phase, state.turn) == ("last", 1)
    assert legal(state)[:1] == ["buy green-300"]
    play(state, "buy green-300", "done")
    assert state.round == 2  # the round was scored and the next one dealt


def test_last_player_buys_hand_cards_before_the_top_card() -> None:
    state = three_player_trick([900, 5000, 700])
    play(state, "play red-800", "play red-700", "play blue-300", "buy red-800", "done")
    state = arrange(state, out=[True, False, True], hands=[[], cards("green-300"), []])
    state._after_purchases(leader=1)
    play(state, "buy top of deck")  # clarification last-player: hand cards come first
    assert legal(state) == ["done"]
    with pytest.raises(IllegalAction):
        state.apply("buy green-300")


def test_refund_gives_back_a_toys_cost() -> None:
    state = three_player_trick([5000, 5000, 5000])
    state.stack.remove(state.refund_card)
    state.stack.append(state.refund_card)  # the Refund card is now the top of the stack
    play(state, "play red-800", "play red-700", "play blue-300", "buy red-800", "buy top of deck")
    assert state.refund_holder == 0
    assert "refund red-800" in legal(state)
    play(state, "refund red-800")
    assert state.money[0] == 5000 - 800 - 500 + 800
    assert state.refund_holder is None and "red-800" in {c.id for c in state.discard}
    with pytest.raises(IllegalAction):
        state.apply("refund red-800")


def test_a_refund_does_not_restore_the_no_spend_bonus() -> None:
    state = three_player_trick([5000, 5000, 5000])
    state.stack.remove(state.refund_card)
    state.stack.append(state.refund_card)
    play(state, "play red-800", "play red-700", "play blue-300", "buy red-800", "buy top of deck")
    play(state, "refund red-800")  # clarification refund-and-bonus: the purchases still count
    assert state.spent[0] and state.money[0] == 5000 - 500


def test_the_next_round_is_led_by_the_most_points_in_total() -> None:
    state = three_player_trick([1000, 5000, 1000])
    arrange(state, points=[50, 0, 0], spent=[True, False, True])
    state._score_round()  # this round: 5, 30, 5 points; in total 55, 30, 5
    assert state.points == [55, 30, 5]
    assert state.round == 2 and state.lead == 0  # clarification next-lead-on-total


def test_two_players_get_their_own_starting_money_again_each_round() -> None:
    state = GAME.new_game(players=2, seed=4)
    while state.round == 1:
        state.apply(state.legal_actions()[0])
    assert state.money == [8000, 8000]  # clarification two-player-money-each-round


def test_money_collections_refund_holder_and_a_discarded_hand_are_public() -> None:
    state = three_player_trick([900, 5000, 5000])
    state.stack.remove(state.refund_card)
    state.refund_holder = 1
    play(state, "play red-800", "play red-700", "play blue-300", "buy red-800", "done")
    seen = state.observation(2)  # clarification what-is-public
    assert seen["money"] == [100, 5000, 5000] and seen["out"] == [True, False, False]
    assert seen["collections"] == [["red-800"], [], []] and seen["refund_holder"] == 1
    assert {"green-200", "red-700", "blue-300"} <= set(seen["discard"])  # seat 0's hand too
    assert seen["hand_sizes"] == [0, 1, 1]


def deal(state: GachaponState, hands: list[str], top: str | None = None, **changes: Any) -> None:
    """Replace the dealt hands; every other card goes to the stack (``top`` on top)."""
    dealt = [cards(hand) for hand in hands]
    held = {c.id for hand in dealt for c in hand} | {top}
    rest = [c for c in state.toys if c.id not in held]
    stack = [*rest, state.refund_card, *([CARDS[top]] if top else [])]
    arrange(state, hands=dealt, piles=[[] for _ in hands], stack=stack, **changes)
    state.check_invariants()


def test_a_complete_scripted_game_scores_as_worked_out_by_hand() -> None:
    state = GAME.new_game(players=3, seed=5)
    assert isinstance(state, GachaponState)
    # Round 1, seat 0 leads.
    deal(state, ["red-800 blue-200", "red-300 green-300", "yellow-700 pink-500"], lead=0, turn=0)
    play(state, "play red-800", "play red-300", "play yellow-700")  # red majority: seat 0 wins
    play(state, "buy red-800", "buy yellow-700", "done")  # two rhinos for ¥1500
    play(state, "play blue-200", "play green-300", "play pink-500")  # no majority: pink ¥500
    play(state, "buy pink-500", "done")
    # Seat 0: rhinos 2x2=4, ¥3500 -> 17: 21. Seat 1: ¥5000 -> 25, +5 unspent: 30.
    # Seat 2: one rhino 1, ¥4500 -> 22: 23.
    assert state.points == [21, 30, 23] and state.round == 2
    assert state.lead == 1  # the most points leads the next round
    deal(state, ["green-800", "green-200", "orange-200"], top="purple-800", turn=1)
    play(state, "play green-200", "play orange-200", "play green-800")  # green majority: seat 0
    play(state, "buy green-800", "buy orange-200", "buy top of deck", "done")
    # Seat 0: bottles 2x2=4, the top card purple-800 is a robot (1), ¥3500 -> 17: 22.
    assert state.points == [43, 60, 53] and state.lead == 1
    # Round 3: seat 0 has only ¥600, so cannot pay for any card of a ¥700-800 trick.
    deal(state, ["blue-800", "blue-700", "red-700"], turn=1, money=[600, 5000, 5000], bank=4400)
    play(state, "play blue-700", "play red-700", "play blue-800")  # blue majority: seat 0 wins
    assert state.turn == 1 and state.phase == "buy"  # the win passes to blue-700
    play(state, "buy blue-700", "done")
    # Seat 0: ¥600 -> 3, +5 (bought nothing this round): 8. Seat 1: a frog 1, ¥4300 -> 21: 22.
    # Seat 2: ¥5000 -> 25, +5: 30. Totals 51, 82, 83.
    assert state.is_terminal()
    assert state.scores() == [51, 82, 83] and state.winners() == [2]
    state.check_invariants()


def test_a_played_state_keeps_its_attributes_inline_and_its_cards_fast() -> None:
    """CPython 3.11 keeps at most 30 attribute names of an object inline; past that every
    attribute read and method lookup of the state goes through a dict (the state's own
    attributes are slots for that). Cards compare by identity without running Python code."""
    state = GAME.new_game(players=4, seed=2)
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1])
    assert len(vars(state)) < 30
    card = state.toys[0]
    assert type(card).__eq__ is object.__eq__
    assert type(card).__getattribute__ is object.__getattribute__
    assert not hasattr(card, "__dict__")


def test_illegal_actions_leave_the_state_alone() -> None:
    state = three_player_trick([5000, 5000, 5000])
    before = state.snapshot()
    for bad in ("play red-700", "buy red-800", "done", "play nothing", Action("dance")):
        with pytest.raises(IllegalAction):
            state.apply(bad)
        assert state.snapshot() == before


def test_two_players_alternate_four_card_tricks_and_draw_two() -> None:
    state = GAME.new_game(players=2, seed=11)
    first = state.lead
    order = []
    for _ in range(4):
        order.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert order == [first, 1 - first, first, 1 - first]
    assert state.phase == "buy"
    state.apply(state.legal_actions()[0])
    while state.phase == "buy":
        state.apply(
            Action("done") if Action("done") in state.legal_actions() else state.legal_actions()[0]
        )
    assert [len(h) for h in state.hands] == [10, 10] and [len(p) for p in state.piles] == [8, 8]
    assert state.lead == 1 - first  # the lead alternates


def _independent_round_points(collection: list[str], money: int, spent: bool) -> int:
    """Scoring written again from the seed, without the rule functions."""
    toys = Counter(CARDS[c].toy for c in collection)  # type: ignore[attr-defined]
    return sum(n * n for n in toys.values()) + money // 200 + (0 if spent else 5)


def _scores_recomputed(state: Any, tally: Tally) -> None:
    totals = [0] * state.players
    for entry in state.log:
        if entry.get("event") == "trick" and entry["buyer"] not in (None, entry["winner"]):
            tally.seen["transfer"] += 1
        if entry.get("event") == "scored":
            for seat in range(state.players):
                expected = _independent_round_points(
                    entry["collections"][seat], entry["money"][seat], entry["spent"][seat]
                )
                assert entry["points"][seat] == expected
                totals[seat] += expected
    assert totals == state.scores()
    best = max(zip(totals, state.money, strict=True))
    assert state.winners() == [
        s for s in range(state.players) if (totals[s], state.money[s]) == best
    ]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_hold_every_invariant(players: int) -> None:
    games = games_per_count()
    tally = simulate(
        GAME, players, games, seed=players, full_check_every=40, at_end=_scores_recomputed
    )
    assert tally.games == games
    assert tally.verbs["refund"] > 0 and tally.events["out"] > 0 and tally.events["top"] > 0
    assert tally.seen["transfer"] > 0  # nobody-can-pay is rarer: see its scripted test

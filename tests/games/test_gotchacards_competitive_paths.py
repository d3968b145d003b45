"""GotchaCards Competitive's fast paths decide exactly as the plain ones they stand for.

The draft and placing moves leave the next legal actions in the core's cache as they go, and
the lanes are resolved by lean rule code; each test here checks one such path against the
state worked out afresh or against the rule functions, over many random games.
"""

from __future__ import annotations

import itertools
import random

import pytest

from gachapress.engine import load_game
from gachapress.games.gotchacards import engine as engine_module
from gachapress.games.gotchacards import rules
from gachapress.games.gotchacards.engine import KEEP, PICK, PLACE, CompetitiveState, GotchaState

GAME = load_game("gotchacards")


@pytest.mark.parametrize("beginner", [False, True])
def test_draft_and_placing_moves_leave_the_legal_actions_worked_out_afresh(
    beginner: bool,
) -> None:
    """After every move into a draft or placing step the cache already holds the legal
    actions (``_legal_actions`` is skipped), and they are those worked out from the state."""
    options = ("beginner",) if beginner else ()
    kept = 0
    for seed in range(40):
        state = GAME.new_game(2, seed, "competitive", options)
        assert isinstance(state, CompetitiveState)
        choose = random.Random(seed).random
        while not state.is_terminal():
            cached = state._legal
            if state.phase in (KEEP, PICK, PLACE):
                assert cached is not None, state.phase
                kept += 1
            if cached is not None:
                assert cached == state._legal_actions()
            legal = state.legal_actions()
            state.apply(legal[int(choose() * len(legal))])
    assert kept > 1000


def test_competitive_tables_are_made_once_per_load_and_the_outcome_is_slotted() -> None:
    """The pick order and the draft's numbers come from a per-load table (``rules.draft_picker``
    for each pick, the model's draft), and the outcome made every turn has no instance dict (a
    dict per turn cost more than the resolution's bookkeeping)."""
    game = load_game("gotchacards")
    first, second = game.new_game(2, 1, "competitive"), game.new_game(2, 2, "competitive")
    assert isinstance(first, CompetitiveState) and isinstance(second, CompetitiveState)
    assert first.competitive is second.competitive
    for player1 in (0, 1):
        seats = first.competitive.pickers[player1]
        roles = [rules.draft_picker(game.model, picks) for picks in range(len(seats))]
        assert seats == tuple(player1 if role == 0 else 1 - player1 for role in roles)
    draft = game.model.competitive.draft
    numbers = first.competitive.draw, first.competitive.keep, first.competitive.player2_draw
    assert numbers == (draft.draw, draft.keep, draft.player2_draw)
    cards = [first.tables.by_id["rock-1"]], [first.tables.by_id["paper-1"]]
    out = rules.answer_all(rules.resolve_field(game.model, 0, cards), [])
    assert isinstance(out, rules.FieldOutcome) and not hasattr(out, "__dict__")
    assert out.fights == [["rock"], ["paper"]] and out.taken == [[], [*cards[0], *cards[1]]]


def test_the_per_load_turn_tables_give_what_the_rule_functions_give() -> None:
    """Who leads each turn (a role, and the seats in placing order), the placing limits for
    every hand size a game can reach, in regular turns and in overtime (whatever the turn), and
    the match's winner for every score of rounds won that the rule accepts are the rule
    functions' answers."""
    game = load_game("gotchacards")
    state = game.new_game(2, 1, "competitive")
    assert isinstance(state, CompetitiveState)
    tables, model = state.competitive, game.model
    turns = range(1, len(model.competitive.turns) + 1)
    sizes = range(model.deck_size(beginner=False) + 1)
    assert tables.leaders == {turn: rules.turn_leader(model, turn) for turn in turns}
    for player1, turn in itertools.product((0, 1), turns):
        leader = player1 if rules.turn_leader(model, turn) == 0 else 1 - player1
        assert tables.placers[player1][turn] == (leader, 1 - leader)
    assert list(tables.limits) == list(turns)
    for turn, row in tables.limits.items():
        assert row == [rules.place_limits(model, turn, n) for n in sizes]
    for turn in (*turns, len(turns) + 1):
        assert tables.overtime_limits == [rules.place_limits(model, turn, n, True) for n in sizes]
    need = model.competitive.rounds_to_win
    for wins in itertools.product(range(need + 2), repeat=2):
        if wins in tables.champions:
            assert tables.champions[wins] == rules.match_winner(model, list(wins))
        else:
            with pytest.raises(ValueError):
                rules.match_winner(model, list(wins))


def test_turn_start_checks_are_remembered_as_the_rule_function_gives_them() -> None:
    """The turn-start table, filled in as games meet hand sizes, holds what
    ``rules.turn_start_check`` gives for each entry filled."""
    game = load_game("gotchacards")
    for seed in range(30):
        state = game.new_game(2, seed, "competitive")
        choose = random.Random(seed).random
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[int(choose() * len(legal))])
    assert isinstance(state, CompetitiveState)
    filled = 0
    for turn, rows in state.competitive.starts.items():
        for first, row in enumerate(rows):
            for second, check in enumerate(row):
                if check is not engine_module._UNKNOWN:
                    assert check == rules.turn_start_check(game.model, turn, [first, second])
                    filled += 1
    assert filled > 10


def _settled_alike(model: rules.GotchaCards, seed: int, timing: dict[str, str]) -> int:
    """Settle a random field of ``seed`` with random answers, with and without ``timing``, and
    check each step is the same; the number of choices asked."""
    rng = random.Random(seed)
    cards = list(GAME.new_game(2, 0, "competitive").tables.by_id.values())
    sides = [rng.choices(cards, k=rng.randint(0, 5)), rng.choices(cards, k=rng.randint(1, 5))]
    priority, answers = rng.randint(0, 1), []
    while True:
        step = rules.settle_field(model, priority, sides, answers, timing)
        assert step == rules.settle_field(model, priority, sides, answers)
        if not isinstance(step, rules.Choice):
            return len(answers)
        answers.append(rng.choice(step.options))


def test_settle_field_with_the_effect_timings_read_once_settles_alike() -> None:
    """``rules.effect_timings`` is the model's ``effect_timing`` for every kind (a model whose
    Gacha Capsules draw after scoring too), and ``settle_field`` given it settles every step of
    many random fields as when it reads the model itself."""
    model = GAME.model
    timing = model.effect_timing.model_copy(update={"draw": "after-scoring"})
    later = model.model_copy(update={"effect_timing": timing})
    for each in (model, later):
        timings = rules.effect_timings(each)
        kinds = ("swap", "draw", "smash", "wild", "steal", "bonus")
        assert timings == {kind: each.effect_timing.of(kind) for kind in kinds}
    assert rules.effect_timings(later)["draw"] == "after-scoring"
    state = GAME.new_game(2, 0, "competitive")
    assert isinstance(state, CompetitiveState)
    assert state.competitive.timing == rules.effect_timings(model)
    for each in (model, later):
        asked = sum(_settled_alike(each, seed, rules.effect_timings(each)) for seed in range(400))
        assert asked > 20


def test_the_offered_actions_are_each_id_once_in_the_order_of_its_first_card() -> None:
    """``_offer`` (the legal actions of a draft step or of placing) gives each id's action once,
    in the order of its first card, and tells whether the cards were distinct: for no card,
    every card, every pair (the short lists it tells apart at once) and longer random lists."""
    state = GAME.new_game(2, 0, "competitive")
    assert isinstance(state, CompetitiveState)
    table = state.tables.place
    ids = list(table)
    rng = random.Random(5)
    lists = [[], *([i] for i in ids), *map(list, itertools.product(ids, repeat=2))]
    lists += [rng.choices(ids, k=rng.randint(3, 9)) for _ in range(500)]
    for cards in lists:
        expected = [table[card] for card in dict.fromkeys(cards)]
        assert state._offer(table, cards) == expected
        assert state.offered == expected and state.distinct == (len(set(cards)) == len(cards))
        if state.distinct:  # what a caller that knows it may say (``_next_pick``)
            assert state._offer(table, cards, True) == expected


def test_a_reveal_logs_the_lanes_that_nothing_changes_afterwards() -> None:
    """The reveal entry keeps the state's lanes themselves: they hold the cards each seat
    placed face down, in order, and still do when the game is over (every later turn and round
    makes new lanes)."""
    revealed = 0
    for seed in range(40):
        state = GAME.new_game(2, seed, "competitive")
        assert isinstance(state, CompetitiveState)
        choose = random.Random(seed).random
        placed: list[list[str]] = [[], []]
        copies: list[list[list[str]]] = []
        while not state.is_terminal():
            legal = state.legal_actions()
            seat, action, logged = state.turn, legal[int(choose() * len(legal))], len(state.log)
            state.apply(action)
            if action.verb == "place":
                placed[seat].append(str(action.target))
            for entry in state.log[logged:]:
                if entry.get("event") == "reveal":
                    assert entry["lanes"] == placed
                    copies.append([list(side) for side in placed])
                    placed = [[], []]
        assert [e["lanes"] for e in state.log if e.get("event") == "reveal"] == copies
        revealed += len(copies)
    assert revealed > 100


def test_the_two_seat_points_and_orders_are_the_shared_ones() -> None:
    """Competitive's points are ``GotchaState.points`` at every step of many games (and with a
    card worth two points), and its effect-priority orders are the sides of
    ``rules.effect_order`` for each seat with priority."""
    scored = 0
    for seed in range(30):
        state = GAME.new_game(2, seed, "competitive")
        assert isinstance(state, CompetitiveState)
        choose = random.Random(seed).random
        while not state.is_terminal():
            for per in (2, state.tables.per_card):  # the model's last
                state.per_card = per
                assert state.points() == GotchaState.points(state)
            scored += any(state.piles)
            legal = state.legal_actions()
            state.apply(legal[int(choose() * len(legal))])
    assert scored > 200
    for priority in (0, 1):
        order = rules.effect_order(GAME.model, priority, [1, 1])
        assert state.competitive.orders[priority] == [side for side, _ in order]


def test_the_plan_holds_the_outcome_in_effect_priority_order() -> None:
    """The plan that Competitive makes of many random fields' outcomes (``_plan`` in its
    effect order), for each seat with priority: the seats taking cards clockwise from it
    (``rules.clockwise``) with their cards' ids, the counts, the trash's ids, the outcome's
    own lists, and whether the turn is plain."""
    state = GAME.new_game(2, 0, "competitive")
    assert isinstance(state, CompetitiveState)
    cards = list(state.tables.by_id.values())
    gaining = 0
    for seed in range(300):
        rng = random.Random(seed)
        sides = [rng.choices(cards, k=rng.randint(0, 5)), rng.choices(cards, k=rng.randint(1, 5))]
        priority, answers = rng.randint(0, 1), []
        out = rules.settle_field(GAME.model, priority, sides, answers)
        while isinstance(out, rules.Choice):
            answers.append(rng.choice(out.options))
            out = rules.settle_field(GAME.model, priority, sides, answers)
        state.priority = priority
        plan = state._plan(out, state.competitive.orders[priority])
        order = rules.clockwise(2, priority)
        ids = [[card.id for card in out.taken[seat]] for seat in (0, 1)]
        assert plan.gains == tuple((seat, tuple(ids[seat])) for seat in order if ids[seat])
        assert plan.counts == [len(ids[0]), len(ids[1])]
        assert plan.trashed == tuple(card.id for card in out.trashed)
        assert (plan.bonus, plan.draws, plan.steals) == (out.bonus, out.draws, out.steals)
        assert plan.fights is out.fights
        gain = any(out.draws) or any(out.steals)
        assert (plan.any_gain, plan.any_bonus) == (gain, any(out.bonus))
        assert plan.plain == (not gain and not any(out.bonus))
        gaining += gain
    assert gaining > 20


def test_the_gains_after_scoring_are_those_of_the_gain_rule() -> None:
    """``settle_field`` adds the gains that act after scoring (Magnets; Gacha Capsules too in a
    model where they draw after scoring) with the timings it was given: for many random fields,
    they are what ``rules._gain`` gives every card the effect step left in the lanes."""
    model = GAME.model
    timing = model.effect_timing.model_copy(update={"draw": "after-scoring"})
    later = model.model_copy(update={"effect_timing": timing})
    cards = list(GAME.new_game(2, 0, "competitive").tables.by_id.values())
    gained = 0
    for each, kinds in ((model, ("steals",)), (later, ("draws", "steals"))):
        for seed in range(300):
            rng = random.Random(seed)
            sides = [rng.choices(cards, k=rng.randint(0, 5)) for _ in range(2)]
            priority, answers = rng.randint(0, 1), []
            out = rules.settle_field(each, priority, sides, answers)
            while isinstance(out, rules.Choice):
                answers.append(rng.choice(out.options))
                out = rules.settle_field(each, priority, sides, answers)
            gains = {"draws": [0, 0], "steals": [0, 0]}
            for side, lane in itertools.product((0, 1), range(5)):
                card = (out.sides[side][lane:] or [None])[0]
                if card is not None:
                    rules._gain(each, card, "after-scoring", gains["draws"], gains["steals"], side)
            for kind in kinds:
                assert getattr(out, kind) == gains[kind]
                gained += any(gains[kind])
    assert gained > 50


def test_a_round_shuffled_ahead_deals_what_the_whole_shuffle_deals() -> None:
    """A round shuffles its draws (the draft's and Player2's) in one go: through the draft of
    many games, Player2's extra card and the deck left are those of the deck's whole shuffle,
    finished at the round's start (``deck``) in a copy of the game."""
    for seed in range(60):
        state = GAME.new_game(2, seed, "competitive")
        assert isinstance(state, CompetitiveState)
        whole = state.clone()
        assert isinstance(whole, CompetitiveState)
        deck = list(whole.deck)  # the rest of the shuffle, done at once
        player2 = state._seat(1)
        choose = random.Random(seed).random
        while state.phase in (KEEP, PICK):
            legal = state.legal_actions()
            state.apply(legal[int(choose() * len(legal))])
        assert state.hands[player2][-1] == deck[-1]
        assert state.deck == deck[:-1]

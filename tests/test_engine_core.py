"""The engine core's shared pieces: the state's shuffle and the random bots."""

from __future__ import annotations

import random

import pytest

from gachapress.engine import load_game
from gachapress.engine.bots import RandomBot
from gachapress.engine.play import make_bots, play_game

GAME = load_game("gachapon-trick")


@pytest.mark.parametrize("length", [0, 1, 2, 3, 7, 8, 9, 44, 49, 64, 65, 200])
def test_shuffle_gives_the_order_of_random_shuffle(length: int) -> None:
    for seed in range(40):
        state = GAME.new_game(players=3, seed=seed)
        reference = random.Random()
        reference.setstate(state.rng.getstate())
        mine, theirs = list(range(length)), list(range(length))
        state.shuffle(mine)
        reference.shuffle(theirs)
        assert mine == theirs
        assert state.rng.random() == reference.random()  # the same draws were used


def test_random_bots_of_a_game_share_one_seeded_generator() -> None:
    bots = make_bots(GAME, ["random", "greedy", "random"], 3, seed=5)
    first, _, third = bots
    assert isinstance(first, RandomBot) and isinstance(third, RandomBot)
    assert first.rng is third.rng
    again = make_bots(GAME, ["random"], 3, seed=5)
    assert [again[0].rng.random() for _ in range(3)] == [first.rng.random() for _ in range(3)]


def test_same_seed_same_game_different_seed_another() -> None:
    one, result = play_game(GAME, 4, 11)
    two, again = play_game(GAME, 4, 11)
    _, other = play_game(GAME, 4, 12)
    assert one.log == two.log and result == again
    assert other != result

"""The engine core's shared pieces: the state's shuffle and the random bots."""

from __future__ import annotations

import random

import pytest

from gachapress.engine import State, load_game
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


def _play_out(state: State, seed: int) -> list[dict[str, object]]:
    picks = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[int(picks.random() * len(legal))])
    return state.log


@pytest.mark.parametrize(
    ("game_id", "mode", "players"),
    [
        ("gasha", None, 4),
        ("gotcha", None, 4),
        ("gotchacards", "party", 3),
        ("gotchacards", "competitive", 2),
    ],
)
def test_a_flat_clone_is_independent_and_plays_on_alike(
    game_id: str, mode: str | None, players: int
) -> None:
    """``State.flat_clone`` (these games' clone) copies every attribute of the instance dict
    and of the slots: at every step, a clone played to its end leaves the original as it was,
    and a second clone given the same choices plays the very same game."""
    state = load_game(game_id).new_game(players, 3, mode)
    chooser = random.Random(5)
    while not state.is_terminal():
        before = state.snapshot()
        twin = state.clone()
        assert type(twin) is type(state) and twin.snapshot() == before
        seed = chooser.randrange(1000)
        played = _play_out(twin, seed)
        assert state.snapshot() == before, "playing the clone changed the original"
        assert _play_out(state.clone(), seed) == played
        legal = state.legal_actions()
        state.apply(legal[int(chooser.random() * len(legal))])

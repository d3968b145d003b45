"""The scaffold's sample engine (a trick-taking game on the trick base), as `gachapress new
--engine` installs it beside the sample deck: random games through the harness."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gachapress.cli.new_cmd import new
from gachapress.engine.core import Game, load_game
from tests.harness import simulate


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """The scaffold's game with its sample engine, as `new --engine` makes it."""
    root: Path = tmp_path_factory.mktemp("project")
    new("sample", root, engine=True)
    return load_game("sample", root / "rules")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_sample_engine_plays_the_sample_deck_to_the_end(game: Game, players: int) -> None:
    tally = simulate(game, players, 40)
    deck = sum(card.count for card in game.model.deck("main").faces())
    assert tally.events["trick"] == 40 * (deck // players)


def test_the_highest_value_of_the_led_suit_wins_and_a_trick_scores_one(game: Game) -> None:
    state: Any = game.new_game(players=2, seed=3)
    led = state.hands[0][0]
    state.apply(f"play {led.id}")
    hand = state.hands[1]
    follow = [c for c in hand if c.suit == led.suit]
    assert {a.target for a in state.legal_actions()} == {c.id for c in follow or hand}
    card = max(follow, key=lambda c: c.value) if follow else hand[0]
    state.apply(f"play {card.id}")
    wins = card.suit == led.suit and card.value > led.value
    assert state.scores() == ([0, 1] if wins else [1, 0])
    assert state.turn == (1 if wins else 0)

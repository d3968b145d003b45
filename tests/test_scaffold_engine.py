"""The scaffold's sample engine (a trick-taking game on the trick base), run on the scaffold's
own sample deck as `gachapress new` writes it: random games through the engine harness."""

from __future__ import annotations

import dataclasses
import importlib.util
from importlib.machinery import SourceFileLoader
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from gachapress.cli.new_cmd import new
from gachapress.data.load import load_rules
from gachapress.engine.core import Game
from tests.harness import simulate

MODES = "modes:\n  standard: {players: [2, 3, 4], name: Standard, text: Tricks.}\n"


def sample_engine() -> Any:
    """The module the scaffold's engine file makes."""
    path = str(files("gachapress.scaffold").joinpath("engine.py.txt"))
    loader = SourceFileLoader("sample_engine", path)
    spec = importlib.util.spec_from_loader("sample_engine", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    root: Path = tmp_path_factory.mktemp("project")
    new("sample", root)
    with (root / "rules/sample/game.yaml").open("a", encoding="utf-8") as file:
        file.write(MODES)
    data = load_rules("sample", root / "rules")
    spec = dataclasses.replace(data.spec, engine=sample_engine().ENGINE)
    return Game(dataclasses.replace(data, spec=spec))


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

"""The engine contract (``gachapress.engine.contract``): a tiny card game's engine passes it,
and each engine planting one fault fails it with one plain sentence naming where."""

from __future__ import annotations

import dataclasses
import inspect
import random
import re
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

import gachapress.data.load
import gachapress.serve.app
from gachapress.assembly.builder import BuildOptions
from gachapress.cli.app import app
from gachapress.data.load import GameData, load_rules
from gachapress.engine import Action, Game, State, load_game
from gachapress.engine.contract import contract_failure, run_contract
from gachapress.engine.contract import verdict as verdict_module
from gachapress.engine.core import permute_hidden
from gachapress.serve.app import Preview, create_app
from gachapress.spec import EngineSpec, GameSpec
from tests.conftest import GAME_IDS

GAME_ID = "tiny"
MODES = "modes:\n  standard: {players: [2, 3], name: Standard, text: Play a card a turn.}\n"


class Tiny(State):
    """Each player holds two cards; on your turn play one face up and draw from the deck. The
    most points played wins."""

    max_actions_per_player = 20

    def __init__(self, game: Game, players: int, seed: int, mode: str, **options: bool) -> None:
        super().__init__(game, players, seed, mode, options)
        self.values = {card_id: card.value for card_id, card in game.model.cards().items()}
        self.deck = sorted(self.values)
        self.deal()
        self.hands = [[self.deck.pop(), self.deck.pop()] for _ in range(players)]
        self.pile: list[str] = []
        self.points = [0] * players
        self.turn = 0

    def deal(self) -> None:
        self.shuffle(self.deck)

    @property
    def current_player(self) -> int | None:
        return None if self.is_terminal() else self.turn

    def is_terminal(self) -> bool:
        return not any(self.hands)

    def _legal_actions(self) -> list[Action]:
        return [Action("play", card) for card in self.hands[self.turn]]

    def _apply(self, action: Action) -> None:
        card = action.target or ""
        self.hands[self.turn].remove(card)
        self.pile.append(card)
        self.points[self.turn] += self.values[card]
        if self.deck:
            self.hands[self.turn].append(self.deck.pop())
        self.turn = (self.turn + 1) % self.players

    def observation(self, player: int) -> dict[str, Any]:
        return {
            "hand": sorted(self.hands[player]),
            "pile": list(self.pile),
            "deck": len(self.deck),
            "held": [len(hand) for hand in self.hands],
        }

    def scores(self) -> list[int]:
        return list(self.points)

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        return [seat for seat, points in enumerate(self.points) if points == max(self.points)]

    def snapshot(self) -> Any:
        hands = tuple(tuple(hand) for hand in self.hands)
        return (tuple(self.deck), hands, tuple(self.pile), tuple(self.points), self.turn)

    def check_invariants(self) -> None:
        held = [card for hand in self.hands for card in hand]
        assert sorted(self.deck + held + self.pile) == sorted(self.values), "a card went astray"

    def hidden_from(self, player: int) -> set[str]:
        others = {card for seat, hand in enumerate(self.hands) if seat != player for card in hand}
        return others | set(self.deck)

    def redeal(self, player: int, unseen: Collection[str], rng: random.Random) -> None:
        others = [hand for seat, hand in enumerate(self.hands) if seat != player]
        permute_hidden([self.deck, *others], unseen, rng)


class Peeking(Tiny):
    """Fault: a player's observation shows the first card of the next player's hand."""

    def observation(self, player: int) -> dict[str, Any]:
        return {**super().observation(player), "next": self.hands[(player + 1) % self.players][0]}


class Hinting(Tiny):
    """Fault: a player's observation tells the value of the deck's top card (no card id)."""

    def observation(self, player: int) -> dict[str, Any]:
        top = self.values[self.deck[-1]] if self.deck else None
        return {**super().observation(player), "top": top}


class GlobalShuffle(Tiny):
    """Fault: the deck is shuffled by Python's global generator, not the game's."""

    def deal(self) -> None:
        random.shuffle(self.deck)


class Lenient(Tiny):
    """Fault: any action is played, legal or not."""

    def apply(self, action: Action | str) -> None:
        action = Action.parse(action) if isinstance(action, str) else action
        self.log.append({"player": self.turn, "action": str(action)})
        self._legal = None
        if action.target in self.hands[self.turn]:
            self._apply(action)
        else:
            self.turn = (self.turn + 1) % self.players


class TupleEvent(Tiny):
    """Fault: a drawn card's event holds a tuple, which the log's JSON reads back as a list."""

    def _apply(self, action: Action) -> None:
        super()._apply(action)
        self.event("played", cards=(action.target, len(self.pile)))


class Forgetful(Tiny):
    """Fault: written without hidden_from and redeal."""

    hidden_from = State.hidden_from  # type: ignore[assignment]
    redeal = State.redeal  # type: ignore[assignment]


class Crashing(Tiny):
    """Fault: the third card played raises."""

    def _apply(self, action: Action) -> None:
        super()._apply(action)
        if len(self.pile) == 3:
            self.points[self.players] += 1  # a seat that does not exist


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project holding the game ``gachapress new`` makes, with a mode for 2 or 3 players."""
    root = tmp_path_factory.mktemp("contract")
    made = CliRunner().invoke(app, ["new", GAME_ID, "--root", str(root)])
    assert made.exit_code == 0, made.output
    with (root / "rules" / GAME_ID / "game.yaml").open("a", encoding="utf-8") as game_yaml:
        game_yaml.write(MODES)
    return root


def with_engine(project: Path, state: type[State]) -> GameData:
    data = load_rules(GAME_ID, project / "rules")
    return dataclasses.replace(data, spec=dataclasses.replace(data.spec, engine=EngineSpec(state)))


def failure_of(project: Path, state: type[State]) -> str:
    failure = run_contract(Game(with_engine(project, state)))
    assert failure is not None, f"{state.__name__} passed the contract"
    return str(failure)


def test_the_tiny_game_passes(project: Path) -> None:
    assert run_contract(Game(with_engine(project, Tiny))) is None


def test_an_observation_showing_a_hidden_card(project: Path) -> None:
    shown = Game(with_engine(project, Tiny)).new_game(2, seed=0).hands[1][0]
    assert failure_of(project, Peeking) == (
        f"tiny, standard 2 players, seed 0, step 0: player 0's observation shows {shown}, "
        "a card hidden from them."
    )


def test_an_observation_telling_of_hidden_cards(project: Path) -> None:
    """No card id shows, but the re-deal test finds what the top card's value tells."""
    said = failure_of(project, Hinting)
    assert re.fullmatch(
        r"tiny, standard [23] players, seed 0, step \d+: player (\d) can tell where cards "
        r"they have not seen lie: with those cards dealt again at step \d+, no way of playing "
        r"the re-dealt game that looks the same to player \1 up to here looks the same after "
        r"player \d's move \"play [a-z]+-\d\"\.",
        said,
    ), said


def test_a_shuffle_not_from_the_games_seed(project: Path) -> None:
    said = failure_of(project, GlobalShuffle)
    assert said.startswith(
        "tiny, standard 2 players, seed 0, step 0: the same seed played again gave another "
        "game, so the engine draws from Python's global random (random.shuffle, say) and not "
        "from the game's self.rng or self.shuffle (entry 1: "
    ), said
    assert "\n" not in said and said.endswith(".")


def test_an_illegal_action_accepted(project: Path) -> None:
    assert failure_of(project, Lenient) == (
        "tiny, standard 2 players, seed 0, step 0: the engine accepted no-such-verb nothing, "
        "which is not a legal action now."
    )


def test_a_log_that_does_not_replay(project: Path) -> None:
    said = failure_of(project, TupleEvent)
    assert said.startswith(
        "tiny, standard 2 players, seed 0, step 1: the log does not replay: entry 2: expected "
        "{'event': 'played', 'cards': ["
    ), said


def test_a_missing_method_is_named(project: Path) -> None:
    assert failure_of(project, Forgetful) == (
        "tiny: the engine's Forgetful lacks the methods hidden_from and redeal, which every "
        "engine's State must define (see the engine API)."
    )


def test_an_exception_inside_the_engine(project: Path) -> None:
    lines, first = inspect.getsourcelines(Crashing._apply)
    line = first + next(i for i, text in enumerate(lines) if "self.points[self.players]" in text)
    assert failure_of(project, Crashing) == (
        "tiny, standard 2 players, seed 0, step 2: the engine raised IndexError: list index out "
        f"of range (tests/test_engine_contract.py:{line})."
    )


def test_the_contract_leaves_pythons_generator_as_it_was(project: Path) -> None:
    random.seed(7)
    expected = random.random()
    random.seed(7)
    run_contract(Game(with_engine(project, Tiny)))
    assert random.random() == expected


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_example_games_pass(game_id: str) -> None:
    assert run_contract(load_game(game_id)) is None


def test_a_pass_is_kept_until_the_played_data_changes(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = with_engine(project, Tiny)
    assert contract_failure(data, tmp_path) is None
    assert [mark.name.startswith("tiny-") for mark in tmp_path.iterdir()] == [True]

    def played_again(game: Game) -> None:
        raise AssertionError("the contract was played again")

    monkeypatch.setattr(verdict_module, "run_contract", played_again)
    monkeypatch.setattr(verdict_module, "_PASSED", set())  # a new process: the mark on disk
    assert contract_failure(data, tmp_path) is None
    monkeypatch.setattr(verdict_module, "play_data", lambda game: "other numbers")
    with pytest.raises(AssertionError, match="played again"):
        contract_failure(data, tmp_path)


@pytest.fixture
def peeking(project: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The project's game played by the Peeking engine; the sentence the contract says of it."""
    data_spec = gachapress.data.load.data_spec

    def with_peeking(*args: Any) -> GameSpec:
        return dataclasses.replace(data_spec(*args), engine=EngineSpec(Peeking))

    monkeypatch.setattr(gachapress.data.load, "data_spec", with_peeking)
    shown = Game(with_engine(project, Tiny)).new_game(2, seed=0).hands[1][0]
    return (
        f"tiny, standard 2 players, seed 0, step 0: player 0's observation shows {shown}, a "
        "card hidden from them."
    )


def test_sim_refuses_an_engine_that_fails_the_contract(project: Path, peeking: str) -> None:
    result = CliRunner().invoke(
        app, ["sim", GAME_ID, "--players", "2", "--games", "5", "--root", str(project)]
    )
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert peeking in " ".join(result.output.split())


def test_the_play_page_refuses_an_engine_that_fails_the_contract(
    project: Path, peeking: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gachapress.serve.app, "has_engine", lambda game_id, folder: True)
    preview = Preview(BuildOptions(root=project, out=tmp_path / "out"), [GAME_ID])
    client = TestClient(create_app(preview))
    page = client.get(f"/_serve/play/{GAME_ID}")
    assert page.status_code == 500 and peeking in page.text
    setup = {"mode": "standard", "seats": ["human", "random"], "seed": 0}
    started = client.post(f"/_serve/play/{GAME_ID}/new", json=setup)
    assert started.status_code == 400 and peeking in started.json()["error"]


def test_sweep_refuses_an_engine_that_fails_the_contract(project: Path, peeking: str) -> None:
    sweep = project / "peek.yaml"
    sweep.write_text(f"game: {GAME_ID}\nplayers: [2]\ngames: 10\nvariants:\n  - name: as-written\n")
    result = CliRunner().invoke(
        app, ["sweep", str(sweep), "--workers", "1", "--root", str(project)]
    )
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert peeking in " ".join(result.output.split())

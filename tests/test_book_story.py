"""Whole-game examples are told as stories: the table at the start, each turn with what its
moves changed, the result; in players' words, checked against a game played here."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from gachapress.book import model as m
from gachapress.book.build import build_books
from gachapress.book.words import StringTable
from gachapress.cli.new_cmd import new
from gachapress.data.load import load_rules
from gachapress.engine import load_game
from gachapress.project import Templates
from tests.conftest import TEMPLATES

ENGINE_WORDS = ("seed", "deal number", "number of moves", "seat", "rules engine", "#0", "bot")


@cache
def story(game_id: str, lang: str = "en") -> m.Playthrough:
    book = build_books(load_rules(game_id), StringTable.load(TEMPLATES))[lang]
    (examples,) = [s for s in book.sections if isinstance(s, m.ExamplesSection)]
    return examples.playthroughs[0]


def words(nodes: Any) -> Iterator[str]:
    """Every text of a model node, depth first."""
    if isinstance(nodes, m.Text):
        yield nodes.text
    elif isinstance(nodes, m.CardPicture):
        yield nodes.card_id
    elif isinstance(nodes, str):  # a label: a pair's key, a turn's title
        yield nodes
    elif isinstance(nodes, tuple | list):
        for node in nodes:
            yield from words(node)
    elif dataclasses.is_dataclass(nodes):
        for field in dataclasses.fields(nodes):
            yield from words(getattr(nodes, field.name))


def said(nodes: Any) -> str:
    return "".join(w for w in words(nodes) if not w.startswith(("gasha-", "reward-", "bonus-")))


def cards(nodes: Any) -> list[str]:
    found: list[str] = []
    if isinstance(nodes, m.CardPicture):
        found.append(nodes.card_id)
    elif isinstance(nodes, tuple | list):
        for node in nodes:
            found += cards(node)
    elif dataclasses.is_dataclass(nodes):
        for field in dataclasses.fields(nodes):
            found += cards(getattr(nodes, field.name))
    return found


@pytest.mark.parametrize(
    ("game_id", "lang"), [(g, la) for g in ("gasha", "gotcha") for la in ("en", "ja")]
)
def test_a_story_speaks_no_engine_words(game_id: str, lang: str) -> None:
    text = said(
        (story(game_id, lang).setup, story(game_id, lang).table, story(game_id, lang).turns)
    )
    for word in ENGINE_WORDS:
        assert word not in text.lower()


def test_the_table_pictures_every_hand_dealt() -> None:
    item = load_rules("gasha").model.playthroughs[0]
    state = load_game("gasha").new_game(players=item.players, seed=item.seed)
    table = story("gasha").table
    assert [row.key for row in table] == [
        "Player 1's hand",
        "Player 2's hand",
        "The Set Reward row",
    ]
    for seat in range(item.players):
        assert cards(table[seat].nodes) == state.observation(seat)["hand"]
    assert cards(table[2].nodes) == state.observation(0)["row"]


def test_each_turn_tells_the_cards_drawn_and_paid() -> None:
    turns = story("gasha").turns
    assert [t.title for t in turns[:2]] == ["Turn 1: Player 1", "Turn 2: Player 2"]
    (trade,) = turns[0].steps  # Player 1 trades for Fox Familiar at once
    assert said(trade.move) == "Player 1 trades for "
    assert cards(trade.move) == ["reward-mg-ki-w"]
    paid = trade.notes[0]
    assert said(paid).startswith("Out of Player 1's hand:")
    assert sorted(cards(paid)) == ["gasha-kitsune", "gasha-magical-girl", "gasha-sushi"]
    (draws,) = turns[2].steps  # two draws told as one move, the two cards drawn after it
    assert said(draws.move) == "Player 1 draws from deck 2, deck 4"
    assert said(draws.notes[0]) == "Into Player 1's hand: "
    assert len(cards(draws.notes[0])) == 2


def test_the_last_token_triggers_the_end_and_still_gives_its_turn() -> None:
    item = story("gasha")
    notes = [said(n) for turn in item.turns for step in turn.steps for n in step.notes]
    end = next(i for i, n in enumerate(notes) if n.startswith("The end is triggered"))
    assert notes[end + 1] == "One more turn!: Player 1 plays again at once"
    assert [t.title for t in item.turns[-2:]] == ["Turn 29: Player 1", "Turn 30: Player 2"]
    label, scores = item.result[0]
    assert isinstance(label, m.Text) and label.text == "Final scores:"
    assert isinstance(scores, m.Pairs)
    assert [(p.key, said(p.nodes)) for p in scores.pairs] == [
        ("Player 1", "44 points"),
        ("Player 2", "41 points"),
    ]
    assert said(item.result[1]) == "Winner:Player 1"


def test_quiet_moves_of_a_round_are_told_together() -> None:
    first = [said(step.move) for step in story("gotcha").turns[0].steps]
    assert first[0] == "Player 1, Player 2, Player 3: no redraw, the hand is kept"
    # Player 1's bluff is told, nobody answers, it is taken back; then a round of no changes,
    # which is what ends placing (seed, 2.課金準備).
    assert first[1].startswith("Player 1 places ") and first[2] == "Player 2, Player 3: no change"
    assert first[3].startswith("Player 1 takes ")
    assert "Player 1, Player 2, Player 3: no change" in first
    assert story("gotcha").result[0][0].text == "The scores where this example stops:"


def test_a_designers_trick_game_is_told_with_the_bases_words(tmp_path: Path) -> None:
    """A game of `new --engine`, with no words of its own: its moves and the trick base's
    events read in the shared words, the winner of each trick by name."""
    new("harbor", tmp_path, engine=True)
    game = load_game("harbor", tmp_path / "rules")
    state = game.new_game(players=2, seed=5)
    actions = []
    for _ in range(4):
        actions.append(str(state.legal_actions()[0]))
        state.apply(actions[-1])
    examples = tmp_path / "rules" / "harbor" / "examples.yaml"
    playthrough = {
        "id": "two-tricks",
        "players": 2,
        "seed": 5,
        "source": "project",
        "actions": actions,
        "expect": {"scores": state.scores()},
        "text": "Two tricks.",
    }
    data = yaml.safe_load(examples.read_text(encoding="utf-8"))
    examples.write_text(yaml.safe_dump({**data, "playthroughs": [playthrough]}), "utf-8")
    strings = StringTable.load(Templates(tmp_path))
    book = build_books(load_rules("harbor", tmp_path / "rules"), strings)["en"]
    (section,) = [s for s in book.sections if isinstance(s, m.ExamplesSection)]
    said = " ".join("".join(words(section.playthroughs[0])).split())
    assert said.count("wins the trick") == 2 and "Player 1 plays" in said
    assert not any(word in said.lower() for word in ENGINE_WORDS)

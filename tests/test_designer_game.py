"""A designer's own game from data alone: found in rules/, card fields declared in YAML, cards
read from a spreadsheet, deck checks as data, `gachapress new`, no engine and no Python."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import jsonschema
import openpyxl
import pytest
import yaml
from pypdf import PdfReader

from gachapress.checks import run_checks
from gachapress.data.load import load_rules
from gachapress.errors import RulesError
from tests.conftest import ROOT, run_cli

GAME = "harbor"
#: The Harbor deck's name and first fields (the README's example).
HARBOR = """\
decks:
  main:
    name: Harbor cards
    fields:
      suit: {type: enum, values: [anchor, gull, lamp, rope]}
      value: {type: int, min: 1, max: 9}
      effect: {type: text, required: false}
"""
DECKS = (
    HARBOR
    + """\
      weight: {type: number, required: false}
      night: {type: bool, default: false}
      ink: {type: colour, required: false}
    cards: {from: cards.csv}
"""
)
CARDS = """\
id,count,name,suit,value,effect,weight,night,ink
anchor-1,2,Anchor,anchor,1,,1.5,,#112233
gull-3,1,Gull,gull,3,Draw a card.,,yes,
lamp-9,1,Lamp,lamp,9,"Look at the top
card.",2,false,
"""
LAYOUT = """\
game: harbor
decks:
  main:
    shape: poker
    front:
      background: "#ffffff"
      elements:
        - {kind: text, box: [5, 5, 53, 12], text: "{name}", font: bold, size: 16}
        - {kind: text, box: [5, 20, 53, 12], text: "{suit} {value}", size: 14}
        - {kind: text, box: [5, 40, 53, 30], text: "{effect}", size: 11}
        - {kind: art, box: [20, 70, 10, 10], art: card}
    back:
      background: "#223355"
      elements:
        - {kind: text, box: [5, 40, 53, 12], text: "{game.name}", size: 18, color: "#ffffff"}
"""


def make_project(root: Path, cards: str = CARDS, decks: str = DECKS) -> Path:
    """A project of one game of data alone: no engine, no book.yaml, no art, no seed."""
    folder = root / "rules" / GAME
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text("id: harbor\nname: Harbor\n", encoding="utf-8")
    (folder / "decks.yaml").write_text(decks, encoding="utf-8")
    (folder / "cards.csv").write_text(cards, encoding="utf-8", newline="")
    (root / "templates" / "cards").mkdir(parents=True)
    (root / "templates" / "cards" / f"{GAME}.yaml").write_text(LAYOUT, encoding="utf-8")
    return root


def problems(root: Path) -> list[str]:
    try:
        game = load_rules(GAME, root / "rules")
    except RulesError as exc:
        return [p.format(root) for p in exc.problems]
    return [p.format(root) for report in run_checks(game) for p in report.problems]


def test_a_game_of_data_alone_loads_with_typed_fields(tmp_path: Path) -> None:
    game = load_rules(GAME, make_project(tmp_path) / "rules")
    cards = game.model.cards()
    assert list(cards) == ["anchor-1", "gull-3", "lamp-9"]
    anchor, gull, lamp = cards.values()
    assert (anchor.suit, anchor.value, anchor.count, anchor.weight) == ("anchor", 1, 2, 1.5)
    assert anchor.night is False and gull.night is True  # a default, and "yes" read as true
    assert anchor.ink == "#112233" and gull.ink is None
    assert anchor.effect is None and gull.effect == {"en": "Draw a card."}
    assert lamp.effect == {"en": "Look at the top\ncard."}  # a quoted newline in a cell
    assert anchor.name == {"en": "Anchor"} and anchor.art is None
    assert game.model.component_list()[0].count == 4  # the deck's size, never typed twice
    assert problems(tmp_path) == []


BAD_CELLS = {
    "rope-10,1,Rope,rope,10,,,,": "5:5: error: value: 10 is above the maximum 9",
    "rope-0,1,Rope,rope,0,,,,": "5:5: error: value: 0 is below the minimum 1",
    "rope-2,1,Rope,rop,2,,,,": "5:4: error: suit: 'rop' is not one of 'anchor', 'gull', "
    "'lamp' or 'rope'",
    "rope-2,x,Rope,rope,2,,,,": "5:2: error: count: expected an integer, got text 'x'",
    "rope-2,1,Rope,rope,two,,,,": "5:5: error: value: expected an integer, got text 'two'",
    "rope-2,1,Rope,rope,2,,heavy,,": "5:7: error: weight: expected a number, got text 'heavy'",
    "rope-2,1,Rope,rope,2,,,maybe,": "5:8: error: night: expected true or false, got text 'maybe'",
    "rope-2,1,Rope,rope,2,,,,red": "5:9: error: ink: string should match pattern "
    "'^#[0-9a-fA-F]{6}$'",
    "rope-2,1,,rope,2,,,,": "5:3: error: missing required key 'name' in cards.csv row 5",
    "Rope 2,1,Rope,rope,2,,,,": "5:1: error: id: string should match pattern "
    "'^[a-z0-9]+(-[a-z0-9]+)*$'",
    "rope-2,1,\x1b[2JRope,rope,2,,,,": "5:3: error: the cell holds the control character "
    "U+001B (ESCAPE); remove it",
}


@pytest.mark.parametrize("row", BAD_CELLS)
def test_a_bad_cell_is_located_at_its_row_and_column(tmp_path: Path, row: str) -> None:
    make_project(tmp_path, CARDS + row + "\n")
    assert problems(tmp_path) == [f"rules/harbor/cards.csv:{BAD_CELLS[row]}"]


def test_every_defect_is_reported_in_one_pass(tmp_path: Path) -> None:
    make_project(tmp_path, CARDS + "gull-3,1,Gull,gull,12,,,,\n")
    assert problems(tmp_path) == [
        "rules/harbor/cards.csv:5:1: error: duplicate card id 'gull-3'",
        "rules/harbor/cards.csv:5:5: error: value: 12 is above the maximum 9",
    ]


def test_check_exits_1_with_the_cell(tmp_path: Path) -> None:
    make_project(tmp_path, CARDS + "rope-10,1,Rope,rope,10,,,,\n")
    result = run_cli("check", GAME, cwd=tmp_path)
    assert result.code == 1
    assert "rules/harbor/cards.csv:5:5: error: value: 10 is above the maximum 9" in result.err
    assert "Traceback" not in result.err


def test_an_unknown_column_and_a_bad_declaration_are_located(tmp_path: Path) -> None:
    make_project(tmp_path, CARDS.replace(",ink\n", ",colour\n", 1))
    assert problems(tmp_path) == [
        "rules/harbor/cards.csv:1:9: error: unknown column 'colour' (the fields of deck 'main': "
        "suit, value, effect, weight, night, ink)"
    ]
    bad = DECKS.replace("{type: int, min: 1, max: 9}", "{type: int, values: [one, two]}")
    shutil.rmtree(tmp_path / "rules")
    shutil.rmtree(tmp_path / "templates")
    make_project(tmp_path, decks=bad)
    (found,) = problems(tmp_path)
    assert found.startswith("rules/harbor/decks.yaml:6:14: error: decks.main.fields.value:")
    assert "'values' are for enum fields, not int" in found


def test_a_field_may_not_take_a_built_in_name(tmp_path: Path) -> None:
    make_project(tmp_path, decks=DECKS.replace("effect: {type: text", "count: {type: text"))
    (found,) = problems(tmp_path)
    assert "'count' is a field every card has; choose another name" in found


def test_cards_csv_reads_back_as_the_same_cards(tmp_path: Path) -> None:
    """`cards --format csv` prints the columns a spreadsheet deck reads: export, read back."""
    make_project(tmp_path)
    before = run_cli("cards", GAME, "--format", "json", cwd=tmp_path)
    exported = run_cli("cards", GAME, "--format", "csv", cwd=tmp_path)
    assert exported.code == 0, exported.err
    header = next(csv.reader(io.StringIO(exported.out)))
    assert header[:3] == ["id", "deck", "count"] and "name.en" in header
    (tmp_path / "rules" / GAME / "cards.csv").write_text(exported.out, encoding="utf-8")
    after = run_cli("cards", GAME, "--format", "json", cwd=tmp_path)
    assert after.code == 0, after.err
    assert json.loads(after.out) == json.loads(before.out)


def test_a_spreadsheet_deck_from_xlsx(tmp_path: Path) -> None:
    make_project(tmp_path, decks=DECKS.replace("cards.csv", "cards.xlsx"))
    book = openpyxl.Workbook()
    sheet = book.active
    for row in csv.reader(io.StringIO(CARDS)):
        sheet.append([int(c) if c.isdigit() else (c or None) for c in row])
    sheet.append(["rope-4", 1, "Rope", "rope", 40])
    book.save(tmp_path / "rules" / GAME / "cards.xlsx")
    assert problems(tmp_path) == [
        "rules/harbor/cards.xlsx:5:5: error: value: 40 is above the maximum 9"
    ]


def test_the_schema_follows_the_declared_fields(tmp_path: Path) -> None:
    make_project(tmp_path, decks=DECKS.replace("cards: {from: cards.csv}", "cards: []"))
    result = run_cli("schema", cwd=tmp_path)
    assert result.code == 0, result.err
    schema = json.loads((tmp_path / "rules" / GAME / "schema.json").read_text(encoding="utf-8"))
    card = {"id": "rope-2", "name": {"en": "Rope"}, "suit": "rope", "value": 2}
    jsonschema.validate({"decks": {"main": {"name": {"en": "x"}, "cards": [card]}}}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"decks": {"main": {"cards": [{**card, "value": 10}]}}}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"decks": {"main": {"cards": [{**card, "suit": "fish"}]}}}, schema)


DECK_CHECKS = {
    "total: 5": ["12:21: error: deck 'main' should hold 5 cards, but holds 4"],
    "per_value: {suit: 2}": [
        "12:32: error: suit 'gull' is on 1 cards, not 2",
        "12:32: error: suit 'lamp' is on 1 cards, not 2",
    ],
    "per_value: {suit: equal}": [
        "12:32: error: the suit values are not equally common: 'anchor' 2, 'gull' 1, 'lamp' 1"
    ],
    "unique: [[night]]": [
        "cards.csv:4:8: error: card 'lamp-9' has the night False of card 'anchor-1'"
    ],
    "sums: [{field: value, total: 13}]": ["12:21: error: the value values add up to 14, not 13"],
    "latin_square: {field: suit, across: [night]}": [
        "12:28: error: no card has suit 'anchor' with night True",
        "12:28: error: no card has suit 'gull' with night False",
        "12:28: error: no card has suit 'lamp' with night True",
    ],
    "per_value: {colour: 1}": ["12:34: error: deck 'main' has no field 'colour'"],
}


@pytest.mark.parametrize("check", DECK_CHECKS)
def test_a_declared_deck_check_fails_where_it_is_declared(tmp_path: Path, check: str) -> None:
    make_project(tmp_path, decks=DECKS + f"    checks: {{{check}}}\n")
    expected = [
        f"rules/harbor/{'' if line.startswith('cards.csv') else 'decks.yaml:'}{line}"
        for line in DECK_CHECKS[check]
    ]
    assert sorted(problems(tmp_path)) == sorted(expected)


def test_declared_deck_checks_each_fail_at_their_place(tmp_path: Path) -> None:
    checks = (
        "total: 4, unique: [[suit, value]], per_value: {night: 2}, "
        "sums: [{field: value, total: 14}, {field: value, per: suit, total: 9}]"
    )
    cards = CARDS.replace("lamp-9,1,", "lamp-9,2,") + "rope-5,1,Rope,rope,9,,,,\n"
    make_project(tmp_path, cards, decks=DECKS + f"    checks: {{{checks}}}\n")
    assert sorted(problems(tmp_path)) == [
        "rules/harbor/decks.yaml:12:106: error: the value values add up to 18 for suit 'lamp', "
        "not 9",
        "rules/harbor/decks.yaml:12:106: error: the value values add up to 2 for suit 'anchor', "
        "not 9",
        "rules/harbor/decks.yaml:12:106: error: the value values add up to 3 for suit 'gull', "
        "not 9",
        "rules/harbor/decks.yaml:12:21: error: deck 'main' should hold 4 cards, but holds 6",
        "rules/harbor/decks.yaml:12:68: error: night False is on 5 cards, not 2",
        "rules/harbor/decks.yaml:12:68: error: night True is on 1 cards, not 2",
        "rules/harbor/decks.yaml:12:79: error: the value values add up to 32, not 14",
    ]  # the unique suit and value holds, though two faces have the value 9


def test_an_empty_optional_field_prints_nothing(tmp_path: Path) -> None:
    """...and nothing written for the example games reaches a designer's outputs."""
    make_project(tmp_path)
    (tmp_path / "rules" / GAME / "clarifications.yaml").write_text(
        "clarifications:\n  - {id: ties, question: Who wins a tie?, decision: Both, "
        "reason: It is friendlier.}\n",
        encoding="utf-8",
    )
    (tmp_path / "project.yaml").write_text(
        "credits: Designed by Ann Example.\nlicence: CC BY 4.0\n", encoding="utf-8"
    )
    result = run_cli("build", GAME, "--paper", "a4", cwd=tmp_path)
    assert result.code == 0, result.err
    face = (tmp_path / "out" / GAME / "cards" / "anchor-1.svg").read_text(encoding="utf-8")
    assert "None" not in face and "Anchor" in face
    assert "Draw a card." in (tmp_path / "out" / GAME / "cards" / "gull-3.svg").read_text()
    book = (tmp_path / "out" / GAME / "rulebook.en.html").read_text(encoding="utf-8")
    assert "Harbor cards" in book and "Who wins a tie?" in book
    for foreign in ("Based on the rules", "original rules", "gachapress project", "five"):
        assert foreign not in book, foreign
    # the project's credits and licence on every output: the books and the sheets' first sheet
    sheets = PdfReader(tmp_path / "out" / GAME / f"{GAME}-pnp-a4.pdf").pages
    instructions = " ".join(" ".join(page.extract_text().split()) for page in sheets[:2])
    for output in (book, instructions):
        assert "Designed by Ann Example." in output and "CC BY 4.0" in output


def test_a_layout_naming_an_undeclared_field_is_located_at_its_element(tmp_path: Path) -> None:
    make_project(tmp_path)
    layout = tmp_path / "templates" / "cards" / f"{GAME}.yaml"
    layout.write_text(LAYOUT.replace("{suit} {value}", "{suit} {nmae}"), encoding="utf-8")
    result = run_cli("check", GAME, cwd=tmp_path)
    assert result.code == 1
    assert "templates/cards/harbor.yaml:9:11: error: card 'anchor-1': no value at 'nmae'" in (
        result.err
    )


def test_list_in_a_project_of_ones_own_names_only_its_games(tmp_path: Path) -> None:
    make_project(tmp_path)
    result = run_cli("list", "--json", cwd=tmp_path)
    assert result.code == 0, result.err
    assert result.err == ""
    listed = json.loads(result.out)
    assert list(listed) == [GAME]
    assert listed[GAME]["decks"] == {"main": {"cards": 4, "faces": 3}}


def test_new_makes_a_game_that_checks_and_builds(tmp_path: Path) -> None:
    made = run_cli("new", "tide-pool", cwd=tmp_path)
    assert made.code == 0, made.err
    assert "gachapress build tide-pool" in made.out
    for path in ("rules/tide-pool/game.yaml", "rules/tide-pool/cards.csv", "project.yaml",
                 "templates/cards/tide-pool.yaml", "rules/tide-pool/schema.json"):  # fmt: skip
        assert (tmp_path / path).is_file(), path
    checked = run_cli("check", "tide-pool", cwd=tmp_path)
    assert checked.code == 0, checked.err
    built = run_cli("build", "--paper", "a4", cwd=tmp_path)
    assert built.code == 0, built.err
    out = tmp_path / "out" / "tide-pool"
    rows = list(csv.DictReader((tmp_path / "rules/tide-pool/cards.csv").open(encoding="utf-8")))
    assert sorted(p.stem for p in (out / "cards").glob("*.svg")) == sorted(
        [r["id"] for r in rows] + ["back-main"]
    )
    assert (out / "tide-pool-pnp-a4.pdf").is_file() and (out / "rulebook.en.html").is_file()
    again = run_cli("new", "tide-pool", cwd=tmp_path)
    assert again.code == 2 and "already has a game 'tide-pool'" in again.err
    bad = run_cli("new", "Tide_Pool", cwd=tmp_path)
    assert bad.code == 2 and "is no game id" in bad.err
    other = run_cli("new", "second", "--root", str(tmp_path / "elsewhere"), cwd=tmp_path)
    assert other.code == 0, other.err
    assert (tmp_path / "elsewhere" / "rules" / "second" / "game.yaml").is_file()
    assert f"--root {tmp_path / 'elsewhere'}" in other.out


def test_the_example_games_are_found_as_any_project_s(tmp_path: Path) -> None:
    """The five games are folders of rules/ like any other: a copy with one more game lists
    all six, and a folder without game.yaml is named in a warning."""
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    make_project(tmp_path / "mine")
    shutil.copytree(tmp_path / "mine" / "rules" / GAME, tmp_path / "rules" / GAME)
    (tmp_path / "rules" / "drafts").mkdir()
    result = run_cli("list", "--json", cwd=tmp_path)
    assert result.code == 0, result.err
    assert set(json.loads(result.out)) == {
        "gachapon-trick", "gasha", "gotcha", "gotchacards", "rps-fire", GAME
    }  # fmt: skip
    assert "folder 'drafts' in rules/ is ignored: it holds no game.yaml" in result.err


def test_data_layer_imports_no_game_package() -> None:
    """``data/`` names no game: a game's package is found through the registry alone."""
    for file in (ROOT / "src" / "gachapress" / "data").glob("*.py"):
        text = file.read_text(encoding="utf-8")
        assert "gachapress.games" not in text, file


def test_a_yaml_card_list_needs_no_spreadsheet(tmp_path: Path) -> None:
    listed = yaml.safe_dump(
        {
            "decks": {
                "main": {
                    "name": "Harbor cards",
                    "fields": {"value": {"type": "int", "min": 1, "max": 9}},
                    "cards": [{"id": "one", "name": "One", "value": 1}],
                }
            }
        }
    )
    make_project(tmp_path, decks=listed)
    layout = tmp_path / "templates" / "cards" / f"{GAME}.yaml"
    layout.write_text(LAYOUT.replace("{suit} {value}", "{value}"), encoding="utf-8")
    assert problems(tmp_path) == []


def test_a_game_without_an_engine_is_built_not_played(tmp_path: Path) -> None:
    """Nothing asks a game of data alone for simulations: sim and sweep say why in a sentence,
    and the preview offers no Play page for it."""
    from starlette.testclient import TestClient

    from gachapress.assembly.builder import BuildOptions
    from gachapress.serve.app import Preview, create_app

    make_project(tmp_path)
    why = "harbor has no rules engine, so it cannot be played or simulated"
    simulated = run_cli("sim", GAME, "--players", "2", "--games", "3", "--seed", "1", cwd=tmp_path)
    assert simulated.code == 2 and why in " ".join(simulated.err.replace("│", " ").split())
    (tmp_path / "what-if.yaml").write_text("game: harbor\nplayers: [2]\ngames: 4\n")
    swept = run_cli("sweep", "what-if.yaml", cwd=tmp_path)
    assert swept.code == 1 and why in swept.err and "Traceback" not in swept.err
    out = tmp_path / "out"
    (out / GAME).mkdir(parents=True)
    (out / "index.html").write_text("<html><body><h1>games</h1></body></html>")
    client = TestClient(create_app(Preview(BuildOptions(root=tmp_path, out=out), [GAME])))
    page = client.get("/").text
    assert 'data-games="harbor"' in page and 'data-playable=""' in page
    assert client.get(f"/_serve/play/{GAME}").status_code == 404


def test_the_schema_accepts_the_files_new_writes(tmp_path: Path) -> None:
    """An editor checking the new game's files against its schema.json finds nothing wrong:
    plain texts in a game of one language, and `cards: {from: cards.csv}`."""
    assert run_cli("new", "tide-pool", cwd=tmp_path).code == 0
    folder = tmp_path / "rules" / "tide-pool"
    schema = json.loads((folder / "schema.json").read_text(encoding="utf-8"))
    for name in ("game.yaml", "decks.yaml", "book.yaml"):
        jsonschema.validate(yaml.safe_load((folder / name).read_text(encoding="utf-8")), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"decks": {"main": {"cards": {"from": "/etc/passwd.csv"}}}}, schema)


def test_a_missing_or_misnamed_card_layout_is_said_by_check(tmp_path: Path) -> None:
    """`check` does not pass a game silently that `build` cannot draw."""
    make_project(tmp_path)
    layout = tmp_path / "templates" / "cards" / f"{GAME}.yaml"
    layout.rename(layout.with_name("Harbor.yml"))
    misnamed = run_cli("check", GAME, cwd=tmp_path)
    assert misnamed.code == 1
    assert (
        "templates/cards/Harbor.yml:1:1: error: a card layout must be named harbor.yaml: "
        "rename Harbor.yml to it"
    ) in misnamed.err
    layout.with_name("Harbor.yml").unlink()
    missing = run_cli("check", GAME, cwd=tmp_path)
    assert missing.code == 0, missing.err
    assert "templates/cards/harbor.yaml:1:1: warning: no card layout: build needs one" in (
        missing.err
    )

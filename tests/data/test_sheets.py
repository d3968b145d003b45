"""Card decks read from spreadsheets, and CSV written safe to open in one."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.conftest import ROOT, run_cli

from gachapress.data import sheets
from gachapress.data.sheets import Sheet, read_sheet, safe_cell, write_csv
from gachapress.data.yamlsource import Mark
from gachapress.errors import Problem, RulesError, unprintable


def write(tmp_path: Path, data: str | bytes, name: str = "cards.csv") -> Path:
    file = tmp_path / name
    file.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return file


def problems(file: Path, **kwargs: Any) -> list[tuple[int, int, str]]:
    """Where and what read_sheet refuses in ``file``."""
    with pytest.raises(RulesError) as caught:
        read_sheet(file, **kwargs)
    assert all(p.file == file for p in caught.value.problems)
    return [(p.line, p.column, p.message) for p in caught.value.problems]


def cells(sheet: Sheet) -> list[tuple[int, dict[str, str]]]:
    return [(row.row, row.cells) for row in sheet.rows]


# --- CSV as spreadsheets write it ---


def test_excel_csv_with_bom_semicolons_crlf_and_quoted_newlines(tmp_path: Path) -> None:
    file = write(
        tmp_path,
        "\ufeffid;name.en;text.en\r\n"
        'anchor;"Anchor; heavy";"Holds fast.\r\nDraw one."\r\n'
        'gull;Gull;"He said ""hi""\r\nand\r\nleft"\r\n'
        "lamp;Lamp;\r\n",
    )
    sheet = read_sheet(file)
    assert sheet.headers == ("id", "name.en", "text.en")
    assert cells(sheet) == [
        (2, {"id": "anchor", "name.en": "Anchor; heavy", "text.en": "Holds fast.\nDraw one."}),
        (3, {"id": "gull", "name.en": "Gull", "text.en": 'He said "hi"\nand\nleft'}),
        # the record above spans three lines, but it is one spreadsheet row
        (4, {"id": "lamp", "name.en": "Lamp", "text.en": ""}),
    ]
    assert sheet.mark(4, "name.en") == Mark(file, 4, 2)


def test_tab_separators_and_a_separator_inside_a_quoted_header(tmp_path: Path) -> None:
    assert read_sheet(write(tmp_path, "id\tname.en\nrope\tRope, long\n")).rows[0].cells == {
        "id": "rope",
        "name.en": "Rope, long",
    }
    # two commas inside the quotes, one semicolon outside: the separator is ";"
    sheet = read_sheet(write(tmp_path, '"a,b,c";d\n1;2\n'))
    assert sheet.headers == ("a,b,c", "d")


def test_a_single_column_file(tmp_path: Path) -> None:
    assert cells(read_sheet(write(tmp_path, "id\nanchor\n"))) == [(2, {"id": "anchor"})]


def test_cells_are_stripped_empty_rows_skipped_short_rows_padded(tmp_path: Path) -> None:
    file = write(tmp_path, "id , value,,\n\n  anchor ,3\n,,\ngull\n,,,\n\n")
    sheet = read_sheet(file)
    assert sheet.headers == ("id", "value")  # trailing empty header cells are no columns
    assert cells(sheet) == [(3, {"id": "anchor", "value": "3"}), (5, {"id": "gull", "value": ""})]


def test_not_utf8_is_one_located_error(tmp_path: Path) -> None:
    file = write(tmp_path, "id,name.en\nanchor,Caf\xe9\n".encode("latin-1"))
    [(line, col, message)] = problems(file)
    assert (line, col) == (2, 11)  # the 11th character of line 2
    assert "not UTF-8" in message and "CSV UTF-8" in message


# --- nested data and locations ---


def test_nested_leaves_out_empty_cells(tmp_path: Path) -> None:
    file = write(tmp_path, "id,name.en,name.ja,art.openmoji,effect\nanchor,Anchor,,1F6A3,\n")
    assert read_sheet(file).rows[0].nested() == {
        "id": "anchor",
        "name": {"en": "Anchor"},
        "art": {"openmoji": "1F6A3"},
    }
    file = write(tmp_path, "id,name.en,name.ja\nanchor,,\n")
    assert read_sheet(file).rows[0].nested() == {"id": "anchor"}


def test_locations_map_card_paths_to_cells(tmp_path: Path) -> None:
    file = write(tmp_path, "id,count,name.en,name.ja\n\nanchor,2,Anchor,\ngull,1,Gull,カモメ\n")
    sheet = read_sheet(file)
    assert sheet.column("name.ja") == 4
    with pytest.raises(KeyError):
        sheet.column("name")
    where = sheet.locations(("decks", "main", "cards"))
    base = ("decks", "main", "cards")
    assert where.at((*base, 0, "count")) == Mark(file, 3, 2)
    assert where.at((*base, 1, "name", "ja")) == Mark(file, 4, 4)
    assert where.at((*base, 0, "name", "ja")) == Mark(file, 3, 4)  # an empty cell has a place
    assert where.at((*base, 1, "name")) == Mark(file, 4, 3)
    assert where.at((*base, 1, "cost")) == Mark(file, 4, 1)  # no such column: the row
    assert where.at((*base, 1, "count"), key=True) == Mark(file, 1, 2)  # the key: its header
    assert where.at(base) == Mark(file, 1, 1)
    problem = sheet.mark(4, "count").problem("count: 0 is below the minimum 1")
    assert problem.format(tmp_path) == "cards.csv:4:2: error: count: 0 is below the minimum 1"


# --- xlsx ---


def workbook(tmp_path: Path, *sheets_rows: tuple[str, list[list[object]]]) -> Path:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for title, rows in sheets_rows:
        ws = book.create_sheet(title)
        for row in rows:
            ws.append(row)
    file = tmp_path / "cards.xlsx"
    book.save(file)
    return file


def with_cached_value(file: Path, formula: str, value: str) -> None:
    """Store ``value`` as the formula's last result, as a spreadsheet application does
    (openpyxl writes formulas without one)."""
    with zipfile.ZipFile(file) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    old = f"<f>{formula}</f><v></v>".encode()
    assert old in parts[sheet]
    parts[sheet] = parts[sheet].replace(old, f"<f>{formula}</f><v>{value}</v>".encode())
    with zipfile.ZipFile(file, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)


def test_xlsx_numbers_booleans_and_formulas_read_as_typed(tmp_path: Path) -> None:
    file = workbook(
        tmp_path,
        (
            "Cards",
            [
                ["id", "count", "value", "rate", "wild", "total", "name.en"],
                ["anchor", 3, 3.0, 2.5, True, "=B2*2", "  Anchor "],
                ["gull", -1, 0.1 + 0.2, 1e-7, False, None, "'=SUM(1)"],
            ],
        ),
        ("Notes", [["note"], ["ignored"]]),
    )
    with_cached_value(file, "B2*2", "6")
    sheet = read_sheet(file)
    assert sheet.headers == ("id", "count", "value", "rate", "wild", "total", "name.en")
    assert cells(sheet) == [
        (
            2,
            {
                "id": "anchor",
                "count": "3",
                "value": "3",
                "rate": "2.5",
                "wild": "true",
                "total": "6",
                "name.en": "Anchor",
            },
        ),
        (
            3,
            {
                "id": "gull",
                "count": "-1",
                "value": "0.3",
                "rate": "1e-07",
                "wild": "false",
                "total": "",
                "name.en": "=SUM(1)",  # the CSV escape is undone here too
            },
        ),
    ]


def test_xlsx_chosen_sheet_and_worksheet_positions(tmp_path: Path) -> None:
    file = workbook(
        tmp_path,
        ("Cards", [["id"], ["anchor"]]),
        ("Extra", [[], [], ["id", "value"], [], ["gull", 9]]),
    )
    assert cells(read_sheet(file)) == [(2, {"id": "anchor"})]
    sheet = read_sheet(file, sheet="Extra")
    assert sheet.header_row == 3
    assert cells(sheet) == [(5, {"id": "gull", "value": "9"})]
    assert sheet.locations().at((0, "value"), key=True) == Mark(file, 3, 2)
    [(line, col, message)] = problems(file, sheet="Cardz")
    assert (line, col) == (1, 1)
    assert "'Cardz'" in message and "'Cards', 'Extra'" in message


def test_xlsx_problems_have_the_worksheets_rows_and_columns(tmp_path: Path) -> None:
    file = workbook(tmp_path, ("Cards", [["id", "value"], [], ["anchor", 1, None, "stray"]]))
    assert problems(file) == [(3, 4, "a value in column D, which has no header")]


def test_a_broken_xlsx_is_one_error(tmp_path: Path) -> None:
    [(line, col, message)] = problems(write(tmp_path, b"PK\x03\x04 not really", "cards.xlsx"))
    assert (line, col) == (1, 1) and "not a readable .xlsx workbook" in message
    with zipfile.ZipFile(tmp_path / "other.xlsx", "w") as archive:
        archive.writestr("hello.txt", "no workbook here")
    [(_, _, message)] = problems(tmp_path / "other.xlsx")
    assert "not a readable .xlsx workbook" in message


def test_an_xlsx_that_unpacks_too_far_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = workbook(tmp_path, ("Cards", [["id"], ["anchor"]]))
    monkeypatch.setattr(sheets, "MAX_UNPACKED_BYTES", 1000)
    [(_, _, message)] = problems(file)
    assert "unpacks to more than 1,000 bytes" in message


# --- errors, each located ---


def test_header_problems_and_extra_cells_are_found_in_one_pass(tmp_path: Path) -> None:
    file = write(
        tmp_path,
        "id,,name.en,id,name,a..b\n"
        "anchor,x,Anchor,anchor2,n,1\n"
        "gull,,Gull,g,n,2,,extra\n"
        "lamp,,Lamp,l,n,3\n",
    )
    assert problems(file) == [
        (1, 2, "column B has no header"),
        (1, 3, "header 'name.en' nests under 'name', which is a value itself"),
        (1, 4, "duplicate header 'id' (also column A)"),
        (1, 6, "header 'a..b': a dot with nothing on one side"),
        (3, 8, "a value in column H, which has no header"),
    ]


def test_empty_files(tmp_path: Path) -> None:
    for text in ("", "\ufeff", "\r\n\r\n", ",,\n  \n", ";;\n"):
        assert problems(write(tmp_path, text)) == [
            (1, 1, "empty spreadsheet: the first row must name the columns")
        ]
    assert cells(read_sheet(write(tmp_path, "id,count\n\n\n"))) == []  # a header and no cards


def test_unknown_extension(tmp_path: Path) -> None:
    for name, shown in (("cards.xls", "'.xls'"), ("cards.ods", "'.ods'"), ("cards", "no ext")):
        [(line, col, message)] = problems(write(tmp_path, "id\nanchor\n", name))
        assert (line, col) == (1, 1)
        assert shown in message and "save it as .csv or .xlsx" in message
    assert read_sheet(write(tmp_path, "id\nanchor\n", "CARDS.CSV")).headers == ("id",)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    assert problems(tmp_path / "nope.csv") == [(1, 1, "cannot read nope.csv: it is missing")]
    (tmp_path / "dir.csv").mkdir()
    folder = (1, 1, "cannot read dir.csv: it is a folder, not a file")
    assert problems(tmp_path / "dir.csv") == [folder]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_opening_it(tmp_path: Path) -> None:
    fifo = tmp_path / "cards.csv"
    os.mkfifo(fifo)
    found: list[list[tuple[int, int, str]]] = []
    reader = threading.Thread(target=lambda: found.append(problems(fifo)), daemon=True)
    reader.start()
    reader.join(timeout=10)  # opening a FIFO with no writer would block for ever
    assert not reader.is_alive(), "read_sheet opened the FIFO"
    assert found == [[(1, 1, "cannot read cards.csv: it is a named pipe (FIFO), not a file")]]


def test_too_big_files_and_too_many_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sheets, "MAX_FILE_BYTES", 100)
    [(_, _, message)] = problems(write(tmp_path, "id\n" + "anchor\n" * 20))
    assert message == "file is larger than 100 bytes"
    monkeypatch.setattr(sheets, "MAX_ROWS", 2)
    assert problems(write(tmp_path, "id\na\n\nb\nc\n")) == [(5, 1, "more than 2 rows of cards")]


def test_a_file_outside_the_game_folder_is_refused(tmp_path: Path) -> None:
    game = tmp_path / "game"
    game.mkdir()
    (game / "cards.csv").symlink_to(write(tmp_path, "id\nanchor\n"))
    [(_, _, message)] = problems(game / "cards.csv", inside=game)
    assert "outside" in message


def test_a_sheet_name_for_a_csv_is_an_error(tmp_path: Path) -> None:
    [(_, _, message)] = problems(write(tmp_path, "id\nanchor\n"), sheet="Cards")
    assert "a CSV file has no sheets" in message


def test_messages_never_say_none(tmp_path: Path) -> None:
    file = workbook(tmp_path, ("Cards", [["id", None, "value"], ["anchor", None, None, None, 5]]))
    found = problems(file)
    assert found == [
        (1, 2, "column B has no header"),
        (2, 5, "a value in column E, which has no header"),
    ]
    assert not any("None" in message for _, _, message in found)


# --- formula injection ---


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1+1", "'+1+1"),
        ("-x", "'-x"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("'=1", "''=1"),  # so that reading back removes exactly the quote added
        ("''-a", "'''-a"),
        ("-3", "-3"),  # plain numbers are read as numbers by a spreadsheet, never as formulas
        ("+2.5", "+2.5"),
        ("-0.25", "-0.25"),
        ("-1e5", "'-1e5"),
        ("-٣", "'-٣"),  # only ASCII digits make a number
        ("3-4", "3-4"),
        ("'quoted'", "'quoted'"),
        ("a=b", "a=b"),
        ("", ""),
        (None, ""),
        (-3, "-3"),
        (True, "True"),
    ],
)
def test_safe_cell(value: object, written: str) -> None:
    assert safe_cell(value) == written


def test_write_csv_escapes_cells_and_headers(tmp_path: Path) -> None:
    rows = [{"id": "a", "name": "=1+1", "=cmd": "-2"}, {"id": "b"}]
    text = write_csv(rows, ["id", "name", "=cmd"])
    assert text == "id,name,'=cmd\na,'=1+1,-2\nb,,\n"
    sheet = read_sheet(write(tmp_path, text))
    assert sheet.headers == ("id", "name", "=cmd")
    assert [r.cells for r in sheet.rows] == [
        {"id": "a", "name": "=1+1", "=cmd": "-2"},
        {"id": "b", "name": "", "=cmd": ""},
    ]


@given(
    st.lists(
        st.text(st.characters(exclude_categories=("Cs",)), max_size=12).filter(
            # a cell's control characters are refused (errors.unprintable): never written
            lambda t: t == t.strip() and "\r" not in t and unprintable(t) is None
        ),
        min_size=1,
        max_size=6,
    )
)
def test_the_escape_round_trips_exactly(values: list[str]) -> None:
    columns = ["id", *(f"c{i}" for i in range(len(values)))]
    row = {"id": "card", **dict(zip(columns[1:], values, strict=True))}
    text = write_csv([row], columns)
    with tempfile.TemporaryDirectory() as folder:
        # as written, and as a spreadsheet saves it again with Windows line endings
        for saved in (text, text.replace("\n", "\r\n")):
            file = write(Path(folder), saved)
            assert read_sheet(file).rows[0].cells == row


# --- `gachapress cards --format csv` reads back ---


def flatten(record: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """A card record's cells as the CSV should hold them: nested keys dotted, lists as JSON."""
    flat: dict[str, str] = {}
    for key, value in record.items():
        if isinstance(value, dict):
            flat.update(flatten(value, f"{prefix}{key}."))
        else:
            text = json.dumps(value, ensure_ascii=False) if isinstance(value, list) else value
            flat[f"{prefix}{key}"] = str(text)
    return flat


def test_cards_csv_reads_back_as_the_same_cells(tmp_path: Path) -> None:
    listed = run_cli("cards", "rps-fire", "--format", "json")
    exported = run_cli("cards", "rps-fire", "--format", "csv")
    assert listed.code == exported.code == 0, listed.err + exported.err
    sheet = read_sheet(write(tmp_path, exported.out))
    expected = [flatten(record) for record in json.loads(listed.out)]
    assert len(sheet.rows) == len(expected) > 20
    for row, record in zip(sheet.rows, expected, strict=True):
        assert {h: t for h, t in row.cells.items() if t} == record
    assert [row.row for row in sheet.rows] == list(range(2, len(expected) + 2))


def test_a_formula_card_name_is_exported_escaped(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    decks = tmp_path / "rules" / "rps-fire" / "decks.yaml"
    source = decks.read_text(encoding="utf-8")
    evil = '=HYPERLINK("http://x")'
    decks.write_text(source.replace('en: "Rock"', f"en: '{evil}'", 1), encoding="utf-8")
    done = run_cli("cards", "rps-fire", "--format", "csv", "--root", str(tmp_path))
    assert done.code == 0, done.err
    line = next(x for x in done.out.splitlines() if x.startswith("rock-0,"))
    assert line.startswith('rock-0,main,2,"\'=HYPERLINK(""http://x"")",')
    sheet = read_sheet(write(tmp_path, done.out))
    assert sheet.rows[0].cells["name.en"] == evil


def test_read_problems_are_problems(tmp_path: Path) -> None:
    with pytest.raises(RulesError) as caught:
        read_sheet(write(tmp_path, "id,id\n"))
    assert caught.value.problems == [
        Problem(tmp_path / "cards.csv", 1, 2, "duplicate header 'id' (also column A)")
    ]

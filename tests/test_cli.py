"""The command line as a user meets it: names, output shapes and exit codes (DESIGN.md)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

COMMANDS = ["list", "cards", "check", "schema"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(command: str) -> None:
    result = run_cli(command, "--help")
    assert result.code == 0
    assert "--root" in result.out


def test_list_json_shape() -> None:
    result = run_cli("list", "--json")
    games = json.loads(result.out)
    trick = games["gachapon-trick"]
    assert trick["name"] == "Gachapon Trick"
    assert trick["modes"] == {"standard": [2, 3, 4]}
    assert trick["decks"] == {
        "toys": {"cards": 49, "faces": 49},
        "refund": {"cards": 1, "faces": 1},
    }
    assert trick["options"] == {}
    beginner = games["gotchacards"]["options"]["beginner"]
    assert beginner["modes"] == ["competitive", "party"]
    assert "42 cards" in beginner["help"]


def test_cards_json_has_one_record_per_face() -> None:
    result = run_cli("cards", "gachapon-trick")
    assert result.code == 0
    records = json.loads(result.out)
    assert len(records) == 50
    first = records[0]
    assert list(first)[:3] == ["id", "deck", "count"]
    assert {"color", "cost", "toy"} <= set(first)
    assert {r["id"] for r in records} >= {"red-800", "pink-200", "refund"}


def test_cards_csv_reads_back() -> None:
    result = run_cli("cards", "gachapon-trick", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(result.out)))
    assert len(rows) == 50
    red = next(r for r in rows if r["id"] == "red-800")
    assert (red["deck"], red["count"], red["cost"], red["name.en"]) == ("toys", "1", "800", "Rhino")


@pytest.mark.parametrize(
    "args",
    [
        ["check", "no-such-game"],
        ["cards", "no-such-game"],
        ["cards", "gachapon-trick", "--format", "pdf"],
        ["list", "--bogus"],
        ["check", "--examples"],
    ],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    result = run_cli(*args)
    assert result.code == 2
    assert "Traceback" not in result.err


def test_check_reports_a_summary_and_exit_0() -> None:
    result = run_cli("check", "gachapon-trick")
    assert result.code == 0, result.err
    assert "gachapon-trick: ok: 50 cards in 2 decks" in result.out
    assert "latin-square" in result.out


def test_root_option_points_at_another_project(project_copy: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = run_cli("check", "gachapon-trick", "--root", str(project_copy), cwd=elsewhere)
    assert result.code == 0, result.err


def test_examples_file_counts_passes(project_copy: Path) -> None:
    extra = project_copy / "more.yaml"
    extra.write_text(
        "game: gachapon-trick\nexamples:\n"
        "  - {id: a, rule: is_out, source: project, given: {money: 300}, expect: false,"
        " text: {en: x}}\n",
        encoding="utf-8",
    )
    result = run_cli("check", "--examples", "more.yaml", cwd=project_copy)
    assert result.code == 0, result.err
    assert "more.yaml: 1 passed, 0 failed" in result.out


def test_an_examples_file_may_leave_out_the_source(project_copy: Path) -> None:
    extra = project_copy / "more.yaml"
    extra.write_text(
        "game: gachapon-trick\nexamples:\n"
        "  - id: rich\n    rule: is_out\n    given: {money: 300}\n    expect: false\n"
        "    text: {en: Three hundred yen is enough to stay in.}\n"
        "  - {id: poor, rule: is_out, given: {money: 100}, expect: false, text: {en: x}}\n",
        encoding="utf-8",
    )
    result = run_cli("check", "--examples", "more.yaml", cwd=project_copy)
    assert result.code == 1, result.err
    assert "more.yaml:8:59: error: example 'poor'" in result.err  # located at its line
    assert "more.yaml: 1 passed, 1 failed" in result.out


def test_no_control_character_of_a_name_reaches_the_terminal(project_copy: Path) -> None:
    """Names the tool prints (a folder's, a file's) show their control characters as escapes:
    a terminal escape code in them is never acted on (issue 31, item 17)."""
    (project_copy / "rules" / "evil\x1b]0;pwned\x07\x1b[2J").mkdir()
    bad = project_copy / "x\x1b]0;pwned\x07.yaml"
    bad.write_text("game: gasha\nexamples: [\n", encoding="utf-8")
    for args in (["list"], ["check", "--examples", bad.name]):
        result = run_cli(*args, cwd=project_copy)
        assert "Traceback" not in result.err
        assert "\x1b" not in result.out + result.err and "\x07" not in result.err
        assert "\\x1b" in result.err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args", [["check", "gasha"], ["list"], ["list", "--json"], ["cards", "gasha"], ["--help"]]
)
def test_a_full_standard_output_is_one_plain_error(args: list[str]) -> None:
    """Issue 31, item 18: `gachapress check gasha > /dev/full` ends with one sentence on
    standard error and exit 1, not a traceback (every command: the entry point handles it)."""
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "gachapress.cli.main", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
            check=False,
        )
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1:] == [
        "error: cannot write the output: No space left on device"
    ]
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr


def test_a_reader_that_goes_away_ends_the_output_quietly() -> None:
    import subprocess
    import sys

    process = subprocess.Popen(
        [sys.executable, "-m", "gachapress.cli.main", "cards", "gasha", "--format", "csv"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.read(10)
    process.stdout.close()  # like `| head -c 10`
    err = process.stderr.read().decode()
    process.wait(timeout=300)
    assert "Traceback" not in err and "Exception ignored" not in err

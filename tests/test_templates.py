"""Everything a build needs ships inside the package (``gachapress/defaults``); a project's own
``templates/`` replaces any of it file by file (``strings.yaml`` key by key), and its
``project.yaml`` names the project on its outputs."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from gachapress.book.words import StringTable
from gachapress.data.project_file import load_project
from gachapress.errors import RulesError
from gachapress.project import DEFAULTS, Templates
from gachapress.publish.templating import check_templates, environment
from tests.conftest import ROOT, run_cli

GAME = "rps-fire"
#: Book games per build: no test here reads the statistics.
ENV = {"GACHAPRESS_BOOK_GAMES": "2"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project of one game of the examples, with its card layout and nothing else: no
    project.yaml, and no templates but the layout."""
    root = tmp_path / "harbour"
    shutil.copytree(ROOT / "rules" / GAME, root / "rules" / GAME)
    layout = root / "templates" / "cards" / f"{GAME}.yaml"
    layout.parent.mkdir(parents=True)
    shutil.copyfile(ROOT / "templates" / "cards" / f"{GAME}.yaml", layout)
    return root


def test_the_wheel_carries_every_default(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(tmp_path)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("gachapress-*.whl")
    inside = set(zipfile.ZipFile(wheel).namelist())
    defaults = {f"gachapress/defaults/{file.name}" for file in DEFAULTS.iterdir()}
    assert {"index.html.j2", "rulebook.html.j2", "print.yaml", "strings.yaml"} <= {
        Path(name).name for name in defaults
    }
    assert defaults <= inside


def test_a_project_without_templates_uses_the_packages(tmp_path: Path) -> None:
    templates = Templates(tmp_path)
    assert templates.path("print.yaml") == DEFAULTS / "print.yaml"
    assert check_templates(templates) == []
    assert StringTable.load(templates).lookup(("ui", "credits"), "en") == "Credits"


def test_a_project_template_replaces_the_packages_and_changes_the_digest(
    tmp_path: Path,
) -> None:
    templates = Templates(tmp_path)
    before, skipping = templates.digest(), templates.digest(skip=("index.html.j2",))
    own = tmp_path / "templates" / "index.html.j2"
    own.parent.mkdir()
    own.write_text("mine {{ title }}", encoding="utf-8")
    assert templates.path("index.html.j2") == own
    assert templates.path("rulebook.html.j2") == DEFAULTS / "rulebook.html.j2"
    assert environment(templates).get_template("index.html.j2").render(title="t") == "mine t"
    assert templates.digest() != before
    assert templates.digest(skip=("index.html.j2",)) == skipping


def test_a_broken_project_template_is_located_in_the_project(tmp_path: Path) -> None:
    own = tmp_path / "templates" / "sweep.html.j2"
    own.parent.mkdir()
    own.write_text("{% if %}", encoding="utf-8")
    (problem,) = check_templates(Templates(tmp_path))
    assert problem.file == own and problem.line == 1


def test_a_project_string_overrides_that_string_only(tmp_path: Path) -> None:
    own = tmp_path / "templates" / "strings.yaml"
    own.parent.mkdir()
    own.write_text("ui:\n  credits: {en: Thanks}\n  mine: {en: Mine}\n", encoding="utf-8")
    table = StringTable.load(Templates(tmp_path))
    assert table.lookup(("ui", "credits"), "en") == "Thanks"
    assert table.lookup(("ui", "credits"), "ja") == "クレジット"  # the package's, kept
    assert table.lookup(("ui", "mine"), "en") == "Mine"
    assert table.lookup(("ui", "contents"), "en") == "Contents"
    assert table.problem(("ui", "credits"), "x").file == own
    assert table.problem(("ui", "contents"), "x").file == DEFAULTS / "strings.yaml"


def test_the_example_projects_strings_keep_their_games_out_of_the_package() -> None:
    package = StringTable.load(Templates(Path("/nonexistent")))
    assert "games" not in package.data
    assert "gachapress project" not in (DEFAULTS / "strings.yaml").read_text(encoding="utf-8")
    assert set(StringTable.load(Templates(ROOT)).data["games"]) >= {GAME, "gotcha"}


def test_a_project_without_project_yaml_gets_neutral_outputs(project: Path) -> None:
    result = run_cli("build", GAME, "--paper", "a4", cwd=project, env=ENV)
    assert result.code == 0, result.err
    index = (project / "out" / "index.html").read_text(encoding="utf-8")
    assert "<title>harbour: card games to print and play</title>" in index
    outputs = [index, *(p.read_text("utf-8") for p in (project / "out").rglob("*.html"))]
    for text in outputs:
        assert "five card games" not in text.lower() and "Five small" not in text
        assert "gachapress project" not in text and "gachapressプロジェクト" not in text
    again = run_cli("build", GAME, "--paper", "a4", cwd=project, env=ENV)
    assert again.code == 0 and "0 files written" in again.err + again.out


def test_project_yaml_gives_the_title_credits_and_licence(project: Path) -> None:
    (project / "project.yaml").write_text(
        "title: {en: Harbour games, ja: 港のゲーム}\ncredits: By Ann.\nlicence: CC BY 4.0\n",
        encoding="utf-8",
    )
    result = run_cli("build", GAME, "--paper", "a4", cwd=project, env=ENV)
    assert result.code == 0, result.err
    index = (project / "out" / "index.html").read_text(encoding="utf-8")
    assert "<title>Harbour games</title>" in index and "By Ann." in index
    book = (project / "out" / GAME / "rulebook.ja.html").read_text(encoding="utf-8")
    assert "By Ann." in book and "ライセンス：CC BY 4.0" in book


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("title: Harbour\ntitel: x\n", "project.yaml:2:1: error: unknown key 'titel'"),
        ("credits: 3\n", "project.yaml:1:10: error: credits"),
        ("title: {english: Harbour}\n", "project.yaml:1:"),
        ("- a list\n", "project.yaml:1:1: error: document"),
    ],
)
def test_project_yaml_errors_are_located(project: Path, text: str, error: str) -> None:
    (project / "project.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        load_project(project)
    (first, *_) = caught.value.problems
    assert first.format(relative_to=project).startswith(error)
    result = run_cli("check", GAME, cwd=project)
    assert result.code == 1 and error in result.out + result.err

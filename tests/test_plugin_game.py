"""A game package installed beside gachapress (tests/plugin_game: Tide, registered through the
``gachapress.games`` entry points, its card fields declared in decks.yaml) is played through
every command as the five example games are: `list`, `check`, `sim` on one process and two,
`sweep` on Dask workers, `build` (the rulebook's statistics) and the Play page of `serve`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.conftest import Run
from tests.test_local_engine import PLUGIN, SWEEP

#: Played by the venv's Python: a game on the Play page's HTTP API, a person (always the first
#: legal move) against the package's `high` bot, to its end; prints what the page showed.
PLAY = """
import json, sys
from pathlib import Path
from starlette.testclient import TestClient
from gachapress.assembly.builder import BuildOptions
from gachapress.serve.app import Preview, create_app

root = Path(sys.argv[1])
preview = Preview(BuildOptions(root=root, out=root / "out"), ["tide"])
client = TestClient(create_app(preview))
page = client.get("/_serve/play/tide")
started = client.post("/_serve/play/tide/new", json={"mode": "standard",
                      "seats": ["human", "high"], "seed": 5}).json()
key, views, status = started["session"], [], started
while not status["over"]:
    views.append(client.get(f"/_serve/table/{key}?seat=0").text)
    legal = preview.tables.games[key].state.legal_actions()
    status = client.post(f"/_serve/table/{key}/act", json={"action": str(legal[0])}).json()
state = preview.tables.games[key].state
print(json.dumps({"page": page.status_code, "views": views, "moves": status["moves"],
                  "scores": state.scores(), "winners": state.winners()}))
"""


@pytest.fixture(scope="module")
def python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Python of a fresh venv that sees this test run's packages (gachapress among them)
    and has the Tide package installed, as a designer would install a game's package."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    ours = sysconfig.get_paths()["purelib"]  # its .pth files too: gachapress is editable here
    Path(site, "test-run.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    package = tmp_path_factory.mktemp("package")
    shutil.copytree(PLUGIN, package, dirs_exist_ok=True, ignore=shutil.ignore_patterns("project"))
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--no-build-isolation", "-q", str(package)],
        check=True, capture_output=True,
    )  # fmt: skip
    return python


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tide")
    shutil.copytree(PLUGIN / "project", root, dirs_exist_ok=True)
    return root


def run(python: Path, *args: str, cwd: Path) -> Run:
    """`gachapress ARGS` with the venv's Python."""
    done = subprocess.run(
        [str(python), "-m", "gachapress.cli.main", *args],
        cwd=cwd, capture_output=True, text=True, timeout=600, check=False,
        env={**os.environ, "GACHAPRESS_BOOK_GAMES": "10"},
    )  # fmt: skip
    return Run(done.returncode, done.stdout, done.stderr)


def test_list_and_check_see_the_packages_game(python: Path, project: Path) -> None:
    listed = run(python, "list", "--json", cwd=project)
    assert listed.code == 0, listed.err
    assert json.loads(listed.out)["tide"]["modes"] == {"standard": [2, 3, 4]}
    checked = run(python, "check", cwd=project)
    assert checked.code == 0, checked.err
    assert "tide: ok:" in checked.out and "random-games" in checked.out
    assert "local engine" not in checked.err


def test_sim_and_a_dask_sweep_play_the_packages_engine(python: Path, project: Path) -> None:
    args = ["sim", "tide", "--players", "2", "--games", "450", "--seed", "2", "--bots", "high"]
    alone, split = (
        run(python, *args, "--json", cwd=project),
        run(python, *args, "--json", "--jobs", "2", cwd=project),
    )
    assert alone.code == 0 and split.code == 0, alone.err + split.err
    assert alone.out == split.out and json.loads(alone.out)["games"] == 450
    sweep = project / "rules" / "tide" / "sweeps" / "six.yaml"
    sweep.parent.mkdir(exist_ok=True)
    sweep.write_text(SWEEP, encoding="utf-8")
    swept = run(python, "sweep", str(sweep), "--workers", "2", "--json", cwd=project)
    assert swept.code == 0, swept.err
    assert [cell["games"] for cell in json.loads(swept.out)["cells"]] == [200] * 4


def test_build_writes_the_books_statistics(python: Path, project: Path) -> None:
    built = run(python, "build", cwd=project)
    assert built.code == 0, built.err
    book = (project / "out" / "tide" / "rulebook.en.html").read_text(encoding="utf-8")
    assert "By the numbers" in book


def test_a_game_is_played_to_its_end_on_the_play_page(python: Path, project: Path) -> None:
    done = subprocess.run(
        [str(python), "-c", PLAY, str(project)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    played = json.loads(done.stdout)
    assert played["page"] == 200 and played["moves"] == 6  # three tricks of two cards
    assert sum(played["scores"]) == 3 and played["winners"]
    assert all("Sun" in view or "Moon" in view for view in played["views"])  # the hand's cards


def test_a_game_with_a_package_and_an_engine_module_is_refused(
    python: Path, tmp_path: Path
) -> None:
    shutil.copytree(PLUGIN / "project", tmp_path, dirs_exist_ok=True)
    shutil.copyfile(PLUGIN / "tide_game" / "engine.py", tmp_path / "rules" / "tide" / "engine.py")
    with (tmp_path / "rules" / "tide" / "game.yaml").open("a", encoding="utf-8") as file:
        file.write("engine: {module: engine.py}\n")
    checked = run(python, "check", "tide", cwd=tmp_path)
    assert checked.code == 1
    assert (
        "rules/tide/game.yaml:6:18: error: game.yaml names the engine module engine.py, but "
        "the installed package gachapress-tide (tide_game:SPEC) also registers tide: remove "
        "one of them"
    ) in checked.err.splitlines()

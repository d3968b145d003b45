"""A game played by an engine module of its own folder (``engine: {module: engine.py}`` in its
game.yaml): loaded only when named and only from that folder, refused with a located error
otherwise, said by `check` and `build`, and played alike on one process or several (`sim
--jobs 2`, `sweep --workers 2`)."""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import shutil
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from gachapress.assembly.builder import BuildOptions
from gachapress.data.load import load_rules
from gachapress.engine import load_game
from gachapress.engine.play import make_bots
from gachapress.errors import RulesError
from gachapress.local_engine import module_name
from gachapress.serve.app import Preview, create_app
from tests.conftest import ROOT, run_cli

PLUGIN = ROOT / "tests" / "plugin_game"
ENGINE = PLUGIN / "tide_game" / "engine.py"
NOTE = "tide: local engine rules/tide/engine.py"
SWEEP = """\
game: tide
players: [2, 3]
bots: [high]
games: 200
seed: 1
variants:
  - name: as-written
  - name: low-six
    set: {decks.main.cards.5.value: 1}
"""


def tide_project(root: Path, engine_line: str | None = "engine: {module: engine.py}") -> Path:
    """The Tide project copied into ``root``, its engine beside its rules; ``engine_line``
    appended to its game.yaml (None: the engine file is there, unnamed)."""
    shutil.copytree(PLUGIN / "project", root, dirs_exist_ok=True)
    shutil.copyfile(ENGINE, root / "rules" / "tide" / "engine.py")
    if engine_line is not None:
        with (root / "rules" / "tide" / "game.yaml").open("a", encoding="utf-8") as file:
            file.write(engine_line + "\n")
    return root


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tide_project(tmp_path_factory.mktemp("tide"))


def test_check_and_build_say_which_local_engine_they_loaded(project: Path) -> None:
    checked = run_cli("check", cwd=project)
    assert checked.code == 0, checked.err
    assert checked.err.splitlines().count(NOTE) == 1
    assert "tide: ok:" in checked.out and "2 worked examples" in checked.out
    built = run_cli("build", "--jobs", "2", cwd=project, env={"GACHAPRESS_BOOK_GAMES": "10"})
    assert built.code == 0, built.err
    assert built.err.splitlines().count(NOTE) == 1
    book = (project / "out" / "tide" / "rulebook.en.html").read_text(encoding="utf-8")
    assert "By the numbers" in book  # the book's statistics, played by the local engine


def test_sim_gives_the_same_result_on_two_processes(project: Path) -> None:
    args = ["sim", "tide", "--players", "3", "--games", "450", "--seed", "4", "--bots", "high"]
    alone, split = (
        run_cli(*args, "--json", cwd=project),
        run_cli(*args, "--json", "--jobs", "2", cwd=project),
    )
    assert alone.code == 0 and split.code == 0, alone.err + split.err
    assert alone.out == split.out
    report = json.loads(alone.out)
    assert (report["game"], report["games"], report["bots"]) == ("tide", 450, ["high"])
    assert report["length"]["actions"]["max"] == 9  # three tricks of three cards


def test_a_sweep_plays_the_local_engine_on_dask_workers(project: Path) -> None:
    sweep = project / "rules" / "tide" / "sweeps" / "six.yaml"
    sweep.parent.mkdir(exist_ok=True)
    sweep.write_text(SWEEP, encoding="utf-8")
    done = run_cli("sweep", str(sweep), "--workers", "2", "--json", cwd=project)
    assert done.code == 0, done.err
    cells = json.loads(done.out)["cells"]
    assert [(c["variant"], c["players"], c["games"]) for c in cells] == [
        ("as-written", 2, 200),
        ("as-written", 3, 200),
        ("low-six", 2, 200),
        ("low-six", 3, 200),
    ]


def test_the_module_runs_once_under_one_name_so_its_classes_pickle(project: Path) -> None:
    game = load_game("tide", project / "rules")
    path = (project / "rules" / "tide" / "engine.py").resolve()
    assert game.engine.state.__module__ == module_name("tide", path)
    assert game.engine.state.__module__.startswith("gachapress_local.tide_")
    assert load_game("tide", project / "rules").engine.state is game.engine.state  # run once
    state = game.new_game(players=3, seed=11)
    (bot,) = make_bots(game, ["high"], 1, 0)
    state.apply(bot.choose(None, state.legal_actions()))
    assert pickle.loads(pickle.dumps(type(state))) is type(state)
    bot_copy = pickle.loads(pickle.dumps(bot))
    assert type(bot_copy) is type(bot)
    assert bot_copy.choose(None, state.legal_actions()) == bot.choose(None, state.legal_actions())


def test_serve_says_it_loaded_the_engine_and_plays_it(tmp_path: Path) -> None:
    root = tide_project(tmp_path)
    lines: list[str] = []
    preview = Preview(BuildOptions(root=root, out=root / "out"), ["tide"], report=lines.append)
    with contextlib.chdir(root):
        preview.build(["tide"], quick=True)
    assert lines.count(NOTE) == 1
    client = TestClient(create_app(preview))
    assert client.get("/_serve/play/tide").status_code == 200
    started = client.post("/_serve/play/tide/new", json={"mode": "standard",
                          "seats": ["human", "high"], "seed": 1})  # fmt: skip
    assert started.status_code == 200, started.text
    key = started.json()["session"]
    state = preview.tables.games[key].state
    assert type(state).__module__ == module_name("tide", root.resolve() / "rules/tide/engine.py")


@pytest.mark.parametrize(
    ("module", "why"),
    [
        ("../tide/engine.py", "climbs out of the game's folder"),
        ("/etc/engine.py", "is an absolute path"),
        ("missing.py", "is missing"),
        ("engine.txt", "is no Python file"),
        ("outside.py", "leads out of the game's folder"),
    ],
)
def test_a_module_outside_the_folder_or_missing_is_refused_where_it_is_named(
    tmp_path: Path, module: str, why: str
) -> None:
    root = tide_project(tmp_path, f"engine: {{module: {module}}}")
    (tmp_path / "engine.py").write_text("raise SystemExit('never run')\n")
    os.symlink(tmp_path / "engine.py", root / "rules" / "tide" / "outside.py")
    with pytest.raises(RulesError) as refused:
        load_rules("tide", root / "rules")
    (problem,) = refused.value.problems
    assert (problem.file.name, problem.line, problem.column) == ("game.yaml", 6, 18)
    assert why in problem.message and module in problem.message


def test_a_module_that_fails_is_one_error_at_its_line(tmp_path: Path) -> None:
    root = tide_project(tmp_path)
    engine = root / "rules" / "tide" / "engine.py"
    engine.write_text("ENGINE = None\n\ndef broken(:\n    pass\n", encoding="utf-8")
    checked = run_cli("check", "tide", cwd=root)
    assert checked.code == 1
    (error,) = [line for line in checked.err.splitlines() if ": error: " in line]
    assert error.startswith("rules/tide/engine.py:3:12: error: the engine module does not compile")
    assert "Traceback" not in checked.err
    engine.write_text("import json\n\njson.loads('{')\n", encoding="utf-8")
    with pytest.raises(RulesError) as refused:
        load_rules("tide", root / "rules")
    (problem,) = refused.value.problems
    assert (problem.file, problem.line) == (engine.resolve(), 3)
    assert "fails when loaded: JSONDecodeError" in problem.message
    engine.write_text("ENGINE = 'tide'\n", encoding="utf-8")
    with pytest.raises(RulesError, match="must define ENGINE as an EngineSpec"):
        load_rules("tide", root / "rules")


def test_an_unnamed_engine_module_is_never_run_and_check_says_how_to_name_it(
    tmp_path: Path,
) -> None:
    root = tide_project(tmp_path, engine_line=None)
    (root / "rules" / "tide" / "examples.yaml").unlink()  # they call the engine's rules
    marker = root / "ran"
    (root / "rules" / "tide" / "engine.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    checked = run_cli("check", "tide", cwd=root)
    assert checked.code == 0, checked.err
    warnings = [line for line in checked.err.splitlines() if "warning" in line]
    assert warnings == [
        "rules/tide/engine.py:1:1: warning: engine.py is not loaded: a game's engine module "
        "runs only when game.yaml names it, as 'engine: {module: engine.py}'"
    ]
    assert "local engine" not in checked.err and not marker.exists()
    assert load_rules("tide", root / "rules").spec.engine is None

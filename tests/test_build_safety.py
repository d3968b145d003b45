"""`gachapress build` never destroys what it did not make, survives a kill at any instant,
takes a lock, and rebuilds when any input it reads changes (issue: a build that can never
destroy data)."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gachapress.assembly.outdir import MARKER, OutputError, guard
from tests.conftest import ROOT, own_template, run_cli
from tests.test_build import letter_pdfs
from tests.yaml_edit import rename

GAME = "rps-fire"  # the quickest game to build
ENV = {"GACHAPRESS_BOOK_GAMES": "2"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A scratch project in a folder of its own (its parent is the test's scratch space)."""
    for folder in ("rules", "templates"):
        shutil.copytree(ROOT / folder, tmp_path / "project" / folder)
    return tmp_path / "project"


def contents(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (hidden ones too) by its content hash."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def build(project: Path, *args: str, env: dict[str, str] | None = None) -> None:
    result = run_cli("build", GAME, "--paper", "a4", *args, cwd=project, env={**ENV, **(env or {})})
    assert result.code == 0, result.err


def edit_card_text(project: Path, old: str = "Rock", new: str = "Stone") -> None:
    """Rename the game's ``old`` cards in English (their faces print the English name)."""
    rename(project / "rules" / GAME / "decks.yaml", old, new)


def leftovers(project: Path) -> list[str]:
    return sorted(p.name for p in project.iterdir() if p.name.startswith(".out.") and p.is_dir())


# --- ownership ------------------------------------------------------------------------------


@pytest.mark.parametrize("out", ["rules", "templates", "src", ".", "rules/rps-fire", "rules/x/y"])
def test_out_may_not_be_or_hold_the_projects_own_folders(project: Path, out: str) -> None:
    (project / "src").mkdir()
    before = contents(project)
    result = run_cli("build", GAME, "--out", out, cwd=project, env=ENV)
    assert result.code == 1
    assert result.err.startswith(f"error: --out {out}: ") and "Traceback" not in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert contents(project) == before and not (project / "build").exists()


def test_out_may_not_be_the_file_system_root_or_home(project: Path) -> None:
    for folder in (Path("/"), Path.home()):
        with pytest.raises(OutputError, match="refusing to publish"):
            guard(folder, project)


def test_a_folder_the_tool_did_not_make_is_refused(project: Path) -> None:
    theirs = project / "photos"
    theirs.mkdir()
    (theirs / "holiday.jpg").write_bytes(b"\xff\xd8 not ours")
    (theirs / GAME).mkdir()  # a folder with a game's name: the old build deleted it
    (theirs / GAME / "keep.txt").write_text("mine", encoding="utf-8")
    before = contents(project)
    result = run_cli("build", GAME, "--out", "photos", cwd=project, env=ENV)
    assert result.code == 1 and "not made by gachapress" in result.err
    assert contents(project) == before


def test_an_empty_folder_is_used_and_marked(project: Path) -> None:
    (project / "empty").mkdir()
    build(project, "--out", "empty")
    assert (project / "empty" / MARKER).is_file()
    assert (project / "empty" / GAME / f"{GAME}-pnp-a4.pdf").is_file()


def test_files_someone_else_put_in_out_survive_rebuilds(project: Path) -> None:
    build(project)
    (project / "out" / "notes.txt").write_text("printed on 1 Dec", encoding="utf-8")
    (project / "out" / GAME / "playtest").mkdir()
    (project / "out" / GAME / "playtest" / "scores.csv").write_text("1,2", encoding="utf-8")
    (project / "out" / "latest").symlink_to(GAME)  # links, kept as links, never followed
    (project / "out" / GAME / "notes.txt").symlink_to("../notes.txt")
    (project / "out" / "zero").symlink_to("/dev/zero")
    (project / "out" / "gone").symlink_to("/nowhere/at/all")
    (project / "out" / "empty").mkdir()
    os.mkfifo(project / "out" / "pipe")
    edit_card_text(project)
    build(project)
    assert (project / "out" / "notes.txt").read_text(encoding="utf-8") == "printed on 1 Dec"
    assert (project / "out" / GAME / "playtest" / "scores.csv").is_file()
    assert os.readlink(project / "out" / "latest") == GAME
    assert (project / "out" / "latest" / "rulebook.en.html").is_file()
    assert os.readlink(project / "out" / GAME / "notes.txt") == "../notes.txt"
    assert os.readlink(project / "out" / "zero") == "/dev/zero"
    assert os.readlink(project / "out" / "gone") == "/nowhere/at/all"
    assert (project / "out" / "empty").is_dir()
    assert (project / "out" / "pipe").is_fifo()


def _truncate(marker: Path) -> None:
    marker.write_text(marker.read_text(encoding="utf-8")[:40], encoding="utf-8")


def _relink(target: str):
    def damage(marker: Path) -> None:
        marker.unlink()
        marker.symlink_to(target)

    return damage


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        (_truncate, "it cannot be read as JSON"),
        (lambda m: m.write_text('{"files": []}', encoding="utf-8"), "it is not the list"),
        (_relink("/dev/zero"), "it is not a regular file"),
        (lambda m: (m.unlink(), os.mkfifo(m)), "it is not a regular file"),
    ],
    ids=["truncated", "wrong-shape", "link-to-dev-zero", "fifo"],
)
def test_a_damaged_marker_is_named_with_the_way_out(project: Path, damage, why: str) -> None:
    build(project)
    out = project / "out"
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    damage(out / MARKER)
    result = run_cli("build", GAME, "--paper", "a4", cwd=project, env=ENV)
    assert result.code == 1 and "Traceback" not in result.err
    assert (
        result.err
        == (
            f"error: --out out: its {MARKER}, the list of the files gachapress wrote there, is "
            f"damaged ({why}"
        )
        + result.err.split(why, 1)[1]
    )
    assert result.err.endswith(
        "so gachapress cannot tell its files from yours. Run the command again with "
        "--repair-out: every output is then written anew (a file of yours at the path of an "
        "output would be replaced) and every other file is kept, as are the outputs it no "
        "longer makes; or move the folder away\n"
    )
    build(project, "--repair-out")
    assert (out / MARKER).is_file() and not (out / MARKER).is_symlink()
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    again = run_cli("build", GAME, "--paper", "a4", cwd=project, env=ENV)
    assert again.code == 0 and "0 files written" in again.out, again.out


def test_outputs_the_build_no_longer_makes_are_removed(project: Path) -> None:
    build(project, "--paper", "a4")
    run = run_cli("build", GAME, "--paper", "letter", cwd=project, env=ENV)
    assert run.code == 0, run.err
    assert sorted(p.name for p in (project / "out" / GAME).glob("*.pdf")) == letter_pdfs(GAME)


def test_an_out_made_by_the_previous_version_is_adopted(project: Path) -> None:
    """Builds before the marker kept their manifest in build/: such an out/ is still ours."""
    build(project)
    (project / "out" / MARKER).unlink()
    legacy = (
        project
        / "build"
        / ("manifest-" + hashlib.sha256(str((project / "out").resolve()).encode()).hexdigest()[:10])
    )
    legacy.mkdir(parents=True)
    files = {rel: "old" for rel in contents(project / "out")}
    (legacy / "manifest.json").write_text(__import__("json").dumps(files), encoding="utf-8")
    build(project)
    assert (project / "out" / MARKER).is_file()


# --- one atomic switch ----------------------------------------------------------------------


def killed_build(project: Path, faults: str) -> None:
    result = run_cli(
        "build", GAME, "--paper", "a4", cwd=project, env={**ENV, "GACHAPRESS_FAULT": faults}
    )
    assert result.code == -signal.SIGKILL, (result.code, result.err)


@pytest.fixture(scope="module")
def two_trees(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, dict]:
    """A built project (its out/ the old tree) and what out/ holds after one card edit."""
    base = tmp_path_factory.mktemp("built") / "project"
    for folder in ("rules", "templates"):
        shutil.copytree(ROOT / folder, base / folder)
    build(base)
    old = contents(base / "out")
    expected = tmp_path_factory.mktemp("expected") / "project"  # the same name: the same title
    shutil.copytree(base, expected)
    edit_card_text(expected)
    build(expected)
    new = contents(expected / "out")
    assert new != old
    return base, old, new


@pytest.mark.parametrize(
    "faults",
    [
        "staged",
        "before-exchange",
        "after-exchange",
        "no-exchange,after-move-old",
        "no-exchange,after-rename",
    ],
)
def test_a_kill_at_any_point_leaves_the_old_tree_or_the_new(
    two_trees: tuple[Path, dict, dict], tmp_path: Path, faults: str
) -> None:
    base, old, new = two_trees
    project = tmp_path / "project"
    shutil.copytree(base, project)
    edit_card_text(project)
    killed_build(project, faults)
    now = contents(project / "out") if (project / "out").exists() else None
    if "after-move-old" in faults:
        assert now is None  # the one instant without out/ (a real out/ turned into the link)
    else:
        assert now in (old, new)  # either tree, whole, at the instant of the kill
    build(project)  # the next build puts things right and cleans what the kill left
    assert contents(project / "out") == new
    assert leftovers(project) == []


@pytest.mark.parametrize("fault", ["staged", "before-exchange", "before-relink", "after-relink"])
def test_where_folders_cannot_exchange_out_is_a_link_replaced_at_once(
    two_trees: tuple[Path, dict, dict], tmp_path: Path, fault: str
) -> None:
    """No instant without out/: it links to a tree version, and one rename swaps the link."""
    base, _, new = two_trees
    project = tmp_path / "project"
    shutil.copytree(base, project)
    shutil.rmtree(project / "out")
    no_exchange = {"GACHAPRESS_FAULT": "no-exchange"}
    build(project, env=no_exchange)  # a first publish where folders cannot exchange
    out = project / "out"
    assert out.is_symlink() and os.readlink(out).startswith(".out.tree-")
    old = contents(out)
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    old["notes.txt"] = hashlib.sha256(b"mine").hexdigest()
    edit_card_text(project)
    killed_build(project, f"no-exchange,{fault}")
    assert out.is_symlink() and contents(out) in (old, {**new, "notes.txt": old["notes.txt"]})
    build(project, env=no_exchange)
    assert contents(out) == {**new, "notes.txt": old["notes.txt"]}
    assert out.is_symlink() and leftovers(project) == [os.readlink(out)]
    edit_card_text(project, "Paper", "Leaf")
    build(project)  # where folders exchange again, out/ is a folder again
    assert not out.is_symlink() and out.is_dir() and leftovers(project) == []
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_a_kill_before_the_first_publish_leaves_no_out(project: Path) -> None:
    killed_build(project, "before-rename")
    assert not (project / "out").exists()
    assert leftovers(project) != []  # the staged tree the kill left
    build(project)
    assert leftovers(project) == [] and (project / "out" / MARKER).is_file()


@contextlib.contextmanager
def lock_held(project: Path) -> Iterator[None]:
    with open(project / ".out.lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        handle.write("4242\n")
        handle.flush()
        yield


def test_a_second_build_into_the_same_out_fails_clearly(project: Path) -> None:
    with lock_held(project):
        result = run_cli("build", GAME, cwd=project, env=ENV)
    assert result.code == 1
    assert "another build is writing" in result.err and "4242" in result.err
    assert not (project / "out").exists()


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_workers_die_with_a_killed_build(project: Path) -> None:
    parent = subprocess.Popen(
        [sys.executable, "-m", "gachapress.cli.main", "build", "--jobs", "2", "--paper", "a4"],
        cwd=project,
        env={**os.environ, **ENV},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while len(workers) < 2 and time.monotonic() < deadline:
        workers = _children(parent.pid)
        time.sleep(0.05)
    assert len(workers) >= 2, "the build never started its workers"
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 5
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in workers)


# --- filesystems ------------------------------------------------------------------------------


@contextlib.contextmanager
def mounted(folder: Path, *options: str) -> Iterator[Path]:
    """A tmpfs (or another mount) at ``folder``; skipped where this machine forbids mounting."""
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", *options, str(folder)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount here: {done.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_out_on_another_filesystem(project: Path) -> None:
    with mounted(project.parent / "disk", "-t", "tmpfs", "-o", "size=64m", "tmpfs") as disk:
        build(project, "--out", str(disk / "out"))
        edit_card_text(project)
        build(project, "--out", str(disk / "out"))
        assert "Stone" in (disk / "out" / GAME / "cards" / "rock-1.svg").read_text("utf-8")


def test_out_at_a_mount_point_says_why_and_what_to_do(project: Path) -> None:
    with mounted(project.parent / "disk", "-t", "tmpfs", "-o", "size=64m", "tmpfs") as disk:
        result = run_cli("build", GAME, "--paper", "a4", "--out", str(disk), cwd=project, env=ENV)
        assert result.code == 1
        assert result.err == (
            f"error: --out {disk}: this folder is a mount point, which cannot be replaced as a "
            "whole as gachapress replaces the folders it publishes (staged beside them and "
            f"swapped in); publish into a folder inside it instead, such as {disk / 'out'}\n"
        )
        assert list(disk.iterdir()) == []
        assert [p for p in project.parent.iterdir() if p.name.startswith(".disk.")] == []
        exported = run_cli("export", GAME, "--to", "tts", "--out", str(disk), cwd=project)
        assert exported.code == 1 and "is a mount point" in exported.err
        assert list(disk.iterdir()) == []


def test_a_full_disk_is_a_message_and_leaves_out_whole(project: Path) -> None:
    with mounted(project.parent / "disk", "-t", "tmpfs", "-o", "size=64m", "tmpfs") as disk:
        out = disk / "out"
        build(project, "--out", str(out))
        before = contents(out)
        free = shutil.disk_usage(disk).free
        (disk / "filler").write_bytes(b"\0" * (free - 64 * 1024))
        edit_card_text(project)
        result = run_cli("build", GAME, "--paper", "a4", "--out", str(out), cwd=project, env=ENV)
        assert result.code == 1, result.err
        assert "No space left on device" in result.err and "Traceback" not in result.err
        assert contents(out) == before
        assert [p.name for p in disk.iterdir() if p.name.startswith(".out.") and p.is_dir()] == []


def test_a_read_only_out_is_a_message(project: Path) -> None:
    shelf = project.parent / "shelf"
    shelf.mkdir()
    build(project, "--out", str(shelf / "out"))
    before = contents(shelf)
    with mounted(shelf, "--bind", str(shelf)):
        done = subprocess.run(
            ["mount", "-o", "remount,ro,bind", str(shelf)], capture_output=True, check=False
        )
        assert done.returncode == 0, done.stderr
        edit_card_text(project)
        result = run_cli(
            "build", GAME, "--paper", "a4", "--out", str(shelf / "out"), cwd=project, env=ENV
        )
    assert result.code == 1
    assert result.err.startswith("error: cannot write ") and "Read-only file system" in result.err
    assert contents(shelf) == before


# --- every input hashed ---------------------------------------------------------------------


def changed_by(project: Path, edit) -> list[str]:
    build(project)
    before = contents(project / "out")
    edit(project)
    build(project)
    after = contents(project / "out")
    return sorted(rel for rel in after if after[rel] != before.get(rel) and rel != MARKER)


def test_editing_an_art_file_rebuilds_the_face(project: Path) -> None:
    art = project / "rules" / GAME / "art"
    art.mkdir()
    (art / "fire.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        '<rect width="10" height="10" fill="#ff0000"/></svg>',
        encoding="utf-8",
    )
    decks = project / "rules" / GAME / "decks.yaml"
    text = decks.read_text(encoding="utf-8")
    first_rock = text.index("art: {openmoji: 1FAA8}")
    decks.write_text(
        text[:first_rock] + "art: {file: art/fire.svg}" + text[first_rock + 22 :], "utf-8"
    )

    def recolour(project: Path) -> None:
        svg = art / "fire.svg"
        svg.write_text(svg.read_text("utf-8").replace("#ff0000", "#0000ff"), "utf-8")

    changed = changed_by(project, recolour)
    # the face in each language, and the PDF rulebook of each language draws it too
    assert changed == [
        f"{GAME}/cards/ja/rock-0.svg",
        f"{GAME}/cards/rock-0.svg",
        f"{GAME}/{GAME}-pnp-a4.pdf",
        f"{GAME}/rulebook.en.a4.pdf",
        f"{GAME}/rulebook.en.booklet-a4.pdf",
        f"{GAME}/rulebook.en.pdf",
        f"{GAME}/rulebook.ja.a4.pdf",
        f"{GAME}/rulebook.ja.booklet-a4.pdf",
        f"{GAME}/rulebook.ja.pdf",
    ]


@pytest.mark.parametrize(
    ("file", "old", "new", "expected"),
    [
        ("templates/print.yaml", "bleed: 3", "bleed: 2.5", {"pdf"}),
        (f"templates/cards/{GAME}.yaml", 'rock: "#7a5238"', 'rock: "#7a5239"', {"svg", "pdf"}),
        ("templates/rulebook.html.j2", "<body", "<body data-edited", {"html"}),
    ],
)
def test_editing_a_template_or_preset_rebuilds_what_it_shapes(
    project: Path, file: str, old: str, new: str, expected: set[str]
) -> None:
    def edit(project: Path) -> None:
        path = own_template(project, file.removeprefix("templates/"))
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {file}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    changed = changed_by(project, edit)
    kinds = {rel.rsplit(".", 1)[-1] for rel in changed if rel.startswith(f"{GAME}/")}
    assert expected <= kinds, changed


# --- messages -------------------------------------------------------------------------------


@pytest.mark.parametrize("offset", ["nan,nan", "inf,0", "0,1e999", "11,0"])
def test_a_back_offset_that_is_no_finite_millimetres_is_a_usage_error(
    project: Path, offset: str
) -> None:
    result = run_cli("build", GAME, "--back-offset", offset, cwd=project, env=ENV)
    assert result.code == 2 and "Traceback" not in result.err
    assert "back offset" in result.err
    assert not (project / "out").exists()


def test_off_a_terminal_build_says_each_game_and_warns_of_unknown_folders(project: Path) -> None:
    (project / "rules" / "rps_fire").mkdir()  # a typo for rps-fire: it would be ignored
    result = run_cli("build", GAME, "--paper", "a4", cwd=project, env=ENV)
    assert result.code == 0, result.err
    assert f"{GAME}: " in result.err and " files written, " in result.err
    assert "rules/rps_fire:1:1: warning: folder 'rps_fire' in rules/ is ignored" in result.err


# --- a build with nothing to do ------------------------------------------------------------

#: The heavy libraries a build with nothing to do never loads (it answers in a fraction of a
#: second: the interpreter and a hash of the inputs).
HEAVY = ("typer", "rich", "pydantic", "jinja2", "reportlab", "fontTools", "yaml")
SAYS_LOADED = (
    "import sys; from gachapress.cli.main import main\n"
    "try:\n    main()\nfinally:\n"
    f"    print('loaded', sorted(m for m in {HEAVY!r} if m in sys.modules))"
)


def test_a_build_with_nothing_to_do_loads_no_heavy_library_and_says_what_build_says(
    project: Path,
) -> None:
    (project / "rules" / "rps_fire").mkdir()  # its warning is said on the quick path too
    args = ("build", GAME, "--paper=a4", "--jobs", "2", "--ink", "normal")
    build(project)

    def run(code: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", code, *args],
            cwd=project,
            capture_output=True,
            text=True,
            env={**os.environ, **ENV},
            check=False,
        )

    before = contents(project)
    quick = run(SAYS_LOADED)
    assert quick.returncode == 0, quick.stderr
    assert quick.stdout.endswith("loaded []\n")
    full = run("from gachapress.cli.app import app; app()")
    assert full.returncode == 0, full.stderr
    assert quick.stderr == full.stderr
    assert (
        f"{GAME}: 0 files written, " in quick.stderr
        and "warning: folder 'rps_fire'" in quick.stderr
    )
    said = quick.stdout.removesuffix("loaded []\n")
    assert said.split(" in ")[0] == full.stdout.split(" in ")[0]  # all but the seconds
    assert contents(project) == before


@pytest.mark.parametrize(
    "args",
    [
        ("--paper", "a4", "--help"),
        ("--paper", "A4"),
        ("--paper",),
        ("--paper", "a4", "--back-offset", "1,0"),
        ("--paper", "a4", "--jobs", "0"),
        ("--paper", "a4", "--ink", "normal", "--ink", "low"),
        ("--paper", "a4", "nogame"),
        ("--paper", "a4", "--", GAME),
    ],
)
def test_a_command_line_the_quick_path_does_not_know_goes_to_the_full_command(
    project: Path, args: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    from gachapress.cli.quick import noop_build

    build(project)
    assert noop_build(["build", GAME, "--paper", "a4", "--root", str(project)])
    capsys.readouterr()
    assert not noop_build(["build", GAME, "--root", str(project), *args])
    assert capsys.readouterr() == ("", "")


def test_an_input_changed_since_the_build_is_built_not_skipped(project: Path) -> None:
    build(project)
    edit_card_text(project)
    result = run_cli("build", GAME, "--paper", "a4", cwd=project, env=ENV)
    assert result.code == 0, result.err
    assert "Stone" in (project / "out" / GAME / "cards" / "rock-1.svg").read_text(encoding="utf-8")

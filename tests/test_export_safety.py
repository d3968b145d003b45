"""`gachapress export` publishes like `build`: under out/'s lock, each target folder staged and
swapped in whole, only the tool's own files replaced, unchanged faces not rendered again, and
builds keep the exports."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from gachapress.assembly.outdir import MARKER
from tests.conftest import ROOT, own_template, run_cli
from tests.test_build_safety import ENV, contents, edit_card_text, lock_held

GAME = "rps-fire"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for folder in ("rules", "templates"):
        shutil.copytree(ROOT / folder, tmp_path / "project" / folder)
    shutil.copytree(ROOT / "build" / "fonts", tmp_path / "project" / "build" / "fonts")
    return tmp_path / "project"


def export(project: Path, target: str = "dtc", *args: str, env: dict[str, str] | None = None):
    return run_cli("export", GAME, "--to", target, *args, cwd=project, env=env)


def folder(project: Path, target: str = "dtc") -> Path:
    return project / "out" / GAME / "export" / target


def test_unknown_target_or_game_is_a_usage_error_listing_the_valid_ones(project: Path) -> None:
    run = export(project, "pdf")
    assert run.code == 2
    assert all(name in run.err for name in ("png", "tgc", "dtc", "tts"))
    run = run_cli("export", "chess", "--to", "png", cwd=project)
    assert run.code == 2
    assert "gotchacards" in run.err and "gasha" in run.err
    assert not (project / "out").exists()


def test_exports_survive_builds_and_a_build_accepts_an_out_made_by_export(project: Path) -> None:
    run = export(project)
    assert run.code == 0, run.err
    exported = contents(folder(project))
    assert (project / "out" / MARKER).is_file()  # out/ is the tool's, listing no build yet
    run = run_cli("build", GAME, "--paper", "a4", cwd=project, env=ENV)
    assert run.code == 0, run.err
    assert contents(folder(project)) == exported
    edit_card_text(project)
    run = run_cli("build", GAME, "--paper", "a4", cwd=project, env=ENV)
    assert run.code == 0, run.err
    assert contents(folder(project)) == exported  # a rebuild keeps it too
    assert (project / "out" / GAME / f"{GAME}-pnp-a4.pdf").is_file()


def test_a_kill_after_staging_leaves_the_previous_export_whole(project: Path) -> None:
    assert export(project).code == 0
    before = contents(folder(project))
    edit_card_text(project)
    run = export(project, env={"GACHAPRESS_FAULT": "export-staged"})
    assert run.code != 0
    assert contents(folder(project)) == before
    assert export(project).code == 0  # the next export clears the stage the kill left
    assert contents(folder(project)) != before
    assert [p.name for p in folder(project).parent.iterdir()] == ["dtc"]


def test_a_failing_game_replaces_nothing(project: Path) -> None:
    """Every game is checked before any folder is replaced, as `build` does."""
    run = run_cli("export", "gotchacards", GAME, "--to", "dtc", cwd=project)
    assert run.code == 0, run.err
    other = project / "out" / "gotchacards" / "export" / "dtc"
    before, other_before = contents(folder(project)), contents(other)
    cards = project / "templates" / "cards" / "gotchacards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("#262335", "#263335"), "utf-8")
    layout = project / "templates" / "cards" / f"{GAME}.yaml"
    layout.write_text(layout.read_text("utf-8").replace("shape: poker", "shape: tarot"), "utf-8")
    run = run_cli("export", "gotchacards", GAME, "--to", "dtc", cwd=project)
    assert run.code == 1
    assert f"{GAME}.yaml:" in run.err and "unknown shape 'tarot'" in run.err
    assert contents(folder(project)) == before
    assert contents(other) == other_before  # the game that passed waits for the one that failed


def test_unchanged_faces_are_not_rendered_again(project: Path) -> None:
    assert export(project, "png").code == 0
    inodes = {p.name: p.stat().st_ino for p in folder(project, "png").iterdir()}
    run = export(project, "png")
    assert run.code == 0 and "0 files written" in run.out
    assert {p.name: p.stat().st_ino for p in folder(project, "png").iterdir()} == inodes
    edit_card_text(project)  # renames the Rock cards
    run = export(project, "png")
    assert run.code == 0, run.err
    changed = {
        p.name for p in folder(project, "png").iterdir() if inodes.get(p.name) != p.stat().st_ino
    }
    assert changed - {MARKER} and all(
        name.startswith("rock") or name.startswith("manifest") for name in changed - {MARKER}
    ), changed


def test_files_someone_put_in_the_export_folder_are_kept(project: Path) -> None:
    assert export(project).code == 0
    (folder(project) / "order-notes.txt").write_text("proof ordered", "utf-8")
    (folder(project) / "latest.txt").symlink_to("order-notes.txt")
    (folder(project) / "shop").symlink_to(project / "rules")
    (folder(project) / "gone").symlink_to("/nowhere/at/all")
    (folder(project) / "proofs").mkdir()
    edit_card_text(project)
    assert export(project).code == 0
    assert (folder(project) / "order-notes.txt").read_text("utf-8") == "proof ordered"
    assert os.readlink(folder(project) / "latest.txt") == "order-notes.txt"
    assert os.readlink(folder(project) / "shop") == str(project / "rules")
    assert os.readlink(folder(project) / "gone") == "/nowhere/at/all"
    assert (folder(project) / "proofs").is_dir()


def test_a_foreign_export_folder_is_refused(project: Path) -> None:
    assert export(project).code == 0
    shutil.rmtree(folder(project, "tts"), ignore_errors=True)
    folder(project, "tts").mkdir(parents=True)
    (folder(project, "tts") / "mine.json").write_text("{}", "utf-8")
    run = export(project, "tts")
    assert run.code == 1 and "not made by gachapress" in run.err
    assert (folder(project, "tts") / "mine.json").read_text("utf-8") == "{}"


def test_export_never_races_a_build(project: Path) -> None:
    (project / "out").mkdir()
    with lock_held(project):
        run = export(project)
    assert run.code == 1 and "another build is writing" in run.err
    assert not (project / "out" / GAME).exists()


def test_export_help_names_the_targets_and_options() -> None:
    run = run_cli("export", "--help")
    assert run.code == 0
    for word in ("--to", "png", "tgc", "dtc", "tts", "--out", "--text-as-paths", "--root"):
        assert word in run.out


def test_the_same_inputs_give_the_same_bytes(project: Path, tmp_path: Path) -> None:
    assert export(project).code == 0
    run = export(project, "dtc", "--out", str(tmp_path / "again"))
    assert run.code == 0, run.err
    again = tmp_path / "again" / GAME / "export" / "dtc"
    assert contents(again) == contents(folder(project))


def test_a_shop_size_that_breaks_the_safe_zone_is_a_located_error(project: Path) -> None:
    presets = own_template(project, "print.yaml")
    text = presets.read_text("utf-8")
    assert "      safe: 3.175\n" in text
    presets.write_text(text.replace("      safe: 3.175\n", "      safe: 6\n"), "utf-8")
    run = export(project, "tgc")
    assert run.code == 1
    line = next(
        i for i, t in enumerate(presets.read_text("utf-8").splitlines(), 1) if "safe: 6" in t
    )
    assert f"templates/print.yaml:{line}:" in run.err and "safe zone" in run.err
    assert "Traceback" not in run.err and not folder(project, "tgc").exists()


def test_a_damaged_export_marker_is_named_with_the_way_out(project: Path) -> None:
    assert export(project).code == 0
    (folder(project) / "order-notes.txt").write_text("proof ordered", "utf-8")
    (folder(project) / MARKER).write_text("{", "utf-8")
    run = export(project)
    assert run.code == 1 and "Traceback" not in run.err
    assert f"out/{GAME}/export/dtc: its {MARKER}, the list of the files" in run.err
    assert "is damaged (it cannot be read as JSON" in run.err
    assert "Run the export again with --repair-out" in run.err
    run = export(project, "dtc", "--repair-out")
    assert run.code == 0, run.err
    assert (folder(project) / "order-notes.txt").read_text("utf-8") == "proof ordered"
    assert export(project).code == 0


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("javascript:alert(1)//", "is not a web address"),
        ("file:///etc/passwd", "is not a web address"),
        ("ftp://example.com/cards/", "is not a web address"),
        ("https://", "is not a web address"),
        ("https://[::1/", "is not a web address"),
        ("https://example.com/\n<script>alert(1)</script>", "holds spaces, line breaks"),
        ("https://example.com/a b/", "holds spaces, line breaks"),
        ("https://example.com/?next=", "has a query or fragment"),
        ("https://example.com/#top", "has a query or fragment"),
    ],
)
def test_base_url_is_only_an_http_url(project: Path, url: str, why: str) -> None:
    run = export(project, "tts", "--base-url", url)
    assert run.code == 2 and "Traceback" not in run.err
    assert why in " ".join(run.err.replace("│", " ").split())
    assert not (project / "out").exists()


def test_what_the_tts_export_writes_is_escaped(project: Path) -> None:
    import json

    from gachapress.export.tts import markdown_text

    decks = project / "rules" / GAME / "game.yaml"
    text = decks.read_text("utf-8")
    name = "Rock <script>alert(1)</script> | *Fire*"
    old = 'name: {en: "Rock, Paper, Scissors, Fire"'
    assert old in text
    decks.write_text(text.replace(old, f'name: {{en: "{name}"', 1), "utf-8")
    run = export(project, "tts", "--base-url", "https://example.com/it's/\"<cards>`/")
    assert run.code == 0, run.err
    saved = json.loads((folder(project, "tts") / f"{GAME}.json").read_text("utf-8"))
    deck = saved["ObjectStates"][0]
    (entry,) = deck["CustomDeck"].values()
    assert entry["FaceURL"].startswith("https://example.com/it%27s/%22%3Ccards%3E%60/")
    readme = (folder(project, "tts") / "README.md").read_text("utf-8")
    assert "<script>" not in readme and "<cards>" not in readme
    assert readme.startswith(f"# {markdown_text(name)} for Tabletop Simulator\n")
    assert markdown_text(name) == r"Rock &lt;script&gt;alert(1)&lt;/script&gt; \| \*Fire\*"
    assert "from `https://example.com/it%27s/%22%3Ccards%3E%60/`" in readme

"""The caches that keep a rebuild quick: static fonts made once per machine, templates and font
subsets made once per process."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

from gachapress.project import Templates
from gachapress.render import fonts


def test_static_fonts_are_made_once_and_remade_when_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[int] = []
    real = instancer.instantiateVariableFont

    def counting(font: TTFont, axes: dict[str, int], **kwargs: object) -> TTFont:
        made.append(axes["wght"])
        return real(font, axes, **kwargs)

    monkeypatch.setattr(instancer, "instantiateVariableFont", counting)
    source = fonts._noto_variable()
    first = fonts._static_instance(source, 700, tmp_path)
    good = first.read_bytes()
    assert fonts._static_instance(source, 700, tmp_path) == first
    assert made == [700]  # from the cache
    first.write_bytes(good[: len(good) // 2])  # a build killed while copying, a bad disk
    assert fonts._static_instance(source, 700, tmp_path) == first
    assert made == [700, 700]
    assert first.read_bytes() == good
    assert TTFont(first)["name"].getDebugName(4) == "Noto Sans Bold"


def test_fonts_are_kept_for_every_project_in_the_user_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GACHAPRESS_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert fonts.cache_dir(tmp_path / "build") == tmp_path / "xdg" / "gachapress" / "fonts"
    monkeypatch.setenv("GACHAPRESS_CACHE_DIR", str(tmp_path / "mine"))
    assert fonts.cache_dir(tmp_path / "build") == tmp_path / "mine" / "fonts"
    monkeypatch.delenv("GACHAPRESS_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.delenv("HOME")
    assert fonts.cache_dir(tmp_path / "build") == tmp_path / "build" / "fonts"


def test_templates_compile_once_per_process_and_reload_when_edited(tmp_path: Path) -> None:
    from gachapress.publish.templating import environment

    page = tmp_path / "templates" / "page.j2"
    page.parent.mkdir()
    page.write_text("first {{ n }}", encoding="utf-8")
    env = environment(Templates(tmp_path))
    assert env.get_template("page.j2").render(n=1) == "first 1"
    assert environment(Templates(tmp_path)) is env
    page.write_text("second {{ n }}", encoding="utf-8")
    later = page.stat().st_mtime + 5
    os.utime(page, (later, later))
    assert environment(Templates(tmp_path)).get_template("page.j2").render(n=2) == "second 2"


def test_font_subsets_are_made_once_per_set_of_characters() -> None:
    from gachapress.render.svg import _subset

    path = str(fonts.japanese_font_path())
    _subset.cache_clear()
    assert _subset(path, "abc") == _subset(path, "abc")
    assert _subset.cache_info().hits == 1


def test_font_subsets_are_made_once_per_machine_and_remade_when_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fontTools import subset

    from gachapress.publish import webfont

    made: list[int] = []
    real = subset.Subsetter.subset

    def counting(self: subset.Subsetter, font: TTFont) -> None:
        made.append(1)
        real(self, font)

    monkeypatch.setattr(subset.Subsetter, "subset", counting)
    monkeypatch.setenv("GACHAPRESS_CACHE_DIR", str(tmp_path))
    characters = frozenset("ガチャ回す")
    webfont.woff2_subset.cache_clear()
    first = webfont.woff2_subset(characters)
    webfont.woff2_subset.cache_clear()  # as a new process would
    assert webfont.woff2_subset(characters) == first
    assert made == [1]
    (stored,) = (tmp_path / "fonts" / "subsets").iterdir()
    stored.write_bytes(stored.read_bytes()[:-10])  # a damaged disk
    webfont.woff2_subset.cache_clear()
    assert webfont.woff2_subset(characters) == first
    assert made == [1, 1]
    assert TTFont(io.BytesIO(first)).getBestCmap().keys() >= {ord(c) for c in characters}


def test_an_edit_of_english_text_keeps_a_pages_japanese_font() -> None:
    from gachapress.publish.webfont import font_face

    assert font_face("ガチャ: worth nothing.") == font_face("ガチャ: worth nothing at all!")
    assert font_face("ガチャ") != font_face("ガチャポン")


def test_the_books_of_several_games_are_simulated_together_over_the_jobs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gachapress.data.load import load_rules
    from gachapress.publish import stats

    rules = Path(__file__).resolve().parents[1] / "rules"
    games = [load_rules(game_id, rules) for game_id in ("rps-fire", "gasha")]
    calls: list[tuple[set[str], int]] = []
    real = stats.run_sims

    def spying(specs: list[stats.SimSpec], jobs: int, progress: object) -> object:
        calls.append(({spec.game for spec in specs}, jobs))
        return real(specs, jobs, progress)  # type: ignore[arg-type]

    monkeypatch.setattr(stats, "run_sims", spying)
    heard: list[tuple[str, int, int, int, int]] = []
    pooled = stats.simulate_books(
        games, rules, tmp_path / "two", games=3, jobs=2, progress=lambda *a: heard.append(a)
    )
    assert calls == [({"rps-fire", "gasha"}, 2)]  # one pool for both games
    alone = [stats.book_statistics(g.id, rules, tmp_path / "one", games=3) for g in games]
    assert pooled == alone  # the same figures whatever the jobs
    finals = {a[0]: a[1:3] for a in heard}
    assert all(done == total for done, total in finals.values()) and set(finals) == {
        "rps-fire",
        "gasha",
    }
    assert heard[-1][3] == heard[-1][4] == sum(total for _, total in finals.values())


def test_off_a_terminal_a_build_says_how_its_book_simulations_advance(tmp_path: Path) -> None:
    from tests.conftest import ROOT, run_cli

    for folder in ("rules", "templates"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    result = run_cli(
        "build",
        "rps-fire",
        "--paper",
        "a4",
        "--jobs",
        "2",
        cwd=tmp_path,
        env={"GACHAPRESS_BOOK_GAMES": "3"},
    )
    assert result.code == 0, result.err
    lines = result.err.splitlines()
    # 5 player counts x 2 bots x 3 games, said at each quarter, before the game's files: 28
    # faces in each language, the print-and-play and each language's HTML rulebook and its A5,
    # A4 and imposed A4 booklet PDFs
    assert lines == [
        "rps-fire: 9/30 book games played",
        "rps-fire: 15/30 book games played",
        "rps-fire: 24/30 book games played",
        "rps-fire: 30/30 book games played",
        "rps-fire: 65 files written, 0 unchanged",
    ]


def test_a_game_is_loaded_once_per_content_of_its_folder(tmp_path: Path) -> None:
    from gachapress.assembly.builder import load_game_data
    from tests.conftest import RULES

    shutil.copytree(RULES / "rps-fire", tmp_path / "rules" / "rps-fire")
    rules = tmp_path / "rules"
    first = load_game_data("rps-fire", rules)
    assert load_game_data("rps-fire", rules) is first  # the index and gallery reuse it
    game = rules / "rps-fire" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert load_game_data("rps-fire", rules) is not first


def test_art_drawings_are_read_once_per_machine_and_again_when_damaged_or_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas
    from svglib import svglib

    from gachapress.render import art

    read: list[int] = []
    real = svglib.svg2rlg

    def counting(*args: object, **kwargs: object) -> object:
        read.append(1)
        return real(*args, **kwargs)

    def drawn(drawing: object) -> bytes:
        target = io.BytesIO()
        canvas = Canvas(target, invariant=1)
        renderPDF.draw(drawing, canvas, 0, 0)
        canvas.save()
        return target.getvalue()

    monkeypatch.setattr(svglib, "svg2rlg", counting)
    monkeypatch.setenv("GACHAPRESS_CACHE_DIR", str(tmp_path))
    source = "openmoji:1F98A"
    art._drawing.cache_clear()
    first = drawn(art.reportlab_drawing(source))
    art._drawing.cache_clear()  # as a new process would
    assert drawn(art.reportlab_drawing(source)) == first
    assert read == [1]
    (stored,) = (tmp_path / "art").iterdir()
    stored.write_bytes(stored.read_bytes()[:-10])  # a damaged disk
    art._drawing.cache_clear()
    assert drawn(art.reportlab_drawing(source)) == first
    assert read == [1, 1]
    monkeypatch.setattr(art, "DRAWINGS", "drawings-v0")  # made by another version
    art._drawing.cache_clear()
    assert drawn(art.reportlab_drawing(source)) == first
    assert read == [1, 1, 1]
    art._drawing.cache_clear()


def test_an_edited_art_file_is_read_again_in_the_same_process(tmp_path: Path) -> None:
    """A preview rebuilds in one process: the face and the PDF drawing of an art file follow
    its edits, and an unchanged file is parsed once."""
    from gachapress.render import art

    file = tmp_path / "coin.svg"
    square = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        '<rect width="{}" height="10"/></svg>'
    )
    file.write_text(square.format(4), encoding="utf-8")
    source = f"file:{file}"
    first = art.load_art(source)
    assert art.load_art(source) is first  # parsed once
    assert art.reportlab_drawing(source) is art.reportlab_drawing(source)
    file.write_text(square.format(7), encoding="utf-8")
    _, children = art.svg_art(source)
    assert [child.get("width") for child in children] == ["7"]
    rect = art.reportlab_drawing(source).contents[0]
    while not hasattr(rect, "width"):  # svglib nests the shapes in groups
        rect = rect.contents[0]
    assert rect.width == 7


def test_check_plays_a_game_again_only_when_its_play_data_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A preview's rebuild after a text edit does not replay the check's random games; a
    changed number does."""
    from gachapress.checks.playtest import playtest
    from gachapress.data.load import load_rules
    from gachapress.engine.contract import Failure, verdict
    from gachapress.engine.core import Game
    from tests.conftest import RULES

    shutil.copytree(RULES / "rps-fire", tmp_path / "rules" / "rps-fire")
    rules, played = tmp_path / "rules", []
    real = verdict.run_contract

    def counted(game: Game) -> Failure | None:
        played.append(game.id)
        return real(game)

    monkeypatch.setattr(verdict, "run_contract", counted)
    monkeypatch.setattr(verdict, "_PASSED", set())
    assert list(playtest(load_rules("rps-fire", rules))) == []
    edits = (("Beats any Scissors.", "Beats every Scissors."), ("5: {hand: 6}", "5: {hand: 5}"))
    for old, new in edits:
        file = next(f for f in (rules / "rps-fire").glob("*.yaml") if old in f.read_text("utf-8"))
        file.write_text(file.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        assert list(playtest(load_rules("rps-fire", rules))) == []
    assert played == ["rps-fire", "rps-fire"]  # the first load, and the changed hand size

"""`gachapress build`: incremental, atomic, and safe with hostile text."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gachapress.assembly.outdir import MARKER
from tests.conftest import ROOT, run_cli
from tests.yaml_edit import rename

GAME = "gachapon-trick"
#: Book games per build: no test here reads the statistics (the default plays 200 of each).
ENV = {"GACHAPRESS_BOOK_GAMES": "2"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for folder in ("rules", "templates"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def letter_pdfs(game: str) -> list[str]:
    """The PDFs of a `--paper letter` build: its sheets, the A5 booklet, the Letter books."""
    return [
        f"{game}-pnp-letter.pdf",
        "rulebook.en.booklet-letter.pdf",
        "rulebook.en.letter.pdf",
        "rulebook.en.pdf",
        "rulebook.ja.booklet-letter.pdf",
        "rulebook.ja.letter.pdf",
        "rulebook.ja.pdf",
    ]


def snapshot(folder: Path) -> dict[str, tuple[str, int]]:
    """Every file under ``folder`` with its content hash and modification time."""
    return {
        p.relative_to(folder).as_posix(): (
            hashlib.sha256(p.read_bytes()).hexdigest(),
            p.stat().st_mtime_ns,
        )
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def build(project: Path, *args: str) -> str:
    result = run_cli("build", GAME, *args, cwd=project, env=ENV)
    assert result.code == 0, result.err
    return result.out


def test_no_op_rebuild_touches_nothing(project: Path) -> None:
    build(project)
    before = snapshot(project / "out")
    out = build(project)
    assert "0 files written" in out
    assert snapshot(project / "out") == before


def test_one_card_edit_rebuilds_only_what_it_touches(project: Path) -> None:
    build(project)
    before = snapshot(project / "out" / GAME)
    decks = project / "rules" / GAME / "decks.yaml"
    text = decks.read_text(encoding="utf-8")
    assert text.count("Unused, it is worth nothing.") == 1
    decks.write_text(
        text.replace("Unused, it is worth nothing.", "Unused, it is worth nothing at all."),
        encoding="utf-8",
    )
    build(project)
    after = snapshot(project / "out" / GAME)
    changed = sorted(name for name in after if after[name] != before.get(name))
    # the English PDF rulebooks picture the card too (the HTML book links to its SVG); the
    # Japanese books picture its Japanese face, which did not change
    assert changed == [
        "cards/refund.svg",
        f"{GAME}-pnp-a4.pdf",
        f"{GAME}-pnp-letter.pdf",
        "rulebook.en.a4.pdf",
        "rulebook.en.booklet-a4.pdf",
        "rulebook.en.booklet-letter.pdf",
        "rulebook.en.letter.pdf",
        "rulebook.en.pdf",
    ]


def test_a_quick_pass_leaves_the_pdfs_to_the_next_build(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The preview's quick pass publishes an edited face at once and leaves the PDFs that
    show it as they were; the next build, even a plain `build` after the preview was stopped,
    makes them, and the one after has nothing to do."""
    from gachapress.assembly.builder import BuildOptions
    from gachapress.assembly.builder import build as build_games

    build(project)
    before = snapshot(project / "out" / GAME)
    decks = project / "rules" / GAME / "decks.yaml"
    text = decks.read_text(encoding="utf-8")
    decks.write_text(text.replace("worth nothing.", "worth nothing at all."), encoding="utf-8")
    monkeypatch.setenv("GACHAPRESS_BOOK_GAMES", ENV["GACHAPRESS_BOOK_GAMES"])
    options = BuildOptions(root=project, out=project / "out", defer_pdfs=True)
    report = build_games([GAME], options)
    quick = snapshot(project / "out" / GAME)
    changed = sorted(name for name in quick if quick[name] != before.get(name))
    assert changed == ["cards/refund.svg"]
    # the PDFs that picture the English face (the Japanese books picture the Japanese one)
    pdfs = sorted(name for name in before if name.endswith(".pdf") and ".ja." not in name)
    assert sorted(rel.removeprefix(f"{GAME}/") for rel in report.games[0].deferred) == pdfs
    assert f"{len(pdfs)} PDFs to follow" in report.games[0].line()

    assert f"{len(pdfs)} files written" in build(project)
    after = snapshot(project / "out" / GAME)
    assert sorted(name for name in after if after[name] != quick.get(name)) == pdfs
    assert "0 files written" in build(project)


def test_a_failed_build_leaves_out_untouched(project: Path) -> None:
    build(project)
    before = snapshot(project / "out")
    game = project / "rules" / GAME / "game.yaml"
    game.write_text(
        game.read_text(encoding="utf-8").replace("rounds: 3", "rounds: three"), encoding="utf-8"
    )
    result = run_cli("build", GAME, cwd=project, env=ENV)
    assert result.code == 1
    assert "rules/gachapon-trick/game.yaml:" in result.err and "rounds" in result.err
    assert "out/ is unchanged" in result.out
    assert snapshot(project / "out") == before
    assert not list((project / "build").glob("stage-*"))


def test_paper_option_builds_one_size(project: Path) -> None:
    """The sheets and the home printer's rulebooks in that paper; the A5 booklet always."""
    build(project, "--paper", "letter")
    assert sorted(p.name for p in (project / "out" / GAME).glob("*.pdf")) == letter_pdfs(GAME)


def test_the_pdf_rulebook_is_built_listed_and_linked(project: Path) -> None:
    build(project, "--paper", "a4")
    out = project / "out"
    pdf = out / GAME / "rulebook.en.pdf"
    assert pdf.read_bytes().startswith(b"%PDF")
    marker = json.loads((out / MARKER).read_text(encoding="utf-8"))
    assert f"{GAME}/rulebook.en.pdf" in json.dumps(marker)
    html = (out / GAME / "rulebook.en.html").read_text(encoding="utf-8")
    downloads = re.search(r'<p class="downloads">(.*?)</p>', html).group(1)  # type: ignore[union-attr]
    assert re.findall(r'href="([^"]+)"', downloads) == [
        "rulebook.en.pdf",
        "rulebook.en.a4.pdf",
        "rulebook.en.booklet-a4.pdf",
        f"{GAME}-pnp-a4.pdf",
    ]
    assert "Rulebook PDF · A5 booklet" in downloads and "Rulebook PDF · A4" in downloads
    assert (out / GAME / f"{GAME}-pnp-a4.pdf").is_file()
    index = (out / "index.html").read_text(encoding="utf-8")
    assert f'href="{GAME}/rulebook.en.pdf"' in index
    assert f'href="{GAME}/rulebook.ja.a4.pdf"' in index
    assert f'href="{GAME}/rulebook.en.letter.pdf"' not in index  # not built with --paper a4
    # an export present in out/ is linked once the next build sees it
    (out / GAME / "export" / "tts").mkdir(parents=True)
    build(project, "--paper", "a4")
    html = (out / GAME / "rulebook.en.html").read_text(encoding="utf-8")
    assert 'href="export/tts/"' in html


def test_bad_options_are_usage_errors(project: Path) -> None:
    assert run_cli("build", GAME, "--paper", "a3", cwd=project).code == 2
    assert run_cli("build", GAME, "--back-offset", "x", cwd=project).code == 2
    assert run_cli("build", "nothing", cwd=project).code == 2


def test_hostile_text_is_escaped(project: Path) -> None:
    rename(project / "rules" / GAME / "decks.yaml", "Refund", "<script>alert(1)</script> & Co")
    build(project)
    text = (project / "out" / GAME / "cards" / "refund.svg").read_text(encoding="utf-8")
    assert "<script>" not in text
    root = ET.fromstring(text)  # still well-formed XML
    ns = {"s": "http://www.w3.org/2000/svg"}
    assert root.find("s:title", ns).text == "<script>alert(1)</script> & Co"


def test_back_offset_moves_only_the_backs(project: Path) -> None:
    from pypdf import PdfReader

    from tests.test_print import _placements

    pdf = project / "out" / GAME / f"{GAME}-pnp-a4.pdf"
    build(project, "--paper", "a4")
    plain = PdfReader(pdf.rename(project / "plain.pdf"))
    build(project, "--paper", "a4", "--back-offset", "1.5,-0.5")
    shifted = PdfReader(pdf)
    mm = 72 / 25.4
    assert _placements(plain, 4) == _placements(shifted, 4)  # fronts (sheet 3) stay
    assert _placements(plain, 5), "sheet 3's backs"
    for (_, x0, y0), (_, x1, y1) in zip(
        _placements(plain, 5), _placements(shifted, 5), strict=True
    ):
        assert x1 - x0 == pytest.approx(1.5 * mm, abs=1e-3)
        assert y1 - y0 == pytest.approx(0.5 * mm, abs=1e-3)  # y runs down the page: -0.5 is up


def test_low_ink_rebuilds_only_the_pdfs(project: Path) -> None:
    build(project)
    before = snapshot(project / "out" / GAME)
    build(project, "--ink", "low")
    after = snapshot(project / "out" / GAME)
    changed = sorted(name for name in after if after[name] != before.get(name))
    assert changed == [f"{GAME}-pnp-a4.pdf", f"{GAME}-pnp-letter.pdf"]
    assert run_cli("build", GAME, "--ink", "none", cwd=project).code == 2


def test_one_number_changed_shows_everywhere_and_nowhere_old(tmp_path: Path) -> None:
    """Change a gacha card's points in a copy of rules/: the card face, the rulebooks and the
    engine all use the new value, and nothing published shows the old one."""
    from gachapress import load_game

    for folder in ("rules", "templates"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    decks = tmp_path / "rules" / "gotcha" / "decks.yaml"
    text = decks.read_text(encoding="utf-8")
    old = "      - id: gacha-04\n        rarity: R\n        points: 3500\n"
    assert old in text
    decks.write_text(text.replace(old, old.replace("3500", "3700")), encoding="utf-8")
    result = run_cli(
        "build", "gotcha", "--paper", "a4", cwd=tmp_path, env={"GACHAPRESS_BOOK_GAMES": "4"}
    )
    assert result.code == 0, result.err
    out = tmp_path / "out" / "gotcha"
    face = (out / "cards" / "gacha-04.svg").read_text(encoding="utf-8")
    assert ">3700<" in face and "3500" not in face
    for book in ("rulebook.en.html", "rulebook.ja.html"):
        html = (out / book).read_text(encoding="utf-8")
        assert re.search(r"(?<![\d,])3,?700(?![\d,])", html)
        assert not re.search(r"(?<![\d,])3,?500(?![\d,])", html), book
    engine = load_game("gotcha", tmp_path / "rules")
    assert engine.model.cards()["gacha-04"].points == 3700

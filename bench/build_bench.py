"""Build figures: a cold build of every game, a no-op rebuild, a one-card edit, peak memory, and
the practical limit: a bare reportlab loop placing as many pre-parsed art drawings and lines of
text on as many pages as the build's PDFs hold.

Run: python bench/build_bench.py   (figures only; it passes or fails nothing)
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pypdf import PdfReader
from reportlab.graphics import renderPDF
from reportlab.pdfgen.canvas import Canvas

from gachapress.data.load import load_rules
from gachapress.games import GAME_IDS
from gachapress.render import art as artwork

ROOT = Path(__file__).resolve().parents[1]
#: Book simulations per mode, player count and bot: the build's own default, or
#: GACHAPRESS_BOOK_GAMES (a small number, say 10, measures the publishing more than the sims).
BOOK_GAMES = int(os.environ.get("GACHAPRESS_BOOK_GAMES", "200"))


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_build(project: Path, *args: str) -> float:
    """CPU seconds of a `gachapress build` (its processes', so a busy machine does not count)."""
    start = _children_cpu()
    done = subprocess.run(
        [sys.executable, "-m", "gachapress.cli.main", "build", *args],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "GACHAPRESS_BOOK_GAMES": str(BOOK_GAMES)},
    )
    if done.returncode != 0:
        raise SystemExit(f"build failed:\n{done.stderr}{done.stdout}")
    return _children_cpu() - start


def bare_reportlab(pages: int, pieces: int, arts: list[str], folder: Path) -> float:
    """The same pages, drawings and text with reportlab alone (arts parsed beforehand)."""
    drawings = [artwork.reportlab_drawing(source) for source in arts]
    start = time.process_time()
    canvas = Canvas(str(folder / "bare.pdf"), pagesize=(595, 842), invariant=1)
    for index, drawing in enumerate(drawings):
        canvas.beginForm(f"art{index}")
        renderPDF.draw(drawing, canvas, 0, 0)
        canvas.endForm()
    per_page = max(1, pieces // pages)
    placed = 0
    for page in range(pages):
        for slot in range(per_page):
            canvas.saveState()
            canvas.translate(20 + (slot % 3) * 180, 40 + (slot // 3) * 260)
            canvas.doForm(f"art{placed % len(drawings)}")
            canvas.restoreState()
            canvas.drawString(20 + (slot % 3) * 180, 30 + (slot // 3) * 260, f"card {placed}")
            placed += 1
        canvas.drawString(20, 10, f"page {page}")
        canvas.showPage()
    canvas.save()
    return time.process_time() - start


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        for name in ("rules", "templates"):
            shutil.copytree(ROOT / name, project / name)
        cold = run_build(project, "--jobs", "1")
        noop = run_build(project)
        decks = project / "rules" / "gachapon-trick" / "decks.yaml"
        decks.write_text(
            decks.read_text(encoding="utf-8").replace(
                "Unused, it is worth nothing.", "Unused, it is worth nothing at all."
            ),
            encoding="utf-8",
        )
        edit = run_build(project)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        pdfs = sorted((project / "out").rglob("*.pdf"))
        pages = sum(len(PdfReader(pdf).pages) for pdf in pdfs)
        svgs = len(list((project / "out").rglob("*.svg")))
        pieces, arts = 0, set()
        for game_id in GAME_IDS:
            game = load_rules(game_id, project / "rules")
            for _, deck in game.model.deck_items():
                pieces += 2 * deck.size()  # both papers
                arts.update(f"openmoji:{c.art.openmoji}" for c in deck.faces() if c.art.openmoji)
        bare = bare_reportlab(pages, pieces, sorted(arts), project)
    print(f"CPU seconds; book simulations: {BOOK_GAMES} games per mode, player count and bot")
    print(
        f"cold build, 5 games: {cold:.1f} s ({svgs} SVGs, {len(pdfs)} PDFs, "
        f"{pages} pages, {pieces} cards placed)"
    )
    print(
        f"bare reportlab loop, same pages and drawings: {bare:.2f} s "
        f"-> cold build / bare loop = {cold / bare:.0f}x"
    )
    print(f"no-op rebuild: {noop:.2f} s")
    print(f"one-card edit (Gachapon Trick's Refund card): {edit:.1f} s")
    print(f"peak memory of a build process: {peak:.0f} MiB")


if __name__ == "__main__":
    main()

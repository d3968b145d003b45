"""Build figures: the cold publishing work (a cold build with one book game, so everything but
the simulations) against the practical limit, a bare reportlab loop doing the same work; a
no-op rebuild; a one-card edit; the edit-to-reload latency of `gachapress serve`; a cold build
with the default book simulations; peak memory.

The bare loop has two parts. The cards: as many pre-parsed art drawings and lines of text
placed on as many pages as the build's PDFs hold (the yardstick issue 15 set its "3x the bare
loop" against, when the build made only print-and-play sheets). The books: since then the
build also typesets ten rulebooks (five games, English and Japanese) on three page sizes and
imposes the A5 ones as booklets, which is most of its work; against the cards alone, "3x"
would measure the product's size, not our overhead. So the bare loop also sets the same books'
words with plain platypus and imposes them with plain PDFium (``bare_books.py``). Both parts
and the total are printed, and the ratio to the cards alone too, to compare with earlier notes.
The books' part is measured once, on this checkout's books, for before and after alike.

Every figure is measured for this checkout ("after") and for the code of a git revision
("before", by default main at 86630c1, before issue 15's second round), and printed with the
ratio before / after. The machine's font cache is used as it is (static fonts made once per
machine; font subsets made once per set of characters); one more line says what the cold
publishing costs when no subset is cached yet.

Run: python bench/build_bench.py [--before REV | --no-before]   (figures only)
(a revision without `serve` prints no latency).
"""

from __future__ import annotations

import argparse
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

from bare_books import bare_books
from example_project import GAME_IDS
from gachapress.assembly.builder import PAPERS
from gachapress.data.load import load_rules
from gachapress.render import art as artwork
from serve_probe import serving

ROOT = Path(__file__).resolve().parents[1]
#: Book simulations per mode, player count and bot of the full cold build: the build's default,
#: or GACHAPRESS_BOOK_GAMES.
BOOK_GAMES = int(os.environ.get("GACHAPRESS_BOOK_GAMES", "200"))
REFUND = "rules/gachapon-trick/decks.yaml"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_build(project: Path, env: dict[str, str], *args: str, book_games: int = 1) -> float:
    """CPU seconds of a `gachapress build` (its processes', so a busy machine does not count)."""
    return timed_build(project, env, *args, book_games=book_games)[0]


def timed_build(
    project: Path, env: dict[str, str], *args: str, book_games: int = 1
) -> tuple[float, float]:
    """CPU and wall seconds of a `gachapress build`."""
    start, wall = _children_cpu(), time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "gachapress.cli.main", "build", *args],
                          cwd=project, capture_output=True, text=True, check=False,
                          env={**env, "GACHAPRESS_BOOK_GAMES": str(book_games)})
    if done.returncode != 0:
        raise SystemExit(f"build failed:\n{done.stderr}{done.stdout}")
    return _children_cpu() - start, time.perf_counter() - wall


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


def _edit_refund(project: Path, old: str, new: str) -> None:
    decks = project / REFUND
    text = decks.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    decks.write_text(text.replace(old, new), encoding="utf-8")


def edit_to_reload(project: Path, env: dict[str, str]) -> dict[str, float] | None:
    """Seconds from saving a card's text to the event that makes the open pages reload (wall,
    and the server's CPU), and to the one that reloads the sheets when the PDFs follow, with
    `gachapress serve gachapon-trick` running on the project."""
    with serving(project, "gachapon-trick", env={**env, "GACHAPRESS_BOOK_GAMES": "1"}) as served:
        if served is None:
            return None  # a checkout without serve
        first = next(served.states)  # the state as it is
        cpu, wall = served.cpu(), time.perf_counter()
        _edit_refund(project, "nothing at all.", "nothing at all!")
        figures: dict[str, float] = {}
        for state in served.states:
            if state["generation"] > first["generation"] and "reload_wall" not in figures:
                figures["reload_wall"] = time.perf_counter() - wall
                figures["reload_cpu"] = served.cpu() - cpu
            if state.get("pdfs", state["generation"]) > first.get("pdfs", first["generation"]):
                figures["pdfs_wall"] = time.perf_counter() - wall  # older: the same event
                return figures
        return figures


def _project(folder: str, source: Path) -> Path:
    project = Path(folder)
    for name in ("rules", "templates"):
        shutil.copytree(source / name, project / name)
    return project


def measure(env: dict[str, str], source: Path, books: bool = True) -> dict[str, float]:
    """Every figure of the code that ``env`` runs, on a copy of ``source``'s rules (with the
    bare loop's books part when ``books``)."""
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        project = _project(folder, source)
        figures["cold"] = run_build(project, env, "--jobs", "1")
        figures["noop"], figures["noop_wall"] = min(timed_build(project, env) for _ in range(3))
        _edit_refund(project, "Unused, it is worth nothing.", "Unused, it is worth nothing at all.")
        figures["edit"] = run_build(project, env)
        figures.update(edit_to_reload(project, env) or {})
        figures["peak"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        pdfs = sorted((project / "out").rglob("*.pdf"))
        figures["pdfs"] = len(pdfs)
        figures["pages"] = sum(len(PdfReader(pdf).pages) for pdf in pdfs)
        figures["svgs"] = len(list((project / "out").rglob("*.svg")))
        pieces, arts = 0, set()
        for game_id in GAME_IDS:
            game = load_rules(game_id, project / "rules")
            for _, deck in game.model.deck_items():
                pieces += 2 * deck.size()  # both papers
                arts.update(f"openmoji:{c.art.openmoji}" for c in deck.faces() if c.art.openmoji)
        figures["pieces"] = pieces
        figures["bare"] = bare_reportlab(int(figures["pages"]), pieces, sorted(arts), project)
        if books:
            figures["bare_books"], figures["bare_booklets"], figures["bare_pdfs"] = bare_books(
                project, PAPERS
            )
    with tempfile.TemporaryDirectory() as folder:
        figures["full"] = run_build(_project(folder, source), env, "--jobs", "1",
                                    book_games=BOOK_GAMES)
    return figures


def cold_without_subsets(env: dict[str, str]) -> float:
    """The cold publishing with a font cache that holds the static fonts and no subset."""
    from gachapress.render.fonts import user_cache_dir

    with tempfile.TemporaryDirectory() as folder:
        fonts = Path(folder) / "cache" / "fonts"
        fonts.mkdir(parents=True)
        machine = user_cache_dir()
        for font in machine.glob("NotoSans-*") if machine else []:
            shutil.copy2(font, fonts / font.name)
        project = _project(str(Path(folder) / "project"), ROOT)
        return run_build(project, {**env, "GACHAPRESS_CACHE_DIR": str(fonts.parent)}, "--jobs", "1")


def _checkout(revision: str, folder: Path) -> Path:
    """The src/, rules/ and templates/ of ``revision`` in ``folder``."""
    archive = subprocess.run(["git", "archive", revision, "src", "rules", "templates"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="86630c1", help="the revision to compare with")
    parser.add_argument("--no-before", action="store_true", help="measure this checkout only")
    args = parser.parse_args()
    after = measure(dict(os.environ), ROOT)
    before: dict[str, float] = {}
    if not args.no_before:
        with tempfile.TemporaryDirectory() as folder:
            old = _checkout(args.before, Path(folder))
            before = measure({**os.environ, "PYTHONPATH": str(old / "src")}, old, books=False)
            del before["peak"]  # the peak of all the bench's processes so far: not its own
    uncached = cold_without_subsets(dict(os.environ))

    def row(label: str, key: str, unit: str = "s") -> None:
        now = f"{after[key]:.2f} {unit}" if key in after else "-"
        if key in before and key in after:
            print(f"{label}: before {before[key]:.2f} {unit}, after {now}, "
                  f"before / after = {before[key] / after[key]:.1f}x")
        else:
            print(f"{label}: {now}")

    print(f"CPU seconds unless said; before = {args.before}, after = this checkout")
    print(f"outputs: {after['svgs']:.0f} SVGs, {after['pdfs']:.0f} PDFs, {after['pages']:.0f} "
          f"pages, {after['pieces']:.0f} cards placed")
    books = after["bare_books"] + after["bare_booklets"]
    total = after["bare"] + books
    print(f"bare loop, cards (same pages and drawings; the old yardstick): {after['bare']:.2f} s")
    print(f"bare loop, books ({after['bare_pdfs']:.0f} PDFs): typeset {after['bare_books']:.2f} s,"
          f" booklets imposed {after['bare_booklets']:.2f} s")
    print(f"bare loop, total: {total:.2f} s")
    row("cold publishing (1 book game), 5 games", "cold")
    for name, figures in (("before", before), ("after", after)):
        if figures:
            print(f"  {name}: cold publishing / bare loop = {figures['cold'] / total:.1f}x "
                  f"(/ cards only, as before: {figures['cold'] / figures['bare']:.1f}x)")
    print(f"  after, no font subset cached yet: {uncached:.2f} s "
          f"= {uncached / total:.1f}x the bare loop")
    row("no-op rebuild", "noop")
    row("no-op rebuild, wall", "noop_wall")
    row("one-card edit (Gachapon Trick's Refund card)", "edit")
    row("edit to reload (serve, Refund card's text), wall", "reload_wall")
    row("edit to reload, CPU of the server", "reload_cpu")
    row("edit to reloaded sheets (the PDFs that follow), wall", "pdfs_wall")
    row(f"cold build, {BOOK_GAMES} book games per mode, player count and bot", "full")
    row("peak memory of a build process", "peak", "MiB")


if __name__ == "__main__":
    main()

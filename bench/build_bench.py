"""Build figures: the cold publishing work (a cold build with one book game, so everything but
the simulations) against the practical limit, a bare reportlab loop placing as many pre-parsed
art drawings and lines of text on as many pages as the build's PDFs hold; a no-op rebuild; a
one-card edit; the edit-to-reload latency of `gachapress serve`; a cold build with the default
book simulations; peak memory.

Run: python bench/build_bench.py   (figures only; it passes or fails nothing)
To measure another checkout's code, put its src/ first: PYTHONPATH=OTHER/src python bench/...
(a checkout without `serve` prints no latency).
"""

from __future__ import annotations

import http.client
import os
import re
import resource
import shutil
import signal
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
#: Book simulations per mode, player count and bot of the full cold build: the build's default,
#: or GACHAPRESS_BOOK_GAMES.
BOOK_GAMES = int(os.environ.get("GACHAPRESS_BOOK_GAMES", "200"))
REFUND = "rules/gachapon-trick/decks.yaml"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_build(project: Path, *args: str, book_games: int = 1) -> float:
    """CPU seconds of a `gachapress build` (its processes', so a busy machine does not count)."""
    start = _children_cpu()
    done = subprocess.run([sys.executable, "-m", "gachapress.cli.main", "build", *args],
                          cwd=project, capture_output=True, text=True, check=False,
                          env={**os.environ, "GACHAPRESS_BOOK_GAMES": str(book_games)})
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


def _edit_refund(project: Path, old: str, new: str) -> None:
    decks = project / REFUND
    text = decks.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    decks.write_text(text.replace(old, new), encoding="utf-8")


def _process_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def edit_to_reload(project: Path) -> tuple[float, float] | None:
    """Seconds (wall, and the server's CPU) from saving a card's text to the event that makes
    the open pages reload, with `gachapress serve gachapon-trick` running on the project."""
    server = subprocess.Popen(
        [sys.executable, "-m", "gachapress.cli.main", "serve", "gachapon-trick", "--port", "0"],
        cwd=project, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "GACHAPRESS_BOOK_GAMES": "1"})
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.search(r"http://([\d.]+):(\d+)/", line)
        if found is None:
            return None  # a checkout without serve
        events = http.client.HTTPConnection(found[1], int(found[2]), timeout=300)
        events.request("GET", "/_serve/events")
        stream = events.getresponse()
        stream.readline()  # the state as it is
        cpu, wall = _process_cpu(server.pid), time.perf_counter()
        _edit_refund(project, "nothing at all.", "nothing at all!")
        while b'"generation"' not in (line_read := stream.readline()) or b": 1," in line_read:
            pass
        return time.perf_counter() - wall, _process_cpu(server.pid) - cpu
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        for name in ("rules", "templates"):
            shutil.copytree(ROOT / name, project / name)
        cold = run_build(project, "--jobs", "1")
        noop = run_build(project)
        _edit_refund(project, "Unused, it is worth nothing.", "Unused, it is worth nothing at all.")
        edit = run_build(project)
        reload = edit_to_reload(project)
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
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        for name in ("rules", "templates"):
            shutil.copytree(ROOT / name, project / name)
        full = run_build(project, "--jobs", "1", book_games=BOOK_GAMES)
    print("CPU seconds unless said")
    print(f"cold publishing (1 book game), 5 games: {cold:.1f} s ({svgs} SVGs, {len(pdfs)} PDFs, "
          f"{pages} pages, {pieces} cards placed)")
    print(f"bare reportlab loop, same pages and drawings: {bare:.2f} s "
          f"-> cold publishing / bare loop = {cold / bare:.1f}x")
    print(f"no-op rebuild: {noop:.2f} s")
    print(f"one-card edit (Gachapon Trick's Refund card): {edit:.2f} s")
    if reload is None:
        print("edit to reload (serve): no serve command here")
    else:
        print(f"edit to reload (serve, Refund card's text): {reload[0]:.2f} s wall, "
              f"{reload[1]:.2f} s CPU of the server")
    print(f"cold build, {BOOK_GAMES} book games per mode, player count and bot: {full:.1f} s")
    print(f"peak memory of a build process: {peak:.0f} MiB")


if __name__ == "__main__":
    main()

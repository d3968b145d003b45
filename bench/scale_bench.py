"""How cost grows with a deck: a designer's spreadsheet deck (see ``designer_deck``, art as
small SVG and PNG files of the game's own) of 50, 500 and 2,000 distinct faces, and for each
size, in CPU seconds (wall for the preview) in all and per face: `check`; a cold `build`; a
build with nothing to do; a one-card edit (a card's effect text rebuilt by `build`, and by
`serve`: the seconds until the open pages reload with the new face and rulebook, until the
PDFs follow, and until the sheet holding the card is shown as a picture); each `export`
target; the print-and-play PDF's bytes per face and how many fonts and images it embeds; the
preview gallery page's bytes; and the peak memory of any one command (and of the preview).

Run: python bench/scale_bench.py [--sizes 50,500,2000]   (figures only)
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from designer_deck import GAME, designer_project
from example_project import Usage, gachapress
from gachapress.export import TARGETS
from serve_probe import Served, serving

#: Cards on a sheet of the game's poker deck (3 x 3), and the pages before the first sheet of
#: cards (the instructions and the alignment test, each with its back).
PER_SHEET, FIRST_CARDS_PAGE = 9, 4


def edit_card(rules: Path, index: int, text: str) -> int:
    """Give card ``index`` (from 0) the effect ``text``; returns the page (from 0) of the
    print-and-play PDF holding its first copy's front."""
    sheet = rules / "cards.csv"
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8"))))
    header, cards = rows[0], rows[1:]
    cards[index][header.index("effect")] = text
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *cards])
    sheet.write_text(out.getvalue(), encoding="utf-8")
    before = sum(int(card[header.index("count")]) for card in cards[:index])
    return FIRST_CARDS_PAGE + 2 * (before // PER_SHEET)


def serve_edit(served: Served, rules: Path, index: int) -> dict[str, float]:
    """Wall seconds from saving card ``index``'s text to the reload of the faces and pages,
    to the PDFs, and to the picture of the sheet holding it; the server's CPU for it all."""
    first = next(served.states)
    cpu, wall = served.cpu(), time.perf_counter()
    page = edit_card(rules, index, "Edited while the preview runs: draw two cards.")
    figures: dict[str, float] = {}
    for state in served.states:
        if state["problems"]:
            raise SystemExit(f"the preview says: {state['problems']}")
        if state["generation"] > first["generation"] and "serve face" not in figures:
            figures["serve face"] = time.perf_counter() - wall
        if state["pdfs"] > first["pdfs"] and not state["pending"]:
            figures["serve PDFs"] = time.perf_counter() - wall
            break
    served.get(f"/_serve/sheets/{GAME}")
    served.get(f"/_serve/sheets/{GAME}/a4/{page}.png")
    figures["serve sheet"] = time.perf_counter() - wall
    figures["serve CPU"] = served.cpu() - cpu
    return figures


def measure(faces: int) -> tuple[dict[str, Usage | float], float]:
    """Every figure for a deck of ``faces`` faces, and the peak memory (MiB) of them all."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        rules = designer_project(root, faces, own_art=True)
        run: Callable[..., Usage] = lambda *args: gachapress(root, *args)  # noqa: E731
        run("check", GAME)  # in a new project: its font metrics made once
        figures: dict[str, Usage | float] = {"check": run("check", GAME)}
        figures["cold build"] = run("build", GAME, "--jobs", "1")
        figures["no-op build"] = run("build", GAME)
        edited = faces // 2 - faces // 2 % 3  # a card with an effect, in the middle
        edit_card(rules, edited, "Edited: swap a card with the player on your right, then draw.")
        figures["edit build"] = run("build", GAME)
        for target in TARGETS:
            figures[f"export {target}"] = run("export", GAME, "--to", target)
        pdf = (root / "out" / GAME / f"{GAME}-pnp-a4.pdf").read_bytes()
        figures["PnP bytes"] = len(pdf)
        figures["PnP fonts"] = pdf.count(b"/FontFile2")
        figures["PnP images"] = len(re.findall(rb"/Subtype\s*/Image", pdf))
        peak = max(u.peak for u in figures.values() if isinstance(u, Usage))
        with serving(root, GAME) as served:
            assert served is not None
            figures.update(serve_edit(served, rules, edited + 3))
            started = time.perf_counter()
            figures["gallery bytes"] = len(served.get(f"/_serve/gallery/{GAME}"))
            figures["gallery s"] = time.perf_counter() - started
            peak = max(peak, served.peak())
        return figures, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="50,500,2000", help="distinct faces, e.g. 50,500")
    sizes = [int(size) for size in parser.parse_args().sizes.split(",")]
    results = {faces: measure(faces) for faces in sizes}
    small, large = sizes[0], sizes[-1]
    print(f"deck sizes (distinct faces): {', '.join(map(str, sizes))}; CPU seconds of the "
          "command (its processes'), wall seconds for serve; per face in ms")  # fmt: skip
    head = "".join(f"{f'{n} total':>13}{'/face':>9}" for n in sizes)
    print(f"{'':<16}{head}{f'/face {large}:{small}':>14}")
    for key in results[small][0]:
        values = [results[n][0][key] for n in sizes]
        totals = [v.cpu if isinstance(v, Usage) else v for v in values]
        per = [t / n for t, n in zip(totals, sizes, strict=True)]
        cells = "".join(
            f"{t:>13.2f}{1000 * p:>9.2f}" if "bytes" not in key and "Pn" not in key
            else f"{t:>13.0f}{p:>9.1f}"
            for t, p in zip(totals, per, strict=True)
        )  # fmt: skip
        ratio = per[-1] / per[0] if per[0] else float("nan")
        print(f"{key:<16}{cells}{ratio:>14.2f}")
    edit = [results[n][0]["edit build"] for n in sizes]
    cpu = [u.cpu if isinstance(u, Usage) else u for u in edit]
    totals = ", ".join(f"{n}: {c:.2f} s" for n, c in zip(sizes, cpu, strict=True))
    print(f"one-card edit (build), total: {totals}; {large} / {small} = {cpu[-1] / cpu[0]:.2f}x")
    for key in ("serve face", "serve PDFs", "serve sheet"):
        first, last = float(results[small][0][key]), float(results[large][0][key])
        print(f"one-card edit ({key}), {large} / {small} = {last / first:.2f}x")
    print("peak memory of one command (MiB): " + ", ".join(
        f"{n}: {results[n][1]:.0f}" for n in sizes))  # fmt: skip


if __name__ == "__main__":
    main()

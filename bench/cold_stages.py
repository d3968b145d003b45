"""Where the CPU of the cold publishing work goes: a cold build (one book game, ``--jobs 1``) of
a copy of the project, run in this process with each stage's functions timed. A stage's time is
its own: a stage run inside another (the face forms inside a PDF) is not counted twice.

Run: python bench/cold_stages.py   (figures only; a few tenths of a second over a plain build)
"""

from __future__ import annotations

import time

START = time.process_time()

import contextlib  # noqa: E402  (the imports are a stage too)
import importlib  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from collections import defaultdict  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import gachapress.cli.main  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CLI_IMPORTS = time.process_time() - START
#: The timed stages: (module, function or Class.method, the stage's name, or a function of the
#: call's arguments that names it).
STAGES: list[tuple[str, str, str | Callable[..., str]]] = [
    ("gachapress.data.load", "load_rules", "YAML load and model"),
    ("gachapress.checks", "run_checks", "checks"),
    ("gachapress.publish.stats", "simulate_books", "simulations (1 book game)"),
    ("gachapress.book.build", "verify_examples", "examples verification"),
    ("gachapress.book.build", "build_books", "book model"),
    ("gachapress.render.faces", "game_faces", "faces: layout"),
    ("gachapress.render.svg", "face_svg", "faces: SVG"),
    ("gachapress.publish.pnp", "write_pnp", "print-and-play PDFs"),
    ("gachapress.publish.book_html", "render_books", "HTML books"),
    (
        "gachapress.publish.book_pdf",
        "render_book_pdf",
        lambda book, fonts, faces, size="a5": f"PDF books, {size}",
    ),
    ("gachapress.publish.booklet", "impose_booklet", "booklets"),
    ("gachapress.publish.site", "write_index", "index"),
    ("gachapress.render.pdf", "FacePainter.form", "  within PDFs: face forms"),
]

spent: dict[str, float] = defaultdict(float)
running: list[list[Any]] = []  # [stage, when it last resumed]


def timed(function: Callable[..., Any], name: str | Callable[..., str]) -> Callable[..., Any]:
    def stage(*args: Any, **kwargs: Any) -> Any:
        now = time.process_time()
        if running:
            spent[running[-1][0]] += now - running[-1][1]
        running.append([name(*args, **kwargs) if callable(name) else name, now])
        try:
            return function(*args, **kwargs)
        finally:
            end = time.process_time()
            label, resumed = running.pop()
            spent[label] += end - resumed
            if running:
                running[-1][1] = end

    return stage


def main() -> None:
    imports = time.process_time()
    for module_name, attribute, name in STAGES:
        owner: Any = importlib.import_module(module_name)
        *classes, function = attribute.split(".")
        for part in classes:
            owner = getattr(owner, part)
        setattr(owner, function, timed(getattr(owner, function), name))
    spent["imports: the CLI"] = CLI_IMPORTS
    spent["imports: the build's modules"] = time.process_time() - imports
    with tempfile.TemporaryDirectory() as folder:
        for name in ("rules", "templates"):
            shutil.copytree(ROOT / name, Path(folder) / name)
        os.chdir(folder)
        os.environ["GACHAPRESS_BOOK_GAMES"] = "1"
        sys.argv = ["gachapress", "build", "--jobs", "1"]
        with contextlib.suppress(SystemExit):  # the CLI exits when it is done
            gachapress.cli.main.main()
    total = time.process_time() - START
    spent["the rest (hashing, fonts, writing, the CLI)"] = total - sum(spent.values())
    for label, seconds in sorted(spent.items(), key=lambda item: -item[1]):
        print(f"{seconds:6.2f} s  {label}")
    print(f"{total:6.2f} s  total CPU")


if __name__ == "__main__":
    main()

"""Export figures: for every game and target, a cold `gachapress export` (a fresh out/, one
process) against the cold PDF build of the same game, and a re-export with nothing to do.

Run: python bench/export_bench.py   (figures only; it passes or fails nothing)
GACHAPRESS_BOOK_GAMES (default 10 here) sets the build's rulebook simulations, which export
does not run: a small number compares the publishing, not the sims.
"""

from __future__ import annotations

import os
import resource
import shutil
import tempfile
from pathlib import Path

from example_project import GAME_IDS, gachapress
from gachapress.export import TARGETS

ROOT = Path(__file__).resolve().parents[1]
BOOK_GAMES = os.environ.get("GACHAPRESS_BOOK_GAMES", "10")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cli(project: Path, *args: str) -> float:
    """CPU seconds of one `gachapress` command in ``project``."""
    start = _children_cpu()
    gachapress(project, *args, env={"GACHAPRESS_BOOK_GAMES": BOOK_GAMES})
    return _children_cpu() - start


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        for name in ("rules", "templates"):
            shutil.copytree(ROOT / name, project / name)
        cli(project, "list")  # the font cache, made once, counts for neither side
        cli(project, "build", GAME_IDS[0], "--out", str(project / "warm"))
        header = f"{'game':<16}{'build':>12}" + "".join(f"{t:>9}" for t in TARGETS)
        print(f"CPU seconds, cold (build: SVGs, both PDFs, rulebooks, {BOOK_GAMES} book games)")
        print(header + f"{'no-op':>9}")
        totals = [0.0] * (len(TARGETS) + 2)
        for game in GAME_IDS:
            row = [cli(project, "build", game, "--out", str(project / f"build-{game}"))]
            for target in TARGETS:
                out = project / f"out-{game}-{target}"
                row.append(cli(project, "export", game, "--to", target, "--out", str(out)))
            row.append(cli(project, "export", game, "--to", target, "--out", str(out)))
            totals = [a + b for a, b in zip(totals, row, strict=True)]
            print(
                f"{game:<16}"
                + "".join(f"{v:>9.1f}" if i else f"{v:>12.1f}" for i, v in enumerate(row))
            )
        print(
            f"{'all five':<16}"
            + "".join(f"{v:>9.1f}" if i else f"{v:>12.1f}" for i, v in enumerate(totals))
        )
        print(
            "(no-op: the last target exported again, nothing to render: the checks and the"
            " face layout alone)"
        )


if __name__ == "__main__":
    main()

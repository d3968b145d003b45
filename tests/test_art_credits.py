"""The OpenMoji credit: its licence (CC BY-SA 4.0) asks for the attribution wherever its art is
drawn, so the print-and-play PDFs, the rulebooks and the site index print it exactly when a
face of the game draws OpenMoji art; a game drawn with its own art files is not credited to it."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import run_cli

GAME = "tide-pool"
ART = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle r="4"/></svg>'


def own_art(rules: Path) -> None:
    """Every card that `new` gives an OpenMoji emoji draws the designer's own file instead."""
    (rules / "shell.svg").write_text(ART, encoding="utf-8")
    table = rules / "cards.csv"
    rows = list(csv.DictReader(table.read_text(encoding="utf-8").splitlines()))
    assert any(row["art.openmoji"] for row in rows), "the sample game draws no OpenMoji"
    for row in rows:
        row["art.file"] = "shell.svg" if row.pop("art.openmoji") else ""
    with table.open("w", encoding="utf-8", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


@pytest.mark.parametrize("openmoji", [True, False], ids=["openmoji-art", "own-art"])
def test_the_openmoji_credit_is_printed_exactly_when_its_art_is_drawn(
    tmp_path: Path, openmoji: bool
) -> None:
    assert run_cli("new", GAME, cwd=tmp_path).code == 0
    if not openmoji:
        own_art(tmp_path / "rules" / GAME)
    built = run_cli("build", "--paper", "a4", cwd=tmp_path)
    assert built.code == 0, built.err
    out = tmp_path / "out"
    pnp = pdf_text(out / GAME / f"{GAME}-pnp-a4.pdf")
    assert "Fonts:" in pnp  # the credits were read
    outputs = {
        "print-and-play PDF": pnp,
        "rulebook": (out / GAME / "rulebook.en.html").read_text(encoding="utf-8"),
        "rulebook PDF": pdf_text(out / GAME / "rulebook.en.pdf"),
        "site index": (out / "index.html").read_text(encoding="utf-8"),
    }
    for name, text in outputs.items():
        assert ("OpenMoji" in text) == openmoji, f"{name}: OpenMoji credited: {not openmoji}"
        assert ("CC BY-SA 4.0" in text) == openmoji, name

"""The OpenMoji credit: its licence (CC BY-SA 4.0) asks for the attribution wherever its art is
drawn, so the print-and-play PDFs, the rulebooks and the site index print it exactly when a
face of the game draws OpenMoji art; a game drawn with its own art files is not credited to it."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import run_cli

GAME = "tide-pool"
ART = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle r="4"/></svg>'


def own_art(rules: Path) -> None:
    """Every card that `new` gives an OpenMoji emoji draws the designer's own file instead."""
    (rules / "shell.svg").write_text(ART, encoding="utf-8")
    rows = read_cards(rules)
    assert any(row["art.openmoji"] for row in rows), "the sample game draws no OpenMoji"
    for row in rows:
        row["art.file"] = "shell.svg" if row.pop("art.openmoji") else ""
    write_cards(rules, rows)


def read_cards(rules: Path) -> list[dict[str, str]]:
    return list(csv.DictReader((rules / "cards.csv").read_text(encoding="utf-8").splitlines()))


def write_cards(rules: Path, rows: list[dict[str, str]]) -> None:
    with (rules / "cards.csv").open("w", encoding="utf-8", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def in_japanese_too(root: Path) -> None:
    """The game published in English and Japanese (its texts the same in both), its book the
    plain one of its components."""
    rules = root / "rules" / GAME
    game = (rules / "game.yaml").read_text(encoding="utf-8")
    game = re.sub(r"^name: (.+)$", r"name: {en: \1, ja: \1}\nlanguages: [en, ja]", game, flags=re.M)
    (rules / "game.yaml").write_text(game, encoding="utf-8")
    decks = (rules / "decks.yaml").read_text(encoding="utf-8")
    decks = re.sub(r"^    name: (.+)$", r"    name: {en: \1, ja: \1}", decks, flags=re.M)
    (rules / "decks.yaml").write_text(decks, encoding="utf-8")
    texts = ("name", "effect")
    rows = [
        {key: value for key, value in row.items() if key not in texts}
        | {f"{key}.{lang}": row[key] for key in texts for lang in ("en", "ja")}
        for row in read_cards(rules)
    ]
    write_cards(rules, rows)
    (rules / "book.yaml").unlink()


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


def test_openmoji_drawn_on_the_japanese_faces_alone_is_credited_everywhere(tmp_path: Path) -> None:
    """The English faces (those of the print-and-play PDF) draw the designer's own art, the
    Japanese backs an OpenMoji emoji: the game uses OpenMoji, so every output credits it."""
    assert run_cli("new", GAME, cwd=tmp_path).code == 0
    own_art(tmp_path / "rules" / GAME)
    in_japanese_too(tmp_path)
    layout = tmp_path / "templates" / "cards" / f"{GAME}.yaml"
    back = layout.read_text(encoding="utf-8").replace(
        '    back:\n      background: "#24283b"\n      elements:\n',
        '    back:\n      background: "#24283b"\n      elements:\n'
        '        - {kind: art, box: [20, 55, 23, 23], art: "openmoji:1F30A", langs: [ja]}\n',
    )
    assert back != layout.read_text(encoding="utf-8"), "the layout's back was not found"
    layout.write_text(back, encoding="utf-8")
    built = run_cli("build", "--paper", "a4", cwd=tmp_path)
    assert built.code == 0, built.err
    out = tmp_path / "out"
    art = 'id="back-main-a0'  # the back's first picture
    assert art not in (out / GAME / "cards" / "back-main.svg").read_text(encoding="utf-8")
    assert art in (out / GAME / "cards" / "ja" / "back-main.svg").read_text(encoding="utf-8")
    outputs = {
        "print-and-play PDF": pdf_text(out / GAME / f"{GAME}-pnp-a4.pdf"),
        "English rulebook": (out / GAME / "rulebook.en.html").read_text(encoding="utf-8"),
        "Japanese rulebook": (out / GAME / "rulebook.ja.html").read_text(encoding="utf-8"),
        "site index": (out / "index.html").read_text(encoding="utf-8"),
    }
    for name, text in outputs.items():
        assert "OpenMoji" in text, f"{name}: OpenMoji not credited"

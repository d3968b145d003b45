"""gachapress as a designer gets it: the wheel installed (not editable) into a fresh venv, used
in an empty folder, following the README's guide ("Your own game") with a spreadsheet deck of
one's own: `new`, `check`, `build`, `export --to tts`, and the files a printer and Tabletop
Simulator take."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import ROOT, Run
from tests.pnp_reading import printed_two_sided
from tests.test_designer_game import HARBOR

GAME = "harbor"
SUITS = {"anchor": "#1d3557", "gull": "#6c757d", "lamp": "#9a5b00", "rope": "#8d5a3b"}
DECKS = (
    HARBOR
    + """\
    cards: {from: cards.csv}
    checks:
      per_value: {suit: 10}
      unique: [[suit, name]]
"""
)


def own_deck() -> str:
    """40 distinct faces of one's own: each suit 1-9, and a tide card of each suit."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # as a spreadsheet on Windows saves it
    writer.writerow(["id", "count", "name", "suit", "value", "effect"])
    for suit in SUITS:
        for value in range(1, 10):
            writer.writerow([f"{suit}-{value}", 1, f"{suit.title()} {value}", suit, value, ""])
        tide = f"Move a {suit} card."
        writer.writerow([f"{suit}-tide", 1, f"{suit.title()} tide", suit, 9, tide])
    return out.getvalue()


def guide_commands() -> list[list[str]]:
    """The `gachapress` commands of the README's guide, in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    guide = text[text.index("## Your own game") : text.index("### The deck: fields and cards")]
    blocks = re.findall(r"```sh\n(.*?)```", guide, flags=re.S)
    return [line.split() for block in blocks for line in block.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def gachapress(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The `gachapress` command of a fresh venv holding the wheel of this checkout (its
    dependencies are this test run's, on the venv's path: the wheel itself is what is tried)."""
    wheels = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(wheels)],
        check=True,
    )
    (wheel,) = wheels.glob("gachapress-*.whl")
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q",
         str(wheel)],
        check=True,
    )  # fmt: skip
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv / "bin" / "gachapress"


def run(gachapress: Path, args: list[str], cwd: Path) -> Run:
    assert args[0] == "gachapress"
    done = subprocess.run(
        [str(gachapress), *args[1:]], cwd=cwd, capture_output=True, text=True, timeout=900
    )
    return Run(done.returncode, done.stdout, done.stderr)


def test_the_wheel_is_not_this_checkout(gachapress: Path, tmp_path: Path) -> None:
    where = subprocess.run(
        [str(gachapress.parent / "python"), "-c", "import gachapress; print(gachapress.__file__)"],
        capture_output=True, text=True, check=True, cwd=tmp_path,
    ).stdout  # fmt: skip
    assert str(ROOT / "src") not in where and "site-packages" in where


def test_from_an_empty_folder_to_a_printed_deck(gachapress: Path, tmp_path: Path) -> None:
    commands = guide_commands()
    assert [c[:2] for c in commands] == [
        ["gachapress", "new"], ["gachapress", "check"], ["gachapress", "build"],
        ["gachapress", "export"],
    ]  # fmt: skip
    made = run(gachapress, commands[0], tmp_path)
    assert made.code == 0, made.err
    # The designer's own deck: a spreadsheet, its fields, and the layout's colours for them.
    game = tmp_path / "rules" / GAME
    (game / "cards.csv").write_bytes(own_deck().encode("utf-8-sig"))  # with a BOM, as Excel
    (game / "decks.yaml").write_text(DECKS, encoding="utf-8")
    layout = tmp_path / "templates" / "cards" / f"{GAME}.yaml"
    text = layout.read_text(encoding="utf-8")
    palette = "".join(f'  {suit}: "{hex}"\n' for suit, hex in SUITS.items())
    text = re.sub(r"palette:\n(  .*\n)+", f"palette:\n{palette}", text)
    layout.write_text(text, encoding="utf-8")
    for command in commands[1:]:
        result = run(gachapress, command, tmp_path)
        assert result.code == 0, (command, result.err)
    out = tmp_path / "out" / GAME
    rows = list(csv.DictReader(io.StringIO(own_deck())))
    assert len(rows) == 40
    # a face per card showing its fields
    for row in rows:
        face = (out / "cards" / f"{row['id']}.svg").read_text(encoding="utf-8")
        assert row["name"] in face and f">{row['value']}<" in face, row["id"]
        assert SUITS[row["suit"]] in face
        assert "None" not in face
    assert "Move a lamp card." in (out / "cards" / "lamp-tide.svg").read_text(encoding="utf-8")
    # the print-and-play PDFs: every card once, its back behind it, printed two-sided
    for paper in ("a4", "letter"):
        reader = PdfReader(out / f"{GAME}-pnp-{paper}.pdf")
        assert len(reader.pages) % 2 == 0
        printed = printed_two_sided(reader, {row["id"]: "back-main" for row in rows})
        assert printed == {row["id"]: 1 for row in rows}
    # the rulebook, with every face
    book = (out / "rulebook.en.html").read_text(encoding="utf-8")
    assert "<h1>Harbor</h1>" in book or ">Harbor<" in book
    assert all(f"cards/{row['id']}.svg" in book for row in rows)
    assert (out / "rulebook.en.pdf").is_file()
    # Tabletop Simulator: one deck of every copy
    saved = json.loads((out / "export" / "tts" / f"{GAME}.json").read_text(encoding="utf-8"))
    decks = [o for o in saved["ObjectStates"] if o["Name"] == "Deck"]
    assert [len(d["DeckIDs"]) for d in decks] == [40]
    # a bad cell: exit 1, located at its row and column
    bad = own_deck().replace("gull-4,1,Gull 4,gull,4", "gull-4,1,Gull 4,gull,14")
    (game / "cards.csv").write_text(bad, encoding="utf-8")
    checked = run(gachapress, ["gachapress", "check", GAME], tmp_path)
    assert checked.code == 1
    assert "rules/harbor/cards.csv:15:5: error: value: 14 is above the maximum 9" in checked.err

"""A designer's spreadsheet deck of any size, in a scratch project made by `gachapress new`:
four fields (a name, a suit, a value and an effect whose text wraps), art on half the cards and
counts that add up to about twice the faces. The benchmarks of a designer's own game share it."""

from __future__ import annotations

import csv
import io
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

from example_project import gachapress

GAME = "bench-deck"
SUITS = ("sun", "moon", "star")
ART = ("1F31E", "1F319", "2B50")
DECKS = """\
decks:
  main:
    name: Sample cards
    fields:
      suit: {type: enum, values: [sun, moon, star]}
      value: {type: int, min: 1, max: 5}
      effect: {type: text, required: false}
    cards: {from: cards.csv}
"""
EFFECT = "Swap a card with the player on your left, then look at the top card of the deck."
#: A card's art: the spreadsheet column and the value for card ``i`` (from 0), or None.
ArtColumn = tuple[str, Callable[[int], str | None]]
OPENMOJI: ArtColumn = ("art.openmoji", lambda i: ART[i % 3] if i % 2 == 0 else None)


def deck_csv(faces: int, art: ArtColumn = OPENMOJI) -> str:
    """``faces`` distinct cards: suit, value, effect (every third card), and ``art``'s picture
    on every card it gives one."""
    column, art_of = art
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "count", "name", "suit", "value", "effect", column])
    for i in range(faces):
        writer.writerow([
            f"card-{i + 1}",
            1 + i % 3 // 2 + (i % 2),
            f"Card {i + 1}",
            SUITS[i % 3],
            1 + i % 5,
            EFFECT if i % 3 == 0 else "",
            art_of(i) or "",
        ])  # fmt: skip
    return out.getvalue()


def art_files(folder: Path, faces: int) -> ArtColumn:
    """A small art file of its own for every other card, in ``folder``: SVGs and PNGs in
    turn, each of its own colour. Returns the spreadsheet column naming them."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(0, faces, 2):
        red, green, blue = (i * 37) % 256, (i * 91) % 256, (i * 53) % 256
        if i % 4 == 0:
            (folder / f"card-{i + 1}.svg").write_text(
                '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 72 72" width="72" '
                f'height="72"><circle cx="36" cy="36" r="{20 + i % 13}" '
                f'fill="#{red:02x}{green:02x}{blue:02x}"/><rect x="30" y="10" width="12" '
                'height="52" fill="#222222"/></svg>',
                encoding="utf-8",
            )
        else:
            (folder / f"card-{i + 1}.png").write_bytes(_png(16, 16, (red, green, blue)))
    name = folder.name
    return ("art.file", lambda i: f"{name}/card-{i + 1}.{'svg' if i % 4 == 0 else 'png'}"
            if i % 2 == 0 else None)  # fmt: skip


def _png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A PNG of one colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\0" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))  # fmt: skip


def designer_project(root: Path, faces: int, own_art: bool = False) -> Path:
    """A project in ``root`` holding the game GAME with a deck of ``faces`` distinct faces
    (art from OpenMoji, or with ``own_art`` files of the game's own); returns its rules
    folder."""
    gachapress(root, "new", GAME)
    rules = root / "rules" / GAME
    art = art_files(rules / "art", faces) if own_art else OPENMOJI
    (rules / "cards.csv").write_text(deck_csv(faces, art), encoding="utf-8")
    (rules / "decks.yaml").write_text(DECKS, encoding="utf-8")
    return rules

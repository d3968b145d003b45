"""Reading a print-and-play PDF back as a printer sees it: where each face's form is placed,
and where a point of a sheet's front lies on its back."""

from __future__ import annotations

from dataclasses import dataclass

from pypdf import PdfReader
from pypdf.generic import ContentStream

PT = 72 / 25.4
#: How a face's form is named in a print-and-play page's resources (then the face's key).
FACE = "/face-"


@dataclass(frozen=True)
class Placed:
    """A face placed on a page: its key and its bleed box, mm from the page's top-left."""

    key: str
    left: float
    top: float
    width: float
    height: float

    @property
    def centre(self) -> tuple[float, float]:
        return self.left + self.width / 2, self.top + self.height / 2


def placements(reader: PdfReader, number: int) -> list[Placed]:
    """Every face form drawn on a page, with the box it covers."""
    page = reader.pages[number]
    height = float(page.mediabox.height) / PT
    forms = page["/Resources"].get("/XObject", {})
    out, last = [], None
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"cm":
            last = (float(operands[4]), float(operands[5]))
        elif op == b"Do" and str(operands[0]).startswith(FACE) and last:
            box = [float(v) / PT for v in forms[operands[0]].get_object()["/BBox"]]
            w, h = box[2] - box[0], box[3] - box[1]
            key = str(operands[0])[len(FACE) :]
            out.append(Placed(key, last[0] / PT, height - last[1] / PT - h, w, h))
    return out


def behind(page_w: float, page_h: float, x: float, y: float) -> tuple[float, float]:
    """Where a point of a sheet's front lies on its back page, the sheet turned over on its
    long edge (a landscape sheet top over bottom, an upright one side over side)."""
    return (x, page_h - y) if page_w > page_h else (page_w - x, y)


def printed_two_sided(reader: PdfReader, backs: dict[str, str]) -> dict[str, int]:
    """How many times each face is printed on the card sheets (pages 5 on), checking that every
    front has its deck's back behind it (``backs``: face key -> back key)."""
    page_w = float(reader.pages[0].mediabox.width) / PT
    page_h = float(reader.pages[0].mediabox.height) / PT
    printed: dict[str, int] = {}
    for sheet in range(2, len(reader.pages) // 2):
        fronts = placements(reader, 2 * sheet)
        behind_fronts = placements(reader, 2 * sheet + 1)
        assert fronts and len(fronts) == len(behind_fronts), f"sheet {sheet + 1}"
        for front in fronts:
            x, y = behind(page_w, page_h, *front.centre)
            under = [
                b.key
                for b in behind_fronts
                if abs(b.centre[0] - x) < 0.5 and abs(b.centre[1] - y) < 0.5
            ]
            assert under == [backs[front.key]], f"sheet {sheet + 1}: {front.key} has {under}"
            printed[front.key] = printed.get(front.key, 0) + 1
    return printed

"""The A5 rulebook imposed for a home printer: two book pages a side of a landscape A4 or US
Letter sheet in saddle-stitch order, to print two-sided flipping on the short edge, fold in half
and staple on the fold. PDFium places each page unchanged (its fonts stay embedded, its text
extractable), scaled down only where half the sheet is smaller than A5 (Letter: 94 %).

Sheet 1's front holds the last page and page 1, its back pages 2 and n-1, and so on inwards,
so that the folded stack reads 1 to n."""

from __future__ import annotations

import hashlib
import io
import re

import pypdfium2
import pypdfium2.raw as pdfium_c
from reportlab.lib.pagesizes import A4, LETTER, landscape

#: The sheets a booklet is printed on, landscape, in points.
PAPERS = {"a4": landscape(A4), "letter": landscape(LETTER)}
#: The document ID PDFium writes (random on every save).
_ID = re.compile(rb"/ID\[<[0-9A-F]{32}><[0-9A-F]{32}>\]")
#: The date and time of the save PDFium writes (the clock's, to the second).
_DATE = re.compile(rb"(/CreationDate\(D:)\d{14}")
#: The creation date of every booklet (the books' own), so that the same book gives the same bytes;
#: as long as any date, so no offset in the file moves.
FIXED_DATE = b"20000101000000"  # the date reportlab writes in invariant mode


def booklet_order(pages: int) -> list[tuple[int, int]]:
    """The pages (from 1) on the left and right half of each side of paper: sheet 1's front,
    its back, sheet 2's front...; ``pages`` is a multiple of 4."""
    if pages % 4:
        raise ValueError(f"a saddle-stitched booklet needs a multiple of 4 pages, not {pages}")
    sides = []
    for sheet in range(pages // 4):
        first = 2 * sheet + 1
        sides.append((pages + 1 - first, first))  # front: the outside of the fold
        sides.append((first + 1, pages - first))  # back
    return sides


def impose_booklet(book: bytes, paper: str) -> bytes:
    """The A5 ``book`` (a multiple of 4 pages), two pages a side of landscape ``paper``."""
    source = pypdfium2.PdfDocument(book)
    ordered = pypdfium2.PdfDocument.new()
    ordered.import_pages(source, [page - 1 for side in booklet_order(len(source)) for page in side])
    width, height = PAPERS[paper]
    sheets = pypdfium2.PdfDocument(
        pdfium_c.FPDF_ImportNPagesToOne(ordered.raw, width, height, 2, 1)
    )
    out = io.BytesIO()
    sheets.save(out)
    return _fixed_id(_DATE.sub(rb"\g<1>" + FIXED_DATE, out.getvalue(), count=1))


def _fixed_id(pdf: bytes) -> bytes:
    """The PDF with its ID made from its content, so that the same book gives the same bytes."""
    digest = hashlib.md5(_ID.sub(b"", pdf), usedforsecurity=False).hexdigest().upper().encode()
    return _ID.sub(b"/ID[<" + digest + b"><" + digest + b">]", pdf, count=1)

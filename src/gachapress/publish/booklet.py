"""The A5 rulebook imposed for a home printer: two book pages a side of a landscape A4 or US
Letter sheet in saddle-stitch order, to print two-sided flipping on the short edge, fold in half
and staple on the fold. PDFium places each page unchanged (its fonts stay embedded, its text
extractable), scaled down only where half the sheet is smaller than A5 (Letter: 94 %).

Sheet 1's front holds the last page and page 1, its back pages 2 and n-1, and so on inwards,
so that the folded stack reads 1 to n. PDFium writes no title: the book's (its title, author,
subject, dates and language) are added after it, as an incremental update, by pypdf's objects."""

from __future__ import annotations

import hashlib
import io
import re

import pypdfium2
import pypdfium2.raw as pdfium_c
from pypdf import PdfReader
from pypdf.generic import DictionaryObject, IndirectObject, NameObject, NumberObject
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
#: Where the last cross-reference section starts.
_STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")
#: What a booklet takes over from the Info dictionary of the book it imposes.
INFO = ("/Title", "/Author", "/Subject", "/Creator", "/Keywords", "/CreationDate", "/ModDate")


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
    return _with_book_info(
        _fixed_id(_DATE.sub(rb"\g<1>" + FIXED_DATE, out.getvalue(), count=1)), book
    )


def _with_book_info(pdf: bytes, book: bytes) -> bytes:
    """``pdf`` (PDFium's, one classic cross-reference table) with the Info entries and the
    language of ``book``: a new Info dictionary and catalog appended as an incremental update
    (PDF 32000-1, 7.5.6), PDFium's bytes unchanged before it."""
    source, target = PdfReader(io.BytesIO(book)), PdfReader(io.BytesIO(pdf))
    found = _STARTXREF.search(pdf)
    if found is None:
        raise ValueError("the imposed booklet has no startxref")
    book_info = source.trailer["/Info"].get_object()
    info = DictionaryObject(target.trailer["/Info"].get_object())
    info.update({NameObject(key): book_info[key] for key in INFO if key in book_info})
    root = target.trailer.raw_get("/Root")
    catalog = DictionaryObject(target.trailer["/Root"].get_object())
    lang = source.trailer["/Root"].get_object().get("/Lang")
    if lang is not None:
        catalog[NameObject("/Lang")] = lang
    size = int(target.trailer["/Size"])
    out = io.BytesIO()
    out.write(pdf if pdf.endswith(b"\n") else pdf + b"\n")
    offsets = {}
    for number, value in sorted({root.idnum: catalog, size: info}.items()):
        offsets[number] = out.tell()
        out.write(b"%d 0 obj\n" % number)
        value.write_to_stream(out)
        out.write(b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 1\n0000000000 65535 f\r\n")  # the free list's head, as readers expect
    for number, offset in offsets.items():
        out.write(b"%d 1\n%010d 00000 n\r\n" % (number, offset))
    trailer = DictionaryObject(
        {
            NameObject("/Size"): NumberObject(size + 1),
            NameObject("/Root"): root,
            NameObject("/Info"): IndirectObject(size, 0, target),
            NameObject("/Prev"): NumberObject(int(found.group(1))),
            NameObject("/ID"): target.trailer["/ID"],
        }
    )
    out.write(b"trailer\n")
    trailer.write_to_stream(out)
    out.write(b"\nstartxref\n%d\n%%%%EOF\n" % xref)
    return out.getvalue()


def _fixed_id(pdf: bytes) -> bytes:
    """The PDF with its ID made from its content, so that the same book gives the same bytes."""
    digest = hashlib.md5(_ID.sub(b"", pdf), usedforsecurity=False).hexdigest().upper().encode()
    return _ID.sub(b"/ID[<" + digest + b"><" + digest + b">]", pdf, count=1)

"""The print-and-play sheets as pictures: PDF pages rendered to PNG with PDFium, cached by the
PDF's content so an unchanged sheet is never rendered twice."""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

#: Pixels per PDF point of the pictures (72 points to the inch: about 110 dpi).
SCALE = 1.5
_PDFIUM = threading.Lock()  # PDFium is not thread-safe


def pdf_digest(pdf: Path) -> str:
    return hashlib.sha256(pdf.read_bytes()).hexdigest()[:16]


def page_count(pdf: Path) -> int:
    import pypdfium2

    with _PDFIUM:
        document = pypdfium2.PdfDocument(pdf)
        try:
            return len(document)
        finally:
            document.close()


def page_picture(pdf: Path, page: int, cache_dir: Path) -> Path | None:
    """A PNG of page ``page`` (from 0) of ``pdf``, rendered once; None past the last page."""
    import pypdfium2

    target = cache_dir / f"{pdf.stem}-{pdf_digest(pdf)}-{page}.png"
    if target.is_file():
        return target
    with _PDFIUM:
        document = pypdfium2.PdfDocument(pdf)
        try:
            if not 0 <= page < len(document):
                return None
            image = document[page].render(scale=SCALE).to_pil()
        finally:
            document.close()
    cache_dir.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    image.save(temporary, format="PNG")
    temporary.replace(target)
    return target

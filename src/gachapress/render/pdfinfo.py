"""What every PDF says about itself: its document information (title, author, subject,
keywords, language, creator: never reportlab's "anonymous" and "unspecified") and, for a print
shop, the marks of PDF/X-1a:2001 (ISO 15930-1).

Dates are reportlab's: fixed in invariant mode, or ``SOURCE_DATE_EPOCH`` where it is set, so
the same inputs give the same bytes; the trailer's ``/ID`` is a digest of the document."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFDate,
    PDFDictionary,
    PDFInfo,
    PDFName,
    PDFString,
)
from reportlab.pdfgen.canvas import Canvas

CREATOR = "gachapress"

#: The registered printing condition (ICC Characterization Data Registry) the CMYK of the shop
#: PDFs is meant for: SWOP coated publication printing, the usual US condition. A registered
#: condition lets PDF/X-1a leave out the ICC profile (``DestOutputProfile``): the printer holds
#: it; none is shipped with gachapress.
OUTPUT_CONDITION = "CGATS TR 001"
OUTPUT_CONDITION_NAME = "SWOP (Specifications for Web Offset Publications), coated"
REGISTRY = "http://www.color.org"
PDFX_VERSION = "PDF/X-1:2001"
PDFX_CONFORMANCE = "PDF/X-1a:2001"
PDFX_PDF_VERSION = (1, 3)  # PDF/X-1a:2001 is a subset of PDF 1.3


@dataclass(frozen=True)
class DocumentInfo:
    """A PDF's document information and language."""

    title: str
    author: str
    subject: str
    lang: str
    keywords: tuple[str, ...] = ()

    def write(self, canvas: Canvas) -> None:
        """Set these on a canvas (before it is saved)."""
        canvas.setTitle(self.title)
        canvas.setAuthor(self.author)
        canvas.setSubject(self.subject)
        canvas.setCreator(CREATOR)
        canvas.setKeywords(list(self.keywords))
        canvas.setCatalogEntry("Lang", self.lang)

    def entries(self) -> dict[str, str]:
        """The document information dictionary, for the PDF writer (``pdfobjects``), dated
        as reportlab dates its files."""
        from reportlab.lib.utils import TimeStamp

        stamp = TimeStamp(invariant=True)
        year, month, day, hour, minute, second = stamp.YMDhms
        date = f"D:{year:04d}{month:02d}{day:02d}{hour:02d}{minute:02d}{second:02d}+00'00'"
        return {
            "Title": self.title,
            "Author": self.author,
            "Subject": self.subject,
            "Keywords": ", ".join(self.keywords),
            "Creator": CREATOR,
            "Producer": CREATOR,
            "CreationDate": date,
            "ModDate": date,
        }

    def template_arguments(self) -> Mapping[str, Any]:
        """The same as keyword arguments of a platypus document template."""
        return {
            "title": self.title,
            "author": self.author,
            "subject": self.subject,
            "creator": CREATOR,
            "keywords": list(self.keywords),
            "lang": self.lang,
        }


class _PdfXInfo(PDFInfo):
    """The document information with PDF/X's version keys."""

    def format(self, document: Any) -> bytes:
        date = PDFDate(ts=document._timeStamp, dateFormatter=self._dateFormatter)
        entries = {
            "Title": PDFString(self.title),
            "Author": PDFString(self.author),
            "Subject": PDFString(self.subject),
            "Keywords": PDFString(self.keywords),
            "Creator": PDFString(self.creator),
            "Producer": PDFString(self.producer),
            "CreationDate": date,
            "ModDate": date,
            "Trapped": PDFName("False"),  # nothing here is trapped; the printer may trap
            "GTS_PDFXVersion": PDFString(PDFX_VERSION),
            "GTS_PDFXConformance": PDFString(PDFX_CONFORMANCE),
        }
        return PDFDictionary(entries).format(document)


def begin_pdfx_1a(canvas: Canvas) -> None:
    """Make a fresh canvas a PDF/X-1a:2001 file: PDF 1.3, an output intent naming the registered
    printing condition, the PDF/X keys in its information. What it draws must be CMYK (or grey)
    only, with no transparency and every font embedded: :func:`end_pdfx_1a` checks the first."""
    document = canvas._doc
    document._pdfVersion = PDFX_PDF_VERSION
    info = _PdfXInfo()
    info.__dict__.update(document.info.__dict__)
    document.info = info
    intent = PDFDictionary(
        {
            "Type": PDFName("OutputIntent"),
            "S": PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": PDFString(OUTPUT_CONDITION),
            "OutputCondition": PDFString(OUTPUT_CONDITION_NAME),
            "RegistryName": PDFString(REGISTRY),
            "Info": PDFString(OUTPUT_CONDITION_NAME),
        }
    )
    catalog = document.Catalog
    catalog.OutputIntents = PDFArray([intent])
    # reportlab writes only the catalog keys its class lists: add this one for this document
    catalog.__NoDefault__ = [*type(catalog).__NoDefault__, "OutputIntents"]


def end_pdfx_1a(canvas: Canvas) -> None:
    """Before saving: ValueError when a page drew with transparency (an opacity below 1 or a
    blend mode), which PDF/X-1a forbids; else keep the file at PDF 1.3 (reportlab asks for
    PDF 1.4 whenever a colour carries an alpha, even an opaque one)."""
    transparent = sorted(
        f"{key} {value}"
        for key, value in canvas._extgstate._c
        if (key in ("ca", "CA") and value != 1) or (key == "BM" and value != "/Normal")
    )
    if transparent:
        raise ValueError(
            "PDF/X-1a forbids transparency, and a card of this file is drawn with some "
            f"({', '.join(transparent)}): make its art opaque"
        )
    canvas._doc._pdfVersion = PDFX_PDF_VERSION
